//! The expert bot and its sparring partners (`prob`, `expert-v1`): the
//! expert stronger than the heuristic and no weaker than `expert-v1`,
//! each bot blind to what its seat cannot see, at home under every rule
//! option and within its time.

use std::time::{Duration, Instant};

use battleline_core::game_traits::rand::SeedableRng;
use battleline_core::game_traits::{play_alternating, play_match, Agent, RandomAgent};
use battleline_core::{
    Action, BattleLine, Budget, ClaimTiming, Deck, EnvironmentTactics, Expert, ExpertV1,
    FormationOrder, Game, GameRng, Heuristic, Prob, Rules, Turn,
};
use game_traits::RuleSet;

/// Games `bot` wins out of `games` against `other` (a draw one half),
/// seats alternating, each pair of games on the same seed.
fn wins(
    rules: &Rules,
    mut bot: impl Agent<BattleLine>,
    mut other: impl Agent<BattleLine>,
    games: u64,
) -> f64 {
    play_alternating::<BattleLine>(rules, &mut bot, &mut other, games, 7000).unwrap()
}

/// Games the expert wins out of `games` against the heuristic.
fn wins_against_heuristic(rules: &Rules, samples: u32, games: u64) -> f64 {
    wins(rules, Expert::with_samples(samples), Heuristic, games)
}

#[test]
fn expert_beats_the_heuristic_in_troops_only_battle_line() {
    // Random play wins none of 200 games against the heuristic
    // (docs/strength.md): a broken expert wins next to none of these. The
    // expert at 24 futures a decision wins 35 (at commit time), the
    // expert before its first round screened the plays 26.
    let wins = wins_against_heuristic(&Rules::troops_only(), 24, 40);
    eprintln!("troops only: expert won {wins} of 40");
    assert!(wins >= 30.0, "expert won {wins} of 40");
}

#[test]
fn expert_beats_the_heuristic_with_tactics() {
    // 18 at commit time (17 before the expert drew its tactics cards
    // late).
    let wins = wins_against_heuristic(&Rules::default(), 24, 20);
    eprintln!("with tactics: expert won {wins} of 20");
    assert!(wins >= 14.0, "expert won {wins} of 20");
}

#[test]
fn expert_holds_its_own_against_expert_v1() {
    // The expert at 16 futures a decision wins 64 % of 400 games against
    // expert-v1 at as many with every tactic (docs/strength.md), 20 of
    // these 40 at commit time; an expert whose answers or odds are broken
    // wins few (one crediting itself its own wild cards in every future
    // won 28 % of 400 games); 25 with its tactics cards drawn late.
    let v1 = ExpertV1::new(Some(Budget::Iterations(16)));
    let won = wins(&Rules::default(), Expert::with_samples(16), v1, 40);
    eprintln!("against expert-v1: expert won {won} of 40");
    assert!(won >= 16.0, "expert won {won} of 40");
}

#[test]
fn expert_beats_prob_with_every_tactic() {
    // The published reading of the rules, where the tactics count most.
    // At 8 futures a decision (about `prob`'s time) the expert wins 71.5 %
    // of 600 games (63.3 % before it drew its tactics cards late:
    // docs/strength.md); one that judged its finalists as
    // coarsely as it screens them won 47 %, the expert before the screen
    // (at 8 futures) 50.5 %. 46 of these 60 at commit time; 38 when it
    // drew its tactics cards at any time (docs/strength.md, "Tactics
    // drawn late"), so that expert fails here.
    let rules = Rules {
        formation_order: FormationOrder::Published,
        claim_timing: ClaimTiming::StartOfTurn,
        environment_tactics: EnvironmentTactics::Movable,
        ..Rules::default()
    };
    let won = wins(&rules, Expert::with_samples(8), Prob::default(), 60);
    eprintln!("against prob: expert won {won} of 60");
    assert!(won >= 41.0, "expert won {won} of 60");
}

#[test]
fn prob_beats_the_heuristic() {
    let won = wins(&Rules::troops_only(), Prob::default(), Heuristic, 40);
    eprintln!("troops only: prob won {won} of 40");
    assert!(won >= 20.0, "prob won {won} of 40");
}

/// A position some way into a game between two random players, with the
/// given seat to play.
fn midgame(rules: &Rules, seed: u64) -> BattleLine {
    let mut game = BattleLine::new(rules).unwrap();
    let mut rng = GameRng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut plays = 0;
    loop {
        match game.turn() {
            Turn::Terminal => return game,
            Turn::Chance => {
                let a = game.sample_chance(&mut rng).unwrap();
                game.apply(a).unwrap();
            }
            Turn::Player(p) => {
                game.legal_actions(&mut legal);
                if plays >= 24 && legal.iter().any(|a| matches!(a, Action::Play { .. })) {
                    return game;
                }
                plays += 1;
                let a = Agent::<BattleLine>::choose(
                    &mut RandomAgent,
                    &game.observation(p),
                    &legal,
                    &mut rng,
                );
                game.apply(a).unwrap();
            }
        }
    }
}

/// The bots whose decisions the tests below check, at small budgets.
fn bots() -> Vec<Box<dyn Agent<BattleLine>>> {
    let budget = Some(Budget::Iterations(16));
    vec![
        Box::new(Expert::new(budget)),
        Box::new(ExpertV1::new(budget)),
        Box::new(Prob::new(budget)),
    ]
}

