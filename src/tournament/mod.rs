//! Tournaments as an arbiter checks them: games grouped into events, players
//! matched by name, rounds read, the crosstable with its tie-breaks, and the
//! findings an archive of an event can hold (docs/tournament.md).
//!
//! The input is the games ([`Games`]: their tags, their results, where they
//! are, their moves as hashes); [`Games::events`] groups them and judges each event.
//!
//! ```
//! use pdnkit::tournament::{Games, Settings};
//! use pdnkit::check::check_game;
//! use pdnkit::pdn::read_all;
//! use pdnkit::replay::Options;
//! let pdn = "[Event \"Club 2024\"][Round \"1\"][White \"Ann\"][Black \"Bob\"][Result \"2-0\"] 2-0\n\n\
//!            [Event \"Club 2024\"][Round \"2\"][White \"Cid\"][Black \"Ann\"][Result \"1-1\"] 1-1\n\n\
//!            [Event \"Club 2024\"][Round \"3\"][White \"Bob\"][Black \"Cid\"][Result \"1-1\"] 1-1\n";
//! let opts = Options::default().keep_moves(true);
//! let mut games = Games::new();
//! for g in read_all(pdn.as_bytes()) {
//!     games.add("club.pdn", &g, &check_game(&g, &opts));
//! }
//! let ev = &games.events(&Settings::default())[0];
//! assert_eq!(ev.players[0].name, "Ann"); // 2 + 1 points: first
//! assert_eq!(ev.players[0].points, 6);   // in half points: 3
//! ```

mod ballots;
mod copies;
mod crosstable;
mod events;
mod games;
mod judge;
mod model;
mod names;
mod once;
#[cfg(feature = "serde")]
mod records;
mod sets;
mod tags;

pub use games::Games;
pub(crate) use games::{Strings, Sym};
pub use model::{Event, Finding, Meeting, Player, Scoring, Settings, System, Tiebreak};
pub(crate) use once::Once;
pub(crate) use tags::Tagged;

#[cfg(test)]
mod tests;
