//! Options shared by the commands that read games, resolved into a config.

use pdnkit::draw::DrawRules;
use pdnkit::replay::Options;
use pdnkit::rules::Variant;
use std::path::PathBuf;

#[derive(clap::Args, Clone, Debug)]
pub struct InputArgs {
    /// Files, directories (walked recursively) or `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// auto (GameType tag, else inferred), brazilian, canadian or international.
    #[arg(long, default_value = "auto")]
    pub variant: String,
    /// auto (cbjd for brazilian, fmjd otherwise), cbjd or fmjd.
    #[arg(long, default_value = "auto")]
    pub draw_rules: String,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Never draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// In directories, read every file, not only .pdn, .pgn and .txt.
    #[arg(long)]
    pub all_files: bool,
}

impl InputArgs {
    /// The replay options, or a message for a bad value.
    pub fn options(&self) -> Result<Options, String> {
        let variant = match self.variant.as_str() {
            "auto" => None,
            v => Some(v.parse::<Variant>()?),
        };
        let draw_rules = match self.draw_rules.as_str() {
            "auto" => None,
            d => Some(d.parse::<DrawRules>()?),
        };
        Ok(Options {
            variant,
            draw_rules,
            keep_moves: false,
            syntax_only: false,
        })
    }

    /// A thread pool of the requested size.
    pub fn pool(&self) -> Result<rayon::ThreadPool, String> {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(j) = self.jobs {
            if j == 0 {
                return Err("--jobs must be at least 1".into());
            }
            b = b.num_threads(j);
        }
        b.build().map_err(|e| e.to_string())
    }
}

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
    /// reason and returns exit status 2. Walking problems are printed and kept.
    pub fn prepare(&self, keep_moves: bool) -> Result<Prepared, u8> {
        let fail = |m: String| {
            eprintln!("pdnkit: {m}");
            crate::EXIT_FAILED
        };
        let mut opts = self.options().map_err(fail)?;
        opts.keep_moves = keep_moves;
        let pool = self.pool().map_err(fail)?;
        let (inputs, problems) = crate::input::expand(&self.paths, self.all_files).map_err(fail)?;
        for p in &problems {
            eprintln!("pdnkit: {p}");
        }
        Ok(Prepared {
            opts,
            pool,
            inputs,
            problems,
        })
    }
}
