//! Who sits in a seat, in one grammar for every driver: the arena's
//! command line and the server's seats both read a [`PlayerSpec`], so a new
//! kind of player is parsed, printed and built in this one place.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use game_env::{
    BotFailure, BotSpec, BotSpecError, DynGame, EnvError, Opponent, ProtocolBot, ProtocolConfig,
    Registry,
};

use crate::LEGACY_PREFIXES;

/// A player: a person, a built-in bot, or a program.
///
/// Written as `human`; `bot:NAME` or just `NAME` for a built-in bot
/// ([`BotSpec`]: `random`, `heuristic`, `flat[:B]`, `ismcts[:B]`,
/// `expert[:B]` or a game's own bot by name); `cmd:PROGRAM ARGS` for a
/// program speaking the JSON-lines bot protocol; `PREFIX:PROGRAM ARGS` for a
/// program of an older protocol a game knows ([`LEGACY_PREFIXES`]: `ucc`,
/// `spelinski`); `policy:FILE` for a trained policy (only in a build with
/// this crate's `policy` feature). Programs are split on whitespace, never
/// run by a shell. [`fmt::Display`] writes the canonical form, with `bot:`,
/// which reads back to the same player.
///
/// ```
/// use game_registry::PlayerSpec;
///
/// let bot: PlayerSpec = "ismcts:50ms".parse().unwrap();
/// assert_eq!(bot.to_string(), "bot:ismcts:50ms");
/// assert_eq!(bot.label(), "ismcts:50ms");
/// assert_eq!("bot:ismcts:50ms".parse::<PlayerSpec>(), Ok(bot));
///
/// let games = game_registry::registry();
/// let kuhn = games.load("kuhn_poker").unwrap();
/// let random: PlayerSpec = "random".parse().unwrap();
/// assert!(random.build(kuhn.as_ref(), std::time::Duration::from_secs(1)).is_ok());
/// assert!("cmd:".parse::<PlayerSpec>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerSpec {
    /// A person, who decides himself.
    Human,
    /// A built-in bot.
    Bot(BotSpec),
    /// A program speaking the JSON-lines protocol: the program and its
    /// arguments.
    Cmd(Vec<String>),
    /// A program of an older protocol a game knows
    /// ([`game_env::LegacyProtocol`]), refereed by the game's own code.
    Legacy {
        /// The protocol's prefix ([`LEGACY_PREFIXES`]).
        prefix: &'static str,
        /// The program and its arguments.
        argv: Vec<String>,
    },
    /// A trained policy file (`python/examples/selfplay.py --onnx FILE`),
    /// as its user names it: a path for the arena, a file name of the
    /// server's policy directory for the server.
    Policy(String),
}

/// The longest player description read: no real one comes near it.
pub const MAX_PLAYER: usize = 512;

/// Why a player description was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerSpecError {
    /// Longer than [`MAX_PLAYER`] bytes.
    #[error("a player is at most {MAX_PLAYER} bytes")]
    TooLong,
    /// `cmd:` or a legacy prefix with nothing after it.
    #[error("{prefix}: names no program")]
    NoProgram {
        /// The prefix.
        prefix: &'static str,
    },
    /// `policy:` with nothing after it.
    #[error("policy: names no file")]
    NoPolicyFile,
    /// A `policy:` player in a build without this crate's `policy` feature.
    #[error(
        "policy: players run trained policies on tract, which this build left out to stay \
         light: build with `--features policy`"
    )]
    PolicyNotBuilt,
    /// A person where only bots sit.
    #[error("a person cannot sit at a table of bots")]
    Person,
    /// A name of a game's own bot that no game has.
    #[error(
        "unknown bot {name:?}: expected random, heuristic, flat[:B], ismcts[:B], expert[:B] or a \
         game's own bot ({}), or cmd:PROGRAM ARGS, or a legacy protocol's PREFIX:PROGRAM ARGS \
         ({}), or policy:FILE",
        known.join(", "),
        LEGACY_PREFIXES.join(", ")
    )]
    UnknownBot {
        /// The name given.
        name: String,
        /// The own bots of the games there are.
        known: Vec<&'static str>,
    },
    /// Not a player's description.
    #[error(
        "{bot}, or human, or cmd:PROGRAM ARGS, or a legacy protocol's PREFIX:PROGRAM ARGS ({}), \
         or policy:FILE",
        LEGACY_PREFIXES.join(", ")
    )]
    Unknown {
        /// Why it is no built-in bot's name either.
        bot: BotSpecError,
    },
}

