//! Who sits in a seat: a person (`human`, who holds a token) or a bot
//! (`bot:random`, `bot:heuristic`, `bot:flat:N`, `bot:ismcts:N`), or, only
//! when the server runs with `--allow-cmd-bots`, a program speaking the
//! JSON-lines bot protocol (`cmd:python3 my_bot.py`) or an older protocol
//! a game knows (`ucc:./agent`, `spelinski:./bot`), or a trained policy
//! of the operator's `--policy-dir` named by its file name
//! (`policy:cardwar.onnx`, never a path).

use game_env::{BotSpec, Budget};
use game_registry::PlayerSpecError;

use crate::policies::Policies;

/// A seat of a match: the one player grammar of the registry
/// ([`game_registry::PlayerSpec`]), which the arena reads too. What the
/// server adds is which seats it admits ([`parse`]).
pub use game_registry::PlayerSpec as Seat;

/// The largest search budget a bot seat may ask for, so that one request
/// cannot occupy a core for minutes.
pub const MAX_BUDGET: u32 = 20_000;

/// The longest time per decision a bot seat may ask for (`bot:ismcts:500ms`),
/// for the same reason.
pub const MAX_THINK: std::time::Duration = std::time::Duration::from_secs(5);

/// Why a seat description is not admitted; its text is the reason a
/// client reads (a 400, `MatchError::BadSeat`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SeatError(String);

/// Longest seat description accepted.
const MAX_SEAT: usize = game_registry::MAX_PLAYER;

/// Parses a seat description as the server admits it: bots named with
/// `bot:`, within [`MAX_BUDGET`] and [`MAX_THINK`]; a policy by a file name
/// of the policy directory, never a path; programs only if `allow_cmd`.
pub fn parse(text: &str, allow_cmd: bool) -> Result<Seat, SeatError> {
    let bad = SeatError;
    if text.len() > MAX_SEAT {
        return Err(bad(format!("a seat is at most {MAX_SEAT} bytes")));
    }
    let trimmed = text.trim();
    if let Some(name) = trimmed.strip_prefix("policy:") {
        Policies::check_name(name).map_err(|e| bad(e.to_string()))?;
    }
    let gate = |prefix: &str| {
        bad(format!(
            "{prefix}: seats run a program on the server and are disabled; \
             start the server with --allow-cmd-bots to admit them"
        ))
    };
    let seat = trimmed.parse::<Seat>().map_err(|e| match e {
        PlayerSpecError::NoProgram { prefix } if !allow_cmd => gate(prefix),
        PlayerSpecError::Unknown { bot } if trimmed.starts_with("bot:") => bad(bot.to_string()),
        PlayerSpecError::Unknown { .. } => unknown(trimmed),
        other => bad(other.to_string()),
    })?;
    match &seat {
        // A bare bot name is the arena's shorthand; a seat says `bot:`.
        Seat::Bot(_) if !trimmed.starts_with("bot:") => Err(unknown(trimmed)),
        Seat::Bot(spec) if too_much(*spec) => Err(bad(format!(
            "bot budget {} is above {MAX_BUDGET} iterations or {} ms",
            &trimmed["bot:".len()..],
            MAX_THINK.as_millis()
        ))),
        Seat::Cmd(_) if !allow_cmd => Err(gate("cmd")),
        Seat::Legacy { prefix, .. } if !allow_cmd => Err(gate(prefix)),
        _ => Ok(seat),
    }
}

/// Whether a bot's budget is above the server's limits.
fn too_much(spec: BotSpec) -> bool {
    match spec.budget() {
        Some(Budget::Iterations(n)) => n > MAX_BUDGET,
        Some(Budget::Time(t)) => t > MAX_THINK,
        None => false,
    }
}

fn unknown(trimmed: &str) -> SeatError {
    SeatError(format!(
        "unknown seat {:?}: expected human, bot:random, bot:heuristic, bot:flat[:N], \
         bot:ismcts[:N], policy:NAME.onnx (with --policy-dir) \
         (or cmd:PROGRAM, ucc:PROGRAM, spelinski:PROGRAM with --allow-cmd-bots)",
        trimmed.chars().take(80).collect::<String>()
    ))
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
            assert_eq!(parse(s, false).unwrap().to_string(), s);
        }
        assert_eq!(
            parse("cmd:python3  bot.py", true).unwrap(),
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
            assert!(parse(bad, true).is_err(), "{bad:?}");
        }
        let refused = parse("cmd:ls", false).unwrap_err().to_string();
        assert!(refused.contains("--allow-cmd-bots"), "{refused}");
        for prefix in game_registry::LEGACY_PREFIXES {
            let seat = format!("{prefix}:./agent --seed 3");
            let refused = parse(&seat, false).unwrap_err().to_string();
            assert!(refused.contains("--allow-cmd-bots"), "{refused}");
            let parsed = parse(&seat, true).unwrap();
            assert_eq!(
                parsed,
                Seat::Legacy {
                    prefix,
                    argv: vec!["./agent".into(), "--seed".into(), "3".into()]
                }
            );
            assert_eq!(parsed.to_string(), seat);
            assert!(parse(&format!("{prefix}:"), true).is_err());
        }
        assert!(parse(&"h".repeat(10_000), false).is_err());
    }

    #[cfg(not(feature = "policy"))]
    #[test]
    fn policy_seats_say_how_to_build_them_where_the_feature_is_off() {
        let refused = parse("policy:cardwar.onnx", false).unwrap_err().to_string();
        assert!(refused.contains("--features policy"), "{refused}");
    }

    #[cfg(feature = "policy")]
    #[test]
    fn policy_seats_name_a_file_of_the_policy_directory_never_a_path() {
        let seat = parse("policy:cardwar.onnx", false).unwrap();
        assert_eq!(seat, Seat::Policy("cardwar.onnx".into()));
        assert_eq!(seat.to_string(), "policy:cardwar.onnx");
        for path in [
            "policy:../x.onnx",
            "policy:/etc/passwd",
            "policy:a/b.onnx",
            "policy:.hidden.onnx",
            "policy:",
        ] {
            assert!(parse(path, true).is_err(), "{path:?}");
        }
    }
}
