//! A person plays a bot in the terminal (the `play` example), reading
//! commands from any [`BufRead`] so that a session can be scripted.

use std::fs;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use game_traits::{agent_rng, chance_rng, Agent, Game, Outcome, PerPlayer, PlayerId, Record, Turn};

use crate::bots::BotSpec;

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

/// What a game adds to the generic session: the name of the rules in
/// force and a legend of its notation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SessionText {
    /// The game and rule set in words ("Stratego, classic rules (ISF)").
    pub title: &'static str,
    /// What every code on the screen means; shown under each board.
    pub legend: &'static str,
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

/// Plays one game under `rules` between the person at `input`/`output`
/// (seat `options.seat`) and `bot`; `helper` makes the person's moves he
/// hands over with the `bot` command. Bad input gets a message and another
/// prompt; nothing the person types ends the session except `quit` or the
/// end of the input.
///
/// Everything printed comes from the person's own observation and his
/// [`Game::action_view`] of each action, so the screen never shows what
/// his seat may not know.
pub fn play_session<G: Game>(
    rules: &G::Rules,
    text: SessionText,
    mut bot: Box<dyn Agent<G>>,
    mut helper: Box<dyn Agent<G>>,
    options: &PlayOptions,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<SessionEnd> {
    let mut state = match G::new(rules) {
        Ok(state) => state,
        Err(e) => {
            writeln!(output, "rules refused: {e}")?;
            return Ok(SessionEnd::Quit);
        }
    };
    let me = options.seat;
    let title = if text.title.is_empty() {
        G::NAME
    } else {
        text.title
    };
    writeln!(
        output,
        "{title} - you are {me}, against {} ({}), seed {}.\n{HELP}",
        bot.name(),
        options.bot,
        options.seed
    )?;
    let mut session = Session::<G> {
        record: Record::new(rules.clone(), options.seed),
        save: options.save.clone(),
    };
    let mut chance = chance_rng(options.seed);
    let mut bot_rngs = PerPlayer::from_fn(|p| agent_rng(options.seed, p));
    let mut legal = Vec::new();
    let mut shown_for = None;
    let mut handed_over = 0u32;
    loop {
        let action = match state.turn() {
            Turn::Terminal => {
                let outcome = state.outcome().unwrap_or(Outcome::Draw);
                writeln!(
                    output,
                    "\nGame over.\n{}\n{}",
                    state.observation(me),
                    verdict(outcome, me)
                )?;
                session.save_to_option(output)?;
                return Ok(SessionEnd::Finished(outcome));
            }
            Turn::Chance => match state.sample_chance(&mut chance) {
                Some(a) => {
                    writeln!(output, "{}", narrate(&state, a, me))?;
                    a
                }
                None => {
                    writeln!(
                        output,
                        "the engine listed no chance outcome; game abandoned"
                    )?;
                    return Ok(SessionEnd::Quit);
                }
            },
            Turn::Player(p) if p == me && handed_over > 0 => {
                handed_over -= 1;
                state.legal_actions(&mut legal);
                let a = helper.choose(&state.observation(me), &legal, &mut bot_rngs[me]);
                if !legal.contains(&a) {
                    writeln!(output, "the bot chose an illegal action; game abandoned")?;
                    return Ok(SessionEnd::Quit);
                }
                writeln!(output, "{me} (bot for you): {a}")?;
                a
            }
            Turn::Player(p) if p == me => {
                state.legal_actions(&mut legal);
                if shown_for != Some(session.record.actions().len()) {
                    show_board(&state, me, text.legend, output)?;
                    list_moves(&legal, LIST_LINES, output)?;
                    shown_for = Some(session.record.actions().len());
                }
                write!(output, "{me}> ")?;
                output.flush()?;
                let mut bytes = Vec::new();
                if input.read_until(b'\n', &mut bytes)? == 0 {
                    writeln!(output, "\ninput ended; game left unfinished")?;
                    session.save_to_option(output)?;
                    return Ok(SessionEnd::InputEnded);
                }
                // Undecodable bytes become U+FFFD and then a "not a legal
                // move" message, never an error.
                let line = String::from_utf8_lossy(&bytes);
                match parse_command(line.trim(), &legal, &unoffered(&state, line.trim())) {
                    Command::Play(a) => a,
                    Command::Quit => {
                        writeln!(output, "game left unfinished")?;
                        session.save_to_option(output)?;
                        return Ok(SessionEnd::Quit);
                    }
                    Command::Help => {
                        writeln!(output, "{HELP}")?;
                        continue;
                    }
                    Command::Moves => {
                        list_moves(&legal, usize::MAX, output)?;
                        continue;
                    }
                    Command::Show => {
                        show_board(&state, me, text.legend, output)?;
                        continue;
                    }
                    Command::Legend => {
                        writeln!(output, "{}", text.legend)?;
                        continue;
                    }
                    Command::Save(path) => {
                        session.save(&PathBuf::from(path), output)?;
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
            Turn::Player(p) => {
                state.legal_actions(&mut legal);
                let a = bot.choose(&state.observation(p), &legal, &mut bot_rngs[p]);
                if !legal.contains(&a) {
                    writeln!(output, "the bot chose an illegal action; game abandoned")?;
                    return Ok(SessionEnd::Quit);
                }
                writeln!(output, "{}", narrate(&state, a, me))?;
                a
            }
        };
        if let Err(e) = state.apply(action) {
            writeln!(
                output,
                "the engine refused its own action ({e}); game abandoned"
            )?;
            return Ok(SessionEnd::Quit);
        }
        session.record.push(action);
    }
}

/// The record so far and where it goes.
struct Session<G: Game> {
    record: Record<G>,
    save: Option<PathBuf>,
}

impl<G: Game> Session<G> {
    fn save_to_option(&self, output: &mut dyn Write) -> io::Result<()> {
        match &self.save {
            Some(path) => self.save(path, output),
            None => Ok(()),
        }
    }

    fn save(&self, path: &PathBuf, output: &mut dyn Write) -> io::Result<()> {
        let written = serde_json::to_string(&self.record)
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
pub fn narrate<G: Game>(state: &G, action: G::Action, viewer: PlayerId) -> String {
    let view = state.action_view(viewer, action);
    match state.turn() {
        Turn::Player(p) if p == viewer => format!("you: {view}"),
        Turn::Player(p) => format!("{p}: {view}"),
        _ => format!("chance: {view}"),
    }
}

fn show_board<G: Game>(
    state: &G,
    me: PlayerId,
    legend: &str,
    output: &mut dyn Write,
) -> io::Result<()> {
    writeln!(output, "\n{}", state.observation(me))?;
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
fn unoffered<G: Game>(state: &G, typed: &str) -> Option<String> {
    let wanted = normalise(typed);
    if wanted.is_empty() {
        return None;
    }
    let rules = state.rules();
    (0..G::action_space(rules))
        .filter_map(|id| G::action_from_id(rules, id))
        .find(|a| normalise(&a.to_string()) == wanted)
        .and_then(|a| state.check_action(a).err())
        .map(|e| e.to_string())
}

/// What a line of input asks for.
#[derive(Clone, Debug, PartialEq)]
enum Command<A> {
    Play(A),
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
fn parse_command<A: Copy + std::fmt::Display>(
    line: &str,
    legal: &[A],
    refusal: &Option<String>,
) -> Command<A> {
    let wanted = normalise(line);
    // A notation match comes first, so that a move written as a number is
    // not read as a list index.
    let matches: Vec<A> = legal
        .iter()
        .copied()
        .filter(|a| normalise(&a.to_string()) == wanted)
        .collect();
    if let [a] = matches.as_slice() {
        return Command::Play(*a);
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
        return match n.checked_sub(1).and_then(|i| legal.get(i)) {
            Some(a) => Command::Play(*a),
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
        let legal = ["a2-a3", "10", "pass"];
        assert_eq!(
            parse_command(" A2 - a3 ", &legal, &None),
            Command::Play("a2-a3")
        );
        assert_eq!(parse_command("10", &legal, &None), Command::Play("10"));
        assert_eq!(parse_command("3", &legal, &None), Command::Play("pass"));
        assert_eq!(parse_command("#2", &legal, &None), Command::Play("10"));
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
        assert_eq!(
            parse_command("pass", &legal, &refused),
            Command::Play("pass")
        );
    }
}
