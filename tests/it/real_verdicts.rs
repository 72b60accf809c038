//! Verdicts on the real archives of ../shared/corpus/real (by nobody here):
//! the counts of every file, so that a change shows; files whose untagged
//! games no variant explains are refused with a hint; `--variant` never
//! changes a tagged game's verdict.
use crate::common;

use serde_json::Value;
use std::collections::BTreeMap;

/// Per file (under corpus/real): games, valid, with errors, not checked.
const COUNTS: [(&str, u64, u64, u64, u64); 140] = [
    ("international/bruno-hist__BrunoVsScan31.pdn", 9, 9, 0, 0),
    ("international/bruno-hist__games(10).pdn", 12, 12, 0, 0),
    ("international/bruno-hist__games(11).pdn", 12, 12, 0, 0),
    ("international/bruno-hist__games(18).pdn", 6, 6, 0, 0),
    ("international/bruno-hist__games(19).pdn", 6, 6, 0, 0),
    ("international/bruno-hist__games(20).pdn", 6, 6, 0, 0),
    ("international/bruno-hist__games(21).pdn", 6, 6, 0, 0),
    ("international/bruno-hist__games(22).pdn", 6, 6, 0, 0),
    ("international/bruno-hist__games(23).pdn", 6, 6, 0, 0),
    ("international/bruno-hist__games(24).pdn", 6, 6, 0, 0),
    ("international/bruno-hist__games(25).pdn", 6, 6, 0, 0),
    ("international/bruno-hist__games(4).pdn", 11, 11, 0, 0),
    ("international/bruno-hist__games(5).pdn", 11, 11, 0, 0),
    ("international/bruno-hist__games(6).pdn", 11, 11, 0, 0),
    ("international/bruno-hist__games(7).pdn", 9, 9, 0, 0),
    ("international/bruno-hist__games(8).pdn", 10, 10, 0, 0),
    ("international/bruno-hist__games(9).pdn", 11, 11, 0, 0),
    ("international/bruno-hist__syb-andr.pdn", 20, 20, 0, 0),
    ("international/bruno-hist__test.pdn", 1, 1, 0, 0),
    (
        "international/bruno__1er Open International Allinges 2007.pdn",
        45,
        45,
        0,
        0,
    ),
    (
        "international/bruno__29eme Open d'Avignon 2014.pdn",
        97,
        97,
        0,
        0,
    ),
    (
        "international/bruno__2ème Open national du Léman.pdn",
        147,
        147,
        0,
        0,
    ),
    (
        "international/bruno__48th Polish Team Championship.pdn",
        82,
        82,
        0,
        0,
    ),
    (
        "international/bruno__4th African BLITZ Championship OUAGA ZIIRI 2024.pdn",
        48,
        48,
        0,
        0,
    ),
    ("international/bruno__Brigitte.pdn", 1, 1, 0, 0),
    ("international/bruno__BrunoOuverture.pdn", 1, 1, 0, 0),
    ("international/bruno__BrunoVsScan31.pdn", 11, 10, 1, 0),
    (
        "international/bruno__Championnat de France 2021.pdn",
        58,
        58,
        0,
        0,
    ),
    (
        "international/bruno__ChapionnatSurinam2025.pdn",
        98,
        98,
        0,
        0,
    ),
    ("international/bruno__Match Samb-Buggy2.pdn", 6, 6, 0, 0),
    ("international/bruno__Mini.pdn", 6, 6, 0, 0),
    ("international/bruno__Moby_vs_Programs.pdn", 9, 9, 0, 0),
    (
        "international/bruno__Montpellier Open Serie A.pdn",
        56,
        56,
        0,
        0,
    ),
    (
        "international/bruno__Montpellier Open Serie B.pdn",
        49,
        49,
        0,
        0,
    ),
    ("international/bruno__Partie_avec_FEN1.pdn", 4, 4, 0, 0),
    (
        "international/bruno__Sijbrands_vs_Andreiko.pdn",
        20,
        20,
        0,
        0,
    ),
    (
        "international/bruno__TOURNOI DES CHAMPION REGIONAUX.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "international/bruno__Van der Wal_vs_Wiersma.pdn",
        20,
        20,
        0,
        0,
    ),
    (
        "international/bruno__World Title Match Women 2024.pdn",
        2,
        2,
        0,
        0,
    ),
    ("international/bruno__test.pdn", 2, 2, 0, 0),
    (
        "international/wiegerw-fail__40Camp.DamaInternazionaleAssoluto.pdn",
        45,
        45,
        0,
        0,
    ),
    ("international/wiegerw-fail__Cat.A1.pdn", 35, 35, 0, 0),
    ("international/wiegerw-fail__Cat.C1.pdn", 46, 45, 1, 0),
    ("international/wiegerw-fail__delfts.pdn", 2, 2, 0, 0),
    (
        "international/wiegerw-zip-fail__40Camp.DamaInternazionaleAssoluto.pdn",
        45,
        45,
        0,
        0,
    ),
    (
        "international/wiegerw-zip__nk2003-amsterdam.pdn",
        33,
        33,
        0,
        0,
    ),
    ("international/wiegerw__090417ronde12.pdn", 7, 7, 0, 0),
    ("international/wiegerw__Cat.B1.pdn", 37, 37, 0, 0),
    ("international/wiegerw__Cat.D1.pdn", 19, 19, 0, 0),
    ("international/wiegerw__DUTCH96H.pdn", 13, 13, 0, 0),
    ("international/wiegerw__PROF2.pdn", 16, 16, 0, 0),
    ("international/wiegerw__PWCP 2a.pdn", 59, 59, 0, 0),
    ("international/wiegerw__PWCP_2.pdn", 51, 51, 0, 0),
    ("international/wiegerw__candidate95.pdn", 8, 8, 0, 0),
    ("international/wiegerw__kurnik.pdn", 4, 4, 0, 0),
    ("international/wiegerw__nk ronde 01.pdn", 7, 7, 0, 0),
    ("international/wiegerw__nk ronde 02.pdn", 7, 7, 0, 0),
    ("international/wiegerw__nk2003-amsterdam.pdn", 33, 33, 0, 0),
    ("international/wiegerw__rk ronde 12.pdn", 7, 7, 0, 0),
    ("international/wiegerw__schildpad.pdn", 34, 34, 0, 0),
    ("international/wiegerw__windragon.pdn", 1, 1, 0, 0),
    ("international/wiegerw__wk2003.pdn", 23, 23, 0, 0),
    ("other/checkerboard__11_man_english.pdn", 2400, 2400, 0, 0),
    ("other/checkerboard__11_man_italian.pdn", 2400, 2400, 0, 0),
    ("other/checkerboard__tinsley.pdn", 724, 723, 1, 0),
    ("other/jpalaz__ЧБ-64 2016.pdn", 255, 255, 0, 0),
    (
        "other/jpalaz_belarus64M2015_round10__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2015_round11__index.pdn",
        10,
        10,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2015_round1__index.pdn",
        10,
        10,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2015_round2__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2015_round3__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2015_round4__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2015_round5__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2015_round6__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2015_round7__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2015_round8__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2015_round9__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2016_round10__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2016_round11__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2016_round1__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2016_round1__round1.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2016_round2__index.pdn",
        10,
        10,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2016_round3__index.pdn",
        10,
        10,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2016_round4__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2016_round5__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2016_round6__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2016_round7__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2016_round8__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64M2016_round9__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2015_round1__index.pdn",
        10,
        10,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2015_round2__index.pdn",
        10,
        10,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2015_round3__index.pdn",
        10,
        10,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2015_round4__index.pdn",
        10,
        10,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2015_round5__index.pdn",
        10,
        10,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2015_round6__index.pdn",
        10,
        10,
        0,
        0,
    ),
    ("other/jpalaz_belarus64W2015_round7__index.pdn", 9, 9, 0, 0),
    (
        "other/jpalaz_belarus64W2015_round8__index.pdn",
        10,
        10,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2015_round9__index.pdn",
        10,
        10,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2016_round10__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2016_round11__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2016_round1__index.pdn",
        10,
        10,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2016_round2__index.pdn",
        10,
        10,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2016_round3__index.pdn",
        11,
        11,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2016_round4__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2016_round5__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2016_round6__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2016_round7__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2016_round8__index.pdn",
        12,
        12,
        0,
        0,
    ),
    (
        "other/jpalaz_belarus64W2016_round9__index.pdn",
        12,
        12,
        0,
        0,
    ),
    ("other/jpalaz_export_round1__round1.pdn", 12, 12, 0, 0),
    ("other/wiegerw-fail__abatsiev.pdn", 56, 56, 0, 0),
    ("other/wiegerw-fail__mrdrcd07.pdn", 72, 0, 0, 72),
    ("other/wiegerw-fail__mrdrcd08.pdn", 40, 0, 0, 40),
    ("other/wiegerw-snippet-fail__nested_comment.pdn", 1, 1, 0, 0),
    ("other/wiegerw-snippet__alphanumeric.pdn", 1, 1, 0, 0),
    ("other/wiegerw-snippet__fen.pdn", 3, 0, 0, 3), // undecided (issue 37)
    ("other/wiegerw-snippet__gameterminator.pdn", 1, 0, 0, 1),
    ("other/wiegerw-snippet__linecomment.pdn", 1, 0, 0, 1),
    ("other/wiegerw-snippet__movestrength.pdn", 1, 0, 0, 1),
    ("other/wiegerw-snippet__string.pdn", 1, 0, 0, 1),
    ("other/wiegerw-snippet__unicode.pdn", 1, 0, 0, 1),
    ("other/wiegerw-snippet__variation.pdn", 1, 1, 0, 0),
    ("other/wiegerw-zip-fail__abatsiev.pdn", 56, 56, 0, 0),
    (
        "other/wiegerw-zip__Campionato Assoluto 2005.pdn",
        53,
        52,
        1,
        0,
    ),
    ("other/wiegerw-zip__ussr1947.pdn", 54, 54, 0, 0),
    ("other/wiegerw__Campionato Assoluto 2005.pdn", 53, 52, 1, 0),
    ("other/wiegerw__OCA_2.0.pdn", 43, 43, 0, 0),
    ("other/wiegerw__Principles of Strategy.pdn", 16, 16, 0, 0),
    ("other/wiegerw__Tricks traps and shots.pdn", 91, 91, 0, 0),
    ("other/wiegerw__beginner.pdn", 58, 57, 1, 0),
    ("other/wiegerw__borderclassics.pdn", 183, 183, 0, 0),
    ("other/wiegerw__bridges.pdn", 267, 0, 0, 267), // undecided (issue 37)
    ("other/wiegerw__gem.pdn", 162, 0, 0, 162),     // undecided (issue 37)
    ("other/wiegerw__goulds.pdn", 262, 0, 0, 262),  // undecided (issue 37)
    ("other/wiegerw__inferno.pdn", 68, 68, 0, 0),
    ("other/wiegerw__lpc.pdn", 100, 96, 4, 0),
    ("other/wiegerw__mrcd2000kval.pdn", 40, 0, 0, 40),
    ("other/wiegerw__mrcd2006.pdn", 44, 0, 0, 44),
    ("other/wiegerw__mrcd2007.pdn", 102, 0, 0, 102),
    ("other/wiegerw__ussr1947.pdn", 153, 153, 0, 0),
];

