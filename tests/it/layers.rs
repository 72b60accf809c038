//! The library's modules form strictly downward layers (docs/architecture.md):
//! a module's code (not its tests, not its doc comments) names only modules
//! of its own layer or below. A new upward import fails here.

/// Modules by layer, from the bottom; a module's submodules (`pdn/parse`)
/// are in its layer.
const LAYERS: [&[&str]; 14] = [
    &["board", "diag", "store"],
    &["piece"],
    &["variant"],
    &["position"],
    &["pdn", "players"],
    &["rules"],
    &["draw", "notation", "openings"],
    &["infer"],
    &["replay"],
    &["check"],
    &["diagram", "export", "select", "batch"],
    &["dupes"],
    &["tournament"],
    &["stats"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The modules a file's code names as `crate::NAME` (and `crate::cmd::NAME`
/// as `cmd::NAME`, in the binary), its tests and comments left out.
fn named(text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or("");
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + 7..];
            let mut name = word(rest);
            if let Some(sub) = rest.strip_prefix("cmd::") {
                name = format!("cmd::{}", word(sub));
            }
            if !name.is_empty() && !out.contains(&name) {
                out.push(name);
            }
        }
        // `use crate::{a, b}` is not written in this code base; a grouped
        // import would be caught as a name the table does not know.
    }
    out
}

#[test]
fn modules_import_only_from_layers_below() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    let mut files = 0;
    for e in walkdir::WalkDir::new(&src)
        .into_iter()
        .filter_map(Result::ok)
    {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "rs") || p.starts_with(src.join("bin")) {
            continue;
        }
        let rel = p.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = top.trim_end_matches(".rs").to_string();
        if module == "lib" {
            continue;
        }
        let Some(own) = layer(&module) else {
            problems.push(format!(
                "{}: module {module} is in no layer of the table",
                rel.display()
            ));
            continue;
        };
        files += 1;
        let text = std::fs::read_to_string(p).unwrap();
        for dep in named(&text) {
            match layer(&dep) {
                Some(l) if l <= own => {}
                Some(l) => problems.push(format!(
                    "{}: {module} (layer {own}) imports {dep} (layer {l}), a layer above it",
                    rel.display()
                )),
                None => problems.push(format!("{}: crate::{dep} is in no layer", rel.display())),
            }
        }
    }
    assert!(files > 20, "{files} files");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_table_names_every_module_of_lib_rs_in_order() {
    let lib = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs")).unwrap();
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| {
            l.strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("pub(crate) mod "))
        })
        .map(|l| l.trim_end_matches(';'))
        .collect();
    let table: Vec<&str> = LAYERS.iter().flat_map(|l| l.iter().copied()).collect();
    assert_eq!(declared, table, "lib.rs lists the modules in layer order");
}

/// The binary's modules, by layer from the bottom (docs/architecture.md):
/// a module's code names only modules of layers strictly below its own, and
/// a subcommand (`cmd/NAME`) names no other subcommand. So there is no
/// import circle in the binary, and the exit statuses live at its bottom.
const BIN_LAYERS: [&[&str]; 9] = [
    &["exit", "screen", "style"],
    &["render"],
    &["output"],
    &["progress"],
    &["common"],
    &["parquet_out"],
    &["index_file"],
    &["cmd"],
    &["main"],
];

