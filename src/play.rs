//! A person plays a bot in the terminal (the `play` example), reading
//! commands from any [`BufRead`] so that a session can be scripted.

use std::fs;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use game_env::{BotSpec, DynGame, DynState};
use game_traits::{agent_rng, chance_rng, Outcome, PerPlayer, PlayerId, Turn};

use crate::command::{help, parse_command, resolve, Command};
use crate::setup_dialog::{set_up, SetupAnswer, SetupPhase};

/// How a session is set up.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayOptions {
    /// The opponent; `None`: the game's strongest bot ([`strongest_bot`]).
    pub bot: Option<BotSpec>,
    /// The person's seat.
    pub seat: PlayerId,
    /// Seed of the chance events and of the bot.
    pub seed: u64,
    /// Where to write the record (JSON) when the session ends.
    pub save: Option<PathBuf>,
    /// Where a record goes when no path is given (the `save` command
    /// alone): [`game_env::data_dir`] by default, never the working directory.
    pub records: Option<PathBuf>,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            bot: None,
            seat: PlayerId::P0,
            seed: 1,
            save: None,
            records: game_env::data_dir(),
        }
    }
}

/// The game's strongest bot, the opponent a person meets unless he picks
/// another: its expert where it has one, else information-set MCTS at its
/// default budget.
pub fn strongest_bot(game: &dyn DynGame) -> BotSpec {
    match game.bot(BotSpec::Expert(None)) {
        Ok(_) => BotSpec::Expert(None),
        Err(_) => BotSpec::Ismcts(None),
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

/// The file name of a record of the game `game` (its registry name)
/// played from `seed`, saved after `actions` actions (`None`: at the end),
/// such as `stratego-seed7.json`.
pub fn record_file_name(game: &str, seed: u64, actions: Option<usize>) -> String {
    let name: String = game
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let name = name.trim_matches('-');
    match actions {
        Some(n) => format!("{name}-seed{seed}-action{n}.json"),
        None => format!("{name}-seed{seed}.json"),
    }
}

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
/// account of each action ([`DynState::narrate`], read from his
/// observations either side of it), so the screen never shows what his
/// seat may not know.
pub fn play_session(
    game: &dyn DynGame,
    options: &PlayOptions,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<SessionEnd> {
    let spec = options.bot.unwrap_or_else(|| strongest_bot(game));
    let (mut bot, mut helper) = match (game.bot(spec), game.bot(spec)) {
        (Ok(bot), Ok(helper)) => (bot, helper),
        (Err(e), _) | (_, Err(e)) => {
            writeln!(output, "{e}")?;
            return Ok(SessionEnd::Quit);
        }
    };
    let me = options.seat;
    writeln!(
        output,
        "{}\nYou are {me}, against {}, seed {}.\n{}",
        game.title(),
        spec.plain_name(),
        options.seed,
        help(game)
    )?;
    let mut state = game.new_state();
    let mut session = Session {
        seed: options.seed,
        actions: Vec::new(),
        save: options.save.clone(),
        records: options.records.clone(),
    };
    let mut chance = chance_rng(options.seed);
    let mut bot_rngs = PerPlayer::from_fn(|p| agent_rng(options.seed, p));
    // The setups offered to the person: a stream of their own, beside the
    // chance stream (0) and the seats' (1, 2).
    let mut setup_rng = chance_rng(options.seed);
    setup_rng.set_stream(3);
    let setup = SetupPhase::of(game, &mut setup_rng);
    // Each seat's placements so far, told as one line once complete.
    let mut placed: PerPlayer<Vec<usize>> = PerPlayer::default();
    // The person's setup, accepted in one step, played from the front.
    let mut army: std::collections::VecDeque<usize> = Default::default();
    let mut legal = Vec::new();
    let mut shown_for = None;
    let mut handed_over = 0u32;
    // The keys of routine questions (card war's prayer before every fight)
    // the person has declined: asked once per key, then declined for him.
    let mut declined: Vec<u64> = Vec::new();
    loop {
        // The action and what to add to its account ("bot for you").
        let (id, note) = match state.turn() {
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
                Some(id) => (id, ""),
                None => {
                    writeln!(
                        output,
                        "the engine listed no chance outcome; game abandoned"
                    )?;
                    return Ok(SessionEnd::Quit);
                }
            },
            Turn::Player(p) if p == me => {
                let routine = game.routine(state.as_ref(), me);
                match (army.pop_front(), routine) {
                    (Some(id), _) => (id, ""),
                    (None, Some((key, id))) if declined.contains(&key) => (id, ROUTINE_NOTE),
                    _ if handed_over > 0 => {
                        handed_over -= 1;
                        match helper.choose(state.as_ref(), me, &mut bot_rngs[me]) {
                            Ok(id) => (id, BOT_NOTE),
                            Err(e) => {
                                writeln!(output, "the bot failed ({e}); game abandoned")?;
                                return Ok(SessionEnd::Quit);
                            }
                        }
                    }
                    _ => {
                        state.legal_ids(&mut legal);
                        if setup
                            .as_ref()
                            .is_some_and(|s| s.starts(&legal, placed[me].len()))
                        {
                            match set_up(game, state.as_ref(), me, &mut setup_rng, input, output)? {
                                SetupAnswer::Army(ids) => army.extend(ids),
                                SetupAnswer::HandOver(n) => handed_over = n,
                                SetupAnswer::Quit => {
                                    writeln!(output, "game left unfinished")?;
                                    session.save_to_option(game, output)?;
                                    return Ok(SessionEnd::Quit);
                                }
                                SetupAnswer::InputEnded => {
                                    writeln!(output, "\ninput ended; game left unfinished")?;
                                    session.save_to_option(game, output)?;
                                    return Ok(SessionEnd::InputEnded);
                                }
                            }
                            continue;
                        }
                        if shown_for != Some(session.actions.len()) {
                            show_board(state.as_ref(), me, output)?;
                            list_moves(state.as_ref(), me, &legal, LIST_LINES, output)?;
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
                        // Undecodable bytes become U+FFFD and then a "not a
                        // legal move" message, never an error.
                        let line = String::from_utf8_lossy(&bytes);
                        match parse_command(line.trim(), legal.len()) {
                            Command::Play(i) => (legal[i], ""),
                            Command::Action(text) => {
                                match resolve(game, state.as_ref(), me, &legal, &text) {
                                    Ok(id) => (id, ""),
                                    Err(message) => {
                                        writeln!(output, "{message}")?;
                                        continue;
                                    }
                                }
                            }
                            Command::Quit => {
                                writeln!(output, "game left unfinished")?;
                                session.save_to_option(game, output)?;
                                return Ok(SessionEnd::Quit);
                            }
                            Command::Help => {
                                writeln!(output, "{}", help(game))?;
                                continue;
                            }
                            Command::Moves => {
                                list_moves(state.as_ref(), me, &legal, usize::MAX, output)?;
                                continue;
                            }
                            Command::Show => {
                                show_board(state.as_ref(), me, output)?;
                                continue;
                            }
                            Command::Legend => {
                                writeln!(output, "{}", game.legend())?;
                                continue;
                            }
                            Command::Save(path) => {
                                match path
                                    .map(PathBuf::from)
                                    .or_else(|| session.default_path(game))
                                {
                                    Some(path) => session.save(game, &path, output)?,
                                    None => writeln!(output, "{NO_RECORDS_DIR}")?,
                                }
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
                }
            }
            Turn::Player(p) => match bot.choose(state.as_ref(), p, &mut bot_rngs[p]) {
                Ok(id) => (id, ""),
                Err(e) => {
                    writeln!(output, "the bot failed ({e}); game abandoned")?;
                    return Ok(SessionEnd::Quit);
                }
            },
        };
        if let Turn::Player(p) = state.turn() {
            if p == me && note.is_empty() {
                if let Some((key, decline)) = game.routine(state.as_ref(), me) {
                    if decline == id {
                        declined.push(key);
                    }
                }
            }
        }
        let placement = match (state.turn(), &setup) {
            (Turn::Player(p), Some(s)) if s.is_placement(id) => Some((p, s.size())),
            _ => None,
        };
        match placement {
            // A setup is told in one line once complete, never piece by
            // piece: the opponent's names nothing, the person's is
            // written out for him to type again.
            Some((p, size)) => {
                placed[p].push(id);
                if placed[p].len() == size {
                    writeln!(output, "{}{note}", setup_told(game, p, me, &placed[p]))?;
                }
            }
            None => writeln!(output, "{}{note}", narrate(state.as_ref(), id, me))?,
        }
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

/// `player`'s complete setup `ids`, told to `viewer`: his own written out
/// (to type at the setup prompt of another game), the opponent's as one
/// line that names none of his pieces.
fn setup_told(game: &dyn DynGame, player: PlayerId, viewer: PlayerId, ids: &[usize]) -> String {
    let n = ids.len();
    if player != viewer {
        return format!("{player}: set up his {n} pieces");
    }
    match game.write_setup(ids) {
        Some(text) => format!("you: set up your {n} pieces: {text}"),
        None => format!("you: set up your {n} pieces"),
    }
}

/// Added to the account of a move a bot made for the person.
pub const BOT_NOTE: &str = " (bot for you)";
/// Added to the account of a routine question answered for the person.
pub const ROUTINE_NOTE: &str = " (as you answered before in this battle)";

const NO_RECORDS_DIR: &str = "no records folder: neither XDG_DATA_HOME nor HOME names an \
absolute directory; give a file: save FILE";

/// The record so far and where it goes.
struct Session {
    seed: u64,
    actions: Vec<usize>,
    save: Option<PathBuf>,
    records: Option<PathBuf>,
}

impl Session {
    fn save_to_option(&self, game: &dyn DynGame, output: &mut dyn Write) -> io::Result<()> {
        match &self.save {
            Some(path) => self.save(game, path, output),
            None => Ok(()),
        }
    }

    /// A file in the records folder for the record so far.
    fn default_path(&self, game: &dyn DynGame) -> Option<PathBuf> {
        let name = record_file_name(game.name(), self.seed, Some(self.actions.len()));
        Some(self.records.as_ref()?.join(name))
    }

    fn save(&self, game: &dyn DynGame, path: &Path, output: &mut dyn Write) -> io::Result<()> {
        let written = game
            .record_json(self.seed, &self.actions)
            .map_err(io::Error::other)
            .and_then(|json| {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    fs::create_dir_all(dir)?;
                }
                fs::write(path, json + "\n")
            });
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

/// The action `id`, about to be applied now, told to `viewer`: who acted
/// and what it showed him ([`DynState::narrate`]: a fight's result, a
/// claim's proof). A function of his observations only, so a screen or log
/// built from it hides what he may not know.
pub fn narrate(state: &dyn DynState, id: usize, viewer: PlayerId) -> String {
    state
        .narrate(viewer, id)
        .or_else(|_| state.action_view(viewer, id))
        .unwrap_or_default()
}

fn show_board(state: &dyn DynState, me: PlayerId, output: &mut dyn Write) -> io::Result<()> {
    writeln!(output, "\n{}", state.observation_text(me))
}

/// A legal move of `viewer` as listed: its notation, and where that is a
/// bare code (Stratego's `place#8`) his view of it, which names the piece
/// and the square: `place#8 (place Scout (2) on a4)`.
pub fn move_label(state: &dyn DynState, id: usize, viewer: PlayerId) -> String {
    let text = state.action_text(id).unwrap_or_default();
    match state.action_view(viewer, id) {
        Ok(view) if text.contains('#') && view != text => format!("{text} ({view})"),
        _ => text,
    }
}

/// Lists the `legal` moves in columns; when that takes more than
/// `max_lines`, only says how many there are and shows a few, so the board
/// stays on screen.
fn list_moves(
    state: &dyn DynState,
    me: PlayerId,
    legal: &[usize],
    max_lines: usize,
    output: &mut dyn Write,
) -> io::Result<()> {
    let texts: Vec<String> = legal.iter().map(|&id| move_label(state, id, me)).collect();
    let items: Vec<String> = texts
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{:>3}) {a}", i + 1))
        .collect();
    let width = items.iter().map(|s| s.chars().count()).max().unwrap_or(0) + 2;
    let per_line = (96 / width.max(1)).max(1);
    let lines = items.len().div_ceil(per_line);
    if lines > max_lines {
        let some: Vec<&str> = texts.iter().take(4).map(String::as_str).collect();
        return writeln!(
            output,
            "{} legal moves (type `moves` to list them): type one as written, e.g. {}",
            texts.len(),
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
