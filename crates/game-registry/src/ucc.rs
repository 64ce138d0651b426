//! A referee for the Stratego agents of the 2012 UCC programming
//! competition (ucc/progcomp2012, `judge/manager/manual.txt` there), so
//! that they play our classic Stratego (`stratego(variant=classic)`) in
//! the arena and at server seats.
//!
//! The protocol is plain text lines over the agent's standard input and
//! output, on a board whose row 0 is at the top, where RED (the player
//! who moves first) sets up, and BLUE at the bottom. Once, at the agent's
//! first setup decision:
//!
//! ```text
//! > RED tabletop/opponent 10 10      (or BLUE)
//! < FB8sB479B8                       (four rows of ten pieces, top first)
//! < BB31555583
//! < 6724898974
//! < 967B669999
//! ```
//!
//! then at each of its moves:
//!
//! ```text
//! > 0 3 DOWN OK                      (its own last move confirmed, with
//!                                     OK, KILLS a d, DIES a d or BOTHDIE a d)
//! > 9 6 UP 3 BOTHDIE 9 9             (the opponent's move; START the first
//!                                     time for RED)
//! > FB8sB479B8                       (ten rows: its pieces, # for the
//! > ...                               enemy's, + water, . empty)
//! < 9 2 DOWN                         (x y direction [squares])
//! ```
//!
//! and `QUIT` when the game is over. Pieces are written `1` (Marshal) to
//! `9` (Scout), `s` (Spy), `B` (Bomb), `F` (Flag): the classic army.
//!
//! The protocol confirms a move with its outcome at once; the arena asks a
//! seat only when it decides, so the confirmation of an agent's move is
//! sent just before the opponent's reply, at the agent's next decision.
//! Both ranks of a fight are told to both players, as the classic rules
//! reveal them. What is sent comes from the seat's observation, the moves
//! it saw and the fights it saw, nothing else.
//!
//! Rule differences (`docs/bot-protocol.md`): the UCC manager has no
//! two-square or more-squares rule, so an agent under our ISF rules
//! forfeits when it breaks one; play them under
//! `stratego(variant=classic,two_square_limit=none,more_squares_rule=false)`,
//! the rules closest to the UCC manager's. A game the UCC manager would
//! declare drawn after 5000 turns ends here at the rule set's `max_moves`.

use std::time::Duration;

use game_env::{BotFailure, BotProcess, DynState, EnvError, Opponent};
use game_traits::{Game, GameRng, PlayerId, Turn};
use stratego_core::{
    Action, Kind, Move, ObsCell, Observation, SetupSquare, Square, Stratego, Variant, SETUP_SQUARES,
};

/// The prefix of these agents' bot names: `ucc:PROGRAM ARGS`.
pub const PREFIX: &str = "ucc";

/// The protocol's letter of each classic kind, by kind index (Marshal
/// `1` ... Scout `9`, Spy `s`, Bomb `B`, Flag `F`).
pub const TOKENS: [char; Kind::COUNT] =
    ['1', '2', '3', '4', '5', '6', '7', '8', '9', 's', 'B', 'F'];

/// How to start an agent of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UccConfig {
    /// The program and its arguments (no shell).
    pub argv: Vec<String>,
    /// How long the agent may take for one answer (its setup, or a move).
    pub time_limit: Duration,
}

/// Why an agent of the protocol forfeits, or could not play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UccError {
    /// The program failed as any bot program can.
    #[error(transparent)]
    Process(#[from] BotFailure),
    /// Not classic Stratego with fights revealed to both players.
    #[error("the UCC protocol plays classic Stratego with revealed fights, not {0}")]
    WrongGame(String),
    /// A setup row or a move the protocol cannot read.
    #[error("unreadable answer {0:?}")]
    Garbage(String),
    /// A readable answer our rules refuse.
    #[error("illegal answer {answer:?}: {reason}")]
    Illegal {
        /// The agent's answer.
        answer: String,
        /// Why it is illegal.
        reason: String,
    },
    /// Nobody decides now for this seat.
    #[error("no decision for this seat now")]
    NoDecision,
    /// The agent answered `SURRENDER`: it gives the game up.
    #[error("the agent surrendered")]
    Surrendered,
}

