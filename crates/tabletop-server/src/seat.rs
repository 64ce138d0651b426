//! Who sits in a seat: a person (`human`, who holds a token) or a bot
//! (`bot:random`, `bot:heuristic`, `bot:flat:N`, `bot:ismcts:N`), or, only
//! when the server runs with `--allow-cmd-bots`, a program speaking the
//! JSON-lines bot protocol (`cmd:python3 my_bot.py`) or an older protocol
//! a game knows (`ucc:./agent`, `spelinski:./bot`), or a trained policy
//! of the operator's `--policy-dir` named by its file name
//! (`policy:cardwar.onnx`, never a path).

use std::fmt;

use game_env::{BotSpec, Budget};

use crate::error::ApiError;

/// The largest search budget a bot seat may ask for, so that one request
/// cannot occupy a core for minutes.
pub const MAX_BUDGET: u32 = 20_000;

/// The longest time per decision a bot seat may ask for (`bot:ismcts:500ms`),
/// for the same reason.
pub const MAX_THINK: std::time::Duration = std::time::Duration::from_secs(5);

/// Longest seat description accepted.
const MAX_SEAT: usize = 512;

/// A seat of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person, authenticated by the seat's token.
    Human,
    /// A built-in bot.
    Bot(BotSpec),
    /// A subprocess speaking the JSON-lines protocol: the program and its
    /// arguments (split on whitespace, no shell).
    Cmd(Vec<String>),
    /// A subprocess speaking an older protocol the game knows
    /// ([`game_registry::LEGACY_PREFIXES`]), refereed by the game's code.
    Legacy {
        /// The protocol's prefix (`ucc`, `spelinski`).
        prefix: &'static str,
        /// The program and its arguments (split on whitespace, no shell).
        argv: Vec<String>,
    },
    /// A trained policy: a file name of the server's policy directory
    /// (checked by [`Policies::check_name`](crate::policies::Policies::check_name)).
    Policy(String),
}

impl Seat {
    /// Parses a seat description; `allow_cmd` admits `cmd:` seats.
    pub fn parse(text: &str, allow_cmd: bool) -> Result<Seat, ApiError> {
        if text.len() > MAX_SEAT {
            return Err(ApiError::BadRequest(format!(
                "a seat is at most {MAX_SEAT} bytes"
            )));
        }
        let trimmed = text.trim();
        if trimmed.eq_ignore_ascii_case("human") {
            return Ok(Seat::Human);
        }
        if let Some(bot) = trimmed.strip_prefix("bot:") {
            let spec: BotSpec = bot
                .parse()
                .map_err(|e: game_env::BotSpecError| ApiError::BadRequest(e.to_string()))?;
            let too_much = match spec.budget() {
                Some(Budget::Iterations(n)) => n > MAX_BUDGET,
                Some(Budget::Time(t)) => t > MAX_THINK,
                None => false,
            };
            if too_much {
                return Err(ApiError::BadRequest(format!(
                    "bot budget {bot} is above {MAX_BUDGET} iterations or {} ms",
                    MAX_THINK.as_millis()
                )));
            }
            return Ok(Seat::Bot(spec));
        }
        if let Some(name) = trimmed.strip_prefix("policy:") {
            crate::policies::Policies::check_name(name)
                .map_err(|e| ApiError::BadRequest(e.to_string()))?;
            return Ok(Seat::Policy(name.to_owned()));
        }
        let programs = std::iter::once("cmd").chain(game_registry::LEGACY_PREFIXES.iter().copied());
        for prefix in programs {
            let Some(command) = trimmed
                .strip_prefix(prefix)
                .and_then(|c| c.strip_prefix(':'))
            else {
                continue;
            };
            if !allow_cmd {
                return Err(ApiError::BadRequest(format!(
                    "{prefix}: seats run a program on the server and are disabled; \
                     start the server with --allow-cmd-bots to admit them"
                )));
            }
            let argv: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
            if argv.is_empty() {
                return Err(ApiError::BadRequest(format!("{prefix}: names no program")));
            }
            return Ok(match prefix {
                "cmd" => Seat::Cmd(argv),
                _ => Seat::Legacy { prefix, argv },
            });
        }
        Err(ApiError::BadRequest(format!(
            "unknown seat {:?}: expected human, bot:random, bot:heuristic, bot:flat[:N], \
             bot:ismcts[:N], policy:NAME.onnx (with --policy-dir) \
             (or cmd:PROGRAM, ucc:PROGRAM, spelinski:PROGRAM with --allow-cmd-bots)",
            trimmed.chars().take(80).collect::<String>()
        )))
    }

    /// Whether a person plays this seat.
    pub fn is_human(&self) -> bool {
        matches!(self, Seat::Human)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Bot(spec) => write!(f, "bot:{spec}"),
            Seat::Cmd(argv) => write!(f, "cmd:{}", argv.join(" ")),
            Seat::Legacy { prefix, argv } => write!(f, "{prefix}:{}", argv.join(" ")),
            Seat::Policy(name) => write!(f, "policy:{name}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_parse_print_back_and_refuse_bad_ones() {
        for s in [
            "human",
            "bot:random",
            "bot:heuristic",
            "bot:ismcts:50",
            "bot:ismcts:50ms",
            "bot:flat:10",
        ] {
            assert_eq!(Seat::parse(s, false).unwrap().to_string(), s);
        }
        assert_eq!(
            Seat::parse("cmd:python3  bot.py", true).unwrap(),
            Seat::Cmd(vec!["python3".into(), "bot.py".into()])
        );
        for bad in [
            "",
            "robot",
            "bot:",
            "bot:ismcts:0",
            "bot:ismcts:99999999",
            "bot:ismcts:60000ms",
            "cmd:",
        ] {
            assert!(Seat::parse(bad, true).is_err(), "{bad:?}");
        }
        let refused = Seat::parse("cmd:ls", false).unwrap_err().to_string();
        assert!(refused.contains("--allow-cmd-bots"), "{refused}");
        for prefix in game_registry::LEGACY_PREFIXES {
            let seat = format!("{prefix}:./agent --seed 3");
            let refused = Seat::parse(&seat, false).unwrap_err().to_string();
            assert!(refused.contains("--allow-cmd-bots"), "{refused}");
            let parsed = Seat::parse(&seat, true).unwrap();
            assert_eq!(
                parsed,
                Seat::Legacy {
                    prefix,
                    argv: vec!["./agent".into(), "--seed".into(), "3".into()]
                }
            );
            assert_eq!(parsed.to_string(), seat);
            assert!(Seat::parse(&format!("{prefix}:"), true).is_err());
        }
        assert!(Seat::parse(&"h".repeat(10_000), false).is_err());
    }

    #[cfg(not(feature = "policy"))]
    #[test]
    fn policy_seats_say_how_to_build_them_where_the_feature_is_off() {
        let refused = Seat::parse("policy:cardwar.onnx", false)
            .unwrap_err()
            .to_string();
        assert!(refused.contains("--features policy"), "{refused}");
    }

    #[cfg(feature = "policy")]
    #[test]
    fn policy_seats_name_a_file_of_the_policy_directory_never_a_path() {
        let seat = Seat::parse("policy:cardwar.onnx", false).unwrap();
        assert_eq!(seat, Seat::Policy("cardwar.onnx".into()));
        assert_eq!(seat.to_string(), "policy:cardwar.onnx");
        for path in [
            "policy:../x.onnx",
            "policy:/etc/passwd",
            "policy:a/b.onnx",
            "policy:.hidden.onnx",
            "policy:",
        ] {
            assert!(Seat::parse(path, true).is_err(), "{path:?}");
        }
    }
}
