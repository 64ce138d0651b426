//! The more-squares rule (continuous chase, ISF): public knowledge, it
//! depends only on the moves made, never on hidden ranks.

use game_traits::PlayerId;
use serde::{Deserialize, Serialize};

use crate::action::Move;
use crate::square::{Square, PADDED, PW};
use crate::state::Stratego;

/// A continuous chase in progress (more-squares rule): the
/// [`chaser`](Chase::chaser) keeps threatening the piece that evaded last,
/// now on [`evader`](Chase::evader). The positions seen since the chase
/// began are kept as hashes of which player occupies which square
/// ([`Stratego::position_hash`]), the last one the current position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Chase {
    /// The chasing player.
    pub(crate) chaser: PlayerId,
    /// Square of the evading piece.
    pub(crate) evader: Square,
    /// Hashes of the positions of the chase so far, oldest first.
    pub(crate) positions: Vec<u64>,
}

impl Chase {
    /// A chase by `chaser` of the piece on `evader`, with the hashes of
    /// the positions seen so far ([`Stratego::position_hash`]), oldest
    /// first; the position builder checks them against the position.
    pub fn new(chaser: PlayerId, evader: Square, positions: Vec<u64>) -> Chase {
        Chase {
            chaser,
            evader,
            positions,
        }
    }

    /// The chasing player.
    pub fn chaser(&self) -> PlayerId {
        self.chaser
    }

    /// Square of the piece that evaded last.
    pub fn evader(&self) -> Square {
        self.evader
    }

    /// Hashes of the positions of the chase, oldest first, the last one the
    /// current position.
    pub fn positions(&self) -> &[u64] {
        &self.positions
    }
}

/// Whether two squares are orthogonal neighbours.
pub(crate) fn ortho_adjacent(a: Square, b: Square) -> bool {
    let d = (a.pad() as i32 - b.pad() as i32).abs();
    d == 1 || d == PW as i32
}

const fn zobrist_table() -> [[u64; PADDED]; 2] {
    let mut t = [[0u64; PADDED]; 2];
    let mut state: u64 = 0x5172_a7e6_0c0f_fee1;
    let mut p = 0;
    while p < 2 {
        let mut i = 0;
        while i < PADDED {
            // splitmix64
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            t[p][i] = z ^ (z >> 31);
            i += 1;
        }
        p += 1;
    }
    t
}

/// Hash keys of "a piece of player p on square i" for position hashes.
const ZOBRIST: [[u64; PADDED]; 2] = zobrist_table();

/// The hash key of a piece of `player` on `sq`.
#[inline(always)]
pub(crate) fn zobrist(player: PlayerId, sq: Square) -> u64 {
    ZOBRIST[player.index()][sq.pad()]
}

impl Stratego {
    /// Whether the more-squares rule forbids `mv` for `p`: a chasing move
    /// into a position the chase has already seen, unless it goes straight
    /// back to where the piece came from.
    #[inline]
    pub(crate) fn chase_forbids(&self, p: PlayerId, mv: Move) -> bool {
        match &self.chase {
            Some(c) if c.chaser == p && self.board[mv.to.pad()] == crate::cell::Cell::EMPTY => {
                let back = self.last_move[p]
                    == Some(Move {
                        from: mv.to,
                        to: mv.from,
                    });
                ortho_adjacent(mv.to, c.evader)
                    && !back
                    && c.positions
                        .contains(&(self.hash ^ zobrist(p, mv.from) ^ zobrist(p, mv.to)))
            }
            _ => false,
        }
    }

    /// Follows the chase after the non-fighting move `m` of `p` (already
    /// applied; `hash_before` is the position before it).
    pub(crate) fn update_chase(&mut self, p: PlayerId, m: Move, hash_before: u64) {
        let q = p.other();
        let threat = self.last_move[q]
            .filter(|lm| self.board[lm.to.pad()].is_piece_of(q) && ortho_adjacent(lm.to, m.from));
        if threat.is_some() {
            match &mut self.chase {
                Some(c) if c.chaser == q => {
                    c.evader = m.to;
                    c.positions.push(self.hash);
                }
                _ => {
                    self.chase = Some(Chase {
                        chaser: q,
                        evader: m.to,
                        positions: vec![hash_before, self.hash],
                    })
                }
            }
            return;
        }
        match &mut self.chase {
            Some(c) if c.chaser == p && ortho_adjacent(m.to, c.evader) => {
                c.positions.push(self.hash)
            }
            _ => self.chase = None,
        }
    }
}
