//! The referee of the spelinski/BoardGameAIEngine Battle Line protocol
//! (`crates/game-registry/src/spelinski.rs`): the example Python bot plays troops-only Battle
//! Line in the arena from both seats, the referee sends only what the seat
//! may know, and bots that answer garbage, an illegal play or nothing in
//! time forfeit with the reason.

mod common;
use common::play;

use std::time::Duration;

use game_env::{BotFailure, DynGame, EnvError, Opponent, Typed};
use game_traits::{agent_rng, chance_rng, PerPlayer, PlayerId, Turn};
use tabletop_rules::battleline::{BattleLine, Card};
use tabletop_rules::spelinski::{card_text, SpelinskiBot, SpelinskiConfig};
use tabletop_rules::{
    play_game, registry, round_robin, run_arena, select, ArenaConfig, BotSpec, PlayerSpec,
};

const SPEC: &str = "battleline(variant=troops_only)";

fn example_bot() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/bots/spelinski_bot.py"
    )
    .to_owned()
}

fn troops_only() -> std::sync::Arc<dyn DynGame> {
    select(&registry(), Some(SPEC)).unwrap().remove(0)
}

fn python(script: &str) -> Vec<String> {
    vec!["python3".into(), "-u".into(), "-c".into(), script.into()]
}

fn spawn(argv: Vec<String>, ms: u64) -> SpelinskiBot {
    SpelinskiBot::spawn(SpelinskiConfig {
        argv,
        time_limit: Duration::from_millis(ms),
    })
    .unwrap()
}

#[test]
fn the_example_bot_plays_from_both_seats_in_the_arena() {
    let bot: PlayerSpec = format!("spelinski:python3 {}", example_bot())
        .parse()
        .unwrap();
    assert!(matches!(bot, PlayerSpec::Legacy { prefix: "spelinski", ref argv } if argv.len() == 2));
    assert_eq!(
        bot.to_string(),
        format!("spelinski:python3 {}", example_bot())
    );
    assert!("spelinski:".parse::<PlayerSpec>().is_err());
    let games = vec![troops_only()];
    let pairings = round_robin(&games, &[bot, PlayerSpec::Bot(BotSpec::Random)]);
    let config = ArenaConfig {
        games: 6,
        seed: 11,
        threads: 2,
        keep_records: true,
    };
    let result = run_arena(&games, &pairings, &config, &mut |_| {});
    let r = &result.pairings[0];
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.games, 6, "three games from each seat");
    assert_eq!(r.wins[0] + r.wins[1] + r.draws, 6);
    // It plays cards that fit together; a random player does not.
    assert!(r.wins[0] > r.wins[1], "{r:?}");
    assert_eq!(result.records.len(), 6);
}

#[test]
fn it_refuses_other_rule_sets() {
    let bot: PlayerSpec = format!("spelinski:python3 {}", example_bot())
        .parse()
        .unwrap();
    let random = PlayerSpec::Bot(BotSpec::Random);
    // Battle Line with tactics: the protocol has no tactics cards.
    // Kuhn poker: the protocol is Battle Line's.
    for (spec, why) in [
        ("battleline", "troops_only"),
        ("kuhn_poker", "bots do not play this game"),
    ] {
        let game = select(&registry(), Some(spec)).unwrap().remove(0);
        let err = play_game(game.as_ref(), [&bot, &random], 1, false).unwrap_err();
        assert!(err.contains(why), "{spec}: {err}");
    }
}

/// Every card the referee names before "go play-card" is in the seat's
/// hand or on the table of its observation; the hand line is its hand.
#[test]
fn it_sends_only_what_the_seat_sees() {
    for seat in PlayerId::all() {
        check_transcript(seat, 5 + seat.index() as u64);
    }
}

