//! The expert: setups from the model of human setups, decisions from the
//! seat's observation alone, the flag taken when it can be, and a margin
//! over the heuristic that a broken expert cannot reach.

use std::collections::HashSet;
use std::path::Path;

use game_traits::Budget;
use game_traits::Preset;
use game_traits::RuleSet;
use game_traits::{play_match, Agent, Game, GameRng, PlayerId};
use rand::SeedableRng;
use stratego_core::{
    Action, Expert, Heuristic, Kind, Piece, PositionBuilder, Rules, Setup, SetupSquare, Square,
    Stratego,
};

/// The setup the expert places in a game under `rules` (drawn with `seed`).
fn placed_setup(expert: &mut Expert, rules: &Rules, seed: u64) -> Setup {
    let mut state = Stratego::new(rules).unwrap();
    let mut rng = GameRng::seed_from_u64(seed);
    let mut legal = Vec::new();
    while state.placed(PlayerId::P0) < 40 {
        if state.awaits_draw() {
            state.apply(Action::Start(PlayerId::P0)).unwrap();
            continue;
        }
        state.legal_actions(&mut legal);
        let obs = state.observation(PlayerId::P0);
        let a = expert.choose(&obs, &legal, &mut rng);
        state.apply(a).unwrap();
    }
    let mut kinds = [Kind::FLAG; 40];
    for (i, k) in kinds.iter_mut().enumerate() {
        let sq = SetupSquare::from_index(i)
            .unwrap()
            .board_square(PlayerId::P0)
            .unwrap();
        *k = state.piece(sq).unwrap().kind;
    }
    Setup::new(rules.variant, kinds).unwrap()
}

fn setup_neighbours(i: usize) -> impl Iterator<Item = usize> {
    let (row, col) = ((i / 10) as i32, (i % 10) as i32);
    [(0, 1), (0, -1), (1, 0), (-1, 0)]
        .into_iter()
        .map(move |(dr, dc)| (row + dr, col + dc))
        .filter(|&(r, c)| (0..4).contains(&r) && (0..10).contains(&c))
        .map(|(r, c)| (r * 10 + c) as usize)
}

#[test]
fn expert_setups_mine_every_side_of_the_flag_and_keep_it_back() {
    for Preset { name, rules, .. } in Rules::presets() {
        let mut expert = Expert::new(Some(Budget::Iterations(1)));
        let mut back = 0;
        for seed in 0..20 {
            let setup = placed_setup(&mut expert, &rules, seed);
            let flag = setup.kinds().iter().position(|&k| k == Kind::FLAG).unwrap();
            for n in setup_neighbours(flag) {
                assert_eq!(setup.kinds()[n], Kind::MINE, "{name} seed {seed}:\n{setup}");
            }
            back += usize::from(flag >= 20);
        }
        // People keep the flag in the two back rows nearly always; a
        // uniform draw would do so half the time.
        assert!(back >= 18, "{name}: flag in the back rows {back} of 20");
    }
}

#[test]
fn expert_never_repeats_its_setup() {
    for Preset { name, rules, .. } in Rules::presets() {
        let mut expert = Expert::new(Some(Budget::Iterations(1)));
        let mut previous = None;
        let mut seen = HashSet::new();
        for _ in 0..30 {
            // The same seed every game: only the rule against repeating
            // the last setup can make two games in a row differ.
            let setup = placed_setup(&mut expert, &rules, 7);
            assert_ne!(Some(setup), previous, "{name}");
            previous = Some(setup);
            seen.insert(setup);
        }
        assert!(seen.len() >= 2, "{name}");
    }
}

#[test]
fn expert_setups_are_not_copies_of_human_setups() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/stratego/classic-human-setups.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} is absent", path.display());
        return;
    };
    let human: HashSet<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert!(human.len() > 40_000);
    let mut expert = Expert::new(Some(Budget::Iterations(1)));
    let mut spread = HashSet::new();
    for seed in 0..50 {
        let setup = placed_setup(&mut expert, &Rules::classic(), seed);
        let text = setup.to_gravon().unwrap();
        assert!(!human.contains(text.as_str()), "a copy: {text}");
        spread.insert(text);
    }
    assert_eq!(spread.len(), 50);
}

