//! An action told to one player in words ([`Game::narrate`]): who moved,
//! and for an attack what the fight showed him (`e6xe5, General (2) takes
//! your Major (4)`, `your Scout (9) lost to an unknown piece`), read from
//! his observations either side of it only.
//!
//! [`Game::narrate`]: game_traits::Game::narrate

use game_traits::PlayerId;

use crate::action::Move;
use crate::kind::Kind;
use crate::observation::{ObsCell, Observation};
use crate::view::ActionView;

/// `player` as `viewer` calls him.
fn who(player: PlayerId, viewer: PlayerId) -> String {
    if player == viewer {
        "you".to_owned()
    } else {
        player.to_string()
    }
}

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

/// How a fight ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    AttackerWins,
    DefenderWins,
    BothLeave,
}

/// The attack `m` of `attacker` on `defender`'s piece, told to the viewer.
fn fight(before: &Observation, after: &Observation, m: Move, attacker: PlayerId) -> String {
    let viewer = before.viewer;
    let defender = attacker.other();
    let result = match owner(after, after.cell(m.to)) {
        Some(p) if p == attacker => Ending::AttackerWins,
        Some(_) => Ending::DefenderWins,
        None => Ending::BothLeave,
    };
    let survivor = kind(after.cell(m.to));
    let attacking = kind(before.cell(m.from)).or(match result {
        Ending::AttackerWins => survivor,
        Ending::DefenderWins | Ending::BothLeave => publicly_lost(before, after, attacker),
    });
    let defending = kind(before.cell(m.to)).or(match result {
        Ending::DefenderWins => survivor,
        Ending::AttackerWins | Ending::BothLeave => publicly_lost(before, after, defender),
    });
    let name = |player: PlayerId, k: Option<Kind>| {
        let mine = if player == viewer { "your " } else { "" };
        match k {
            Some(k) => format!("{mine}{}", before.rules.variant.name(k)),
            None if player == viewer => "your piece".to_owned(),
            None => "an unknown piece".to_owned(),
        }
    };
    let (a, d) = (name(attacker, attacking), name(defender, defending));
    let told = match result {
        Ending::AttackerWins => format!("{a} takes {d}"),
        Ending::DefenderWins => format!("{a} lost to {d}"),
        Ending::BothLeave => format!("{a} and {d} both leave the board"),
    };
    format!("{}: {}x{}, {told}", who(attacker, viewer), m.from, m.to)
}

/// See the module documentation.
pub(crate) fn narrate(
    viewer: PlayerId,
    before: &Observation,
    view: &ActionView,
    after: &Observation,
) -> String {
    match *view {
        ActionView::Place {
            player,
            kind: Some(_),
            ..
        } => format!("{}: {view}", who(player, viewer)),
        ActionView::Place { .. } => view.to_string(),
        ActionView::Start(p) if p == viewer => "drawn: you move first".to_owned(),
        ActionView::Start(_) => view.to_string(),
        ActionView::Move(m) => {
            let mover = owner(before, before.cell(m.from)).unwrap_or(before.to_move);
            if owner(before, before.cell(m.to)).is_some() {
                return fight(before, after, m, mover);
            }
            // A long move shows the mover's kind; name it when it is news.
            let shown = match (before.cell(m.from), after.cell(m.to)) {
                (ObsCell::Foe { kind: None, .. }, ObsCell::Foe { kind: Some(k), .. }) => {
                    format!(", a {}", before.rules.variant.name(k))
                }
                _ => String::new(),
            };
            format!("{}: {m}{shown}", who(mover, viewer))
        }
    }
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

    /// Everything told to the first player while both armies are set up
    /// (his from seed 1, the opponent's from `theirs`) and over his first
    /// few moves, none of them an attack.
    fn told_to_p0(theirs: u64) -> Vec<String> {
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
            told.push(narrate(
                PlayerId::P0,
                &before,
                &view,
                &game.observation(PlayerId::P0),
            ));
        }
        told
    }

    #[test]
    fn the_opponents_hidden_pieces_never_change_what_is_told() {
        let told = told_to_p0(2);
        assert_eq!(
            told.iter()
                .filter(|t| t.starts_with("P1 places a piece on "))
                .count(),
            40
        );
        assert!(told.last().unwrap().starts_with("you: "), "{told:?}");
        for theirs in 3..8 {
            assert_eq!(
                told_to_p0(theirs),
                told,
                "opponent's setup from seed {theirs}"
            );
        }
    }
}
