//! Choosing games: by player, event, tag, date, result, variant, verdict,
//! finding, length, position, opening and material (`pdnkit select`, and the
//! same options of `check`, `convert`, `stats`, `dupes` and `report`).
//!
//! A [`Selection`] is a list of criteria. Different criteria combine with
//! AND, the values of one criterion with OR (`--player A --player B
//! --result 2-0`: games of A or B that White won). Each game is judged from
//! its record ([`Game`]) and its check ([`GameReport`]); only `--position`,
//! `--material` and `--opening TABLE:CODE` need the moves kept
//! ([`Selection::needs_moves`]).
//!
//! ```
//! use pdnkit::select::{Criterion, Selection};
//! use pdnkit::{check_game, pdn::read_all, Options};
//! let games = read_all(
//!     b"[White \"Sijbrands, Ton\"]\n[Black \"Baba\"]\n[Date \"1998.05.17\"]\n[GameType \"20\"]\n1. 32-28 *\n",
//! );
//! let g = &games[0];
//! let r = check_game(g, &Options::default());
//! let mut s = Selection::default();
//! s.add(Criterion::parse_player("sijbrands").unwrap());
//! s.add(Criterion::parse_date("1998..1999").unwrap());
//! assert!(s.matches(g, &r));
//! s.add(Criterion::parse_result("2-0").unwrap());
//! assert!(!s.matches(g, &r));
//! ```

use crate::diag::Code;
use crate::pdn::{Game, Outcome};
use crate::players::{BLACK_TAGS, WHITE_TAGS};
use crate::position::{Position, Setup};
use crate::replay::GameReport;

/// Which side of a game a player criterion looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Side {
    /// White or Black.
    Either,
    /// The White tag.
    White,
    /// The Black tag.
    Black,
}

/// A test of one tag's value.
#[derive(Clone, Debug)]
enum TagTest {
    /// The value equals this text (spaces around ignored).
    Equals(String),
    /// The value matches this regular expression (anywhere in it).
    Matches(regex::Regex),
}

/// A date or a span of dates, as `yyyymmdd` numbers (both ends included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DateRange {
    /// The first day (`19980501`); 0 for an open start.
    from: u32,
    /// The last day (`19980531`); `u32::MAX` for an open end.
    to: u32,
}

/// One criterion, read from its text (`Criterion::parse_*`) or made from a
/// value; see the module documentation for how they combine.
#[derive(Clone, Debug)]
pub struct Criterion(Test);

/// What a criterion tests.
#[derive(Clone, Debug)]
enum Test {
    /// A player's name contains this text, compared folded (case, accents and spacing ignored).
    Player(Side, String),
    /// The Event tag contains this text, compared folded.
    Event(String),
    /// A tag's value passes the test.
    Tag(String, TagTest),
    /// The Date tag lies within the range (a partial date is the range it
    /// stands for, and must lie within it whole).
    Date(DateRange),
    /// The declared result, by meaning (`white`, `2-0`, `draw`, `1-1`, ...).
    Result(Outcome),
    /// A result token of the `1-0` family (`1-0`, `0-1`, `1/2-1/2`), read in
    /// each game's own order: `1-0` is a White win in draughts and a Black
    /// win in an English checkers record; where the order is not known, the
    /// written text alone is matched.
    ResultToken(&'static str),
    /// The game's variant, by name (`international`, `italian`, `frisian`).
    Variant(String),
    /// Valid (`true`) or invalid (`false`); a game that was not checked is neither.
    Valid(bool),
    /// The game has a finding of this code.
    Code(Code),
    /// The main line's plies read, within `min..=max`.
    Plies(u32, u32),
    /// The main line reaches the position of a FEN, with its side to move
    /// (compared as a position; squares read in the game's variant): the
    /// FEN as a position of each variant whose board holds it, read once.
    Position(Vec<Position>),
    /// The game's opening (docs/openings.md).
    Opening(OpeningSpec),
    /// The main line reaches a position with this material (`--material`).
    Material(Material),
}

/// How many pieces of one kind a side has: exactly `n`, or at least `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Count {
    n: u32,
    at_least: bool,
}

impl Count {
    const NONE: Count = Count {
        n: 0,
        at_least: false,
    };
    fn holds(self, have: u32) -> bool {
        if self.at_least {
            have >= self.n
        } else {
            have == self.n
        }
    }
}

/// One side's pieces in a `--material` SPEC: kings and men.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pieces {
    kings: Count,
    men: Count,
}

/// `--material SPEC`: White's pieces and Black's, and whether the colours
/// may be the other way round (`--material-either`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Material {
    white: Pieces,
    black: Pieces,
    either: bool,
}

/// The largest count a SPEC may give (a 12x12 board holds 72 pieces).
const MAX_COUNT: u32 = 99;

