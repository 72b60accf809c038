//! What the tags of a game say to the tournament: its round, its year, and
//! the event and section an Event tag names, in the conventions of the
//! producers that write them otherwise (docs/tournament.md).

/// A game's event, town, date and round as its producer wrote them:
/// standard PDN tags, else a producer's own (docs/tournament.md, "Rounds
/// and matches as the records give them"):
/// - CheckerBoard writes a match's games as `[Event "Petal 1987, game 12"]`
///   with no Round: the event is `Petal 1987`, the round 12;
/// - the Italian federation's files have no Event, Date or Round but
///   `[Dati "69° ASSOLUTO 1° TURNO"]` (the event and its round), `[Anno
///   "2005"]` (the year) and sometimes `[Manche "2"]` (the game of the
///   round): the event is `69° ASSOLUTO`, the round `1` (`1.2`), the date
///   `2005`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tagged {
    pub(crate) event: String,
    pub(crate) site: String,
    pub(crate) date: Option<String>,
    pub(crate) round: Option<String>,
}

impl Tagged {
    /// What the tags of `g` say.
    pub(crate) fn of(g: &crate::pdn::Game) -> Tagged {
        Tagged::from_tags(|n| g.tag(n))
    }

    /// What tags say, `tag` giving each by name.
    pub(crate) fn from_tags(tag: impl Fn(&str) -> Option<String>) -> Tagged {
        let given = |n: &str| tag(n).filter(|v| !v.trim().is_empty());
        let mut t = Tagged {
            event: given("Event").unwrap_or_default(),
            site: given("Site").unwrap_or_default(),
            date: given("Date"),
            round: given("Round"),
        };
        if t.event.is_empty() {
            if let Some(dati) = given("Dati") {
                let (event, round) = split_round_suffix(&dati);
                t.event = event.to_string();
                if t.round.is_none() {
                    t.round = round.map(|r| {
                        match given("Manche").and_then(|m| m.trim().parse::<u32>().ok()) {
                            Some(m) => format!("{r}.{m}"),
                            None => r.to_string(),
                        }
                    });
                }
            }
        }
        if t.date.is_none() {
            t.date = given("Anno").filter(|a| year_of(a).is_some());
        }
        if t.round.is_none() {
            if let Some((event, n)) = split_game_suffix(&t.event) {
                t.event = event.to_string();
                t.round = Some(format!("game {n}"));
            }
        }
        t
    }
}

/// The number of a `game N` Round ([`Tagged`]: CheckerBoard's `EVENT, game
/// N`): the event's round when no two games of the event have the same
/// number (a match's games one by one), else the game of its pairing only.
pub(super) fn game_number(round: &str) -> Option<u32> {
    round.strip_prefix("game ")?.parse().ok()
}

/// `NAME, game N` (CheckerBoard's match games: `Petal 1987, game 12`):
/// the name and N.
fn split_game_suffix(event: &str) -> Option<(&str, u32)> {
    let t = event.trim_end();
    let digits = t.len() - t.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    // A year is no game's number (`Practice game 1946`).
    let n: u32 = t[t.len() - digits..]
        .parse()
        .ok()
        .filter(|&n| n > 0 && n < 1000)?;
    let head = t[..t.len() - digits]
        .trim_end()
        .trim_end_matches('#')
        .trim_end();
    let lower = head.to_lowercase();
    let word = ["game", "partie", "partita", "partij", "partida", "spiel"]
        .into_iter()
        .find(|w| {
            lower.ends_with(w)
                && head
                    .len()
                    .checked_sub(w.len())
                    .and_then(|at| head.get(at..))
                    .is_some_and(|tail| tail.eq_ignore_ascii_case(w))
        })?;
    // `NAME, game N` only: the comma says the game is the event's
    // (`Inferno of Checkers, GAYP Game 6` numbers a book's games).
    let name = head
        .get(..head.len() - word.len())?
        .trim_end()
        .strip_suffix(',')?;
    let name = name.trim_end();
    (!name.is_empty()).then_some((name, n))
}

