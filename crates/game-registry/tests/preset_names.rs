//! Preset names are snake_case in every registered game, and a
//! specification with the kebab-case names Battle Line's presets had
//! before still loads, under the snake_case name.

#[test]
fn preset_names_are_snake_case_in_every_registered_game() {
    let games = game_registry::registry().list();
    assert!(!games.is_empty());
    for game in games {
        for preset in &game.presets {
            let snake = preset
                .name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            assert!(snake, "{}: preset {:?}", game.name, preset.name);
            assert_eq!(
                preset.spec,
                format!("{}({}={})", game.name, game.preset_key, preset.name)
            );
        }
    }
}

#[cfg(feature = "battleline")]
#[test]
fn a_kebab_case_battle_line_preset_loads_under_its_snake_case_name() {
    let r = game_registry::registry();
    for (old, new) in [
        ("published-order", "published_order"),
        ("troops-only", "troops_only"),
        ("claims-at-start", "claims_at_start"),
        ("movable-environment", "movable_environment"),
        ("unseen-wilds", "unseen_wilds"),
    ] {
        let canonical = format!("battleline(variant={new})");
        for spec in [
            format!("battleline(variant={old})"),
            format!("battleline/{old}"),
            canonical.clone(),
        ] {
            assert_eq!(r.load(&spec).unwrap().name(), canonical, "{spec}");
        }
    }
    assert!(matches!(
        r.load("battleline(variant=troops-none)"),
        Err(game_env::EnvError::BadParameter { reason, .. }) if reason.contains("troops_only")
    ));
}