/// Why a player could not be built for a game.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// A person decides for himself: there is no bot to build.
    #[error("a person plays this seat: there is no bot to build")]
    Human,
    /// The game's refusal (a bot it has not, a legacy protocol that does
    /// not play these rules) or a program that did not start.
    #[error(transparent)]
    Env(#[from] EnvError),
    /// A `policy:` player in a build without the `policy` feature.
    #[error("{}", PlayerSpecError::PolicyNotBuilt)]
    PolicyNotBuilt,
    /// A policy file that cannot play this game.
    #[cfg(feature = "policy")]
    #[error("policy:{file}: {error}")]
    Policy {
        /// The file as named.
        file: String,
        /// Why it cannot play here.
        error: game_policy::PolicyError,
    },
}

impl PlayerSpec {
    /// Whether a person plays this seat.
    pub fn is_human(&self) -> bool {
        matches!(self, PlayerSpec::Human)
    }

    /// The name as a command line gives it: a built-in bot without `bot:`
    /// (`ismcts:30`), every other player as [`fmt::Display`] writes it.
    pub fn label(&self) -> String {
        match self {
            PlayerSpec::Bot(spec) => spec.to_string(),
            other => other.to_string(),
        }
    }

    /// This player where only bots sit (the arena's tables): refused if a
    /// person, or a game's own bot that no game of `games` has
    /// ([`Registry::sparring_names`]).
    pub fn bot_of(self, games: &Registry) -> Result<PlayerSpec, PlayerSpecError> {
        match &self {
            PlayerSpec::Human => Err(PlayerSpecError::Person),
            PlayerSpec::Bot(BotSpec::Sparring(name, _)) => {
                let known = games.sparring_names();
                match known.contains(&name.as_str()) {
                    true => Ok(self),
                    false => Err(PlayerSpecError::UnknownBot {
                        name: name.to_string(),
                        known,
                    }),
                }
            }
            _ => Ok(self),
        }
    }

    /// The player for `game`: the built-in bot, the program started (it
    /// may think `time_limit` a decision), or the policy read; or why it
    /// cannot play there.
    pub fn build(
        &self,
        game: &dyn DynGame,
        time_limit: Duration,
    ) -> Result<Box<dyn Opponent>, PlayerError> {
        match self {
            PlayerSpec::Human => Err(PlayerError::Human),
            PlayerSpec::Bot(spec) => Ok(game.bot(*spec)?),
            PlayerSpec::Cmd(argv) => {
                let config = ProtocolConfig {
                    argv: argv.clone(),
                    time_limit,
                    game: game.name().to_owned(),
                    legend: game.legend().to_owned(),
                };
                let bot =
                    ProtocolBot::spawn(config).map_err(|failure: BotFailure| EnvError::Bot {
                        bot: self.to_string(),
                        failure,
                    })?;
                Ok(Box::new(bot))
            }
            PlayerSpec::Legacy { prefix, argv } => {
                Ok(game.legacy_bot(prefix, argv.clone(), time_limit)?)
            }
            PlayerSpec::Policy(file) => policy(self, file, game),
        }
    }

    /// Whether this player can sit at `game`'s table: not a person, nor a
    /// `heuristic`, an `expert` or an own bot the game has not, nor a policy
    /// trained on another game or other rules (a policy file that does not
    /// read still sits, and its games say why). Programs are not started.
    pub fn fits(&self, game: &dyn DynGame) -> bool {
        match self {
            PlayerSpec::Human => false,
            PlayerSpec::Bot(
                spec @ (BotSpec::Heuristic | BotSpec::Expert(_) | BotSpec::Sparring(..)),
            ) => game.bot(*spec).is_ok(),
            #[cfg(feature = "policy")]
            PlayerSpec::Policy(file) => !matches!(
                game_policy::PolicyFile::load(std::path::Path::new(file), game),
                Err(game_policy::PolicyError::WrongGame { .. }
                    | game_policy::PolicyError::WrongRules { .. }
                    | game_policy::PolicyError::WrongShape { .. })
            ),
            _ => true,
        }
    }
}

