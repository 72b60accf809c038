//! `pdnkit diagram`: one position as an SVG picture.

use crate::exit::fail;
use crate::output::{Out, Stop};
use pdnkit::batch::FileError;
use pdnkit::batch::{Batch, Sink};
use pdnkit::diagram::{svg, Arrow, DiagramOptions};
use pdnkit::position::Position;
use pdnkit::replay::{GameReport, Options};
use std::ops::ControlFlow;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// A PDN file to take the position from (with --game and --ply), read
    /// as every command reads it: compressed, or a member of an archive as
    /// pdnkit prints it (ARCHIVE!MEMBER; an archive of several members is
    /// listed).
    path: Option<PathBuf>,
    /// The variant: of the FEN (needed with --fen); with a file, of its
    /// games without a GameType tag, as everywhere (a game's own GameType
    /// decides its variant).
    #[arg(long, value_parser = crate::common::variant_name())]
    variant: Option<pdnkit::Variant>,
    /// With a file: read its games as NAME, whatever their GameType says.
    #[arg(long, value_name = "NAME", value_parser = crate::common::variant_name(), conflicts_with_all = ["fen", "variant"])]
    force_variant: Option<pdnkit::Variant>,
    /// The position, as a FEN.
    #[arg(long, conflicts_with = "path")]
    fen: Option<String>,
    /// With PATH: the game, 1-based.
    #[arg(long, default_value_t = 1)]
    game: usize,
    /// With PATH: the position before this ply (1 = the start; default: after the last ply read).
    #[arg(long)]
    ply: Option<u32>,
    /// A move to draw, as a record writes it (`32-28`, `c3xe5`, `26x17x8`):
    /// it must be a legal move of the position. Without it, a position before
    /// a move error shows the move as written (red) and, for a missed or
    /// smaller capture, a capture the rules required (dashed blue).
    #[arg(long = "move", value_name = "MOVE")]
    mv: Option<String>,
    /// Seen from Black.
    #[arg(long)]
    flip: bool,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
}

/// Picks game `want` of the one file a PATH names, read as every command
/// reads it (the pipeline: compressed files, archive members, the file's
/// variant decided as `check` decides it), and notes every file met.
struct Pick {
    want: usize,
    /// Each file met, with its games.
    files: Vec<(String, usize)>,
    picked: Option<(String, GameReport)>,
    /// Read errors and files skipped, with why.
    faults: Vec<String>,
}

impl Pick {
    fn met(&mut self, file: &str) -> &mut usize {
        if self.files.last().is_none_or(|(f, _)| f != file) {
            self.files.push((file.to_string(), 0));
        }
        let last = self.files.len() - 1;
        &mut self.files[last].1
    }
}

impl Sink for Pick {
    type Error = Stop;
    fn game(&mut self, file: &str, _g: &pdnkit::pdn::Game, r: &GameReport) -> ControlFlow<Stop> {
        let want = self.want;
        let first = self.files.first().is_none_or(|(f, _)| f == file);
        let n = self.met(file);
        *n += 1;
        if first && *n == want {
            self.picked = Some((file.to_string(), r.clone()));
        }
        ControlFlow::Continue(())
    }
    fn file_error(&mut self, e: &FileError) {
        let (file, msg) = (e.path.as_str(), e.message.as_str());
        self.faults
            .push(format!("{}: {msg}", crate::render::name(file)));
    }
    fn file_skipped(&mut self, file: &str, why: &str) {
        self.faults
            .push(format!("{}: {why}", crate::render::name(file)));
    }
    fn file_done(&mut self, file: &str, _findings: &[pdnkit::diag::FileDiagnostic]) {
        self.met(file);
    }
}