#[test]
fn the_binary_imports_only_from_layers_below() {
    let bin = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin/pdnkit");
    let layer = |m: &str| BIN_LAYERS.iter().position(|l| l.contains(&m));
    let mut problems = Vec::new();
    let mut files = 0;
    for e in walkdir::WalkDir::new(&bin)
        .into_iter()
        .filter_map(Result::ok)
    {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let rel = p.strip_prefix(&bin).unwrap();
        let parts: Vec<String> = rel
            .components()
            .map(|c| {
                c.as_os_str()
                    .to_string_lossy()
                    .trim_end_matches(".rs")
                    .to_string()
            })
            .collect();
        let module = parts[0].clone();
        // The subcommand a file of `cmd/` belongs to (`cmd/report/charts.rs`: report).
        let command =
            (module == "cmd" && parts.len() > 1 && parts[1] != "mod").then(|| parts[1].clone());
        let Some(own) = layer(&module) else {
            problems.push(format!(
                "{}: module {module} is in no layer of the table",
                rel.display()
            ));
            continue;
        };
        files += 1;
        let text = std::fs::read_to_string(p).unwrap();
        for dep in named(&text) {
            if let Some(other) = dep.strip_prefix("cmd::") {
                if command.as_deref() != Some(other) && module != "main" {
                    problems.push(format!("{}: names the subcommand {other}", rel.display()));
                }
                continue;
            }
            match layer(&dep) {
                Some(l) if l < own || dep == module => {}
                Some(l) => problems.push(format!(
                    "{}: {module} (layer {own}) names {dep} (layer {l}), not a layer below it",
                    rel.display()
                )),
                None => problems.push(format!("{}: crate::{dep} is in no layer", rel.display())),
            }
        }
    }
    assert!(files > 15, "{files} files");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // main.rs declares the modules of the table, and nothing else.
    let main = std::fs::read_to_string(bin.join("main.rs")).unwrap();
    let mut declared: Vec<&str> = main
        .lines()
        .filter_map(|l| l.strip_prefix("mod "))
        .filter_map(|l| l.strip_suffix(';'))
        .collect();
    declared.sort();
    let mut table: Vec<&str> = BIN_LAYERS
        .iter()
        .flat_map(|l| l.iter().copied())
        .filter(|m| *m != "main")
        .collect();
    table.sort();
    assert_eq!(
        declared, table,
        "main.rs declares the modules of BIN_LAYERS"
    );
}

/// Every command returns its exit status to `main`, the one place the
/// process ends; the statuses are named in one module (`exit`), which also
/// holds the only other way out (a signal handler cannot return to `main`).
#[test]
fn one_exit_path() {
    let bin = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin/pdnkit");
    for e in walkdir::WalkDir::new(&bin)
        .into_iter()
        .filter_map(Result::ok)
    {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(p).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let rel = p.strip_prefix(&bin).unwrap();
        if rel != std::path::Path::new("exit.rs") {
            assert!(
                !code.contains("process::exit"),
                "{}: calls process::exit",
                p.display()
            );
            assert!(
                !code.contains("const FAILED"),
                "{}: an exit status outside exit.rs",
                p.display()
            );
        }
    }
    let main = std::fs::read_to_string(bin.join("main.rs")).unwrap();
    assert_eq!(main.matches("fn main()").count(), 1);
}

