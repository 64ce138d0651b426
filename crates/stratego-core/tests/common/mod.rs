//! Helpers shared by the rule tests.
#![allow(dead_code)]

use game_traits::rand::{Rng, SeedableRng};
use game_traits::{Game, GameRng};
use stratego_core::{Action, Kind, Move, Rules, Square, Stratego};

pub fn sq(name: &str) -> Square {
    name.parse().expect("square name")
}

pub fn mv(from: &str, to: &str) -> Action {
    Action::Move(Move {
        from: sq(from),
        to: sq(to),
    })
}

/// A position from (square, owner, kind) triples.
pub fn pos(rules: Rules, pieces: &[(&str, u8, Kind)], to_move: u8) -> Stratego {
    let list: Vec<(Square, u8, Kind)> = pieces.iter().map(|&(s, o, k)| (sq(s), o, k)).collect();
    Stratego::from_position(&rules, &list, to_move).expect("valid position")
}

/// Applies moves given as "e3-e4" strings, panicking with the board when one
/// is refused.
pub fn play(g: &mut Stratego, moves: &[&str]) {
    for m in moves {
        let (a, b) = m.split_once('-').expect("from-to");
        if let Err(e) = g.apply(mv(a, b)) {
            panic!("{m}: {e}\n{g}");
        }
    }
}

/// Targets of the piece on `from` among the legal moves.
pub fn targets(g: &Stratego, from: &str) -> Vec<String> {
    g.legal_moves()
        .into_iter()
        .filter(|m| m.from == sq(from))
        .map(|m| m.to.to_string())
        .collect()
}

/// A random game stopped after `steps` actions (setup included); every
/// listed action must apply.
pub fn random_state(rules: Rules, seed: u64, steps: usize) -> Stratego {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut g = Stratego::new(&rules).expect("valid rules");
    let mut legal = Vec::new();
    for _ in 0..steps {
        if g.is_terminal() {
            break;
        }
        g.legal_actions(&mut legal);
        let a = legal[rng.random_range(0..legal.len())];
        g.apply(a).expect("a listed action applies");
    }
    g
}
