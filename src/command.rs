//! What a person types in a terminal session: a command, a move's number
//! in the list, or a move written out, and the move a written one names
//! (or what to tell him when it names none he may play).

use game_env::{DynGame, DynState, EnvError};
use game_traits::PlayerId;

const COMMANDS: &str = "\
Commands: moves (list them all), show (the table again), legend (what the table's codes mean),
bot [N] (a bot of the opponent's kind makes your next N moves),
save [FILE] (the record so far; without FILE into the records folder), help, quit.";

/// The help screen of `game`: how to type a move in it (the move forms
/// the game declares, [`DynGame::move_forms`]) and the session's
/// commands.
pub fn help(game: &dyn DynGame) -> String {
    match game.move_forms() {
        "" => format!("Type a move's number or its notation as listed.\n{COMMANDS}"),
        forms => format!(
            "Type a move's number, its notation as listed, or a short form:\n{forms}\n{COMMANDS}"
        ),
    }
}

/// The legal action `text` names (the game's notation or a short form), or
/// what to tell the person `me`: the game's parse error, or the engine's
/// reason why the action is not allowed now with what shows it
/// ([`DynState::explain_refusal`]: a refused claim's counterexample).
pub(crate) fn resolve(
    game: &dyn DynGame,
    state: &dyn DynState,
    me: PlayerId,
    legal: &[usize],
    text: &str,
) -> Result<usize, String> {
    let hint = format!(
        "Type a number from 1 to {}, a move as listed, or help.",
        legal.len()
    );
    match game.parse_action(text) {
        Ok(id) if legal.contains(&id) => Ok(id),
        Ok(id) => Err(match state.check_id(id) {
            Err(EnvError::IllegalAction { reason, .. }) => match state.explain_refusal(me, id) {
                Some(why) => format!("{text:?} is not allowed now: {reason}: {}", why.text),
                None => format!("{text:?} is not allowed now: {reason}"),
            },
            _ => format!("{text:?} is not a legal move here. {hint}"),
        }),
        Err(EnvError::UnknownAction { reason, .. }) => Err(format!(
            "{text:?} is not a legal move here: {reason}. {hint}"
        )),
        Err(e) => Err(format!("{text:?} is not a legal move here ({e}). {hint}")),
    }
}

/// What a line of input asks for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Command {
    /// The move with this index in the list.
    Play(usize),
    /// A move written out, to be read by the game.
    Action(String),
    Quit,
    Help,
    Moves,
    Show,
    Legend,
    /// Save the record, to this file or (`None`) into the records folder.
    Save(Option<String>),
    HandOver(u32),
    Nothing,
    Bad(String),
}

/// Reads `line`: a command, a move's number among `moves` listed moves, or
/// else a move written out.
pub(crate) fn parse_command(line: &str, moves: usize) -> Command {
    let lower = line.to_ascii_lowercase();
    match lower.as_str() {
        "" => return Command::Nothing,
        "quit" | "exit" => return Command::Quit,
        "help" | "?" => return Command::Help,
        "moves" | "list" => return Command::Moves,
        "bot" => return Command::HandOver(1),
        "show" | "board" | "table" => return Command::Show,
        "legend" => return Command::Legend,
        "save" => return Command::Save(None),
        _ => {}
    }
    if let Some(path) = line
        .strip_prefix("save ")
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        return Command::Save(Some(path.to_owned()));
    }
    if let Some(n) = lower.strip_prefix("bot ") {
        return match n.trim().parse::<u32>() {
            Ok(n) if n > 0 => Command::HandOver(n),
            _ => Command::Bad(format!("bot wants a number of moves, not {:?}", n.trim())),
        };
    }
    let number = line.strip_prefix('#').unwrap_or(line);
    if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) {
        return match number
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=moves).contains(n))
        {
            Some(n) => Command::Play(n - 1),
            None => Command::Bad(format!("there is no move {number}: choose 1 to {moves}")),
        };
    }
    Command::Action(line.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_is_read_as_command_then_number_then_move() {
        assert_eq!(parse_command("3", 3), Command::Play(2));
        assert_eq!(parse_command("#2", 3), Command::Play(1));
        assert!(matches!(parse_command("4", 3), Command::Bad(_)));
        assert!(matches!(parse_command("0", 3), Command::Bad(_)));
        assert!(matches!(
            parse_command("99999999999999999999999", 3),
            Command::Bad(_)
        ));
        assert_eq!(parse_command("R7 F1", 3), Command::Action("R7 F1".into()));
        assert_eq!(parse_command("", 3), Command::Nothing);
        assert_eq!(parse_command("QUIT", 3), Command::Quit);
        assert_eq!(parse_command("bot", 3), Command::HandOver(1));
        assert_eq!(parse_command("bot 40", 3), Command::HandOver(40));
        assert!(matches!(parse_command("bot x", 3), Command::Bad(_)));
        assert!(matches!(parse_command("bot 0", 3), Command::Bad(_)));
        assert_eq!(
            parse_command("save x.json", 3),
            Command::Save(Some("x.json".into()))
        );
        assert_eq!(parse_command("save", 3), Command::Save(None));
        assert_eq!(parse_command("legend", 3), Command::Legend);
    }

    #[cfg(feature = "battleline")]
    #[test]
    fn a_refused_claim_is_told_with_the_cards_that_would_beat_it() {
        use battleline_core::{Card, Colour, FlagId, Phase, PositionBuilder, Rules};
        let t = |c, v| Card::troop(c, v).unwrap();
        let f1 = FlagId::new(0).unwrap();
        // Red 1-2-3 against Blue 8 and 9: Blue 7 or 10 is still to come.
        let position = PositionBuilder::new(Rules::default())
            .place(f1, PlayerId::P0, t(Colour::Red, 1))
            .place(f1, PlayerId::P0, t(Colour::Red, 2))
            .place(f1, PlayerId::P0, t(Colour::Red, 3))
            .place(f1, PlayerId::P1, t(Colour::Blue, 8))
            .place(f1, PlayerId::P1, t(Colour::Blue, 9))
            .hand(PlayerId::P0, [t(Colour::Red, 4)].into_iter().collect())
            .hand(PlayerId::P1, [t(Colour::Blue, 6)].into_iter().collect())
            .turn(PlayerId::P0, Phase::Claim)
            .draws_due(1)
            .build()
            .unwrap();
        let game = crate::registry().load("battleline").unwrap();
        let state = game
            .deserialize_state(&serde_json::to_string(&position).unwrap())
            .unwrap();
        let mut legal = Vec::new();
        state.legal_ids(&mut legal);
        let told = resolve(
            game.as_ref(),
            state.as_ref(),
            PlayerId::P0,
            &legal,
            "claim 1",
        )
        .unwrap_err();
        assert!(
            told.contains("not allowed now: ")
                && told.contains(": P1 could still complete Wedge ")
                && told.ends_with("which beats your Wedge 6 (R1 R2 R3)"),
            "{told}"
        );
        // What P1 holds in his hand is never named: the proof reads
        // only the claimant's observation.
        assert!(!told.contains("B6 "), "{told}");
    }
}
