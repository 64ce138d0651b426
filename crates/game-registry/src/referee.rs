//! What the referees of older bot protocols share: the move is decided on
//! the game's typed state, and a referee's failure is the bot's.

use game_env::{BotFailure, DynState, EnvError, Typed};
use game_traits::{Encode, Game, RuleSet};

/// The id of the action that `decide` takes on `state` as game `G`'s typed
/// state; a state of another game, or a failure of `decide`, is the bot
/// `name`'s failure.
pub(crate) fn choose_typed<G: Game + Encode, E: Into<BotFailure>>(
    name: String,
    state: &dyn DynState,
    decide: impl FnOnce(&G) -> Result<G::Action, E>,
) -> Result<usize, EnvError> {
    let failed = |failure| EnvError::Bot {
        bot: name.clone(),
        failure,
    };
    let typed = state
        .as_any()
        .downcast_ref::<Typed<G>>()
        .ok_or_else(|| failed(BotFailure::WrongGame))?
        .state();
    let action = decide(typed).map_err(|e| failed(e.into()))?;
    Ok(typed.rules().action_id(action))
}