impl Pieces {
    /// One side of a SPEC: `0`, or counts of kings (`K`) and men (`M`), each
    /// at most once and in either order, a trailing `+` meaning at least
    /// (`3K`, `1K2M`, `2M+`, `0K+1M`). A kind not named has none.
    fn parse(text: &str) -> Result<Pieces, String> {
        let text = text.trim();
        let mut out = Pieces {
            kings: Count::NONE,
            men: Count::NONE,
        };
        if text == "0" {
            return Ok(out);
        }
        if text.is_empty() {
            return Err("a side with no count (write 0 for no pieces)".into());
        }
        let (mut kings, mut men) = (false, false);
        let mut rest = text.as_bytes();
        while !rest.is_empty() {
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits == 0 {
                return Err(format!(
                    "`{}`: a count comes first, then K or M",
                    String::from_utf8_lossy(rest)
                ));
            }
            let n = if digits > 2 {
                MAX_COUNT + 1
            } else {
                crate::board::decimal(&rest[..digits])
            };
            if n > MAX_COUNT {
                return Err(format!("a count above {MAX_COUNT}"));
            }
            let (seen, slot) = match rest.get(digits).map(u8::to_ascii_uppercase) {
                Some(b'K') => (&mut kings, &mut out.kings),
                Some(b'M') => (&mut men, &mut out.men),
                _ => {
                    return Err(format!(
                        "`{text}`: each count is followed by K (kings) or M (men)"
                    ))
                }
            };
            if std::mem::replace(seen, true) {
                return Err(format!("`{text}`: kings or men counted twice"));
            }
            let at_least = rest.get(digits + 1) == Some(&b'+');
            *slot = Count { n, at_least };
            rest = &rest[digits + 1 + usize::from(at_least)..];
        }
        Ok(out)
    }

    fn holds(self, kings: u32, men: u32) -> bool {
        self.kings.holds(kings) && self.men.holds(men)
    }
}

impl Material {
    /// `WHITE:BLACK` ([`Pieces::parse`] each side).
    fn parse(spec: &str, either: bool) -> Result<Material, CriterionError> {
        let bad = |why: String| {
            CriterionError(format!(
                "'{spec}': {why}; a SPEC is White's pieces and Black's, as 3K:1K, 1K2M:2M+ or 2K:0"
            ))
        };
        let (white, black) = spec
            .split_once(':')
            .ok_or_else(|| bad("no `:` between the sides".into()))?;
        Ok(Material {
            white: Pieces::parse(white).map_err(bad)?,
            black: Pieces::parse(black).map_err(bad)?,
            either,
        })
    }

    /// Whether the position has this material (either way round, with `either`).
    fn holds(&self, pos: &Position) -> bool {
        use crate::piece::Color;
        let kings = pos.kings();
        let of = |c: Color| {
            let own = pos.pieces(c);
            ((own & kings).count(), (own & !kings).count())
        };
        let ((wk, wm), (bk, bm)) = (of(Color::White), of(Color::Black));
        (self.white.holds(wk, wm) && self.black.holds(bk, bm))
            || (self.either && self.white.holds(bk, bm) && self.black.holds(wk, wm))
    }
}

/// What `--opening SPEC` asks of a game's opening.
#[derive(Clone, Debug)]
enum OpeningSpec {
    /// No opening.
    None,
    /// Its match in this table (even when it is not the game's opening)
    /// has this code, or another spelling of it, in `code` or `also`.
    InTable(std::sync::Arc<crate::openings::Table>, String),
    /// The opening's code or `also` is called this.
    Code(String),
    /// The opening's name contains this, folded as a player's name.
    Name(String),
}

/// Why a criterion's text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CriterionError(pub String);

impl Criterion {
    /// A player's name, on either side: the White tag (or Bianco, Blanc) or
    /// the Black tag (or Nero, Noir) contains it, compared folded (case,
    /// accents and spacing ignored).
    pub fn parse_player(text: &str) -> Result<Criterion, CriterionError> {
        Test::parse_player(text).map(Criterion)
    }

    /// A player's name with White (the White, Bianco or Blanc tag).
    pub fn parse_white(text: &str) -> Result<Criterion, CriterionError> {
        Test::parse_side(Side::White, text).map(Criterion)
    }

    /// A player's name with Black (the Black, Nero or Noir tag).
    pub fn parse_black(text: &str) -> Result<Criterion, CriterionError> {
        Test::parse_side(Side::Black, text).map(Criterion)
    }

    /// Text of the Event tag.
    pub fn parse_event(text: &str) -> Result<Criterion, CriterionError> {
        Test::parse_event(text).map(Criterion)
    }

    /// `NAME=VALUE` (the value equals) or `NAME~REGEX` (the value matches).
    pub fn parse_tag(text: &str) -> Result<Criterion, CriterionError> {
        Test::parse_tag(text).map(Criterion)
    }

