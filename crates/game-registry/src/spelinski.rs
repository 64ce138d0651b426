//! A referee for the Battle Line protocol of spelinski/BoardGameAIEngine
//! (`battleline/doc/CommunicationSpec.txt` there), so bots written for it
//! play our troops-only Battle Line (`battleline(variant=troops_only)`,
//! [`battleline_core::Rules::troops_only`]) in the arena.
//!
//! The protocol is plain text lines over the bot's standard input and
//! output. Once, at the first decision:
//!
//! ```text
//! > player north name              (north is seat 0, south seat 1)
//! < player north MyBot             (anything else: the name PlayerNorth)
//! > colors RED ORANGE YELLOW GREEN BLUE PURPLE
//! ```
//!
//! and before each card the bot plays:
//!
//! ```text
//! > player north hand RED,3 BLUE,10 ...          (the bot's hand)
//! > flag claim-status unclaimed north ... (9)    (each flag, left to right)
//! > flag 1 cards north RED,3 RED,4               (per flag 1..9, each side)
//! > flag 1 cards south
//! > ...
//! > opponent play 4 GREEN,7                      (when the opponent played)
//! > go play-card
//! < play 2 RED,5
//! ```
//!
//! What the referee decides on the bot's behalf, because the protocol has
//! no message for it:
//!
//! - **Claims.** The protocol's own engine claims flags itself after every
//!   card. Here, after the bot's card, the referee claims every flag the
//!   proof allows (each legal `claim` action of our engine, one after
//!   another), then draws from the troop deck (or ends the turn when it is
//!   empty). Under `claim_timing=start-of-turn` the claims come first.
//! - **Passing.** When no card of the hand can be played (all its flags
//!   full or claimed, or an empty hand) the referee passes without asking.
//!
//! What is sent comes only from the seat's observation (its hand, the
//! table, the claims) and the opponent's card is found as the difference
//! between two of the seat's observations. Where the reference server would
//! play a random card for an illegal answer, this referee follows the
//! arena's rule for every bot: a bot that answers garbage, an illegal play,
//! or nothing within its time limit (or exits) forfeits, and the
//! `SpelinskiError` says why.

use std::time::Duration;

use battleline_core::{Action, BattleLine, Card, CardKind, CardSet, Colour, FlagId, Phase};
use game_env::{BotFailure, BotProcess, DynState, EnvError, Opponent};
use game_traits::{Game, GameRng, PlayerId, Turn};

/// The prefix of these bots' names: `spelinski:PROGRAM ARGS`.
pub const PREFIX: &str = "spelinski";

/// The colour names sent in `colors`, in our colour order (Red, Orange,
/// Yellow, Green, Blue, Purple), as the reference server spells them.
pub const COLOURS: [&str; 6] = ["RED", "ORANGE", "YELLOW", "GREEN", "BLUE", "PURPLE"];

/// How to start a bot of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpelinskiConfig {
    /// The program and its arguments (no shell).
    pub argv: Vec<String>,
    /// How long the bot may take for one answer (its name, or a card).
    pub time_limit: Duration,
}

/// Why a bot of the protocol forfeits, or could not play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpelinskiError {
    /// The program failed as any bot program can: it could not be started,
    /// did not answer in time, exited, or its input could not be written.
    #[error(transparent)]
    Process(#[from] BotFailure),
    /// The game is not troops-only Battle Line.
    #[error("the spelinski protocol plays troops-only Battle Line, not {0}")]
    WrongGame(String),
    /// The answer is not `play <1-9> <color>,<number>`.
    #[error("unreadable answer {0:?}: expected play <1-9> <color>,<number>")]
    Garbage(String),
    /// A card not in the hand, or a flag that cannot take it.
    #[error("illegal play {answer:?}: {reason}")]
    Illegal {
        /// The bot's answer.
        answer: String,
        /// Why it is illegal.
        reason: String,
    },
    /// Nobody decides now, or the referee has nothing to do.
    #[error("no decision for this seat now")]
    NoDecision,
}

