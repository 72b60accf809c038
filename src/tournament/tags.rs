//! What the tags of a game say to the tournament: its round, its year, and
//! the event and section an Event tag names.

/// `N` or `N.M`: the round (and the game of a round's match).
pub(super) fn round_of(text: &str) -> Option<u32> {
    let head = text.trim().split(['.', '-', '/']).next()?;
    head.trim().parse().ok().filter(|&n: &u32| n > 0)
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
