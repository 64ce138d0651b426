//! The logic behind the example binaries, on Kuhn poker (the test-kit's
//! tiny game) and on every game compiled in.

use std::io::Cursor;

use game_traits::kuhn::{KuhnPoker, KuhnRules};
use game_traits::{Outcome, PlayerId};
use tabletop_rules::arena::{round_robin, run_arena, ArenaConfig, ArenaResult};
use tabletop_rules::bots::BotSpec;
use tabletop_rules::play::{PlayOptions, SessionEnd};
use tabletop_rules::registry::{table_for_record, tables, GameTable, Table};
use tabletop_rules::replay::{pick_record, View};

fn kuhn_tables() -> Vec<Box<dyn Table>> {
    vec![Box::new(GameTable::<KuhnPoker>::new(
        "kuhn",
        KuhnRules::default(),
    ))]
}

fn arena(tables: &[Box<dyn Table>], bots: &[BotSpec], games: u32, threads: usize) -> ArenaResult {
    let pairings = round_robin(tables, bots);
    let config = ArenaConfig {
        games,
        seed: 11,
        threads,
        keep_records: true,
    };
    run_arena(tables, &pairings, &config, &mut |_| {})
}

#[test]
fn arena_records_replay_to_the_same_results() {
    let tables = kuhn_tables();
    let bots = [
        BotSpec::Random,
        BotSpec::Flat(Some(20)),
        BotSpec::Ismcts(Some(20)),
    ];
    let result = arena(&tables, &bots, 6, 2);
    assert_eq!(result.pairings.len(), 3);
    assert_eq!(result.records.len(), 18);
    let jsonl = result.records.join("\n") + "\n";
    let mut outcomes = Vec::new();
    for line in 1..=18 {
        let json = pick_record(&jsonl, line).unwrap();
        let table = table_for_record(&tables, json).unwrap();
        let mut printed = Vec::new();
        outcomes.push(
            table
                .replay(json, View::Omniscient, &mut printed)
                .unwrap()
                .unwrap(),
        );
        assert!(!printed.is_empty());
    }
    // Tally the replayed outcomes as the arena did: even games have bot A in
    // seat 0.
    for (p, r) in result.pairings.iter().enumerate() {
        let mut wins = [0; 2];
        for (g, outcome) in outcomes[p * 6..p * 6 + 6].iter().enumerate() {
            if let Outcome::Win(w) = outcome {
                wins[usize::from((*w == PlayerId::P0) != (g % 2 == 0))] += 1;
            }
        }
        assert_eq!(wins, r.wins, "pairing {p}");
    }
}

#[test]
fn arena_results_do_not_depend_on_the_thread_count() {
    let tables = kuhn_tables();
    let bots = [BotSpec::Random, BotSpec::Ismcts(Some(30))];
    let one = arena(&tables, &bots, 20, 1);
    let three = arena(&tables, &bots, 20, 3);
    assert_eq!(one.records, three.records);
    for (a, b) in one.pairings.iter().zip(&three.pairings) {
        assert_eq!((a.wins, a.draws, a.moves), (b.wins, b.draws, b.moves));
    }
}

#[test]
fn arena_skips_a_heuristic_the_game_lacks() {
    let pairings = round_robin(
        &kuhn_tables(),
        &[BotSpec::Random, BotSpec::Heuristic, BotSpec::Flat(None)],
    );
    assert_eq!(pairings.len(), 1);
    assert_eq!(pairings[0].bots, [BotSpec::Random, BotSpec::Flat(None)]);
}

fn session(script: &[u8], options: &PlayOptions) -> (SessionEnd, String) {
    let tables = kuhn_tables();
    let mut input = Cursor::new(script.to_vec());
    let mut output = Vec::new();
    let end = tables[0]
        .play_interactive(options, &mut input, &mut output)
        .unwrap();
    (end, String::from_utf8(output).unwrap())
}