    /// `FROM..TO` (either end may be left out) or one date; dates as PDN
    /// writes them (`1998.05.17`, `1998.05.??`, `1998`; `-` or `/` between
    /// the parts too).
    pub fn parse_date(text: &str) -> Result<Criterion, CriterionError> {
        Test::parse_date(text).map(Criterion)
    }

    /// A result (CLI.md, `select --result`): the words `white`, `black`,
    /// `draw`, `unfinished` and the tokens `2-0`, `0-2`, `1-1`, `0-0`, `*`
    /// by meaning in every variant; `1-0`, `0-1`, `1/2-1/2` in each game's
    /// own order (`1-0` is a White win in draughts and a Black win in an
    /// English checkers record; where the order is not known, the written
    /// text alone is matched).
    pub fn parse_result(text: &str) -> Result<Criterion, CriterionError> {
        Test::parse_result(text).map(Criterion)
    }

    /// `MIN..MAX` (either end may be left out) or one number.
    pub fn parse_plies(text: &str) -> Result<Criterion, CriterionError> {
        Test::parse_plies(text).map(Criterion)
    }

    /// Games whose main line reaches a position with this material, before
    /// or after any move: `SPEC` is White's pieces `:` Black's, each side
    /// counts of kings (`K`) and men (`M`) or `0`, a trailing `+` meaning at
    /// least (`3K:1K`, `1K2M:2M+`, `2K:0`); with `either`, also with the
    /// colours swapped.
    pub fn parse_material(spec: &str, either: bool) -> Result<Criterion, CriterionError> {
        Material::parse(spec, either).map(|m| Criterion(Test::Material(m)))
    }
    /// A position as a FEN (its squares are read in each game's variant).
    pub fn parse_position(fen: &str) -> Result<Criterion, CriterionError> {
        Test::parse_position(fen).map(Criterion)
    }

    /// An opening (docs/openings.md): `TABLE:CODE` (the game's match in
    /// that table), a code of a shipped table (the game's opening, its
    /// `also`, and other spellings of those codes), `none`, or else a part
    /// of an opening's name.
    pub fn parse_opening(spec: &str) -> Result<Criterion, CriterionError> {
        Criterion::parse_opening_with(spec, &[])
    }

    /// [`Criterion::parse_opening`], where `tables` (a user's, loaded with
    /// [`crate::openings::Table::load`]) are known by their names and
    /// codes as the shipped ones are.
    pub fn parse_opening_with(
        spec: &str,
        tables: &[std::sync::Arc<crate::openings::Table>],
    ) -> Result<Criterion, CriterionError> {
        let t = spec.trim();
        if t.is_empty() {
            return Err(CriterionError(
                "--opening needs a code, a name or none".into(),
            ));
        }
        let chosen = crate::openings::Chosen::new(tables.to_vec());
        let table = |name: &str| crate::openings::table_named(name.trim(), Some(&chosen));
        let o = match t.split_once(':') {
            _ if t.eq_ignore_ascii_case("none") => OpeningSpec::None,
            Some((name, code)) if table(name).is_some() => match table(name) {
                Some(tb) => OpeningSpec::InTable(tb, code.trim().to_string()),
                None => OpeningSpec::None,
            },
            _ if !crate::openings::tables_with_code(t, Some(&chosen)).is_empty() => {
                let tables = crate::openings::tables_with_code(t, Some(&chosen));
                if tables.len() > 1 {
                    // One code, several tables: `stats --by opening` keeps
                    // them apart, so a selection names which.
                    let forms: Vec<String> = tables.iter().map(|n| format!("{n}:{t}")).collect();
                    return Err(CriterionError(format!(
                        "'{t}' is a code of {} tables: write one of {}",
                        tables.len(),
                        forms.join(", ")
                    )));
                }
                OpeningSpec::Code(t.to_string())
            }
            _ => {
                let folded = fold_name(t);
                if folded.is_empty() {
                    return Err(CriterionError(format!(
                        "'{t}' is no code and holds no letter of a name"
                    )));
                }
                OpeningSpec::Name(folded)
            }
        };
        Ok(Criterion(Test::Opening(o)))
    }

    /// For an opening name (`--opening chefneux`) and a run with no
    /// `--opening-table` (`chosen` empty): the shipped names tables with a
    /// row of that name that name no game, because their variants have no
    /// ballot table (`names-international`), so that a selection that finds
    /// nothing says why (issue 62 item 10). Empty for anything else.
    pub fn names_no_game(&self, chosen: &[std::sync::Arc<crate::openings::Table>]) -> Vec<String> {
        let Test::Opening(OpeningSpec::Name(needle)) = &self.0 else {
            return Vec::new();
        };
        if !chosen.is_empty() {
            return Vec::new();
        }
        crate::openings::idle_names_tables()
            .into_iter()
            .filter(|t| {
                t.row_names()
                    .any(|n| fold_name(n).contains(needle.as_str()))
            })
            .map(|t| t.name().to_string())
            .collect()
    }

