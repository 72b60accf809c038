//! Diagnostics as data: a stable code, a severity, a span and a message.
//!
//! Nothing here prints; the binary renders diagnostics for a terminal or as JSON.

use std::borrow::Cow;
use std::fmt;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Severity {
    /// Worth knowing; never makes a game invalid.
    Note,
    /// Tolerated, but not as PDN or the rules say.
    Warning,
    /// The record is wrong: the game is invalid.
    Error,
}

impl Severity {
    /// `error`, `warning`, `note`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! codes {
    ($($variant:ident => $name:literal, $sev:ident;)*) => {
        /// The stable diagnostic codes: the README's table of codes (tied to
        /// this list by a test) says what each means.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code { $(#[doc = concat!("`", $name, "`: see the README's table of codes.")] $variant,)* }
        impl Code {
            /// Every code, in the order of the README's table.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];
            /// The code as written in output (`non-maximal-capture`).
            pub const fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }
            /// The usual severity of the code.
            pub const fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$sev,)* }
            }
        }
    };
}

codes! {
    Syntax => "syntax", Error;
    UnterminatedComment => "unterminated-comment", Error;
    UnterminatedVariation => "unterminated-variation", Error;
    GameTooLarge => "game-too-large", Error;
    BadTag => "bad-tag", Warning;
    Nonstandard => "nonstandard", Warning;
    BadFen => "bad-fen", Error;
    UnknownVariant => "unknown-variant", Error;
    UnsupportedVariant => "unsupported-variant", Warning;
    VariantInferred => "variant-inferred", Warning;
    NoSuchSquare => "no-such-square", Error;
    EmptySource => "empty-source", Error;
    IllegalMove => "illegal-move", Error;
    MissedCapture => "missed-capture", Error;
    NonMaximalCapture => "non-maximal-capture", Error;
    AmbiguousCapture => "ambiguous-capture", Error;
    Notation => "notation", Warning;
    Dialect => "dialect", Warning;
    MovesAfterEnd => "moves-after-end", Warning;
    ResultMismatch => "result-mismatch", Error;
    ResultConflict => "result-conflict", Warning;
    MissingResult => "missing-result", Warning;
    Encoding => "encoding", Note;
    MissingGame => "missing-game", Error;
    DoubleBooked => "double-booked", Error;
    RepeatedPairing => "repeated-pairing", Error;
    ConflictingCopies => "conflicting-copies", Error;
    NameVariant => "name-variant", Warning;
    NameSimilar => "name-similar", Warning;
    ColourImbalance => "colour-imbalance", Warning;
    DateOutsideEvent => "date-outside-event", Warning;
    RoundUnknown => "round-unknown", Warning;
    Forfeit => "forfeit", Warning;
    DuplicateGame => "duplicate-game", Note;
    UnknownPlayer => "unknown-player", Note;
    SplitEvent => "split-event", Note;
    BallotMismatch => "ballot-mismatch", Warning;
    ColoursNotSwapped => "colours-not-swapped", Warning;
    MicroMatchIncomplete => "micro-match-incomplete", Warning;
}

impl Code {
    /// Whether the code is one of `pdnkit tournament`'s (about an event, not a game).
    pub const fn is_tournament(self) -> bool {
        matches!(
            self,
            Code::MissingGame
                | Code::DoubleBooked
                | Code::RepeatedPairing
                | Code::NameVariant
                | Code::NameSimilar
                | Code::ColourImbalance
                | Code::DateOutsideEvent
                | Code::RoundUnknown
                | Code::Forfeit
                | Code::ConflictingCopies
                | Code::DuplicateGame
                | Code::UnknownPlayer
                | Code::SplitEvent
                | Code::BallotMismatch
                | Code::ColoursNotSwapped
                | Code::MicroMatchIncomplete
        )
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// What to do with the findings of one code (rustc's `-A`, `-W`, `-D`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Not reported.
    Allow,
    /// Reported as a warning.
    Warn,
    /// Reported as an error (the game is not valid).
    Deny,
}

/// Levels chosen for codes and for groups of codes (all errors, warnings or
/// notes); codes not named keep their own severity. A level named for a code
/// beats one named for its group; of two levels for the same code (or the
/// same group), the later wins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    by_code: Vec<(Code, Level)>,
    /// Per severity group (`Severity as usize`): the level of its codes.
    by_group: [Option<Level>; 3],
    /// `-D warnings`: every warning left is reported as an error (the same as
    /// [`Levels::set_group`] of warnings to [`Level::Deny`]).
    pub deny_warnings: bool,
}

