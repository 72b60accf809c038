//! Every file of ../shared/corpus/real read without panic; game counts against SOURCES.md;
//! syntax-level findings against PDN-REAL-WORLD.md.
use crate::common;

use pdnkit::pdn::{read_all, Game};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const SYNTAX_LEVEL: [&str; 5] = [
    "syntax",
    "unterminated-comment",
    "unterminated-variation",
    "bad-tag",
    "nonstandard",
];

fn files(root: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_type().is_file()
                && e.path()
                    .extension()
                    .is_some_and(|x| x.eq_ignore_ascii_case("pdn"))
        })
        .map(|e| e.into_path())
        .collect();
    v.sort();
    v
}

/// `games/[Event/[White/results` per file name, from SOURCES.md.
fn source_counts(sources: &str) -> BTreeMap<String, [usize; 4]> {
    let mut m = BTreeMap::new();
    for line in sources.lines() {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        if cols.len() < 6 || !cols[1].starts_with('`') {
            continue;
        }
        let name = cols[1].trim_matches('`').to_string();
        let nums: Vec<usize> = cols[4]
            .split('/')
            .filter_map(|x| x.trim().parse().ok())
            .collect();
        if nums.len() == 4 {
            m.insert(name, [nums[0], nums[1], nums[2], nums[3]]);
        }
    }
    m
}

/// Files where pdnkit reads other counts than SOURCES.md, checked by hand.
/// (file, tag groups, Event tags, White tags, why)
const KNOWN_COUNT_DIFFERENCES: [(&str, usize, usize, usize, &str); 4] = [
    (
        "bruno-hist__games(4).pdn",
        11,
        11,
        11,
        "line 212 `Event \"...\"]` lacks its `[`; SOURCES counts `[Event` literally (10), pdnkit recovers the tag",
    ),
    (
        "bruno__ChapionnatSurinam2025.pdn",
        98,
        98,
        98,
        "line 212 `Event \"...\"]` lacks its `[`; SOURCES counts `[Event` literally (97), pdnkit recovers the tag",
    ),
    (
        "bruno-hist__games(19).pdn",
        6,
        5,
        5,
        "6 games, each ended by `*`; the first has French, entity-coded tag names; SOURCES' group counter splits \
         that block into several groups (9)",
    ),
    (
        "bruno__4th African BLITZ Championship OUAGA ZIIRI 2024.pdn",
        48,
        47,
        47,
        "47 games with `[Event` plus one with the French entity-coded tag block; SOURCES' group counter splits that \
         block (51)",
    ),
];

fn read(path: &Path) -> Vec<Game> {
    let bytes = std::fs::read(path).expect("readable corpus file");
    read_all(&bytes)
}