    /// The game's variant, by name (`international`, `italian`, `frisian`).
    pub fn variant_is(name: &str) -> Criterion {
        Criterion(Test::Variant(name.trim().to_string()))
    }

    /// Valid games (`true`) or invalid ones (`false`); a game that was not
    /// checked is neither.
    pub fn valid(yes: bool) -> Criterion {
        Criterion(Test::Valid(yes))
    }

    /// Games with a finding of `code`.
    pub fn code(code: Code) -> Criterion {
        Criterion(Test::Code(code))
    }

    /// Whether the game passes this criterion.
    pub fn matches(&self, g: &Game, r: &GameReport) -> bool {
        self.0.matches(g, r)
    }
}

impl Test {
    fn parse_player(text: &str) -> Result<Test, CriterionError> {
        Test::parse_side(Side::Either, text)
    }
    fn parse_side(side: Side, text: &str) -> Result<Test, CriterionError> {
        let folded = fold_name(text);
        if folded.is_empty() {
            return Err(CriterionError(format!(
                "'{text}' holds no letter or digit of a name"
            )));
        }
        Ok(Test::Player(side, folded))
    }
    fn parse_event(text: &str) -> Result<Test, CriterionError> {
        let folded = fold_name(text);
        if folded.is_empty() {
            return Err(CriterionError(format!("'{text}' holds no letter or digit")));
        }
        Ok(Test::Event(folded))
    }
    fn parse_tag(text: &str) -> Result<Test, CriterionError> {
        let at = text
            .find(['=', '~'])
            .ok_or_else(|| CriterionError(format!("'{text}': write NAME=VALUE or NAME~REGEX")))?;
        let (name, rest) = text.split_at(at);
        let name = name.trim();
        if name.is_empty() {
            return Err(CriterionError(format!("'{text}': the tag name is missing")));
        }
        let value = &rest[1..];
        let test = if rest.starts_with('~') {
            TagTest::Matches(regex::Regex::new(value).map_err(|e| {
                // The regex crate's message spans lines (the pattern, a caret,
                // `error: ...`): said on one line, with the column.
                let text = e.to_string();
                let why = text
                    .lines()
                    .rev()
                    .find_map(|l| l.trim().strip_prefix("error: "))
                    .unwrap_or(text.lines().last().unwrap_or(""));
                let column = text
                    .lines()
                    .find(|l| l.trim() == "^" || l.trim_start().starts_with('^'))
                    .and_then(|l| (l.len() - l.trim_start().len()).checked_sub(4));
                CriterionError(match column {
                    Some(c) => format!(
                        "'{value}' is not a regular expression: {why} (at character {})",
                        c + 1
                    ),
                    None => format!("'{value}' is not a regular expression: {why}"),
                })
            })?)
        } else {
            TagTest::Equals(value.trim().to_string())
        };
        Ok(Test::Tag(name.to_string(), test))
    }
    fn parse_date(text: &str) -> Result<Test, CriterionError> {
        let bad = |why: &str| CriterionError(format!("'{text}': {why}"));
        let (from, to) = match text.split_once("..") {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (text.trim(), text.trim()),
        };
        if from.is_empty() && to.is_empty() {
            return Err(bad("give a date or a range FROM..TO"));
        }
        let from = if from.is_empty() {
            0
        } else {
            date_span(from)
                .ok_or_else(|| bad("the first date cannot be read (YYYY, YYYY.MM or YYYY.MM.DD)"))?
                .0
        };
        let to = if to.is_empty() {
            u32::MAX
        } else {
            date_span(to)
                .ok_or_else(|| bad("the last date cannot be read (YYYY, YYYY.MM or YYYY.MM.DD)"))?
                .1
        };
        if from > to {
            return Err(bad("the range ends before it starts"));
        }
        Ok(Test::Date(DateRange { from, to }))
    }
    fn parse_result(text: &str) -> Result<Test, CriterionError> {
        let t = text.trim();
        match t.to_lowercase().as_str() {
            "white" => return Ok(Test::Result(Outcome::WhiteWins)),
            "black" => return Ok(Test::Result(Outcome::BlackWins)),
            "draw" => return Ok(Test::Result(Outcome::Draw)),
            "unfinished" => return Ok(Test::Result(Outcome::Unknown)),
            "1-0" => return Ok(Test::ResultToken("1-0")),
            "0-1" => return Ok(Test::ResultToken("0-1")),
            "1/2-1/2" => return Ok(Test::ResultToken("1/2-1/2")),
            _ => {}
        }
        Outcome::parse(t).map(Test::Result).ok_or_else(|| {
            CriterionError(format!(
                "'{text}' is not a result (white, black, draw, unfinished; 2-0, 0-2, 1-1, 0-0, *; or 1-0, 0-1, 1/2-1/2 in the game's own order)"
            ))
        })
    }
    fn parse_plies(text: &str) -> Result<Test, CriterionError> {
        let bad = || CriterionError(format!("'{text}': write MIN..MAX, MIN.., ..MAX or N"));
        let num = |s: &str, open: u32| -> Result<u32, CriterionError> {
            let s = s.trim();
            if s.is_empty() {
                Ok(open)
            } else {
                s.parse().map_err(|_| bad())
            }
        };
        let (min, max) = match text.split_once("..") {
            Some((a, b)) => (num(a, 0)?, num(b, u32::MAX)?),
            None => {
                let n = num(text, 0)?;
                (n, n)
            }
        };
        if min > max {
            return Err(bad());
        }
        Ok(Test::Plies(min, max))
    }
    fn parse_position(fen: &str) -> Result<Test, CriterionError> {
        // Read once on the largest board, for the errors of its text.
        Setup::parse(fen, crate::board::BoardSize::Twelve)
            .map_err(|e| CriterionError(format!("'{fen}': {e}")))?;
        Ok(Test::Position(
            crate::variant::Variant::ALL
                .iter()
                .filter_map(|&v| Position::from_fen(fen, v).ok())
                .collect(),
        ))
    }

