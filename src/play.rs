//! A person plays a bot in the terminal (the `play` example), reading
//! commands from any [`BufRead`] so that a session can be scripted.

use std::fs;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use game_env::{BotSpec, DynGame, DynState};
use game_traits::{agent_rng, chance_rng, Outcome, PerPlayer, PlayerId, Turn};

/// How a session is set up.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayOptions {
    /// The opponent.
    pub bot: BotSpec,
    /// The person's seat.
    pub seat: PlayerId,
    /// Seed of the chance events and of the bot.
    pub seed: u64,
    /// Where to write the record (JSON) when the session ends.
    pub save: Option<PathBuf>,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            bot: BotSpec::Ismcts(None),
            seat: PlayerId::P0,
            seed: 1,
            save: None,
        }
    }
}

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// The game was played to the end.
    Finished(Outcome),
    /// The person quit, or the session could not start.
    Quit,
    /// The input ran out before the end.
    InputEnded,
}

const HELP: &str = "Type a move's number or its notation as listed. Commands: \
moves (list them all), show (the table again), legend, bot [N] (let a bot of the \
opponent's kind make your next N moves, 1 by default: handy for a Stratego setup, \
bot 40), save FILE (the record so far), help, quit.";

/// Beyond this many lines the legal moves are not listed with the board
/// (they would push it off a 50-line screen); `moves` lists them.
const LIST_LINES: usize = 8;

