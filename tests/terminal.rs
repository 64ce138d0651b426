//! The terminal session as a person meets it: moves typed in short forms,
//! each action told in words with one prefix, placements that name their
//! squares, fights told as far as the viewer may know them, the legend on
//! demand only, and records saved outside the checkout.

use std::io::Cursor;

use game_env::DynGame;
use game_traits::PlayerId;
use tabletop_rules::{play_session, registry, select, BotSpec, PlayOptions, SessionEnd, BOT_NOTE};

fn session(game: &dyn DynGame, script: &[u8], options: &PlayOptions) -> (SessionEnd, String) {
    let mut input = Cursor::new(script.to_vec());
    let mut output = Vec::new();
    let end = play_session(game, options, &mut input, &mut output).unwrap();
    (end, String::from_utf8(output).unwrap())
}

fn kuhn() -> std::sync::Arc<dyn DynGame> {
    select(&registry(), Some("kuhn_poker")).unwrap().remove(0)
}

/// The first move the last screen in `text` offers: the first listed, or
/// the first example of a summary.
fn first_offered(text: &str) -> String {
    let listed = text
        .rfind("Legal moves:\n")
        .map(|i| i + "Legal moves:\n".len());
    let example = text.rfind("e.g. ").map(|i| i + "e.g. ".len());
    let (from, end) = match (listed, example) {
        (Some(l), Some(e)) if e > l => (e, ", "),
        (Some(l), _) => (l, "  "),
        (None, Some(e)) => (e, ", "),
        (None, None) => panic!("no move offered:\n{text}"),
    };
    let rest = &text[from..];
    let rest = rest
        .split_once(") ")
        .filter(|_| end == "  ")
        .map_or(rest, |(_, r)| r);
    rest.split(end)
        .next()
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .trim()
        .to_owned()
}

fn options(seat: PlayerId, seed: u64) -> PlayOptions {
    PlayOptions {
        bot: Some(BotSpec::Random),
        seat,
        seed,
        save: None,
        records: None,
    }
}

#[cfg(all(feature = "battleline", feature = "stratego"))]
#[test]
fn short_move_forms_are_accepted() {
    let registry = registry();
    // (game, script before the move, the offered move's short forms)
    type Shorten = fn(&str) -> Vec<String>;
    let cases: [(&str, &str, Shorten); 2] = [
        ("battleline", "", |m| {
            // "play R1 at F1" as "R1 F1" and "r1f1".
            let w: Vec<&str> = m.split(' ').collect();
            vec![
                format!("{} {}", w[1], w[3]),
                format!("{}{}", w[1], w[3]).to_lowercase(),
            ]
        }),
        ("stratego(variant=srazhenie)", "bot 40\n", |m| {
            // "a4-a5" as "A4 A5", "a4a5".
            vec![m.replace('-', " ").to_uppercase(), m.replace('-', "")]
        }),
    ];
    for (name, setup, shorten) in cases {
        let game = registry.load(name).unwrap();
        let o = options(PlayerId::P0, 8);
        let (_, before) = session(game.as_ref(), format!("{setup}quit\n").as_bytes(), &o);
        let offered = first_offered(&before);
        for short in shorten(&offered) {
            let script = format!("{setup}{short}\nquit\n");
            let (_, text) = session(game.as_ref(), script.as_bytes(), &o);
            let told = format!("{}> you: {offered}", PlayerId::P0);
            assert!(
                text.lines().any(|l| l.starts_with(&told)),
                "{name}: {short:?} did not play {offered:?}:\n{text}"
            );
        }
    }
}

#[test]
fn help_lists_the_move_forms_of_its_own_game() {
    let registry = registry();
    let mut games = select(&registry, None).unwrap();
    games.push(kuhn());
    for game in &games {
        let (_, text) = session(game.as_ref(), b"help\nquit\n", &options(PlayerId::P0, 1));
        let shown = tabletop_rules::help(game.as_ref());
        // Where the session starts with a setup, help there tells how to
        // write one.
        let (again, times) = match game.setup_help() {
            setup if setup.is_empty() => (shown.clone(), 2),
            setup => (setup, 1),
        };
        assert!(text.contains(&shown), "{}: {text}", game.name());
        assert_eq!(
            text.matches(&again).count(),
            times,
            "{}: {text}",
            game.name()
        );
        assert!(shown.contains(game.move_forms()), "{}", game.name());
    }
    #[cfg(all(feature = "stratego", feature = "cardwar"))]
    {
        // Each game's help shows the forms it reads, not another game's.
        let help = |name: &str| tabletop_rules::help(registry.load(name).unwrap().as_ref());
        assert!(help("cardwar").contains("10a") && !help("stratego").contains("10a"));
        assert!(help("stratego").contains("e4e5") && !help("cardwar").contains("e4e5"));
    }
}

