//! What each player sees of an action: plays, tactics, claims, passes and
//! the choice of deck are public; a dealt or drawn card only for its
//! receiver; a card Scout returns only for the player who returns it.

use battleline_core::{
    Action, ActionView, BattleLine, Card, Colour, Deck, Game, GameRng, PlayerId, Rules, Turn,
};
use rand::{Rng, SeedableRng};

#[test]
fn rule_view_the_deal_shows_a_card_to_its_receiver_only() {
    let mut s = BattleLine::new(&Rules::default()).unwrap();
    let r7 = Action::Deal(Card::troop(Colour::Red, 7).unwrap());
    assert_eq!(
        s.action_view(PlayerId::P1, r7).to_string(),
        "P0 is dealt a troop card"
    );
    assert_eq!(
        s.action_view(PlayerId::P0, r7).to_string(),
        "P0 is dealt R7"
    );
    s.apply(r7).unwrap();
    let b2 = Action::Deal(Card::troop(Colour::Blue, 2).unwrap());
    assert_eq!(
        s.action_view(PlayerId::P0, b2),
        ActionView::Dealt {
            to: PlayerId::P1,
            card: None
        }
    );
}

/// Every view of every action of some random games, as `check` sees it.
fn each_view(
    rules: Rules,
    games: u64,
    mut check: impl FnMut(&BattleLine, Action, PlayerId, ActionView),
) {
    let mut legal = Vec::new();
    for seed in 0..games {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut s = BattleLine::new(&rules).unwrap();
        while s.turn() != Turn::Terminal {
            let a = match s.turn() {
                Turn::Chance => s.sample_chance(&mut rng).unwrap(),
                _ => {
                    s.legal_actions(&mut legal);
                    legal[rng.random_range(0..legal.len())]
                }
            };
            for viewer in PlayerId::all() {
                check(&s, a, viewer, s.action_view(viewer, a));
            }
            s.apply(a).unwrap();
        }
    }
}

#[test]
fn rule_view_draws_show_the_card_to_the_drawer_only_and_the_deck_to_both() {
    let mut hidden = 0;
    each_view(Rules::default(), 20, |s, a, viewer, view| {
        if let (
            Action::Deal(card),
            ActionView::Drew {
                player,
                deck,
                card: shown,
            },
        ) = (a, view)
        {
            assert_eq!(player, s.table().player());
            assert_eq!(deck, card.deck());
            assert_eq!(shown, (viewer == player).then_some(card));
            hidden += shown.is_none() as u32;
            let text = view.to_string();
            assert!(
                shown.is_some()
                    || text.ends_with("drew a troop card")
                    || text.ends_with("drew a tactics card"),
                "{text}"
            );
        }
    });
    assert!(hidden > 0);
}

#[test]
fn rule_view_scout_returns_show_the_deck_but_not_the_card_to_the_opponent() {
    let mut returns = 0;
    each_view(Rules::default(), 200, |s, a, viewer, view| {
        if let Action::Return(card) = a {
            let player = s.table().player();
            let deck = card.deck();
            let shown = (viewer == player).then_some(card);
            assert_eq!(
                view,
                ActionView::Returned {
                    player,
                    deck,
                    card: shown
                }
            );
            returns += 1;
        }
    });
    assert!(returns > 0, "no Scout was played");
}

#[test]
fn rule_view_plays_tactics_claims_and_draw_choices_are_public() {
    let mut targets = 0;
    each_view(Rules::movable_environment(), 40, |s, a, _, view| {
        if !matches!(a, Action::Deal(_) | Action::Return(_)) {
            assert_eq!(
                view,
                ActionView::Public {
                    player: s.table().player(),
                    action: a
                }
            );
            targets += matches!(
                a,
                Action::Deserter { .. } | Action::Traitor { .. } | Action::Redeploy { .. }
            ) as u32;
        }
    });
    assert!(targets > 0);
    let draw = ActionView::Public {
        player: PlayerId::P1,
        action: Action::Draw(Deck::Tactics),
    };
    assert_eq!(draw.to_string(), "P1: draw from the tactics deck");
}

#[test]
fn the_legend_explains_every_code_of_the_renderings() {
    use battleline_core::{Tactic, LEGEND};
    for t in Tactic::ALL {
        let code = battleline_core::Card::tactic(t).to_string();
        assert!(LEGEND.contains(&code), "{code} is not in the legend");
    }
    for word in [
        "won by",
        "complete first",
        "fog",
        "mud",
        "discards",
        " . ",
        "returned on top of the decks by you",
        "known in the opponent's hand",
        "settled by the end rule",
        "claim or draw",
    ] {
        assert!(LEGEND.contains(word), "{word:?} is not in the legend");
    }
}
