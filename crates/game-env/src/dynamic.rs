//! The object-safe game API: a game under one rule set ([`DynGame`]) and a
//! boxed state ([`DynState`]) that speak only integer action ids, seats,
//! tensors, masks, strings and JSON. The Python package, the server and the
//! arena drive every game through it, so a game is added in one place.

use std::any::Any;
use std::fmt::{self, Write as _};

use game_traits::{
    Encode, Game, GameInfo, GameRng, Outcome, PlayerId, Record, TensorLayout, Turn, Wire,
};
use serde::Serialize;
use serde_json::Value;

use crate::bots::{build_agent, BotSpec, Knowledge, LegacyProtocol};
use crate::opponent::{AgentOpponent, Opponent};
use crate::typed::Typed;
use crate::{EnvError, SetupKind, StandardClock, SuggestedSetup};
use game_traits::RuleSet;

/// A game under one rule set, known only through integers and text.
pub trait DynGame: Send + Sync {
    /// The game's name with its parameters, as the registry loads it
    /// (`stratego(variant=classic)`).
    fn name(&self) -> &str;

    /// What the game is, as data.
    fn info(&self) -> &GameInfo;

    /// The observation tensor's shape and planes.
    fn layout(&self) -> &TensorLayout;

    /// The rules as JSON (every field, defaults filled in).
    fn rules_json(&self) -> &str;

    /// The JSON Schema of the game's wire forms: `{"action", "view",
    /// "observation"}` with their shared definitions under `"$defs"`, whose
    /// references point at `definitions_root` (a JSON pointer, e.g.
    /// `/games/battleline/$defs`) so that several games' schemas live in
    /// one document.
    fn wire_schema(&self, definitions_root: &str) -> Value;

    /// The action with id `id` as its wire struct.
    fn action_struct(&self, id: usize) -> Result<Value, EnvError>;

    /// The id of the action a wire struct names.
    fn action_id_of(&self, action: &Value) -> Result<usize, EnvError>;

    /// A new game at its initial state (chance stays explicit).
    fn new_state(&self) -> Box<dyn DynState>;

    /// A state from the JSON of [`DynState::to_json`]; refused unless it is
    /// a state of this game under these rules.
    fn deserialize_state(&self, json: &str) -> Result<Box<dyn DynState>, EnvError>;

    /// The action with id `id` in the game's notation.
    fn action_text(&self, id: usize) -> Result<String, EnvError>;

    /// The ids of the actions that are players' decisions, ascending: the
    /// action space without its chance outcomes, what a learner's policy
    /// ranges over (card war decides with 27 of its 68 ids).
    fn decision_ids(&self) -> Vec<usize>;

    /// The id of the action `text` writes: the game's notation as
    /// [`DynGame::action_text`] gives it, or a short form a person types
    /// (the game's `FromStr`); the game's parse error when it names none.
    fn parse_action(&self, text: &str) -> Result<usize, EnvError>;

    /// A bot for this game: `random`, `flat[:N | :Nms]`, `ismcts[:N | :Nms]`, or the
    /// game's `heuristic`, `expert` or own bot by name (refused where it
    /// has none).
    fn bot(&self, spec: BotSpec) -> Result<Box<dyn Opponent>, EnvError>;

    /// The names of the game's own sparring bots
    /// ([`Knowledge::sparring`](crate::Knowledge::sparring)), which
    /// [`DynGame::bot`] builds by name.
    fn sparring_names(&self) -> Vec<&'static str>;

    /// Whether programs of the older protocol `prefix` (as in
    /// `ucc:PROGRAM ARGS`) play this game's rule set; refused, with why,
    /// when the game knows no such protocol or its programs play other
    /// rules.
    fn legacy_plays(&self, prefix: &str) -> Result<(), EnvError>;

    /// A bot program of an older protocol that this game's rule set is
    /// played in (`prefix` as in `ucc:PROGRAM ARGS`), started with `argv`
    /// and a per-decision time limit; refused when the game knows no such
    /// protocol or its programs do not play these rules.
    fn legacy_bot(
        &self,
        prefix: &str,
        argv: Vec<String>,
        time_limit: std::time::Duration,
    ) -> Result<Box<dyn Opponent>, EnvError>;

