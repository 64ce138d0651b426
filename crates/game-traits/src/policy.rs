//! Playout policies: how a search bot plays the moves it does not search.
//!
//! Uniform random playouts ([`random_playout`](crate::random_playout)) know
//! nothing of the game; in a game with many legal moves of very unequal
//! worth (Battle Line's 60-odd card placements) their values hardly tell a
//! good move from a bad one. A [`Policy`] brings a game's own knowledge to
//! the search: it proposes moves on full (determinised) states, both as a
//! prior over the moves of the searched position and inside playouts.

use rand::Rng;

use crate::agent::Agent;
use crate::chance::uniform_index;
use crate::game::Game;
use crate::player::Turn;
use crate::GameRng;

/// A game's move proposer for search: given a full state (a determinisation
/// of the mover's information set) and its legal actions, one of them.
///
/// A policy must read only what the mover may know of `state` (its
/// observation), or the search built on it would cheat; [`Observing`] turns
/// any [`Agent`] into such a policy.
pub trait Policy<G: Game>: Send {
    /// One of `legal` (never empty) for the player to move in `state`.
    fn act(&mut self, state: &G, legal: &[G::Action], rng: &mut GameRng) -> G::Action;
}

/// An [`Agent`] as a [`Policy`]: it is shown the mover's observation of the
/// state, so it cannot see more than the mover may.
#[derive(Clone, Debug, Default)]
pub struct Observing<A>(pub A);

impl<G: Game, A: Agent<G> + Send> Policy<G> for Observing<A> {
    fn act(&mut self, state: &G, legal: &[G::Action], rng: &mut GameRng) -> G::Action {
        match state.turn() {
            Turn::Player(p) => self.0.choose(&state.observation(p), legal, rng),
            // Not a decision: any listed outcome will do.
            Turn::Chance | Turn::Terminal => legal[uniform_index(legal.len(), rng)],
        }
    }
}

/// Plays from `state` until the end or until `limit` actions have been
/// played, and returns the number played: each decision by `policy` with
/// probability `greed` (uniformly at random otherwise), each chance event
/// with its listed probabilities. `legal` is a reused buffer.
///
/// A `greed` below 1 keeps some of random play's variety, which a
/// deterministic policy would lose (every playout of one determinisation
/// the same game).
pub fn policy_playout<G: Game>(
    state: &mut G,
    policy: &mut dyn Policy<G>,
    greed: f64,
    legal: &mut Vec<G::Action>,
    rng: &mut GameRng,
    limit: u32,
) -> u32 {
    for played in 0..limit {
        let action = match state.turn() {
            Turn::Terminal => return played,
            Turn::Chance => match state.sample_chance(rng) {
                Some(a) => a,
                None => return played,
            },
            Turn::Player(_) if rng.random::<f64>() < greed => {
                state.legal_actions(legal);
                if legal.is_empty() {
                    return played;
                }
                policy.act(state, legal, rng)
            }
            Turn::Player(_) => match state.sample_legal(legal, rng) {
                Some(a) => a,
                None => return played,
            },
        };
        state.apply_unchecked(action);
    }
    limit
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::kuhn::{KuhnPoker, KuhnRules};

    /// Always the last legal action.
    struct Last;

    impl Policy<KuhnPoker> for Last {
        fn act(
            &mut self,
            _: &KuhnPoker,
            legal: &[<KuhnPoker as Game>::Action],
            _: &mut GameRng,
        ) -> <KuhnPoker as Game>::Action {
            legal[legal.len() - 1]
        }
    }

    #[test]
    fn policy_playout_follows_the_policy_when_fully_greedy() {
        let rules = KuhnRules::default();
        let mut legal = Vec::new();
        for seed in 0..20 {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut state = KuhnPoker::new(&rules).unwrap();
            let mut expected = state.clone();
            let played = policy_playout(&mut state, &mut Last, 1.0, &mut legal, &mut rng, 100);
            // Replay: chance as drawn, every decision the last listed.
            let mut replay_rng = GameRng::seed_from_u64(seed);
            let mut count = 0;
            while !expected.is_terminal() {
                let action = match expected.turn() {
                    Turn::Chance => expected.sample_chance(&mut replay_rng).unwrap(),
                    _ => {
                        // policy_playout draws its greed coin before acting.
                        let _ = replay_rng.random::<f64>();
                        expected.legal_actions(&mut legal);
                        legal[legal.len() - 1]
                    }
                };
                expected.apply_unchecked(action);
                count += 1;
            }
            assert_eq!(state, expected);
            assert_eq!(played, count);
        }
    }

    #[test]
    fn policy_playout_stops_at_its_limit() {
        let rules = KuhnRules::default();
        let mut rng = GameRng::seed_from_u64(3);
        let start = KuhnPoker::new(&rules).unwrap();
        let mut state = start.clone();
        let played = policy_playout(&mut state, &mut Last, 0.5, &mut Vec::new(), &mut rng, 1);
        assert_eq!(played, 1);
        // One chance deal, no decision yet.
        assert_ne!(state, start);
        assert_eq!(state.move_count(), 0);
    }

    /// Remembers every observation it was shown.
    #[derive(Default)]
    struct Recorder(Vec<<KuhnPoker as Game>::Observation>);

    impl Agent<KuhnPoker> for Recorder {
        fn name(&self) -> String {
            "recorder".into()
        }

        fn choose(
            &mut self,
            observation: &<KuhnPoker as Game>::Observation,
            legal: &[<KuhnPoker as Game>::Action],
            _: &mut GameRng,
        ) -> <KuhnPoker as Game>::Action {
            self.0.push(observation.clone());
            legal[0]
        }
    }

    #[test]
    fn observing_policy_shows_the_agent_the_movers_observation() {
        let rules = KuhnRules::default();
        let mut rng = GameRng::seed_from_u64(5);
        let mut state = KuhnPoker::new(&rules).unwrap();
        let mut legal = Vec::new();
        let mut policy = Observing(Recorder::default());
        let mut expected = Vec::new();
        while !state.is_terminal() {
            state.legal_actions(&mut legal);
            let action = match state.turn() {
                Turn::Player(p) => {
                    expected.push(state.observation(p));
                    policy.act(&state, &legal, &mut rng)
                }
                _ => state.sample_chance(&mut rng).unwrap(),
            };
            state.apply_unchecked(action);
        }
        assert!(!expected.is_empty());
        assert_eq!(policy.0 .0, expected);
    }
}
