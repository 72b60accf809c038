//! Options shared by the commands that read games, resolved into a config.

use clap::builder::TypedValueParser as _;
use pdnkit::diag::{Code, Level, Levels, Severity};
use pdnkit::draw::DrawRules;
use pdnkit::replay::Options;
use pdnkit::variant::Variant;
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(clap::Args, Clone, Debug)]
pub struct InputArgs {
    /// Files, directories (walked recursively) or `-` for standard input
    /// (the default when standard input is a pipe or a file).
    pub paths: Vec<PathBuf>,
    // Its help names every row of the variants table (variant_help).
    #[arg(long, value_name = "[GLOB=]NAME", value_parser = variant_rule(), help = variant_help())]
    pub variant: Vec<VariantChoice>,
    /// Read every game as NAME, whatever its GameType says (a differing
    /// GameType gets a warning).
    #[arg(long, value_name = "NAME", value_parser = variant_name(), conflicts_with = "variant")]
    pub force_variant: Option<Variant>,
    /// Draw rules: auto is cbjd for brazilian, fmjd for international,
    /// canadian and russian; english, czech and italian games have none;
    /// frisian and frysk games always have their own (frisian).
    #[arg(long, value_enum, default_value_t = DrawChoice::Auto)]
    pub draw_rules: DrawChoice,
    /// stop: the first move error of a game stops its replay (archives of a
    /// server that enforced the rules). stand: a missed capture, a capture
    /// taking too few pieces, stopped early or against the precedence, that
    /// the record plays on from (FMJD art. 5.4), is reported, played, and
    /// the replay goes on (over-the-board records).
    #[arg(long, value_enum, value_name = "MODE", default_value_t = IrregularityChoice::Stop)]
    pub irregularities: IrregularityChoice,
    /// Read every record as standard PDN: no producer's dialect (a capture
    /// written one jump per token) is read as meant, and no `dialect`
    /// finding is made (docs/dialect.md).
    #[arg(long)]
    pub strict_dialects: bool,
    /// Classify openings against these tables (a shipped table's name, or a
    /// file of one's own, .csv or .pdn), in this order, instead of each
    /// variant's list (repeatable; docs/openings.md); none: no opening.
    #[arg(long, value_name = "NAME|FILE|none")]
    pub opening_table: Vec<String>,
    /// The tables of `--opening-table`, read once for the whole run.
    #[arg(skip)]
    tables: std::sync::OnceLock<Result<OpeningTables, String>>,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Never draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// In directories, read every file, not only .pdn, .pgn and .txt.
    #[arg(long)]
    pub all_files: bool,
    /// Do not report findings of CODE, or of a group: errors, warnings, notes
    /// (repeatable; comma-separated lists too).
    #[arg(short = 'A', long = "allow", value_name = "CODE|GROUP", value_delimiter = ',', value_parser = code_or_group())]
    pub allow: Vec<String>,
    /// Report findings of CODE (or of a group) as warnings.
    #[arg(short = 'W', long = "warn", value_name = "CODE|GROUP", value_delimiter = ',', value_parser = code_or_group())]
    pub warn: Vec<String>,
    /// Report findings of CODE (or of a group) as errors, which makes their
    /// games invalid; `-D warnings` does so for every warning. Of -A, -W and
    /// -D, a later flag overrides an earlier one, and a code beats its group.
    #[arg(short = 'D', long = "deny", value_name = "CODE|GROUP", value_delimiter = ',', value_parser = code_or_group())]
    pub deny: Vec<String>,
    /// Report only error findings (and the summary): -A warnings -A notes.
    #[arg(short = 'e', long)]
    pub errors_only: bool,
    /// Longest game read, in bytes of text; a longer one is reported as
    /// game-too-large and skipped (memory stays bounded by this).
    #[arg(long, value_name = "BYTES", default_value_t = pdnkit::Options::DEFAULT_MAX_GAME_BYTES)]
    pub max_game_bytes: usize,
}

/// The tables of `--opening-table` read ([`InputArgs::opening_tables`]).
type OpeningTables = Option<Vec<std::sync::Arc<pdnkit::openings::Table>>>;

