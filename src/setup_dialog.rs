//! A person's setup in one step (Stratego's 40 placements): a setup the
//! game suggests (drawn from its model of the setups people play, or at
//! random) or one he writes, shown on his own board and edited by swapping
//! two squares, then played at once. Games declare how a setup is written
//! and its squares named ([`DynGame::read_setup`],
//! [`DynGame::setup_square`]); nothing here knows a game by name.

use std::collections::HashSet;
use std::io::{self, BufRead, Write};

use game_env::{DynGame, DynState, SetupKind};
use game_traits::{GameRng, PlayerId};

/// A game's setup phase as a session sees it: the ids of its placements
/// and how many make one setup.
pub(crate) struct SetupPhase {
    placements: HashSet<usize>,
    size: usize,
}

impl SetupPhase {
    /// The setup phase of `game`, when it has one a person may write
    /// (it suggests setups and declares how they are written).
    pub(crate) fn of(game: &dyn DynGame, rng: &mut GameRng) -> Option<SetupPhase> {
        if game.setup_help().is_empty() {
            return None;
        }
        // Every kind of piece is in every setup: one suggestion names all
        // the placement ids.
        let suggested = game.suggest_setup(SetupKind::Random, rng)?;
        Some(SetupPhase {
            size: suggested.placements.len(),
            placements: suggested.placements.into_iter().collect(),
        })
    }

    /// Whether `id` places a piece.
    pub(crate) fn is_placement(&self, id: usize) -> bool {
        self.placements.contains(&id)
    }

    /// Placements of one whole setup.
    pub(crate) fn size(&self) -> usize {
        self.size
    }

    /// Whether a decision whose legal ids are `legal` is the first of a
    /// setup: placements only, none made yet (`placed`).
    pub(crate) fn starts(&self, legal: &[usize], placed: usize) -> bool {
        placed == 0 && !legal.is_empty() && legal.iter().all(|id| self.is_placement(*id))
    }
}

/// How the setup dialog ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum SetupAnswer {
    /// Play these placements, in order.
    Army(Vec<usize>),
    /// A bot of the opponent's kind makes the person's next N decisions.
    HandOver(u32),
    /// The person quit.
    Quit,
    /// The input ran out.
    InputEnded,
}

/// What a line typed at the setup prompt asks for.
#[derive(Debug, PartialEq, Eq)]
enum SetupCommand {
    Accept,
    Suggest(SetupKind),
    Swap(String, String),
    Written(String),
    HandOver(u32),
    Help,
    Quit,
    Nothing,
    Bad(String),
}

/// Reads a line typed at the setup prompt.
fn parse_setup_line(line: &str) -> SetupCommand {
    let lower = line.trim().to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == '-' || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    match words.as_slice() {
        [] => SetupCommand::Nothing,
        ["ok" | "yes" | "y" | "play" | "done" | "go"] => SetupCommand::Accept,
        ["human" | "h" | "model"] => SetupCommand::Suggest(SetupKind::Human),
        ["random" | "r" | "shuffle"] => SetupCommand::Suggest(SetupKind::Random),
        ["help" | "?"] => SetupCommand::Help,
        ["quit" | "exit"] => SetupCommand::Quit,
        ["bot"] => SetupCommand::HandOver(1),
        ["bot", n] => match n.parse::<u32>() {
            Ok(n) if n > 0 => SetupCommand::HandOver(n),
            _ => SetupCommand::Bad(format!("bot wants a number of moves, not {n:?}")),
        },
        ["swap", a, b] => SetupCommand::Swap((*a).to_owned(), (*b).to_owned()),
        ["swap", ..] => SetupCommand::Bad("swap wants two squares, such as swap a1 b4".into()),
        [a, b] => SetupCommand::Swap((*a).to_owned(), (*b).to_owned()),
        [word] if word.len() > 8 => SetupCommand::Written(line.trim().to_owned()),
        _ => SetupCommand::Bad(format!("{:?} is not a setup command", line.trim())),
    }
}

/// The choices at the setup prompt.
const CHOICES: &str = "ok: play this setup; human: another like people play; random: a random \
one; a setup written out: that one; swap SQUARE SQUARE: exchange two pieces; bot: the bot sets \
up for you; help; quit.";

