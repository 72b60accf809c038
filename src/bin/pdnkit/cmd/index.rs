//! `pdnkit index PATH... -o FILE`: the positions of the first plies of each
//! game, with the moves played from them and their results, as a Parquet
//! file that `pdnkit explore --index FILE` answers from (docs/explore.md).

use crate::common::InputArgs;
use crate::index_file::{Header, IndexWriter};
use crate::output::Stop;
use pdnkit::batch::Sink;
use pdnkit::pdn::Game;
use pdnkit::replay::GameReport;
use pdnkit::stats::Explorer;
use std::ops::ControlFlow;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    select: crate::common::SelectArgs,
    #[command(flatten)]
    tag_select: crate::common::TagSelectArgs,
    /// The index file to write (Parquet; replaced whole, only when every
    /// input was read).
    #[arg(short = 'o', long, value_name = "FILE")]
    output: PathBuf,
    /// Plies of each game indexed: its positions up to ply N, each with the
    /// move played from it (`--plies` is the selection of games by length).
    #[arg(long, value_name = "N", default_value_t = 40,
          value_parser = clap::value_parser!(u32).range(0..=1000))]
    index_plies: u32,
    /// Count every copy of a game stored more than once in an event (by
    /// default each game counts once, as `explore` and `stats` count it).
    #[arg(long)]
    keep_duplicates: bool,
}

struct IndexSink {
    explorer: Explorer,
}

impl Sink for IndexSink {
    type Error = Stop;
    fn game(&mut self, file: &str, g: &Game, r: &GameReport) -> ControlFlow<Stop> {
        self.explorer.add(file, g, r);
        ControlFlow::Continue(())
    }
    fn file_done(&mut self, _file: &str, _findings: &[pdnkit::diag::FileDiagnostic]) {}
}

pub fn run(a: Args) -> u8 {
    let selection = match a.select.selection(&a.tag_select.tag, &a.input) {
        Ok(s) => s,
        Err(why) => return crate::exit::fail(why),
    };
    let prepared = match a.input.prepare(true) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Some(i) = prepared
        .inputs()
        .iter()
        .find(|i| crate::output::is_input(i, &a.output))
    {
        return crate::exit::fail(format!(
            "{}: the index would overwrite an input ({})",
            crate::render::path(&a.output),
            i.name()
        ));
    }
    let mut sink = IndexSink {
        explorer: Explorer::indexing(a.index_plies).keep_duplicates(a.keep_duplicates),
    };
    let info = match prepared.run_selected(!a.input.no_progress, &selection, &mut sink) {
        Ok(info) => info,
        Err(stop) => {
            stop.report();
            return 0;
        }
    };
    let explorer = &mut sink.explorer;
    let ((merged, conflicting), failed) = explorer.set_aside();
    if let Some(why) = failed {
        return crate::exit::fail(format!("error: {why}"));
    }
    crate::common::say_set_aside(merged, conflicting);
    let header = Header {
        plies: a.index_plies,
        variants: explorer.variants(),
    };
    let mut writer = match IndexWriter::create(&a.output, &header) {
        Ok(w) => w,
        Err(e) => return crate::exit::fail(e),
    };
    let (mut rows, mut positions, mut last) = (0u64, 0u64, None);
    let mut error = None;
    let done = explorer.index_rows(|pos, g| {
        if error.is_some() {
            return;
        }
        rows += 1;
        if last != Some((pos.variant(), pos.key())) {
            positions += 1;
            last = Some((pos.variant(), pos.key()));
        }
        if let Err(e) = writer.push(pos, &g) {
            error = Some(e);
        }
    });
    let error = done.err().or(error);
    let complete = error.is_none() && prepared.all_read(&info);
    if let Err(e) = writer.finish(complete) {
        return crate::exit::fail(format!("{}: {e}", crate::render::path(&a.output)));
    }
    if let Some(e) = error {
        return crate::exit::fail(format!("{}: {e}", crate::render::path(&a.output)));
    }
    if complete {
        eprintln!(
            "pdnkit: {}: {positions} positions of the first {} plies, {rows} rows (positions and moves)",
            crate::render::path(&a.output),
            a.index_plies
        );
    } else {
        eprintln!(
            "pdnkit: {}: not written (an input was not read whole)",
            crate::render::path(&a.output)
        );
    }
    0
}