    /// What every code of the game's rendering means.
    fn legend(&self) -> &str;

    /// The move forms a person may type beyond the listed notation
    /// ([`Knowledge::move_forms`](crate::Knowledge::move_forms)); empty
    /// when the game reads only its notation.
    fn move_forms(&self) -> &str;

    /// The time control the game is played under unless its players ask
    /// for another ([`Knowledge::clock`](crate::Knowledge::clock)).
    fn standard_clock(&self) -> StandardClock;

    /// A setup of `kind` drawn from `rng`, its placements as action ids;
    /// `None` when the game suggests no setups
    /// ([`Knowledge::setups`](crate::Knowledge::setups)).
    fn suggest_setup(&self, kind: SetupKind, rng: &mut GameRng) -> Option<SuggestedSetup<usize>>;

    /// The placements (action ids, in the order the setup phase plays
    /// them) of the setup `text` writes
    /// ([`Knowledge::setup_forms`](crate::Knowledge::setup_forms)):
    /// refused with why when it writes none or the game reads no setups.
    fn read_setup(&self, text: &str) -> Result<Vec<usize>, EnvError>;

    /// The setup the placements `ids` make, as text [`DynGame::read_setup`]
    /// reads back; `None` when they make none or the game writes no
    /// setups.
    fn write_setup(&self, ids: &[usize]) -> Option<String>;

    /// Where, in the order of the placements, `seat`'s setup square named
    /// `name` is filled; `None` when it is none of his setup squares.
    fn setup_square(&self, seat: PlayerId, name: &str) -> Option<usize>;

    /// How to write a setup and its squares, for a help screen; empty when
    /// the game reads no setups.
    fn setup_help(&self) -> String;

    /// The game and rule set as a person reads them, from their declared
    /// titles ([`Game::TITLE`], [`Preset::title`](game_traits::Preset)):
    /// "Stratego, International"; options changed from the preset follow
    /// ("Stratego, International, with two_square_limit=3").
    fn title(&self) -> &str;

    /// When `seat`'s decision in `state` is a routine question (see
    /// [`Knowledge::routine`](crate::Knowledge::routine)): its key and the
    /// id of the answer that declines it.
    fn routine(&self, state: &dyn DynState, seat: PlayerId) -> Option<(u64, usize)>;

    /// The record (rules + seed + actions, as JSON) of a game of this game
    /// played from `seed` with the action ids `actions`.
    fn record_json(&self, seed: u64, actions: &[usize]) -> Result<String, EnvError>;
}