/// A bot program of the UCC 2012 protocol; an [`Opponent`] for classic
/// Stratego.
pub struct UccBot {
    config: UccConfig,
    process: BotProcess,
    /// The seat's setup as the agent gave it, in placement order.
    setup: Option<Vec<Kind>>,
    /// The states before and after this seat's last move, and that move:
    /// its outcome and the opponent's reply are told at the next decision.
    last: Option<(Stratego, Stratego, Move)>,
    /// Every line sent and received, for tests and post-mortems.
    transcript: Vec<String>,
}

/// `Ok` for the rules the protocol's agents play: classic Stratego with
/// fights revealed to both players.
pub fn plays(rules: &stratego_core::Rules) -> Result<(), String> {
    if rules.variant != stratego_core::Variant::Classic || !rules.reveal_attacker {
        return Err("its agents play stratego(variant=classic), fights revealed".into());
    }
    Ok(())
}

impl UccBot {
    /// Starts the program of `config` (its standard error is inherited).
    pub fn spawn(config: UccConfig) -> Result<UccBot, BotFailure> {
        let process = BotProcess::spawn(&config.argv)?;
        Ok(UccBot {
            config,
            process,
            setup: None,
            last: None,
            transcript: Vec::new(),
        })
    }

    /// Every line sent (`> `) and received (`< `) so far.
    pub fn transcript(&self) -> &[String] {
        &self.transcript
    }

    fn send(&mut self, line: &str) -> Result<(), UccError> {
        self.process.send(line.as_bytes())?;
        self.transcript.push(format!("> {line}"));
        Ok(())
    }

    fn receive(&mut self) -> Result<String, UccError> {
        let line = self.process.receive(self.config.time_limit)?;
        self.transcript.push(format!("< {line}"));
        Ok(line)
    }

    /// `seat`'s next action in `state`.
    pub fn decide(&mut self, state: &Stratego, seat: PlayerId) -> Result<Action, UccError> {
        let rules = state.rules();
        if rules.variant != Variant::Classic || !rules.reveal_attacker {
            return Err(UccError::WrongGame(format!("{rules:?}")));
        }
        if state.turn() != Turn::Player(seat) {
            return Err(UccError::NoDecision);
        }
        let obs = state.observation(seat);
        let frame = Frame::of(&obs, seat);
        if obs.in_setup() {
            return self.place(state, seat, frame);
        }
        match (self.last.take(), obs.last_move[seat.other()]) {
            (Some((before, after, mine)), theirs) => {
                let line = format!(
                    "{} {}",
                    frame.move_text(mine),
                    outcome(&before, &after, mine)
                );
                self.send(&line)?;
                if let Some(theirs) = theirs {
                    let line = format!(
                        "{} {}",
                        frame.move_text(theirs),
                        outcome(&after, state, theirs)
                    );
                    self.send(&line)?;
                }
            }
            // The opponent opened the game: the only move since the setup.
            (None, Some(theirs)) => {
                let line = format!(
                    "{} {}",
                    frame.move_text(theirs),
                    opening_outcome(state, theirs)
                );
                self.send(&line)?;
            }
            (None, None) => self.send("START")?,
        }
        for row in frame.board(&obs) {
            self.send(&row)?;
        }
        let answer = self.receive()?;
        let action = frame.parse_move(&answer)?;
        match state.check_action(action) {
            Ok(()) => {
                if let Action::Move(m) = action {
                    let mut after = state.clone();
                    after.apply_unchecked(action);
                    self.last = Some((state.clone(), after, m));
                }
                Ok(action)
            }
            Err(e) => Err(UccError::Illegal {
                answer,
                reason: e.to_string(),
            }),
        }
    }