/// The person `me` sets up in one step at `state`, where his setup
/// starts: from a setup like people play, drawn from `rng`, he may draw
/// another or a random one, type one written out, swap two squares, until
/// he accepts it. What he sees is his own board with the setup on it.
pub(crate) fn set_up(
    game: &dyn DynGame,
    state: &dyn DynState,
    me: PlayerId,
    rng: &mut GameRng,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<SetupAnswer> {
    let Some(mut army) = game
        .suggest_setup(SetupKind::Human, rng)
        .map(|s| s.placements)
    else {
        return Ok(SetupAnswer::HandOver(1));
    };
    writeln!(
        output,
        "\nSet up your army in one step: here is a setup like people play.\n{CHOICES}"
    )?;
    let mut shown = false;
    loop {
        if !shown {
            match with_army(state, &army) {
                Ok(board) => writeln!(output, "\n{}", board.observation_text(me))?,
                Err(e) => writeln!(output, "that setup cannot be played here: {e}")?,
            }
            if let Some(text) = game.write_setup(&army) {
                writeln!(output, "This setup written out: {text}")?;
            }
            shown = true;
        }
        write!(output, "{me} setup> ")?;
        output.flush()?;
        let mut bytes = Vec::new();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(SetupAnswer::InputEnded);
        }
        let line = String::from_utf8_lossy(&bytes);
        match parse_setup_line(&line) {
            SetupCommand::Accept => return Ok(SetupAnswer::Army(army)),
            SetupCommand::HandOver(n) => return Ok(SetupAnswer::HandOver(n)),
            SetupCommand::Quit => return Ok(SetupAnswer::Quit),
            SetupCommand::Nothing => {}
            SetupCommand::Help => {
                writeln!(output, "{CHOICES}\n{}", game.setup_help())?;
            }
            SetupCommand::Bad(message) => writeln!(output, "{message}. {CHOICES}")?,
            SetupCommand::Suggest(kind) => {
                if let Some(s) = game.suggest_setup(kind, rng) {
                    army = s.placements;
                    shown = false;
                }
            }
            SetupCommand::Swap(a, b) => match swap(game, me, &mut army, &a, &b) {
                Ok(()) => shown = false,
                Err(message) => writeln!(output, "{message}")?,
            },
            SetupCommand::Written(text) => match game.read_setup(&text) {
                Ok(written) => match with_army(state, &written) {
                    Ok(_) => {
                        army = written;
                        shown = false;
                    }
                    Err(e) => writeln!(output, "that setup cannot be played here: {e}")?,
                },
                Err(e) => writeln!(output, "not a setup: {e}\n{}", game.setup_help())?,
            },
        }
    }
}

/// `state` with the placements `army` played.
fn with_army(
    state: &dyn DynState,
    army: &[usize],
) -> Result<Box<dyn DynState>, game_env::EnvError> {
    let mut board = state.clone_box();
    for &id in army {
        board.apply_id(id)?;
    }
    Ok(board)
}

/// Swaps the pieces of `me`'s setup squares named `a` and `b` in `army`.
fn swap(
    game: &dyn DynGame,
    me: PlayerId,
    army: &mut [usize],
    a: &str,
    b: &str,
) -> Result<(), String> {
    let at = |name: &str| {
        game.setup_square(me, name)
            .filter(|&i| i < army.len())
            .ok_or_else(|| format!("{name:?} is not one of your setup squares"))
    };
    let (i, j) = (at(a)?, at(b)?);
    army.swap(i, j);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_lines_are_read_as_commands_swaps_or_a_written_setup() {
        assert_eq!(parse_setup_line("OK\n"), SetupCommand::Accept);
        assert_eq!(
            parse_setup_line("human"),
            SetupCommand::Suggest(SetupKind::Human)
        );
        assert_eq!(
            parse_setup_line("random"),
            SetupCommand::Suggest(SetupKind::Random)
        );
        let swap = SetupCommand::Swap("a1".into(), "b4".into());
        assert_eq!(parse_setup_line("swap a1 b4"), swap);
        assert_eq!(parse_setup_line("A1 B4"), swap);
        assert_eq!(parse_setup_line("a1-b4"), swap);
        assert!(matches!(parse_setup_line("swap a1"), SetupCommand::Bad(_)));
        let text = "BDGFDFDDDBHFLJGKDIFGEHEMCEHBDDIBJEIBHEBG";
        assert_eq!(
            parse_setup_line(text),
            SetupCommand::Written(text.to_owned())
        );
        assert_eq!(parse_setup_line("bot 40"), SetupCommand::HandOver(40));
        assert!(matches!(parse_setup_line("bot x"), SetupCommand::Bad(_)));
        assert_eq!(parse_setup_line(""), SetupCommand::Nothing);
        assert!(matches!(parse_setup_line("dance"), SetupCommand::Bad(_)));
    }
}