/// Plays one game of `game` between the person at `input`/`output` (seat
/// `options.seat`) and the bot `options.bot`; a second bot of the same kind
/// makes the person's moves he hands over with the `bot` command. Bad input
/// gets a message and another prompt; nothing the person types ends the
/// session except `quit` or the end of the input.
///
/// Everything printed comes from the person's own observation and his
/// view of each action ([`DynState::action_view`]), so the screen never
/// shows what his seat may not know.
pub fn play_session(
    game: &dyn DynGame,
    options: &PlayOptions,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<SessionEnd> {
    let (mut bot, mut helper) = match (game.bot(options.bot), game.bot(options.bot)) {
        (Ok(bot), Ok(helper)) => (bot, helper),
        (Err(e), _) | (_, Err(e)) => {
            writeln!(output, "{e}")?;
            return Ok(SessionEnd::Quit);
        }
    };
    let me = options.seat;
    writeln!(
        output,
        "{} - you are {me}, against {} ({}), seed {}.\n{HELP}",
        game.title(),
        bot.name(),
        options.bot,
        options.seed
    )?;
    let mut state = game.new_state();
    let mut session = Session {
        seed: options.seed,
        actions: Vec::new(),
        save: options.save.clone(),
    };
    let mut chance = chance_rng(options.seed);
    let mut bot_rngs = PerPlayer::from_fn(|p| agent_rng(options.seed, p));
    let mut legal = Vec::new();
    let mut shown_for = None;
    let mut handed_over = 0u32;
    // The keys of routine questions (card war's prayer before every fight)
    // the person has declined: asked once per key, then declined for him.
    let mut declined: Vec<u64> = Vec::new();
    loop {
        let id = match state.turn() {
            Turn::Terminal => {
                let outcome = state.outcome().unwrap_or(Outcome::Draw);
                writeln!(
                    output,
                    "\nGame over.\n{}\n{}",
                    state.observation_text(me),
                    verdict(outcome, me)
                )?;
                session.save_to_option(game, output)?;
                return Ok(SessionEnd::Finished(outcome));
            }
            Turn::Chance => match state.sample_chance_id(&mut chance) {
                Some(id) => {
                    writeln!(output, "{}", narrate(state.as_ref(), id, me))?;
                    id
                }
                None => {
                    writeln!(
                        output,
                        "the engine listed no chance outcome; game abandoned"
                    )?;
                    return Ok(SessionEnd::Quit);
                }
            },
            Turn::Player(p)
                if p == me
                    && game
                        .routine(state.as_ref(), me)
                        .is_some_and(|(key, _)| declined.contains(&key)) =>
            {
                let (_, id) = game
                    .routine(state.as_ref(), me)
                    .unwrap_or_else(|| unreachable!("the guard found it"));
                let text = state.action_text(id).unwrap_or_default();
                writeln!(
                    output,
                    "{me}: {text} (as you answered before in this battle)"
                )?;
                id
            }
            Turn::Player(p) if p == me && handed_over > 0 => {
                handed_over -= 1;
                match helper.choose(state.as_ref(), me, &mut bot_rngs[me]) {
                    Ok(id) => {
                        let text = state.action_text(id).unwrap_or_default();
                        writeln!(output, "{me} (bot for you): {text}")?;
                        id
                    }
                    Err(e) => {
                        writeln!(output, "the bot failed ({e}); game abandoned")?;
                        return Ok(SessionEnd::Quit);
                    }
                }
            }
            Turn::Player(p) if p == me => {
                state.legal_ids(&mut legal);
                let texts: Vec<String> = legal
                    .iter()
                    .map(|&id| state.action_text(id).unwrap_or_default())
                    .collect();
                if shown_for != Some(session.actions.len()) {
                    show_board(state.as_ref(), me, game.legend(), output)?;
                    list_moves(&texts, LIST_LINES, output)?;
                    shown_for = Some(session.actions.len());
                }
                write!(output, "{me}> ")?;
                output.flush()?;
                let mut bytes = Vec::new();
                if input.read_until(b'\n', &mut bytes)? == 0 {
                    writeln!(output, "\ninput ended; game left unfinished")?;
                    session.save_to_option(game, output)?;
                    return Ok(SessionEnd::InputEnded);
                }
                // Undecodable bytes become U+FFFD and then a "not a legal
                // move" message, never an error.
                let line = String::from_utf8_lossy(&bytes);
                let refusal = unoffered(game, state.as_ref(), line.trim());
                match parse_command(line.trim(), &texts, &refusal) {
                    Command::Play(i) => {
                        if let Some((key, decline)) = game.routine(state.as_ref(), me) {
                            if decline == legal[i] {
                                declined.push(key);
                            }
                        }
                        legal[i]
                    }
                    Command::Quit => {
                        writeln!(output, "game left unfinished")?;
                        session.save_to_option(game, output)?;
                        return Ok(SessionEnd::Quit);
                    }
                    Command::Help => {
                        writeln!(output, "{HELP}")?;
                        continue;
                    }
                    Command::Moves => {
                        list_moves(&texts, usize::MAX, output)?;
                        continue;
                    }
                    Command::Show => {
                        show_board(state.as_ref(), me, game.legend(), output)?;
                        continue;
                    }
                    Command::Legend => {
                        writeln!(output, "{}", game.legend())?;
                        continue;
                    }
                    Command::Save(path) => {
                        session.save(game, &PathBuf::from(path), output)?;
                        continue;
                    }
                    Command::Nothing => continue,
                    Command::HandOver(n) => {
                        handed_over = n;
                        continue;
                    }
                    Command::Bad(message) => {
                        writeln!(output, "{message}")?;
                        continue;
                    }
                }
            }
            Turn::Player(p) => match bot.choose(state.as_ref(), p, &mut bot_rngs[p]) {
                Ok(id) => {
                    writeln!(output, "{}", narrate(state.as_ref(), id, me))?;
                    id
                }
                Err(e) => {
                    writeln!(output, "the bot failed ({e}); game abandoned")?;
                    return Ok(SessionEnd::Quit);
                }
            },
        };
        if let Err(e) = state.apply_id(id) {
            writeln!(
                output,
                "the engine refused the action ({e}); game abandoned"
            )?;
            return Ok(SessionEnd::Quit);
        }
        session.actions.push(id);
    }
}

/// The record so far and where it goes.
struct Session {
    seed: u64,
    actions: Vec<usize>,
    save: Option<PathBuf>,
}

impl Session {
    fn save_to_option(&self, game: &dyn DynGame, output: &mut dyn Write) -> io::Result<()> {
        match &self.save {
            Some(path) => self.save(game, path, output),
            None => Ok(()),
        }
    }

    fn save(&self, game: &dyn DynGame, path: &PathBuf, output: &mut dyn Write) -> io::Result<()> {
        let written = game
            .record_json(self.seed, &self.actions)
            .map_err(io::Error::other)
            .and_then(|json| fs::write(path, json + "\n"));
        match written {
            Ok(()) => writeln!(output, "record saved to {}", path.display()),
            Err(e) => writeln!(
                output,
                "could not save the record to {}: {e}",
                path.display()
            ),
        }
    }
}

fn verdict(outcome: Outcome, me: PlayerId) -> String {
    match outcome {
        Outcome::Win(w) if w == me => format!("{outcome}: you win."),
        Outcome::Win(_) => format!("{outcome}: you lose."),
        Outcome::Draw => "Draw.".to_owned(),
    }
}

/// One line telling `viewer` what happened: who acted (or chance) and his
/// view of the action. A function of his information only, so a screen or
/// log built from it hides what he may not know.
pub fn narrate(state: &dyn DynState, id: usize, viewer: PlayerId) -> String {
    let view = state.action_view(viewer, id).unwrap_or_default();
    match state.turn() {
        Turn::Player(p) if p == viewer => format!("you: {view}"),
        Turn::Player(p) => format!("{p}: {view}"),
        _ => format!("chance: {view}"),
    }
}

fn show_board(
    state: &dyn DynState,
    me: PlayerId,
    legend: &str,
    output: &mut dyn Write,
) -> io::Result<()> {
    writeln!(output, "\n{}", state.observation_text(me))?;
    if !legend.is_empty() {
        writeln!(output, "{legend}")?;
    }
    Ok(())
}

/// Lists `legal` in columns; when that takes more than `max_lines`, only
/// says how many there are and shows a few, so the board stays on screen.
fn list_moves<A: std::fmt::Display>(
    legal: &[A],
    max_lines: usize,
    output: &mut dyn Write,
) -> io::Result<()> {
    let items: Vec<String> = legal
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{:>3}) {a}", i + 1))
        .collect();
    let width = items.iter().map(|s| s.chars().count()).max().unwrap_or(0) + 2;
    let per_line = (96 / width.max(1)).max(1);
    let lines = items.len().div_ceil(per_line);
    if lines > max_lines {
        let some: Vec<String> = legal.iter().take(4).map(|a| a.to_string()).collect();
        return writeln!(
            output,
            "{} legal moves (type `moves` to list them): type one as written, e.g. {}",
            legal.len(),
            some.join(", ")
        );
    }
    writeln!(output, "Legal moves:")?;
    for row in items.chunks(per_line) {
        let line: String = row.iter().map(|s| format!("{s:<width$}")).collect();
        writeln!(output, "{}", line.trim_end())?;
    }
    Ok(())
}

