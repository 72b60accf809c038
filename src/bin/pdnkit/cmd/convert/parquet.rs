//! `convert --to parquet`: the games table written as Parquet, whole or in
//! partitions.

use super::ConvertSink;
#[cfg(feature = "parquet")]
use super::{Args, Dest};
use crate::output::Stop;
use pdnkit::pdn::Game;
use pdnkit::replay::GameReport;
use std::ops::ControlFlow;

impl ConvertSink {
    /// A game into the Parquet output.
    pub(super) fn parquet_game(
        &mut self,
        file: &str,
        g: &Game,
        r: &GameReport,
    ) -> ControlFlow<Stop> {
        #[cfg(feature = "parquet")]
        if let Dest::Parquet(p) = &mut self.dest {
            return match p.game(file, g, r) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => ControlFlow::Break(Stop::Failed(e.to_string())),
            };
        }
        let _ = (file, g, r);
        ControlFlow::Break(Stop::Failed(
            "this pdnkit was built without Parquet output".into(),
        ))
    }
}

/// `convert --to parquet`: the games (or plies) table into `-o FILE`, or a
/// folder of partitions with --partition-by.
#[cfg(feature = "parquet")]
pub(super) fn parquet(
    a: Args,
    prepared: crate::common::Prepared,
    selection: &pdnkit::select::Selection,
) -> u8 {
    let Some(dest) = a.output.clone() else {
        return crate::exit::fail("--to parquet needs -o");
    };
    let single = match a.partition_by {
        Some(_) => None,
        None => match crate::output::open_output(Some(&dest), prepared.inputs(), "") {
            Ok(o) => Some(o),
            Err(why) => return crate::exit::fail(why),
        },
    };
    let out = match crate::parquet_out::ParquetOut::new(
        single,
        dest.clone(),
        a.force,
        a.moves,
        a.tags
            .iter()
            .cloned()
            .zip(a.tag_columns.iter().cloned())
            .collect(),
        a.partition_by,
    ) {
        Ok(o) => o,
        Err(why) => return crate::exit::fail(why),
    };
    let mut sink = ConvertSink {
        out_name: crate::render::path(&dest),
        out_is_stdout: false,
        a,
        dest: Dest::Parquet(Box::new(out)),
        errors: 0,
        merged: false,
        single: None,
        kept_as_written: 0,
        left_alone: std::collections::BTreeMap::new(),
        left_files: Vec::new(),
        keep_original: None,
        line: String::new(),
        stamps: std::collections::HashMap::new(),
    };
    let done = sink.read(&prepared, selection);
    sink.finish(done)
}