/// Reads the tables of `--opening-table` in order: the error of the first
/// that cannot be used; each warning of a user's table's rows said once.
fn opening_tables(list: &[String]) -> Result<OpeningTables, String> {
    if list.is_empty() {
        return Ok(None);
    }
    let mut out = Vec::new();
    for t in list {
        let spec: pdnkit::openings::TableSpec =
            t.parse().map_err(|e| format!("--opening-table: {e}"))?;
        if let Some((table, warnings)) = spec.open().map_err(|e| format!("--opening-table: {e}"))? {
            for w in warnings {
                eprintln!("pdnkit: warning: {w}");
            }
            out.push(table);
        }
    }
    Ok(Some(out))
}

/// The groups `-A`, `-W` and `-D` take besides codes.
const GROUPS: [(&str, Severity); 3] = [
    ("errors", Severity::Error),
    ("warnings", Severity::Warning),
    ("notes", Severity::Note),
];

/// A code or a group, checked against the list (which completions offer).
fn code_or_group() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        Code::ALL
            .iter()
            .map(|c| c.as_str())
            .chain(GROUPS.iter().map(|(g, _)| *g)),
    )
}

/// The order in which -A, -W and -D values were given on the command line,
/// recorded by `main` from the parsed arguments (clap keeps one list per
/// flag): a later flag overrides an earlier one.
static FLAG_ORDER: std::sync::OnceLock<Vec<(Level, String)>> = std::sync::OnceLock::new();

/// Records the order of the -A, -W and -D values of a subcommand's arguments.
pub fn record_level_order(m: &clap::ArgMatches) {
    let mut all: Vec<(usize, Level, String)> = Vec::new();
    for (id, level) in [
        ("allow", Level::Allow),
        ("warn", Level::Warn),
        ("deny", Level::Deny),
    ] {
        // Only subcommands that read games have these flags.
        if m.try_contains_id(id).is_err() {
            continue;
        }
        let (Some(idx), Ok(Some(vals))) = (m.indices_of(id), m.try_get_many::<String>(id)) else {
            continue;
        };
        all.extend(idx.zip(vals).map(|(i, v)| (i, level, v.clone())));
    }
    all.sort_by_key(|(i, _, _)| *i);
    let _ = FLAG_ORDER.set(all.into_iter().map(|(_, l, v)| (l, v)).collect());
}

impl InputArgs {
    /// The levels given by `-A`, `-W`, `-D` and `-e`, in the order given.
    pub fn levels(&self) -> Levels {
        let mut l = Levels::default();
        if self.errors_only {
            l.set_group(Severity::Warning, Level::Allow);
            l.set_group(Severity::Note, Level::Allow);
        }
        let order: Vec<(Level, String)> = match FLAG_ORDER.get() {
            Some(o) => o.clone(),
            None => self
                .warn
                .iter()
                .map(|v| (Level::Warn, v.clone()))
                .chain(self.deny.iter().map(|v| (Level::Deny, v.clone())))
                .chain(self.allow.iter().map(|v| (Level::Allow, v.clone())))
                .collect(),
        };
        for (level, name) in order {
            match (
                name.parse::<Code>(),
                GROUPS.iter().find(|(g, _)| *g == name),
            ) {
                (Ok(c), _) => l.set(c, level),
                (Err(_), Some((_, sev))) => l.set_group(*sev, level),
                // The parser lets only codes and groups through.
                (Err(_), None) => {}
            }
        }
        l
    }
}

/// `--variant [GLOB=]NAME`: `auto` or a variant, for every file or for
/// the files a GLOB matches. The names come from the variants table
/// ([`Variant::ALL`]): a new row is a new value, with nothing to add here.
#[derive(Clone, Debug)]
pub struct VariantChoice(pub pdnkit::infer::NamedVariant);

/// The help of `--variant`, naming every variant of [`Variant::ALL`].
pub fn variant_help() -> String {
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    format!(
        "The variant of games without a GameType tag, for every file or for the files a GLOB matches ('archive/czech/**=czech', '*mrcd*=czech'; repeatable, the last matching GLOB wins; a GLOB without / matches the file's name). NAME: auto (the file's evidence, the default), {}. Applied only to a file whose board fits it. A game's own GameType always decides its variant.",
        names.join(", ")
    )
}