/// Issue 61 item 4: the binary's sinks answer with `ControlFlow<Stop>`
/// straight through. No struct of the binary keeps why writing stopped or
/// whether the run failed (`stop`, `stopped`, `failed`, `read_errors`
/// fields), no `bool` is turned into a `ControlFlow` (`output::flow`), and
/// the run's failure is marked in `exit.rs` alone (`exit::fail`,
/// `exit::failed`): no command computes status 2 itself.
#[test]
fn the_binary_sinks_answer_with_control_flow_and_one_flag_fails_the_run() {
    let field =
        regex::Regex::new(r"(?m)^\s+(stop|stopped|failed|read_errors|too_many)\s*:\s*[A-Za-z(]")
            .unwrap();
    let mut problems = Vec::new();
    for (rel, code) in source_files() {
        if !rel.starts_with("bin/") {
            continue;
        }
        let code = code_only(&code);
        if let Some(m) = field.find(&code) {
            problems.push(format!("{rel}: keeps `{}`", m.as_str().trim()));
        }
        if code.contains("fn flow(") || code.contains("output::flow") {
            problems.push(format!("{rel}: turns a bool into a ControlFlow"));
        }
        if !rel.ends_with("exit.rs") && code.contains("exit::FAILED") {
            problems.push(format!(
                "{rel}: gives status 2 without marking the run failed"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Issue 52: the reader's files import one another without a circle (the
/// fast path and the lexer take the grammar's `is_ident`, the reader the
/// lexer's `LOOKAHEAD`): the graph of `super::NAME` between the files of
/// `src/pdn/` (their code, not their tests) has no cycle, and no file takes
/// a name from `pdn/mod.rs`, which only declares and re-exports (the
/// vocabulary is `vocab.rs`).
#[test]
fn the_reader_files_import_one_another_without_a_circle() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/pdn");
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    let mut modules = Vec::new();
    let mut facade = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rs") && p.file_stem().is_some_and(|s| s != "mod") {
            modules.push(p.file_stem().unwrap().to_string_lossy().into_owned());
        }
    }
    for m in &modules {
        let text = std::fs::read_to_string(dir.join(format!("{m}.rs"))).unwrap();
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap_or("")
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join(" ");
        // Every name a `super::` path or group names first.
        let mut names: Vec<String> = Vec::new();
        let ident = |s: &str| -> String {
            s.trim()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        };
        let mut rest = code.as_str();
        while let Some(i) = rest.find("super::") {
            rest = &rest[i + 7..];
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                names.extend(group[..end].split(',').map(ident));
            } else {
                names.push(ident(rest));
            }
        }
        for name in names.into_iter().filter(|n| !n.is_empty()) {
            if modules.contains(&name) {
                if &name != m {
                    edges.entry(m.clone()).or_default().insert(name);
                }
            } else if name != "super" && name != "self" {
                // `pdn/mod.rs` only declares and re-exports: a file takes
                // each name from the file that defines it.
                facade.push(format!("{m}.rs: super::{name}"));
            }
        }
    }
    assert!(
        edges.values().map(|s| s.len()).sum::<usize>() >= 3,
        "{edges:?}"
    );
    // Depth-first search for a back edge.
    fn visit(
        m: &str,
        edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == m) {
            let mut cycle = path[at..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for n in edges.get(m).into_iter().flatten() {
            if let Some(c) = visit(n, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = Default::default();
    for m in &modules {
        if let Some(cycle) = visit(m, &edges, &mut Vec::new(), &mut done) {
            panic!("an import circle in src/pdn: {}", cycle.join(" -> "));
        }
    }
}

/// `text` with the insides of comments, strings and character literals
/// blanked (line breaks kept): what is left is code whose braces count.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let blank = |out: &mut Vec<u8>, c: u8| out.push(if c == b'\n' { b'\n' } else { b' ' });
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    if depth == 0 {
                        out.extend_from_slice(b"  ");
                        i += 2;
                        break;
                    }
                }
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if rest.starts_with(b"r\"") || rest.starts_with(b"r#") || rest.starts_with(b"br\"") {
            // A raw string: `r#"..."#`, its hashes counted.
            let start = i + rest.iter().position(|&c| c == b'r').unwrap_or(0) + 1;
            let hashes = b[start..].iter().take_while(|&&c| c == b'#').count();
            if b.get(start + hashes) != Some(&b'"') {
                out.push(b[i]);
                i += 1;
                continue;
            }
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let body = start + hashes + 1;
            let end = b[body..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |p| body + p + close.len());
            for &c in &b[i..end] {
                blank(&mut out, c);
            }
            i = end;
        } else if b[i] == b'"' {
            blank(&mut out, b[i]);
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    blank(&mut out, b[i]);
                    i += 1;
                }
                if i < b.len() {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
            out.push(b' ');
            i += 1;
        } else if b[i] == b'\'' {
            // A character literal (`'{'`, `'\n'`, `'\''`), not a lifetime.
            let len = match (b.get(i + 1), b.get(i + 2)) {
                (Some(b'\\'), _) => b[i + 2..].iter().position(|&c| c == b'\'').map(|p| p + 3),
                (Some(_), Some(b'\'')) => Some(3),
                _ => None,
            };
            match len {
                Some(n) => {
                    out.extend(std::iter::repeat_n(b' ', n.min(b.len() - i)));
                    i += n;
                }
                None => {
                    out.push(b'\'');
                    i += 1;
                }
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The files of `src/` (binary included), with their text up to their
/// test module.
fn source_files() -> Vec<(String, String)> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for e in walkdir::WalkDir::new(&src)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
    {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(p).unwrap();
        let code = match text.find("#[cfg(test)]\nmod tests") {
            Some(i) => text[..i].to_string(),
            None => text,
        };
        files.push((p.strip_prefix(&src).unwrap().display().to_string(), code));
    }
    files
}

/// Issue 52: no file under `src/` over 1,000 lines of code (comments and
/// blank lines left out, tests left out), and no function over 100 lines
/// (from its `fn` line to its closing brace).
#[test]
fn no_file_over_1000_lines_and_no_function_over_100() {
    let fn_line = |l: &str| {
        let t = l.trim_start();
        let t = t
            .strip_prefix("pub(crate) ")
            .or(t.strip_prefix("pub(super) "))
            .unwrap_or(t);
        let t = t.strip_prefix("pub ").unwrap_or(t);
        let t = t.strip_prefix("const ").unwrap_or(t);
        let t = t.strip_prefix("unsafe ").unwrap_or(t);
        t.starts_with("fn ") && !l.trim_end().ends_with(';')
    };
    let mut problems = Vec::new();
    let mut functions = 0;
    let files = source_files();
    assert!(files.len() > 50, "{} files", files.len());
    for (name, text) in &files {
        let code = code_only(text);
        let lines: Vec<&str> = code.lines().collect();
        let counted = lines.iter().filter(|l| !l.trim().is_empty()).count();
        if counted > 1000 {
            problems.push(format!("{name}: {counted} lines of code"));
        }
        for (i, l) in lines.iter().enumerate() {
            if !fn_line(l) {
                continue;
            }
            functions += 1;
            let mut depth = 0i64;
            let mut started = false;
            let mut end = i;
            'scan: for (j, m) in lines.iter().enumerate().skip(i) {
                for c in m.bytes() {
                    match c {
                        b'{' => {
                            depth += 1;
                            started = true;
                        }
                        b'}' => depth -= 1,
                        _ => {}
                    }
                    if started && depth == 0 {
                        end = j;
                        break 'scan;
                    }
                }
            }
            let len = end - i + 1;
            if len > 100 {
                problems.push(format!("{name}:{}: a function of {len} lines", i + 1));
            }
        }
    }
    assert!(functions > 1000, "{functions} functions found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The scanner above counts the braces of code only.
#[test]
fn braces_in_strings_comments_and_characters_do_not_count() {
    let text = "fn a() { let s = \"{{\"; let c = '{'; let b = b'}'; // {\n/* { */ let r = r#\"}\"#; x::<'a>() }";
    let code = code_only(text);
    assert_eq!(code.matches('{').count(), 1, "{code}");
    assert_eq!(code.matches('}').count(), 1, "{code}");
    assert!(code.contains("x::<'a>()"), "{code}");
}

/// Issue 61 item 1: every file of the library and the binary says what it
/// uses. No glob import (`use super::*`, `use child::*`) outside test
/// modules (a crate's `prelude::*` aside): a child's glob picks up its parent's private imports, and no
/// file then says what it names.
#[test]
fn no_file_imports_with_a_glob_outside_its_tests() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    let mut files = 0;
    for e in walkdir::WalkDir::new(&src)
        .into_iter()
        .filter_map(Result::ok)
    {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "rs") || p.file_name().is_some_and(|n| n == "tests.rs")
        {
            continue;
        }
        files += 1;
        let text = std::fs::read_to_string(p).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (n, line) in code.lines().enumerate() {
            let l = line.trim_start();
            let is_use = l.starts_with("use ") || (l.starts_with("pub") && l.contains(" use "));
            // A crate's prelude is made to be imported whole.
            if is_use && l.trim_end().ends_with("::*;") && !l.contains("prelude::*") {
                problems.push(format!(
                    "{}:{}: {}",
                    p.strip_prefix(&src).unwrap().display(),
                    n + 1,
                    l
                ));
            }
        }
    }
    assert!(files > 40, "{files} files");
    assert!(
        problems.is_empty(),
        "glob imports outside tests:\n{}",
        problems.join("\n")
    );
}

/// A library file's module path (`src/tournament/model.rs`: tournament,
/// model; `src/tournament/mod.rs`: tournament; `src/lib.rs`: none).
fn module_of(rel: &std::path::Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The library's files (not the binary's, not test files), by module path:
/// (relative path, code up to its test module with comments and strings blanked).
fn library_files() -> std::collections::BTreeMap<Vec<String>, (String, String)> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = std::collections::BTreeMap::new();
    for e in walkdir::WalkDir::new(&src)
        .into_iter()
        .filter_map(Result::ok)
    {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "rs")
            || p.starts_with(src.join("bin"))
            || p.file_name().is_some_and(|n| n == "tests.rs")
        {
            continue;
        }
        let rel = p.strip_prefix(&src).unwrap();
        let text = std::fs::read_to_string(p).unwrap();
        let code = code_only(&text);
        // The test module is the last item of a file that has one.
        let code = match code.find("#[cfg(test)]\nmod ") {
            Some(at) => code[..at].to_string(),
            None => code,
        };
        out.insert(module_of(rel), (rel.display().to_string(), code));
    }
    out
}

/// The paths a file's code names: each `use` statement's paths (groups
/// expanded) and every other `crate::a::b` path.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    fn expand(prefix: &str, body: &str, out: &mut Vec<String>) {
        let body = body.trim();
        if let Some(open) = body.find('{') {
            let head = format!("{prefix}{}", &body[..open]);
            let inner = &body[open + 1..body.rfind('}').unwrap_or(body.len())];
            // Split at top-level commas.
            let (mut depth, mut start) = (0, 0);
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&head, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            expand(&head, &inner[start..], out);
        } else if !body.is_empty() {
            let path = body.split(" as ").next().unwrap_or(body).trim();
            out.push(format!("{prefix}{path}"));
        }
    }
    let mut paths = Vec::new();
    let uses = regex::Regex::new(r"(?m)^\s*(?:pub(?:\([a-z]+\))?\s+)?use\s+([^;]+);").unwrap();
    for c in uses.captures_iter(code) {
        let body: String = c[1].split_whitespace().collect::<Vec<_>>().join(" ");
        expand(
            "",
            &body.replace(":: ", "::").replace(" ::", "::"),
            &mut paths,
        );
    }
    let rest = uses.replace_all(code, "");
    let inline = regex::Regex::new(r"\b(?:crate|super)(?:::[A-Za-z_][A-Za-z0-9_]*)+").unwrap();
    paths.extend(inline.find_iter(&rest).map(|m| m.as_str().to_string()));
    paths
        .into_iter()
        .map(|p| p.split("::").map(|s| s.trim().to_string()).collect())
        .collect()
}

