//! What one player may know, and determinisation from it.

use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::error::StrategoError;
use crate::repetition::{Chase, Series};
use crate::rules::Rules;
use crate::setup::SETUP_SQUARES;
use crate::square::Square;
use crate::state::{End, LastMove, Stratego, KIND, MOVED, OWNER, PRESENT, REVEALED, WALL};
use crate::variant::Kind;

/// One square as a player sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ObsCell {
    /// Water.
    Lake,
    /// Nothing on it.
    Empty,
    /// One of the viewer's pieces; `revealed`: the opponent knows its rank.
    Own {
        /// Its kind.
        kind: Kind,
        /// Whether it has moved.
        moved: bool,
        /// Whether the opponent knows its kind.
        revealed: bool,
    },
    /// An opponent piece: its kind only if revealed in a fight or by a long
    /// move; `moved` tells it is no mine or flag.
    Foe {
        /// The kind, when known.
        kind: Option<Kind>,
        /// Whether it has moved.
        moved: bool,
    },
}

/// Everything player `viewer` may know: his own pieces, the opponent's
/// pieces as unknown except those revealed, which pieces have moved, the
/// pieces lost by each side, and the public bookkeeping of the rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The rules.
    pub rules: Rules,
    /// The player who observes (0 or 1).
    pub viewer: u8,
    /// The 100 squares in index order.
    pub cells: Vec<ObsCell>,
    /// Pieces placed so far by each player in the setup phase.
    pub placed: [u8; 2],
    /// Player to move once play has begun.
    pub to_move: u8,
    /// Moves made since the setup.
    pub moves: u32,
    /// Moves in a row without an attack.
    pub no_attack: u16,
    /// Pieces lost by each player, per kind index.
    pub lost: [[u8; Kind::COUNT]; 2],
    /// The two-square series of each player.
    pub series: [Series; 2],
    /// The continuous chase in progress, if any.
    pub chase: Option<Chase>,
    /// The last move of each player.
    pub last_move: [Option<LastMove>; 2],
    /// The end of the game, if reached.
    pub end: Option<End>,
}

impl Stratego {
    /// The observation of player `viewer` (0 or 1).
    pub fn observe(&self, viewer: u8) -> Observation {
        let v = viewer & 1;
        let cells = Square::all()
            .map(|sq| {
                let c = self.board[sq.pad()];
                if c == WALL {
                    return ObsCell::Lake;
                }
                if c & PRESENT == 0 {
                    return ObsCell::Empty;
                }
                let kind = Kind::new(c & KIND).unwrap_or(Kind::FLAG);
                let moved = c & MOVED != 0;
                let revealed = c & REVEALED != 0;
                if (c & OWNER) >> 4 == v {
                    ObsCell::Own {
                        kind,
                        moved,
                        revealed,
                    }
                } else {
                    ObsCell::Foe {
                        kind: revealed.then_some(kind),
                        moved,
                    }
                }
            })
            .collect();
        Observation {
            rules: self.rules,
            viewer: v,
            cells,
            placed: self.placed,
            to_move: self.to_move,
            moves: self.moves,
            no_attack: self.no_attack,
            lost: self.lost,
            series: self.series,
            chase: self.chase.clone(),
            last_move: self.last_move,
            end: self.end,
        }
    }

