//! The terminal session as a person meets it: moves typed in short forms,
//! each action told in words with one prefix, placements that name their
//! squares, fights told as far as the viewer may know them, the legend on
//! demand only, and records saved outside the checkout.

use std::collections::HashSet;
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
        assert_eq!(
            text.matches(shown.as_str()).count(),
            2,
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

#[cfg(feature = "stratego")]
#[test]
fn placements_name_their_squares() {
    let game = registry().load("stratego(variant=classic)").unwrap();
    let (_, text) = session(game.as_ref(), b"bot 40\nquit\n", &options(PlayerId::P0, 2));
    let placed: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_suffix(BOT_NOTE))
        .map(|l| l.trim_start_matches("P0> "))
        .collect();
    assert_eq!(placed.len(), 40, "{text}");
    let squares: HashSet<&str> = placed
        .iter()
        .map(|l| {
            assert!(l.starts_with("you: place ") && !l.contains('#'), "{l}");
            l.rsplit_once(" on ").unwrap().1
        })
        .collect();
    assert_eq!(squares.len(), 40, "every placement names its own square");
    // The opponent's placements name the square, never the piece.
    assert!(text.contains("P1 places a piece on "), "{text}");
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
