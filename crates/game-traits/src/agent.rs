//! Agents and the match driver.

use rand::SeedableRng;

use crate::game::Game;
use crate::player::{PerPlayer, PlayerId, Turn};
use crate::record::Record;
use crate::GameRng;
use crate::RuleSet;

/// A player: chooses an action knowing only his observation and the legal
/// actions. It never sees the true state, so it cannot cheat.
pub trait Agent<G: Game> {
    /// A short name for tables and logs.
    fn name(&self) -> String;

    /// Picks one of `legal` (never empty). `rng` is this seat's seeded
    /// generator for the match.
    fn choose(
        &mut self,
        observation: &G::Observation,
        legal: &[G::Action],
        rng: &mut GameRng,
    ) -> G::Action;
}

/// Picks uniformly among the legal actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".to_owned()
    }

    fn choose(&mut self, _: &G::Observation, legal: &[G::Action], rng: &mut GameRng) -> G::Action {
        legal[crate::chance::uniform_index(legal.len(), rng)]
    }
}

/// Why a match could not be played to the end.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MatchError<E: std::error::Error + 'static> {
    /// The rules were refused.
    #[error("rules refused: {0}")]
    Rules(#[source] E),
    /// An agent chose an action outside the legal list.
    #[error("agent of {player} chose an illegal action at step {step}")]
    IllegalChoice {
        /// The seat.
        player: PlayerId,
        /// Index of the step.
        step: usize,
    },
    /// The game ran past [`RuleSet::max_game_length`](crate::RuleSet::max_game_length): a bug in the engine.
    #[error("game exceeded its declared maximum length")]
    TooLong,
    /// A chance event listed no outcome: a bug in the engine.
    #[error("chance event without outcomes at step {0}")]
    NoChanceOutcome(usize),
}

/// The generator of chance events for the match played from `seed`.
pub fn chance_rng(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// The generator of the agent in seat `player` for the match played from
/// `seed`: independent of the chance stream and of the other seats.
pub fn agent_rng(seed: u64, player: PlayerId) -> GameRng {
    let mut rng = GameRng::seed_from_u64(seed);
    rng.set_stream(1 + player.index() as u64);
    rng
}

/// Plays a game under `rules` to the end, seat `i` played by `agents[i]`,
/// chance drawn from `seed`. Returns the final state and its record; the same
/// seed gives the same game.
///
/// ```
/// use game_traits::{play_match, Agent, RandomAgent};
/// # fn demo<G: game_traits::Game>(rules: G::Rules) {
/// let (mut a, mut b) = (RandomAgent, RandomAgent);
/// let (state, record) = play_match::<G>(&rules, 42, &mut [&mut a, &mut b]).unwrap();
/// assert_eq!(record.replay().unwrap(), state);
/// # }
/// ```
pub fn play_match<G: Game>(
    rules: &G::Rules,
    seed: u64,
    agents: &mut [&mut dyn Agent<G>; 2],
) -> Result<(G, Record<G>), MatchError<G::Error>> {
    let mut state = G::new(rules).map_err(MatchError::Rules)?;
    let mut record = Record::new(rules.clone(), seed);
    let mut chance = chance_rng(seed);
    let mut seat_rngs = PerPlayer::from_fn(|p| agent_rng(seed, p));
    let mut legal = Vec::new();
    let max = rules.max_game_length() as usize;
    loop {
        let step = record.actions().len();
        let action = match state.turn() {
            Turn::Terminal => return Ok((state, record)),
            _ if step >= max => return Err(MatchError::TooLong),
            Turn::Chance => state
                .sample_chance(&mut chance)
                .ok_or(MatchError::NoChanceOutcome(step))?,
            Turn::Player(p) => {
                state.legal_actions(&mut legal);
                let obs = state.observation(p);
                let a = agents[p.index()].choose(&obs, &legal, &mut seat_rngs[p]);
                if !legal.contains(&a) {
                    return Err(MatchError::IllegalChoice { player: p, step });
                }
                a
            }
        };
        state.apply_unchecked(action);
        record.push(action);
    }
}

/// The score of `bot` over `games` games against `other` under `rules`:
/// seats alternating (`bot` in seat 0 in the even games), each pair of
/// games played from the same seed, `first_seed` and up, so that both bots
/// hold each deal once. A win counts one, a draw one half.
///
/// ```
/// use game_traits::{play_alternating, RandomAgent};
/// # fn demo<G: game_traits::Game>(rules: G::Rules) {
/// let (mut a, mut b) = (RandomAgent, RandomAgent);
/// let score = play_alternating::<G>(&rules, &mut a, &mut b, 4, 7000).unwrap();
/// assert!((0.0..=4.0).contains(&score));
/// # }
/// ```
pub fn play_alternating<G: Game>(
    rules: &G::Rules,
    bot: &mut dyn Agent<G>,
    other: &mut dyn Agent<G>,
    games: u64,
    first_seed: u64,
) -> Result<f64, MatchError<G::Error>> {
    let mut score = 0.0;
    for g in 0..games {
        let seat = if g % 2 == 0 {
            PlayerId::P0
        } else {
            PlayerId::P1
        };
        let mut agents: [&mut dyn Agent<G>; 2] = if seat == PlayerId::P0 {
            [&mut *bot, &mut *other]
        } else {
            [&mut *other, &mut *bot]
        };
        let (end, _) = play_match::<G>(rules, first_seed + g / 2, &mut agents)?;
        score += match end.outcome().map(|o| o.winner()) {
            Some(Some(w)) if w == seat => 1.0,
            Some(Some(_)) => 0.0,
            Some(None) | None => 0.5,
        };
    }
    Ok(score)
}

/// The action of `legal` (never empty) with the highest `score`, plus a
/// little noise from `rng` (under 0.1) so that equal-looking actions vary
/// between games: the choice rule of the games' heuristic bots.
pub fn best_scored<A: Copy>(legal: &[A], rng: &mut GameRng, score: impl Fn(A) -> f64) -> A {
    let mut best = None;
    let mut top = f64::NEG_INFINITY;
    for &a in legal {
        let s = score(a) + rand::Rng::random::<f64>(rng) * 0.1;
        if s > top {
            top = s;
            best = Some(a);
        }
    }
    best.unwrap_or_else(|| legal[crate::chance::uniform_index(legal.len(), rng)])
}
