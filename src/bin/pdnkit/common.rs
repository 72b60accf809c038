//! Options shared by the commands that read games, resolved into a config.

use pdnkit::draw::DrawRules;
use pdnkit::replay::Options;
use pdnkit::rules::Variant;
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(clap::Args, Clone, Debug)]
pub struct InputArgs {
    /// Files, directories (walked recursively) or `-` for standard input
    /// (the default when standard input is a pipe or a file).
    pub paths: Vec<PathBuf>,
    /// The rules to read games by: auto takes each game's GameType tag, and
    /// for games without one what the file shows (named once per file).
    #[arg(long, value_enum, default_value_t = VariantChoice::Auto)]
    pub variant: VariantChoice,
    /// Draw rules: auto is cbjd for brazilian, fmjd for international,
    /// canadian and russian; english games have none.
    #[arg(long, value_enum, default_value_t = DrawChoice::Auto)]
    pub draw_rules: DrawChoice,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Never draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// In directories, read every file, not only .pdn, .pgn and .txt.
    #[arg(long)]
    pub all_files: bool,
    /// Longest game read, in bytes of text; a longer one is reported as
    /// game-too-large and skipped (memory stays bounded by this).
    #[arg(long, value_name = "BYTES", default_value_t = pdnkit::pdn::DEFAULT_MAX_GAME_BYTES)]
    pub max_game_bytes: usize,
}

/// `--variant`: auto or one of the variants pdnkit checks.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantChoice {
    Auto,
    Brazilian,
    Canadian,
    International,
    Russian,
    English,
}

/// A variant named on the command line (`perft --variant`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantName {
    Brazilian,
    Canadian,
    International,
    Russian,
    English,
}

impl VariantName {
    pub fn variant(self) -> Variant {
        match self {
            VariantName::Brazilian => Variant::Brazilian,
            VariantName::Canadian => Variant::Canadian,
            VariantName::International => Variant::International,
            VariantName::Russian => Variant::Russian,
            VariantName::English => Variant::English,
        }
    }
}

impl VariantChoice {
    pub fn variant(self) -> Option<Variant> {
        Some(match self {
            VariantChoice::Auto => return None,
            VariantChoice::Brazilian => Variant::Brazilian,
            VariantChoice::Canadian => Variant::Canadian,
            VariantChoice::International => Variant::International,
            VariantChoice::Russian => Variant::Russian,
            VariantChoice::English => Variant::English,
        })
    }
}

/// `--draw-rules`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawChoice {
    Auto,
    Cbjd,
    Fmjd,
}

impl InputArgs {
    /// The replay options.
    pub fn options(&self) -> Result<Options, String> {
        let draw_rules = match self.draw_rules {
            DrawChoice::Auto => None,
            DrawChoice::Cbjd => Some(DrawRules::Cbjd),
            DrawChoice::Fmjd => Some(DrawRules::Fmjd),
        };
        Ok(Options {
            variant: self.variant.variant(),
            draw_rules,
            keep_moves: false,
            syntax_only: false,
            max_game_bytes: Some(self.max_game_bytes),
        })
    }

    /// A thread pool of the requested size, at most [`MAX_JOBS_PER_CORE`]
    /// workers per core (said once on stderr when the request is cut).
    pub fn pool(&self) -> Result<rayon::ThreadPool, String> {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(j) = self.jobs {
            if j == 0 {
                return Err("--jobs must be at least 1".into());
            }
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let cap = cores.saturating_mul(MAX_JOBS_PER_CORE);
            let j = if j > cap {
                eprintln!(
                    "pdnkit: --jobs {j} is more than {MAX_JOBS_PER_CORE} per core ({cores} cores); using {cap} workers"
                );
                cap
            } else {
                j
            };
            b = b.num_threads(j);
        }
        b.build().map_err(|e| e.to_string())
    }
}

/// Workers allowed per core: more only add threads that wait.
pub const MAX_JOBS_PER_CORE: usize = 4;

/// Everything a reading command needs, resolved from its arguments.
pub struct Prepared {
    pub opts: Options,
    pub pool: rayon::ThreadPool,
    pub inputs: Vec<crate::input::Input>,
    /// Problems met while walking directories (already reported on stderr).
    pub problems: Vec<String>,
}

impl InputArgs {
    /// Resolves options, the thread pool and the inputs; on failure prints the
    /// reason and returns exit status 2. Problems with PATHs are printed and
    /// kept (the run goes on with the other inputs, and ends with status 2).
    pub fn prepare(&self, keep_moves: bool) -> Result<Prepared, u8> {
        let fail = |m: String| {
            eprintln!("pdnkit: {m}");
            crate::EXIT_FAILED
        };
        let mut opts = self.options().map_err(fail)?;
        opts.keep_moves = keep_moves;
        let pool = self.pool().map_err(fail)?;
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
        let (inputs, problems) = crate::input::expand(&paths, self.all_files);
        for p in &problems {
            eprintln!("pdnkit: {p}");
        }
        if inputs.is_empty() {
            return Err(fail(format!(
                "no PDN file found under {} (files ending in .pdn, .pgn or .txt are read in directories; --all-files reads every file)",
                paths
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        Ok(Prepared {
            opts,
            pool,
            inputs,
            problems,
        })
    }
}