    /// The next setup placement, asking the agent for its setup first.
    fn place(
        &mut self,
        state: &Stratego,
        seat: PlayerId,
        frame: Frame,
    ) -> Result<Action, UccError> {
        if self.setup.is_none() {
            let colour = if frame.red == seat { "RED" } else { "BLUE" };
            // A path, as the UCC manager names agents (ramen takes its
            // basename to name its memory of the opponent).
            self.send(&format!("{colour} tabletop/opponent 10 10"))?;
            let mut rows = Vec::new();
            for _ in 0..4 {
                rows.push(self.receive()?);
            }
            self.setup = Some(frame.read_setup(seat, &rows)?);
        }
        let placed = usize::from(state.placed(seat));
        let kind = self
            .setup
            .as_ref()
            .and_then(|s| s.get(placed).copied())
            .ok_or(UccError::NoDecision)?;
        let action = Action::Place(kind);
        state.check_action(action).map_err(|e| UccError::Illegal {
            answer: "setup".into(),
            reason: e.to_string(),
        })?;
        Ok(action)
    }
}

impl Drop for UccBot {
    /// The protocol's farewell before the program is stopped.
    fn drop(&mut self) {
        self.process.close(Some(b"QUIT"));
    }
}

/// The protocol's board frame for one seat: RED (the first to move) sets
/// up at the top, so the board is turned by 180 degrees when RED is our
/// first seat (whose home rows are at the bottom).
#[derive(Clone, Copy, Debug)]
struct Frame {
    red: PlayerId,
    turned: bool,
}

impl Frame {
    fn of(obs: &Observation, seat: PlayerId) -> Frame {
        let red = obs.first.or(obs.rules.fixed_first_player()).unwrap_or(seat);
        Frame {
            red,
            turned: red == PlayerId::P0,
        }
    }

    /// Our square at the protocol's `x` (column from the left) and `y`
    /// (row from the top).
    fn square(self, x: i32, y: i32) -> Option<Square> {
        let (x, y) = (u8::try_from(x).ok()?, u8::try_from(y).ok()?);
        if x > 9 || y > 9 {
            return None;
        }
        if self.turned {
            Square::at(9 - y, 9 - x)
        } else {
            Square::at(y, x)
        }
    }

    /// The protocol's (x, y) of our square.
    fn xy(self, sq: Square) -> (i32, i32) {
        let (row, col) = (i32::from(sq.row()), i32::from(sq.col()));
        if self.turned {
            (9 - col, 9 - row)
        } else {
            (col, row)
        }
    }

    /// `x y DIRECTION [n]`.
    fn move_text(self, m: Move) -> String {
        let (x, y) = self.xy(m.from);
        let (x2, y2) = self.xy(m.to);
        let (dir, n) = match (x2 - x, y2 - y) {
            (0, d) if d < 0 => ("UP", -d),
            (0, d) => ("DOWN", d),
            (d, _) if d < 0 => ("LEFT", -d),
            (d, _) => ("RIGHT", d),
        };
        if n == 1 {
            format!("{x} {y} {dir}")
        } else {
            format!("{x} {y} {dir} {n}")
        }
    }

    /// Reads `x y DIRECTION [n]`, or the protocol's `SURRENDER`.
    fn parse_move(self, line: &str) -> Result<Action, UccError> {
        let garbage = || UccError::Garbage(line.chars().take(200).collect());
        let words: Vec<&str> = line.split_whitespace().collect();
        let (x, y, dir, n) = match words.as_slice() {
            ["SURRENDER"] => return Err(UccError::Surrendered),
            [x, y, dir] => (*x, *y, *dir, "1"),
            [x, y, dir, n] => (*x, *y, *dir, *n),
            _ => return Err(garbage()),
        };
        let num = |s: &str| s.parse::<i32>().map_err(|_| garbage());
        let (x, y, n) = (num(x)?, num(y)?, num(n)?);
        if !(1..=9).contains(&n) {
            return Err(garbage());
        }
        let (dx, dy) = match dir {
            "UP" => (0, -n),
            "DOWN" => (0, n),
            "LEFT" => (-n, 0),
            "RIGHT" => (n, 0),
            _ => return Err(garbage()),
        };
        let from = self.square(x, y).ok_or_else(garbage)?;
        let to = self.square(x + dx, y + dy).ok_or_else(garbage)?;
        Ok(Action::Move(Move { from, to }))
    }

