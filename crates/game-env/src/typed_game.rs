//! [`DynGame`] over a typed game: [`TypedGame`] holds a game's rules and
//! what it knows of itself, and answers the object-safe API through the
//! game's own types (its states are [`Typed`](crate::Typed)).

use game_traits::{
    Encode, Game, GameInfo, GameRng, PlayerId, Record, TensorLayout, Term, Turn, Wire,
};
use serde::Serialize;
use serde_json::Value;

use crate::bots::{build_agent, BotSpec, Knowledge, LegacyProtocol};
use crate::dynamic::{DynGame, DynState, LegalAction};
use crate::opponent::{AgentOpponent, Opponent};
use crate::typed::Typed;
use crate::{EnvError, SetupKind, StandardClock, SuggestedSetup};
use game_traits::RuleSet;

/// [`DynGame`] for a typed game `G` under fixed rules.
pub struct TypedGame<G: Game> {
    name: String,
    title: String,
    rules: G::Rules,
    rules_json: String,
    info: GameInfo,
    layout: TensorLayout,
    knowledge: Knowledge<G>,
    glossary: Vec<Term>,
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
            glossary: G::glossary(&rules),
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
    let event = generator.subschema_for::<G::Event>();
    let defs: serde_json::Map<String, Value> = generator.take_definitions(true);
    serde_json::json!({
        "action": action,
        "view": view,
        "observation": observation,
        "event": event,
        "$defs": defs,
    })
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

    fn glossary(&self) -> &[Term] {
        &self.glossary
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
    format!(
        "{}, {}",
        G::TITLE,
        rules.preset_title().unwrap_or("own rules")
    )
}
