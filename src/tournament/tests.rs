//! The tournament's unit tests: events, crosstables and findings of small
//! collections written in place.

use super::*;

/// A game as the tests write it.
#[derive(Clone, Debug, Default)]
struct T {
    file: String,
    game: usize,
    event: String,
    site: String,
    date: Option<String>,
    round: Option<String>,
    white: String,
    black: String,
    result: Outcome,
    plies: u32,
}

/// The events of games whose moves are not known.
fn events(games: &[T], s: &Settings) -> Vec<Event> {
    let mut all = Games::new();
    for t in games {
        let g = games::Game {
            file: &t.file,
            game: t.game,
            event: &t.event,
            site: &t.site,
            date: t.date.as_deref(),
            round: t.round.as_deref(),
            white: &t.white,
            black: &t.black,
            result: t.result,
            plies: t.plies,
        };
        all.push(g, games::Moves::NONE);
    }
    all.events(s)
}

fn g(w: &str, b: &str, round: &str, result: Outcome) -> T {
    T {
        file: "t.pdn".into(),
        game: 0,
        event: "Test".into(),
        site: "Here".into(),
        date: None,
        round: Some(round.into()),
        white: w.into(),
        black: b.into(),
        result,
        plies: 40,
    }
}

fn codes(e: &Event) -> Vec<&'static str> {
    e.findings.iter().map(|f| f.code.as_str()).collect()
}

use crate::diag::Code;
use crate::pdn::Outcome;
use crate::players::name_key;
use crate::tournament::names::one_apart;
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use Outcome::{BlackWins as B, Draw as D, WhiteWins as W};

/// A round robin of four: A beats everyone, B draws C and beats D, C beats D.
fn four() -> Vec<T> {
    vec![
        g("A", "B", "1", W),
        g("D", "C", "1", B),
        g("C", "A", "2", B),
        g("B", "D", "2", W),
        g("A", "D", "3", W),
        g("B", "C", "3", D),
    ]
}

#[test]
fn a_round_robin_and_its_crosstable() {
    let e = &events(&four(), &Settings::default())[0];
    assert_eq!(e.system, System::RoundRobin { cycles: 1 });
    let names: Vec<&str> = e.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "C", "D"]);
    let pts: Vec<u32> = e.players.iter().map(|p| p.points / 2).collect();
    assert_eq!(pts, [6, 3, 3, 0]);
    // B and C are level; they drew each other (direct 1 each); B's win
    // is over D (0 points), C's too: level on SB and wins as well.
    assert_eq!(e.players[1].rank, 2);
    assert_eq!(e.players[2].rank, 2);
    assert!(e.findings.is_empty(), "{:?}", e.findings);
    assert_eq!(e.rounds, [1, 2, 3]);
    // 1-½-0 halves every score.
    let s = Settings {
        scoring: Scoring::OneHalfZero,
        ..Settings::default()
    };
    let e = &events(&four(), &s)[0];
    assert_eq!(e.players[0].points, 6); // 3 points in half points
}

#[test]
fn findings_of_a_faulty_round_robin() {
    let mut games = four();
    games.remove(5); // B – C missing (round 3)
    games.push(g("A", "B", "3", D)); // A meets B twice; A plays twice in round 3
    let e = &events(&games, &Settings::default())[0];
    let c = codes(e);
    assert!(c.contains(&"repeated-pairing"), "{c:?}");
    assert!(c.contains(&"double-booked"), "{c:?}");
    let missing = e
        .findings
        .iter()
        .find(|f| f.code == Code::MissingGame)
        .unwrap();
    assert!(missing.message.contains("B – C"), "{}", missing.message);
}

