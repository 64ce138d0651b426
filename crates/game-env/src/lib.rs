#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod batch;
mod bots;
mod check;
mod data_dir;
mod dynamic;
mod error;
mod opponent;
mod process;
mod protocol;
mod registry;
mod setups;
mod spec;
mod standard_clock;
mod typed;
mod typed_game;

pub use batch::{
    episode_rng, opponent_rng, BatchConfig, BatchEnv, MaskCell, SharedOpponentFactory, StepBuffers,
    StepOutput, WrittenRow,
};
pub use bots::{
    build_agent, BotName, BotSpec, BotSpecError, Delegate, ExpertFactory, HeuristicFactory,
    Knowledge, LegacyProtocol, PolicyFactory, Routine, SearchDefaults, Sparring,
};
pub use check::check_batch;
pub use data_dir::{data_dir, data_dir_from};
pub use dynamic::{describe_legal, DynGame, DynState, LegalAction, Told};
pub use error::{BotFailure, EnvError};
/// A search bot's budget per decision, as a [`BotSpec`] names it.
pub use game_agents::{Budget, BudgetError};
pub use opponent::{AgentOpponent, Opponent, OpponentFactory};
pub use process::{BotProcess, MAX_LINE};
pub use protocol::{parse_answer, ProtocolBot, ProtocolConfig, PROTOCOL_VERSION};
pub use registry::{GameDef, GameListing, LoadedRecord, ParameterInfo, PresetInfo, Registry};
pub use setups::{SetupForms, SetupKind, SetupReader, SetupSuggester, SuggestedSetup};
pub use spec::{parameters, rules_with, GameSpec};
pub use standard_clock::StandardClock;
pub use typed::Typed;
pub use typed_game::{typed_record, TypedGame};
