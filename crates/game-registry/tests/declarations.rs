//! What a game declares of itself beside its rules, as the registry
//! publishes it: its standard clock and, for a game with a setup phase,
//! its setup generator.

use game_env::{GameDef, Knowledge, SetupKind, StandardClock};
use game_traits::kuhn::KuhnPoker;
use game_traits::rand::SeedableRng;
use game_traits::GameRng;

const BLITZ: StandardClock = StandardClock::Fischer {
    base_ms: 10_000,
    increment_ms: 100,
};

/// The workspace's games and one more: Kuhn poker played blitz, a test
/// game that declares its own clock and no setups.
fn registry_with_blitz_kuhn() -> game_env::Registry {
    let mut r = game_registry::registry();
    r.register::<KuhnPoker>(GameDef {
        name: "blitz_kuhn",
        doc: "Kuhn poker on a ten-second clock",
        preset_key: "variant",
        aliases: &[],
        value_aliases: &[],
        knowledge: Knowledge {
            clock: BLITZ,
            ..Knowledge::default()
        },
    });
    r
}

#[test]
fn an_added_game_publishes_its_own_clock_and_no_setups() {
    let r = registry_with_blitz_kuhn();
    for spec in ["blitz_kuhn", "blitz_kuhn(variant=high)"] {
        let game = r.load(spec).unwrap();
        assert_eq!(game.standard_clock(), BLITZ, "{spec}");
        let mut rng = GameRng::seed_from_u64(1);
        for kind in [SetupKind::Random, SetupKind::Human] {
            assert_eq!(game.suggest_setup(kind, &mut rng), None, "{spec}");
        }
    }
    // The registered Kuhn poker keeps the clock it declares.
    assert_eq!(
        r.load("kuhn_poker").unwrap().standard_clock(),
        StandardClock::Fischer {
            base_ms: 60_000,
            increment_ms: 1_000
        }
    );
}

#[test]
fn each_workspace_game_declares_its_standard_clock() {
    let r = game_registry::registry();
    let clock = |spec: &str| r.load(spec).unwrap().standard_clock();
    assert_eq!(
        clock("stratego(variant=czech)"),
        StandardClock::Bronstein {
            base_ms: 720_000,
            delay_ms: 4_000
        }
    );
    assert_eq!(
        clock("battleline"),
        StandardClock::Fischer {
            base_ms: 300_000,
            increment_ms: 5_000
        }
    );
    assert_eq!(
        clock("cardwar"),
        StandardClock::Fischer {
            base_ms: 300_000,
            increment_ms: 3_000
        }
    );
}

#[test]
fn only_stratego_suggests_setups() {
    let r = game_registry::registry();
    for listing in r.list() {
        let game = r.load(&listing.name).unwrap();
        let mut rng = GameRng::seed_from_u64(3);
        let suggests = game.suggest_setup(SetupKind::Random, &mut rng).is_some();
        assert_eq!(suggests, listing.name == "stratego", "{}", listing.name);
    }
}

#[test]
fn a_suggested_stratego_setup_is_played_placement_by_placement() {
    let r = game_registry::registry();
    for listing in r.list().into_iter().filter(|l| l.name == "stratego") {
        for preset in &listing.presets {
            let game = r.load(&preset.spec).unwrap();
            for kind in [SetupKind::Random, SetupKind::Human] {
                let mut rng = GameRng::seed_from_u64(5);
                let setup = game.suggest_setup(kind, &mut rng).unwrap();
                assert_eq!((setup.rows, setup.cols), (4, 10), "{}", preset.spec);
                assert_eq!(setup.placements.len(), 40, "{}", preset.spec);
                let again = game.suggest_setup(kind, &mut GameRng::seed_from_u64(5));
                assert_eq!(again.as_ref(), Some(&setup), "a seed reproduces its setup");
                let mut state = game.new_state();
                state.play_chance(&mut rng);
                for &id in &setup.placements {
                    state.apply_id(id).unwrap_or_else(|e| {
                        panic!("{} {kind:?}: placement {id} refused: {e}", preset.spec)
                    });
                }
            }
        }
    }
}

#[test]
fn stratego_declares_how_a_setup_is_written_and_its_squares_named() {
    let r = game_registry::registry();
    for listing in r.list() {
        let game = r.load(&listing.name).unwrap();
        if listing.name != "stratego" {
            assert!(game.setup_help().is_empty(), "{}", listing.name);
            assert!(game.read_setup("BDGFDFDDDB").is_err(), "{}", listing.name);
            continue;
        }
        for preset in &listing.presets {
            let game = r.load(&preset.spec).unwrap();
            let mut rng = GameRng::seed_from_u64(8);
            let setup = game.suggest_setup(SetupKind::Human, &mut rng).unwrap();
            let text = game.write_setup(&setup.placements).unwrap();
            assert_eq!(text.len(), 40, "{}", preset.spec);
            assert_eq!(game.read_setup(&text).unwrap(), setup.placements);
            assert_eq!(
                game.read_setup(&text.to_lowercase()).unwrap(),
                setup.placements
            );
            assert!(game.read_setup(&text[1..]).is_err(), "{}", preset.spec);
            assert!(game.setup_help().contains("front row first"));
            // Placement order: the front row from the owner's left.
            let p0 = game_traits::PlayerId::P0;
            let p1 = game_traits::PlayerId::P1;
            assert_eq!(game.setup_square(p0, "a4"), Some(0));
            assert_eq!(game.setup_square(p0, "j1"), Some(39));
            assert_eq!(game.setup_square(p1, "j7"), Some(0));
            assert_eq!(game.setup_square(p1, "a10"), Some(39));
            assert_eq!(game.setup_square(p0, "a7"), None);
            assert_eq!(game.setup_square(p0, "z9"), None);
        }
    }
}
