//! Actions read from text (`FromStr` round-trips `Display`, and the short
//! forms a person types) and told in words (`Game::narrate`): a fight
//! names each piece only as far as the viewer may know it.

use game_traits::{Game, PlayerId};
use stratego_core::{
    czech, srazhenie, Action, Kind, Move, ParseActionError, Piece, PositionBuilder, Rules, Stratego,
};

fn every_rule_set() -> [Rules; 4] {
    [
        Rules::classic(),
        Rules::srazhenie(),
        Rules::srazhenie_runner_soldiers(),
        Rules::czech(),
    ]
}

#[test]
fn every_action_round_trips_its_display() {
    for rules in every_rule_set() {
        for id in 0..Action::space(&rules) {
            let a = Action::from_id(&rules, id).unwrap();
            assert_eq!(a.to_string().parse::<Action>(), Ok(a), "{rules:?} id {id}");
            assert_eq!(a.to_string().to_uppercase().parse::<Action>(), Ok(a));
        }
    }
}

#[test]
fn short_move_forms_are_accepted() {
    let m = |from: &str, to: &str| {
        Action::Move(Move {
            from: from.parse().unwrap(),
            to: to.parse().unwrap(),
        })
    };
    for text in ["e4e5", "e4-e5", "E4 E5", "e4xe5", " e4 - e5 ", "E4E5"] {
        assert_eq!(text.parse(), Ok(m("e4", "e5")), "{text}");
    }
    assert_eq!("e10e9".parse(), Ok(m("e10", "e9")));
    assert_eq!("a10 j10".parse(), Ok(m("a10", "j10")));
    assert_eq!("place 3".parse(), "place#3".parse::<Action>());
    assert_eq!("start p1".parse(), Ok(Action::Start(PlayerId::P1)));
}

#[test]
fn unreadable_actions_get_a_typed_error() {
    assert_eq!("  ".parse::<Action>(), Err(ParseActionError::Empty));
    assert!(matches!(
        "z9z8".parse::<Action>(),
        Err(ParseActionError::NotASquare(_))
    ));
    assert!(matches!(
        "e4".parse::<Action>(),
        Err(ParseActionError::Unrecognised(_))
    ));
    assert!(matches!(
        "e4 e5 e6".parse::<Action>(),
        Err(ParseActionError::Unrecognised(_))
    ));
    assert!(matches!(
        "place#12".parse::<Action>(),
        Err(ParseActionError::NotAKind(_))
    ));
    assert!(matches!(
        "start#P2".parse::<Action>(),
        Err(ParseActionError::NotASeat(_))
    ));
    assert!("e4-e11".parse::<Action>().is_err());
    assert!("é4-e5".parse::<Action>().is_err());
}

/// `action` in `state` told to `viewer`.
fn told(state: &Stratego, viewer: PlayerId, action: Action) -> String {
    let before = state.observation(viewer);
    let view = state.action_view(viewer, action);
    let mut after = state.clone();
    after.apply(action).unwrap();
    Stratego::narrate(viewer, &before, &view, &after.observation(viewer))
}

/// A position with P1's `attacker` on e6 and P0's `defender` on e5, both
/// unrevealed, P1 to move (a piece more each keeps the game on).
fn duel(rules: Rules, attacker: Piece, defender: Piece, flag: Kind) -> Stratego {
    let sq = |s: &str| s.parse().unwrap();
    PositionBuilder::new(rules)
        .piece(sq("a1"), Piece::new(PlayerId::P0, flag))
        .piece(sq("j10"), Piece::new(PlayerId::P1, flag))
        .piece(sq("a2"), Piece::new(PlayerId::P0, Kind::R6).moved())
        .piece(sq("j9"), Piece::new(PlayerId::P1, Kind::R6).moved())
        .piece(sq("e6"), attacker)
        .piece(sq("e5"), defender)
        .to_move(PlayerId::P1)
        .build()
        .unwrap()
}

#[test]
fn fight_narration_names_known_pieces_only() {
    let attack: Action = "e6-e5".parse().unwrap();
    // Srazhenie shows both pieces of a fight to both players.
    let game = duel(
        Rules::srazhenie(),
        Piece::new(PlayerId::P1, srazhenie::GENERAL).moved(),
        Piece::new(PlayerId::P0, srazhenie::MAJOR),
        srazhenie::FLAG,
    );
    assert_eq!(
        told(&game, PlayerId::P0, attack),
        "P1: e6xe5, General (2) takes your Major (4)"
    );
    assert_eq!(
        told(&game, PlayerId::P1, attack),
        "you: e6xe5, your General (2) takes Major (4)"
    );
    let lost = duel(
        Rules::srazhenie(),
        Piece::new(PlayerId::P1, srazhenie::SCOUT).moved(),
        Piece::new(PlayerId::P0, srazhenie::MAJOR),
        srazhenie::FLAG,
    );
    assert_eq!(
        told(&lost, PlayerId::P1, attack),
        "you: e6xe5, your Scout (10) lost to Major (4)"
    );
    // Czech: the attacker does not tell its kind, win or lose.
    let czech_win = duel(
        Rules::czech(),
        Piece::new(PlayerId::P1, czech::GENERAL).moved(),
        Piece::new(PlayerId::P0, czech::KADET),
        czech::PRAPOR,
    );
    assert_eq!(
        told(&czech_win, PlayerId::P0, attack),
        "P1: e6xe5, an unknown piece takes your Kadet"
    );
    assert_eq!(
        told(&czech_win, PlayerId::P1, attack),
        "you: e6xe5, your Generál takes Kadet"
    );
    let czech_loss = duel(
        Rules::czech(),
        Piece::new(PlayerId::P1, czech::STRELEC).moved(),
        Piece::new(PlayerId::P0, czech::GENERAL),
        czech::PRAPOR,
    );
    assert_eq!(
        told(&czech_loss, PlayerId::P0, attack),
        "P1: e6xe5, an unknown piece lost to your Generál"
    );
}

#[test]
fn placements_name_the_piece_and_its_square() {
    let game = Stratego::new(&Rules::classic()).unwrap();
    let place: Action = "place#8".parse().unwrap();
    assert_eq!(
        told(&game, PlayerId::P0, place),
        "you: place Scout (2) on a4"
    );
    assert_eq!(told(&game, PlayerId::P1, place), "P0 places a piece on a4");
}
