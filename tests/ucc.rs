//! The referee of the 2012 UCC programming competition's Stratego protocol
//! (`crates/game-registry/src/ucc.rs`): the example Python agent plays classic Stratego in the
//! arena from both seats, the referee shows the seat only its own pieces,
//! agents that answer garbage or an illegal move forfeit with the reason,
//! and an agent's `SURRENDER` resigns: the arena scores each as a loss.

mod common;
use common::play;

use std::time::Duration;

use game_env::{BotFailure, DynGame, EnvError, Opponent, Typed};
use game_traits::{agent_rng, chance_rng, Game, PerPlayer, PlayerId, Turn};
use tabletop_rules::stratego::{ObsCell, Square, Stratego};
use tabletop_rules::ucc::{UccBot, UccConfig, TOKENS};
use tabletop_rules::{
    format_report, play_game, registry, round_robin, run_arena, select, ArenaConfig, BotSpec,
    PlayerSpec, ReportOptions,
};

/// The rules closest to the UCC manager's: no two-square or more-squares
/// rule.
const SPEC: &str = "stratego(variant=classic,two_square_limit=none,more_squares_rule=false)";

fn example_bot() -> Vec<String> {
    vec![
        "python3".into(),
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/bots/ucc_random_bot.py"
        )
        .into(),
    ]
}

fn classic() -> std::sync::Arc<dyn DynGame> {
    select(&registry(), Some(SPEC)).unwrap().remove(0)
}

fn spawn(argv: Vec<String>, ms: u64) -> UccBot {
    UccBot::spawn(UccConfig {
        argv,
        time_limit: Duration::from_millis(ms),
    })
    .unwrap()
}

#[test]
fn the_example_agent_plays_from_both_seats_in_the_arena() {
    let bot: PlayerSpec = format!("ucc:{}", example_bot().join(" ")).parse().unwrap();
    assert!(matches!(bot, PlayerSpec::Legacy { prefix: "ucc", ref argv } if argv.len() == 2));
    assert_eq!(bot.to_string(), format!("ucc:{}", example_bot().join(" ")));
    assert!("ucc:".parse::<PlayerSpec>().is_err());
    let games = vec![classic()];
    let pairings = round_robin(&games, &[bot, PlayerSpec::Bot(BotSpec::Random)]);
    let config = ArenaConfig {
        games: 4,
        seed: 3,
        threads: 2,
        keep_records: true,
    };
    let result = run_arena(&games, &pairings, &config, &mut |_| {});
    let r = &result.pairings[0];
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.games, 4, "two games from each seat");
    assert_eq!(r.wins[0] + r.wins[1] + r.draws, 4);
    assert_eq!(result.records.len(), 4);
}

#[test]
fn it_refuses_other_rule_sets() {
    let bot: PlayerSpec = format!("ucc:{}", example_bot().join(" ")).parse().unwrap();
    let random = PlayerSpec::Bot(BotSpec::Random);
    for (spec, why) in [
        ("stratego/czech", "classic"),
        ("stratego/srazhenie", "classic"),
        ("battleline", "bots do not play this game"),
    ] {
        let game = select(&registry(), Some(spec)).unwrap().remove(0);
        let err = play_game(game.as_ref(), [&bot, &random], 1, false).unwrap_err();
        assert!(err.contains(why), "{spec}: {err}");
    }
}

/// The board the protocol shows `seat`: RED (our first seat under the
/// classic rules) sets up at the top, so the board is turned.
fn expected_board(state: &Stratego, seat: PlayerId) -> Vec<String> {
    let obs = state.observation(seat);
    (0..10u8)
        .map(|y| {
            (0..10u8)
                .map(|x| match obs.cell(Square::at(9 - y, 9 - x).unwrap()) {
                    ObsCell::Lake => '+',
                    ObsCell::Empty => '.',
                    ObsCell::Own { kind, .. } => TOKENS[kind.index()],
                    ObsCell::Foe { .. } => '#',
                })
                .collect()
        })
        .collect()
}

