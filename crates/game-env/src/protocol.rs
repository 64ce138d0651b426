//! The JSON-lines bot protocol: a bot in any language is a program that
//! reads one JSON object per line on its standard input and answers each
//! `turn` with one line `{"action": ID}` on its standard output
//! (`docs/bot-protocol.md` describes every message).
//!
//! [`ProtocolBot`] is the referee's side: it starts the program, sends it
//! the seat's observation, the legal actions with ids and text and the
//! actions since its last turn as its seat perceived them, and reads the
//! answer on a reader thread with a time limit, so a silent or runaway bot
//! cannot hang the referee. A bot that answers an illegal id, garbage, or
//! nothing in time forfeits, and [`ProtocolError`] says why.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use game_traits::{GameRng, PlayerId, Turn};
use serde::Serialize;

use crate::dynamic::DynState;
use crate::opponent::Opponent;
use crate::EnvError;

/// The protocol's version, sent in the `start` message.
pub const PROTOCOL_VERSION: u32 = 1;

/// Longest answer line accepted; a longer one is garbage.
pub const MAX_LINE: usize = 64 * 1024;

/// How to start a protocol bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolConfig {
    /// The program and its arguments (no shell is involved).
    pub argv: Vec<String>,
    /// How long the bot may think about one decision (and start up).
    pub time_limit: Duration,
    /// The game's name with its parameters, sent in `start`.
    pub game: String,
    /// The game's legend, sent in `start`.
    pub legend: String,
}

/// Why a protocol bot forfeits, or could not be started.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProtocolError {
    /// The program could not be started.
    #[error("cannot start {program:?}: {reason}")]
    Spawn {
        /// The program.
        program: String,
        /// The system's reason.
        reason: String,
    },
    /// No answer within the time limit.
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    /// The program closed its output or exited.
    #[error("the bot exited or closed its output")]
    Exited,
    /// The answer is not `{"action": ID}` with an integer id.
    #[error("unreadable answer {0:?}: expected {{\"action\": ID}}")]
    Garbage(String),
    /// The id is not among the legal ones.
    #[error("illegal action id {0}: not among the legal ids sent")]
    Illegal(u64),
    /// The bot's input could not be written.
    #[error("cannot write to the bot: {0}")]
    Write(String),
    /// Nobody decides now.
    #[error("no player decides now")]
    NoDecision,
}

#[derive(Serialize)]
struct Start<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    protocol: u32,
    game: &'a str,
    seat: u8,
    time_limit_ms: u64,
    legend: &'a str,
}

#[derive(Clone, Debug, Serialize)]
struct Event {
    by: String,
    text: String,
}

#[derive(Serialize)]
struct Legal {
    id: usize,
    text: String,
}

#[derive(Serialize)]
struct TurnMsg<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(rename = "move")]
    move_number: u32,
    observation: serde_json::Value,
    text: String,
    legal: Vec<Legal>,
    opponent_last: Option<&'a str>,
    events: &'a [Event],
}

/// A bot program driven over JSON lines; an [`Opponent`] for any game.
pub struct ProtocolBot {
    config: ProtocolConfig,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Result<String, ProtocolError>>,
    started: bool,
    events: Vec<Event>,
    opponent_last: Option<String>,
    seat: Option<PlayerId>,
}