/// Words that name a round on their own (not an ordinal ending).
const ROUND_NAMES: [&str; 13] = [
    "round",
    "rd",
    "rnd",
    "ronde",
    "tour",
    "runde",
    "turno",
    "ronda",
    "rodada",
    "tura",
    "kolo",
    "тур",
    "раунд",
];

/// An event's name with its round written at its end (`69° ASSOLUTO 1°
/// TURNO`): the name and the round, or the whole text and none.
fn split_round_suffix(text: &str) -> (&str, Option<u32>) {
    let t = text.trim();
    for (i, _) in t.char_indices().filter(|(_, c)| c.is_whitespace()) {
        let tail = &t[i..];
        let lower = tail.to_lowercase();
        let named = lower
            .split(|c: char| !c.is_alphabetic())
            .any(|w| ROUND_NAMES.contains(&w));
        if let Some(r) = spelled_round(tail).filter(|_| named) {
            return (t[..i].trim_end(), Some(r));
        }
    }
    (t, None)
}

/// `N` or `N.M`: the round (and the game of a round's match); also the
/// spellings real archives use around the number: `ronde2`, `R2`, `2e
/// ronde`, `Round 2`, `Rd. 2.1`, `1° turno`, `тур 3` (words of [`ROUND_NAMES`] and [`ROUND_MARKS`]
/// only: `Final` or `2016.05.12 game` are no round).
pub(super) fn round_of(text: &str) -> Option<u32> {
    let head = text.trim().split(['.', '-', '/']).next()?;
    if let Ok(n) = head.trim().parse::<u32>() {
        return (n > 0).then_some(n);
    }
    spelled_round(text)
}

/// What else is written around a round's number (lower case): the letter
/// `r` (`R2`) and ordinal endings (`2e`, `1°`, `3rd`), beside the words of
/// [`ROUND_NAMES`]: English, Dutch, French, German, Italian, Spanish,
/// Portuguese, Polish, Russian.
const ROUND_MARKS: [&str; 13] = [
    "r", "e", "er", "re", "ème", "eme", "de", "ste", "st", "nd", "th", "a", "o",
];

/// Whether `w` may stand around a round's number.
fn round_word(w: &str) -> bool {
    ROUND_NAMES.contains(&w) || ROUND_MARKS.contains(&w)
}

/// The round of a Round value written with words: the first number, every
/// letter run around it one of [`round_word`], and at most one more
/// number after a `.` (the game of a round's match: `Round 2.1`).
fn spelled_round(text: &str) -> Option<u32> {
    let lower = text.trim().to_lowercase();
    let mut numbers: Vec<u32> = Vec::new();
    let mut word = String::new();
    let mut digits = String::new();
    let mut ok = true;
    let mut flush = |word: &mut String, digits: &mut String, numbers: &mut Vec<u32>| {
        if !word.is_empty() {
            ok &= round_word(word);
            word.clear();
        }
        if !digits.is_empty() {
            match digits.parse() {
                Ok(n) => numbers.push(n),
                Err(_) => ok = false,
            }
            digits.clear();
        }
    };
    for c in lower.chars() {
        if c.is_ascii_digit() {
            if !word.is_empty() {
                flush(&mut word, &mut String::new(), &mut numbers);
            }
            digits.push(c);
        } else if c.is_alphabetic() {
            if !digits.is_empty() {
                flush(&mut String::new(), &mut digits, &mut numbers);
            }
            word.push(c);
        } else if matches!(c, ' ' | '.' | '°' | 'º' | '#' | ':' | '_') {
            flush(&mut word, &mut digits, &mut numbers);
        } else {
            return None;
        }
    }
    flush(&mut word, &mut digits, &mut numbers);
    if !ok || numbers.is_empty() || numbers.len() > 2 {
        return None;
    }
    Some(numbers[0]).filter(|&n| n > 0)
}