/// Before each move the seat is shown exactly its observation: its own
/// pieces by letter, the enemy's as `#` whatever the fights revealed.
#[test]
fn it_shows_the_seat_only_its_observation() {
    for seat in PlayerId::all() {
        let game = classic();
        let mut bots: PerPlayer<Box<dyn Opponent>> =
            PerPlayer::from_fn(|_| Box::new(spawn(example_bot(), 5000)) as Box<dyn Opponent>);
        let mut expected = Vec::new();
        let mut moves = 0;
        // Replace the watched seat's bot by one whose transcript we keep.
        let mut watched = spawn(example_bot(), 5000);
        let mut chance = chance_rng(9);
        let mut rngs = PerPlayer::from_fn(|p| agent_rng(9, p));
        let mut state = game.new_state();
        while state.turn() != Turn::Terminal && moves < 400 {
            let id = match state.turn() {
                Turn::Chance => state.sample_chance_id(&mut chance).unwrap(),
                Turn::Player(p) if p == seat => {
                    let typed = state.as_any().downcast_ref::<Typed<Stratego>>().unwrap();
                    if !typed.state().observation(seat).in_setup() {
                        expected.push(expected_board(typed.state(), seat));
                        moves += 1;
                    }
                    watched.choose(state.as_ref(), p, &mut rngs[p]).unwrap()
                }
                Turn::Player(p) => bots[p].choose(state.as_ref(), p, &mut rngs[p]).unwrap(),
                Turn::Terminal => unreachable!(),
            };
            state.apply_id(id).unwrap();
        }
        // The ten lines sent before each move answer are the board.
        let lines = watched.transcript();
        let mut boards = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let is_move_answer = line.starts_with("< ") && line.split_whitespace().count() >= 4;
            if is_move_answer && i >= 10 {
                let board: Vec<String> = lines[i - 10..i]
                    .iter()
                    .map(|l| l.trim_start_matches("> ").to_owned())
                    .collect();
                boards.push(board);
            }
        }
        assert!(moves > 10, "{seat}: {moves} moves");
        assert_eq!(boards, expected, "{seat}");
        let colour = if seat == PlayerId::P0 {
            "> RED"
        } else {
            "> BLUE"
        };
        assert!(lines[0].starts_with(colour), "{seat}: {}", lines[0]);
    }
}

/// Every fight told to the agent names the two pieces' letters, and a
/// move line follows the protocol's form.
#[test]
fn fights_are_told_with_both_ranks() {
    let game = classic();
    let mut watched = spawn(example_bot(), 5000);
    let mut other = spawn(example_bot(), 5000);
    let mut chance = chance_rng(4);
    let mut rngs = PerPlayer::from_fn(|p| agent_rng(4, p));
    let mut state = game.new_state();
    let mut steps = 0;
    while state.turn() != Turn::Terminal && steps < 1500 {
        let id = match state.turn() {
            Turn::Chance => state.sample_chance_id(&mut chance).unwrap(),
            Turn::Player(PlayerId::P0) => watched
                .choose(state.as_ref(), PlayerId::P0, &mut rngs[PlayerId::P0])
                .unwrap(),
            Turn::Player(p) => other.choose(state.as_ref(), p, &mut rngs[p]).unwrap(),
            Turn::Terminal => unreachable!(),
        };
        state.apply_id(id).unwrap();
        steps += 1;
    }
    let letters: String = TOKENS.iter().collect();
    let mut fights = 0;
    for line in watched.transcript().iter().filter(|l| l.starts_with("> ")) {
        let words: Vec<&str> = line[2..].split_whitespace().collect();
        if let Some(at) = words
            .iter()
            .position(|w| ["KILLS", "DIES", "BOTHDIE"].contains(w))
        {
            fights += 1;
            assert_eq!(words.len(), at + 3, "{line}");
            for rank in &words[at + 1..] {
                assert!(rank.len() == 1 && letters.contains(rank), "{line}");
            }
            assert!(
                ["UP", "DOWN", "LEFT", "RIGHT"].contains(&words[2]),
                "{line}"
            );
        }
    }
    assert!(fights > 0, "no fight in {steps} steps");
}

