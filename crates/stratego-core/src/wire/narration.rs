//! What an action showed one player, as events ([`Wire::events`]): who
//! moved, and for an attack what the fight showed him (both pieces as far
//! as he knows them, who fell), the end of the game and why; read from his
//! observations either side of it only. Worded by
//! [`StrategoEvent`]'s [`Event::tell`](game_traits::Event::tell)
//! (`e6xe5, General (9) takes your Major (7)`).
//!
//! [`Wire::events`]: game_traits::Wire::events

use game_traits::PlayerId;

use super::observation::end_reason;
use super::{EventPiece, FightResult, StrategoEvent};
use crate::action::Move;
use crate::kind::Kind;
use crate::observation::{ObsCell, Observation};
use crate::view::ActionView;

/// The owner of the piece on a square, as `o` sees it.
fn owner(o: &Observation, cell: ObsCell) -> Option<PlayerId> {
    match cell {
        ObsCell::Own { .. } => Some(o.viewer),
        ObsCell::Foe { .. } => Some(o.viewer.other()),
        ObsCell::Lake | ObsCell::Empty => None,
    }
}

/// The kind of the piece on a square, when `o`'s viewer knows it.
fn kind(cell: ObsCell) -> Option<Kind> {
    match cell {
        ObsCell::Own { kind, .. } => Some(kind),
        ObsCell::Foe { kind, .. } => kind,
        ObsCell::Lake | ObsCell::Empty => None,
    }
}

/// The one kind `player` lost in public between `before` and `after`.
fn publicly_lost(before: &Observation, after: &Observation, player: PlayerId) -> Option<Kind> {
    let mut lost = (0..Kind::COUNT).filter(|&k| after.lost[player][k] > before.lost[player][k]);
    match (lost.next(), lost.next()) {
        (Some(k), None) => Kind::new(k as u8),
        _ => None,
    }
}

/// The attack `m` of `attacker` on `defender`'s piece, as the viewer saw it.
fn fight(before: &Observation, after: &Observation, m: Move, attacker: PlayerId) -> StrategoEvent {
    let defender = attacker.other();
    let result = match owner(after, after.cell(m.to)) {
        Some(p) if p == attacker => FightResult::AttackerWins,
        Some(_) => FightResult::DefenderWins,
        None => FightResult::BothLeave,
    };
    let survivor = kind(after.cell(m.to));
    let attacking = kind(before.cell(m.from)).or(match result {
        FightResult::AttackerWins => survivor,
        FightResult::DefenderWins | FightResult::BothLeave => {
            publicly_lost(before, after, attacker)
        }
    });
    let defending = kind(before.cell(m.to)).or(match result {
        FightResult::DefenderWins => survivor,
        FightResult::AttackerWins | FightResult::BothLeave => {
            publicly_lost(before, after, defender)
        }
    });
    let piece = |k: Option<Kind>| k.map(|k| EventPiece::of(before.rules.variant, k));
    StrategoEvent::Fight {
        attacker,
        from: m.from.to_string(),
        to: m.to.to_string(),
        attacking: piece(attacking),
        defending: piece(defending),
        result,
    }
}

/// The action itself.
fn action(before: &Observation, view: &ActionView, after: &Observation) -> StrategoEvent {
    match *view {
        ActionView::Place {
            player,
            square,
            kind,
            variant,
        } => StrategoEvent::Placed {
            player,
            square: square.to_string(),
            piece: kind.map(|k| EventPiece::of(variant, k)),
        },
        ActionView::Start(first) => StrategoEvent::Started { first },
        ActionView::Move(m) => {
            let mover = owner(before, before.cell(m.from)).unwrap_or(before.to_move);
            if owner(before, before.cell(m.to)).is_some() {
                return fight(before, after, m, mover);
            }
            // A long move shows the mover's kind; name it when it is news.
            let shown = match (before.cell(m.from), after.cell(m.to)) {
                (ObsCell::Foe { kind: None, .. }, ObsCell::Foe { kind: Some(k), .. }) => {
                    Some(EventPiece::of(before.rules.variant, k))
                }
                _ => None,
            };
            StrategoEvent::Moved {
                player: mover,
                from: m.from.to_string(),
                to: m.to.to_string(),
                shown,
            }
        }
    }
}

/// See the module documentation.
pub(crate) fn events(
    before: &Observation,
    view: &ActionView,
    after: &Observation,
) -> Vec<StrategoEvent> {
    let mut events = vec![action(before, view, after)];
    if let (None, Some(end)) = (before.end, after.end) {
        events.push(StrategoEvent::GameOver {
            winner: end.winner,
            reason: end_reason(end.reason),
        });
    }
    events
}

#[cfg(test)]
mod tests {
    use game_traits::{Game, GameRng, Turn};
    use rand::SeedableRng;

    use super::*;
    use crate::action::Action;
    use crate::rules::Rules;
    use crate::setup::Setup;
    use crate::state::Stratego;

    /// Everything told to the first player, as events, while both armies
    /// are set up (his from seed 1, the opponent's from `theirs`) and over
    /// his first few moves, none of them an attack.
    fn told_to_p0(theirs: u64) -> Vec<Vec<StrategoEvent>> {
        let rules = Rules::default();
        let mut game = Stratego::new(&rules).unwrap();
        let setup = |seed| Setup::shuffle(rules.variant, &mut GameRng::seed_from_u64(seed));
        let mut placements = setup(1)
            .kinds()
            .iter()
            .chain(setup(theirs).kinds())
            .map(|&k| Action::Place(k))
            .collect::<Vec<_>>()
            .into_iter();
        let mut told = Vec::new();
        let mut legal = Vec::new();
        let mut moves = 0;
        while moves < 3 {
            let action = match game.turn() {
                Turn::Chance => Action::Start(PlayerId::P0),
                Turn::Player(_) if game.observation(PlayerId::P0).in_setup() => {
                    placements.next().unwrap()
                }
                Turn::Player(PlayerId::P0) => {
                    moves += 1;
                    game.legal_actions(&mut legal);
                    let o = game.observation(PlayerId::P0);
                    *legal
                        .iter()
                        .find(|a| matches!(a, Action::Move(m) if o.cell(m.to) == ObsCell::Empty))
                        .unwrap()
                }
                // The opponent's moves differ with his pieces: his first
                // move is the last action told.
                Turn::Player(_) | Turn::Terminal => break,
            };
            let before = game.observation(PlayerId::P0);
            let view = game.action_view(PlayerId::P0, action);
            game.apply(action).unwrap();
            told.push(events(&before, &view, &game.observation(PlayerId::P0)));
        }
        told
    }

    #[test]
    fn the_opponents_hidden_pieces_never_change_what_is_told() {
        let told = told_to_p0(2);
        let words: Vec<String> = told
            .iter()
            .map(|e| game_traits::tell_all(e, Some(PlayerId::P0)))
            .collect();
        assert_eq!(
            words
                .iter()
                .filter(|t| t.starts_with("P1 places a piece on "))
                .count(),
            40
        );
        assert!(words.last().unwrap().starts_with("you: "), "{words:?}");
        for theirs in 3..8 {
            assert_eq!(
                told_to_p0(theirs),
                told,
                "opponent's setup from seed {theirs}"
            );
        }
    }
}