impl ProtocolBot {
    /// Starts the program of `config` (its standard error is inherited).
    pub fn spawn(config: ProtocolConfig) -> Result<ProtocolBot, ProtocolError> {
        let program = config.argv.first().cloned().unwrap_or_default();
        let mut child = Command::new(&program)
            .args(config.argv.iter().skip(1))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| ProtocolError::Spawn {
                program: program.clone(),
                reason: e.to_string(),
            })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or_else(|| ProtocolError::Spawn {
            program: program.clone(),
            reason: "no standard output".into(),
        })?;
        let (tx, lines) = mpsc::channel();
        // The reader thread ends when the program closes its output (at
        // the latest when it is killed on drop).
        thread::Builder::new()
            .name("protocol-bot-reader".into())
            .spawn(move || read_lines(stdout, MAX_LINE, tx, ProtocolError::Garbage))
            .map_err(|e| ProtocolError::Spawn {
                program,
                reason: e.to_string(),
            })?;
        Ok(ProtocolBot {
            config,
            child,
            stdin,
            lines,
            started: false,
            events: Vec::new(),
            opponent_last: None,
            seat: None,
        })
    }

    /// Tells the bot of an action (before its next turn): `by` who acted
    /// (`None` for chance) and `view`, the action as the bot's seat
    /// perceived it (`DynState::action_view` for that seat).
    pub fn tell(&mut self, by: Option<PlayerId>, view: &str) {
        let by_text = by.map_or_else(|| "chance".to_owned(), |p| p.to_string());
        if by.is_some() && by != self.seat {
            self.opponent_last = Some(view.to_owned());
        }
        self.events.push(Event {
            by: by_text,
            text: view.to_owned(),
        });
    }

    fn send(&mut self, line: &[u8]) -> Result<(), ProtocolError> {
        let stdin = self.stdin.as_mut().ok_or(ProtocolError::Exited)?;
        stdin
            .write_all(line)
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|e| ProtocolError::Write(e.to_string()))
    }

    /// Asks the bot for `seat`'s decision in `state`; the answer is checked
    /// against the legal ids sent.
    pub fn decide(&mut self, state: &dyn DynState, seat: PlayerId) -> Result<usize, ProtocolError> {
        if state.turn() != Turn::Player(seat) {
            return Err(ProtocolError::NoDecision);
        }
        if self.seat != Some(seat) {
            // The opponent's last action is only known relative to a seat.
            if self.seat.is_some() {
                self.opponent_last = None;
            }
            self.seat = Some(seat);
        }
        if !self.started {
            let start = Start {
                kind: "start",
                protocol: PROTOCOL_VERSION,
                game: &self.config.game,
                seat: seat.index() as u8,
                time_limit_ms: self.config.time_limit.as_millis() as u64,
                legend: &self.config.legend,
            };
            let line = serde_json::to_vec(&start).unwrap_or_default();
            self.send(&line)?;
            self.started = true;
        }
        let mut scratch = state.clone_box();
        let mut ids = Vec::new();
        scratch.legal_ids(&mut ids);
        let legal: Vec<Legal> = ids
            .iter()
            .map(|&id| Legal {
                id,
                text: state.action_text(id).unwrap_or_default(),
            })
            .collect();
        let msg = TurnMsg {
            kind: "turn",
            move_number: state.move_count(),
            observation: serde_json::from_str(&state.observation_json(seat))
                .unwrap_or(serde_json::Value::Null),
            text: state.observation_text(seat),
            legal,
            opponent_last: self.opponent_last.as_deref(),
            events: &self.events,
        };
        let line = serde_json::to_vec(&msg).unwrap_or_default();
        self.send(&line)?;
        self.events.clear();
        let answer = match self.lines.recv_timeout(self.config.time_limit) {
            Ok(line) => line?,
            Err(RecvTimeoutError::Timeout) => {
                return Err(ProtocolError::Timeout(self.config.time_limit))
            }
            Err(RecvTimeoutError::Disconnected) => return Err(ProtocolError::Exited),
        };
        let id = parse_answer(&answer)?;
        match usize::try_from(id).ok().filter(|id| ids.contains(id)) {
            Some(id) => Ok(id),
            None => Err(ProtocolError::Illegal(id)),
        }
    }
}

/// Reads `{"action": ID}` (an unsigned integer id).
fn parse_answer(line: &str) -> Result<u64, ProtocolError> {
    let garbage = || ProtocolError::Garbage(line.chars().take(200).collect());
    let value: serde_json::Value = serde_json::from_str(line).map_err(|_| garbage())?;
    value
        .as_object()
        .and_then(|o| o.get("action"))
        .and_then(serde_json::Value::as_u64)
        .ok_or_else(garbage)
}

/// Reads a program's output line by line, sending each non-empty trimmed
/// line to `tx`; a line longer than `max` bytes is sent as `too_long` of
/// its first 200 characters and ends the reading, as do the end of the
/// stream and a closed channel. Both bot referees (this protocol and the
/// Battle Line one of the umbrella crate) read their programs with it, on a
/// thread of their own so that a silent program cannot hang them.
pub fn read_lines<E>(
    from: impl Read,
    max: usize,
    tx: mpsc::Sender<Result<String, E>>,
    too_long: fn(String) -> E,
) {
    let mut reader = BufReader::new(from);
    loop {
        let mut buf = Vec::new();
        let read = (&mut reader)
            .take(max as u64 + 1)
            .read_until(b'\n', &mut buf);
        let line = match read {
            Ok(0) | Err(_) => return,
            Ok(_) if buf.len() > max => {
                let head = String::from_utf8_lossy(&buf[..200.min(buf.len())]).into_owned();
                let _ = tx.send(Err(too_long(head)));
                return;
            }
            Ok(_) => String::from_utf8_lossy(&buf).trim().to_owned(),
        };
        if line.is_empty() {
            continue;
        }
        if tx.send(Ok(line)).is_err() {
            return;
        }
    }
}

impl Drop for ProtocolBot {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.write_all(b"{\"type\":\"quit\"}\n");
        }
        // Closing its input asks it to stop; a bot that does not is killed.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Opponent for ProtocolBot {
    fn name(&self) -> String {
        format!("cmd:{}", self.config.argv.join(" "))
    }

    fn choose(
        &mut self,
        state: &dyn DynState,
        seat: PlayerId,
        _rng: &mut GameRng,
    ) -> Result<usize, EnvError> {
        self.decide(state, seat)
            .map_err(|e| EnvError::IllegalAction(format!("{} forfeits: {e}", self.name())))
    }
}