#[test]
fn names_merge_across_scripts_and_spaces_and_similar_ones_are_named() {
    assert_eq!(name_key("Cеменюк  Михаил"), name_key("Семенюк Михаил"));
    assert_eq!(name_key("Lazovik  Yana"), name_key("lazovik yana"));
    assert_ne!(
        name_key("Кодраченко Евгений"),
        name_key("Кондраченко Евгений")
    );
    assert!(one_apart(
        &name_key("Кодраченко Евгений"),
        &name_key("Кондраченко Евгений")
    ));
    assert!(one_apart("abc", "abd") && one_apart("abc", "abxc") && !one_apart("abc", "cab"));
    let games = vec![
        g("Семенюк Михаил", "Чепа Олег", "1", W),
        g("Чепа Олег", "Cеменюк  Михаил", "2", D),
        g("Кондраченко Евгений", "Чепа Олег", "3", D),
        g("Чепа Олег", "Кодраченко Евгений", "4", D),
    ];
    let e = &events(&games, &Settings::default())[0];
    assert_eq!(e.players.len(), 4, "the similar names stay apart");
    let variant = e
        .findings
        .iter()
        .find(|f| f.code == Code::NameVariant)
        .unwrap();
    assert!(variant.message.contains("Cеменюк  Михаил"));
    assert!(codes(e).contains(&"name-similar"));
    // --alias merges them.
    let s = Settings {
        aliases: vec![("Кодраченко Евгений".into(), "Кондраченко Евгений".into())],
        ..Settings::default()
    };
    let e = &events(&games, &s)[0];
    assert_eq!(e.players.len(), 3);
}

#[test]
fn matches_score_per_match_and_forfeits_are_named() {
    // Two-game matches (round N.M): A beats B 1.5-0.5 in round 1.
    let mut games = vec![
        g("A", "B", "1.1", W),
        g("B", "A", "1.2", D),
        g("A", "C", "2.1", D),
        g("C", "A", "2.2", D),
        g("B", "C", "3.1", B),
        g("C", "B", "3.2", W),
    ];
    let s = Settings {
        scoring: Scoring::MatchPoints,
        ..Settings::default()
    };
    let e = &events(&games, &s)[0];
    assert!(e.findings.is_empty(), "{:?}", e.findings);
    // A: won match 1 (2), drew match 2 (1) = 3; C won match 3 (2) + 1 = 3; B 0.
    let pts: BTreeMap<&str, u32> = e
        .players
        .iter()
        .map(|p| (p.name.as_str(), p.points / 2))
        .collect();
    assert_eq!(pts["A"], 3);
    assert_eq!(pts["C"], 3);
    assert_eq!(pts["B"], 0);
    games[0].plies = 0;
    let e = &events(&games, &s)[0];
    assert_eq!(codes(e), ["forfeit"]);
}

#[test]
fn a_double_round_robin_and_a_swiss_event() {
    // Each pair twice, colours swapped: a double round robin, no finding.
    let mut games = four();
    for (i, x) in four().into_iter().enumerate() {
        games.push(T {
            white: x.black.clone(),
            black: x.white.clone(),
            round: Some(format!("{}", 4 + i / 2)),
            ..x
        });
    }
    let e = &events(&games, &Settings::default())[0];
    assert_eq!(e.system, System::RoundRobin { cycles: 2 });
    assert!(e.findings.is_empty(), "{:?}", e.findings);
    assert_eq!(e.players.iter().map(|p| p.games).sum::<u32>(), 24);
    // Eight players, three rounds, all meeting through others: one Swiss
    // event, not split. A pair meeting twice is a
    // repeated pairing; nobody is missing a game.
    let names = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"];
    let mut swiss = Vec::new();
    for (r, pairs) in [
        [(0, 1), (2, 3), (4, 5), (6, 7)],
        [(3, 0), (1, 2), (7, 4), (5, 6)],
        [(0, 4), (5, 1), (2, 6), (7, 3)],
    ]
    .iter()
    .enumerate()
    {
        for &(w, b) in pairs {
            swiss.push(g(names[w], names[b], &(r + 1).to_string(), D));
        }
    }
    let e = &events(&swiss, &Settings::default())[0];
    assert_eq!(e.system, System::Swiss);
    assert!(e.findings.is_empty(), "{:?}", e.findings);
    swiss.push(g("Bob", "Ann", "4", D));
    let e = &events(&swiss, &Settings::default())[0];
    assert_eq!(codes(e), ["repeated-pairing"]);
}

