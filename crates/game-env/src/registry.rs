//! Games by name with parameters: `load("stratego(variant=classic)")`.
//! A game registers its type: its options, their kinds and ranges and its
//! named presets come from its rule set ([`RuleSet`]), and a preset is
//! chosen by one parameter of its own.
//!
//! Preset names are snake_case (`battleline(variant=troops_only)`), and a
//! specification names its preset canonically so. The lookup
//! ([`RuleSet::preset`]) also reads a name in another case or with `-`
//! between its words: Battle Line's presets were kebab-case
//! (`troops-only`) before, and a match stored then, or a command written
//! then, still loads, under the snake_case name.

use std::sync::Arc;

use game_traits::{Encode, Game, ParameterKind, RuleSet, Term, Wire};
use serde::Serialize;

use crate::bots::Knowledge;
use crate::dynamic::DynGame;
use crate::spec::{parameters, rules_with, GameSpec};
use crate::typed_game::{typed_record, TypedGame};
use crate::EnvError;

/// How a game joins the registry.
pub struct GameDef<G: Game> {
    /// Its name in specifications (`stratego`).
    pub name: &'static str,
    /// One line on what it is.
    pub doc: &'static str,
    /// The parameter that picks one of the rule set's presets
    /// ([`RuleSet::presets`]): `variant`.
    pub preset_key: &'static str,
    /// Shorter names of parameters: (alias, field).
    pub aliases: &'static [(&'static str, &'static str)],
    /// Shorter names of values: (field, alias, value).
    pub value_aliases: &'static [(&'static str, &'static str, &'static str)],
    /// What the game knows of itself for its bots and screens.
    pub knowledge: Knowledge<G>,
}

/// A parameter as [`Registry::list`] shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ParameterInfo {
    /// Its name.
    pub name: String,
    /// Its value in the default preset, as written in a specification.
    pub default: String,
    /// What it means.
    pub doc: String,
    /// The values it takes.
    pub kind: ParameterKind,
}

/// A preset as [`Registry::list`] shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PresetInfo {
    /// Its name.
    pub name: String,
    /// Its name as a person reads it ([`Preset::title`](game_traits::Preset)).
    pub title: String,
    /// One sentence for a player on what sets it apart
    /// ([`Preset::differences`](game_traits::Preset)).
    pub differences: String,
    /// What it is.
    pub doc: String,
    /// Its full specification.
    pub spec: String,
    /// The names of the codes its wire sends under its rules
    /// ([`Wire::glossary`]): Stratego's pieces differ between presets.
    pub glossary: Vec<Term>,
}

/// A game as [`Registry::list`] shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameListing {
    /// Its name.
    pub name: String,
    /// Its name as a person reads it ([`Game::TITLE`]).
    pub title: String,
    /// What it is.
    pub doc: String,
    /// The parameter that picks a preset.
    pub preset_key: String,
    /// Its presets, the default first.
    pub presets: Vec<PresetInfo>,
    /// Its parameters with their defaults.
    pub parameters: Vec<ParameterInfo>,
    /// The names of the codes its wire sends under its default rules
    /// ([`Wire::glossary`]; each preset lists those of its own rules).
    pub glossary: Vec<Term>,
}

type Loader = Box<dyn Fn(&GameSpec) -> Result<Arc<dyn DynGame>, EnvError> + Send + Sync>;

/// A record's game, seed and action ids.
pub type LoadedRecord = (Arc<dyn DynGame>, u64, Vec<usize>);

type RecordLoader = Box<dyn Fn(&str) -> Result<LoadedRecord, EnvError> + Send + Sync>;

struct Entry {
    listing: GameListing,
    /// The engine's name, as records spell it.
    engine: &'static str,
    load: Loader,
    load_record: RecordLoader,
}

/// The games known by name.
#[derive(Default)]
pub struct Registry {
    entries: Vec<Entry>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Adds game `G` as `def` describes it.
    pub fn register<G: Game + Encode + Wire>(&mut self, def: GameDef<G>) {
        let presets = G::Rules::presets();
        let listing = GameListing {
            name: def.name.to_owned(),
            title: G::TITLE.to_owned(),
            doc: def.doc.to_owned(),
            preset_key: def.preset_key.to_owned(),
            presets: presets
                .iter()
                .map(|p| PresetInfo {
                    name: p.name.to_owned(),
                    title: p.title.to_owned(),
                    differences: p.differences.to_owned(),
                    doc: p.doc.to_owned(),
                    spec: format!("{}({}={})", def.name, def.preset_key, p.name),
                    glossary: G::glossary(&p.rules),
                })
                .collect(),
            parameters: presets
                .first()
                .map(|p| parameters(&p.rules))
                .unwrap_or_default()
                .into_iter()
                .map(|(p, default)| ParameterInfo {
                    name: p.name.to_owned(),
                    default,
                    doc: p.doc.to_owned(),
                    kind: p.kind,
                })
                .collect(),
            glossary: G::glossary(
                &presets
                    .first()
                    .map_or_else(G::Rules::default, |p| p.rules.clone()),
            ),
        };
        let name = def.name;
        let knowledge = def.knowledge;
        let load_record: RecordLoader = Box::new(move |json| {
            let (game, seed, ids) = typed_record::<G>(json)?;
            let game = game
                .named(format!("{name} (from a record)"))
                .with_knowledge(knowledge);
            Ok((Arc::new(game) as Arc<dyn DynGame>, seed, ids))
        });
        let load: Loader = Box::new(move |spec| load_typed::<G>(&def, spec));
        self.entries.push(Entry {
            listing,
            engine: G::NAME,
            load,
            load_record,
        });
    }

