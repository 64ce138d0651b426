//! The object-safe game API: a game under one rule set ([`DynGame`]) and a
//! boxed state ([`DynState`]) that speak only integer action ids, seats,
//! tensors, masks, strings and JSON. The Python package, the server and the
//! arena drive every game through it, so a game is added in one place.
//! Its one implementation over a typed game is
//! [`TypedGame`](crate::TypedGame) (`typed_game.rs`) with
//! [`Typed`](crate::Typed) (`typed.rs`).

use std::any::Any;
use std::fmt::{self, Write as _};

use game_traits::{GameInfo, GameRng, Outcome, PlayerId, TensorLayout, Turn};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::bots::BotSpec;
use crate::opponent::Opponent;
use crate::{EnvError, SetupKind, StandardClock, SuggestedSetup};

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
    /// "observation", "event"}` with their shared definitions under `"$defs"`, whose
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

    /// The names of the codes the wire sends under these rules
    /// ([`Wire::glossary`](game_traits::Wire::glossary)).
    fn glossary(&self) -> &[game_traits::Term];

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
    /// titles ([`Game::TITLE`](game_traits::Game::TITLE), [`Preset::title`](game_traits::Preset)):
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
    /// words with what it shows him ([`Game::narrate`](game_traits::Game::narrate): a fight's result,
    /// a claim's proof); read from his observations before and after it.
    fn narrate(&self, viewer: PlayerId, id: usize) -> Result<String, EnvError>;

    /// The legal action `id`, about to be applied now, as events
    /// ([`Wire::events`](game_traits::Wire::events): what it showed
    /// `viewer`, read from his observations before and after it) with
    /// their words, which are [`DynState::narrate`]'s. For a spectator
    /// (`None`): the events both seats got alike, worded for no seat, or
    /// `None` when the seats were told different things.
    fn told(&self, viewer: Option<PlayerId>, id: usize) -> Result<Option<Told>, EnvError>;

    /// What shows `viewer` why action `id` is refused now, beyond the
    /// engine's reason, as events and their words
    /// ([`Wire::refusal`](game_traits::Wire::refusal): a refused Battle
    /// Line claim's counterexample), read from his observation only;
    /// `None` when the game has nothing to add or `id` names no action.
    fn explain_refusal(&self, viewer: PlayerId, id: usize) -> Option<Told>;

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

/// An action as events, for one viewer ([`DynState::told`]).
#[derive(Clone, Debug, Serialize)]
pub struct Told {
    /// The events as their wire structs, in order: a JSON array of
    /// objects tagged by `"kind"` (schema version
    /// [`game_traits::EVENTS_VERSION`]), kept as its compact text (a log
    /// holds one per step and seat).
    pub events: Box<RawValue>,
    /// Their words ([`game_traits::tell_all`]).
    pub text: String,
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