#[test]
fn bots_decisions_ignore_what_their_seat_cannot_see() {
    for rules in [Rules::default(), Rules::troops_only()] {
        for seed in 0..6 {
            let game = midgame(&rules, seed);
            let Turn::Player(me) = game.turn() else {
                continue;
            };
            let obs = game.observation(me);
            // Two states that differ only in the opponent's hand and the
            // decks: the same observation, the same decision.
            let a = BattleLine::determinize(&obs, &mut GameRng::seed_from_u64(1)).unwrap();
            let b = BattleLine::determinize(&obs, &mut GameRng::seed_from_u64(2)).unwrap();
            assert_ne!(a.hand(me.other()), b.hand(me.other()), "seed {seed}");
            let mut legal = Vec::new();
            a.legal_actions(&mut legal);
            for mut bot in bots() {
                let mut choose = |state: &BattleLine| {
                    bot.choose(
                        &state.observation(me),
                        &legal,
                        &mut GameRng::seed_from_u64(9),
                    )
                };
                let (x, y) = (choose(&a), choose(&b));
                assert_eq!(x, y, "{} seed {seed}", bot.name());
            }
        }
    }
}

#[test]
fn bots_play_every_rule_set_and_both_formation_orders_to_the_end() {
    let mut all: Vec<Rules> = Rules::presets().into_iter().map(|p| p.rules).collect();
    for r in all.clone() {
        all.push(Rules {
            formation_order: FormationOrder::Published,
            ..r
        });
    }
    all.push(Rules {
        tactics: false,
        formation_order: FormationOrder::Published,
        ..Rules::default()
    });
    for (i, rules) in all.iter().enumerate() {
        let mut expert = Expert::with_samples(4);
        let mut v1 = ExpertV1::new(Some(Budget::Iterations(4)));
        let mut prob = Prob::new(Some(Budget::Iterations(4)));
        for other in [&mut v1 as &mut dyn Agent<BattleLine>, &mut prob] {
            let (game, _) =
                play_match::<BattleLine>(rules, i as u64, &mut [&mut expert, other]).unwrap();
            assert!(game.outcome().is_some(), "{rules:?}");
        }
    }
}

#[test]
fn expert_claims_every_flag_it_can_prove() {
    let rules = Rules::default();
    let mut seen = 0;
    for seed in 0..40 {
        let mut game = midgame(&rules, seed);
        let mut legal = Vec::new();
        let mut rng = GameRng::seed_from_u64(seed);
        // Play on with the expert until a claim is legal.
        for _ in 0..80 {
            match game.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let a = game.sample_chance(&mut rng).unwrap();
                    game.apply(a).unwrap();
                }
                Turn::Player(p) => {
                    game.legal_actions(&mut legal);
                    let a = Expert::with_samples(4).choose(&game.observation(p), &legal, &mut rng);
                    if legal.iter().any(|x| matches!(x, Action::Claim(_))) {
                        assert!(matches!(a, Action::Claim(_)), "{a} among {legal:?}");
                        seen += 1;
                    }
                    game.apply(a).unwrap();
                }
            }
        }
    }
    assert!(seen > 0);
}

#[test]
fn expert_keeps_to_a_time_budget() {
    let game = midgame(&Rules::default(), 3);
    let Turn::Player(me) = game.turn() else {
        panic!("the position has a player to move");
    };
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let mut expert = Expert::with_time(Duration::from_millis(20));
    let start = Instant::now();
    let a = expert.choose(
        &game.observation(me),
        &legal,
        &mut GameRng::seed_from_u64(0),
    );
    assert!(legal.contains(&a));
    // One future past the budget at most, on a loaded machine.
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(expert.name(), "expert:20ms");
}

#[test]
fn expert_draws_tactics_cards_only_late() {
    // A tactics card drawn early may hold a troop card's place in the
    // hand for many turns: the expert draws one (holding none, the
    // tactics limit allowing) only once the troop deck is down to its
    // weights' count; `prob` and `expert-v1` draw one at any time.
    let Some(from) = Expert::default().weights().tactics_from else {
        panic!("the expert draws its tactics cards late");
    };
    let (mut early, mut late) = (0, 0);
    for seed in 0..12 {
        let mut game = BattleLine::new(&Rules::default()).unwrap();
        let mut rng = GameRng::seed_from_u64(seed);
        let mut legal = Vec::new();
        loop {
            let a = match game.turn() {
                Turn::Terminal => break,
                Turn::Chance => game.sample_chance(&mut rng).unwrap(),
                Turn::Player(p) => {
                    game.legal_actions(&mut legal);
                    let obs = game.observation(p);
                    let a = if p.index() == seed as usize % 2 {
                        Expert::with_samples(4).choose(&obs, &legal, &mut rng)
                    } else {
                        Heuristic.choose(&obs, &legal, &mut rng)
                    };
                    let tactics = Action::Draw(Deck::Tactics);
                    // Claims come first (a proved flag is won for good).
                    let drawing = legal.iter().all(|x| matches!(x, Action::Draw(_)));
                    if p.index() == seed as usize % 2 && drawing && legal.contains(&tactics) {
                        let table = obs.table();
                        let none_held = obs.hand().iter().all(|c| c.is_troop());
                        let may = table.tactics_played(p) <= table.tactics_played(p.other());
                        if obs.deck_len(Deck::Troop) > from {
                            assert_eq!(a, Action::Draw(Deck::Troop), "seed {seed}");
                            early += 1;
                        } else if none_held && may {
                            assert_eq!(a, tactics, "seed {seed}");
                            late += 1;
                        }
                    }
                    a
                }
            };
            game.apply(a).unwrap();
        }
    }
    assert!(early > 20 && late > 0, "early {early}, late {late}");
}
