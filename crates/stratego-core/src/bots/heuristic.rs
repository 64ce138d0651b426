//! A bot with a few lines of Stratego knowledge, and the material
//! evaluation that search bots use for playouts cut off before the end.

use game_traits::{best_scored, Agent, GameRng, PlayerId};

use crate::action::Action;
use crate::kind::Kind;
use crate::observation::{ObsCell, Observation};
use crate::setup::{Setup, SetupSquare};
use crate::square::Square;
use crate::state::Stratego;
use crate::variant::{Fight, Variant};

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
/// lost (in a determinised state, the losses of unknown kind as that
/// sample draws them): 0.5 when even, zero-sum between the players.
pub fn material_evaluation(state: &Stratego, player: PlayerId) -> f64 {
    let variant = state.rules.variant;
    let lost = |p: PlayerId| -> f64 {
        state
            .lost(p)
            .iter()
            .zip(Kind::ALL)
            .map(|(&n, k)| f64::from(n) * piece_value(variant, k))
            .sum()
    };
    0.5 + 0.5 * ((lost(player.other()) - lost(player)) / 12.0).tanh()
}

/// The heuristic bot. It sets up with the "Smart" generator
/// ([`Setup::smart`]: flag at the back under mines), then scores each move
/// from what its observation shows: capturing a known weaker piece is
/// best, attacking or stepping next to a known stronger piece is avoided,
/// probing unknown pieces is left to the cheap ones, and otherwise it
/// advances. Equal scores are broken at random.
///
/// ```
/// use stratego_core::game_traits::{play_match, RandomAgent};
/// use stratego_core::{Game, Heuristic, Rules, Stratego};
///
/// let (mut bot, mut random) = (Heuristic::default(), RandomAgent);
/// let (end, _record) =
///     play_match::<Stratego>(&Rules::classic(), 1, &mut [&mut bot, &mut random]).unwrap();
/// println!("{:?}", end.outcome());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Heuristic {
    /// The setup being placed, drawn at the first placement.
    plan: Option<Setup>,
}

impl Heuristic {
    fn setup_choice(
        &mut self,
        obs: &Observation,
        legal: &[Action],
        rng: &mut GameRng,
    ) -> Option<Action> {
        let placed = usize::from(obs.placed[obs.viewer]);
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
        let ObsCell::Own { kind: mine, .. } = obs.cell(m.from) else {
            return 0.0;
        };
        let worth = piece_value(variant, mine);
        let mut score = match obs.cell(m.to) {
            ObsCell::Foe {
                kind: Some(foe), ..
            } => match variant.fight(mine, foe) {
                Fight::AttackerWins => 20.0 + 4.0 * piece_value(variant, foe),
                Fight::BothLeave => 4.0 * (piece_value(variant, foe) - worth),
                Fight::DefenderWins => -50.0 - worth,
            },
            // An unknown piece: attack it, the cheaper the attacker the
            // better; an unmoved one may be a mine (which only the miner
            // clears) or the flag.
            ObsCell::Foe {
                kind: None, moved, ..
            } => {
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
                let ahead = match obs.viewer {
                    PlayerId::P0 => m.to.rank() > m.from.rank(),
                    PlayerId::P1 => m.to.rank() < m.from.rank(),
                };
                if ahead {
                    1.0
                } else {
                    0.0
                }
            }
        };
        // Never step next to a known piece that would take this one.
        let threatened = neighbours(m.to).any(|sq| match obs.cell(sq) {
            ObsCell::Foe {
                kind: Some(foe), ..
            } => variant.fight(foe, mine) == Fight::AttackerWins,
            _ => false,
        });
        if threatened {
            score -= 30.0 + worth;
        }
        score
    }
}

/// The orthogonal neighbours of `sq` (attacks are orthogonal in every rule
/// set); the expert and its belief read squares by them too.
pub(super) fn neighbours(sq: Square) -> impl Iterator<Item = Square> {
    let (f, r) = (sq.file() as i8, sq.rank() as i8);
    [(0, 1), (0, -1), (-1, 0), (1, 0)]
        .into_iter()
        .filter_map(move |(df, dr)| {
            Square::from_file_rank(u8::try_from(f + df).ok()?, u8::try_from(r + dr).ok()?)
        })
}

impl Agent<Stratego> for Heuristic {
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