fn python(script: &str) -> Vec<String> {
    vec!["python3".into(), "-u".into(), "-c".into(), script.into()]
}

/// A random setup printer followed by `then` at the first move.
fn setup_then(then: &str) -> Vec<String> {
    python(&format!(
        "import sys\nsys.stdin.readline()\nfor r in ['FBBBBBBs12','3344455556','6667777888','8899999999']: print(r, flush=True)\n\
         while True:\n    l = sys.stdin.readline()\n    if not l: break\n    if len(l.strip()) == 10 and ' ' not in l.strip():\n        for _ in range(9): sys.stdin.readline()\n        print({then:?}, flush=True)\n"
    ))
}

fn forfeit_of(argv: Vec<String>) -> BotFailure {
    let game = classic();
    let bots: PerPlayer<Box<dyn Opponent>> = PerPlayer::from_fn(|p| match p {
        PlayerId::P0 => Box::new(spawn(argv.clone(), 3000)) as Box<dyn Opponent>,
        PlayerId::P1 => Box::new(spawn(example_bot(), 3000)) as Box<dyn Opponent>,
    });
    match play(game.as_ref(), bots, 1, |_| {}) {
        Err(EnvError::Bot { failure, .. }) => failure,
        other => panic!("expected a forfeit, got {other:?}"),
    }
}

#[test]
fn garbage_and_illegal_moves_forfeit_with_the_reason() {
    assert!(matches!(
        forfeit_of(setup_then("no move")),
        BotFailure::Garbage(_)
    ));
    // The flag at the back never moves.
    assert!(matches!(
        forfeit_of(setup_then("0 0 DOWN")),
        BotFailure::IllegalAnswer { .. }
    ));
    // A setup with a missing row.
    assert!(matches!(
        forfeit_of(python(
            "import sys\nsys.stdin.readline()\nprint('FBBBBBBs12')\nprint('')\n"
        )),
        BotFailure::Garbage(_) | BotFailure::Exited
    ));
}

#[test]
fn an_agent_that_answers_surrender_resigns() {
    assert_eq!(forfeit_of(setup_then("SURRENDER")), BotFailure::Resigned);
}

/// The arena once left a failing bot's games out of its counts, which
/// flattered the bot that failed (peternlewis surrenders lost positions).
#[test]
fn the_arena_scores_a_bot_that_fails_as_a_loss_and_says_why() {
    // A seat's program is split on whitespace: the agent goes in a file.
    let script = std::env::temp_dir().join(format!("ucc-surrender-{}.py", std::process::id()));
    std::fs::write(&script, setup_then("SURRENDER").pop().unwrap()).unwrap();
    let quitter: PlayerSpec = format!("ucc:python3 -u {}", script.display())
        .parse()
        .unwrap();
    let speaker: PlayerSpec = format!("ucc:{}", example_bot().join(" ")).parse().unwrap();
    let games = vec![classic()];
    let pairings = round_robin(&games, &[speaker, quitter]);
    let config = ArenaConfig {
        games: 4,
        seed: 5,
        threads: 2,
        keep_records: true,
    };
    let result = run_arena(&games, &pairings, &config, &mut |_| {});
    let _ = std::fs::remove_file(&script);
    let r = &result.pairings[0];
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.games, 4, "forfeits are games played");
    assert_eq!(r.wins, [4, 0], "the quitter loses each, from either seat");
    assert!(r.forfeits[0].is_empty());
    assert_eq!(r.forfeits[1], vec![BotFailure::Resigned; 4]);
    assert_eq!(result.records.len(), 4, "a forfeit keeps its record");
    let report = format_report(
        &games,
        &result,
        &ReportOptions {
            games: 4,
            seed: 5,
            threads: 2,
            ms_per_move: None,
            ladder: false,
        },
    );
    assert!(
        report.contains("forfeited 4: the bot resigned (4)"),
        "{report}"
    );
}