/// The parser of `--variant [GLOB=]NAME`.
pub fn variant_rule() -> impl clap::builder::TypedValueParser<Value = VariantChoice> {
    clap::builder::StringValueParser::new().try_map(|s| {
        pdnkit::infer::NamedVariant::parse(&s)
            .map(VariantChoice)
            .map_err(|e| format!("--variant {s}: {e}"))
    })
}

/// The parser of a variant's name (`perft --variant`, `--force-variant`).
pub fn variant_name() -> impl clap::builder::TypedValueParser<Value = Variant> {
    clap::builder::PossibleValuesParser::new(Variant::ALL.iter().map(|v| v.name()))
        .try_map(|s| s.parse::<Variant>())
}

/// `--draw-rules`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawChoice {
    Auto,
    Cbjd,
    Fmjd,
}

/// `--irregularities`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum IrregularityChoice {
    Stop,
    Stand,
}

impl InputArgs {
    /// The replay options.
    pub fn options(&self) -> Result<Options, String> {
        let draw_rules = match self.draw_rules {
            DrawChoice::Auto => None,
            DrawChoice::Cbjd => Some(DrawRules::Cbjd),
            DrawChoice::Fmjd => Some(DrawRules::Fmjd),
        };
        Ok(Options::default()
            .variants(self.variant.iter().map(|c| c.0.clone()).collect())
            .force_variant(self.force_variant)
            .draw_rules(draw_rules)
            .irregularities(match self.irregularities {
                IrregularityChoice::Stop => pdnkit::replay::Irregularities::Stop,
                IrregularityChoice::Stand => pdnkit::replay::Irregularities::Stand,
            })
            .strict_dialects(self.strict_dialects)
            .max_game_bytes(Some(self.max_game_bytes))
            .levels(self.levels())
            .opening_tables(self.opening_tables()?))
    }

    /// The tables of `--opening-table`, in order (`none` left out: an empty
    /// list turns classification off); `None`: each variant's own list.
    /// A user's file is read (every row checked) the first time this is
    /// asked for, and its rows' warnings said then, once.
    pub fn opening_tables(&self) -> Result<OpeningTables, String> {
        self.tables
            .get_or_init(|| opening_tables(&self.opening_table))
            .clone()
    }

    /// Worker threads asked for (`-j`): at least 1; more than
    /// [`MAX_JOBS_PER_CORE`] per core are cut to that (said once on stderr).
    pub fn jobs(&self) -> Result<Option<usize>, String> {
        let Some(j) = self.jobs else { return Ok(None) };
        if j == 0 {
            return Err("--jobs must be at least 1".into());
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let cap = cores.saturating_mul(MAX_JOBS_PER_CORE);
        if j > cap {
            eprintln!(
                "pdnkit: --jobs {j} is more than {MAX_JOBS_PER_CORE} per core ({cores} cores); using {cap} workers"
            );
            return Ok(Some(cap));
        }
        Ok(Some(j))
    }
}

use crate::output::Stop;
use pdnkit::batch::{Batch, Input, RunError, RunInfo, Sink, MAX_JOBS_PER_CORE};

/// Everything a reading command needs, resolved from its arguments: the
/// library's run ([`Batch`]) of its inputs and options.
pub struct Prepared {
    pub batch: Batch,
}

impl Prepared {
    /// The replay options.
    pub fn opts(&self) -> &Options {
        self.batch.options()
    }
    /// The inputs, in order.
    pub fn inputs(&self) -> &[Input] {
        self.batch.inputs()
    }

    /// Runs every input through the replay and `sink`, with the progress bar
    /// when asked for: how the run went, or the sink's own error when it
    /// stopped the run. A run that failed as a whole (an input or PATH that
    /// could not be read, no PDN file among the inputs) is marked failed
    /// (exit status 2) here.
    pub fn run(&self, progress: bool, sink: &mut dyn Sink<Error = Stop>) -> Result<RunInfo, Stop> {
        self.run_saying(progress, true, sink)
    }

    /// [`Prepared::run`] saying nothing of skipped files and unreadable
    /// inputs, nor marking the run failed for them: a first pass over
    /// inputs read again after it, which says it all.
    pub fn run_first_pass(
        &self,
        progress: bool,
        sink: &mut dyn Sink<Error = Stop>,
    ) -> Result<RunInfo, Stop> {
        self.run_saying(progress, false, sink)
    }