/// Files refused as a whole (no GameType, and more than half of their games
/// with moves fail under the variant their evidence gives), with the hint.
/// The hint names czech for the Czech files (all legal under Czech rules:
/// `--variant czech` checks them). Before the refusal they were judged: the Czech files as brazilian, the
/// snippets (single international games written with squares up to 32) as
/// brazilian or russian.
const REFUSED: [(&str, &str); 10] = [
    (
        "other/wiegerw-fail__mrdrcd07.pdn",
        "all 69 are legal under czech",
    ),
    (
        "other/wiegerw-fail__mrdrcd08.pdn",
        "all 39 are legal under czech",
    ),
    (
        "other/wiegerw__mrcd2000kval.pdn",
        "all 40 are legal under czech",
    ),
    (
        "other/wiegerw__mrcd2006.pdn",
        "all 44 are legal under czech",
    ),
    (
        "other/wiegerw__mrcd2007.pdn",
        "all 94 are legal under czech",
    ),
    (
        "other/wiegerw-snippet__gameterminator.pdn",
        "it is legal under international",
    ),
    (
        "other/wiegerw-snippet__linecomment.pdn",
        "it is legal under international",
    ),
    (
        "other/wiegerw-snippet__movestrength.pdn",
        "it is legal under international",
    ),
    (
        "other/wiegerw-snippet__string.pdn",
        "it is legal under international",
    ),
    (
        "other/wiegerw-snippet__unicode.pdn",
        "it is legal under international",
    ),
];

