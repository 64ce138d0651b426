//! A program in a seat, started when its seat is first due and kept for
//! the match: a JSON-lines bot (`cmd:`), told every action as it is
//! played, or a program of an older protocol the game knows (`ucc:`,
//! `spelinski:`), refereed by the game's own code, which tells it what its
//! seat saw at each decision.

use std::time::Duration;

use game_env::{DynGame, DynState, EnvError, Opponent, ProtocolBot, ProtocolConfig};
use game_traits::{GameRng, PlayerId};

/// A seat's running program.
pub enum Program {
    /// The JSON-lines protocol's.
    Json(Box<ProtocolBot>),
    /// An older protocol's, behind its referee.
    Legacy(Box<dyn Opponent>),
}

impl Program {
    /// Starts `cmd:ARGV` for `game`, `limit` per decision.
    pub fn json(game: &dyn DynGame, argv: &[String], limit: Duration) -> Result<Self, EnvError> {
        ProtocolBot::spawn(ProtocolConfig {
            argv: argv.to_vec(),
            time_limit: limit,
            game: game.name().to_owned(),
            legend: game.legend().to_owned(),
        })
        .map(|bot| Program::Json(Box::new(bot)))
        .map_err(|failure| EnvError::Bot {
            bot: format!("cmd:{}", argv.join(" ")),
            failure,
        })
    }

    /// Starts `PREFIX:ARGV` for `game`, `limit` per decision (refused
    /// when the game's rules are not the protocol's).
    pub fn legacy(
        game: &dyn DynGame,
        prefix: &str,
        argv: &[String],
        limit: Duration,
    ) -> Result<Self, EnvError> {
        game.legacy_bot(prefix, argv.to_vec(), limit)
            .map(Program::Legacy)
    }

    /// The program of `slot`, started by `start` if the slot is empty.
    pub fn started(
        slot: &mut Option<Program>,
        start: impl FnOnce() -> Result<Program, EnvError>,
    ) -> Result<&mut Program, EnvError> {
        let program = match slot.take() {
            Some(program) => program,
            None => start()?,
        };
        Ok(slot.insert(program))
    }

    /// Tells the program of action `id` about to be applied to `state`, as
    /// its seat `viewer` perceives it (a legacy referee reads the seat's
    /// observation at its next decision instead).
    pub fn tell(
        &mut self,
        state: &dyn DynState,
        by: Option<PlayerId>,
        viewer: PlayerId,
        id: usize,
    ) -> Result<(), EnvError> {
        match self {
            Program::Json(bot) => bot.tell(state, by, viewer, id),
            Program::Legacy(_) => Ok(()),
        }
    }

    /// The program's decision for `seat` in `state`.
    pub fn decide(
        &mut self,
        state: &dyn DynState,
        seat: PlayerId,
        rng: &mut GameRng,
    ) -> Result<usize, EnvError> {
        match self {
            Program::Json(bot) => bot.decide(state, seat),
            Program::Legacy(bot) => bot.choose(state, seat, rng),
        }
    }
}
