//! What a player can tell of the actions he did not choose.

use game_traits::{Game, PlayerId, Turn};

/// Whether `viewer` learns exactly which action `action` was when it is
/// played in `state`: his own decisions always; another's decision or a
/// chance outcome only when every other action legal there would have left
/// him a different observation. So printing a visible action gives away
/// nothing his observation does not already tell him.
pub fn visible_to<G: Game>(state: &G, action: G::Action, viewer: PlayerId) -> bool {
    if state.turn() == Turn::Player(viewer) {
        return true;
    }
    let after = |a: G::Action| {
        let mut next = state.clone();
        next.apply(a).ok().map(|()| next.observation(viewer))
    };
    let Some(seen) = after(action) else {
        return false;
    };
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    legal
        .iter()
        .filter(|&&other| other != action)
        .all(|&other| after(other).as_ref() != Some(&seen))
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_traits::kuhn::{Card, KuhnAction, KuhnPoker};

    #[test]
    fn own_cards_and_public_bets_are_visible_the_other_card_is_not() {
        let mut state = KuhnPoker::new(&Default::default()).unwrap();
        let deal0 = KuhnAction::Deal(Card::King);
        assert!(visible_to(&state, deal0, PlayerId::P0));
        assert!(!visible_to(&state, deal0, PlayerId::P1));
        state.apply(deal0).unwrap();
        state.apply(KuhnAction::Deal(Card::Jack)).unwrap();
        assert!(visible_to(&state, KuhnAction::Bet, PlayerId::P1));
        assert!(visible_to(&state, KuhnAction::Pass, PlayerId::P0));
    }
}