    fn kind(&self) -> u8 {
        match self {
            Test::Player(Side::Either, _) => 0,
            Test::Player(Side::White, _) => 1,
            Test::Player(Side::Black, _) => 2,
            Test::Event(_) => 3,
            Test::Tag(..) => 4,
            Test::Date(_) => 5,
            Test::Result(_) | Test::ResultToken(_) => 6,
            Test::Variant(_) => 7,
            Test::Valid(_) => 8,
            Test::Code(_) => 9,
            Test::Plies(..) => 10,
            Test::Position(_) => 11,
            Test::Opening(_) => 12,
            Test::Material(_) => 13,
        }
    }

    fn matches(&self, g: &Game, r: &GameReport) -> bool {
        match self {
            Test::Player(side, needle) => {
                let on = |names: &[&str]| {
                    names.iter().any(|n| {
                        g.tag(n)
                            .is_some_and(|v| fold_name(&v).contains(needle.as_str()))
                    })
                };
                match side {
                    Side::Either => on(&WHITE_TAGS) || on(&BLACK_TAGS),
                    Side::White => on(&WHITE_TAGS),
                    Side::Black => on(&BLACK_TAGS),
                }
            }
            Test::Event(needle) => g
                .tag("Event")
                .is_some_and(|v| fold_name(&v).contains(needle.as_str())),
            Test::Tag(name, test) => g.tags().iter().any(|t| {
                g.tag_name(t).eq_ignore_ascii_case(name) && {
                    let v = g.tag_text(t);
                    match test {
                        TagTest::Equals(want) => v.trim() == want,
                        TagTest::Matches(re) => re.is_match(&v),
                    }
                }
            }),
            Test::Date(range) => g
                .tag("Date")
                .and_then(|d| date_span(&d))
                .is_some_and(|(a, b)| a >= range.from && b <= range.to),
            Test::Result(want) => r.declared == Some(*want),
            Test::ResultToken(token) if r.result_as_written => {
                g.result_text().is_some_and(|t| t.trim() == *token)
            }
            Test::ResultToken(token) => {
                r.declared.is_some() && r.declared == Outcome::parse_for(token, r.variant)
            }
            Test::Variant(name) => r.kind.is_some_and(|k| k.name().eq_ignore_ascii_case(name)),
            Test::Valid(want) => r.verdict() == Some(*want),
            Test::Code(code) => r.diagnostics.iter().any(|d| d.code == *code),
            Test::Plies(min, max) => (*min..=*max).contains(&r.plies),
            Test::Position(wanted) => reaches(r, wanted),
            Test::Opening(spec) => opening_is(r, spec),
            Test::Material(m) => (1..=r.plies + 1)
                .map_while(|n| r.position_before(n))
                .any(|p| m.holds(&p)),
        }
    }
}

/// Whether the game's opening passes `--opening`.
fn opening_is(r: &GameReport, spec: &OpeningSpec) -> bool {
    let o = r.opening.as_ref();
    match spec {
        OpeningSpec::None => o.is_none(),
        OpeningSpec::Code(code) => o.is_some_and(|o| o.is_called(code)),
        OpeningSpec::Name(needle) => o
            .and_then(|o| o.name())
            .is_some_and(|n| fold_name(n).contains(needle.as_str())),
        OpeningSpec::InTable(table, code) => {
            let (Some(v), Some(start)) = (r.variant, r.start) else {
                return false;
            };
            // The positions from the start, after each ply replayed.
            let keys: Vec<u64> = (1..=r.plies + 1)
                .map_while(|n| r.position_before(n))
                .take(table.plies())
                .map(|p| p.key())
                .collect();
            let set_up = !crate::openings::is_initial(&start);
            table
                .match_rows(v, &keys, set_up)
                .iter()
                .any(|&row| table.is_called(row, code))
        }
    }
}

