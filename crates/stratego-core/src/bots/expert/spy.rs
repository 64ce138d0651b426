//! The Spy's discipline: a rule over the search's choice at the root.
//!
//! The search plays in determinisations where the expert knows every
//! piece, so it moves the Spy as freely as any piece and sends it at
//! pieces a determinisation made up (a bomb, most often). Against
//! peternlewis (UCC 2012's winner) the Spy died in 91 games of 100, two
//! thirds of the time hidden but moved: a piece that has moved is no
//! bomb, and an opponent who keeps the kinds each piece may still be
//! strikes it with any piece he knows beats every movable kind left
//! (docs/strength.md, "The Spy kept still"). So the Spy attacks only a
//! piece it is known to beat (the Marshal), and while hidden and unmoved
//! it stays so; once seen or moved it may still step away from danger.

use crate::action::Action;
use crate::observation::{ObsCell, Observation};
use crate::variant::Fight;

/// Whether the expert holds `action` back (while it has another move): a
/// move of its Spy that strikes no piece known to lose to it, and either
/// attacks or gives away a Spy still hidden and unmoved.
pub(super) fn withheld(obs: &Observation, action: &Action) -> bool {
    let Action::Move(m) = action else {
        return false;
    };
    let variant = obs.rules.variant;
    let spy = variant.spy();
    let ObsCell::Own {
        kind,
        moved,
        revealed,
        ..
    } = obs.cell(m.from)
    else {
        return false;
    };
    if kind != spy {
        return false;
    }
    match obs.cell(m.to) {
        ObsCell::Foe {
            kind: Some(foe), ..
        } if variant.fight(spy, foe) == Fight::AttackerWins => false,
        ObsCell::Foe { .. } => true,
        _ => !moved && !revealed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Move;
    use crate::kind::Kind;
    use crate::position::PositionBuilder;
    use crate::rules::Rules;
    use crate::square::Square;
    use crate::state::Piece;
    use game_traits::{Game, PlayerId};

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn step(from: &str, to: &str) -> Action {
        Action::Move(Move {
            from: sq(from),
            to: sq(to),
        })
    }

    fn position(spy_moved: bool) -> Observation {
        let rules = Rules::classic();
        let mut spy = Piece::new(PlayerId::P0, rules.variant.spy());
        if spy_moved {
            spy = spy.moved();
        }
        PositionBuilder::new(rules)
            .piece(sq("e4"), spy)
            .piece(
                sq("e5"),
                Piece::new(PlayerId::P1, Kind::R0).moved().revealed(),
            )
            .piece(sq("f4"), Piece::new(PlayerId::P1, Kind::R6))
            .piece(sq("d4"), Piece::new(PlayerId::P0, Kind::R4))
            .piece(sq("a1"), Piece::new(PlayerId::P0, Kind::FLAG))
            .piece(sq("j10"), Piece::new(PlayerId::P1, Kind::FLAG))
            .build()
            .unwrap()
            .observation(PlayerId::P0)
    }

    #[test]
    fn the_expert_s_spy_strikes_only_the_marshal_and_stays_hidden_unmoved() {
        let still = position(false);
        assert!(
            !withheld(&still, &step("e4", "e5")),
            "the Spy strikes the known Marshal"
        );
        assert!(
            withheld(&still, &step("e4", "f4")),
            "not a piece it may lose to"
        );
        assert!(
            withheld(&still, &step("e4", "e3")),
            "hidden and unmoved, it stays"
        );
        assert!(
            !withheld(&still, &step("d4", "c4")),
            "other pieces move freely"
        );
        let moved = position(true);
        assert!(
            !withheld(&moved, &step("e4", "e3")),
            "once moved it may step away"
        );
        assert!(
            withheld(&moved, &step("e4", "f4")),
            "and still strikes only the Marshal"
        );
    }
}