/// The year of a Date value.
pub(super) fn year_of(date: &str) -> Option<u32> {
    crate::select::date_span(date).map(|(a, _)| a / 10000)
}

/// An Event value without its trailing parenthesised part
/// (`Чемпионат Беларуси 2015 (мужчины)` → `Чемпионат Беларуси 2015`), and
/// that part (`мужчины`).
pub(super) fn split_event_name(event: &str) -> (&str, Option<&str>) {
    let t = event.trim();
    if let Some(inner) = t.strip_suffix(')') {
        if let Some(open) = inner.rfind('(') {
            let (base, part) = (inner[..open].trim_end(), inner[open + 1..].trim());
            if !base.is_empty() && !part.is_empty() {
                return (base, Some(part));
            }
        }
    }
    (t, None)
}

#[cfg(test)]
mod tests {
    use super::{round_of, Tagged};

    /// Issue 62 item 8: the producers' own conventions for an event's
    /// games, each from a real file (docs/tournament.md).
    #[test]
    fn producers_write_the_event_and_round_their_way() {
        let of = |tags: &[(&str, &str)]| {
            Tagged::from_tags(|n| {
                tags.iter()
                    .find(|(k, _)| *k == n)
                    .map(|(_, v)| v.to_string())
            })
        };
        // CheckerBoard's Tinsley file: a match's games by Event.
        let t = of(&[("Event", "Petal 1987, game 12")]);
        assert_eq!(
            (t.event.as_str(), t.round.as_deref()),
            ("Petal 1987", Some("game 12"))
        );
        assert_eq!(super::game_number("game 12"), Some(12));
        let t = of(&[("Event", "Petal 1987, game 12"), ("Round", "3")]);
        assert_eq!(
            (t.event.as_str(), t.round.as_deref()),
            ("Petal 1987, game 12", Some("3"))
        );
        for no in [
            "Endgame 3",
            "Game",
            "Olympiad 2019",
            "Petal 1987",
            "Practice game 1946",
            "Inferno of Checkers, GAYP Game 6",
            "X, endgame 3",
        ] {
            let t = of(&[("Event", no)]);
            assert_eq!((t.event.as_str(), t.round), (no, None), "{no}");
        }
        // The Italian championship: Dati, Anno, Manche.
        let t = of(&[("Dati", "69° ASSOLUTO 1° TURNO"), ("Anno", "2005")]);
        assert_eq!(
            t,
            Tagged {
                event: "69° ASSOLUTO".into(),
                site: String::new(),
                date: Some("2005".into()),
                round: Some("1".into()),
            }
        );
        let t = of(&[("Dati", "Campionato 3° turno"), ("Manche", "2")]);
        assert_eq!(
            (t.event.as_str(), t.round.as_deref()),
            ("Campionato", Some("3.2"))
        );
        // Standard tags win.
        let t = of(&[
            ("Event", "Open"),
            ("Dati", "X 2° TURNO"),
            ("Date", "2005.01.02"),
        ]);
        assert_eq!(
            (t.event.as_str(), t.round, t.date.as_deref()),
            ("Open", None, Some("2005.01.02"))
        );
    }

    /// Issue 62 item 4: the spellings real archives give a round.
    #[test]
    fn rounds_as_the_records_spell_them() {
        for (text, want) in [
            ("2", Some(2)),
            ("2.1", Some(2)),
            ("ronde2", Some(2)),
            ("R2", Some(2)),
            ("2e ronde", Some(2)),
            ("Round 2", Some(2)),
            ("Rd. 3.2", Some(3)),
            ("1° TURNO", Some(1)),
            ("тур 3", Some(3)),
            ("5th round", Some(5)),
            ("Final", None),
            ("?", None),
            ("", None),
            ("r0", None),
            ("game 3", None),
            ("ronde 2 of 3", None),
            ("2 3 4", None),
        ] {
            assert_eq!(round_of(text), want, "{text:?}");
        }
    }
}