#[cfg(feature = "battleline")]
#[test]
fn legend_only_on_help() {
    let game = registry().load("battleline").unwrap();
    let legend_first = game.legend().lines().next().unwrap();
    let o = options(PlayerId::P0, 4);
    let (_, text) = session(game.as_ref(), b"bot 30\nquit\n", &o);
    assert!(!text.contains(legend_first), "{text}");
    let (_, text) = session(game.as_ref(), b"bot 30\nlegend\nquit\n", &o);
    assert_eq!(text.matches(legend_first).count(), 1, "{text}");
    assert!(text.contains("legend (what the table's codes mean)"));
}

#[test]
fn every_line_has_one_prefix() {
    let registry = registry();
    let mut games = select(&registry, None).unwrap();
    games.push(kuhn());
    let prefixes = ["P0: ", "P1: ", "you: ", "chance: "];
    for game in &games {
        let (_, text) = session(game.as_ref(), b"bot 100000\n", &options(PlayerId::P1, 3));
        for line in text.lines() {
            let line = line.trim_start_matches("P1> ");
            if let Some(rest) = prefixes.iter().find_map(|p| line.strip_prefix(p)) {
                assert!(
                    !prefixes.iter().any(|p| rest.starts_with(p)),
                    "{}: {line}",
                    game.name()
                );
            }
        }
    }
}

/// The setup last shown written out in `text`.
fn last_setup_shown(text: &str) -> &str {
    let from = text
        .rfind("This setup written out: ")
        .expect("a setup shown")
        + 24;
    text[from..].lines().next().unwrap()
}

/// The person's setup as told in `text`, and the lines telling the
/// opponent's.
fn setups_told(text: &str) -> (&str, Vec<&str>) {
    let mine = text
        .lines()
        .find_map(|l| l.split_once("you: set up your 40 pieces: ").map(|(_, t)| t))
        .expect("the person's setup told");
    let theirs = text.lines().filter(|l| l.contains("P1: set up")).collect();
    (mine, theirs)
}

#[cfg(feature = "stratego")]
#[test]
fn setup_in_one_step_plays_the_setup_shown() {
    let game = registry().load("stratego(variant=classic)").unwrap();
    let (_, text) = session(game.as_ref(), b"ok\nquit\n", &options(PlayerId::P0, 2));
    let (mine, theirs) = setups_told(&text);
    assert_eq!(mine, last_setup_shown(&text));
    // One line for each army, never one a piece.
    assert_eq!(theirs, ["P1: set up his 40 pieces"], "{text}");
    assert!(!text.contains("places a piece"), "{text}");
    assert!(text.contains("Legal moves:"), "{text}");
}

#[cfg(feature = "stratego")]
#[test]
fn setup_offers_human_random_or_a_written_setup() {
    let game = registry().load("stratego(variant=classic)").unwrap();
    let written = "BDGFDFDDDBHFLJGKDIFGEHEMCEHBDDIBJEIBHEBG";
    let script = format!("random\nhuman\n{written}\nok\nquit\n");
    let (_, text) = session(game.as_ref(), script.as_bytes(), &options(PlayerId::P0, 2));
    assert_eq!(setups_told(&text).0, written);
    assert_eq!(
        text.matches("This setup written out: ").count(),
        4,
        "{text}"
    );
    // A setup that is none is refused with how to write one.
    let (_, text) = session(
        game.as_ref(),
        b"BBBBBBBBBBBB\nok\nquit\n",
        &options(PlayerId::P0, 2),
    );
    assert!(text.contains("not a setup: "), "{text}");
    assert!(text.contains("your front row first"), "{text}");
}

