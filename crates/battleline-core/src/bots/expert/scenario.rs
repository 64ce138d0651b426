//! Scenarios: the table as one play would leave it, for the flag odds to
//! judge. Troop cards, morale tactics, Fog, Mud, Redeploy, Deserter and
//! Traitor all change the flags; what a play costs beyond that (the tactics
//! count, the card's later uses) is the caller's.

use game_traits::PlayerId;

use crate::action::Action;
use crate::card::{Card, Tactic};
use crate::flag::{Flag, FLAGS};

/// The flags after one play, with what it took from the player's future
/// cards.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scenario {
    /// The flags as the play leaves them.
    pub flags: [Flag; FLAGS],
    /// Troop bits of the hand card the play puts on the table (no longer
    /// in the player's future cards).
    pub spent: u64,
    /// Bit `i` when flag `i` differs from the table.
    pub changed: u16,
    /// The tactics card played, if any.
    pub tactic: Option<Tactic>,
}

/// The flags after `me` plays `action` on `flags`; `None` for what is no
/// play on the table (claims, draws, Scout, a pass) or what the flags
/// refuse.
pub(crate) fn apply(flags: &[Flag; FLAGS], me: PlayerId, action: Action) -> Option<Scenario> {
    let mut s = Scenario {
        flags: *flags,
        spent: 0,
        changed: 0,
        tactic: None,
    };
    match action {
        Action::Play { card, flag } => {
            let f = &mut s.flags[flag.index()];
            match card.as_tactic() {
                Some(Tactic::Fog) => f.add_fog().ok()?,
                Some(Tactic::Mud) => f.add_mud().ok()?,
                _ => f.place(me, card).ok()?,
            }
            s.spent = troop_bit(card);
            s.changed = 1 << flag.index();
            s.tactic = card.as_tactic();
        }
        Action::Redeploy { card, to } => {
            let from = remove(&mut s.flags, me, me, card)?;
            s.changed |= 1 << from;
            if let Some(to) = to {
                put(&mut s.flags[to.index()], me, card)?;
                s.changed |= 1 << to.index();
            }
            s.tactic = Some(Tactic::Redeploy);
        }
        Action::Deserter { card } => {
            let from = remove(&mut s.flags, me.other(), me, card)?;
            s.changed |= 1 << from;
            s.tactic = Some(Tactic::Deserter);
        }
        Action::Traitor { card, to } => {
            let from = remove(&mut s.flags, me.other(), me, card)?;
            s.flags[to.index()].place(me, card).ok()?;
            s.changed |= 1 << from | 1 << to.index();
            s.tactic = Some(Tactic::Traitor);
        }
        _ => return None,
    }
    Some(s)
}

/// The troop bit of `card`, 0 for a tactics card.
fn troop_bit(card: Card) -> u64 {
    if card.is_troop() {
        1 << card.index()
    } else {
        0
    }
}

/// Takes `card` from `owner`'s side (or, for Fog and Mud, from beside its
/// flag, `by` removing it) of an unclaimed flag; the flag's index.
fn remove(flags: &mut [Flag; FLAGS], owner: PlayerId, by: PlayerId, card: Card) -> Option<usize> {
    let i = flags.iter().position(|f| {
        f.claimed().is_none()
            && match card.as_tactic() {
                Some(Tactic::Fog) => f.env().fog,
                Some(Tactic::Mud) => f.env().mud,
                _ => f.side(owner).contains(card),
            }
    })?;
    let f = &mut flags[i];
    match card.as_tactic() {
        Some(Tactic::Fog) => f.remove_fog().ok()?,
        Some(Tactic::Mud) => {
            f.remove_mud(by).ok()?;
        }
        _ => f.take(owner, card).ok()?,
    }
    Some(i)
}

/// Puts `card` (a slot card, or Fog or Mud) at `flag` on `me`'s side.
fn put(flag: &mut Flag, me: PlayerId, card: Card) -> Option<()> {
    match card.as_tactic() {
        Some(Tactic::Fog) => flag.add_fog().ok(),
        Some(Tactic::Mud) => flag.add_mud().ok(),
        _ => flag.place(me, card).ok(),
    }
}