#[test]
fn every_real_file_reads_and_game_counts_match_sources() {
    let Some(root) = common::shared("corpus/real") else {
        return;
    };
    let sources = std::fs::read_to_string(root.join("SOURCES.md")).unwrap();
    let counts = source_counts(&sources);
    let mut problems = Vec::new();
    let mut total = 0;
    let all = files(&root);
    assert!(all.len() >= 100, "only {} files", all.len());
    for path in &all {
        let games = read(path);
        total += games.len();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(&[groups, events, whites, _results]) = counts.get(&name) else {
            problems.push(format!("{name}: not in SOURCES.md"));
            continue;
        };
        let with_tags = games.iter().filter(|g| !g.tags().is_empty()).count();
        let ev = games
            .iter()
            .filter(|g| {
                g.find_tag("Event")
                    .is_some_and(|t| g.tag_name(t) == "Event")
            })
            .count();
        let wh = games
            .iter()
            .filter(|g| {
                g.find_tag("White")
                    .is_some_and(|t| g.tag_name(t) == "White")
            })
            .count();
        if let Some((g, e, w, why)) = KNOWN_COUNT_DIFFERENCES
            .iter()
            .find(|k| k.0 == name)
            .map(|k| (k.1, k.2, k.3, k.4))
        {
            assert_eq!((with_tags, ev, wh), (g, e, w), "{name}: {why}");
            continue;
        }
        if with_tags != groups || ev != events || wh != whites {
            problems.push(format!(
                "{name}: SOURCES.md says {groups} tag groups/{events} Event/{whites} White, read {with_tags}/{ev}/{wh} ({} games)",
                games.len()
            ));
        }
    }
    eprintln!("{} files, {total} games read", all.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Files the reference parsers accept read with no syntax-level finding; each
/// rejected file gets a syntax-level finding at each place PDN-REAL-WORLD.md names.
#[test]
fn syntax_findings_agree_with_the_reference_parsers() {
    let Some(root) = common::shared("corpus/real") else {
        return;
    };
    let Some(spec) = common::shared("spec/PDN-REAL-WORLD.md") else {
        return;
    };
    let spec = std::fs::read_to_string(spec).unwrap();
    // Verdict rows: | dir/`file` | TPG | ANTLR | line:col | ...
    let mut verdicts: BTreeMap<String, (bool, Option<(u32, u32)>)> = BTreeMap::new();
    for line in spec.lines() {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        if cols.len() < 6
            || !cols[1].contains('`')
            || !(cols[2] == "accept" || cols[2].contains("reject"))
        {
            continue;
        }
        let name = cols[1].split('`').nth(1).unwrap_or("").to_string();
        let at = cols[4]
            .split_once(':')
            .and_then(|(l, c)| Some((l.parse().ok()?, c.parse().ok()?)));
        verdicts.insert(name, (cols[2] == "accept", at));
    }
    assert!(verdicts.len() > 50, "verdict table not found");
    // Section 4: every place named as `file.pdn:LINE[:COL][,LINE[:COL]...]` (ranges: their first line).
    let mut places: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    if let Some(sec4) = spec
        .split("## 4.")
        .nth(1)
        .and_then(|t| t.split("## 5.").next())
    {
        let rows: String = sec4
            .lines()
            .filter(|l| l.starts_with('|'))
            .collect::<Vec<_>>()
            .join("\n");
        for chunk in rows.split('`') {
            let Some((name, rest)) = chunk.split_once(".pdn:") else {
                continue;
            };
            let name = format!("{}.pdn", name.rsplit('/').next().unwrap_or(name));
            let lines: Vec<u32> = rest
                .split(',')
                .map_while(|tok| {
                    tok.split([':', '-'])
                        .next()
                        .and_then(|l| l.trim().parse().ok())
                })
                .collect();
            places.entry(name).or_default().extend(lines);
        }
    }
    assert!(places.len() > 10, "section 4 places not found");
    let mut problems = Vec::new();
    let mut checked = 0;
    for path in files(&root) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let short = name
            .split_once("__")
            .map_or(name.as_str(), |x| x.1)
            .to_string();
        let Some(&(accept, at)) = verdicts.get(&name).or_else(|| verdicts.get(&short)) else {
            continue;
        };
        checked += 1;
        let games = read(&path);
        let found: Vec<(u32, u32, String)> = games
            .iter()
            .flat_map(|g| {
                g.diagnostics()
                    .iter()
                    .filter(|d| SYNTAX_LEVEL.contains(&d.code.as_str()))
                    .flat_map(move |d| {
                        let (l, c) = g.location(d.span.start);
                        let mut at = vec![(l, c, format!("{}: {}", d.code, d.message))];
                        // A game with no terminator is found at its last token;
                        // the reference parsers reject the next game's tags, where
                        // this game's text ends.
                        if d.message.contains("the next game's tags follow") {
                            let (l, c) = g.location(g.text().len());
                            at.push((l, c, format!("{}: {}", d.code, d.message)));
                        }
                        at
                    })
            })
            .collect();
        if accept && !found.is_empty() {
            problems.push(format!(
                "{name}: accepted by the reference parsers, but {:?}",
                &found[..found.len().min(3)]
            ));
        }
        if !accept {
            match at {
                Some((l, _)) if !found.iter().any(|f| f.0 == l) => problems.push(format!(
                    "{name}: rejected at line {l}, no finding there; found {:?}",
                    &found[..found.len().min(3)]
                )),
                _ if found.is_empty() => {
                    problems.push(format!("{name}: rejected, no syntax-level finding"))
                }
                _ => {}
            }
        }
        for &l in places.get(&name).into_iter().flatten() {
            if !found.iter().any(|f| f.0 == l) {
                problems.push(format!(
                    "{name}:{l}: named in section 4, no syntax-level finding on that line"
                ));
            }
        }
    }
    eprintln!("{checked} files compared with the reference parsers' verdicts");
    assert!(checked > 50);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Legacy-encoded copies decode to the same tag values as their UTF-8 copies,
/// with one `encoding` note naming the encoding.
#[test]
fn legacy_encodings_decode_to_the_utf8_copies() {
    let Some(root) = common::shared("corpus/real") else {
        return;
    };
    let pairs = [
        (
            "other/wiegerw-zip__ussr1947.pdn",
            "other/wiegerw__ussr1947.pdn",
            "IBM866",
        ),
        (
            "other/wiegerw-zip-fail__abatsiev.pdn",
            "other/wiegerw-fail__abatsiev.pdn",
            "windows-1251",
        ),
        (
            "other/wiegerw-zip__Campionato Assoluto 2005.pdn",
            "other/wiegerw__Campionato Assoluto 2005.pdn",
            "windows-1252",
        ),
        (
            "international/wiegerw-zip__nk2003-amsterdam.pdn",
            "international/wiegerw__nk2003-amsterdam.pdn",
            "windows-1252",
        ),
        (
            "international/wiegerw-zip-fail__40Camp.DamaInternazionaleAssoluto.pdn",
            "international/wiegerw-fail__40Camp.DamaInternazionaleAssoluto.pdn",
            "windows-1252",
        ),
    ];
    for (legacy, utf8, enc) in pairs {
        let (lp, up) = (root.join(legacy), root.join(utf8));
        if !lp.exists() || !up.exists() {
            eprintln!("SKIP: {legacy} or {utf8} missing");
            continue;
        }
        let lg = read(&lp);
        let ug = read(&up);
        let notes: Vec<_> = lg
            .iter()
            .flat_map(|g| g.diagnostics())
            .filter(|d| d.code.as_str() == "encoding")
            .collect();
        assert_eq!(notes.len(), 1, "{legacy}: {notes:?}");
        assert!(
            notes[0].message.contains(enc),
            "{legacy}: {}",
            notes[0].message
        );
        let known: std::collections::HashSet<String> = ug
            .iter()
            .flat_map(|g| g.tags().iter().map(|t| g.tag_value(t)))
            .collect();
        let mut non_ascii = 0;
        for g in &lg {
            for t in g.tags() {
                let v = g.tag_value(t);
                assert!(
                    !v.contains('\u{fffd}'),
                    "{legacy}: replacement character in {v}"
                );
                if !v.is_ascii() {
                    non_ascii += 1;
                    assert!(
                        known.contains(&v),
                        "{legacy}: `{}` = `{v}` is not a value of the UTF-8 copy",
                        g.tag_name(t)
                    );
                }
            }
        }
        assert!(non_ascii > 0, "{legacy}: no non-ASCII value to compare");
    }
    // A cp1251 file with no UTF-8 twin: names come out in Cyrillic.
    let p = root.join("other/jpalaz__ЧБ-64 2016.pdn");
    if p.exists() {
        let games = read(&p);
        let white = games[0].tag("White").unwrap_or_default();
        assert!(
            white
                .chars()
                .any(|c| ('\u{0400}'..='\u{04ff}').contains(&c)),
            "{white}"
        );
        assert!(games[0]
            .diagnostics()
            .iter()
            .any(|d| d.message.contains("windows-1251")));
    }
}

/// Issue 55: `-W errors` and `-A errors` change how findings are reported,
/// never the variant: the Czech file the default refuses stays refused (its
/// games not checked), where it was read as Brazilian and valid with false
/// capture warnings.
#[test]
fn report_levels_never_change_a_files_variant() {
    let Some(f) = common::shared("corpus/real/other/wiegerw__mrcd2006.pdn") else {
        return;
    };
    let f = f.to_str().unwrap();
    for extra in [
        &[][..],
        &["-W", "errors"],
        &["-A", "errors"],
        &["-W", "non-maximal-capture"],
    ] {
        let mut args = vec!["check", "--format", "json"];
        args.extend_from_slice(extra);
        args.push(f);
        let lines = common::json_lines(&common::pdnkit(&args));
        let summary = lines.last().unwrap();
        assert_eq!(summary["games"], 44, "{extra:?}");
        assert_eq!(summary["unchecked_games"], 44, "{extra:?}: {summary}");
        assert!(
            summary["by_code"].get("non-maximal-capture").is_none(),
            "{extra:?}: {summary}"
        );
    }
}