impl Levels {
    /// Sets the level of `code` (a later call for the same code wins).
    pub fn set(&mut self, code: Code, level: Level) {
        match self.by_code.iter_mut().find(|(c, _)| *c == code) {
            Some((_, l)) => *l = level,
            None => self.by_code.push((code, level)),
        }
    }
    /// Sets the level of every code of usual severity `group` that has no
    /// level of its own (a later call for the same group wins).
    pub fn set_group(&mut self, group: Severity, level: Level) {
        self.by_group[group as usize] = Some(level);
    }
    /// Whether nothing is changed.
    pub fn is_default(&self) -> bool {
        self.by_code.is_empty() && self.by_group.iter().all(Option::is_none) && !self.deny_warnings
    }
    /// The severity a finding of `code` and `severity` is reported with, or `None` if not reported.
    pub fn severity(&self, code: Code, severity: Severity) -> Option<Severity> {
        let group = self.by_group[severity as usize]
            .or((self.deny_warnings && severity == Severity::Warning).then_some(Level::Deny));
        let level = self
            .by_code
            .iter()
            .find(|(c, _)| *c == code)
            .map(|(_, l)| *l)
            .or(group);
        match level {
            Some(Level::Allow) => None,
            Some(Level::Warn) => Some(Severity::Warning),
            Some(Level::Deny) => Some(Severity::Error),
            None => Some(severity),
        }
    }
    /// Applies the levels to a game's findings.
    pub fn apply(&self, diags: &mut Vec<Diagnostic>) {
        if self.is_default() {
            return;
        }
        diags.retain_mut(|d| match self.severity(d.code, d.severity) {
            Some(s) => {
                d.severity = s;
                true
            }
            None => false,
        });
    }
    /// Applies the levels to findings about a file.
    pub fn apply_file(&self, diags: &mut Vec<FileDiagnostic>) {
        diags.retain_mut(|d| match self.severity(d.code, d.severity) {
            Some(s) => {
                d.severity = s;
                true
            }
            None => false,
        });
    }
}

/// A name that is none of the names of its kind: a finding's code
/// ([`Code`]'s `FromStr`), a variant, a set of draw rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{name}'{known}")]
pub struct UnknownName {
    /// What was named: `code`, `variant`, `draw rules`.
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The names known, as the message lists them.
    known: String,
}

impl UnknownName {
    /// `name`, which is no `what`; `known` lists the names that are.
    pub(crate) fn new(what: &'static str, name: &str, known: String) -> UnknownName {
        UnknownName {
            what,
            name: name.to_string(),
            known,
        }
    }
}

impl std::str::FromStr for Code {
    type Err = UnknownName;
    /// A code by its name (`non-maximal-capture`).
    fn from_str(s: &str) -> Result<Code, UnknownName> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| {
                let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
                UnknownName::new("code", s, format!("; the codes are: {}", codes.join(", ")))
            })
    }
}

/// A finding about a whole file (the variant its games were read as, games
/// of a variant pdnkit does not check), placed at a line and column of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileDiagnostic {
    /// The finding's stable code.
    pub code: Code,
    /// How serious it is.
    pub severity: Severity,
    /// What is wrong, in words.
    pub message: String,
    /// 1-based line and column of what it is about (a tag, a game's start).
    pub line: u32,
    /// 1-based column (in characters).
    pub column: u32,
}

/// A byte range in a game's text.
pub(crate) type Span = std::ops::Range<usize>;

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The finding's stable code.
    pub code: Code,
    /// How serious it is.
    pub severity: Severity,
    /// Bytes of the game text the finding is about.
    pub span: Span,
    /// Fixed texts are not copied; composed ones are owned.
    pub message: Cow<'static, str>,
    /// 1-based ply in the main line, for move findings.
    pub ply: Option<u32>,
    /// The move as written, for move findings.
    pub written: Option<String>,
    /// The move's number as the record counts it, and whether it is the
    /// second move of that number (`4...`), for move findings.
    pub number: Option<(u32, bool)>,
    /// Extra lines: a maximal capture, the FEN before the move, ...
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A finding with the code's usual severity.
    pub fn new(code: Code, span: Span, message: impl Into<Cow<'static, str>>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.severity(),
            span,
            message: message.into(),
            ply: None,
            written: None,
            number: None,
            notes: Vec::new(),
        }
    }
    /// Changes the severity.
    pub fn with_severity(mut self, severity: Severity) -> Diagnostic {
        self.severity = severity;
        self
    }
    /// Adds a note line.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
    /// Marks the move it concerns.
    pub fn at_move(mut self, ply: u32, written: impl Into<String>) -> Diagnostic {
        self.ply = Some(ply);
        self.written = Some(written.into());
        self
    }
}