/// The file that defines what `path` names, seen from module `at`: the
/// module's file when the item is defined there, else where its `use` of
/// that name leads. `None` for what is outside the crate.
fn defining_file(
    files: &std::collections::BTreeMap<Vec<String>, (String, String)>,
    at: &[String],
    path: &[String],
    depth: usize,
) -> Option<Vec<String>> {
    if depth > 8 || path.is_empty() {
        return None;
    }
    let mut abs: Vec<String> = match path[0].as_str() {
        "crate" => path[1..].to_vec(),
        "self" => [at, &path[1..]].concat(),
        "super" => {
            let mut base = at.to_vec();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            [base.as_slice(), rest].concat()
        }
        // A child module, named from its parent.
        first if files.contains_key(&[at, &[first.to_string()]].concat()) => [at, path].concat(),
        _ => return None,
    };
    abs.retain(|s| s != "self");
    // The longest prefix that is a module with a file.
    let n = (0..=abs.len())
        .rev()
        .find(|&n| files.contains_key(&abs[..n]))?;
    let module = abs[..n].to_vec();
    let Some(item) = abs.get(n) else {
        return Some(module);
    };
    let (_, code) = &files[&module];
    let defines = regex::Regex::new(&format!(
        r"\b(?:struct|enum|union|trait|type|fn|const|static|mod|macro_rules!)\s+{}\b",
        regex::escape(item)
    ))
    .unwrap();
    if defines.is_match(code) {
        return Some(module);
    }
    // Brought in by a `use` of the module: follow it.
    for p in named_paths(code) {
        if p.last() == Some(item) && p.len() > 1 {
            if let Some(f) = defining_file(files, &module, &p, depth + 1) {
                return Some(f);
            }
        }
    }
    Some(module)
}

