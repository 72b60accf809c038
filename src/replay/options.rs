//! What a replay is asked to do: [`Options`] and [`Irregularities`].

use crate::draw::DrawRules;
use crate::openings::Table;
use crate::variant::Variant;
use std::sync::Arc;

/// How to replay. Built with [`Options::default`] (every game under its own
/// or its file's variant, default draw rules) and the builder methods:
///
/// ```
/// use pdnkit::{Options, Variant};
/// let opts = Options::default().variant(Some(Variant::Russian)).keep_moves(true);
/// assert!(opts.keep_moves);
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Options {
    /// The variant of games that carry no GameType tag (`--variant`); `None`:
    /// decided per file from its evidence ([`crate::check::FileCheck`]). A
    /// game's own GameType always decides its variant.
    pub variant: Option<Variant>,
    /// Variants named per file or folder (`--variant 'GLOB=NAME'`, repeatable;
    /// the last matching GLOB wins; a rule without GLOB is a bare NAME, and
    /// overrides [`Options::variant`]). A variant is applied only to a file
    /// whose board fits it.
    pub variants: Vec<crate::infer::NamedVariant>,
    /// A variant for every game, whatever its GameType says (`--force-variant`;
    /// a differing GameType gets a warning).
    pub force_variant: Option<Variant>,
    /// Draw rules; by default cbjd for brazilian, fmjd otherwise.
    pub draw_rules: Option<DrawRules>,
    /// Keep every played move and the position before it in the report.
    pub keep_moves: bool,
    /// Only read: report the reader's findings, replay nothing.
    pub syntax_only: bool,
    /// The reader's limit on a game's size in bytes (`None`: [`Options::DEFAULT_MAX_GAME_BYTES`]).
    pub max_game_bytes: Option<usize>,
    /// Levels of the codes (`-A`, `-W`, `-D`): they decide what is reported,
    /// with which severity, and so which games are valid.
    pub levels: crate::diag::Levels,
    /// Whether an irregularity that could stand stops the replay
    /// (`--irregularities`; docs/rules.md, "Irregularities that stood").
    pub irregularities: Irregularities,
    /// Read every record as standard PDN (`--strict-dialects`): no
    /// producer's dialect is read as meant (PDN-REAL-WORLD.md section 8;
    /// docs/dialect.md), and no `dialect` finding is made.
    pub strict_dialects: bool,
    /// The opening tables a game is classified against, in this order,
    /// instead of its variant's list ([`Options::opening_tables`]).
    pub(crate) opening_tables: Option<crate::openings::Chosen>,
}

/// What an irregular move does to the replay of a game (`--irregularities`,
/// docs/rules.md "Irregularities that stood", FMJD Annex 1 art. 5.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Irregularities {
    /// The first move error stops the replay (archives of a server that
    /// enforced the rules).
    #[default]
    Stop,
    /// A missed capture, a capture taking too few pieces, one stopped early
    /// or one the precedence forbids stands when the written move fits
    /// exactly one relaxed move: it is reported, played, and the replay goes
    /// on (over-the-board records).
    Stand,
}

impl Irregularities {
    /// `stop` or `stand`, as the command line writes it.
    pub fn name(self) -> &'static str {
        match self {
            Irregularities::Stop => "stop",
            Irregularities::Stand => "stand",
        }
    }
}

impl std::str::FromStr for Irregularities {
    type Err = crate::diag::UnknownName;
    /// `stop` or `stand` (case and spaces aside).
    fn from_str(s: &str) -> Result<Self, crate::diag::UnknownName> {
        match s.trim().to_ascii_lowercase().as_str() {
            "stop" => Ok(Irregularities::Stop),
            "stand" => Ok(Irregularities::Stand),
            _ => Err(crate::diag::UnknownName::new(
                "irregularities mode",
                s,
                " (stop or stand)".to_string(),
            )),
        }
    }
}

impl Options {
    /// The reader's limit on a game's size in bytes when none is given
    /// (16 MiB; docs/limits.md).
    pub const DEFAULT_MAX_GAME_BYTES: usize = crate::pdn::DEFAULT_MAX_GAME_BYTES;
    /// The variant of games without a GameType tag (`--variant`).
    pub fn variant(mut self, v: Option<Variant>) -> Options {
        self.variant = v;
        self
    }
    /// Variants named per file or folder (`--variant 'GLOB=NAME'`).
    pub fn variants(mut self, v: Vec<crate::infer::NamedVariant>) -> Options {
        self.variants = v;
        self
    }
    /// A variant for every game, whatever its GameType says (`--force-variant`).
    pub fn force_variant(mut self, v: Option<Variant>) -> Options {
        self.force_variant = v;
        self
    }
    /// The draw rules (`None`: the variant's default).
    pub fn draw_rules(mut self, r: Option<DrawRules>) -> Options {
        self.draw_rules = r;
        self
    }
    /// Keep every played move and the position before it in the report.
    pub fn keep_moves(mut self, keep: bool) -> Options {
        self.keep_moves = keep;
        self
    }
    /// Only read: report the reader's findings, replay nothing.
    pub fn syntax_only(mut self, only: bool) -> Options {
        self.syntax_only = only;
        self
    }
    /// The reader's limit on a game's size in bytes.
    pub fn max_game_bytes(mut self, n: Option<usize>) -> Options {
        self.max_game_bytes = n;
        self
    }
    /// The levels of the codes (`-A`, `-W`, `-D`).
    pub fn levels(mut self, levels: crate::diag::Levels) -> Options {
        self.levels = levels;
        self
    }
    /// Read every record as standard PDN ([`Options::strict_dialects`]).
    pub fn strict_dialects(mut self, strict: bool) -> Options {
        self.strict_dialects = strict;
        self
    }
    /// Whether irregularities that could stand stop the replay (`--irregularities`).
    pub fn irregularities(mut self, mode: Irregularities) -> Options {
        self.irregularities = mode;
        self
    }
    /// The opening tables, in order, instead of each variant's list
    /// (`--opening-table`, docs/openings.md): tables the caller built
    /// ([`crate::openings::Table::shipped`], [`crate::openings::Table::load`],
    /// [`crate::openings::TableSpec::open`]). `None`: each variant's list;
    /// empty: no opening is looked for (`--opening-table none`: every
    /// [`GameReport::opening`](crate::replay::GameReport::opening) is `None`). Nothing is read here.
    pub fn opening_tables(mut self, tables: Option<Vec<Arc<Table>>>) -> Options {
        self.opening_tables = tables.map(crate::openings::Chosen::new);
        self
    }
    /// The opening tables of [`Options::opening_tables`], in order.
    pub fn chosen_tables(&self) -> Option<&[Arc<Table>]> {
        self.opening_tables.as_ref().map(|c| c.tables())
    }
}