/// Whether the main line read (start, then after each ply) reaches the
/// one of `wanted` that is of the game's variant.
fn reaches(r: &GameReport, wanted: &[Position]) -> bool {
    let (Some(v), Some(start)) = (r.variant, r.start) else {
        return false;
    };
    let Some(&want) = wanted.iter().find(|p| p.variant() == v) else {
        return false;
    };
    start == want
        || r.played
            .iter()
            .enumerate()
            .any(|(i, _)| r.position_before(i as u32 + 2) == Some(want))
}

/// A name folded for comparison: lower case, accents dropped (`é` is `e`,
/// `ß` is `ss`), and nothing but letters and digits kept (so `Sijbrands,
/// Ton` and `sijbrandston` compare equal, as do `Немец  Дима` and `немецдима`).
pub(crate) fn fold_name(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match fold_char(c) {
            Some(s) => out.push_str(s),
            None if c.is_alphanumeric() => out.push(c),
            None => {}
        }
    }
    out
}

/// The base letters of an accented Latin letter (lower case), or `ё` as `е`.
fn fold_char(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'ç' | 'ć' | 'č' | 'ĉ' | 'ċ' => "c",
        'ď' | 'đ' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
        'ğ' | 'ģ' => "g",
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' | 'ı' => "i",
        'ķ' => "k",
        'ł' | 'ľ' | 'ĺ' | 'ļ' => "l",
        'ñ' | 'ń' | 'ň' | 'ņ' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
        'ŕ' | 'ř' => "r",
        'ś' | 'š' | 'ş' | 'ș' => "s",
        'ť' | 'ţ' | 'ț' => "t",
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'ų' => "u",
        'ý' | 'ÿ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        'ß' => "ss",
        'æ' => "ae",
        'œ' => "oe",
        'þ' => "th",
        'ё' => "е",
        _ => return None,
    })
}

/// The days a PDN date stands for, as `yyyymmdd` numbers (`PdnDate::span`:
/// the one reading of a Date tag). `None` when the year is unknown.
pub(crate) fn date_span(text: &str) -> Option<(u32, u32)> {
    crate::pdn::PdnDate::parse(text).span()
}

/// Criteria: AND across kinds, OR within a kind, optionally inverted.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    criteria: Vec<Criterion>,
    /// The kinds of criteria present, sorted, each once (kept by `add`, not
    /// worked out again for every game).
    kinds: Vec<u8>,
    invert: bool,
}