/// A bot program of the spelinski protocol; an [`Opponent`] for
/// troops-only Battle Line.
pub struct SpelinskiBot {
    config: SpelinskiConfig,
    process: BotProcess,
    seat: Option<PlayerId>,
    name: Option<String>,
    /// The opponent's cards on the table at this seat's last decision.
    opponent_cards: CardSet,
    /// Every line sent and received, for tests and post-mortems.
    transcript: Vec<String>,
}

/// `Ok` for the rules the protocol's bots play: troops-only Battle Line
/// (any other option is the referee's to carry).
pub fn plays(rules: &battleline_core::Rules) -> Result<(), String> {
    if rules.tactics {
        return Err("its bots play battleline(variant=troops_only), without tactics cards".into());
    }
    Ok(())
}

impl SpelinskiBot {
    /// Starts the program of `config` (its standard error is inherited).
    pub fn spawn(config: SpelinskiConfig) -> Result<SpelinskiBot, BotFailure> {
        let process = BotProcess::spawn(&config.argv)?;
        Ok(SpelinskiBot {
            config,
            process,
            seat: None,
            name: None,
            opponent_cards: CardSet::EMPTY,
            transcript: Vec::new(),
        })
    }

    /// The name the bot gave (`PlayerNorth`/`PlayerSouth` if it gave none
    /// readable), once the game started.
    pub fn bot_name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Every line sent (`> `) and received (`< `) so far.
    pub fn transcript(&self) -> &[String] {
        &self.transcript
    }

    fn send(&mut self, line: &str) -> Result<(), SpelinskiError> {
        self.process.send(line.as_bytes())?;
        self.transcript.push(format!("> {line}"));
        Ok(())
    }

    fn receive(&mut self) -> Result<String, SpelinskiError> {
        let line = self.process.receive(self.config.time_limit)?;
        self.transcript.push(format!("< {line}"));
        Ok(line)
    }

    fn handshake(&mut self, seat: PlayerId) -> Result<(), SpelinskiError> {
        let dir = direction(seat);
        self.send(&format!("player {dir} name"))?;
        let answer = self.receive()?;
        let words: Vec<&str> = answer.split_whitespace().collect();
        // The spec: any other answer keeps the default name.
        self.name = Some(match words.as_slice() {
            ["player", d, name, ..] if *d == dir => (*name).to_owned(),
            _ if seat == PlayerId::P0 => "PlayerNorth".to_owned(),
            _ => "PlayerSouth".to_owned(),
        });
        self.send(&format!("colors {}", COLOURS.join(" ")))
    }

    /// `seat`'s next action in `state`: a claim, a draw or a pass decided
    /// by the referee, or the card the bot plays.
    pub fn decide(&mut self, state: &BattleLine, seat: PlayerId) -> Result<Action, SpelinskiError> {
        if state.rules().tactics {
            return Err(SpelinskiError::WrongGame(
                "Battle Line with tactics cards".into(),
            ));
        }
        if state.turn() != Turn::Player(seat) {
            return Err(SpelinskiError::NoDecision);
        }
        if self.seat.is_none() {
            self.seat = Some(seat);
            self.handshake(seat)?;
        }
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let obs = state.observation(seat);
        let theirs = opponent_cards(&obs, seat);
        let new_cards = theirs.difference(self.opponent_cards);
        self.opponent_cards = theirs;
        // Claims first, every one the proof allows.
        if let Some(&claim) = legal.iter().find(|a| matches!(a, Action::Claim(_))) {
            return Ok(claim);
        }
        match obs.table().phase() {
            Phase::Play => {}
            _ => {
                return [Action::Draw(battleline_core::Deck::Troop), Action::EndTurn]
                    .into_iter()
                    .find(|a| legal.contains(a))
                    .ok_or(SpelinskiError::NoDecision)
            }
        }
        if !legal.iter().any(|a| matches!(a, Action::Play { .. })) {
            return legal
                .contains(&Action::Pass)
                .then_some(Action::Pass)
                .ok_or(SpelinskiError::NoDecision);
        }
        let dir = direction(seat);
        let hand: Vec<String> = obs.hand().iter().map(card_text).collect();
        self.send(format!("player {dir} hand {}", hand.join(" ")).trim_end())?;
        let claims: Vec<&str> = obs
            .table()
            .flags()
            .iter()
            .map(|f| f.claimed().map_or("unclaimed", direction))
            .collect();
        self.send(&format!("flag claim-status {}", claims.join(" ")))?;
        for (i, flag) in obs.table().flags().iter().enumerate() {
            for p in PlayerId::all() {
                let cards: Vec<String> = flag.side(p).iter().map(card_text).collect();
                let line = format!("flag {} cards {} {}", i + 1, direction(p), cards.join(" "));
                self.send(line.trim_end())?;
            }
        }
        // At most one card is new: the opponent's one turn since this seat's
        // last decision (none if he passed).
        for card in new_cards.iter() {
            let flag = obs
                .table()
                .flags()
                .iter()
                .position(|f| f.side(seat.other()).contains(card))
                .unwrap_or(0);
            self.send(&format!("opponent play {} {}", flag + 1, card_text(card)))?;
        }
        self.send("go play-card")?;
        let answer = self.receive()?;
        let action = parse_play(&answer)?;
        match state.check_action(action) {
            Ok(()) => Ok(action),
            Err(e) => Err(SpelinskiError::Illegal {
                answer,
                reason: e.to_string(),
            }),
        }
    }
}

