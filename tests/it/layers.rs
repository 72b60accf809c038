//! The library's modules form strictly downward layers (docs/architecture.md):
//! a module's code (not its tests, not its doc comments) names only modules
//! of its own layer or below. A new upward import fails here.

/// Modules by layer, from the bottom; a module's submodules (`pdn/parse`)
/// are in its layer.
const LAYERS: [&[&str]; 12] = [
    &["board", "diag"],
    &["piece"],
    &["variant"],
    &["position"],
    &["pdn"],
    &["rules"],
    &["draw", "notation", "openings"],
    &["infer"],
    &["replay"],
    &["check"],
    &["diagram", "export", "select", "batch"],
    &["dupes", "stats", "tournament"],
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
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    let table: Vec<&str> = LAYERS.iter().flat_map(|l| l.iter().copied()).collect();
    assert_eq!(declared, table, "lib.rs lists the modules in layer order");
}

/// The binary's modules, by layer from the bottom (docs/architecture.md):
/// a module's code names only modules of layers strictly below its own, and
/// a subcommand (`cmd/NAME`) names no other subcommand. So there is no
/// import circle in the binary, and the exit statuses live at its bottom.
const BIN_LAYERS: [&[&str]; 8] = [
    &["exit", "style"],
    &["render"],
    &["output"],
    &["progress"],
    &["common"],
    &["parquet_out"],
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
