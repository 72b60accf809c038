//! Compressed and archived input (issue 24): every compression format and
//! archive kind, built here from `corpus/`, is checked as its plain files are
//! (findings and CSV rows equal apart from the names); broken, truncated and
//! bomb inputs are refused where they break, the games before kept.
use crate::common;

use common::{pdnkit, tempdir};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};

pub(crate) fn corpus_files() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let e = e.unwrap();
        if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "pdn") {
            let rel = e
                .path()
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.push((rel, std::fs::read(e.path()).unwrap()));
        }
    }
    out
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

pub(crate) fn compress(kind: &str, data: &[u8]) -> Vec<u8> {
    match kind {
        "gz" => gzip(data),
        "zst" => zstd::encode_all(data, 3).unwrap(),
        "bz2" => {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
            e.write_all(data).unwrap();
            e.finish().unwrap()
        }
        "xz" => {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
            e.write_all(data).unwrap();
            e.finish().unwrap()
        }
        _ => unreachable!(),
    }
}

pub(crate) fn tar_of(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, data) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        b.append_data(&mut h, name, &data[..]).unwrap();
    }
    b.into_inner().unwrap()
}

pub(crate) fn zip_of(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in files {
        z.start_file(name.as_str(), opts).unwrap();
        z.write_all(data).unwrap();
    }
    z.finish().unwrap().into_inner()
}

/// `check --format json` of `path`: the game records and the summary, each
/// game's file name given by `rename` (which maps archive names to plain ones).
fn checked(path: &Path, rename: impl Fn(&str) -> String) -> (Vec<Value>, Value) {
    let o = pdnkit(&["check", "--format", "json", path.to_str().unwrap()]);
    let mut lines = common::json_lines(&o);
    let summary = lines.pop().expect("a summary");
    let mut games: Vec<Value> = lines
        .into_iter()
        .filter(|v| v["type"] == "game")
        .map(|mut v| {
            let f = rename(v["file"].as_str().unwrap());
            v["file"] = Value::String(f);
            v
        })
        .collect();
    games.sort_by(|a, b| {
        (a["file"].as_str(), a["game"].as_u64()).cmp(&(b["file"].as_str(), b["game"].as_u64()))
    });
    (games, summary)
}

fn csv_rows(path: &Path, prefix: &str) -> Vec<String> {
    let o = pdnkit(&["convert", "--to", "csv", path.to_str().unwrap()]);
    let mut rows: Vec<String> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.replacen(prefix, "", 1))
        .collect();
    rows.sort();
    rows
}

#[test]
fn every_format_reads_as_the_plain_files() {
    let d = tempdir("archives-formats");
    let files = corpus_files();
    assert!(files.len() > 10);
    // The plain files, as a folder.
    let plain = d.join("plain");
    for (name, data) in &files {
        let p = plain.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, data).unwrap();
    }
    let plain_prefix = format!("{}/", plain.display());
    let (want, want_sum) = checked(&plain, |f| f.replacen(&plain_prefix, "", 1));
    let want_csv = csv_rows(&plain, &plain_prefix);
    assert!(want.len() > 100);
    let tar = tar_of(&files);
    let mut cases: Vec<(PathBuf, String)> = Vec::new();
    for (name, bytes) in [
        ("corpus.zip", zip_of(&files)),
        ("corpus.tar", tar.clone()),
        ("corpus.tar.gz", compress("gz", &tar)),
        ("corpus.tgz", compress("gz", &tar)),
        ("corpus.tar.zst", compress("zst", &tar)),
        ("corpus.tar.bz2", compress("bz2", &tar)),
        ("corpus.tar.xz", compress("xz", &tar)),
    ] {
        let p = d.join(name);
        std::fs::write(&p, bytes).unwrap();
        let prefix = format!("{}!", p.display());
        cases.push((p, prefix));
    }
    // A folder of compressed files, one format per variant, and one named
    // on the command line whatever its name.
    for (k, kind) in ["gz", "zst", "bz2", "xz"].iter().enumerate() {
        let folder = d.join(format!("folder-{kind}"));
        for (name, data) in &files {
            let p = folder.join(format!("{name}.{kind}"));
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, compress(kind, data)).unwrap();
        }
        let _ = k;
        cases.push((folder.clone(), format!("{}/", folder.display())));
    }
    for (path, prefix) in &cases {
        let suffix = |f: &str| -> String {
            let f = f.replacen(prefix.as_str(), "", 1);
            ["gz", "zst", "bz2", "xz"]
                .iter()
                .find_map(|k| f.strip_suffix(&format!(".{k}")).map(str::to_string))
                .unwrap_or(f)
        };
        let (got, sum) = checked(path, suffix);
        assert_eq!(got, want, "{}", path.display());
        for key in [
            "games",
            "valid_games",
            "errors",
            "warnings",
            "notes",
            "files",
        ] {
            assert_eq!(sum[key], want_sum[key], "{}: {key}", path.display());
        }
        let mut rows: Vec<String> = csv_rows(path, prefix)
            .into_iter()
            .map(|r| {
                let (file, rest) = r.split_once(',').unwrap_or((&r, ""));
                format!("{},{rest}", suffix(file))
            })
            .collect();
        rows.sort();
        assert_eq!(rows, want_csv, "{}", path.display());
    }
    // Members are named archive!member in the human output too.
    let o = pdnkit(&["check", d.join("corpus.zip").to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("corpus.zip!brazilian/faults.pdn:"), "{text}");
    // A compressed file named on the command line is read whatever its name.
    let odd = d.join("games.data");
    std::fs::write(&odd, compress("zst", &files[0].1)).unwrap();
    let (got, _) = checked(&odd, |f| f.to_string());
    assert!(!got.is_empty());
}