/// One game in progress, with integer actions.
pub trait DynState: Send + Sync + fmt::Display {
    /// Who acts now.
    fn turn(&self) -> Turn;

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.turn() == Turn::Terminal
    }

    /// The legal action ids now (chance outcomes at a chance event), sorted.
    fn legal_ids(&self, out: &mut Vec<usize>);

    /// The legal actions now with their ids, texts and wire structs.
    fn legal_actions(&self) -> Vec<LegalAction>;

    /// Writes the legal-action mask (length: the action space).
    fn write_mask(&self, mask: &mut [bool]) -> Result<(), EnvError>;

    /// [`DynState::write_mask`] reusing the state's own scratch list: the
    /// batched environment's hot path, which owns its states.
    fn write_mask_mut(&mut self, mask: &mut [bool]) -> Result<(), EnvError>;

    /// The chance outcomes now, with their probabilities.
    fn chance_outcomes(&self, out: &mut Vec<(usize, f64)>);

    /// Applies the action with id `id`; an illegal one is refused with the
    /// engine's reason and changes nothing.
    fn apply_id(&mut self, id: usize) -> Result<(), EnvError>;

    /// Draws the chance outcome now due from `rng`.
    fn sample_chance_id(&self, rng: &mut GameRng) -> Option<usize>;

    /// Draws a uniformly random legal decision from `rng`.
    fn sample_legal_id(&self, rng: &mut GameRng) -> Option<usize>;

    /// Plays chance events from `rng` until a player decides or the game
    /// ends; returns how many were played.
    fn play_chance(&mut self, rng: &mut GameRng) -> u32;

    /// Writes `player`'s observation tensor into `out` (the layout's size).
    fn encode(&self, player: PlayerId, out: &mut [f32]) -> Result<(), EnvError>;

    /// [`DynState::encode`] into a row that holds what the last call with
    /// `row` wrote there (anything, when `row` is new or forgotten): only
    /// the values that differ are written, and the row ends equal to
    /// [`DynState::encode`]'s output.
    fn encode_update(
        &self,
        player: PlayerId,
        out: &mut [f32],
        row: &mut crate::WrittenRow,
    ) -> Result<(), EnvError>;

    /// `player`'s information-state string.
    fn information_state_string(&self, player: PlayerId) -> String;

    /// `player`'s observation as JSON in the engine's serialisation (what
    /// determinisation reads back; clients read
    /// [`DynState::observation_struct`]).
    fn observation_json(&self, player: PlayerId) -> Result<String, EnvError>;

    /// `player`'s observation as its wire struct, with the wire schema's
    /// version.
    fn observation_struct(&self, player: PlayerId) -> Result<Value, EnvError>;

    /// `player`'s observation rendered as text.
    fn observation_text(&self, player: PlayerId) -> String;

    /// The action `id`, about to be applied now, as `viewer` perceives it.
    fn action_view(&self, viewer: PlayerId, id: usize) -> Result<String, EnvError>;

    /// [`DynState::action_view`] as its wire struct.
    fn view_struct(&self, viewer: PlayerId, id: usize) -> Result<Value, EnvError>;

    /// The action with id `id` as its wire struct.
    fn action_struct(&self, id: usize) -> Result<Value, EnvError>;

    /// The action `id` in the game's notation.
    fn action_text(&self, id: usize) -> Result<String, EnvError>;

    /// The legal action `id`, about to be applied now, told to `viewer` in
    /// words with what it shows him ([`Game::narrate`]: a fight's result,
    /// a claim's proof); read from his observations before and after it.
    fn narrate(&self, viewer: PlayerId, id: usize) -> Result<String, EnvError>;

    /// What shows `viewer` why action `id` is refused now, beyond the
    /// engine's reason ([`Game::explain_refusal`]: the cards that would
    /// beat a refused Battle Line claim), read from his observation only;
    /// `None` when the game has nothing to add or `id` names no action.
    fn explain_refusal(&self, viewer: PlayerId, id: usize) -> Option<String>;

    /// Whether action `id` is legal now: the engine's refusal as
    /// [`EnvError::IllegalAction`] if not.
    fn check_id(&self, id: usize) -> Result<(), EnvError>;

    /// Both seats' returns (0 before the end).
    fn returns(&self) -> [f64; 2];

    /// The result once the game has ended.
    fn outcome(&self) -> Option<Outcome>;

    /// Player decisions so far.
    fn move_count(&self) -> u32;

    /// The whole state as JSON.
    fn to_json(&self) -> Result<String, EnvError>;

    /// A full state consistent with `player`'s observation, the unseen part
    /// drawn from `rng` (information-set search).
    fn resample(&self, player: PlayerId, rng: &mut GameRng) -> Result<Box<dyn DynState>, EnvError>;

    /// An independent copy.
    fn clone_box(&self) -> Box<dyn DynState>;

    /// The typed state, for adapters that know the game.
    fn as_any(&self) -> &dyn Any;

    /// The typed state, mutably.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl Clone for Box<dyn DynState> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// [`DynGame`] for a typed game `G` under fixed rules.
pub struct TypedGame<G: Game> {
    name: String,
    title: String,
    rules: G::Rules,
    rules_json: String,
    info: GameInfo,
    layout: TensorLayout,
    knowledge: Knowledge<G>,
}

impl<G: Game + Encode + Wire> TypedGame<G> {
    /// `G` under `rules`; refused when the engine refuses the rules.
    pub fn new(rules: G::Rules) -> Result<Self, EnvError> {
        G::new(&rules).map_err(|e| EnvError::InvalidRules(e.to_string()))?;
        Ok(TypedGame {
            rules_json: to_json(&rules)?,
            name: G::NAME.to_owned(),
            title: title_of::<G>(&rules),
            info: G::info(&rules),
            layout: G::tensor_layout(&rules),
            knowledge: Knowledge::default(),
            rules,
        })
    }