/// A mid-game state of two heuristic bots, `moves` moves in.
fn mid_game(rules: &Rules, seed: u64, moves: u32) -> Stratego {
    let mut state = Stratego::new(rules).unwrap();
    let mut rng = GameRng::seed_from_u64(seed);
    let mut bots = [Heuristic::default(), Heuristic::default()];
    let mut legal = Vec::new();
    while state.moves_played() < moves && state.end().is_none() {
        let a = match state.turn() {
            game_traits::Turn::Player(p) => {
                state.legal_actions(&mut legal);
                bots[p.index()].choose(&state.observation(p), &legal, &mut rng)
            }
            _ => state.sample_chance(&mut rng).unwrap(),
        };
        state.apply(a).unwrap();
    }
    state
}

#[test]
fn expert_reads_only_its_observation() {
    for Preset { name, rules, .. } in Rules::presets() {
        for seed in 0..3 {
            let state = mid_game(&rules, seed, 40 + 2 * seed as u32);
            let Some(p) = state.current_player() else {
                continue;
            };
            // Another state with the same observation for `p`: his
            // opponent's hidden pieces drawn again.
            let mut draw = GameRng::seed_from_u64(100 + seed);
            let other = (0..50)
                .map(|_| Stratego::determinize(&state.observation(p), &mut draw).unwrap())
                .find(|s| *s != state)
                .expect("some hidden piece can differ");
            assert_eq!(state.observation(p), other.observation(p));
            let choose = |s: &Stratego| {
                let mut legal = Vec::new();
                s.legal_actions(&mut legal);
                let mut rng = GameRng::seed_from_u64(seed);
                Expert::new(Some(Budget::Iterations(3))).choose(&s.observation(p), &legal, &mut rng)
            };
            assert_eq!(choose(&state), choose(&other), "{name} seed {seed}");
        }
    }
}

#[test]
fn expert_captures_the_flag_it_can_reach() {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    for Preset { name, rules, .. } in Rules::presets() {
        let long = rules.long_mover().unwrap_or(Kind::R6);
        // The opponent's only unmoved piece is his flag, next to the
        // expert's Marshal; everything else of his has moved.
        let state = PositionBuilder::new(rules)
            .piece(sq("a1"), Piece::new(PlayerId::P0, Kind::FLAG))
            .piece(sq("e5"), Piece::new(PlayerId::P0, Kind::R0).moved())
            .piece(sq("e6"), Piece::new(PlayerId::P1, Kind::FLAG))
            .piece(sq("j10"), Piece::new(PlayerId::P1, long).moved())
            .piece(sq("a10"), Piece::new(PlayerId::P1, long).moved())
            .build()
            .unwrap();
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let mut rng = GameRng::seed_from_u64(1);
        let choice = Expert::new(Some(Budget::Iterations(4))).choose(
            &state.observation(PlayerId::P0),
            &legal,
            &mut rng,
        );
        let take = Action::Move(stratego_core::Move {
            from: sq("e5"),
            to: sq("e6"),
        });
        assert_eq!(choice, take, "{name}");
    }
}

#[test]
fn expert_probes_unmoved_pieces_with_its_cheap_pieces_not_its_marshal() {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    for Preset { name, rules, .. } in Rules::presets() {
        // Four unmoved opponent pieces, one the flag: the Marshal next to
        // one of them would take the flag one time in four, but the
        // Miner far away can probe it too (and here it is a mine).
        let state = PositionBuilder::new(rules)
            .piece(sq("a1"), Piece::new(PlayerId::P0, Kind::FLAG))
            .piece(sq("e5"), Piece::new(PlayerId::P0, Kind::R0).moved())
            .piece(sq("a4"), Piece::new(PlayerId::P0, Kind::MINER).moved())
            .piece(sq("e6"), Piece::new(PlayerId::P1, Kind::MINE))
            .piece(sq("j10"), Piece::new(PlayerId::P1, Kind::FLAG))
            .piece(sq("i10"), Piece::new(PlayerId::P1, Kind::MINE))
            .piece(sq("j9"), Piece::new(PlayerId::P1, Kind::R6))
            .piece(sq("a10"), Piece::new(PlayerId::P1, Kind::R6).moved())
            .build()
            .unwrap();
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        for seed in 0..4 {
            let mut rng = GameRng::seed_from_u64(seed);
            let choice = Expert::new(Some(Budget::Iterations(2))).choose(
                &state.observation(PlayerId::P0),
                &legal,
                &mut rng,
            );
            let probe = Action::Move(stratego_core::Move {
                from: sq("e5"),
                to: sq("e6"),
            });
            assert_ne!(choice, probe, "{name}, seed {seed}");
        }
    }
}