fn rel(file: &Value) -> String {
    let f = file.as_str().unwrap_or("");
    f.split("corpus/real/").nth(1).unwrap_or(f).to_string()
}

fn games(lines: &[Value]) -> impl Iterator<Item = &Value> {
    lines.iter().filter(|v| v["type"] == "game")
}

#[test]
fn every_files_verdicts_are_the_listed_ones() {
    let Some(dir) = common::shared("corpus/real") else {
        return;
    };
    let lines = common::json_lines(&common::pdnkit(&[
        "check",
        "--format",
        "json",
        dir.to_str().unwrap(),
    ]));
    let mut got: BTreeMap<String, (u64, u64, u64, u64)> = BTreeMap::new();
    for v in games(&lines) {
        let e = got.entry(rel(&v["file"])).or_default();
        e.0 += 1;
        match v["valid"].as_bool() {
            Some(true) => e.1 += 1,
            Some(false) => e.2 += 1,
            None => e.3 += 1,
        }
    }
    let want: BTreeMap<String, (u64, u64, u64, u64)> = COUNTS
        .iter()
        .map(|(f, n, v, i, u)| (f.to_string(), (*n, *v, *i, *u)))
        .collect();
    for (f, w) in &want {
        assert_eq!(
            got.get(f),
            Some(w),
            "{f}: (games, valid, with errors, not checked)"
        );
    }
    assert_eq!(got.len(), want.len());
    // Each refused file: one unknown-variant error for the file with its
    // hint, every game unchecked with no variant, no move finding.
    for (f, hint) in REFUSED {
        let findings: Vec<&Value> = lines
            .iter()
            .filter(|v| v["type"] == "file" && rel(&v["file"]) == f)
            .flat_map(|v| v["diagnostics"].as_array().into_iter().flatten())
            .filter(|d| d["code"] == "unknown-variant")
            .collect();
        assert_eq!(findings.len(), 1, "{f}");
        let message = findings[0]["message"].as_str().unwrap();
        assert!(message.contains(hint), "{f}: {message}");
        for v in games(&lines).filter(|v| rel(&v["file"]) == f) {
            assert_eq!(
                (v["variant"].clone(), v["variant_source"].as_str()),
                (Value::Null, Some("refused")),
                "{f}"
            );
            assert_eq!(v["valid"], Value::Null);
            assert!(
                v["diagnostics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|d| d.get("ply").is_none()),
                "{f}"
            );
        }
        let (n, _, _, u) = want[f];
        assert_eq!(n, u, "{f}: every game unchecked");
    }
    // Only the refused files have unknown-variant findings about a whole file.
    let refused_files = lines
        .iter()
        .filter(|v| v["type"] == "file")
        .filter(|v| {
            v["diagnostics"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|d| d["code"] == "unknown-variant")
        })
        .count();
    assert_eq!(refused_files, REFUSED.len());
}

#[test]
fn variant_names_only_the_games_without_a_game_type() {
    let Some(dir) = common::shared("corpus/real/international") else {
        return;
    };
    let dir = dir.to_str().unwrap();
    let auto = common::json_lines(&common::pdnkit(&["check", "--format", "json", dir]));
    let named = common::json_lines(&common::pdnkit(&[
        "check",
        "--format",
        "json",
        "--variant",
        "russian",
        dir,
    ]));
    let forced = common::json_lines(&common::pdnkit(&[
        "check",
        "--format",
        "json",
        "--force-variant",
        "russian",
        dir,
    ]));
    let (a, n, f): (Vec<_>, Vec<_>, Vec<_>) = (
        games(&auto).collect(),
        games(&named).collect(),
        games(&forced).collect(),
    );
    assert_eq!((a.len(), n.len(), f.len()), (1471, 1471, 1471));
    let mut tagged = 0;
    let mut untagged = 0;
    for ((a, n), f) in a.iter().zip(&n).zip(&f) {
        assert_eq!(f["variant"], "russian");
        assert_eq!(f["variant_source"], "forced");
        if a["variant_source"] == "tag" {
            tagged += 1;
            // A game's own GameType decides: --variant changes nothing.
            assert_eq!(
                (&n["variant"], &n["valid"], &n["diagnostics"]),
                (&a["variant"], &a["valid"], &a["diagnostics"])
            );
            assert_eq!(n["variant_source"], "tag");
        } else {
            untagged += 1;
            // A named variant is applied only where the board fits: these
            // 10x10 games keep their own decision and verdict.
            assert_eq!(
                (&n["variant"], &n["variant_source"], &n["valid"]),
                (&a["variant"], &a["variant_source"], &a["valid"])
            );
        }
    }
    assert_eq!((tagged, untagged), (624, 847));
}