/// The position the arguments name, and the arrows of the move error made
/// there (none for a FEN, or a position before a legal move).
fn position(a: &Args) -> Result<(Position, Vec<Arrow>), String> {
    if let Some(fen) = &a.fen {
        let v = a
            .variant
            .ok_or("--fen needs --variant (the board and the rules depend on it)")?;
        return Position::from_fen(fen, v)
            .map(|p| (p, Vec::new()))
            .map_err(|e| format!("FEN \"{fen}\": {e}"));
    }
    let path = a
        .path
        .as_ref()
        .ok_or("name a FEN (--variant V --fen FEN) or a PDN file")?;
    // The file is read as every command reads it: its games replayed under
    // the variant its evidence gives (or --variant, --force-variant).
    let opts = Options::default()
        .variant(a.variant)
        .force_variant(a.force_variant)
        .keep_moves(true);
    let batch = Batch::new(opts).paths([path]);
    if let Some(p) = batch.problems().first() {
        return Err(format!("{}: {}", crate::render::name(&p.path), p.message));
    }
    let mut pick = Pick {
        want: a.game,
        files: Vec::new(),
        picked: None,
        faults: Vec::new(),
    };
    batch
        .run(&mut pick, None)
        .map_err(|e| format!("{}: {e}", crate::render::path(path)))?;
    if pick.files.len() > 1 {
        let list: Vec<String> = pick
            .files
            .iter()
            .map(|(f, n)| {
                format!(
                    "  {} ({n} {})",
                    crate::render::name(f),
                    if *n == 1 { "game" } else { "games" }
                )
            })
            .collect();
        return Err(format!(
            "{} holds {} files; name one as PATH!MEMBER (as listed):\n{}",
            crate::render::path(path),
            pick.files.len(),
            list.join("\n")
        ));
    }
    if let Some(f) = pick.faults.first() {
        if pick.picked.is_none() {
            return Err(f.clone());
        }
    }
    let Some((_, r)) = pick.picked else {
        let seen = pick.files.first().map_or(0, |(_, n)| *n);
        return Err(format!(
            "{} has {seen} {}; there is no game {}",
            crate::render::path(path),
            if seen == 1 { "game" } else { "games" },
            a.game
        ));
    };
    let Some(start) = r.start else {
        return Err(format!(
            "game {} cannot be replayed (its variant or its FEN is not usable)",
            a.game
        ));
    };
    let read = r.played.len() as u32;
    let ply = a.ply.unwrap_or(read + 1);
    if ply == 0 || ply > read + 1 {
        return Err(format!(
            "game {} has {read} plies read; --ply goes from 1 to {}",
            a.game,
            read + 1
        ));
    }
    // 1 ..= plies + 1: checked above, so the position exists.
    let pos = r.position_before(ply).unwrap_or(start);
    Ok((pos, fault_arrows(&pos, &r, ply)))
}

/// The move error made at `ply` from `pos`, as the report draws it: the
/// move as written, and a capture the rules required instead.
fn fault_arrows(pos: &Position, r: &pdnkit::GameReport, ply: u32) -> Vec<Arrow> {
    let Some(d) = r.errors().find(|d| d.ply == Some(ply)) else {
        return Vec::new();
    };
    let mut arrows: Vec<Arrow> = d
        .written
        .as_deref()
        .and_then(|w| Arrow::written(pos, w).ok())
        .into_iter()
        .collect();
    if matches!(
        d.code,
        pdnkit::Code::MissedCapture | pdnkit::Code::NonMaximalCapture
    ) {
        arrows.extend(Arrow::maximal_capture(pos));
    }
    arrows
}

pub fn run(a: Args) -> u8 {
    let (pos, fault) = match position(&a) {
        Ok(p) => p,
        Err(m) => return fail(m),
    };
    let mut opts = DiagramOptions {
        flip: a.flip,
        title: Some(format!("{} {}", pos.variant(), pos.to_fen())),
        moves: fault,
    };
    if let Some(m) = &a.mv {
        match Arrow::legal(&pos, m) {
            Ok(d) => opts.moves = vec![d],
            Err(e) => return fail(e),
        }
    }
    let mut text = svg(&pos, &opts);
    text.push('\n');
    match &a.output {
        None => crate::output::print_answer(&text),
        Some(path) => {
            // The input, or the archive it is a member of (`ARCHIVE!MEMBER`).
            let input = a
                .path
                .as_ref()
                .map(|p| match pdnkit::batch::member_path(p) {
                    Some((archive, _)) if !p.exists() => archive,
                    _ => p.clone(),
                });
            if input.is_some_and(|input| crate::output::same_file(&input, path)) {
                return fail(format!(
                    "{} is the input; refusing to overwrite it (name another -o)",
                    crate::render::path(path)
                ));
            }
            let out = match Out::open(path) {
                Ok(o) => o,
                Err(e) => return fail(format!("{}: {e}", crate::render::path(path))),
            };
            if let Err(stop) = out.write_whole(text.as_bytes()) {
                stop.report();
            }
            0
        }
    }
}