    fn run_saying(
        &self,
        progress: bool,
        say_files: bool,
        sink: &mut dyn Sink<Error = Stop>,
    ) -> Result<RunInfo, Stop> {
        let total = self.inputs().iter().map(Input::size).sum();
        let mut bar = crate::progress::Bar::new(progress, total);
        let mut cleared = bar.around(sink, say_files);
        let info = match self.batch.run(&mut cleared, Some(&mut bar)) {
            Ok(info) => info,
            Err(RunError::Stopped { error, .. }) => return Err(error),
            Err(RunError::Threads(e)) => {
                return Err(Stop::Failed(format!("no worker threads: {e}")))
            }
        };
        if say_files && self.failed(&info) {
            crate::exit::failed();
        }
        Ok(info)
    }

    /// Whether a run failed as a whole (exit status 2): an input that could
    /// not be read, a PATH problem, or not one PDN file among the inputs; a
    /// file named on the command line that is skipped fails the run too.
    pub fn failed(&self, info: &RunInfo) -> bool {
        info.unreadable > 0 || !self.all_read(info)
    }

    /// Whether every input named was read, if only up to a break: no PATH
    /// problem, no named file skipped, some PDN among the inputs. An output
    /// file is written only then.
    pub fn all_read(&self, info: &RunInfo) -> bool {
        self.batch.problems().is_empty()
            && info.skipped < self.inputs().len()
            && info.skipped_named == 0
    }