impl Selection {
    /// Adds a criterion.
    pub fn add(&mut self, c: Criterion) -> &mut Selection {
        if let Err(at) = self.kinds.binary_search(&c.0.kind()) {
            self.kinds.insert(at, c.0.kind());
        }
        self.criteria.push(c);
        self
    }
    /// Selects the games the criteria reject instead.
    pub fn invert(&mut self, yes: bool) -> &mut Selection {
        self.invert = yes;
        self
    }
    /// Whether there is nothing to test (every game is selected).
    pub fn is_empty(&self) -> bool {
        self.criteria.is_empty() && !self.invert
    }
    /// Whether a criterion needs the positions of the main line (replay with
    /// [`Options::keep_moves`](crate::Options::keep_moves)).
    pub fn needs_moves(&self) -> bool {
        self.criteria.iter().any(|c| {
            matches!(
                c.0,
                Test::Position(_) | Test::Material(_) | Test::Opening(OpeningSpec::InTable(..))
            )
        })
    }
    /// Whether the game is selected.
    pub fn matches(&self, g: &Game, r: &GameReport) -> bool {
        let all = self.kinds.iter().all(|&k| {
            self.criteria
                .iter()
                .filter(|c| c.0.kind() == k)
                .any(|c| c.matches(g, r))
        });
        all != self.invert
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{check_game, Options};

    fn game(text: &str) -> (Game, GameReport) {
        let g = crate::pdn::read_all(text.as_bytes()).remove(0);
        let r = check_game(&g, &Options::default().keep_moves(true));
        (g, r)
    }

    const GAME: &str = "[Event \"40° Campionato Italiano\"]\n[White \"Sijbrands, Ton\"]\n[Black \"Gérard  Müller\"]\n[Date \"1998.05.??\"]\n[Result \"1-0\"]\n[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 1-0\n";

    fn sel(cs: &[Criterion]) -> Selection {
        let mut s = Selection::default();
        for c in cs {
            s.add(c.clone());
        }
        s
    }

    #[test]
    fn names_fold_case_spaces_and_accents() {
        assert_eq!(fold_name("Gérard  Müller"), "gerardmuller");
        assert_eq!(fold_name("Sijbrands, Ton"), "sijbrandston");
        assert_eq!(fold_name("Немец  Дима"), "немецдима");
        let (g, r) = game(GAME);
        for (q, side, want) in [
            ("sijbrands", Side::Either, true),
            ("SIJBRANDS TON", Side::White, true),
            ("sijbrands", Side::Black, false),
            ("gerard muller", Side::Black, true),
            ("Müller", Side::Either, true),
            ("baba", Side::Either, false),
        ] {
            let c = Criterion(Test::parse_side(side, q).unwrap());
            assert_eq!(c.matches(&g, &r), want, "{q}");
        }
        assert!(Criterion::parse_player(" ,. ").is_err());
        // The Italian tag names are players' too.
        let (g, r) = game("[Bianco \"BORGHETTI Michele\"]\n[Nero \"MASCOLO Luca\"]\n[GameType \"22\"]\n1. 21-17 *\n");
        assert!(Criterion::parse_white("borghetti").unwrap().matches(&g, &r));
        assert!(Criterion::parse_black("mascolo").unwrap().matches(&g, &r));
    }

    #[test]
    fn dates_are_ranges() {
        assert_eq!(date_span("1998.05.17"), Some((19980517, 19980517)));
        assert_eq!(date_span("1998.05.??"), Some((19980501, 19980531)));
        assert_eq!(date_span("1998.??.??"), Some((19980101, 19981231)));
        assert_eq!(date_span("1998"), Some((19980101, 19981231)));
        assert_eq!(date_span("????.??.??"), None);
        assert_eq!(date_span("1998.13.01"), Some((19980101, 19981231)));
        let (g, r) = game(GAME); // 1998.05.??
        for (q, want) in [
            ("1998", true),
            ("1998..", true),
            ("..1998.06", true),
            ("1998.05", true),
            ("1998.05.10..", false),
            ("1999..", false),
            ("1990..1997", false),
        ] {
            assert_eq!(
                Criterion::parse_date(q).unwrap().matches(&g, &r),
                want,
                "{q}"
            );
        }
        assert!(Criterion::parse_date("2000..1999").is_err());
        assert!(Criterion::parse_date("..").is_err());
        assert!(Criterion::parse_date("May").is_err());
    }

    #[test]
    fn tags_results_plies_and_verdicts() {
        let (g, r) = game(GAME);
        let yes = |c: Criterion| assert!(c.matches(&g, &r), "{c:?}");
        let no = |c: Criterion| assert!(!c.matches(&g, &r), "{c:?}");
        yes(Criterion::parse_tag("GameType=20").unwrap());
        yes(Criterion::parse_tag("gametype = 20").unwrap());
        no(Criterion::parse_tag("GameType=2").unwrap());
        yes(Criterion::parse_tag("Event~Campionato\\s+Italiano").unwrap());
        no(Criterion::parse_tag("Event~^Italiano").unwrap());
        assert!(Criterion::parse_tag("Event").is_err());
        assert!(Criterion::parse_tag("Event~(").is_err());
        yes(Criterion::parse_event("campionato").unwrap());
        yes(Criterion::parse_result("2-0").unwrap());
        yes(Criterion::parse_result("1-0").unwrap());
        no(Criterion::parse_result("1/2-1/2").unwrap());
        yes(Criterion::parse_plies("4").unwrap());
        yes(Criterion::parse_plies("..10").unwrap());
        no(Criterion::parse_plies("5..").unwrap());
        yes(Criterion::valid(true));
        no(Criterion::valid(false));
        yes(Criterion::variant_is("international"));
        no(Criterion::code(Code::IllegalMove));
    }

    #[test]
    fn material_is_counted_in_every_position_of_the_main_line() {
        // Two kings and a man against a king; the man crowns at ply 1.
        let (g, r) = game("[GameType \"20\"]\n[FEN \"W:W6,K20,K30:BK45\"]\n1. 6-1 45-50 *\n");
        assert_eq!(r.plies, 2);
        let m = |spec: &str, either: bool| {
            Criterion::parse_material(spec, either)
                .unwrap_or_else(|e| panic!("{spec}: {e}"))
                .matches(&g, &r)
        };
        // Before any move, and after the crowning.
        assert!(m("2K1M:1K", false));
        assert!(m("1M2K:1k", false));
        assert!(m("3K:1K", false));
        // Counts are exact unless `+` says at least.
        assert!(!m("2K:1K", false));
        assert!(m("2K+:1K", false));
        assert!(m("0K+1M+:0K+", false));
        assert!(!m("3K:1K1M", false));
        assert!(!m("3K:0", false));
        // The colours as given, or either way round.
        assert!(!m("1K:3K", false));
        assert!(m("1K:3K", true));
        assert!(!m("1K:4K", true));
        // A game that never replays has no position to match.
        let (g, r) = game("[GameType \"20\"]\n[FEN \"W:W6:B45\"]\n1. 7-1 *\n");
        let c = Criterion::parse_material("1M:1M", false).unwrap();
        assert!(c.matches(&g, &r), "the start position counts");
        assert!(!Criterion::parse_material("1K:1M", false)
            .unwrap()
            .matches(&g, &r));
    }

    #[test]
    fn material_is_counted_on_every_variants_board_both_colours() {
        use crate::piece::{Color, Kind, Piece};
        use crate::variant::Variant;
        for v in Variant::ALL {
            // The start position with White's first man and Black's first
            // two crowned: one king and n-1 men against two kings and m-2.
            let start = Position::start(v);
            let mut setup = Setup::new(Color::White);
            let (mut crowned_w, mut crowned_b) = (0, 0);
            for c in [Color::White, Color::Black] {
                for sq in start.pieces(c).squares() {
                    let crowned = if c == Color::White {
                        &mut crowned_w
                    } else {
                        &mut crowned_b
                    };
                    let kind = if *crowned < 1 + usize::from(c == Color::Black) {
                        *crowned += 1;
                        Kind::King
                    } else {
                        Kind::Man
                    };
                    setup.put(sq, Piece { color: c, kind });
                }
            }
            let pos = setup
                .into_position(v)
                .unwrap_or_else(|e| panic!("{v:?}: {e}"));
            let men = |c: Color| (pos.pieces(c) & !pos.kings()).count();
            let (wm, bm) = (men(Color::White), men(Color::Black));
            let holds = |spec: String, either: bool| {
                Material::parse(&spec, either)
                    .unwrap_or_else(|e| panic!("{spec}: {e}"))
                    .holds(&pos)
            };
            assert!(holds(format!("1K{wm}M:2K{bm}M"), false), "{v:?}");
            assert!(holds(format!("{wm}M1K:{bm}m2k"), false), "{v:?}");
            assert!(
                !holds(format!("2K{bm}M:1K{wm}M"), false),
                "{v:?}: the colours"
            );
            assert!(holds(format!("2K{bm}M:1K{wm}M"), true), "{v:?}: either");
            assert!(
                !holds(format!("1K{}M:2K{bm}M", wm - 1), false),
                "{v:?}: exact"
            );
            assert!(
                holds(format!("1K{}M+:2K+{bm}M", wm - 1), false),
                "{v:?}: at least"
            );
            assert!(
                !holds(format!("1K{}M+:2K{bm}M", wm + 1), false),
                "{v:?}: at least"
            );
            assert!(
                !holds(format!("1K:2K{bm}M"), false),
                "{v:?}: no men named is none"
            );
            assert!(!holds("0:0".to_string(), true), "{v:?}");
        }
    }

    #[test]
    fn material_specs_that_cannot_be_read_say_why() {
        for (spec, why) in [
            ("3K", "no `:`"),
            ("3X:1K", "followed by K (kings) or M (men)"),
            ("K3:1K", "a count comes first"),
            ("3K2K:0", "counted twice"),
            ("100K:0", "a count above 99"),
            (":1K", "a side with no count"),
            ("3K:", "a side with no count"),
            ("3K+1:0", "followed by K"),
        ] {
            let e = Criterion::parse_material(spec, false).expect_err(spec);
            assert!(e.0.contains(why), "{spec}: {}", e.0);
            assert!(e.0.starts_with(&format!("'{spec}'")), "{}", e.0);
        }
        assert!(Criterion::parse_material(" 0 : 2M+ ", false).is_ok());
    }

    #[test]
    fn positions_are_compared_as_positions() {
        let (g, r) = game(GAME);
        // After 1. 32-28 19-23 2. 28x19: the black man on 14 takes back.
        let after3 = r.position_before(4).unwrap().to_fen();
        assert!(Criterion::parse_position(&after3).unwrap().matches(&g, &r));
        // The same position written another way (ranges, other order).
        let start = "W:W31-50:B1-20";
        assert!(Criterion::parse_position(start).unwrap().matches(&g, &r));
        assert!(!Criterion::parse_position("B:W31-50:B1-20")
            .unwrap()
            .matches(&g, &r));
        assert!(!Criterion::parse_position("W:W:B").unwrap().matches(&g, &r));
        assert!(Criterion::parse_position("W:W99").is_err());
    }

    #[test]
    fn and_across_kinds_or_within_a_kind_and_invert() {
        let (g, r) = game(GAME);
        let a = Criterion::parse_player("sijbrands").unwrap();
        let b = Criterion::parse_player("baba").unwrap();
        let draw = Criterion::parse_result("1-1").unwrap();
        assert!(sel(&[a.clone(), b.clone()]).matches(&g, &r));
        assert!(!sel(std::slice::from_ref(&b)).matches(&g, &r));
        assert!(!sel(&[a.clone(), draw.clone()]).matches(&g, &r));
        let mut s = sel(&[a, draw]);
        s.invert(true);
        assert!(s.matches(&g, &r));
        assert!(Selection::default().matches(&g, &r));
        assert!(Selection::default().is_empty());
    }
}
