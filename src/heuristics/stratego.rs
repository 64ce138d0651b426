//! Stratego knowledge: material value, and a bot that never walks a known
//! piece into a known stronger one.

use game_traits::{Agent, GameRng, PlayerId};

use super::best_scored;
use crate::stratego::{
    Action, Fight, Kind, ObsCell, Observation, Setup, SetupSquare, Square, Stratego, Variant,
};

/// A piece's worth in material counts: the strong ranks and the pieces
/// with a special power (the one that clears mines, the one that beats the
/// Marshal) count most.
pub fn piece_value(variant: Variant, kind: Kind) -> f64 {
    const RANKS: [f64; 10] = [10.0, 8.0, 6.0, 5.0, 4.0, 3.0, 2.5, 2.0, 1.5, 1.0];
    if kind == variant.spy() || kind == Kind::MINER {
        return 3.0;
    }
    match kind {
        Kind::MINE => 1.5,
        Kind::FLAG => 0.0,
        k => RANKS.get(k.index()).copied().unwrap_or(1.0),
    }
}

/// Values a position for `player` in [0, 1] by the material each side has
/// lost: what the search bots use for playouts cut off before the end.
pub fn material_evaluation(state: &Stratego, player: PlayerId) -> f64 {
    let variant = state.rules_ref().variant;
    let me = player.index() as u8 & 1;
    let lost = |p: u8| -> f64 {
        state
            .lost(p)
            .iter()
            .zip(Kind::ALL)
            .map(|(&n, k)| f64::from(n) * piece_value(variant, k))
            .sum()
    };
    0.5 + 0.5 * ((lost(1 - me) - lost(me)) / 12.0).tanh()
}

/// Whether the setup phase is still on: the search bots leave it to
/// [`StrategoHeuristic`], since material counts cannot judge a setup.
pub fn in_setup(obs: &Observation) -> bool {
    obs.placed
        .iter()
        .any(|&n| usize::from(n) < crate::stratego::SETUP_SQUARES)
}

/// Sets up with the library's "Smart" generator (flag at the back under
/// mines), then scores each move from what it knows: capturing a known
/// weaker piece is best, attacking or stepping next to a known stronger
/// piece is avoided, probing unknown pieces is left to the cheap ones,
/// and otherwise it advances.
#[derive(Clone, Debug, Default)]
pub struct StrategoHeuristic {
    plan: Option<Setup>,
}

impl StrategoHeuristic {
    fn setup_choice(
        &mut self,
        obs: &Observation,
        legal: &[Action],
        rng: &mut GameRng,
    ) -> Option<Action> {
        let viewer = usize::from(obs.viewer & 1);
        let placed = usize::from(obs.placed[viewer]);
        if placed == 0 || self.plan.is_none() {
            self.plan = Some(Setup::smart(obs.rules.variant, rng));
        }
        let kind = self.plan.as_ref()?.get(SetupSquare::from_index(placed)?)?;
        legal.iter().copied().find(|&a| a == Action::Place(kind))
    }

    fn move_score(obs: &Observation, action: Action) -> f64 {
        let Action::Move(m) = action else {
            return 0.0;
        };
        let variant = obs.rules.variant;
        let cell = |sq: Square| obs.cells.get(sq.index()).copied();
        let Some(ObsCell::Own { kind: mine, .. }) = cell(m.from) else {
            return 0.0;
        };
        let worth = piece_value(variant, mine);
        let mut score = match cell(m.to) {
            Some(ObsCell::Foe {
                kind: Some(foe), ..
            }) => match variant.fight(mine, foe) {
                Fight::AttackerWins => 20.0 + 4.0 * piece_value(variant, foe),
                Fight::BothLeave => 4.0 * (piece_value(variant, foe) - worth),
                Fight::DefenderWins => -50.0 - worth,
            },
            // An unknown piece: attack it, the cheaper the attacker the
            // better; an unmoved one may be a mine (which only the miner
            // clears) or the flag.
            Some(ObsCell::Foe {
                kind: None, moved, ..
            }) => {
                if moved {
                    4.0 - 0.3 * worth
                } else if mine == Kind::MINER {
                    4.5
                } else {
                    3.5 - 0.5 * worth
                }
            }
            _ => {
                // Advance: the first player's home is at the bottom.
                let ahead = if obs.viewer & 1 == 0 {
                    m.to.row() < m.from.row()
                } else {
                    m.to.row() > m.from.row()
                };
                if ahead {
                    1.0
                } else {
                    0.0
                }
            }
        };
        // Never step next to a known piece that would take this one.
        let threatened = neighbours(m.to).any(|sq| match cell(sq) {
            Some(ObsCell::Foe {
                kind: Some(foe), ..
            }) => variant.fight(foe, mine) == Fight::AttackerWins,
            _ => false,
        });
        if threatened {
            score -= 30.0 + worth;
        }
        score
    }
}

/// The orthogonal neighbours of `sq` (attacks are orthogonal in every rule
/// set).
fn neighbours(sq: Square) -> impl Iterator<Item = Square> {
    let (r, c) = (sq.row() as i8, sq.col() as i8);
    [(-1, 0), (1, 0), (0, -1), (0, 1)]
        .into_iter()
        .filter_map(move |(dr, dc)| {
            Square::at(u8::try_from(r + dr).ok()?, u8::try_from(c + dc).ok()?)
        })
}

impl Agent<Stratego> for StrategoHeuristic {
    fn name(&self) -> String {
        "heuristic".to_owned()
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        if let Some(a) = legal
            .iter()
            .any(|a| matches!(a, Action::Place(_)))
            .then(|| self.setup_choice(obs, legal, rng))
            .flatten()
        {
            return a;
        }
        best_scored(legal, rng, |a| Self::move_score(obs, a))
    }
}