/// Why the action written `typed` is not offered, when it names an action
/// of the game that is illegal now: the engine's own reason.
fn unoffered(game: &dyn DynGame, state: &dyn DynState, typed: &str) -> Option<String> {
    let wanted = normalise(typed);
    if wanted.is_empty() {
        return None;
    }
    (0..game.info().action_space)
        .find(|&id| game.action_text(id).is_ok_and(|t| normalise(&t) == wanted))
        .and_then(|id| state.illegal_reason(id).ok().flatten())
}

/// What a line of input asks for.
#[derive(Clone, Debug, PartialEq)]
enum Command {
    /// The move with this index in the list.
    Play(usize),
    Quit,
    Help,
    Moves,
    Show,
    Legend,
    Save(String),
    HandOver(u32),
    Nothing,
    Bad(String),
}

/// Case and spaces do not matter in a move's notation.
fn normalise(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Reads `line` against the `legal` moves; `refusal` is the engine's
/// reason when the line names a move that is not legal now.
fn parse_command(line: &str, legal: &[String], refusal: &Option<String>) -> Command {
    let wanted = normalise(line);
    // A notation match comes first, so that a move written as a number is
    // not read as a list index.
    let matches: Vec<usize> = (0..legal.len())
        .filter(|&i| normalise(&legal[i]) == wanted)
        .collect();
    if let [i] = matches.as_slice() {
        return Command::Play(*i);
    }
    let lower = line.to_ascii_lowercase();
    match lower.as_str() {
        "" => return Command::Nothing,
        "quit" | "exit" => return Command::Quit,
        "help" | "?" => return Command::Help,
        "moves" | "list" => return Command::Moves,
        "bot" => return Command::HandOver(1),
        "show" | "board" | "table" => return Command::Show,
        "legend" => return Command::Legend,
        _ => {}
    }
    if let Some(path) = line
        .strip_prefix("save ")
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        return Command::Save(path.to_owned());
    }
    if let Some(n) = lower.strip_prefix("bot ") {
        return match n.trim().parse::<u32>() {
            Ok(n) if n > 0 => Command::HandOver(n),
            _ => Command::Bad(format!("bot wants a number of moves, not {:?}", n.trim())),
        };
    }
    if let Ok(n) = line.trim_start_matches('#').parse::<usize>() {
        return match n.checked_sub(1).filter(|&i| i < legal.len()) {
            Some(i) => Command::Play(i),
            None => Command::Bad(format!("there is no move {n}: choose 1 to {}", legal.len())),
        };
    }
    if matches.len() > 1 {
        return Command::Bad(format!("{line:?} matches several moves; use its number"));
    }
    if let Some(reason) = refusal {
        return Command::Bad(format!("{line:?} is not allowed now: {reason}"));
    }
    Command::Bad(format!(
        "{line:?} is not a legal move here. Type a number from 1 to {}, a move as listed, or help.",
        legal.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_is_read_as_notation_then_number_then_command() {
        let legal = ["a2-a3".to_owned(), "10".to_owned(), "pass".to_owned()];
        assert_eq!(parse_command(" A2 - a3 ", &legal, &None), Command::Play(0));
        assert_eq!(parse_command("10", &legal, &None), Command::Play(1));
        assert_eq!(parse_command("3", &legal, &None), Command::Play(2));
        assert_eq!(parse_command("#2", &legal, &None), Command::Play(1));
        assert!(matches!(parse_command("4", &legal, &None), Command::Bad(_)));
        assert!(matches!(parse_command("0", &legal, &None), Command::Bad(_)));
        assert!(matches!(
            parse_command("zz", &legal, &None),
            Command::Bad(_)
        ));
        assert!(matches!(
            parse_command("99999999999999999999999", &legal, &None),
            Command::Bad(_)
        ));
        assert_eq!(parse_command("", &legal, &None), Command::Nothing);
        assert_eq!(parse_command("QUIT", &legal, &None), Command::Quit);
        assert_eq!(parse_command("bot", &legal, &None), Command::HandOver(1));
        assert_eq!(
            parse_command("bot 40", &legal, &None),
            Command::HandOver(40)
        );
        assert!(matches!(
            parse_command("bot x", &legal, &None),
            Command::Bad(_)
        ));
        assert!(matches!(
            parse_command("bot 0", &legal, &None),
            Command::Bad(_)
        ));
        assert_eq!(
            parse_command("save x.json", &legal, &None),
            Command::Save("x.json".into())
        );
        let refused = Some("the Leader limit".to_owned());
        match parse_command("leader@3", &legal, &refused) {
            Command::Bad(m) => assert!(m.contains("the Leader limit"), "{m}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(parse_command("pass", &legal, &refused), Command::Play(2));
    }
}