    /// The same game under the name `name` (the registry's spelling).
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The same game titled `title` in words.
    pub fn titled(mut self, title: impl Into<String>) -> Self {
        self.title = title.into();
        self
    }

    /// The same game with what it knows of itself for its bots.
    pub fn with_knowledge(mut self, knowledge: Knowledge<G>) -> Self {
        self.knowledge = knowledge;
        self
    }

    /// What the game knows of itself for its bots.
    pub fn knowledge(&self) -> &Knowledge<G> {
        &self.knowledge
    }

    /// The rules.
    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    /// The older protocol `prefix` if this game knows it and its programs
    /// play these rules.
    fn legacy_protocol(&self, prefix: &str) -> Result<&LegacyProtocol<G>, EnvError> {
        let refused = |reason: String| EnvError::BadParameter {
            game: self.name.clone(),
            name: "bot".into(),
            value: format!("{prefix}:"),
            reason,
        };
        let protocol = self
            .knowledge
            .legacy
            .iter()
            .find(|p| p.prefix == prefix)
            .ok_or_else(|| refused(format!("{prefix}: bots do not play this game")))?;
        (protocol.plays)(&self.rules).map_err(|why| refused(format!("{prefix}: {why}")))?;
        Ok(protocol)
    }
}

pub(crate) fn action_of<G: Game>(rules: &G::Rules, id: usize) -> Result<G::Action, EnvError> {
    rules.action_from_id(id).ok_or(EnvError::UnknownActionId {
        id,
        space: rules.action_space(),
    })
}

/// `value` as JSON text; a failure is ours (no wire or engine type holds
/// anything serde_json refuses), so it is internal, never an empty string.
pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, EnvError> {
    serde_json::to_string(value).map_err(|e| EnvError::Internal(format!("serialising: {e}")))
}

pub(crate) fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, EnvError> {
    serde_json::to_value(value).map_err(|e| EnvError::Internal(format!("serialising: {e}")))
}

/// The JSON Schema of `G`'s wire forms (see [`DynGame::wire_schema`]).
fn wire_schema_of<G: Wire>(definitions_root: &str) -> Value {
    // The serialize contract: the schema of what is sent (a rules type read
    // through a private raw form would otherwise show that form).
    let mut settings =
        game_traits::schemars::generate::SchemaSettings::draft2020_12().for_serialize();
    settings.definitions_path = definitions_root.to_owned().into();
    let mut generator = settings.into_generator();
    let action = generator.subschema_for::<G::ActionStruct>();
    let view = generator.subschema_for::<G::ViewStruct>();
    let observation = generator.subschema_for::<G::ObservationStruct>();
    let defs: serde_json::Map<String, Value> = generator.take_definitions(true);
    serde_json::json!({
        "action": action,
        "view": view,
        "observation": observation,
        "$defs": defs,
    })
}

/// A legal action as clients read it: its id, its text in the game's
/// notation and its wire struct.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegalAction {
    /// The action's id.
    pub id: usize,
    /// The action in the game's notation.
    pub text: String,
    /// The action's wire struct.
    pub action: Value,
}

pub(crate) fn legal_action<G: Game + Wire>(rules: &G::Rules, action: G::Action) -> LegalAction {
    LegalAction {
        id: rules.action_id(action),
        text: action.to_string(),
        // Wire structs are plain data: serialising one cannot fail.
        action: serde_json::to_value(G::action_struct(action)).unwrap_or(Value::Null),
    }
}