#[test]
fn all_files_reads_every_member() {
    let d = tempdir("archives-all");
    let files = vec![
        (
            "a.pdn".to_string(),
            b"[GameType \"20\"]\n1. 32-28 *\n".to_vec(),
        ),
        (
            "notes/b.dat".to_string(),
            b"[GameType \"20\"]\n1. 31-27 *\n".to_vec(),
        ),
    ];
    let z = d.join("x.zip");
    std::fs::write(&z, zip_of(&files)).unwrap();
    let count = |extra: &[&str]| {
        let mut args = vec!["check", "--format", "json"];
        args.extend_from_slice(extra);
        args.push(z.to_str().unwrap());
        common::json_lines(&pdnkit(&args))
            .iter()
            .filter(|v| v["type"] == "game")
            .count()
    };
    assert_eq!(count(&[]), 1);
    assert_eq!(count(&["--all-files"]), 2);
    // An archive with nothing to read is said so.
    let empty = d.join("e.zip");
    std::fs::write(&empty, zip_of(&files[1..])).unwrap();
    let o = pdnkit(&["check", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no .pdn, .pgn or .txt member"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Issue 55: the game a broken stream cuts before its result is not valid:
/// a `syntax` error says it is incomplete; the games before it are valid, and
/// a game whose result was read before the break is whole.
#[test]
fn a_game_cut_by_a_broken_stream_is_not_valid() {
    let d = tempdir("archives-cut-game");
    let game = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n";
    // Flushed (a sync flush) after the cut game's first moves: the bytes up to
    // there decode, then the stream breaks.
    for (tail, cut_is_whole) in [
        ("[GameType \"20\"]\n1. 32-28 19-23 2. 28x19", false),
        (game, true),
    ] {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(format!("{game}{game}{tail}").as_bytes())
            .unwrap();
        enc.flush().unwrap();
        // Never finished: the stream breaks where its last block should be.
        let bytes = enc.get_ref().clone();
        let f = d.join("cut.pdn.gz");
        std::fs::write(&f, &bytes).unwrap();
        for args in [
            &["check", "--format", "json"][..],
            &["check", "--format", "json", "-j", "1"],
        ] {
            let mut a = args.to_vec();
            a.push(f.to_str().unwrap());
            let o = pdnkit(&a);
            assert_eq!(
                o.status.code(),
                Some(2),
                "{:?}",
                String::from_utf8_lossy(&o.stderr)
            );
            let games: Vec<Value> = common::json_lines(&o)
                .into_iter()
                .filter(|v| v["type"] == "game")
                .collect();
            assert_eq!(games.len(), 3);
            assert!(games[..2].iter().all(|g| g["valid"] == true));
            assert_eq!(games[2]["valid"], cut_is_whole, "{}", games[2]);
            let said = games[2]["diagnostics"].as_array().unwrap().iter().any(|d| {
                d["code"] == "syntax" && d["message"].as_str().unwrap().contains("broke off")
            });
            assert_eq!(said, !cut_is_whole, "{}", games[2]);
        }
        // convert and select -o write the games read before the break (the
        // cut one, a fragment, is not written; a whole one is), and fail
        // (exit 2): read back, the same verdicts.
        for args in [&["convert", "--to", "pdn"][..], &["select"]] {
            let out = d.join("out.pdn");
            let _ = std::fs::remove_file(&out);
            let o = pdnkit(&[args, &[f.to_str().unwrap(), "-o", out.to_str().unwrap()]].concat());
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains("the output holds the games read before the break"),
                "{err}"
            );
            let back = pdnkit(&["check", "--format", "json", out.to_str().unwrap()]);
            let games: Vec<Value> = common::json_lines(&back)
                .into_iter()
                .filter(|v| v["type"] == "game")
                .collect();
            assert_eq!(games.len(), if cut_is_whole { 3 } else { 2 }, "{args:?}");
            assert!(games.iter().all(|g| g["valid"] == true));
            assert_eq!(err.contains("is cut by the break"), !cut_is_whole, "{err}");
        }
    }
}

#[test]
fn a_broken_stream_keeps_the_games_before_it() {
    let d = tempdir("archives-broken");
    let mut text = Vec::new();
    // About 1.3 MB, in several blocks of every format.
    for i in 0..20_000u64 {
        let h = i.wrapping_mul(2_654_435_761) % 1_000_003;
        text.extend_from_slice(
            format!("[Event \"{i}\"]\n[Site \"{h}\"]\n[GameType \"20\"]\n1. 32-28 19-23 *\n\n")
                .as_bytes(),
        );
    }
    for kind in ["gz", "zst", "bz2", "xz"] {
        let whole = compress(kind, &text);
        let cut = d.join(format!("cut.pdn.{kind}"));
        std::fs::write(&cut, &whole[..whole.len() * 2 / 3]).unwrap();
        let o = pdnkit(&["check", "--format", "json", cut.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{kind}");
        let games = common::json_lines(&o)
            .iter()
            .filter(|v| v["type"] == "game")
            .count();
        assert!(games > 1000 && games < 20_000, "{kind}: {games} games kept");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("stream broken at compressed byte"),
            "{kind}: {err}"
        );
    }
    // A corrupt zip: said, and the run goes on to the next input.
    let bad = d.join("bad.zip");
    let mut z = zip_of(&[("a.pdn".into(), text.clone())]);
    let n = z.len();
    z.truncate(n - 30);
    std::fs::write(&bad, z).unwrap();
    let good = d.join("good.pdn");
    std::fs::write(&good, &text[..200]).unwrap();
    let o = pdnkit(&[
        "check",
        "--format",
        "json",
        bad.to_str().unwrap(),
        good.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("zip archive"));
    assert!(common::json_lines(&o).iter().any(|v| v["type"] == "game"));
}

#[test]
fn a_bomb_is_refused_not_read() {
    let d = tempdir("archives-bomb");
    // 300 MiB of one letter (text, no game boundary) in a few kilobytes.
    let mut e = zstd::stream::write::Encoder::new(Vec::new(), 19).unwrap();
    let block = vec![b'x'; 1 << 20];
    for _ in 0..300 {
        e.write_all(&block).unwrap();
    }
    let bomb = d.join("bomb.pdn.zst");
    std::fs::write(&bomb, e.finish().unwrap()).unwrap();
    let o = pdnkit(&["check", bomb.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("decompression bomb"), "{err}");
}

#[test]
fn in_place_leaves_compressed_files_alone() {
    let d = tempdir("archives-in-place");
    let p = d.join("g.pdn.gz");
    let data = gzip(b"[GameType \"20\"]\n[Result \"2-0\"]\n1. 32-28 2-0\n");
    std::fs::write(&p, &data).unwrap();
    let o = pdnkit(&[
        "convert",
        "--to",
        "pdn",
        "--in-place",
        "--fix-results",
        p.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("is gzip compressed") && err.contains("left as it is"),
        "{err}"
    );
    assert_eq!(std::fs::read(&p).unwrap(), data);
}

/// Issue 40, defect 3: a zip may hold two members of one name (appending
/// tools make them): both are read, the second printed `NAME#2`. A member
/// name stored in UTF-8 without the UTF-8 flag (Info-ZIP `zip` on Linux)
/// reads as UTF-8.
/// A zip whose directory names `games.pdn` twice (the second member's name
/// made the first's), with a third member named `2ème Open.pdn`, and no
/// UTF-8 flag: what appending tools write.
fn zip_with_a_name_twice() -> Vec<u8> {
    let game = |event: &str, first: &str| {
        format!("[Event \"{event}\"]\n[GameType \"20\"]\n1. {first} *\n").into_bytes()
    };
    let mut bytes = zip_of(&[
        ("games.pdn".to_string(), game("first", "32-28")),
        ("games.pdX".to_string(), game("second", "33-28")),
        ("2ème Open.pdn".to_string(), game("third", "31-27")),
    ]);
    // The second name made the first's, in its local and its central header.
    let from = b"games.pdX";
    let mut i = 0;
    while let Some(at) = bytes[i..].windows(from.len()).position(|w| w == from) {
        bytes[i + at + 8] = b'n';
        i += at + 1;
    }
    // The UTF-8 flag (bit 11 of the flags) cleared in every header.
    for (sig, flags) in [(b"PK\x03\x04", 6), (b"PK\x01\x02", 8)] {
        let mut i = 0;
        while let Some(at) = bytes[i..].windows(4).position(|w| w == sig) {
            bytes[i + at + flags + 1] &= !0x08;
            i += at + 4;
        }
    }
    bytes
}

#[test]
fn every_member_of_a_zip_is_read_even_with_a_name_twice() {
    let (got, status, err) = members_read("a.zip", &zip_with_a_name_twice());
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(
        got,
        [
            ("games.pdn".to_string(), "first".to_string()),
            ("games.pdn#2".to_string(), "second".to_string()),
            ("2ème Open.pdn".to_string(), "third".to_string()),
        ]
    );
}

/// Issue 40, defect 8: the games decoded before a broken stream are kept
/// (a `.pdn.gz` with its trailer cut, a `.zst` or `.xz` with junk after it),
/// then the break is reported; the file's findings are kept too.
#[test]
fn games_before_a_broken_stream_are_kept() {
    let text: String = (0..1000)
        .map(|i| format!("[Event \"{i}\"]\n[GameType \"20\"]\n1. 32-28 *\n\n"))
        .collect();
    let three = "[GameType \"20\"]\n1. 32-28 *\n\n[GameType \"20\"]\n1. 33-28 *\n\n[GameType \"20\"]\n1. 31-27 *\n";
    let gz = |t: &str| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(t.as_bytes()).unwrap();
        e.finish().unwrap()
    };
    let mut cut_small = gz(three);
    cut_small.truncate(cut_small.len() - 3);
    let mut cut_big = gz(&text);
    cut_big.truncate(cut_big.len() - 3);
    let mut zst = zstd::encode_all(text.as_bytes(), 3).unwrap();
    zst.extend_from_slice(b"junk after the frame");
    let mut xz = Vec::new();
    {
        let mut e = liblzma::write::XzEncoder::new(&mut xz, 6);
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap();
    }
    xz.extend_from_slice(b"junk");
    let d = tempdir("broken-streams");
    for (name, bytes, games) in [
        ("three.pdn.gz", cut_small, 3),
        ("many.pdn.gz", cut_big, 1000),
        ("many.pdn.zst", zst, 1000),
        ("many.pdn.xz", xz, 1000),
    ] {
        let f = d.join(name);
        std::fs::write(&f, bytes).unwrap();
        let o = pdnkit(&["check", "--format", "json", f.to_str().unwrap()]);
        let lines = common::json_lines(&o);
        let read = lines.iter().filter(|v| v["type"] == "game").count();
        assert_eq!(read, games, "{name}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("stream broken"),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        // The file counts as read (its findings, if any, are kept).
        let summary = lines.iter().find(|v| v["type"] == "summary").unwrap();
        assert_eq!(summary["files"], 1, "{name}");
    }
}

/// Issue 40, defect 8: NUL padding after a complete gzip stream (tape and
/// block tools add it; `gzip -t` says "trailing garbage ignored", `zcat`
/// gives every game) is read as `zcat` reads it: every game, a note, exit 0.
/// Other bytes after the stream are an error, after the games.
#[test]
fn nul_padding_after_a_gzip_stream_is_read_as_zcat_reads_it() {
    let three = "[GameType \"20\"]\n1. 32-28 *\n\n[GameType \"20\"]\n1. 33-28 *\n\n[GameType \"20\"]\n1. 31-27 *\n";
    let gz = |t: &str| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(t.as_bytes()).unwrap();
        e.finish().unwrap()
    };
    let d = tempdir("gzip-padding");
    let mut padded = gz(three);
    padded.extend_from_slice(&[0u8; 512]);
    // Two members, then padding: both members are read.
    let mut two = gz(three);
    two.extend(gz(three));
    two.extend_from_slice(&[0u8; 100]);
    let mut junk = gz(three);
    junk.extend_from_slice(&[0u8; 10]);
    junk.extend_from_slice(b"junk");
    for (name, bytes, games, ok) in [
        ("padded.pdn.gz", padded, 3, true),
        ("two.pdn.gz", two, 6, true),
        ("junk.pdn.gz", junk, 3, false),
    ] {
        let f = d.join(name);
        std::fs::write(&f, bytes).unwrap();
        let o = pdnkit(&["check", "--format", "json", f.to_str().unwrap()]);
        let lines = common::json_lines(&o);
        assert_eq!(
            lines.iter().filter(|v| v["type"] == "game").count(),
            games,
            "{name}"
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        if ok {
            assert_eq!(o.status.code(), Some(0), "{name}: {stderr}");
            assert!(
                stderr.contains("note: ")
                    && stderr.contains("NUL bytes of padding after the gzip stream ignored"),
                "{name}: {stderr}"
            );
        } else {
            assert_eq!(o.status.code(), Some(2), "{name}: {stderr}");
            assert!(
                stderr.contains("neither a gzip member nor NUL padding"),
                "{name}: {stderr}"
            );
        }
    }
}

/// Issue 44: every name pdnkit prints for an archive member
/// (`ARCHIVE!MEMBER`, `#2` for a second member of one name, `%23` and `%21`
/// for `#` and `!` in a name) is accepted as a PATH and reads that member
/// alone, with the same records; `diagram` given an archive of several
/// members lists them and asks for one; a member not there, and a file that
/// is no archive, are errors that say why.
#[test]
fn archive_members_are_paths_as_pdnkit_prints_them() {
    let d = tempdir("member-paths");
    let game = |event: &str, first: &str| {
        format!("[Event \"{event}\"]\n[GameType \"20\"]\n1. {first} *\n\n").into_bytes()
    };
    let z = d.join("dup.zip");
    std::fs::write(&z, zip_with_a_name_twice()).unwrap();
    let t = d.join("odd.tar.gz");
    std::fs::write(
        &t,
        compress(
            "gz",
            &tar_of(&[
                ("x#1.pdn".to_string(), game("hash", "32-28")),
                ("y!z.pdn".to_string(), game("bang", "33-28")),
                (
                    "plain.pdn".to_string(),
                    [game("p1", "31-27"), game("p2", "34-30")].concat(),
                ),
            ]),
        ),
    )
    .unwrap();
    let records = |path: &str| -> Vec<Value> {
        common::json_lines(&pdnkit(&["check", "--format", "json", path]))
            .into_iter()
            .filter(|v| v["type"] == "game")
            .collect()
    };
    let mut printed: Vec<String> = Vec::new();
    for archive in [&z, &t] {
        let whole = records(archive.to_str().unwrap());
        let mut names: Vec<String> = whole
            .iter()
            .map(|v| v["file"].as_str().unwrap().to_string())
            .collect();
        names.dedup();
        for name in &names {
            let one = records(name);
            let expected: Vec<&Value> = whole.iter().filter(|v| v["file"] == *name).collect();
            assert_eq!(one.iter().collect::<Vec<_>>(), expected, "{name}");
        }
        printed.extend(names);
    }
    let tails: Vec<&str> = printed
        .iter()
        .map(|n| {
            n.rsplit_once(".zip!")
                .or(n.rsplit_once(".tar.gz!"))
                .unwrap()
                .1
        })
        .collect();
    assert_eq!(
        tails,
        [
            "games.pdn",
            "games.pdn#2",
            "2ème Open.pdn",
            "x%231.pdn",
            "y%21z.pdn",
            "plain.pdn"
        ]
    );
    // diagram: one file needed; an archive of several is listed.
    let diagram = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_pdnkit"))
            .arg("diagram")
            .args(args)
            .output()
            .unwrap()
    };
    let o = diagram(&[t.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("holds 3 files; name one as PATH!MEMBER"),
        "{err}"
    );
    for tail in [
        "x%231.pdn (1 game)",
        "y%21z.pdn (1 game)",
        "plain.pdn (2 games)",
    ] {
        assert!(err.contains(&format!("odd.tar.gz!{tail}")), "{tail}: {err}");
    }
    let member = format!("{}!plain.pdn", t.display());
    let o = diagram(&[&member, "--game", "2"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("<svg"));
    let o = diagram(&[&member, "--game", "3"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("has 2 games; there is no game 3"));
    // Not there; not an archive.
    let o = pdnkit(&["check", &format!("{}!nope.pdn", z.display())]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no member nope.pdn in this zip archive; its members, as pdnkit names them: games.pdn, games.pdn#2, 2ème Open.pdn"),
        "{err}"
    );
    let plain = d.join("plain.pdn");
    std::fs::write(&plain, game("p", "32-28")).unwrap();
    let o = pdnkit(&["check", &format!("{}!x.pdn", plain.display())]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not an archive (zip or tar)"));
    // An existing file whose name holds `!` is that file.
    let bang = d.join("a!b.pdn");
    std::fs::write(&bang, game("bang file", "32-28")).unwrap();
    let got = records(bang.to_str().unwrap());
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["tags"]["Event"], "bang file");
}

/// Issue 54 (item 2): a name's control characters never reach the terminal
/// raw, inside a message either: the member list of "no member ...", and the
/// name in "... broken at compressed byte".
#[test]
fn control_characters_of_names_inside_messages_are_escaped() {
    let d = tempdir("archives-escaped");
    let game = b"[GameType \"20\"]\n1. 32-28 19-23 *\n".to_vec();
    let zip = d.join("a.zip");
    std::fs::write(&zip, zip_of(&[("a\u{1b}[31m.pdn".into(), game.clone())])).unwrap();
    let o = pdnkit(&["check", &format!("{}!missing.pdn", zip.display())]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no member") && !err.contains('\u{1b}'),
        "{err:?}"
    );
    let whole = compress("gz", &game.repeat(2000));
    let broken = d.join("bad\u{1b}[2J.pdn.gz");
    std::fs::write(&broken, &whole[..whole.len() / 2]).unwrap();
    let o = pdnkit(&["check", broken.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("broken at compressed byte") && !err.contains('\u{1b}'),
        "{err:?}"
    );
}

/// A zip as a streaming writer makes it (Java's `ZipOutputStream`, Python's
/// `zipfile` on a pipe, `zip -`): each member's sizes and CRC follow its data
/// in a data descriptor, the local header's are zero. Members are stored.
/// With `zip64`, the end records are Zip64 ones (more than 65,535 entries).
fn streamed_zip(members: &[(&str, &[u8])], zip64: bool) -> Vec<u8> {
    let crc = |d: &[u8]| {
        let mut c = flate2::Crc::new();
        c.update(d);
        c.sum()
    };
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in members {
        let offset = out.len() as u32;
        let (n, size, sum) = (name.len() as u16, data.len() as u32, crc(data));
        out.extend_from_slice(b"PK\x03\x04");
        out.extend_from_slice(&[20, 0, 8, 0, 0, 0, 0, 0, 0, 0]); // version, flags (bit 3), stored, time, date
        out.extend_from_slice(&[0; 12]); // crc, sizes: in the descriptor
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);
        out.extend_from_slice(b"PK\x07\x08");
        for x in [sum, size, size] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        central.extend_from_slice(b"PK\x01\x02");
        central.extend_from_slice(&[20, 3, 20, 0, 8, 0, 0, 0, 0, 0, 0, 0]);
        for x in [sum, size, size] {
            central.extend_from_slice(&x.to_le_bytes());
        }
        central.extend_from_slice(&n.to_le_bytes());
        central.extend_from_slice(&[0; 8]); // extra, comment, disk, internal attributes
        let mode: u32 = if name.ends_with('/') {
            0o040755
        } else {
            0o100644
        };
        central.extend_from_slice(&(mode << 16).to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let (cd_offset, cd_size, count) =
        (out.len() as u64, central.len() as u64, members.len() as u64);
    out.extend_from_slice(&central);
    if zip64 {
        let record = out.len() as u64;
        out.extend_from_slice(b"PK\x06\x06");
        out.extend_from_slice(&44u64.to_le_bytes());
        out.extend_from_slice(&[45, 3, 45, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        for x in [count, count, cd_size, cd_offset] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(b"PK\x06\x07");
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&record.to_le_bytes());
        out.extend_from_slice(&1u32.to_le_bytes());
    }
    let short = |x: u64| if zip64 { 0xFFFF } else { x as u16 };
    out.extend_from_slice(b"PK\x05\x06\0\0\0\0");
    out.extend_from_slice(&short(count).to_le_bytes());
    out.extend_from_slice(&short(count).to_le_bytes());
    out.extend_from_slice(&(if zip64 { u32::MAX } else { cd_size as u32 }).to_le_bytes());
    out.extend_from_slice(&(if zip64 { u32::MAX } else { cd_offset as u32 }).to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// The members read by `check` of `bytes` (named `name`), by their printed
/// names, with each one's Event, and the run's status.
fn members_read(name: &str, bytes: &[u8]) -> (Vec<(String, String)>, Option<i32>, String) {
    let d = tempdir(&format!("zip-{name}"));
    let z = d.join(name);
    std::fs::write(&z, bytes).unwrap();
    let o = pdnkit(&["check", "--format", "json", z.to_str().unwrap()]);
    let got = common::json_lines(&o)
        .iter()
        .filter(|v| v["type"] == "game")
        .map(|v| {
            let f = v["file"].as_str().unwrap_or("");
            (
                f.rsplit('!').next().unwrap_or(f).to_string(),
                v["tags"]["Event"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    (
        got,
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Issue 54 item 7: two members of one name in a zip written by a streaming
/// writer (sizes in data descriptors), and in a Zip64 archive of 70,001
/// entries: every member is read, the second `NAME#2`.
#[test]
fn every_member_of_a_streamed_or_zip64_archive_is_read() {
    let first = b"[Event \"first\"]\n[GameType \"20\"]\n1. 32-28 *\n";
    let second = b"[Event \"second\"]\n[GameType \"20\"]\n1. 33-28 *\n";
    let want = vec![
        ("games.pdn".to_string(), "first".to_string()),
        ("games.pdn#2".to_string(), "second".to_string()),
    ];
    let streamed = streamed_zip(&[("games.pdn", first), ("games.pdn", second)], false);
    let (got, status, err) = members_read("streamed.zip", &streamed);
    assert_eq!((got, status), (want.clone(), Some(0)), "{err}");
    let folders: Vec<String> = (0..69_999).map(|i| format!("d{i}/")).collect();
    let mut members: Vec<(&str, &[u8])> = vec![("games.pdn", first)];
    members.extend(folders.iter().map(|f| (f.as_str(), &b""[..])));
    members.push(("games.pdn", second));
    assert_eq!(members.len(), 70_001);
    let (got, status, err) = members_read("zip64.zip", &streamed_zip(&members, true));
    assert_eq!((got, status), (want, Some(0)), "{err}");
}

/// Issue 54 item 15: a zip whose directory entries all point at one member's
/// data (the overlapping-entry zip bomb) is refused before anything is
/// decompressed: a message, exit 2, no game.
#[test]
fn the_overlapping_entry_zip_bomb_is_refused() {
    let game = b"[GameType \"20\"]\n1. 32-28 *\n".repeat(100);
    let mut bytes = streamed_zip(&[("a.pdn", &game), ("b.pdn", &game)], false);
    // The second entry's offset made the first's (0): both read one member.
    let cd = bytes.windows(4).rposition(|w| w == b"PK\x01\x02").unwrap();
    bytes[cd + 42..cd + 46].copy_from_slice(&0u32.to_le_bytes());
    let (got, status, err) = members_read("bomb.zip", &bytes);
    assert_eq!(status, Some(2), "{err}");
    assert!(got.is_empty(), "{got:?}");
    assert!(err.contains("overlap (possible zip bomb)"), "{err}");
}

/// Issue 54 item 8: links inside a tar are members. A hard link (GNU tar's
/// second name of a file) and a symbolic link to another member read as
/// that member under their own names, also when named alone
/// (`g.tar!g/b.pdn`); a link out of the archive is named, never followed.
#[test]
fn links_inside_a_tar_are_members() {
    let game = b"[Event \"a\"]\n[GameType \"20\"]\n1. 32-28 *\n";
    let mut t = tar::Builder::new(Vec::new());
    let mut h = tar::Header::new_gnu();
    h.set_size(game.len() as u64);
    h.set_mode(0o644);
    h.set_cksum();
    t.append_data(&mut h, "g/a.pdn", &game[..]).unwrap();
    for (kind, name, target) in [
        (tar::EntryType::Link, "g/b.pdn", "g/a.pdn"),
        (tar::EntryType::Symlink, "g/c.pdn", "a.pdn"),
        (tar::EntryType::Symlink, "g/d.pdn", "../../etc/passwd"),
    ] {
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(kind);
        h.set_size(0);
        h.set_mode(0o644);
        t.append_link(&mut h, name, target).unwrap();
    }
    let bytes = t.into_inner().unwrap();
    let (got, status, err) = members_read("g.tar", &bytes);
    let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["g/a.pdn", "g/b.pdn", "g/c.pdn"], "{err}");
    assert!(got.iter().all(|(_, e)| e == "a"));
    assert!(
        err.contains("g/d.pdn") && err.contains("outside the archive"),
        "{err}"
    );
    assert_eq!(status, Some(0), "{err}");
    // One link named alone is read.
    let d = tempdir("tar-links-one");
    let f = d.join("g.tar");
    std::fs::write(&f, &bytes).unwrap();
    let o = pdnkit(&[
        "check",
        "--format",
        "json",
        &format!("{}!g/b.pdn", f.display()),
    ]);
    let games = common::json_lines(&o)
        .iter()
        .filter(|v| v["type"] == "game")
        .count();
    assert_eq!(games, 1, "{}", String::from_utf8_lossy(&o.stderr));
}

/// The offset of the `k`-th (from 0) central directory entry of `zip`.
fn central_entry(zip: &[u8], k: usize) -> usize {
    let first = zip
        .windows(4)
        .position(|w| w == b"PK\x01\x02")
        .expect("a central directory");
    let mut at = first;
    for _ in 0..k {
        let n = |o: usize| usize::from(u16::from_le_bytes([zip[at + o], zip[at + o + 1]]));
        at += 46 + n(28) + n(30) + n(32);
    }
    at
}

/// The overlapping-entry bomb of issue 54's test (two entries on one member).
fn overlapping_bomb() -> Vec<u8> {
    let game = b"[GameType \"20\"]\n1. 32-28 *\n".repeat(100);
    let mut bytes = streamed_zip(&[("a.pdn", &game), ("b.pdn", &game)], false);
    let cd = central_entry(&bytes, 1);
    bytes[cd + 42..cd + 46].copy_from_slice(&0u32.to_le_bytes());
    bytes
}

/// Issue 63 item 1: the overlapping-entry bomb is refused whatever the
/// archive's tail holds: a second end-of-central-directory record in the
/// archive's comment, or a Zip64 locator pointing past the end of the file,
/// which once made the checking reader give up and the unchecked one read
/// every entry.
#[test]
fn the_zip_bomb_is_refused_whatever_the_tail() {
    // A comment that holds an end record of its own, pointing nowhere.
    let mut in_comment = overlapping_bomb();
    let mut fake = b"PK\x05\x06\0\0\0\0\x01\0\x01\0".to_vec();
    fake.extend_from_slice(&46u32.to_le_bytes());
    fake.extend_from_slice(&0x7fff_0000u32.to_le_bytes());
    fake.extend_from_slice(&0u16.to_le_bytes());
    let n = in_comment.len();
    in_comment[n - 2..].copy_from_slice(&(fake.len() as u16).to_le_bytes());
    in_comment.extend_from_slice(&fake);
    // A Zip64 locator just before the end record, pointing past the end.
    let mut locator = overlapping_bomb();
    let eocd = locator.len() - 22;
    let mut loc = b"PK\x06\x07".to_vec();
    loc.extend_from_slice(&0u32.to_le_bytes());
    loc.extend_from_slice(&(1u64 << 40).to_le_bytes());
    loc.extend_from_slice(&1u32.to_le_bytes());
    locator.splice(eocd..eocd, loc);
    for (name, bytes) in [("comment.zip", in_comment), ("locator.zip", locator)] {
        let (got, status, err) = members_read(name, &bytes);
        assert_eq!(status, Some(2), "{name}: {err}");
        assert!(got.is_empty(), "{name}: {got:?}");
        assert!(err.contains("overlap (possible zip bomb)"), "{name}: {err}");
    }
}

/// Issue 63 item 9: an entry whose data runs past the end of the file is
/// refused and named; the intact members are read; exit 2.
#[test]
fn one_bad_zip_entry_loses_only_itself() {
    let game = |e: &str| format!("[Event \"{e}\"]\n[GameType \"20\"]\n1. 32-28 *\n");
    let (a, b, c) = (game("a"), game("b"), game("c"));
    let mut bytes = streamed_zip(
        &[
            ("a.pdn", a.as_bytes()),
            ("b.pdn", b.as_bytes()),
            ("c.pdn", c.as_bytes()),
        ],
        false,
    );
    let cd = central_entry(&bytes, 1);
    bytes[cd + 20..cd + 24].copy_from_slice(&0x00ff_ffffu32.to_le_bytes());
    let (got, status, err) = members_read("cut.zip", &bytes);
    assert_eq!(
        got,
        vec![
            ("a.pdn".to_string(), "a".to_string()),
            ("c.pdn".to_string(), "c".to_string())
        ],
        "{err}"
    );
    assert_eq!(status, Some(2), "{err}");
    assert!(
        err.contains("member 2") && err.contains("past the end of the archive"),
        "{err}"
    );
}

/// Issue 63 item 16: a zip member whose CRC-32 does not match keeps the
/// games before the fault, as a `.pdn.gz` with a bad CRC does: the games,
/// the message, exit 2; a small member and one of several pieces alike.
#[test]
fn a_zip_member_with_a_bad_crc_keeps_its_games() {
    let three = "[GameType \"20\"]\n1. 32-28 *\n\n[GameType \"20\"]\n1. 33-28 *\n\n[GameType \"20\"]\n1. 31-27 *\n";
    let many: String = (0..20_000)
        .map(|i| format!("[Event \"{i}\"]\n[GameType \"20\"]\n1. 32-28 *\n\n"))
        .collect();
    for (text, games) in [(three.to_string(), 3), (many, 20_000)] {
        let mut zip = streamed_zip(&[("g.pdn", text.as_bytes())], false);
        let cd = central_entry(&zip, 0);
        zip[cd + 16] ^= 0xff;
        let mut gz = gzip(text.as_bytes());
        let n = gz.len();
        gz[n - 8] ^= 0xff;
        for (name, bytes) in [("crc.zip", zip), ("crc.pdn.gz", gz)] {
            let d = tempdir(&format!("bad-crc-{games}"));
            let f = d.join(name);
            std::fs::write(&f, bytes).unwrap();
            let o = pdnkit(&["check", "--format", "json", f.to_str().unwrap()]);
            let err = String::from_utf8_lossy(&o.stderr);
            let read = common::json_lines(&o)
                .iter()
                .filter(|v| v["type"] == "game")
                .count();
            assert_eq!((read, o.status.code()), (games, Some(2)), "{name}: {err}");
            assert!(err.contains("broken"), "{name}: {err}");
        }
    }
}
