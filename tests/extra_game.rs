//! A game is added in one place (issue 36): Nim, a game no file of the
//! arena knows, registered beside the real games, is chosen by name, played
//! by the arena's bots and titled in its report by the titles it declares.

use tabletop_rules::game_env::{BotSpec, Budget, GameDef, Knowledge};
use tabletop_rules::game_traits::testkit::nim::Nim;
use tabletop_rules::{
    format_report, registry, round_robin, run_arena, select, ArenaConfig, PlayerSpec, ReportOptions,
};

#[test]
fn an_extra_game_is_played_by_the_arena_and_titled_in_its_report() {
    let mut games = registry();
    games.register::<Nim>(GameDef {
        name: "nim",
        doc: "Nim: take one to a few stones, the last one wins",
        preset_key: "variant",
        aliases: &[],
        value_aliases: &[],
        knowledge: Knowledge::default(),
    });
    let tables = select(&games, Some("nim/fifteen,nim/long")).unwrap();
    let bots = [
        PlayerSpec::Bot(BotSpec::Random),
        PlayerSpec::Bot(BotSpec::Ismcts(Some(Budget::Iterations(20)))),
    ];
    let pairings = round_robin(&tables, &bots);
    let config = ArenaConfig {
        games: 4,
        seed: 1,
        threads: 1,
        keep_records: false,
    };
    let result = run_arena(&tables, &pairings, &config, &mut |_| {});
    for table in 0..tables.len() {
        assert!(result.pairings.iter().any(|r| r.pairing.table == table));
    }
    for r in &result.pairings {
        assert_eq!(r.games, 4, "{:?}", r.errors);
        assert_eq!(r.wins[0] + r.wins[1], 4, "Nim has no draw");
    }
    let report = format_report(
        &tables,
        &result,
        &ReportOptions {
            games: 4,
            seed: 1,
            threads: 1,
            ms_per_move: None,
            ladder: false,
        },
    );
    assert!(
        report.contains("Nim, Fifteen stones: nim(variant=fifteen)"),
        "{report}"
    );
    assert!(
        report.contains("Nim, Long heap: nim(variant=long)"),
        "{report}"
    );
}
