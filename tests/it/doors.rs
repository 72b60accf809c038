//! The same answers through every door (issue 39): the command line's
//! `check --format json` and the library's pipeline (`pdnkit::batch`, as
//! `examples/batch_json.rs` drives it) give the same bytes on every kind of
//! input the command line takes, at one thread and two; the lean
//! `check_file` gives the same games and findings on PDN text.
use crate::archives::{compress, corpus_files, tar_of, zip_of};
use crate::common::{self, pdnkit, tempdir};
use std::path::{Path, PathBuf};

#[path = "../../examples/batch_json.rs"]
mod example;

/// Every kind of input, made in a temporary folder from `corpus/`: the
/// folder itself, a plain file, each compression of it, a zip and a tar.gz
/// of the folder, a binary file, and the folder again with all of these in it.
fn inputs() -> Vec<PathBuf> {
    let d = tempdir("doors");
    let files = corpus_files();
    let tree = d.join("tree");
    for (rel, data) in &files {
        let p = tree.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, data).unwrap();
    }
    let (first, data) = &files[0];
    let mut out = vec![tree.clone(), tree.join(first)];
    for kind in ["gz", "zst", "bz2", "xz"] {
        let p = d.join(format!("one.pdn.{kind}"));
        std::fs::write(&p, compress(kind, data)).unwrap();
        out.push(p);
    }
    let zip = d.join("corpus.zip");
    std::fs::write(&zip, zip_of(&files)).unwrap();
    let targz = d.join("corpus.tar.gz");
    std::fs::write(&targz, compress("gz", &tar_of(&files))).unwrap();
    let binary = d.join("binary.pdn");
    std::fs::write(&binary, [0u8, 1, 2, 3, 0, 0xff].repeat(100)).unwrap();
    out.extend([zip.clone(), targz.clone(), binary.clone()]);
    // A folder holding every kind at once.
    let mixed = d.join("mixed");
    std::fs::create_dir_all(&mixed).unwrap();
    for p in [&zip, &targz, &binary] {
        std::fs::copy(p, mixed.join(p.file_name().unwrap())).unwrap();
    }
    out.push(mixed);
    out
}

fn cli_json(path: &Path, jobs: &str) -> Vec<u8> {
    pdnkit(&[
        "check",
        "--format",
        "json",
        "--no-summary",
        "-j",
        jobs,
        &path.display().to_string(),
    ])
    .stdout
}

fn library_json(paths: &[String], jobs: usize) -> Vec<u8> {
    let mut out = Vec::new();
    example::check(paths, jobs, &mut out).expect("the pipeline runs");
    out
}

#[test]
fn the_library_pipeline_writes_what_check_writes_on_every_input() {
    let mut kinds = 0;
    for path in inputs() {
        let cli = cli_json(&path, "2");
        let paths = [path.display().to_string()];
        for jobs in [1, 2] {
            let lib = library_json(&paths, jobs);
            assert!(
                lib == cli,
                "{} at -j{jobs}: the library gives\n{}\nthe command line\n{}",
                path.display(),
                String::from_utf8_lossy(&lib),
                String::from_utf8_lossy(&cli)
            );
        }
        assert_eq!(cli_json(&path, "1"), cli, "{}: -j1 and -j2", path.display());
        kinds += 1;
    }
    assert_eq!(kinds, 10);
}

#[test]
fn the_library_pipeline_writes_what_check_writes_on_the_real_archives() {
    let Some(real) = common::shared("corpus/real") else {
        return;
    };
    let cli = cli_json(&real, "2");
    let lib = library_json(&[real.display().to_string()], 2);
    assert!(cli.len() > 1_000_000, "{} bytes", cli.len());
    assert!(
        lib == cli,
        "the library and the command line differ on the real archives"
    );
}

#[test]
fn check_file_gives_the_games_and_findings_of_the_pipeline_on_pdn_text() {
    let opts = pdnkit::Options::default();
    for (rel, data) in corpus_files() {
        let lean = pdnkit::check::FileCheck::named(&opts, &rel, &rel).read(&data[..]);
        assert!(lean.error.is_none(), "{rel}");
        let mut lines = Vec::new();
        for c in &lean.games {
            serde_json::to_writer(
                &mut lines,
                &pdnkit::export::GameRecord::new(&rel, &c.game, &c.report),
            )
            .unwrap();
            lines.push(b'\n');
        }
        if !lean.findings.is_empty() {
            serde_json::to_writer(
                &mut lines,
                &pdnkit::export::FileRecord::new(&rel, &lean.findings),
            )
            .unwrap();
            lines.push(b'\n');
        }
        let batch = pdnkit::batch::Batch::new(opts.clone()).bytes(&rel, data.clone());
        let mut sink = example::JsonLines {
            out: Vec::new(),
            failed: None,
        };
        batch.run(&mut sink, None).unwrap();
        assert!(sink.out == lines, "{rel}");
    }
}