impl<G> DynGame for TypedGame<G>
where
    G: Game + Encode + Wire,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn layout(&self) -> &TensorLayout {
        &self.layout
    }

    fn rules_json(&self) -> &str {
        &self.rules_json
    }

    fn wire_schema(&self, definitions_root: &str) -> Value {
        wire_schema_of::<G>(definitions_root)
    }

    fn action_struct(&self, id: usize) -> Result<Value, EnvError> {
        to_value(&G::action_struct(action_of::<G>(&self.rules, id)?))
    }

    fn action_id_of(&self, action: &Value) -> Result<usize, EnvError> {
        let unknown = |reason: String| EnvError::UnknownAction {
            given: action.to_string().chars().take(200).collect(),
            reason,
        };
        let parsed: G::ActionStruct =
            serde_json::from_value(action.clone()).map_err(|e| unknown(e.to_string()))?;
        // serde lets a unit variant of a tagged enum carry fields it does
        // not know (`{"type":"pass","card":"K"}`): an action struct must
        // be exactly one the engine writes.
        let written = serde_json::to_value(&parsed).map_err(|e| unknown(e.to_string()))?;
        if let (Value::Object(given), Value::Object(known)) = (action, &written) {
            if let Some(field) = given.keys().find(|k| !known.contains_key(*k)) {
                return Err(unknown(format!("this action has no field {field:?}")));
            }
        }
        G::action_from_struct(&self.rules, &parsed)
            .map(|a| self.rules.action_id(a))
            .ok_or_else(|| unknown("not an action under these rules".into()))
    }

    fn new_state(&self) -> Box<dyn DynState> {
        match G::new(&self.rules) {
            Ok(state) => Box::new(Typed::new(state)),
            // `TypedGame::new` proved the rules are accepted.
            Err(e) => unreachable!("rules accepted once are accepted again: {e}"),
        }
    }

    fn deserialize_state(&self, json: &str) -> Result<Box<dyn DynState>, EnvError> {
        let state: G =
            serde_json::from_str(json).map_err(|e| EnvError::InvalidState(e.to_string()))?;
        if *state.rules() != self.rules {
            return Err(EnvError::InvalidState(
                "the state is of other rules than this game's".into(),
            ));
        }
        Ok(Box::new(Typed::new(state)))
    }

    fn action_text(&self, id: usize) -> Result<String, EnvError> {
        action_of::<G>(&self.rules, id).map(|a| a.to_string())
    }

    fn decision_ids(&self) -> Vec<usize> {
        (0..self.rules.action_space())
            .filter(|&id| {
                self.rules
                    .action_from_id(id)
                    .is_some_and(|a| !self.rules.is_chance_outcome(a))
            })
            .collect()
    }

    fn parse_action(&self, text: &str) -> Result<usize, EnvError> {
        let action: G::Action = text.parse().map_err(|e| EnvError::UnknownAction {
            given: text.to_owned(),
            reason: format!("{e}"),
        })?;
        // An action outside these rules' space (a Czech placement of a kind
        // the rule set lacks) maps to no id that maps back to it.
        let id = self.rules.action_id(action);
        match self.rules.action_from_id(id) {
            Some(back) if back == action => Ok(id),
            _ => Err(EnvError::UnknownAction {
                given: text.to_owned(),
                reason: format!("{action} is no action of these rules"),
            }),
        }
    }

    fn bot(&self, spec: BotSpec) -> Result<Box<dyn Opponent>, EnvError> {
        let agent = build_agent(spec, &self.knowledge).ok_or_else(|| EnvError::BadParameter {
            game: self.name.clone(),
            name: "bot".into(),
            value: spec.to_string(),
            reason: match spec {
                BotSpec::Sparring(..) => format!(
                    "this game has no bot by that name (its own bots: {})",
                    self.sparring_names().join(", ")
                ),
                BotSpec::Expert(_) => "this game has no expert bot".into(),
                _ => "this game has no heuristic bot".into(),
            },
        })?;
        Ok(Box::new(AgentOpponent::<G>::new(agent)))
    }

    fn sparring_names(&self) -> Vec<&'static str> {
        self.knowledge.sparring.iter().map(|s| s.name).collect()
    }

    fn legacy_plays(&self, prefix: &str) -> Result<(), EnvError> {
        self.legacy_protocol(prefix).map(drop)
    }

    fn legacy_bot(
        &self,
        prefix: &str,
        argv: Vec<String>,
        time_limit: std::time::Duration,
    ) -> Result<Box<dyn Opponent>, EnvError> {
        let protocol = self.legacy_protocol(prefix)?;
        let name = format!("{prefix}:{}", argv.join(" "));
        (protocol.spawn)(argv, time_limit).map_err(|failure| EnvError::Bot { bot: name, failure })
    }

    fn legend(&self) -> &str {
        self.knowledge.legend
    }

    fn move_forms(&self) -> &str {
        self.knowledge.move_forms
    }

    fn standard_clock(&self) -> StandardClock {
        self.knowledge.clock
    }

    fn suggest_setup(&self, kind: SetupKind, rng: &mut GameRng) -> Option<SuggestedSetup<usize>> {
        let setup = (self.knowledge.setups?)(&self.rules, kind, rng);
        Some(SuggestedSetup {
            rows: setup.rows,
            cols: setup.cols,
            placements: setup
                .placements
                .into_iter()
                .map(|a| self.rules.action_id(a))
                .collect(),
        })
    }

    fn read_setup(&self, text: &str) -> Result<Vec<usize>, EnvError> {
        let refused = |reason: String| EnvError::UnknownAction {
            given: text.chars().take(60).collect(),
            reason,
        };
        let forms = self
            .knowledge
            .setup_forms
            .ok_or_else(|| refused("this game has no setups to write".into()))?;
        let actions = (forms.read)(&self.rules, text).map_err(refused)?;
        Ok(actions
            .into_iter()
            .map(|a| self.rules.action_id(a))
            .collect())
    }

    fn write_setup(&self, ids: &[usize]) -> Option<String> {
        let forms = self.knowledge.setup_forms?;
        let actions = ids
            .iter()
            .map(|&id| self.rules.action_from_id(id))
            .collect::<Option<Vec<_>>>()?;
        (forms.write)(&self.rules, &actions)
    }

    fn setup_square(&self, seat: PlayerId, name: &str) -> Option<usize> {
        (self.knowledge.setup_forms?.square)(&self.rules, seat, name)
    }

    fn setup_help(&self) -> String {
        self.knowledge
            .setup_forms
            .map_or_else(String::new, |forms| (forms.help)(&self.rules))
    }

    fn title(&self) -> &str {
        &self.title
    }

    fn routine(&self, state: &dyn DynState, seat: PlayerId) -> Option<(u64, usize)> {
        let routine = self.knowledge.routine?;
        let typed = state.as_any().downcast_ref::<Typed<G>>()?.state();
        if typed.turn() != Turn::Player(seat) {
            return None;
        }
        let (key, decline) = routine(&typed.observation(seat))?;
        typed
            .is_legal(decline)
            .then(|| (key, self.rules.action_id(decline)))
    }

    fn record_json(&self, seed: u64, actions: &[usize]) -> Result<String, EnvError> {
        let mut record = Record::<G>::new(self.rules.clone(), seed);
        for &id in actions {
            record.push(action_of::<G>(&self.rules, id)?);
        }
        to_json(&record)
    }
}

