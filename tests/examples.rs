//! The logic behind the example binaries, on Kuhn poker (the smallest game)
//! and on every game of the registry: the arena, the play session and the
//! replay printer, and that a screen shows a player nothing his seat may
//! not know.

use std::collections::HashSet;
use std::io::Cursor;
use std::sync::Arc;

use game_env::{DynGame, DynState};
use game_traits::{GameRng, Outcome, PlayerId, Turn};
use rand::SeedableRng;
use tabletop_rules::{
    arena_bot, move_label, narrate, pick_record, play_game, play_session, registry, replay_record,
    round_robin, run_arena, select, ArenaConfig, ArenaResult, BotSpec, Budget, PlayOptions,
    PlayerSpec, SessionEnd, View, ARENA_TABLES, BOT_NOTE, ROUTINE_NOTE,
};

fn kuhn() -> Vec<Arc<dyn DynGame>> {
    select(&registry(), Some("kuhn_poker")).unwrap()
}

fn arena(tables: &[Arc<dyn DynGame>], bots: &[BotSpec], games: u32, threads: usize) -> ArenaResult {
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
    let tables = kuhn();
    let bots = [
        BotSpec::Random,
        BotSpec::Flat(Some(Budget::Iterations(20))),
        BotSpec::Ismcts(Some(Budget::Iterations(20))),
    ];
    let result = arena(&tables, &bots, 6, 2);
    assert_eq!(result.pairings.len(), 3);
    assert_eq!(result.records.len(), 18);
    let jsonl = result.records.join("\n") + "\n";
    let registry = registry();
    let mut outcomes = Vec::new();
    for line in 1..=18 {
        let json = pick_record(&jsonl, line).unwrap();
        let mut printed = Vec::new();
        outcomes.push(
            replay_record(&registry, json, View::Omniscient, &mut printed)
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
    let tables = kuhn();
    let bots = [
        BotSpec::Random,
        BotSpec::Ismcts(Some(Budget::Iterations(30))),
    ];
    let one = arena(&tables, &bots, 20, 1);
    let three = arena(&tables, &bots, 20, 3);
    assert_eq!(one.records, three.records);
    for (a, b) in one.pairings.iter().zip(&three.pairings) {
        assert_eq!((a.wins, a.draws, a.moves), (b.wins, b.draws, b.moves));
    }
}

#[test]
fn arena_skips_a_heuristic_the_game_lacks_and_pairs_a_bot_with_itself() {
    let pairings = round_robin(
        &kuhn(),
        &[BotSpec::Random, BotSpec::Heuristic, BotSpec::Flat(None)],
    );
    assert_eq!(pairings.len(), 1);
    assert_eq!(
        pairings[0].bots,
        [BotSpec::Random.into(), BotSpec::Flat(None).into()]
    );
    let mirror = round_robin(&kuhn(), &[BotSpec::Random, BotSpec::Random]);
    assert_eq!(mirror.len(), 1);
}

fn session(game: &dyn DynGame, script: &[u8], options: &PlayOptions) -> (SessionEnd, String) {
    let mut input = Cursor::new(script.to_vec());
    let mut output = Vec::new();
    let end = play_session(game, options, &mut input, &mut output).unwrap();
    (end, String::from_utf8(output).unwrap())
}

#[test]
fn scripted_play_session_reaches_the_end_and_saves_a_replayable_record() {
    let dir = std::env::temp_dir().join(format!("tabletop-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = &kuhn()[0];
    for seat in [PlayerId::P0, PlayerId::P1] {
        let path = dir.join(format!("kuhn-{seat}.json"));
        let options = PlayOptions {
            bot: Some(BotSpec::Ismcts(Some(Budget::Iterations(50)))),
            seat,
            seed: 5,
            save: Some(path.clone()),
            records: None,
        };
        // Junk, an out-of-range number, bad bytes, a move that exists but
        // is not legal now (a deal), then "bet" by notation and "1" (pass)
        // by number, enough for any Kuhn game.
        let script = b"hello\n0\n7\n\xff\xfe\nhelp\nmoves\ndeal K\nBET\n1\n1\n";
        let (end, text) = session(game.as_ref(), script, &options);
        assert!(matches!(end, SessionEnd::Finished(_)), "{text}");
        assert!(text.contains("\"hello\" is not a legal move"), "{text}");
        assert!(text.contains("there is no move 0"), "{text}");
        assert!(text.contains("is not allowed now"), "{text}");
        assert!(text.contains("Game over."), "{text}");
        let json = std::fs::read_to_string(&path).unwrap();
        let mut printed = Vec::new();
        let replayed = replay_record(&registry(), &json, View::Seat(seat), &mut printed).unwrap();
        assert_eq!(replayed.map(SessionEnd::Finished), Some(end));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_session_ends_cleanly_when_input_runs_out_or_on_quit() {
    let game = &kuhn()[0];
    let options = PlayOptions {
        bot: Some(BotSpec::Random),
        ..PlayOptions::default()
    };
    assert_eq!(
        session(game.as_ref(), b"", &options).0,
        SessionEnd::InputEnded
    );
    // Handing every move to the bot plays the game out.
    let (end, text) = session(game.as_ref(), b"bot 9\n", &options);
    assert!(matches!(end, SessionEnd::Finished(_)), "{text}");
    assert!(text.contains("(bot for you)"), "{text}");
    assert_eq!(
        session(game.as_ref(), b"nonsense\nquit\n", &options).0,
        SessionEnd::Quit
    );
    let heuristic = PlayOptions {
        bot: Some(BotSpec::Heuristic),
        ..options
    };
    assert_eq!(
        session(game.as_ref(), b"1\n", &heuristic).0,
        SessionEnd::Quit
    );
}

#[test]
fn replay_refuses_tampered_and_foreign_records() {
    let tables = kuhn();
    let result = arena(
        &tables,
        &[BotSpec::Random, BotSpec::Flat(Some(Budget::Iterations(5)))],
        2,
        1,
    );
    let good = &result.records[0];
    let registry = registry();
    let mut sink = Vec::new();
    // An illegal action: a third card dealt.
    let tampered = good.replacen(
        "\"actions\":[",
        "\"actions\":[{\"Deal\":\"Jack\"},{\"Deal\":\"Jack\"},",
        1,
    );
    assert!(replay_record(&registry, &tampered, View::Omniscient, &mut sink).is_err());
    assert!(replay_record(
        &registry,
        "{\"game\":\"kuhn-poker\"}",
        View::Omniscient,
        &mut sink
    )
    .is_err());
    assert!(replay_record(
        &registry,
        &good.replace("kuhn-poker", "chess"),
        View::Omniscient,
        &mut sink
    )
    .is_err());
    assert!(replay_record(&registry, "[1, 2", View::Omniscient, &mut sink).is_err());
    assert!("p2".parse::<View>().is_err());
    assert_eq!("p1".parse::<View>(), Ok(View::Seat(PlayerId::P1)));
    assert!(pick_record("{}\n{}\n", 3).is_err());
}

#[test]
fn every_arena_table_plays_and_replays() {
    let registry = registry();
    for game in select(&registry, None).unwrap() {
        let random = PlayerSpec::Bot(BotSpec::Random);
        let played = play_game(game.as_ref(), [&random, &random], 3, true).unwrap();
        let json = played.record.unwrap();
        let mut sink = Vec::new();
        assert_eq!(
            replay_record(&registry, &json, View::Seat(PlayerId::P1), &mut sink),
            Ok(Some(played.outcome)),
            "{}",
            game.name()
        );
    }
    if cfg!(all(
        feature = "battleline",
        feature = "stratego",
        feature = "cardwar"
    )) {
        assert_eq!(select(&registry, None).unwrap().len(), ARENA_TABLES.len());
    }
    assert!(select(&registry, Some("chess")).is_err());
    let two = select(&registry, Some("kuhn_poker(ante=2),kuhn_poker/high")).unwrap();
    assert_eq!(two.len(), 2);
}

/// Every line a seat's screen may show at this point of a game: his
/// observation, his view of the action, his own legal moves, the legend.
fn allowed_lines(
    game: &dyn DynGame,
    state: &mut dyn DynState,
    id: usize,
    me: PlayerId,
    into: &mut HashSet<String>,
) {
    for line in state.observation_text(me).lines() {
        into.insert(line.trim_end().to_owned());
    }
    into.insert(narrate(state, id, me));
    if state.turn() == Turn::Player(me) {
        let mut legal = Vec::new();
        state.legal_ids(&mut legal);
        for l in legal {
            into.insert(move_label(state, l, me));
        }
    }
    for line in game.legend().lines() {
        into.insert(line.trim_end().to_owned());
    }
    into.insert(game.title().to_owned());
    for line in tabletop_rules::help(game).lines() {
        into.insert(line.to_owned());
    }
}

/// `text` without the setup dialog's screens (from its opening to the
/// answer at its prompt): what they show is drawn from the person's own
/// stream of suggested setups over his own observation, which the setup
/// tests in `terminal.rs` check; the setups played are told after it.
fn without_setup_dialog(text: &str, me: PlayerId) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("Set up your army in one step") {
            inside = true;
        }
        if inside {
            if let Some((_, rest)) = line.split_once(&format!("{me} setup> ")) {
                inside = false;
                out.push_str(rest);
                out.push('\n');
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The lines of `text` that are none of `allowed` and no fixed line of the
/// session's or the replay's own wording.
fn unexplained<'a>(text: &'a str, allowed: &HashSet<String>, me: PlayerId) -> Vec<&'a str> {
    let fixed_starts = [
        "Type a move",
        "Commands: moves",
        "bot [N] (",
        "save [FILE] (",
        "Legal moves:",
        "Game over.",
        "record saved",
        "after ",
        "input ended",
        "game left",
        "legal moves (type",
    ];
    text.lines()
        .map(str::trim_end)
        .filter(|line| !line.is_empty())
        .filter(|line| {
            let bare = line.trim_start_matches(&format!("{me}> ")[..]);
            // A move made for the person is told as any other, with a note.
            let bare = [BOT_NOTE, ROUTINE_NOTE]
                .iter()
                .fold(bare, |b, note| b.strip_suffix(note).unwrap_or(b));
            let numbered = bare
                .trim_start()
                .split_once(". ")
                .map_or(bare, |(n, rest)| {
                    if n.trim().chars().all(|c| c.is_ascii_digit()) {
                        rest
                    } else {
                        bare
                    }
                });
            let listed = bare
                .split("  ")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .all(|item| {
                    item.split_once(") ").is_some_and(|(n, m)| {
                        n.trim().chars().all(|c| c.is_ascii_digit()) && allowed.contains(m)
                    })
                });
            // "63 legal moves (type `moves` to list them): ..., e.g. A, B":
            // the examples are the seat's own legal moves.
            let summary = bare
                .split_once(" legal moves (type `moves` to list them)")
                .is_some_and(|(count, rest)| {
                    count.chars().all(|c| c.is_ascii_digit())
                        && rest.split_once("e.g. ").is_some_and(|(_, examples)| {
                            examples.split(", ").all(|m| allowed.contains(m))
                        })
                });
            !(summary
                || allowed.contains(bare)
                || allowed.contains(numbered)
                || listed
                || fixed_starts.iter().any(|f| bare.starts_with(f))
                || bare.starts_with("You are ")
                || bare.ends_with("you win.")
                || bare.ends_with("you lose.")
                || bare == "Draw."
                || bare == "draw"
                || bare.ends_with(" wins"))
        })
        .collect()
}

/// Whether a twin of `state` drawn from `me`'s observation, in which
/// action `id` leaves `me` the same observation as in `state`, was found
/// (a few draws are tried); panics when the twin's account of the action
/// differs, or the account of another legal action that leaves `me` the
/// same observation (another card dealt to the opponent) differs: then the
/// line told `me` (a fight's result, a claim's proof, a card) read
/// something he cannot see, before or after the action.
fn same_story_in_a_twin(state: &dyn DynState, id: usize, me: PlayerId, rng: &mut GameRng) -> bool {
    let told = narrate(state, id, me);
    let mut after = state.clone_box();
    after.apply_id(id).unwrap();
    let seen = after.observation_json(me);
    let mut legal = Vec::new();
    state.legal_ids(&mut legal);
    let stride = legal.len().div_ceil(12).max(1);
    for &other in legal.iter().step_by(stride) {
        let mut other_after = state.clone_box();
        other_after.apply_id(other).unwrap();
        if other_after.observation_json(me) == seen {
            assert_eq!(
                narrate(state, other, me),
                told,
                "{me} cannot tell {} from {}, but is told them apart",
                state.action_text(other).unwrap(),
                state.action_text(id).unwrap()
            );
        }
    }
    for _ in 0..6 {
        let twin = state.resample(me, rng).unwrap();
        if twin.check_id(id).is_err() {
            continue;
        }
        let mut twin_after = twin.clone_box();
        twin_after.apply_id(id).unwrap();
        if twin_after.observation_json(me) == seen {
            assert_eq!(
                narrate(twin.as_ref(), id, me),
                told,
                "{me}'s account of {} depends on what he cannot see",
                state.action_text(id).unwrap()
            );
            return true;
        }
    }
    false
}

#[test]
fn play_and_replay_print_nothing_the_viewer_could_not_know() {
    let registry = registry();
    let dir = std::env::temp_dir().join(format!("tabletop-leak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut games = select(&registry, None).unwrap();
    games.extend(kuhn());
    for game in &games {
        for me in PlayerId::BOTH {
            let path = dir.join("record.json");
            let options = PlayOptions {
                bot: Some(BotSpec::Random),
                seat: me,
                seed: 21,
                save: Some(path.clone()),
                records: None,
            };
            // The person hands every move to a random bot of his own.
            let (end, text) = session(game.as_ref(), b"bot 100000\n", &options);
            assert!(
                matches!(end, SessionEnd::Finished(_)),
                "{}: {end:?}",
                game.name()
            );
            let json = std::fs::read_to_string(&path).unwrap();
            let mut replayed = Vec::new();
            replay_record(&registry, &json, View::Seat(me), &mut replayed).unwrap();
            let replayed = String::from_utf8(replayed).unwrap();
            let (_, _, ids) = registry.load_record(&json).unwrap();
            // What the seat may know at each step, and proof that each
            // line told him depends on nothing else: the same line comes
            // out of a state drawn from his own observation.
            let mut allowed = HashSet::new();
            let mut state = game.new_state();
            let mut rng = GameRng::seed_from_u64(5);
            let mut checked = 0;
            for (step, &id) in ids.iter().enumerate() {
                allowed_lines(game.as_ref(), state.as_mut(), id, me, &mut allowed);
                if step % 3 == 0 && same_story_in_a_twin(state.as_ref(), id, me, &mut rng) {
                    checked += 1;
                }
                state.apply_id(id).unwrap();
            }
            for line in state.observation_text(me).lines() {
                allowed.insert(line.trim_end().to_owned());
            }
            // A setup is told in one line: the person's written out from
            // his own placements, the opponent's naming nothing.
            let mut state = game.new_state();
            let mut mine = Vec::new();
            for &id in &ids {
                if state.turn() == Turn::Player(me) {
                    mine.push(id);
                }
                state.apply_id(id).unwrap();
            }
            if let Some(setup) = mine.get(..40).and_then(|m| game.write_setup(m)) {
                allowed.insert(format!("you: set up your 40 pieces: {setup}"));
                allowed.insert(format!("{}: set up his 40 pieces", me.other()));
            }
            let text = without_setup_dialog(&text, me);
            assert!(checked > 0, "{}: nothing compared", game.name());
            for (what, printed) in [("play", &text), ("replay --view", &replayed)] {
                let odd = unexplained(printed, &allowed, me);
                assert!(
                    odd.is_empty(),
                    "{} {what} from {me} prints lines outside his information: {:?}",
                    game.name(),
                    &odd[..odd.len().min(5)]
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_example_python_bot_plays_in_the_arena() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/tabletop-server/examples/bots/random_bot.py"
    );
    let bot: PlayerSpec = format!("cmd:python3 {script}").parse().unwrap();
    assert!("cmd:".parse::<PlayerSpec>().is_err());
    assert!(arena_bot("nonsense").is_err());
    // A game's own bot by name: some game must have it.
    assert!(arena_bot("expert-v1:5").is_ok());
    let typo = arena_bot("expert-v2").unwrap_err().to_string();
    assert!(typo.contains("expert-v1"), "{typo}");
    let mut games = kuhn();
    games.extend(select(&registry(), None).unwrap());
    let bots = [PlayerSpec::Bot(BotSpec::Random), bot];
    let pairings = round_robin(&games, &bots);
    let config = ArenaConfig {
        games: 2,
        seed: 4,
        threads: 2,
        keep_records: true,
    };
    let result = run_arena(&games, &pairings, &config, &mut |_| {});
    for r in &result.pairings {
        assert!(
            r.errors.is_empty(),
            "{}: {:?}",
            games[r.pairing.table].name(),
            r.errors
        );
        assert_eq!(r.games, 2);
    }
    // A bot that answers garbage forfeits: the game is the other seat's,
    // with the referee's reason.
    let broken: PlayerSpec = "cmd:python3 -c print('hello')".parse().unwrap();
    let random = PlayerSpec::Bot(BotSpec::Random);
    let played = play_game(games[0].as_ref(), [&broken, &random], 1, false).unwrap();
    let (seat, failure) = played.forfeit.expect("the broken bot forfeits");
    assert_eq!(seat, PlayerId::P0);
    assert!(
        matches!(
            failure,
            game_env::BotFailure::Garbage(_) | game_env::BotFailure::Exited
        ),
        "{failure:?}"
    );
    assert_eq!(played.outcome, Outcome::Win(PlayerId::P1));
}

#[cfg(feature = "cardwar")]
#[test]
fn the_prayer_is_offered_once_per_battle_in_a_card_war_session() {
    let game = registry().load("cardwar").unwrap();
    let options = PlayOptions {
        bot: Some(BotSpec::Random),
        seat: PlayerId::P0,
        seed: 3,
        save: None,
        records: None,
    };
    // At a prayer offer "decline" declines and "1" goes to the next
    // question; at a lay "decline" is refused and "1" lays a card.
    let script = "decline\n1\n".repeat(4000);
    let (end, text) = session(game.as_ref(), script.as_bytes(), &options);
    assert!(matches!(end, SessionEnd::Finished(_)), "{end:?}");
    let auto = text
        .matches("as you answered before in this battle")
        .count();
    assert!(auto > 0, "never declined for the person");
}

#[cfg(all(feature = "battleline", feature = "stratego", feature = "cardwar"))]
#[test]
fn the_opponent_a_person_meets_by_default_is_the_games_expert() {
    let games = registry();
    for name in ["battleline", "stratego", "cardwar"] {
        let game = games.load(name).unwrap();
        assert_eq!(
            tabletop_rules::strongest_bot(game.as_ref()),
            BotSpec::Expert(None),
            "{name}"
        );
        let (_, text) = session(game.as_ref(), b"quit\n", &PlayOptions::default());
        let first = text.lines().nth(1).unwrap_or_default().to_owned();
        assert!(
            first.contains("against the expert, the game's strongest bot"),
            "{name}: {first}"
        );
    }
    // A game without an expert meets its search bot.
    let kuhn = &kuhn()[0];
    assert_eq!(
        tabletop_rules::strongest_bot(kuhn.as_ref()),
        BotSpec::Ismcts(None)
    );
}