/// Every card the referee names before "go play-card" is in the seat's
/// hand or on the table of its observation; the hand line is its hand.
fn check_transcript(me: PlayerId, seed: u64) {
    let game = troops_only();
    let dir = if me == PlayerId::P0 { "north" } else { "south" };
    let mut bot = spawn(vec!["python3".into(), example_bot()], 10_000);
    let mut random = game.bot(BotSpec::Random).unwrap();
    let mut state = game.new_state();
    let mut chance = chance_rng(seed);
    let mut rng = agent_rng(seed, me.other());
    let mut plays = 0;
    while state.turn() != Turn::Terminal {
        let id = match state.turn() {
            Turn::Chance => state.sample_chance_id(&mut chance).unwrap(),
            Turn::Player(p) if p == me => {
                let typed = state
                    .as_any()
                    .downcast_ref::<Typed<BattleLine>>()
                    .unwrap()
                    .state();
                let obs = game_traits::Game::observation(typed, me);
                let mut seen = obs.hand();
                for f in obs.table().flags() {
                    for p in PlayerId::all() {
                        seen = seen.union(f.side(p).cards());
                    }
                }
                let before = bot.transcript().len();
                let id = bot.choose(state.as_ref(), me, &mut rng).unwrap();
                let sent: Vec<String> = bot.transcript()[before..].to_vec();
                if sent.iter().any(|l| l == "> go play-card") {
                    plays += 1;
                    let hand: Vec<String> = obs.hand().iter().map(card_text).collect();
                    let want = format!("> player {dir} hand {}", hand.join(" "));
                    assert!(sent.contains(&want.trim_end().to_owned()), "{sent:?}");
                    assert_eq!(
                        sent.iter()
                            .filter(|l| l.starts_with("> flag ") && l.contains(" cards "))
                            .count(),
                        18
                    );
                    for line in sent.iter().filter(|l| l.starts_with("> ")) {
                        for word in line.split_whitespace() {
                            if let Some(card) = parse_card(word) {
                                assert!(seen.contains(card), "{line}: {word} is not visible");
                            }
                        }
                    }
                } else {
                    // Claims, draws and passes are the referee's: nothing sent.
                    assert!(sent.is_empty(), "{sent:?}");
                }
                id
            }
            Turn::Player(p) => random.choose(state.as_ref(), p, &mut rng).unwrap(),
            Turn::Terminal => unreachable!(),
        };
        state.apply_id(id).unwrap();
    }
    assert!(state.outcome().is_some());
    assert!(plays >= 9, "the bot played {plays} cards");
    let t = bot.transcript();
    assert_eq!(t[0], format!("> player {dir} name"));
    assert_eq!(t[1], format!("< player {dir} spelinski_bot"));
    assert_eq!(t[2], "> colors RED ORANGE YELLOW GREEN BLUE PURPLE");
    assert_eq!(bot.bot_name(), Some("spelinski_bot"));
    // The opponent's plays are announced with the flag they went to.
    assert!(t.iter().any(|l| l.starts_with("> opponent play ")));
    assert_eq!(
        t.iter()
            .filter(|l| l.starts_with("> flag claim-status "))
            .count(),
        plays
    );
    if me == PlayerId::P0 {
        // North moves first: nothing to announce before its first card.
        let first_go = t.iter().position(|l| l == "> go play-card").unwrap();
        assert!(!t[..first_go]
            .iter()
            .any(|l| l.starts_with("> opponent play")));
    }
}

fn parse_card(word: &str) -> Option<Card> {
    let (colour, value) = word.split_once(',')?;
    let i = tabletop_rules::spelinski::COLOURS
        .iter()
        .position(|c| *c == colour)?;
    Card::troop(
        tabletop_rules::battleline::Colour::ALL[i],
        value.parse().ok()?,
    )
}

/// How the bot of `argv` at `seat` fails: the forfeit's typed cause.
fn forfeit(argv: Vec<String>, ms: u64, seat: PlayerId) -> BotFailure {
    let game = troops_only();
    let mut bots = PerPlayer::from_fn(|_| game.bot(BotSpec::Random).unwrap());
    bots[seat] = Box::new(spawn(argv, ms));
    match play(game.as_ref(), bots, 9, |_| {}) {
        Err(EnvError::Bot { bot, failure }) => {
            assert!(bot.starts_with("spelinski:"), "{bot}");
            failure
        }
        other => panic!("expected a forfeit, got {other:?}"),
    }
}

#[test]
fn garbage_forfeits() {
    let script = "import sys\nfor l in sys.stdin:\n    w = l.split()\n    if w[-1] == 'name': print('player', w[1], 'g', flush=True)\n    if w[0] == 'go': print('hello', flush=True)\n";
    let err = forfeit(python(script), 5000, PlayerId::P0);
    assert_eq!(err, BotFailure::Garbage("hello".into()));
}