    /// The ten rows the protocol shows `obs`'s viewer, top first.
    fn board(self, obs: &Observation) -> Vec<String> {
        (0..10)
            .map(|y| {
                (0..10)
                    .map(|x| match self.square(x, y).map(|sq| obs.cell(sq)) {
                        Some(ObsCell::Lake) => '+',
                        Some(ObsCell::Own { kind, .. }) => TOKENS[kind.index()],
                        Some(ObsCell::Foe { .. }) => '#',
                        Some(ObsCell::Empty) | None => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// The setup of four rows (top first) as kinds in our placement order
    /// for `seat`; every square must hold a piece.
    fn read_setup(self, seat: PlayerId, rows: &[String]) -> Result<Vec<Kind>, UccError> {
        let garbage = || UccError::Garbage(rows.join("/").chars().take(200).collect());
        let top = if self.red == seat { 0 } else { 6 };
        let mut kinds = Vec::with_capacity(SETUP_SQUARES);
        for i in 0..SETUP_SQUARES {
            let sq = SetupSquare::from_index(i)
                .and_then(|s| s.board_square(seat))
                .ok_or_else(garbage)?;
            let (x, y) = self.xy(sq);
            let row = rows
                .get(usize::try_from(y - top).map_err(|_| garbage())?)
                .ok_or_else(garbage)?;
            let token = row
                .chars()
                .nth(usize::try_from(x).map_err(|_| garbage())?)
                .ok_or_else(garbage)?;
            let kind = TOKENS
                .iter()
                .position(|&t| t == token)
                .and_then(|k| Kind::new(u8::try_from(k).ok()?))
                .ok_or_else(garbage)?;
            kinds.push(kind);
        }
        if rows.iter().any(|r| r.chars().count() != 10) {
            return Err(garbage());
        }
        Ok(kinds)
    }
}

/// The protocol's outcome of `m` from `before` to `after`: `OK`, or
/// `KILLS`, `DIES` or `BOTHDIE` with the attacker's and the defender's
/// letters (both told to both players in classic Stratego). A flag taken is
/// a `KILLS`: the game is over and the agent is told `QUIT` instead.
fn outcome(before: &Stratego, after: &Stratego, m: Move) -> String {
    let (Some(attacker), Some(defender)) = (before.piece(m.from), before.piece(m.to)) else {
        return "OK".to_owned();
    };
    let letters = format!(
        "{} {}",
        TOKENS[attacker.kind.index()],
        TOKENS[defender.kind.index()]
    );
    match after.piece(m.to) {
        Some(p) if p.owner == attacker.owner => format!("KILLS {letters}"),
        Some(_) => format!("DIES {letters}"),
        None => format!("BOTHDIE {letters}"),
    }
}

/// The outcome of `m`, the first move of the game, which led to `now`:
/// the pieces lost so far are the ones its fight took.
fn opening_outcome(now: &Stratego, m: Move) -> String {
    let Some(mover) = now.current_player().map(PlayerId::other) else {
        return "OK".to_owned();
    };
    let lost_kind = |p: PlayerId| now.lost(p).iter().position(|&n| n > 0).map(|k| TOKENS[k]);
    let here = now.piece(m.to).map(|p| TOKENS[p.kind.index()]);
    match (lost_kind(mover), lost_kind(mover.other()), here) {
        (None, Some(d), Some(a)) => format!("KILLS {a} {d}"),
        (Some(a), None, Some(d)) => format!("DIES {a} {d}"),
        (Some(a), Some(d), _) => format!("BOTHDIE {a} {d}"),
        _ => "OK".to_owned(),
    }
}

impl From<UccError> for BotFailure {
    fn from(e: UccError) -> BotFailure {
        match e {
            UccError::Process(f) => f,
            UccError::WrongGame(_) => BotFailure::WrongGame,
            UccError::Garbage(line) => BotFailure::Garbage(line),
            UccError::Illegal { answer, reason } => BotFailure::IllegalAnswer { answer, reason },
            UccError::NoDecision => BotFailure::NoDecision,
            UccError::Surrendered => BotFailure::Resigned,
        }
    }
}

impl Opponent for UccBot {
    fn name(&self) -> String {
        format!("ucc:{}", self.config.argv.join(" "))
    }

    fn choose(
        &mut self,
        state: &dyn DynState,
        seat: PlayerId,
        _rng: &mut GameRng,
    ) -> Result<usize, EnvError> {
        let name = self.name();
        crate::referee::choose_typed(name, state, |typed| self.decide(typed, seat))
    }
}