    /// A full state consistent with `obs`: the opponent's unknown pieces get
    /// kinds drawn at random from those he has left, moved pieces only
    /// movable kinds.
    pub fn determinize_from<R: Rng + ?Sized>(
        obs: &Observation,
        rng: &mut R,
    ) -> Result<Stratego, StrategoError> {
        let bad = |why: &str| StrategoError::Observation(why.to_owned());
        obs.rules.validate()?;
        if obs.cells.len() != 100 || obs.viewer > 1 || obs.to_move > 1 {
            return Err(bad("malformed"));
        }
        let v = obs.viewer;
        let q = v ^ 1;
        let variant = obs.rules.variant;
        let mut pool = [0i32; Kind::COUNT];
        for k in Kind::ALL {
            pool[k.index()] = variant.count(k) as i32 - obs.lost[q as usize][k.index()] as i32;
        }
        let mut unknown_moved = Vec::new();
        let mut unknown_still = Vec::new();
        let mut cells = [0u8; 100];
        for (i, cell) in obs.cells.iter().enumerate() {
            cells[i] = match *cell {
                ObsCell::Lake => WALL,
                ObsCell::Empty => 0,
                ObsCell::Own {
                    kind,
                    moved,
                    revealed,
                } => piece_cell(v, kind, moved, revealed),
                ObsCell::Foe {
                    kind: Some(kind),
                    moved,
                } => {
                    pool[kind.index()] -= 1;
                    piece_cell(q, kind, moved, true)
                }
                ObsCell::Foe { kind: None, moved } => {
                    if moved {
                        unknown_moved.push(i);
                    } else {
                        unknown_still.push(i);
                    }
                    piece_cell(q, Kind::FLAG, moved, false)
                }
            };
        }
        if pool.iter().any(|&n| n < 0) {
            return Err(bad("more opponent pieces known than he has"));
        }
        let mut bag: Vec<Kind> = Vec::new();
        for k in Kind::ALL {
            bag.extend(std::iter::repeat_n(k, pool[k.index()] as usize));
        }
        let setup_done = obs.placed[q as usize] as usize == SETUP_SQUARES;
        if bag.len() < unknown_moved.len() + unknown_still.len()
            || (setup_done && bag.len() != unknown_moved.len() + unknown_still.len())
        {
            return Err(bad("opponent piece count does not match"));
        }
        // Moved pieces draw among the movable kinds left, then the rest is
        // shuffled: a uniform draw among the assignments that respect "a
        // moved piece is no mine or flag". A draw that contradicts what the
        // course of the game told everybody (the player to move can move,
        // some flag can still be captured, or the game ended as it did) is
        // drawn again: rejection keeps the draw uniform over the consistent
        // assignments, and the true one always is.
        let mut refused = None;
        for _ in 0..DETERMINIZE_TRIES {
            let mut bag = bag.clone();
            let mut cells = cells;
            for &i in &unknown_moved {
                let movable = bag.iter().filter(|k| k.is_mobile()).count();
                if movable == 0 {
                    return Err(bad("more moved opponent pieces than movable ones"));
                }
                let nth = rng.random_range(0..movable);
                let pos = bag
                    .iter()
                    .enumerate()
                    .filter(|(_, k)| k.is_mobile())
                    .nth(nth)
                    .map_or(0, |(j, _)| j);
                let kind = bag.swap_remove(pos);
                cells[i] = piece_cell(q, kind, true, false);
            }
            bag.shuffle(rng);
            for (&i, &kind) in unknown_still.iter().zip(bag.iter()) {
                cells[i] = piece_cell(q, kind, false, false);
            }
            // Everything checked here holds or fails whatever the draw.
            let state = Stratego::from_parts_unsettled(crate::repr::StateRepr {
                rules: obs.rules,
                cells: cells.to_vec(),
                placed: obs.placed,
                to_move: obs.to_move,
                moves: obs.moves,
                no_attack: obs.no_attack,
                lost: obs.lost,
                series: obs.series,
                chase: obs.chase.clone(),
                last_move: obs.last_move,
                end: obs.end,
            })
            .map_err(|e| StrategoError::Observation(e.to_string()))?;
            if state.observe(v) != *obs {
                return Err(bad("observation is not reproducible"));
            }
            match state.check_outcome() {
                Ok(()) => return Ok(state),
                Err(e) => refused = Some(e),
            }
        }
        Err(StrategoError::Observation(refused.map_or_else(
            || "no consistent completion found".to_owned(),
            |e| e.to_string(),
        )))
    }
}

/// Draws [`Stratego::determinize_from`] makes before it gives up on an
/// observation. Consistent completions are scarce only at the very end of
/// a game (a stuck army, or Czech flags walled in by mines: perhaps one
/// draw in ten thousand); a draw costs about a microsecond.
const DETERMINIZE_TRIES: usize = 20_000;

fn piece_cell(owner: u8, kind: Kind, moved: bool, revealed: bool) -> u8 {
    PRESENT
        | (owner << 4)
        | kind.index() as u8
        | if moved { MOVED } else { 0 }
        | if revealed { REVEALED } else { 0 }
}