#[cfg(feature = "stratego")]
#[test]
fn swapping_two_squares_exchanges_their_pieces() {
    let game = registry().load("stratego(variant=classic)").unwrap();
    for (seat, a, b, refused) in [
        (PlayerId::P0, "a4", "j1", "a7"),
        (PlayerId::P1, "j7", "a10", "a4"),
    ] {
        let (_, shown) = session(game.as_ref(), b"quit\n", &options(seat, 5));
        let before = last_setup_shown(&shown).to_owned();
        let script = format!("swap {a} {b}\nswap {a} {refused}\nok\nquit\n");
        let (_, text) = session(game.as_ref(), script.as_bytes(), &options(seat, 5));
        // The front row's first square (the owner's left) and the back
        // row's last, in the written form's order.
        let mut expected: Vec<char> = before.chars().collect();
        expected.swap(0, 39);
        let mine = text
            .lines()
            .find_map(|l| l.split_once("you: set up your 40 pieces: ").map(|(_, t)| t))
            .unwrap();
        assert_eq!(mine, expected.iter().collect::<String>(), "{seat}");
        assert!(
            text.contains(&format!("{refused:?} is not one of your setup squares")),
            "{text}"
        );
    }
}

#[cfg(feature = "stratego")]
#[test]
fn a_bot_setup_is_told_in_one_line() {
    let game = registry().load("stratego(variant=classic)").unwrap();
    let (_, text) = session(game.as_ref(), b"bot 40\nquit\n", &options(PlayerId::P0, 2));
    let told: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("set up your 40 pieces"))
        .collect();
    assert_eq!(told.len(), 1, "{text}");
    assert!(told[0].ends_with(BOT_NOTE), "{text}");
    assert!(!text.contains("place "), "{text}");
}

#[cfg(feature = "stratego")]
#[test]
fn fight_narration_names_known_pieces_only() {
    let registry = registry();
    for (name, seat, hidden) in [
        ("stratego(variant=srazhenie)", PlayerId::P0, false),
        ("stratego(variant=czech)", PlayerId::P0, true),
    ] {
        let game = registry.load(name).unwrap();
        let (_, text) = session(game.as_ref(), b"bot 100000\n", &options(seat, 6));
        let fights: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("P1: ") && (l.contains(" takes ") || l.contains(" lost to ")))
            .collect();
        assert!(!fights.is_empty(), "{name}: no fight told");
        // The rules show a fight's attacker to the defender, or hide it
        // (Czech): then it is told as an unknown piece.
        let unknown = fights.iter().any(|l| l.contains("an unknown piece"));
        assert_eq!(unknown, hidden, "{name}: {fights:?}");
    }
}

#[test]
fn save_without_path_goes_outside_the_repository() {
    let dir = std::env::temp_dir().join(format!("tabletop-records-{}", std::process::id()));
    let game = kuhn();
    let o = PlayOptions {
        records: Some(dir.clone()),
        ..options(PlayerId::P0, 9)
    };
    let (_, text) = session(game.as_ref(), b"save\nquit\n", &o);
    // One file in the folder, named after the game, the seed and the
    // actions so far (two deals), and the screen says where.
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(files.len(), 1);
    let path = files[0].as_ref().unwrap().path();
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("kuhn-poker") && name.ends_with("-seed9-action2.json"),
        "{name}"
    );
    assert!(
        text.contains(&format!("record saved to {}", path.display())),
        "{text}"
    );
    assert!(std::fs::read_to_string(&path).unwrap().contains("kuhn"));
    std::fs::remove_dir_all(&dir).unwrap();
    // The default folder is the user's data folder, never the checkout.
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(default) = PlayOptions::default().records {
        assert!(
            default.is_absolute() && !default.starts_with(repo),
            "{default:?}"
        );
    }
    // Without a folder the person is told to name a file.
    let nowhere = PlayOptions { records: None, ..o };
    let (_, text) = session(game.as_ref(), b"save\nquit\n", &nowhere);
    assert!(text.contains("give a file: save FILE"), "{text}");
}

#[cfg(feature = "battleline")]
#[test]
fn the_default_opponent_is_the_expert_named_plainly() {
    let game = registry().load("battleline").unwrap();
    let o = PlayOptions {
        bot: None,
        ..options(PlayerId::P0, 3)
    };
    let (_, text) = session(game.as_ref(), b"quit\n", &o);
    assert!(
        text.contains("You are P0, against the expert, the game's strongest bot, seed 3."),
        "{text}"
    );
    assert!(!text.contains("expert:"), "{text}");
}
