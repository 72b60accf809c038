//! What the tags of a game say to the tournament: its round, its year, and
//! the event and section an Event tag names.

/// `N` or `N.M`: the round (and the game of a round's match); also the
/// spellings real archives use around the number: `ronde2`, `R2`, `2e
/// ronde`, `Round 2`, `Rd. 2.1`, `1° turno`, `тур 3` (words of [`ROUND_WORDS`]
/// only: `Final` or `2016.05.12 game` are no round).
pub(super) fn round_of(text: &str) -> Option<u32> {
    let head = text.trim().split(['.', '-', '/']).next()?;
    if let Ok(n) = head.trim().parse::<u32>() {
        return (n > 0).then_some(n);
    }
    spelled_round(text)
}

/// Words written around a round's number (lower case), ordinal endings
/// included: English, Dutch, French, German, Italian, Spanish, Portuguese,
/// Polish, Russian.
const ROUND_WORDS: [&str; 26] = [
    "round",
    "rd",
    "r",
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
    "e",
    "er",
    "re",
    "ème",
    "eme",
    "de",
    "ste",
    "st",
    "nd",
    "th",
    "a",
    "o",
];

/// The round of a Round value written with words: the first number, every
/// letter run around it a word of [`ROUND_WORDS`], and at most one more
/// number after a `.` (the game of a round's match: `Round 2.1`).
fn spelled_round(text: &str) -> Option<u32> {
    let lower = text.trim().to_lowercase();
    let mut numbers: Vec<u32> = Vec::new();
    let mut word = String::new();
    let mut digits = String::new();
    let mut ok = true;
    let mut flush = |word: &mut String, digits: &mut String, numbers: &mut Vec<u32>| {
        if !word.is_empty() {
            ok &= ROUND_WORDS.contains(&word.as_str());
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
    use super::round_of;

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
