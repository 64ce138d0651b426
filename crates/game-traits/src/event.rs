//! Events: what an action did, as data, as one viewer may know it (a
//! fight's two pieces and who fell, a claim's proof, a roll and its
//! arithmetic, the end of a game and why). Each game lists them from the
//! viewer's observations either side of the action
//! ([`Wire::events`](crate::Wire::events)), so they tell him nothing he
//! may not know; clients read their fields, and every screen that words
//! them calls the same [`Event::tell`], so a step reads the same in the
//! terminal, on the page and in a replay.

use std::fmt::Debug;

use schemars::JsonSchema;
use serde::Serialize;

use crate::PlayerId;

/// The events schema's version: bumped on every change that a client
/// could notice (a kind or field renamed or removed, a meaning changed).
/// Sent beside the events wherever they go out.
pub const EVENTS_VERSION: u32 = 2;

/// One consequence of an action as one viewer knows it: a record of named
/// fields tagged by `"kind"` on the wire, naming seats by number (`0`,
/// `1`), never by "you", so that two viewers who know the same get the
/// same data.
pub trait Event: Clone + PartialEq + Debug + Serialize + JsonSchema + Send + Sync {
    /// The event in words for `viewer` ("you" for his own seat), or for a
    /// spectator (`None`: every seat by its name).
    fn tell(&self, viewer: Option<PlayerId>) -> String;
}

/// Events in words for `viewer`, one sentence each, in order: what a log
/// line shows.
///
/// ```
/// use game_traits::kuhn::KuhnEvent;
/// use game_traits::{tell_all, PlayerId};
///
/// let events = [KuhnEvent::Bet { player: PlayerId::P1 }];
/// assert_eq!(tell_all(&events, Some(PlayerId::P0)), "P1: bet");
/// assert_eq!(tell_all(&events, Some(PlayerId::P1)), "you: bet");
/// ```
pub fn tell_all<E: Event>(events: &[E], viewer: Option<PlayerId>) -> String {
    events
        .iter()
        .map(|e| e.tell(viewer))
        .collect::<Vec<_>>()
        .join(". ")
}

/// `player` as `viewer` calls him: `you` for his own seat, `P0`/`P1`
/// otherwise; the subject of most events' sentences.
pub fn who(player: PlayerId, viewer: Option<PlayerId>) -> String {
    if Some(player) == viewer {
        "you".to_owned()
    } else {
        player.to_string()
    }
}

/// `player`'s as `viewer` says it: `your` for his own seat, `P0's`/`P1's`
/// otherwise; the owner of what an event names.
///
/// ```
/// use game_traits::{whose, PlayerId};
/// assert_eq!(whose(PlayerId::P1, Some(PlayerId::P1)), "your");
/// assert_eq!(whose(PlayerId::P1, None), "P1's");
/// ```
pub fn whose(player: PlayerId, viewer: Option<PlayerId>) -> String {
    if Some(player) == viewer {
        "your".to_owned()
    } else {
        format!("{player}'s")
    }
}
