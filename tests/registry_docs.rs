//! The documents name every game's rule sets as the registry does: the
//! README's table of games (name, default rule set, variants), each rules
//! document's table of presets, every "`x` (default)" in the docs, and each
//! game crate's `Rules::default()`. A name means one thing everywhere.
#![cfg(all(feature = "battleline", feature = "stratego", feature = "cardwar"))]

use std::path::{Path, PathBuf};

use game_env::GameListing;
use game_traits::Game;
use tabletop_rules::registry;

/// A game as the README's table names it: name, default rule set, variants.
type Row = (String, String, Vec<String>);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The cells of a Markdown table row, trimmed; `None` for any other line.
fn cells(line: &str) -> Option<Vec<&str>> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    Some(inner.split('|').map(str::trim).collect())
}

/// The code spans (`` `like this` ``) of `text`, in order.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// Every game of the registry as the README's table should name it.
fn expected_rows(listings: &[GameListing]) -> Vec<Row> {
    listings
        .iter()
        .map(|g| {
            let mut names = g.presets.iter().map(|p| p.name.clone());
            let default = names.next().unwrap_or_default();
            (g.name.clone(), default, names.collect())
        })
        .collect()
}

/// The rows under the README's header `| name | default rule set | variants |`:
/// the first code span of the first two cells, every code span of the third.
fn readme_rows() -> Vec<Row> {
    let text = read(&root().join("README.md"));
    let mut lines = text.lines().skip_while(|line| {
        cells(line).is_none_or(|c| c != ["name", "default rule set", "variants"])
    });
    assert!(
        lines.next().is_some(),
        "README.md has no table headed | name | default rule set | variants |"
    );
    lines
        .skip(1)
        .map_while(cells)
        .map(|row| {
            let first = |cell: Option<&&str>| {
                cell.and_then(|c| code_spans(c).first().map(|s| s.to_string()))
                    .unwrap_or_default()
            };
            let variants = row.get(2).map_or(Vec::new(), |c| {
                code_spans(c).into_iter().map(str::to_owned).collect()
            });
            (first(row.first()), first(row.get(1)), variants)
        })
        .collect()
}

/// The README's table as it should read (printed when it differs).
fn table(rows: &[Row]) -> String {
    let mut out = String::from("| name | default rule set | variants |\n|---|---|---|\n");
    for (name, default, variants) in rows {
        let quoted: Vec<String> = variants.iter().map(|v| format!("`{v}`")).collect();
        out += &format!("| `{name}` | `{default}` | {} |\n", quoted.join(", "));
    }
    out
}

#[test]
fn readme_table_of_games_is_the_registry() {
    let expected = expected_rows(&registry().list());
    assert_eq!(
        readme_rows(),
        expected,
        "README.md's table of games differs from the registry; its code spans should be:\n{}",
        table(&expected)
    );
}

/// Each game's rules document (`crates/<game>-core/docs/<game>.md`) has a
/// table whose rows name the presets: all of them, in the registry's order,
/// the default first.
#[test]
fn rules_documents_list_the_presets_in_the_registry_order() {
    let mut checked = 0;
    for game in registry().list() {
        let path = root().join(format!("crates/{0}-core/docs/{0}.md", game.name));
        if !path.exists() {
            continue;
        }
        let names: Vec<&str> = game.presets.iter().map(|p| p.name.as_str()).collect();
        let text = read(&path);
        let lines: Vec<&str> = text.lines().collect();
        let mut tables = 0;
        for block in lines.split(|line| cells(line).is_none()) {
            // The first cell's first code span of every row below the header.
            let firsts: Vec<&str> = block
                .iter()
                .skip(2)
                .filter_map(|line| {
                    cells(line)?
                        .first()
                        .and_then(|c| code_spans(c).first().copied())
                })
                .collect();
            if firsts.iter().filter(|f| names.contains(f)).count() >= 2 {
                assert_eq!(firsts, names, "{}: the table of presets", path.display());
                tables += 1;
            }
        }
        assert!(tables > 0, "{}: no table of presets", path.display());
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} rules documents found");
}

