//! The arena's tables: the games it plays by default, and lists of game
//! specifications.

use std::sync::Arc;

use game_env::{DynGame, EnvError, Registry};

/// The tables the arena plays by default: each game's rule sets that
/// players know, one table each (`stratego` alone is the international
/// classic game; «Сражение» and the Czech rules are its named variants).
pub const ARENA_TABLES: &[&str] = &[
    "battleline",
    "stratego",
    "stratego/srazhenie",
    "stratego/czech",
    "cardwar",
];

/// The games of `selection` (comma-separated specifications; a game's name
/// alone is its default preset), or for `None` the arena's default tables
/// of the games compiled in.
pub fn select(
    registry: &Registry,
    selection: Option<&str>,
) -> Result<Vec<Arc<dyn DynGame>>, EnvError> {
    match selection {
        Some(list) => split_specs(list).iter().map(|s| registry.load(s)).collect(),
        None => {
            let compiled: Vec<String> = registry.list().into_iter().map(|g| g.name).collect();
            ARENA_TABLES
                .iter()
                .filter(|spec| {
                    compiled
                        .iter()
                        .any(|name| spec.split('/').next() == Some(name))
                })
                .map(|spec| registry.load(spec))
                .collect()
        }
    }
}

/// Splits a comma-separated list of specifications, keeping the commas
/// inside parentheses: `stratego(variant=czech,two_square_limit=3),cardwar`.
pub fn split_specs(list: &str) -> Vec<String> {
    let mut specs = Vec::new();
    let (mut depth, mut current) = (0i32, String::new());
    for c in list.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                specs.push(std::mem::take(&mut current).trim().to_owned());
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        specs.push(current.trim().to_owned());
    }
    specs
}
