//! The JSON-lines bot protocol: the shipped Python bot plays every game to
//! the end, misbehaving bots forfeit with the reason and never hang the
//! referee, and `cmd:` seats play in the server only when allowed.

use crate::common;

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use common::*;
use game_env::{BotFailure, EnvError, ProtocolBot, ProtocolConfig};
use game_traits::{PlayerId, Turn};
use serde_json::json;
use tabletop_server::registry;
use tabletop_server::room::chance_rng;

fn example_bot() -> String {
    format!("{}/examples/bots/random_bot.py", env!("CARGO_MANIFEST_DIR"))
}

fn config(argv: Vec<String>, spec: &str, ms: u64) -> ProtocolConfig {
    ProtocolConfig {
        argv,
        time_limit: Duration::from_millis(ms),
        game: spec.to_owned(),
        legend: String::new(),
    }
}

/// A Python bot whose body handles each turn message `msg`.
fn script(name: &str, turn_body: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tabletop-bots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let code = format!(
        "import json, sys, time\nfor line in sys.stdin:\n    msg = json.loads(line)\n    if msg['type'] != 'turn':\n        continue\n{turn_body}\n"
    );
    std::fs::write(&path, code).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn the_example_python_bot_plays_every_game_to_the_end_from_either_seat() {
    for spec in specs() {
        let game = registry().load(&spec).unwrap();
        for seat in PlayerId::BOTH {
            for seed in 0..3u64 {
                let mut bot = ProtocolBot::spawn(config(
                    vec!["python3".into(), example_bot(), seed.to_string()],
                    &spec,
                    10_000,
                ))
                .unwrap();
                let mut s = game.new_state();
                let mut ids = Vec::new();
                let mut step = 0;
                while !s.is_terminal() {
                    let (by, id) = match s.turn() {
                        Turn::Chance => (
                            None,
                            s.sample_chance_id(&mut chance_rng(seed, step)).unwrap(),
                        ),
                        Turn::Player(p) if p == seat => (Some(p), bot.decide(&*s, seat).unwrap()),
                        Turn::Player(p) => {
                            s.legal_ids(&mut ids);
                            (Some(p), ids[pick(seed, step as u64, ids.len())])
                        }
                        Turn::Terminal => unreachable!(),
                    };
                    bot.tell(&*s, by, seat, id).unwrap();
                    s.apply_id(id).unwrap();
                    step += 1;
                }
                assert!(s.outcome().is_some());
            }
        }
    }
}

/// The regression test of the float bug: version 1 of the protocol sent
/// the engine's serialisation through `serde_json::Value`, which turned a
/// Battle Line card set above 2^53 into a float with bits lost. A bot that
/// writes down every turn message it is sent must find, for every preset
/// and seat, exactly the observation struct, legal actions and events the
/// referee holds.
#[test]
fn a_bot_is_told_exactly_the_observation_legal_actions_and_events() {
    let echo = script(
        "echo.py",
        "    with open(sys.argv[1], 'a') as out:\n        out.write(json.dumps(msg) + '\\n')\n    print(json.dumps({'action': msg['legal'][-1]['id']}), flush=True)",
    );
    for spec in specs() {
        let game = registry().load(&spec).unwrap();
        for seat in PlayerId::BOTH {
            let log = std::env::temp_dir().join(format!(
                "tabletop-echo-{}-{}-{}.jsonl",
                std::process::id(),
                spec.replace(['(', ')', '=', ',', '/'], "_"),
                seat.index()
            ));
            let _ = std::fs::remove_file(&log);
            let argv = vec!["python3".into(), echo.clone(), log.display().to_string()];
            let mut bot = ProtocolBot::spawn(config(argv, &spec, 10_000)).unwrap();
            let mut s = game.new_state();
            let mut expected = Vec::new();
            let mut events = Vec::new();
            let (mut ids, mut step, mut turns) = (Vec::new(), 0, 0);
            // Far enough into each game for tactics cards in hand, fights,
            // prayers and hidden pieces moving.
            while !s.is_terminal() && turns < 40 {
                let (by, id) = match s.turn() {
                    Turn::Chance => (None, s.sample_chance_id(&mut chance_rng(7, step)).unwrap()),
                    Turn::Player(p) if p == seat => {
                        expected.push(json!({
                            "observation": s.observation_struct(seat).unwrap(),
                            "legal": serde_json::to_value(s.legal_actions()).unwrap(),
                            "events": std::mem::take(&mut events),
                        }));
                        turns += 1;
                        (Some(p), bot.decide(&*s, seat).unwrap())
                    }
                    Turn::Player(p) => {
                        s.legal_ids(&mut ids);
                        (Some(p), ids[pick(7, step as u64, ids.len())])
                    }
                    Turn::Terminal => unreachable!(),
                };
                bot.tell(&*s, by, seat, id).unwrap();
                events.push(json!({
                    "by": by,
                    "text": s.action_view(seat, id).unwrap(),
                    "view": s.view_struct(seat, id).unwrap(),
                }));
                s.apply_id(id).unwrap();
                step += 1;
            }
            drop(bot);
            let told: Vec<serde_json::Value> = std::fs::read_to_string(&log)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert_eq!(told.len(), expected.len(), "{spec} seat {seat}");
            for (t, e) in told.iter().zip(&expected) {
                for field in ["observation", "legal", "events"] {
                    assert_eq!(t[field], e[field], "{spec} seat {seat}: {field}");
                }
            }
            let _ = std::fs::remove_file(&log);
        }
    }
}

#[test]
fn a_bot_answering_garbage_an_illegal_id_nothing_or_exiting_forfeits_with_the_reason() {
    let spec = &specs()[0];
    let game = registry().load(spec).unwrap();
    let mut s = game.new_state();
    while s.turn() == Turn::Chance {
        s.play_chance(&mut chance_rng(1, 0));
    }
    let Turn::Player(seat) = s.turn() else {
        panic!("a player decides")
    };
    type Case = (&'static str, &'static str, fn(&BotFailure) -> bool);
    let cases: Vec<Case> = vec![
        ("garbage.py", "    print('I resign', flush=True)", |e| {
            matches!(e, BotFailure::Garbage(_))
        }),
        (
            "string.py",
            "    print(json.dumps({'action': '0'}), flush=True)",
            |e| matches!(e, BotFailure::Garbage(_)),
        ),
        (
            "illegal.py",
            "    print(json.dumps({'action': 1 << 40}), flush=True)",
            |e| matches!(e, BotFailure::Illegal(_)),
        ),
        ("silent.py", "    time.sleep(60)", |e| {
            matches!(e, BotFailure::Timeout(_))
        }),
        ("exits.py", "    sys.exit(3)", |e| {
            matches!(e, BotFailure::Exited)
        }),
        ("huge.py", "    print('x' * 200000, flush=True)", |e| {
            matches!(e, BotFailure::Garbage(_))
        }),
    ];
    for (name, body, expected) in cases {
        let path = script(name, body);
        let mut bot = ProtocolBot::spawn(config(vec!["python3".into(), path], spec, 1500)).unwrap();
        let start = Instant::now();
        let err = bot.decide(&*s, seat).unwrap_err();
        let EnvError::Bot { failure, .. } = &err else {
            panic!("{name}: {err}")
        };
        assert!(expected(failure), "{name}: {err}");
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{name} took {:?}",
            start.elapsed()
        );
        assert!(!err.to_string().is_empty());
        let dropped = Instant::now();
        drop(bot);
        assert!(
            dropped.elapsed() < Duration::from_secs(3),
            "{name}: dropping the bot waits"
        );
    }
    let missing = ProtocolBot::spawn(config(vec!["/no/such/bot".into()], spec, 100));
    assert!(matches!(missing, Err(BotFailure::Spawn { .. })));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cmd_seat_plays_in_the_server_when_allowed_and_a_silent_one_forfeits() {
    let (_, app) = app(true);
    let spec = specs()[0].clone();
    for (i, spec) in specs().iter().enumerate() {
        let cmd = format!("cmd:python3 {} {i}", example_bot());
        let (id, tokens) = create(&app, spec, ["human", &cmd], i as u64).await;
        let end = play_out(&app, id, tokens[0].as_ref().unwrap(), i as u64, 5_000).await;
        assert!(end["outcome"]["forfeit"].is_null(), "{}", end["outcome"]);
    }
    let silent = format!(
        "cmd:python3 {}",
        script("silent_seat.py", "    time.sleep(60)")
    );
    // The server's test config gives a protocol bot 5 s per decision.
    let (id, tokens) = create(&app, &spec, [&silent, "human"], 3).await;
    let end = play_out(&app, id, tokens[1].as_ref().unwrap(), 3, 20_000).await;
    assert_eq!(
        end["outcome"]["forfeit"]["seat"],
        json!(0),
        "{}",
        end["outcome"]
    );
    assert!(end["outcome"]["text"]
        .as_str()
        .unwrap()
        .contains("no answer"));
    assert_eq!(end["outcome"]["winner"], json!(1));
    let r = send(
        &app,
        "POST",
        &format!("/api/matches/{id}/actions"),
        tokens[1].as_deref(),
        Some(b"{\"action\":0}".to_vec()),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
}
