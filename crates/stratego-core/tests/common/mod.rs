//! Helpers shared by the rule tests.
#![allow(dead_code)]

use game_traits::rand::{Rng, SeedableRng};
use game_traits::{Game, GameRng, PlayerId};
use stratego_core::{Action, Kind, Move, Piece, PositionBuilder, Rules, Square, Stratego};

pub fn sq(name: &str) -> Square {
    name.parse().expect("square name")
}

pub fn mv(from: &str, to: &str) -> Action {
    Action::Move(Move {
        from: sq(from),
        to: sq(to),
    })
}

/// A position in play from (square, owner, kind) triples: the pieces have
/// not moved and are not revealed, every other piece was lost.
pub fn pos(rules: Rules, pieces: &[(&str, PlayerId, Kind)], to_move: PlayerId) -> Stratego {
    builder(rules, pieces)
        .to_move(to_move)
        .build()
        .expect("valid position")
}

/// The builder of [`pos`], for tests that set more.
pub fn builder(rules: Rules, pieces: &[(&str, PlayerId, Kind)]) -> PositionBuilder {
    pieces
        .iter()
        .fold(PositionBuilder::new(rules), |b, &(s, o, k)| {
            b.piece(sq(s), Piece::new(o, k))
        })
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

/// Owner and kind of a square's piece, the pair most rule tests compare.
/// Also whether it has moved and whether its kind is known.
pub trait Pieces {
    fn piece_of(&self, sq: Square) -> Option<(PlayerId, Kind)>;
    fn moved_at(&self, sq: Square) -> bool;
    fn revealed_at(&self, sq: Square) -> bool;
}

impl Pieces for Stratego {
    fn piece_of(&self, sq: Square) -> Option<(PlayerId, Kind)> {
        self.piece(sq).map(|p| (p.owner, p.kind))
    }
    fn moved_at(&self, sq: Square) -> bool {
        self.piece(sq).is_some_and(|p| p.moved)
    }
    fn revealed_at(&self, sq: Square) -> bool {
        self.piece(sq).is_some_and(|p| p.revealed)
    }
}
