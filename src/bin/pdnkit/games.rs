//! Reading every game of every input in order, checking them in parallel in
//! batches, and handing the results back in input order.

use crate::input::Input;
use indicatif::{ProgressBar, ProgressStyle};
use pdnkit::pdn::{Game, Reader};
use pdnkit::replay::{check_game, Options, Report};
use rayon::prelude::*;
use std::io::{IsTerminal, Read};
use std::time::Instant;

/// Games per batch and bytes of game text per batch.
const BATCH_GAMES: usize = 512;
const BATCH_BYTES: usize = 512 << 10;
/// Batches the reader may read ahead of the replay. On two cores the three
/// stages share the cores well only when the reader can run far enough ahead:
/// with 2 batches both cores were busy 75-78 % of the wall time of `check -j1`,
/// with 16 batches 82-89 % (interleaved runs on the 212 MB bench file). At most
/// about 22 batches are alive at once (queued, being read, replayed, written,
/// handed back), so memory stays bounded by the batch size, not the input.
const READ_AHEAD: usize = 16;

/// What a consumer does with each checked game, in input order.
pub trait Sink {
    /// Returns false to stop the run (e.g. a closed pipe).
    fn game(&mut self, file: &str, g: &Game, r: &Report) -> bool;
    /// A file that could not be read (or not completely).
    fn file_error(&mut self, file: &str, msg: &str);
    /// A file was read to its end.
    fn file_done(&mut self, file: &str);
}

/// Runs every input through `check_game` and `sink`. Returns false if the sink stopped the run.
pub fn run(
    inputs: &[Input],
    opts: &Options,
    pool: &rayon::ThreadPool,
    progress: bool,
    sink: &mut dyn Sink,
) -> bool {
    let total: u64 = inputs
        .iter()
        .map(|i| match i {
            Input::File(p) => std::fs::metadata(p).map(|m| m.len()).unwrap_or(0),
            Input::Stdin => 0,
        })
        .sum();
    let bar = (progress && std::io::stderr().is_terminal()).then(|| {
        let b = ProgressBar::new(total);
        b.set_style(
            ProgressStyle::with_template("{bar:30} {bytes}/{total_bytes} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    });
    let started = Instant::now();
    let mut games_done = 0u64;
    let names: Vec<String> = inputs.iter().map(Input::name).collect();
    let mut flush = |batch: &[Item], reports: &[Option<Report>], sink: &mut dyn Sink| -> bool {
        let mut bytes = 0u64;
        for (it, r) in batch.iter().zip(reports) {
            let keep_going = match (it, r) {
                (Item::Game(fi, g), Some(r)) => {
                    games_done += 1;
                    bytes += g.text.len() as u64;
                    match &bar {
                        Some(b) => b.suspend(|| sink.game(&names[*fi], g, r)),
                        None => sink.game(&names[*fi], g, r),
                    }
                }
                (Item::Done(fi), _) => {
                    sink.file_done(&names[*fi]);
                    true
                }
                (Item::Error(fi, msg), _) => {
                    sink.file_error(&names[*fi], msg);
                    true
                }
                _ => true,
            };
            if !keep_going {
                return false;
            }
        }
        if let Some(b) = &bar {
            b.inc(bytes);
            let rate = games_done as f64 / started.elapsed().as_secs_f64().max(1e-6);
            b.set_message(format!("{games_done} games, {rate:.0} games/s"));
        }
        true
    };
    // Three stages joined by bounded channels: the reader, the checking (on the
    // pool), and the output here. Reading, replay and rendering overlap, and at
    // most READ_AHEAD batches and a few more are in memory.
    let completed = std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Item>>(READ_AHEAD);
        let (done_tx, done_rx) = std::sync::mpsc::sync_channel::<Checked>(1);
        // Written batches go back to the reader to be freed on the thread that
        // allocated their games (a free from another thread costs more).
        let (spent_tx, spent_rx) = std::sync::mpsc::sync_channel::<Vec<Item>>(2);
        scope.spawn(move || read_inputs(inputs, &tx, &spent_rx));
        scope.spawn(move || {
            for batch in rx {
                let reports: Vec<Option<Report>> = pool.install(|| {
                    batch
                        .par_iter()
                        .map(|it| match it {
                            Item::Game(_, g) => Some(check_game(g, opts)),
                            _ => None,
                        })
                        .collect()
                });
                if done_tx.send((batch, reports)).is_err() {
                    // The output stopped: dropping `rx` stops the reader too.
                    return;
                }
            }
        });
        for (batch, reports) in done_rx {
            if !flush(&batch, &reports, sink) {
                // Dropping the receiver stops the other stages at their next batch.
                return false;
            }
            // Never waits: when the reader is behind, the batch is freed here.
            let _ = spent_tx.try_send(batch);
        }
        true
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    completed
}

/// Reads every input in order and sends its games in batches; stops when the
/// receiver is gone. Batches handed back on `spent` are freed here.
fn read_inputs(
    inputs: &[Input],
    tx: &std::sync::mpsc::SyncSender<Vec<Item>>,
    spent: &std::sync::mpsc::Receiver<Vec<Item>>,
) {
    let new_batch = || {
        while let Ok(old) = spent.try_recv() {
            drop(old);
        }
        Vec::with_capacity(BATCH_GAMES + 1)
    };
    let mut batch: Vec<Item> = new_batch();
    let mut batch_bytes = 0usize;
    let mut batch_games = 0usize;
    for (fi, input) in inputs.iter().enumerate() {
        let src: Box<dyn Read + Send> = match input {
            Input::Stdin => Box::new(std::io::stdin()),
            Input::File(p) => match std::fs::File::open(p) {
                Ok(f) => Box::new(f),
                Err(e) => {
                    batch.push(Item::Error(fi, e.to_string()));
                    continue;
                }
            },
        };
        let mut reader = Reader::new(std::io::BufReader::with_capacity(1 << 16, src));
        loop {
            match reader.next_game() {
                Ok(Some(g)) => {
                    batch_bytes += g.text.len();
                    batch_games += 1;
                    batch.push(Item::Game(fi, g));
                    if batch_games >= BATCH_GAMES || batch_bytes >= BATCH_BYTES {
                        batch_bytes = 0;
                        batch_games = 0;
                        if tx.send(std::mem::replace(&mut batch, new_batch())).is_err() {
                            return;
                        }
                    }
                }
                Ok(None) => {
                    batch.push(Item::Done(fi));
                    break;
                }
                Err(e) => {
                    batch.push(Item::Error(fi, format!("read error: {e}")));
                    break;
                }
            }
        }
    }
    let _ = tx.send(batch);
}

/// A batch with the report of each of its games.
type Checked = (Vec<Item>, Vec<Option<Report>>);

enum Item {
    Game(usize, Game),
    Done(usize),
    Error(usize, String),
}