#[test]
fn scripted_play_session_reaches_the_end_and_saves_a_replayable_record() {
    let dir = std::env::temp_dir().join(format!("tabletop-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for seat in [PlayerId::P0, PlayerId::P1] {
        let path = dir.join(format!("kuhn-{seat}.json"));
        let options = PlayOptions {
            bot: BotSpec::Ismcts(Some(50)),
            seat,
            seed: 5,
            save: Some(path.clone()),
        };
        // Junk, an out-of-range number and bad bytes first; then "bet" by
        // notation and "1" (pass) by number, enough for any Kuhn game.
        let script = b"hello\n0\n7\n\xff\xfe\nhelp\nmoves\nBET\n1\n1\n";
        let (end, text) = session(script, &options);
        assert!(matches!(end, SessionEnd::Finished(_)), "{text}");
        assert!(text.contains("\"hello\" is not a legal move"), "{text}");
        assert!(text.contains("there is no move 0"), "{text}");
        assert!(text.contains("Game over."), "{text}");
        let json = std::fs::read_to_string(&path).unwrap();
        let tables = kuhn_tables();
        let mut printed = Vec::new();
        let replayed = table_for_record(&tables, &json)
            .unwrap()
            .replay(&json, View::Seat(seat), &mut printed)
            .unwrap();
        assert_eq!(replayed.map(SessionEnd::Finished), Some(end));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_session_ends_cleanly_when_input_runs_out_or_on_quit() {
    let options = PlayOptions {
        bot: BotSpec::Random,
        ..PlayOptions::default()
    };
    assert_eq!(session(b"", &options).0, SessionEnd::InputEnded);
    // Handing every move to the bot plays the game out.
    let (end, text) = session(b"bot 9\n", &options);
    assert!(matches!(end, SessionEnd::Finished(_)), "{text}");
    assert!(text.contains("(bot for you)"), "{text}");
    assert_eq!(session(b"nonsense\nquit\n", &options).0, SessionEnd::Quit);
}

#[test]
fn replay_refuses_tampered_and_foreign_records() {
    let tables = kuhn_tables();
    let result = arena(&tables, &[BotSpec::Random, BotSpec::Flat(Some(5))], 2, 1);
    let good = &result.records[0];
    let mut sink = Vec::new();
    // An illegal action: a third card dealt.
    let tampered = good.replacen(
        "\"actions\":[",
        "\"actions\":[{\"Deal\":\"Jack\"},{\"Deal\":\"Jack\"},",
        1,
    );
    assert!(tables[0]
        .replay(&tampered, View::Omniscient, &mut sink)
        .is_err());
    assert!(tables[0]
        .replay("{\"game\":\"kuhn-poker\"}", View::Omniscient, &mut sink)
        .is_err());
    assert!("p2".parse::<View>().is_err());
    assert_eq!("p1".parse::<View>(), Ok(View::Seat(PlayerId::P1)));
    assert!(table_for_record(&tables, &good.replace("kuhn-poker", "chess")).is_err());
    assert!(table_for_record(&tables, "[1, 2").is_err());
    assert!(pick_record("{}\n{}\n", 3).is_err());
}

#[test]
fn every_registered_game_plays_replays_and_has_a_session() {
    let tables = tables();
    for table in &tables {
        let played = table
            .play([BotSpec::Random, BotSpec::Random], 3, true)
            .unwrap();
        let json = played.record.unwrap();
        let mut sink = Vec::new();
        assert_eq!(
            table.replay(&json, View::Seat(PlayerId::P1), &mut sink),
            Ok(Some(played.outcome))
        );
    }
}

#[test]
fn scripted_sessions_reach_the_end_of_every_game() {
    // A person who always types "1" (the first listed move), against a
    // random bot, in both seats.
    let script = "1\n".repeat(20_000);
    for table in &tables() {
        for seat in [PlayerId::P0, PlayerId::P1] {
            let options = PlayOptions {
                bot: BotSpec::Random,
                seat,
                seed: 9,
                save: None,
            };
            let mut input = Cursor::new(script.as_bytes());
            let mut output = Vec::new();
            let end = table
                .play_interactive(&options, &mut input, &mut output)
                .unwrap();
            let text = String::from_utf8_lossy(&output);
            let tail: String = text
                .chars()
                .rev()
                .take(2000)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            assert!(
                matches!(end, SessionEnd::Finished(_)),
                "{} {seat}: {end:?}\n{tail}",
                table.name()
            );
            assert!(text.contains("Legal moves:") || text.contains("legal moves (type"));
        }
    }
}
