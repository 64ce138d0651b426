//! Zobrist keys of full (determinised) states for the search's
//! transposition table: every square's whole cell (owner, kind, moved,
//! revealed) and the player to move. The engine's own position hash keys
//! only which player stands where (all the more-squares rule needs); the
//! search must tell a Marshal from a bomb, and a known piece from an
//! unknown one, since the evaluation does.

use game_traits::PlayerId;

use crate::action::Move;
use crate::square::Square;
use crate::state::Stratego;

/// Cell encodings (`Cell::bits`) fit in a byte.
const CELL_VALUES: usize = 256;

/// One key per (square index, cell bits).
static KEYS: [[u64; CELL_VALUES]; 100] = key_table();

/// The key of the second player to move.
const SECOND_TO_MOVE: u64 = 0x2545_f491_4f6c_dd1d;

const fn key_table() -> [[u64; CELL_VALUES]; 100] {
    let mut t = [[0u64; CELL_VALUES]; 100];
    let mut state: u64 = 0x0dd5_7a7e_90b1_4c3b;
    let mut sq = 0;
    while sq < 100 {
        let mut bits = 1;
        // An empty square (bits 0) adds nothing, so the key of a state
        // is the keys of its pieces alone.
        while bits < CELL_VALUES {
            // splitmix64
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            t[sq][bits] = z ^ (z >> 31);
            bits += 1;
        }
        sq += 1;
    }
    t
}

/// The key of what stands on `sq` in `state`.
#[inline(always)]
fn square_key(state: &Stratego, sq: Square) -> u64 {
    KEYS[sq.index()][usize::from(state.board[sq.pad()].bits())]
}

/// The key of `state`, computed from scratch.
pub(crate) fn key(state: &Stratego) -> u64 {
    let side = match state.to_move() {
        PlayerId::P0 => 0,
        PlayerId::P1 => SECOND_TO_MOVE,
    };
    Square::all().fold(side, |k, sq| k ^ square_key(state, sq))
}

/// The key of `after`, the state `before` (of key `k`) after the move
/// `m`: a move changes only its two squares and the player to move.
#[inline]
pub(crate) fn after_move(k: u64, before: &Stratego, after: &Stratego, m: Move) -> u64 {
    k ^ square_key(before, m.from)
        ^ square_key(after, m.from)
        ^ square_key(before, m.to)
        ^ square_key(after, m.to)
        ^ SECOND_TO_MOVE
}

#[cfg(test)]
mod tests {
    use game_traits::{Game, GameRng};
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::action::Action;
    use crate::rules::Rules;
    use crate::setup::Setup;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The key kept move by move equals the key recomputed, along
        /// random games of every rule set (fights, reveals and long moves
        /// included).
        #[test]
        fn incremental_key_matches_recomputed_key(seed in any::<u64>(), set in 0usize..3) {
            let rules = [Rules::classic(), Rules::srazhenie(), Rules::czech()][set];
            let mut rng = GameRng::seed_from_u64(seed);
            let own = Setup::smart(rules.variant, &mut rng);
            let foe = Setup::smart(rules.variant, &mut rng);
            let mut state = Stratego::new_with_setups(&rules, &own, &foe).unwrap();
            let mut k = key(&state);
            let mut legal = Vec::new();
            for _ in 0..300 {
                if state.end().is_some() {
                    break;
                }
                state.legal_actions(&mut legal);
                let Action::Move(m) = legal[rng.random_range(0..legal.len())] else {
                    unreachable!("only moves in play")
                };
                let mut next = state.clone();
                next.apply_unchecked(Action::Move(m));
                k = after_move(k, &state, &next, m);
                state = next;
                prop_assert_eq!(k, key(&state));
            }
        }
    }

    #[test]
    fn keys_tell_kinds_and_knowledge_apart() {
        let rules = Rules::classic();
        let mut rng = GameRng::seed_from_u64(1);
        let own = Setup::smart(rules.variant, &mut rng);
        let foe = Setup::smart(rules.variant, &mut rng);
        let state = Stratego::new_with_setups(&rules, &own, &foe).unwrap();
        let sq = Square::all().find(|&s| state.piece(s).is_some()).unwrap();
        let mut other = state.clone();
        other.board[sq.pad()] = other.board[sq.pad()].with_revealed();
        assert_ne!(key(&state), key(&other));
    }
}