#[test]
fn events_split_by_name_site_and_year_and_dates_are_checked() {
    let mut games = four();
    for (i, x) in games.iter_mut().enumerate() {
        x.date = Some(format!("2016.05.{:02}", 20 + (i / 2) as u32));
    }
    games[5].date = Some("2016.05.19".into()); // round 3 game before round 1
    let mut other = four();
    for x in &mut other {
        x.date = Some("2017.05.01".into());
    }
    games.extend(other);
    let ev = events(&games, &Settings::default());
    assert_eq!(ev.len(), 2);
    assert_eq!((ev[0].year, ev[1].year), (Some(2016), Some(2017)));
    assert!(
        codes(&ev[0]).contains(&"date-outside-event"),
        "{:?}",
        ev[0].findings
    );
}

#[test]
fn a_two_player_event_is_one_match_in_every_town() {
    // Issue 55: a match of 20 games was called Swiss with a repeated-pairing
    // error, and a match played in four towns was four events.
    let towns = ["Dordrecht", "Bunnik", "Deventer", "Den Haag"];
    let mut games: Vec<T> = (1..=20)
        .map(|r| {
            let (w, b) = if r % 2 == 1 {
                ("Ann", "Bob")
            } else {
                ("Bob", "Ann")
            };
            let result = if r == 7 {
                Outcome::WhiteWins
            } else {
                Outcome::Draw
            };
            T {
                site: towns[(r as usize - 1) / 5].into(),
                date: Some(format!("1983.03.{:02}", r)),
                ..g(w, b, &r.to_string(), result)
            }
        })
        .collect();
    let evs = events(&games, &Settings::default());
    assert_eq!(evs.len(), 1, "one event for the four towns");
    let e = &evs[0];
    assert_eq!(e.system, System::Match);
    assert_eq!(e.system_text(), "match, 2 players, 20 rounds");
    assert!(codes(e).is_empty(), "{:?}", codes(e));
    let total: u32 = e.players.iter().map(|p| p.points).sum();
    assert_eq!(
        (e.players[0].games, total),
        (20, 80),
        "half points of 2-1-0: 4 a game"
    );
    // Another Event name in another town stays another event; and three
    // players are no match.
    games[19].event = "Other".into();
    assert_eq!(events(&games, &Settings::default()).len(), 2);
    games[19].event = "Test".into();
    games[19].black = "Cid".into();
    let evs = events(&games, &Settings::default());
    assert!(evs.iter().all(|e| e.system != System::Match) || evs.len() > 1);
}

#[test]
fn a_round_played_over_a_few_days_is_inside_the_event() {
    // Issue 55: Samb – Buggy, rounds of three games on three days: the games
    // of the 14th and 15th were "outside the event's rounds (10 to 13)".
    let mut games: Vec<T> = (0..6)
        .map(|k| T {
            date: Some(format!("2003.03.{}", 10 + k)),
            ..g(
                "Samb",
                "Buggy",
                &format!("{}-{}", k / 3 + 1, k % 3 + 1),
                Outcome::Draw,
            )
        })
        .collect();
    let e = &events(&games, &Settings::default())[0];
    assert!(!codes(e).contains(&"date-outside-event"), "{:?}", codes(e));
    // A date months off (a typo) is still outside.
    games[5].date = Some("2003.09.15".into());
    let e = &events(&games, &Settings::default())[0];
    assert!(codes(e).contains(&"date-outside-event"), "{:?}", codes(e));
}

