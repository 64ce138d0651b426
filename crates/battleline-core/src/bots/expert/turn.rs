//! The steps of a turn that need no search: which deck to draw from and
//! what to give back after Scout.

use game_traits::PlayerId;

use crate::action::Action;
use crate::card::{CardKind, Deck};
use crate::observation::Observation;

/// The decision when it needs no search: the only legal action, a claim
/// (a proved flag is won for good), the draw, the returns after Scout;
/// `None` when a card is to be played. A tactics card is drawn only once
/// the troop deck holds `tactics_from` cards or fewer (`None`: at any
/// time; see [`draw`]).
pub(crate) fn by_rule(
    obs: &Observation,
    legal: &[Action],
    tactics_from: Option<usize>,
) -> Option<Action> {
    if let [only] = legal {
        return Some(*only);
    }
    if let Some(&claim) = legal.iter().find(|a| matches!(a, Action::Claim(_))) {
        return Some(claim);
    }
    if legal.iter().any(|a| matches!(a, Action::Draw(_))) {
        return Some(draw(obs, legal, tactics_from));
    }
    if legal.iter().any(|a| matches!(a, Action::Return(_))) {
        return Some(give_back(legal));
    }
    None
}

/// Draws a tactics card when the hand holds none, one could be played
/// (the tactics limit allows it) and the troop deck is down to
/// `tactics_from` cards (any time when `None`), a troop card otherwise.
/// A tactics card drawn early may hold a troop card's place in the hand
/// for many turns (the likely cause, not measured); the expert drawing
/// them only in the last dozen troop cards beat `prob` by 10 to 15 points
/// more (docs/strength.md, "Tactics drawn late").
fn draw(obs: &Observation, legal: &[Action], tactics_from: Option<usize>) -> Action {
    let me: PlayerId = obs.viewer();
    let table = obs.table();
    let holds_tactic = obs.hand().iter().any(|c| !c.is_troop());
    let may_play = table.tactics_played(me) <= table.tactics_played(me.other());
    let late = tactics_from.is_none_or(|n| obs.deck_len(Deck::Troop) <= n);
    let want = if !holds_tactic && may_play && late {
        Deck::Tactics
    } else {
        Deck::Troop
    };
    let pick = [Action::Draw(want), Action::Draw(Deck::Troop)];
    pick.into_iter()
        .find(|a| legal.contains(a))
        .unwrap_or(legal[0])
}

/// After Scout: gives back the lowest troop cards (the opponent may draw
/// them next), tactics cards only when no troop is left to return.
fn give_back(legal: &[Action]) -> Action {
    let rank = |a: &Action| match a {
        Action::Return(c) => match c.kind() {
            CardKind::Troop(_, v) => i32::from(v),
            CardKind::Tactic(_) => 20,
        },
        _ => 100,
    };
    *legal.iter().min_by_key(|a| rank(a)).unwrap_or(&legal[0])
}