/// What follows a code span when the text calls it the default:
/// `` `x` (default) ``, `` `x` (the default) ``, `` `x` (ISF, default) ``,
/// `` `x`, the default `` or `` `x` is the default ``.
fn called_default(after: &str) -> bool {
    if let Some(rest) = after.strip_prefix(" (") {
        let inside = rest.split(')').next().unwrap_or("");
        let last = inside.rsplit(", ").next().unwrap_or("");
        return rest.contains(')') && matches!(last, "default" | "the default");
    }
    after.starts_with(", the default") || after.starts_with(" is the default")
}

/// Every Markdown document a user reads: the README, `docs/`, and each
/// crate's README and `docs/`.
fn documents() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md")];
    let mut dirs = vec![root().join("docs")];
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        out.push(dir.join("README.md"));
        dirs.push(dir.join("docs"));
    }
    for dir in dirs {
        if let Ok(entries) = std::fs::read_dir(dir) {
            out.extend(entries.map(|e| e.unwrap().path()));
        }
    }
    out.retain(|p| p.extension().is_some_and(|e| e == "md") && p.exists());
    out.sort();
    out
}

/// Every "`x` (default)" in the documents, where `x` is a preset, names the
/// registry's default. The game is the one named on the same line, else
/// the one whose crate holds the document, else any game with that preset.
#[test]
fn every_default_named_in_the_docs_is_the_registry_default() {
    let games = registry().list();
    let mut claims = 0;
    for path in documents() {
        let text = read(&path);
        let crate_game = games
            .iter()
            .find(|g| path.starts_with(root().join(format!("crates/{}-core", g.name))));
        for (n, line) in text.lines().enumerate() {
            let pieces: Vec<&str> = line.split('`').collect();
            let named: Vec<&GameListing> = games
                .iter()
                .filter(|g| code_spans(line).contains(&g.name.as_str()))
                .collect();
            for i in (1..pieces.len().saturating_sub(1)).step_by(2) {
                let (span, after) = (pieces[i], pieces[i + 1]);
                if !called_default(after) {
                    continue;
                }
                let candidates: Vec<&GameListing> = if !named.is_empty() {
                    named.clone()
                } else if let Some(g) = crate_game {
                    vec![g]
                } else {
                    games.iter().collect()
                };
                let with_preset: Vec<&GameListing> = candidates
                    .into_iter()
                    .filter(|g| g.presets.iter().any(|p| p.name == span))
                    .collect();
                for g in &with_preset {
                    assert_eq!(
                        span,
                        g.presets[0].name,
                        "{}:{}: `{span}` is called {}'s default: {line}",
                        path.display(),
                        n + 1,
                        g.name
                    );
                }
                claims += usize::from(!with_preset.is_empty());
            }
        }
    }
    assert!(claims > 0, "no document names a default preset");
}

fn default_rules_are_the_registry_default<G: Game>(name: &str) {
    let loaded = registry().load(name).unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(loaded.rules_json()).unwrap(),
        serde_json::to_value(G::Rules::default()).unwrap(),
        "`{name}` alone loads the crate's `Rules::default()`"
    );
}

/// A game's name alone and its crate's `Rules::default()` are the same
/// rules: `stratego` is the international classic game in both.
#[test]
fn each_crate_default_rules_are_its_name_alone_in_the_registry() {
    default_rules_are_the_registry_default::<tabletop_rules::battleline::BattleLine>("battleline");
    default_rules_are_the_registry_default::<tabletop_rules::stratego::Stratego>("stratego");
    default_rules_are_the_registry_default::<tabletop_rules::cardwar::CardWar>("cardwar");
    default_rules_are_the_registry_default::<game_traits::kuhn::KuhnPoker>("kuhn_poker");
    assert_eq!(
        tabletop_rules::stratego::Rules::default(),
        tabletop_rules::stratego::Rules::classic()
    );
}