/// The score of `expert` against `other` in a fixed-seed match of `games`
/// games, seats alternating (a draw counts half).
fn match_score(
    rules: &Rules,
    games: u64,
    expert: impl Fn() -> Expert,
    other: impl Fn() -> Box<dyn Agent<Stratego>>,
) -> f64 {
    let mut score = 0.0;
    for seed in 0..games {
        let (mut expert, mut other) = (expert(), other());
        let seat = if seed % 2 == 0 {
            PlayerId::P0
        } else {
            PlayerId::P1
        };
        let (end, _) = if seat == PlayerId::P0 {
            play_match::<Stratego>(rules, seed, &mut [&mut expert, other.as_mut()])
        } else {
            play_match::<Stratego>(rules, seed, &mut [other.as_mut(), &mut expert])
        }
        .unwrap();
        score += match end.end().and_then(|e| e.winner) {
            Some(w) if w == seat => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    score
}

#[test]
fn expert_beats_heuristic_in_every_rule_set() {
    // The heuristic scores about half against itself: a broken expert (one
    // that searched nothing, or chose at random) would score near or below
    // four of eight in a rule set, and reach 6.5 in all three only by a
    // luck that fixed seeds make a matter of record. Eight games, not four:
    // over four, one drawn Czech game in the first two pairs decided it.
    for rules in [Rules::classic(), Rules::srazhenie(), Rules::czech()] {
        let score = match_score(
            &rules,
            8,
            || Expert::new(Some(Budget::Iterations(2))),
            || Box::new(Heuristic::default()),
        );
        assert!(score >= 6.5, "{:?}: {score} of 8", rules.variant);
    }
}

#[test]
fn expert_saves_a_known_piece_from_a_known_stronger_one() {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    for Preset { name, rules, .. } in Rules::presets() {
        // The expert's known General stands next to the opponent's known
        // Marshal, which moves next: every move but the General's leaves
        // it to be taken.
        let state = PositionBuilder::new(rules)
            .piece(sq("a1"), Piece::new(PlayerId::P0, Kind::FLAG))
            .piece(sq("b1"), Piece::new(PlayerId::P0, Kind::R5).moved())
            .piece(
                sq("e5"),
                Piece::new(PlayerId::P0, Kind::R1).moved().revealed(),
            )
            .piece(
                sq("e6"),
                Piece::new(PlayerId::P1, Kind::R0).moved().revealed(),
            )
            .piece(sq("j10"), Piece::new(PlayerId::P1, Kind::FLAG))
            .piece(sq("i10"), Piece::new(PlayerId::P1, Kind::MINE))
            .piece(sq("j9"), Piece::new(PlayerId::P1, Kind::MINE))
            .build()
            .unwrap();
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let mut rng = GameRng::seed_from_u64(1);
        let choice = Expert::new(Some(Budget::Iterations(3))).choose(
            &state.observation(PlayerId::P0),
            &legal,
            &mut rng,
        );
        let Action::Move(m) = choice else {
            panic!("{name}: {choice:?}")
        };
        assert_eq!(m.from, sq("e5"), "{name}: {choice:?}");
        assert_ne!(m.to, sq("e6"), "{name}: {choice:?}");
    }
}

/// Each line of `tests/golden/expert_v1.txt`: the actions of fixed-seed
/// games of the first expert against the heuristic, as it played them
/// before the expert of today replaced it.
#[test]
fn expert_v1_plays_as_it_was_measured() {
    let golden = include_str!("golden/expert_v1.txt");
    let mut played = String::new();
    let games = [
        (
            Rules {
                max_moves: 300,
                ..Rules::classic()
            },
            1,
        ),
        (
            Rules {
                max_moves: 300,
                ..Rules::czech()
            },
            2,
        ),
    ];
    for (rules, seed) in games {
        let mut v1 = Expert::v1(Some(Budget::Iterations(2)));
        let mut heuristic = Heuristic::default();
        let (_, record) =
            play_match::<Stratego>(&rules, seed, &mut [&mut v1, &mut heuristic]).unwrap();
        for a in record.actions() {
            played.push_str(&format!("{a}\n"));
        }
        played.push_str("--\n");
    }
    assert_eq!(played, golden);
}
