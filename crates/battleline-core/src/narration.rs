//! An action told to one player in words ([`Game::narrate`]): who did
//! what, and for a claim the proof on the table (`P1: claim F3: Wedge 24
//! (R7 R8 R9) beats your Phalanx 15 (B5 G5 Y5)`), read from his
//! observations either side of it only.
//!
//! [`Game::narrate`]: game_traits::Game::narrate

use game_traits::PlayerId;

use crate::action::Action;
use crate::card::Deck;
use crate::flag::FlagId;
use crate::formation::{FormationClass, Strength};
use crate::observation::Observation;
use crate::view::ActionView;

/// `player` as `viewer` calls him, as the subject of a sentence.
fn who(player: PlayerId, viewer: PlayerId) -> String {
    if player == viewer {
        "you".to_owned()
    } else {
        player.to_string()
    }
}

fn deck_card(deck: Deck) -> &'static str {
    match deck {
        Deck::Troop => "a troop card",
        Deck::Tactics => "a tactics card",
    }
}

/// A formation's strength in words: `Skirmish Line 15`, `sum 24` under
/// Fog.
fn strength_text(s: Strength) -> String {
    let class = match s.class() {
        Some(FormationClass::Host) => "Host",
        Some(FormationClass::Battalion) => "Battalion",
        Some(FormationClass::SkirmishLine) => "Skirmish Line",
        Some(FormationClass::Phalanx) => "Phalanx",
        Some(FormationClass::Wedge) => "Wedge",
        None => "sum",
    };
    format!("{class} {}", s.sum())
}

/// A side of `flag` in words: its formation when complete, its cards.
fn side_text(o: &Observation, flag: FlagId, player: PlayerId) -> String {
    let f = o.table.flag(flag);
    let cards: Vec<String> = f.side(player).iter().map(|c| c.to_string()).collect();
    let cards = if cards.is_empty() {
        "no card".to_owned()
    } else {
        cards.join(" ")
    };
    match f.strength(player, o.rules.formation_order) {
        Some(s) => format!("{} ({cards})", strength_text(s)),
        None => cards,
    }
}

/// Why `claimant` won `flag`, in words, from the table after the claim.
fn proof(o: &Observation, flag: FlagId, claimant: PlayerId) -> String {
    let viewer = o.viewer;
    let f = o.table.flag(flag);
    let other = claimant.other();
    let theirs = if other == viewer { "your " } else { "" };
    let mine = side_text(o, flag, claimant);
    let against = side_text(o, flag, other);
    if f.claimed() != Some(claimant) {
        return format!("not won: {mine} against {theirs}{against}");
    }
    let order = o.rules.formation_order;
    match (f.strength(claimant, order), f.strength(other, order)) {
        (Some(a), Some(b)) if a == b => {
            format!("{mine} ties {theirs}{against} and was complete first")
        }
        (_, Some(_)) => format!("{mine} beats {theirs}{against}"),
        _ => format!("{mine}; no cards still to come can make {theirs}{against} beat it"),
    }
}

/// See the module documentation.
pub(crate) fn narrate(
    viewer: PlayerId,
    _before: &Observation,
    view: &ActionView,
    after: &Observation,
) -> String {
    match *view {
        ActionView::Public {
            player,
            action: Action::Claim(flag),
        } => format!(
            "{}: claim {flag}: {}",
            who(player, viewer),
            proof(after, flag, player)
        ),
        // The opponent's card a guile tactic takes is the viewer's own.
        ActionView::Public {
            player,
            action: Action::Deserter { card },
        } if player != viewer => format!("{player}: Deserter discards your {card}"),
        ActionView::Public {
            player,
            action: Action::Traitor { card, to },
        } if player != viewer => format!("{player}: Traitor takes your {card} to {to}"),
        ActionView::Public { player, action } => format!("{}: {action}", who(player, viewer)),
        ActionView::Dealt { to, card: Some(c) } if to == viewer => format!("you are dealt {c}"),
        ActionView::Dealt { to, .. } => format!("{to} is dealt a troop card"),
        ActionView::Drew {
            player,
            card: Some(c),
            ..
        } => format!("{} drew {c}", who(player, viewer)),
        ActionView::Drew { player, deck, .. } => format!("{player} drew {}", deck_card(deck)),
        ActionView::Returned {
            player,
            deck,
            card: Some(c),
        } => format!("{} returned {c} on top of the {deck}", who(player, viewer)),
        ActionView::Returned { player, deck, .. } => {
            format!("{player} returned a card on top of the {deck}")
        }
    }
}
