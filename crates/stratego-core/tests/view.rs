//! What each player sees of an action.

mod common;

use common::{mv, pos};
use game_traits::PlayerId::{P0, P1};
use game_traits::{Game, GameRng};
use rand::{Rng, SeedableRng};
use stratego_core::{classic, czech, srazhenie, Action, ActionView, Kind, Rules, Stratego};

#[test]
fn view_placements_hide_the_kind_from_the_opponent() {
    let mut g = Stratego::new(&Rules::srazhenie()).unwrap();
    let place = Action::Place(srazhenie::MARSHAL);
    assert_eq!(
        g.action_view(P0, place).to_string(),
        "place Marshal (1) on a4"
    );
    assert_eq!(
        g.action_view(P1, place).to_string(),
        "P0 places a piece on a4"
    );
    // The opponent's view is the same whatever the kind.
    assert_eq!(
        g.action_view(P1, place),
        g.action_view(P1, Action::Place(srazhenie::FLAG))
    );
    for k in [
        srazhenie::MINE,
        srazhenie::SCOUT,
        srazhenie::FLAG,
        srazhenie::MINE,
    ] {
        g.apply(Action::Place(k)).unwrap();
    }
    match g.action_view(P1, Action::Place(Kind::R5)) {
        ActionView::Place {
            player,
            square,
            kind: None,
            ..
        } => assert_eq!((player, square.to_string()), (P0, "e4".to_string())),
        v => panic!("{v:?}"),
    }
}

#[test]
fn view_placements_name_the_piece_in_the_rule_set() {
    let czech = Stratego::new(&Rules::czech()).unwrap();
    assert_eq!(
        czech
            .action_view(P0, Action::Place(czech::PRUZKUMNIK))
            .to_string(),
        "place Průzkumník on a4"
    );
    let classic = Stratego::new(&Rules::classic()).unwrap();
    assert_eq!(
        classic
            .action_view(P0, Action::Place(classic::SCOUT))
            .to_string(),
        "place Scout (2) on a4"
    );
}

#[test]
fn view_moves_and_attacks_are_public() {
    let g = pos(
        Rules::classic(),
        &[
            ("a1", P0, classic::FLAG),
            ("j10", P1, classic::FLAG),
            ("e4", P0, classic::MINER),
            ("e5", P1, classic::SPY),
        ],
        P0,
    );
    for viewer in [P0, P1] {
        assert_eq!(g.action_view(viewer, mv("e4", "e5")).to_string(), "e4-e5");
        assert_eq!(g.action_view(viewer, mv("e4", "d4")).to_string(), "e4-d4");
    }
}

/// Over random games: a view never says more than the viewer's
/// observation after the action, and the placer sees his own kind.
#[test]
fn view_agrees_with_the_observations_over_random_games() {
    for (seed, rules) in [Rules::srazhenie(), Rules::czech(), Rules::classic()]
        .into_iter()
        .enumerate()
    {
        let mut rng = GameRng::seed_from_u64(seed as u64);
        let mut g = Stratego::new(&rules).unwrap();
        let mut legal = Vec::new();
        while !g.is_terminal() && g.move_count() < 200 {
            g.legal_actions(&mut legal);
            let a = legal[rng.random_range(0..legal.len())];
            let actor = g.current_player();
            for viewer in [P0, P1] {
                match (g.action_view(viewer, a), a) {
                    (ActionView::Start(p), Action::Start(q)) => {
                        assert_eq!((p, actor), (q, None), "the draw is public");
                    }
                    (ActionView::Place { kind, player, .. }, Action::Place(k)) => {
                        assert_eq!(Some(player), actor);
                        assert_eq!(kind, (Some(viewer) == actor).then_some(k));
                    }
                    (ActionView::Move(m), Action::Move(n)) => assert_eq!(m, n),
                    (v, a) => panic!("{v:?} for {a:?}"),
                }
            }
            g.apply(a).unwrap();
        }
    }
}