    /// [`Prepared::run`] through a selection: only the games it keeps reach
    /// `sink` (all of them when it is empty).
    pub fn run_selected(
        &self,
        progress: bool,
        selection: &pdnkit::select::Selection,
        sink: &mut dyn Sink<Error = Stop>,
    ) -> Result<RunInfo, Stop> {
        if selection.is_empty() {
            return self.run(progress, sink);
        }
        let mut selected = pdnkit::batch::Selected::new(selection, sink);
        let done = self.run(progress, &mut selected);
        let (files, findings) = selected.set_aside();
        if findings > 0 {
            eprintln!(
                "pdnkit: {findings} {} about {files} {} with no selected game not shown",
                if findings == 1 { "finding" } else { "findings" },
                if files == 1 { "file" } else { "files" },
            );
        }
        done
    }
}

impl InputArgs {
    /// Resolves options, the thread count and the inputs; on failure prints the
    /// reason and returns exit status 2. Problems with PATHs are printed and
    /// kept (the run goes on with the other inputs, and ends with status 2).
    pub fn prepare(&self, keep_moves: bool) -> Result<Prepared, u8> {
        let fail = |m: String| crate::exit::fail(m);
        let mut opts = self.options().map_err(fail)?;
        opts.keep_moves = keep_moves;
        let jobs = self.jobs().map_err(fail)?;
        let paths: Vec<PathBuf> = if self.paths.is_empty() {
            if std::io::stdin().is_terminal() {
                return Err(fail(
                    "no PATH given and standard input is a terminal (name files or directories, or `-` for standard input)".into(),
                ));
            }
            vec![PathBuf::from("-")]
        } else {
            self.paths.clone()
        };
        let mut batch = Batch::new(opts).all_files(self.all_files);
        if let Some(j) = jobs {
            batch = batch.jobs(j);
        }
        let batch = batch.paths(&paths);
        for p in batch.problems() {
            crate::exit::fail(format_args!(
                "{}: {}",
                crate::render::name(&p.path),
                p.message
            ));
        }
        if batch.inputs().is_empty() {
            // Every PATH already had its message (it does not exist, cannot be
            // read): one message per fault.
            if batch.problems().len() >= paths.len() {
                return Err(crate::exit::failed());
            }
            return Err(fail(format!(
                "no PDN file found under {} (files ending in .pdn, .pgn or .txt are read in directories; --all-files reads every file)",
                paths
                    .iter()
                    .map(|p| crate::render::path(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        Ok(Prepared { batch })
    }
}

/// The options that choose games (`select`, and the same on `check`,
/// `convert`, `stats`, `dupes`, `report`). Different options combine with
/// AND, repeats of one option with OR.
#[derive(clap::Args, Clone, Debug, Default)]
#[command(next_help_heading = "Selecting games (different options: AND; one option repeated: OR)")]
pub struct SelectArgs {
    /// Games where NAME plays either side: case-, space- and
    /// accent-insensitive substring (`--player sijbrands`).
    #[arg(long, value_name = "NAME")]
    pub player: Vec<String>,
    /// Games where NAME has White.
    #[arg(long, value_name = "NAME")]
    pub white: Vec<String>,
    /// Games where NAME has Black.
    #[arg(long, value_name = "NAME")]
    pub black: Vec<String>,
    /// Games whose Event contains TEXT (compared as names are).
    #[arg(long, value_name = "TEXT")]
    pub event: Vec<String>,
    /// Games dated within FROM..TO (either end may be left out; 1998,
    /// 1998.05 and 1998.??.?? stand for the whole year or month).
    #[arg(long, value_name = "FROM..TO")]
    pub date: Vec<String>,
    /// Games whose declared result is RESULT: white, black, draw, unfinished,
    /// and 2-0, 0-2, 1-1, 0-0, * by meaning in every variant; 1-0, 0-1 and
    /// 1/2-1/2 in each game's own order (1-0 is a White win in draughts, a
    /// Black win in an English checkers record); where a game's order is not
    /// known, the written result alone is matched.
    #[arg(long, value_name = "RESULT")]
    pub result: Vec<String>,
    /// Games of VARIANT (international, italian, frisian, ..., or a refused one: pool).
    #[arg(long, value_name = "VARIANT")]
    pub variant_is: Vec<String>,
    /// Games with no error finding.
    #[arg(long, conflicts_with = "invalid")]
    pub valid: bool,
    /// Games with an error finding.
    #[arg(long)]
    pub invalid: bool,
    /// Games with a finding of CODE.
    #[arg(long, value_name = "CODE", value_delimiter = ',', value_parser = code_or_group())]
    pub code: Vec<String>,
    /// Games whose main line has MIN..MAX plies (either end may be left out).
    #[arg(long, value_name = "MIN..MAX")]
    pub plies: Vec<String>,
    /// Games whose main line reaches the position of FEN, with its side to
    /// move (compared as a position, not as text).
    #[arg(long, value_name = "FEN")]
    pub position: Vec<String>,
    /// Games whose main line reaches a position with this material, before
    /// or after any move: White's pieces, `:`, Black's, each side counts of
    /// kings (K) and men (M) or 0, a trailing + meaning at least (`3K:1K`,
    /// `1K2M:2M+`, `2K:0`).
    #[arg(long, value_name = "SPEC")]
    pub material: Vec<String>,
    /// `--material` also matches with the colours swapped (`3K:1K` finds
    /// three kings against one, whichever side has the three).
    #[arg(long, requires = "material")]
    pub material_either: bool,
    /// Games whose opening is SPEC (docs/openings.md): `TABLE:CODE` (the
    /// game's match in that table), a code (`VI-15`, `1-VI`, `108`), `none`,
    /// or else a part of the opening's name.
    #[arg(long, value_name = "SPEC")]
    pub opening: Vec<String>,
    /// The games the other options reject instead.
    #[arg(long)]
    pub invert: bool,
}

/// `--tag NAME=VALUE` / `--tag 'NAME~REGEX'` (its own group: `convert`
/// has a `--tag` of its own, which takes both).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TagSelectArgs {
    /// Games whose tag NAME is VALUE (`--tag Round=3`), or matches REGEX
    /// (`--tag 'Site~^Amster'`).
    #[arg(
        long = "tag",
        value_name = "NAME=VALUE|NAME~REGEX",
        help_heading = "Selecting games (different options: AND; one option repeated: OR)"
    )]
    pub tag: Vec<String>,
}

impl SelectArgs {
    /// The selection, with `tags` (`NAME=VALUE`, `NAME~REGEX`); the reason
    /// when an option cannot be read. The users' opening tables of `input`
    /// are read first, so that `--opening` knows their codes.
    pub fn selection(
        &self,
        tags: &[String],
        input: &InputArgs,
    ) -> Result<pdnkit::select::Selection, String> {
        use pdnkit::select::Criterion;
        let tables = if self.opening.is_empty() {
            None
        } else {
            input.opening_tables()?
        };
        let mut s = pdnkit::select::Selection::default();
        let mut add = |c: Result<Criterion, pdnkit::select::CriterionError>, opt: &str| {
            c.map(|c| {
                s.add(c);
            })
            .map_err(|e| format!("--{opt}: {e}"))
        };
        for v in &self.player {
            add(Criterion::parse_player(v), "player")?;
        }
        for v in &self.white {
            add(Criterion::parse_white(v), "white")?;
        }
        for v in &self.black {
            add(Criterion::parse_black(v), "black")?;
        }
        for v in &self.event {
            add(Criterion::parse_event(v), "event")?;
        }
        for v in tags {
            add(Criterion::parse_tag(v), "tag")?;
        }
        for v in &self.date {
            add(Criterion::parse_date(v), "date")?;
        }
        for v in &self.result {
            add(Criterion::parse_result(v), "result")?;
        }
        for v in &self.variant_is {
            add(Ok(Criterion::variant_is(v)), "variant-is")?;
        }
        if self.valid || self.invalid {
            add(Ok(Criterion::valid(self.valid)), "valid")?;
        }
        for v in &self.code {
            let group = GROUPS.iter().find(|(g, _)| g == v).map(|(_, s)| *s);
            let codes: Vec<Code> = match group {
                Some(sev) => Code::ALL
                    .iter()
                    .copied()
                    .filter(|c| c.severity() == sev)
                    .collect(),
                None => Code::ALL
                    .iter()
                    .copied()
                    .filter(|c| c.as_str() == v)
                    .collect(),
            };
            for c in codes {
                add(Ok(Criterion::code(c)), "code")?;
            }
        }
        for v in &self.plies {
            add(Criterion::parse_plies(v), "plies")?;
        }
        for v in &self.position {
            add(Criterion::parse_position(v), "position")?;
        }
        for v in &self.material {
            add(
                Criterion::parse_material(v, self.material_either),
                "material",
            )?;
        }
        let chosen = tables.as_deref().unwrap_or_default();
        for v in &self.opening {
            let c = Criterion::parse_opening_with(v, chosen);
            if let Ok(c) = &c {
                // A name only a names table has that names no game: said,
                // never a quiet 0 (issue 62 item 10).
                for t in c.names_no_game(chosen) {
                    eprintln!(
                        "pdnkit: warning: --opening {v}: a name of {t}, which names no game unless chosen (its variant has no ballot table): add --opening-table {t}"
                    );
                }
            }
            add(c, "opening")?;
        }
        s.invert(self.invert);
        Ok(s)
    }
}

/// `--format` of `check` and `dupes`: human text or JSON Lines.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum HumanOrJson {
    Human,
    Json,
}

/// How `--to parquet` splits its output into a folder of partitions.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartitionBy {
    Variant,
    Year,
    Event,
}

impl PartitionBy {
    /// The key's name in the folder names (`variant=international`).
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    pub fn name(self) -> &'static str {
        match self {
            PartitionBy::Variant => "variant",
            PartitionBy::Year => "year",
            PartitionBy::Event => "event",
        }
    }
}

/// What `convert` and `select` say when inputs could not be read to their
/// end: the output holds every game read before each break, and the run
/// fails (exit 2).
pub fn read_errors_note(n: u64) -> String {
    format!(
        "pdnkit: {n} {} could not be read to {} end: the output holds the games read before the break (exit status 2)",
        if n == 1 { "input" } else { "inputs" },
        if n == 1 { "its" } else { "their" }
    )
}

/// What `convert --to pdn` and `select` say of a game the input broke off in
/// ([`pdnkit::Game::is_cut`]): it is not written.
pub fn cut_game_note(file: &str, g: &pdnkit::Game) -> String {
    format!(
        "pdnkit: {}: game {} is cut by the break (a fragment, before its result): not written",
        crate::render::name(file),
        g.index()
    )
}

/// Says how many copies of games a count left out, if any (`stats`,
/// `explore`): extra copies of a game in an event, and games whose copies
/// disagree.
pub fn say_set_aside(merged: u64, conflicting: u64) {
    if merged + conflicting > 0 {
        eprintln!(
            "pdnkit: each game counted once: {merged} extra {} of games in an event not counted{} (--keep-duplicates counts every copy; `pdnkit tournament` names them)",
            if merged == 1 { "copy" } else { "copies" },
            if conflicting > 0 {
                format!(
                    ", and {conflicting} {} whose copies disagree left out",
                    if conflicting == 1 { "game" } else { "games" }
                )
            } else {
                String::new()
            }
        );
    }
}
