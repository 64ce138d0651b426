//! ISMCTS with a game policy: the policy's votes steer the root, playouts
//! follow it, and the search stays a pure function of its inputs.

use game_agents::{Budget, Ismcts, IsmctsConfig};
use game_traits::kuhn::{Card, KuhnAction, KuhnPoker, KuhnRules};
use game_traits::{Agent, Game, GameRng, PlayerId, Policy};
use rand::SeedableRng;

/// Always the given action when legal, else the first legal one.
struct Always(KuhnAction);

impl Policy<KuhnPoker> for Always {
    fn act(&mut self, _: &KuhnPoker, legal: &[KuhnAction], _: &mut GameRng) -> KuhnAction {
        if legal.contains(&self.0) {
            self.0
        } else {
            legal[0]
        }
    }
}

/// The first decision of a deal where the first player holds `card`.
fn first_decision(card: Card) -> KuhnPoker {
    let mut state = KuhnPoker::new(&KuhnRules::default()).unwrap();
    let other = if card == Card::Jack {
        Card::King
    } else {
        Card::Jack
    };
    state.apply(KuhnAction::Deal(card)).unwrap();
    state.apply(KuhnAction::Deal(other)).unwrap();
    state
}

fn bot(iterations: u32, samples: u32, greed: f64, favourite: KuhnAction) -> Ismcts<KuhnPoker> {
    Ismcts::new(IsmctsConfig {
        budget: Budget::Iterations(iterations),
        prior_samples: samples,
        prior_weight: 8.0,
        greed,
        ..IsmctsConfig::default()
    })
    .with_policy(Box::new(Always(favourite)))
}

#[test]
fn the_policy_prior_steers_the_root_visits() {
    // With a Queen, passing and betting are worth about the same: the
    // prior decides where a small search spends its iterations.
    let state = first_decision(Card::Queen);
    let obs = state.observation(PlayerId::P0);
    let legal = [KuhnAction::Pass, KuhnAction::Bet];
    for favourite in legal {
        let mut search = bot(12, 8, 0.0, favourite);
        let stats = search.search(&obs, &legal, &mut GameRng::seed_from_u64(1));
        let visits = |a| stats.iter().find(|s| s.0 == a).map_or(0, |s| s.1);
        let other = if favourite == KuhnAction::Pass {
            KuhnAction::Bet
        } else {
            KuhnAction::Pass
        };
        assert!(
            visits(favourite) > visits(other),
            "{favourite:?}: {stats:?}"
        );
    }
    // Without a prior (no samples) UCB1 tries both moves alike first.
    let mut plain = bot(2, 0, 0.0, KuhnAction::Bet);
    let stats = plain.search(&obs, &legal, &mut GameRng::seed_from_u64(1));
    assert!(stats.iter().all(|s| s.1 == 1), "{stats:?}");
}

#[test]
fn a_search_with_a_policy_is_reproducible() {
    for card in [Card::Jack, Card::Queen, Card::King] {
        let state = first_decision(card);
        let obs = state.observation(PlayerId::P0);
        let legal = [KuhnAction::Pass, KuhnAction::Bet];
        let choose = |seed| {
            let mut b = bot(300, 8, 0.5, KuhnAction::Bet);
            b.choose(&obs, &legal, &mut GameRng::seed_from_u64(seed))
        };
        for seed in 0..5 {
            assert_eq!(choose(seed), choose(seed), "{card:?} {seed}");
        }
    }
}

#[test]
fn a_greedy_search_plays_its_playouts_by_the_policy() {
    // The policy is asked for the prior's samples and then at every
    // playout decision (Kuhn poker's tree is soon whole, and then no
    // playout has a decision left: a few more calls, not many).
    let state = first_decision(Card::King);
    let obs = state.observation(PlayerId::P0);
    let legal = [KuhnAction::Pass, KuhnAction::Bet];
    let calls = |greed| {
        let search = Ismcts::<KuhnPoker>::new(IsmctsConfig {
            budget: Budget::Iterations(50),
            prior_samples: 4,
            greed,
            ..IsmctsConfig::default()
        });
        // Count through a shared cell: the bot owns its policy.
        let counter = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        struct Counting(std::sync::Arc<std::sync::atomic::AtomicU32>);
        impl Policy<KuhnPoker> for Counting {
            fn act(&mut self, _: &KuhnPoker, legal: &[KuhnAction], _: &mut GameRng) -> KuhnAction {
                self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                legal[legal.len() - 1]
            }
        }
        let mut search = search.with_policy(Box::new(Counting(counter.clone())));
        search.search(&obs, &legal, &mut GameRng::seed_from_u64(2));
        counter.load(std::sync::atomic::Ordering::Relaxed)
    };
    assert_eq!(calls(0.0), 4, "the prior's samples only");
    assert!(calls(1.0) > calls(0.0), "{}", calls(1.0));
}