#[test]
fn an_illegal_play_forfeits() {
    // Always the first card of its hand to flag 1: flag 1 is full (or
    // claimed) by its fourth card at the latest.
    let script = "import sys\nfor l in sys.stdin:\n    w = l.split()\n    if w[-1] == 'name': print('player', w[1], 'i', flush=True)\n    if w[1:3] == ['north', 'hand'] or w[1:3] == ['south', 'hand']: card = w[3]\n    if w[0] == 'go': print('play 1', card, flush=True)\n";
    for seat in PlayerId::all() {
        let err = forfeit(python(script), 5000, seat);
        assert!(
            matches!(&err, BotFailure::IllegalAnswer { answer, .. } if answer.starts_with("play 1 ")),
            "{err}"
        );
    }
    // A card that is not in the hand.
    let script = "import sys\nfor l in sys.stdin:\n    w = l.split()\n    if w[-1] == 'name': print('player', w[1], 'i', flush=True)\n    if w[1:3] == ['north', 'hand']: other = [c for c in ['RED,1', 'RED,2', 'RED,3', 'RED,4', 'RED,5', 'RED,6', 'RED,7', 'RED,8'] if c not in w[3:]][0]\n    if w[0] == 'go': print('play 5', other, flush=True)\n";
    let err = forfeit(python(script), 5000, PlayerId::P0);
    assert!(
        matches!(&err, BotFailure::IllegalAnswer { answer, .. } if answer.starts_with("play 5 RED,")),
        "{err}"
    );
}

#[test]
fn silence_and_exit_forfeit() {
    // Gives its name, then never plays.
    let script = "import sys, time\nfor l in sys.stdin:\n    w = l.split()\n    if w[-1] == 'name': print('player', w[1], 's', flush=True)\n    if w[0] == 'go': time.sleep(30)\n";
    let limit = Duration::from_millis(300);
    let err = forfeit(python(script), 300, PlayerId::P1);
    assert_eq!(err, BotFailure::Timeout(limit));
    // Never answers at all: not even its name.
    let err = forfeit(python("import time\ntime.sleep(30)\n"), 300, PlayerId::P0);
    assert_eq!(err, BotFailure::Timeout(limit));
    // Exits at once.
    let err = forfeit(python("pass"), 5000, PlayerId::P0);
    assert!(
        matches!(err, BotFailure::Exited | BotFailure::Write(_)),
        "{err}"
    );
    // A program that does not exist.
    let missing = SpelinskiBot::spawn(SpelinskiConfig {
        argv: vec!["/nonexistent/bot".into()],
        time_limit: Duration::from_secs(1),
    });
    assert!(matches!(missing, Err(game_env::BotFailure::Spawn { .. })));
}

#[test]
fn a_bot_without_a_readable_name_plays_as_player_north() {
    // Answers the name request with nonsense (the spec keeps the default
    // name), then plays its first card to its first open flag.
    let script = "import sys\nhand = []; claims = ['unclaimed'] * 9; full = {}\nfor l in sys.stdin:\n    w = l.split()\n    if w[-1] == 'name': print('hi', flush=True)\n    elif w[1:3] == ['north', 'hand']: hand = w[3:]\n    elif w[1] == 'claim-status': claims = w[2:]\n    elif w[0] == 'flag' and w[3] == 'north': full[int(w[1])] = len(w) - 4 >= 3\n    elif w[0] == 'go':\n        f = [i for i in range(1, 10) if claims[i - 1] == 'unclaimed' and not full.get(i)][0]\n        print('play', f, hand[0], flush=True)\n";
    let game = troops_only();
    let mut bot = spawn(python(script), 5000);
    let mut random = game.bot(BotSpec::Random).unwrap();
    let mut state = game.new_state();
    let mut chance = chance_rng(2);
    let mut rng = agent_rng(2, PlayerId::P1);
    while state.turn() != Turn::Terminal {
        let id = match state.turn() {
            Turn::Chance => state.sample_chance_id(&mut chance).unwrap(),
            Turn::Player(PlayerId::P0) => {
                bot.choose(state.as_ref(), PlayerId::P0, &mut rng).unwrap()
            }
            Turn::Player(p) => random.choose(state.as_ref(), p, &mut rng).unwrap(),
            Turn::Terminal => unreachable!(),
        };
        state.apply_id(id).unwrap();
    }
    assert_eq!(bot.bot_name(), Some("PlayerNorth"));
    assert_eq!(bot.transcript()[1], "< hi");
    assert!(state.outcome().is_some());
}