fn direction(p: PlayerId) -> &'static str {
    match p {
        PlayerId::P0 => "north",
        PlayerId::P1 => "south",
    }
}

fn opponent_cards(obs: &battleline_core::Observation, seat: PlayerId) -> CardSet {
    obs.table().flags().iter().fold(CardSet::EMPTY, |acc, f| {
        acc.union(f.side(seat.other()).cards())
    })
}

/// A troop card as the protocol writes it: `COLOR,number`.
pub fn card_text(card: Card) -> String {
    match card.kind() {
        CardKind::Troop(colour, value) => format!("{},{value}", COLOURS[colour.index() as usize]),
        CardKind::Tactic(t) => format!("{t:?}"),
    }
}

/// Reads `play <1-9> <color>,<number>` (colour names as sent, any case).
pub fn parse_play(line: &str) -> Result<Action, SpelinskiError> {
    let garbage = || SpelinskiError::Garbage(line.chars().take(200).collect());
    let words: Vec<&str> = line.split_whitespace().collect();
    let ["play", flag, card] = words.as_slice() else {
        return Err(garbage());
    };
    let flag = flag
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(FlagId::new)
        .ok_or_else(garbage)?;
    let (colour, value) = card.split_once(',').ok_or_else(garbage)?;
    let colour = COLOURS
        .iter()
        .position(|c| c.eq_ignore_ascii_case(colour))
        .map(|i| Colour::ALL[i])
        .ok_or_else(garbage)?;
    let card = value
        .parse::<u8>()
        .ok()
        .and_then(|v| Card::troop(colour, v))
        .ok_or_else(garbage)?;
    Ok(Action::Play { card, flag })
}

impl From<SpelinskiError> for BotFailure {
    fn from(e: SpelinskiError) -> BotFailure {
        match e {
            SpelinskiError::Process(f) => f,
            SpelinskiError::WrongGame(_) => BotFailure::WrongGame,
            SpelinskiError::Garbage(line) => BotFailure::Garbage(line),
            SpelinskiError::Illegal { answer, reason } => {
                BotFailure::IllegalAnswer { answer, reason }
            }
            SpelinskiError::NoDecision => BotFailure::NoDecision,
        }
    }
}

impl Opponent for SpelinskiBot {
    fn name(&self) -> String {
        format!("spelinski:{}", self.config.argv.join(" "))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_parse_and_garbage_is_refused() {
        let a = parse_play("play 2 red,5").unwrap();
        assert_eq!(
            a,
            Action::Play {
                card: Card::troop(Colour::Red, 5).unwrap(),
                flag: FlagId::new(1).unwrap()
            }
        );
        assert_eq!(
            card_text(Card::troop(Colour::Purple, 10).unwrap()),
            "PURPLE,10"
        );
        for bad in [
            "",
            "play",
            "play 0 RED,5",
            "play 10 RED,5",
            "play 1 RED,11",
            "play 1 PINK,3",
            "play 1 RED5",
            "no moves",
            "play 1 RED,5 extra",
        ] {
            assert!(
                matches!(parse_play(bad), Err(SpelinskiError::Garbage(_))),
                "{bad:?}"
            );
        }
    }
}