    /// Every game with its presets and parameters.
    pub fn list(&self) -> Vec<GameListing> {
        self.entries.iter().map(|e| e.listing.clone()).collect()
    }

    /// The own bots of every registered game (`prob`, `expert-v1`,
    /// [`DynGame::sparring_names`]), each name once, sorted: what a bot
    /// name beyond the generic ones may be.
    pub fn sparring_names(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self
            .entries
            .iter()
            .filter_map(|entry| {
                GameSpec::parse(&entry.listing.name)
                    .ok()
                    .map(|spec| (entry, spec))
            })
            .filter_map(|(entry, spec)| (entry.load)(&spec).ok())
            .flat_map(|game| game.sparring_names())
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The JSON Schema of every registered game's wire forms, as one
    /// document: `games.NAME.{action, view, observation, event}`, each game's
    /// shared definitions under `games.NAME.$defs`. The server publishes it
    /// beside its OpenAPI description.
    pub fn wire_schema(&self) -> Result<serde_json::Value, EnvError> {
        let mut games = serde_json::Map::new();
        for entry in &self.entries {
            let name = &entry.listing.name;
            let game = (entry.load)(&GameSpec::parse(name)?)?;
            games.insert(
                name.clone(),
                game.wire_schema(&format!("/games/{name}/$defs")),
            );
        }
        Ok(serde_json::json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "tabletop-rules wire schema",
            "description": "What clients read of every game: actions and action views as structs tagged by \"type\", observations as records of named fields, cards and pieces as readable codes. Validate an action against games.NAME.action, a view against games.NAME.view, an observation against games.NAME.observation, an event against games.NAME.event.",
            "wire_version": game_traits::WIRE_VERSION,
            "events_version": game_traits::EVENTS_VERSION,
            "games": games,
        }))
    }

    /// The game named by `spec`: `name`, `name(key=value,...)`, or
    /// `name/preset` for a preset.
    pub fn load(&self, spec: &str) -> Result<Arc<dyn DynGame>, EnvError> {
        let mut parsed = GameSpec::parse(spec)?;
        if let Some((name, preset)) = parsed.name.clone().split_once('/') {
            let key = self.entry(name)?.listing.preset_key.clone();
            parsed.name = name.to_owned();
            parsed.params.insert(0, (key, preset.to_owned()));
        }
        (self.entry(&parsed.name)?.load)(&parsed)
    }

    /// The game of a record (JSON of a `game_traits::Record` of any
    /// registered game, under the rules it names), its seed and action ids;
    /// refused unless it replays legally.
    pub fn load_record(&self, json: &str) -> Result<LoadedRecord, EnvError> {
        let value: serde_json::Value =
            serde_json::from_str(json).map_err(|e| EnvError::InvalidState(e.to_string()))?;
        let engine = value
            .get("game")
            .and_then(|g| g.as_str())
            .ok_or_else(|| EnvError::InvalidState("not a game record: no \"game\" field".into()))?;
        let entry = self
            .entries
            .iter()
            .find(|e| e.engine == engine)
            .ok_or_else(|| EnvError::UnknownGame {
                given: engine.to_owned(),
                known: self
                    .entries
                    .iter()
                    .map(|e| e.engine)
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        (entry.load_record)(json)
    }

    fn entry(&self, name: &str) -> Result<&Entry, EnvError> {
        self.entries
            .iter()
            .find(|e| e.listing.name == name)
            .ok_or_else(|| EnvError::UnknownGame {
                given: name.to_owned(),
                known: self
                    .entries
                    .iter()
                    .map(|e| e.listing.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

fn load_typed<G: Game + Encode + Wire>(
    def: &GameDef<G>,
    spec: &GameSpec,
) -> Result<Arc<dyn DynGame>, EnvError> {
    let presets = G::Rules::presets();
    let mut params = Vec::new();
    let mut preset = presets.first().cloned();
    for (key, value) in &spec.params {
        let key = def
            .aliases
            .iter()
            .find(|(alias, _)| alias == key)
            .map_or(key.as_str(), |(_, field)| field);
        if key == def.preset_key {
            preset = Some(
                G::Rules::preset(value).ok_or_else(|| EnvError::BadParameter {
                    game: def.name.to_owned(),
                    name: key.to_owned(),
                    value: value.clone(),
                    reason: format!(
                        "the presets are {}",
                        presets
                            .iter()
                            .map(|p| p.name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                })?,
            );
            continue;
        }
        let value = def
            .value_aliases
            .iter()
            .find(|(field, alias, _)| *field == key && alias.eq_ignore_ascii_case(value))
            .map_or(value.as_str(), |(_, _, v)| v);
        params.push((key.to_owned(), value.to_owned()));
    }
    let preset =
        preset.ok_or_else(|| EnvError::InvalidRules(format!("{} has no rule set", def.name)))?;
    let rules = rules_with(def.name, &preset.rules, &params)?;
    let title = if params.is_empty() {
        format!("{}, {}", G::TITLE, preset.title)
    } else {
        let changed: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!(
            "{}, {}, with {}",
            G::TITLE,
            preset.title,
            changed.join(", ")
        )
    };
    let mut canonical = GameSpec {
        name: def.name.to_owned(),
        params,
    };
    canonical
        .params
        .insert(0, (def.preset_key.to_owned(), preset.name.to_owned()));
    let game = TypedGame::<G>::new(rules).map_err(|e| match e {
        EnvError::InvalidRules(reason) => EnvError::InvalidRules(format!("{canonical}: {reason}")),
        other => other,
    })?;
    Ok(Arc::new(
        game.named(canonical.to_string())
            .titled(title)
            .with_knowledge(def.knowledge),
    ))
}
