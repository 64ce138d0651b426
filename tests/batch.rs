//! The batched environment on every game and preset of the registry: the
//! same buffers on one thread and two, and each game of a batch on the
//! trajectory it follows when played alone.

use tabletop_rules::registry;

#[test]
fn every_registered_game_batches_as_it_plays_alone() {
    let registry = registry();
    for listing in registry.list() {
        for preset in &listing.presets {
            let game = registry.load(&preset.spec).unwrap();
            let episodes = tabletop_rules::game_env::check_batch(&game, 6, 40, 3)
                .unwrap_or_else(|e| panic!("{e}"));
            // Kuhn poker's games end within the run; the others need not.
            if listing.name == "kuhn_poker" {
                assert!(episodes > 0, "{}", preset.spec);
            }
        }
    }
}