/// Issue 63 item 19: the events are given one at a time, in the order of
/// `events`, on one thread and on several; a `Break` stops the judging.
#[cfg(feature = "batch")]
#[test]
fn events_are_given_as_they_are_judged_in_order_and_stop_on_break() {
    let mut list = Vec::new();
    for e in 0..40 {
        for (w, b, r) in [
            ("Ann", "Bob", "1"),
            ("Cid", "Ann", "2"),
            ("Bob", "Cid", "3"),
        ] {
            let mut t = g(w, b, r, Outcome::Draw);
            t.event = format!("Club {e:02}");
            t.game = list.len() + 1;
            list.push(t);
        }
    }
    let mut all = Games::new();
    for t in &list {
        let g = games::Game {
            file: &t.file,
            game: t.game,
            event: &t.event,
            site: &t.site,
            date: t.date.as_deref(),
            round: t.round.as_deref(),
            white: &t.white,
            black: &t.black,
            result: t.result,
            plies: t.plies,
        };
        all.push(g, games::Moves::NONE);
    }
    let s = Settings::default();
    let whole = all.events(&s);
    assert_eq!(whole.len(), 40);
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        let mut given = Vec::new();
        let flow = pool.install(|| {
            all.each_event(&s, |e| {
                given.push(e);
                ControlFlow::<()>::Continue(())
            })
        });
        assert_eq!(flow, ControlFlow::Continue(()));
        assert_eq!(given, whole, "{threads} threads");
        let mut seen = 0;
        let flow = pool.install(|| {
            all.each_event(&s, |_| {
                seen += 1;
                if seen == 5 {
                    ControlFlow::Break(format!("stopped at event {seen}"))
                } else {
                    ControlFlow::Continue(())
                }
            })
        });
        assert_eq!(
            (flow, seen),
            (ControlFlow::Break("stopped at event 5".to_string()), 5),
            "{threads} threads"
        );
    }
}

/// Issue 62 item 3: training games over weeks, every one `Round "1"`. The
/// Round value holds two different games of one pairing (`round-unknown`),
/// so it does not tell rounds apart: no `double-booked` (A "plays" B, C and
/// D in round 1) and no `date-outside-event` rest on it. An event whose
/// rounds are told apart still gets both.
#[test]
fn a_round_that_tells_no_games_apart_books_no_one_twice() {
    let dated = |w: &str, b: &str, round: &str, day: u32| {
        let mut t = g(w, b, round, Outcome::Draw);
        t.date = Some(format!("2025.02.{day:02}"));
        t
    };
    let training = [
        dated("A", "B", "1", 6),
        dated("A", "B", "1", 8),
        dated("A", "C", "1", 16),
        dated("A", "D", "1", 24),
    ];
    let ev = &events(&training, &Settings::default())[0];
    let c = codes(ev);
    assert!(c.contains(&"round-unknown"), "{c:?}");
    assert!(!c.contains(&"double-booked"), "{c:?}");
    assert!(!c.contains(&"date-outside-event"), "{c:?}");
    // Rounds told apart: A meets B and C in round 1, and a game of round 2
    // dated a month off.
    let told = [
        dated("A", "B", "1", 6),
        dated("C", "A", "1", 6),
        dated("B", "C", "2", 7),
        dated("D", "A", "2", 7),
        dated("B", "D", "3", 28),
        dated("C", "D", "3", 8),
    ];
    let ev = &events(&told, &Settings::default())[0];
    let c = codes(ev);
    assert!(c.contains(&"double-booked"), "{c:?}");
    assert!(!c.contains(&"round-unknown"), "{c:?}");
}

/// Issue 62 item 4: games with no Date stay in their event (the one group of
/// their Event and Site with a year), so their round is in the crosstable.
#[test]
fn undated_games_stay_in_their_event() {
    let dated = |w: &str, b: &str, round: &str| {
        let mut t = g(w, b, round, Outcome::Draw);
        t.date = Some("2021.07.10".into());
        t
    };
    let games = [
        dated("A", "B", "1"),
        dated("C", "D", "1"),
        g("C", "A", "ronde2", Outcome::Draw),
        g("D", "B", "ronde2", Outcome::Draw),
        dated("A", "D", "3"),
        dated("B", "C", "3"),
    ];
    let evs = events(&games, &Settings::default());
    assert_eq!(
        evs.len(),
        1,
        "{:?}",
        evs.iter().map(|e| &e.event).collect::<Vec<_>>()
    );
    assert_eq!(evs[0].rounds.len(), 3);
    assert!(
        !codes(&evs[0]).contains(&"colour-imbalance"),
        "{:?}",
        codes(&evs[0])
    );
}