/// A record of `G` read from JSON: its game under the record's rules, its
/// seed and its action ids, checked to replay legally.
pub fn typed_record<G: Game + Encode + Wire>(
    json: &str,
) -> Result<(TypedGame<G>, u64, Vec<usize>), EnvError> {
    let record: Record<G> =
        serde_json::from_str(json).map_err(|e| EnvError::InvalidState(e.to_string()))?;
    record
        .replay()
        .map_err(|e| EnvError::InvalidState(format!("the record does not replay: {e}")))?;
    let rules = record.rules().clone();
    let ids = record
        .actions()
        .iter()
        .map(|&a| rules.action_id(a))
        .collect();
    Ok((TypedGame::new(rules)?, record.seed(), ids))
}

/// "Battle Line, Troops only": the game's title and that of the preset
/// whose rules `rules` are, or "own rules" when they are no preset's.
fn title_of<G: Game>(rules: &G::Rules) -> String {
    let presets = G::Rules::presets();
    let preset = presets.iter().find(|p| p.rules == *rules);
    format!("{}, {}", G::TITLE, preset.map_or("own rules", |p| p.title))
}

/// The legal actions of `state` as `id: text` lines, for logs and tests.
pub fn describe_legal(state: &dyn DynState) -> String {
    let mut ids = Vec::new();
    state.legal_ids(&mut ids);
    let mut out = String::new();
    for id in ids {
        let text = state.action_text(id).unwrap_or_default();
        let _ = writeln!(out, "{id}: {text}");
    }
    out
}