/// Issue 61 items 1 and 3: the files of the library import one another
/// without a circle (file A imports file B when A names something B
/// defines, through any re-export), and inside each folder at most two
/// imports run back up to the folder's `mod.rs`, which declares and
/// re-exports.
#[test]
fn no_import_circle_anywhere_in_the_library() {
    let files = library_files();
    let mut edges: std::collections::BTreeMap<
        Vec<String>,
        std::collections::BTreeSet<Vec<String>>,
    > = Default::default();
    for (module, (_, code)) in &files {
        for p in named_paths(code) {
            if let Some(to) = defining_file(&files, module, &p, 0) {
                if &to != module {
                    edges.entry(module.clone()).or_default().insert(to);
                }
            }
        }
    }
    assert!(
        edges.values().map(|s| s.len()).sum::<usize>() > 100,
        "{edges:?}"
    );
    let name = |m: &Vec<String>| files[m].0.clone();
    // Imports back up to a folder's mod.rs, by folder.
    let mut up: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for (from, tos) in &edges {
        for to in tos {
            if from.len() > to.len() && from.starts_with(to) && !to.is_empty() {
                up.entry(name(to)).or_default().push(name(from));
            }
        }
    }
    let mut problems: Vec<String> = up
        .iter()
        .filter(|(_, from)| from.len() > 2)
        .map(|(to, from)| format!("{} files import {to}: {}", from.len(), from.join(", ")))
        .collect();
    // Strongly connected components with more than one file.
    fn visit(
        m: &Vec<String>,
        edges: &std::collections::BTreeMap<Vec<String>, std::collections::BTreeSet<Vec<String>>>,
        path: &mut Vec<Vec<String>>,
        done: &mut std::collections::BTreeSet<Vec<String>>,
        cycles: &mut Vec<Vec<Vec<String>>>,
    ) {
        if let Some(at) = path.iter().position(|p| p == m) {
            cycles.push(path[at..].to_vec());
            return;
        }
        if done.contains(m) {
            return;
        }
        path.push(m.clone());
        for n in edges.get(m).into_iter().flatten() {
            visit(n, edges, path, done, cycles);
        }
        path.pop();
        done.insert(m.clone());
    }
    let (mut done, mut cycles) = (Default::default(), Vec::new());
    for m in files.keys() {
        visit(m, &edges, &mut Vec::new(), &mut done, &mut cycles);
    }
    for c in cycles {
        let mut names: Vec<String> = c.iter().map(name).collect();
        names.push(names[0].clone());
        problems.push(format!("import circle: {}", names.join(" -> ")));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Issue 61 item 3: one of each tool. The SplitMix finaliser is written once
/// (`position::splitmix`: position keys, the draw rules' Zobrist table and
/// the move hashes of `dupes` all take it), and positions are keyed by
/// `Position::key` alone (no module of its own `fn key(p: &Position)`).
#[test]
fn one_splitmix_and_one_position_key() {
    let mut mixers = Vec::new();
    let mut keys = Vec::new();
    for (name, text) in source_files() {
        let code = code_only(&text);
        let code = code.split("#[cfg(test)]\nmod ").next().unwrap_or("");
        let flat = code.to_ascii_lowercase().replace('_', "");
        // SplitMix64's second multiplier.
        if flat.contains("0xbf58476d1ce4e5b9") {
            mixers.push(name.clone());
        }
        if code.contains("fn key(p: &Position)") {
            keys.push(name);
        }
    }
    assert_eq!(mixers, ["position.rs"], "SplitMix written in {mixers:?}");
    assert!(keys.is_empty(), "a position key of its own in {keys:?}");
}