#[cfg(feature = "policy")]
fn policy(
    spec: &PlayerSpec,
    file: &str,
    game: &dyn DynGame,
) -> Result<Box<dyn Opponent>, PlayerError> {
    let loaded =
        game_policy::PolicyFile::load(std::path::Path::new(file), game).map_err(|error| {
            PlayerError::Policy {
                file: file.to_owned(),
                error,
            }
        })?;
    Ok(Box::new(game_policy::PolicyBot::new(
        spec.to_string(),
        std::sync::Arc::new(loaded),
    )))
}

#[cfg(not(feature = "policy"))]
fn policy(_: &PlayerSpec, _: &str, _: &dyn DynGame) -> Result<Box<dyn Opponent>, PlayerError> {
    Err(PlayerError::PolicyNotBuilt)
}

impl From<BotSpec> for PlayerSpec {
    fn from(spec: BotSpec) -> Self {
        PlayerSpec::Bot(spec)
    }
}

/// The words of a program after its prefix, or why there are none.
fn program(prefix: &'static str, command: &str) -> Result<Vec<String>, PlayerSpecError> {
    let argv: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
    match argv.is_empty() {
        true => Err(PlayerSpecError::NoProgram { prefix }),
        false => Ok(argv),
    }
}

impl FromStr for PlayerSpec {
    type Err = PlayerSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.len() > MAX_PLAYER {
            return Err(PlayerSpecError::TooLong);
        }
        let text = s.trim();
        if text.eq_ignore_ascii_case("human") {
            return Ok(PlayerSpec::Human);
        }
        let after = |prefix: &str| text.strip_prefix(prefix)?.strip_prefix(':');
        if let Some(bot) = after("bot") {
            return bot
                .parse()
                .map(PlayerSpec::Bot)
                .map_err(|bot| PlayerSpecError::Unknown { bot });
        }
        if let Some(file) = after("policy") {
            return match (file.trim(), cfg!(feature = "policy")) {
                ("", _) => Err(PlayerSpecError::NoPolicyFile),
                (_, false) => Err(PlayerSpecError::PolicyNotBuilt),
                (file, true) => Ok(PlayerSpec::Policy(file.to_owned())),
            };
        }
        if let Some(command) = after("cmd") {
            return program("cmd", command).map(PlayerSpec::Cmd);
        }
        for &prefix in LEGACY_PREFIXES {
            if let Some(command) = after(prefix) {
                let argv = program(prefix, command)?;
                return Ok(PlayerSpec::Legacy { prefix, argv });
            }
        }
        text.parse()
            .map(PlayerSpec::Bot)
            .map_err(|bot| PlayerSpecError::Unknown { bot })
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Human => f.write_str("human"),
            PlayerSpec::Bot(spec) => write!(f, "bot:{spec}"),
            PlayerSpec::Cmd(argv) => write!(f, "cmd:{}", argv.join(" ")),
            PlayerSpec::Legacy { prefix, argv } => write!(f, "{prefix}:{}", argv.join(" ")),
            PlayerSpec::Policy(file) => write!(f, "policy:{file}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_print_back_to_themselves() {
        let mut written = vec![
            "human",
            "bot:random",
            "bot:heuristic",
            "bot:flat:10",
            "bot:ismcts:50",
            "bot:ismcts:50ms",
            "bot:expert:5ms",
            "bot:expert-v1:5",
            "cmd:python3 bot.py --seed 3",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>();
        written.extend(LEGACY_PREFIXES.iter().map(|p| format!("{p}:./agent 3")));
        if cfg!(feature = "policy") {
            written.push("policy:cardwar.onnx".into());
        }
        for text in written {
            let player: PlayerSpec = text.parse().unwrap();
            assert_eq!(player.to_string(), text);
            assert_eq!(player.to_string().parse::<PlayerSpec>(), Ok(player));
        }
    }

    #[test]
    fn bare_bot_names_are_bots_and_labels_drop_the_prefix() {
        let bare: PlayerSpec = "ISMCTS:7".parse().unwrap();
        assert_eq!(bare, "bot:ismcts:7".parse().unwrap());
        assert_eq!(bare.label(), "ismcts:7");
        assert_eq!(PlayerSpec::Human.label(), "human");
        assert_eq!(
            "cmd:python3  a.py".parse(),
            Ok(PlayerSpec::Cmd(vec!["python3".into(), "a.py".into()]))
        );
    }

    #[test]
    fn bad_players_are_refused_with_their_reason() {
        assert_eq!(
            "cmd:  ".parse::<PlayerSpec>(),
            Err(PlayerSpecError::NoProgram { prefix: "cmd" })
        );
        for prefix in LEGACY_PREFIXES {
            assert_eq!(
                format!("{prefix}:").parse::<PlayerSpec>(),
                Err(PlayerSpecError::NoProgram { prefix })
            );
        }
        assert_eq!(
            "policy:".parse::<PlayerSpec>(),
            Err(PlayerSpecError::NoPolicyFile)
        );
        assert_eq!(
            "h".repeat(MAX_PLAYER + 1).parse::<PlayerSpec>(),
            Err(PlayerSpecError::TooLong)
        );
        for bad in [
            "",
            "robot!",
            "bot:",
            "bot:ismcts:0",
            "ismcts:5s",
            "random:3",
        ] {
            let refused = bad.parse::<PlayerSpec>();
            assert!(
                matches!(refused, Err(PlayerSpecError::Unknown { .. })),
                "{bad:?}: {refused:?}"
            );
        }
    }

    #[cfg(not(feature = "policy"))]
    #[test]
    fn policy_players_say_how_to_build_them_where_the_feature_is_off() {
        let refused = "policy:a.onnx".parse::<PlayerSpec>().unwrap_err();
        assert_eq!(refused, PlayerSpecError::PolicyNotBuilt);
        assert!(
            refused.to_string().contains("--features policy"),
            "{refused}"
        );
    }

    #[test]
    fn a_person_is_built_by_no_one_and_sits_at_no_bot_table() {
        let games = crate::registry();
        let kuhn = games.load("kuhn_poker").unwrap();
        let limit = Duration::from_secs(1);
        assert!(matches!(
            PlayerSpec::Human.build(kuhn.as_ref(), limit),
            Err(PlayerError::Human)
        ));
        assert!(!PlayerSpec::Human.fits(kuhn.as_ref()));
        let heuristic = PlayerSpec::Bot(BotSpec::Heuristic);
        assert!(!heuristic.fits(kuhn.as_ref()));
        assert!(matches!(
            heuristic.build(kuhn.as_ref(), limit),
            Err(PlayerError::Env(EnvError::BadParameter { .. }))
        ));
        let random = PlayerSpec::Bot(BotSpec::Random);
        assert!(random.fits(kuhn.as_ref()));
        assert!(random.build(kuhn.as_ref(), limit).is_ok());
    }

    #[test]
    fn bot_tables_refuse_a_person_and_own_bots_no_game_has() {
        let games = crate::registry();
        let bot = |text: &str| text.parse::<PlayerSpec>().unwrap().bot_of(&games);
        assert_eq!(bot("human"), Err(PlayerSpecError::Person));
        assert!(bot("random").is_ok());
        let Err(PlayerSpecError::UnknownBot { name, known }) = bot("no-such-bot:5") else {
            panic!("an unknown own bot sat");
        };
        assert_eq!(name, "no-such-bot");
        assert_eq!(known, games.sparring_names());
        for name in games.sparring_names() {
            assert!(bot(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn a_program_that_does_not_start_is_the_bots_failure() {
        let games = crate::registry();
        let kuhn = games.load("kuhn_poker").unwrap();
        let missing = PlayerSpec::Cmd(vec!["/nonexistent/bot-program".into()]);
        let failed = missing.build(kuhn.as_ref(), Duration::from_secs(1));
        assert!(
            matches!(&failed, Err(PlayerError::Env(EnvError::Bot { bot, .. })) if *bot == missing.to_string()),
            "{:?}",
            failed.map(|b| b.name())
        );
    }
}
