//! Time controls and the clocks the server keeps.
//!
//! A [`TimeControl`] is data: untimed, Fischer (a base time, and an
//! increment added after each move) or Bronstein (a base time, and after
//! each move the time it took given back up to the delay, so that a player
//! never gains time). Each game declares its standard control
//! ([`DynGame::standard_clock`], read by [`TimeControl::standard`]):
//! Stratego the ISF clock of Gravon's tournaments (12 minutes and a 4 s
//! Bronstein delay), the others a short Fischer clock.
//!
//! A [`Clock`] charges the seat to move from when its turn began. Its
//! instants are tokio's, so that tests run it on paused time
//! (`tokio::time::pause`) instead of sleeping for minutes. It is stored
//! with every write of the match ([`Clock::stored`]) with the wall time its
//! running seat started, so that a restart charges the time the server was
//! down to the seat that was to move rather than give it back.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use game_env::{DynGame, StandardClock};
use game_traits::PlayerId;
use serde::{Deserialize, Serialize};
use tokio::time::Instant;

/// The least base time of a control (shorter is not a game).
pub const MIN_BASE_MS: u64 = 1_000;
/// The most base time of a control (a match never waits longer per seat).
pub const MAX_BASE_MS: u64 = 10 * 3_600_000;
/// The most increment or delay per move.
pub const MAX_BONUS_MS: u64 = 60_000;

/// The reason stored with the forfeit of a seat whose flag fell.
pub const TIME: &str = "time";

/// How the time of a match is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TimeControl {
    /// No clock.
    #[serde(rename = "none")]
    Untimed,
    /// `base_ms` per seat, `increment_ms` added after each of its moves.
    Fischer {
        /// Time per seat at the start.
        base_ms: u64,
        /// Time added after each move.
        increment_ms: u64,
    },
    /// `base_ms` per seat; after each move, the time it took is given back
    /// up to `delay_ms`.
    Bronstein {
        /// Time per seat at the start.
        base_ms: u64,
        /// The most time given back after a move.
        delay_ms: u64,
    },
}

impl From<StandardClock> for TimeControl {
    fn from(clock: StandardClock) -> Self {
        match clock {
            StandardClock::Fischer {
                base_ms,
                increment_ms,
            } => TimeControl::Fischer {
                base_ms,
                increment_ms,
            },
            StandardClock::Bronstein { base_ms, delay_ms } => {
                TimeControl::Bronstein { base_ms, delay_ms }
            }
        }
    }
}

/// Why a time control is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ControlError {
    /// A base time below [`MIN_BASE_MS`] (zero included).
    #[error("time_control: base_ms {0} is below {MIN_BASE_MS} (one second)")]
    BaseTooShort(u64),
    /// A base time above [`MAX_BASE_MS`].
    #[error("time_control: base_ms {0} is above {MAX_BASE_MS} (ten hours)")]
    BaseTooLong(u64),
    /// An increment or delay above [`MAX_BONUS_MS`].
    #[error("time_control: an increment or delay of {0} ms is above {MAX_BONUS_MS} (one minute)")]
    BonusTooLong(u64),
}

/// A time control as a client asks for it: a control, or a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Asked {
    /// `"standard"` (the game's standard control) or `"none"`.
    Word(Word),
    /// A control given in full.
    Control(TimeControl),
}

/// The words a client may give for a control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Word {
    /// The game's standard control.
    Standard,
    /// Untimed.
    None,
}

impl Asked {
    /// The control asked for a match of `game`, checked.
    pub fn resolve(self, game: &dyn DynGame) -> Result<TimeControl, ControlError> {
        let control = match self {
            Asked::Word(Word::Standard) => TimeControl::standard(game),
            Asked::Word(Word::None) => TimeControl::Untimed,
            Asked::Control(c) => c,
        };
        control.check()?;
        Ok(control)
    }
}

impl TimeControl {
    /// The standard control of `game`, as the game declares it.
    pub fn standard(game: &dyn DynGame) -> TimeControl {
        game.standard_clock().into()
    }

    /// Whether a clock runs.
    pub fn timed(self) -> bool {
        self != TimeControl::Untimed
    }

    /// Each seat's time at the start (0 untimed).
    pub fn base_ms(self) -> u64 {
        match self {
            TimeControl::Untimed => 0,
            TimeControl::Fischer { base_ms, .. } | TimeControl::Bronstein { base_ms, .. } => {
                base_ms
            }
        }
    }

    /// Refuses a base of less than a second or more than ten hours, and an
    /// increment or delay of more than a minute.
    pub fn check(self) -> Result<(), ControlError> {
        let (base, bonus) = match self {
            TimeControl::Untimed => return Ok(()),
            TimeControl::Fischer {
                base_ms,
                increment_ms,
            } => (base_ms, increment_ms),
            TimeControl::Bronstein { base_ms, delay_ms } => (base_ms, delay_ms),
        };
        if base < MIN_BASE_MS {
            return Err(ControlError::BaseTooShort(base));
        }
        if base > MAX_BASE_MS {
            return Err(ControlError::BaseTooLong(base));
        }
        if bonus > MAX_BONUS_MS {
            return Err(ControlError::BonusTooLong(bonus));
        }
        Ok(())
    }

    /// What a move that took `spent_ms` gets back.
    fn bonus_ms(self, spent_ms: u64) -> u64 {
        match self {
            TimeControl::Untimed => 0,
            TimeControl::Fischer { increment_ms, .. } => increment_ms,
            TimeControl::Bronstein { delay_ms, .. } => spent_ms.min(delay_ms),
        }
    }
}

/// The clocks of a match: each seat's time left and the seat whose clock
/// runs, since when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    remaining_ms: [u64; 2],
    running: Option<(PlayerId, Instant)>,
}

/// A seat moved after its time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}'s time ran out")]
pub struct Flagged(pub PlayerId);

/// The clocks as a view carries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// The control.
    pub control: TimeControl,
    /// Each seat's time left now, in milliseconds.
    pub remaining_ms: [u64; 2],
    /// The seat whose clock runs (`null` when none does).
    pub running: Option<u8>,
}

/// The clocks as stored: the wall time the running seat started, in
/// milliseconds since 1970, instead of an instant of this process.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    control: TimeControl,
    remaining_ms: [u64; 2],
    running: Option<u8>,
    since_ms: u64,
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The wall time now, in milliseconds since 1970.
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, millis)
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::new(TimeControl::Untimed)
    }
}

impl Clock {
    /// Both seats at the control's base time, no clock running.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            remaining_ms: [control.base_ms(); 2],
            running: None,
        }
    }

    /// The control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Whether a seat's clock runs now.
    pub fn running(&self) -> bool {
        self.running.is_some()
    }

    /// `seat`'s time left at `now`.
    pub fn left_ms(&self, seat: PlayerId, now: Instant) -> u64 {
        let stored = self.remaining_ms[seat.index()];
        match self.running {
            Some((p, since)) if p == seat => stored.saturating_sub(millis(now - since)),
            _ => stored,
        }
    }

    /// The seat whose time ran out by `now`, if one did.
    pub fn flagged(&self, now: Instant) -> Option<PlayerId> {
        let (seat, _) = self.running?;
        (self.left_ms(seat, now) == 0).then_some(seat)
    }

    /// When the running seat's time runs out.
    pub fn deadline(&self) -> Option<Instant> {
        let (seat, since) = self.running?;
        Some(since + Duration::from_millis(self.remaining_ms[seat.index()]))
    }

    /// Runs `seat`'s clock from `now` (none for `None`, and none untimed);
    /// a clock running before is stopped without a bonus.
    pub fn start(&mut self, seat: Option<PlayerId>, now: Instant) {
        self.stop(now);
        if self.control.timed() {
            self.running = seat.map(|p| (p, now));
        }
    }

    /// Stops the running clock at `now`, charging its seat, no bonus.
    pub fn stop(&mut self, now: Instant) {
        if let Some((seat, _)) = self.running {
            self.remaining_ms[seat.index()] = self.left_ms(seat, now);
            self.running = None;
        }
    }

    /// Charges `seat`, which moved at `now`, the time since its turn began,
    /// and gives it the control's bonus; refused if its time ran out (its
    /// time is then zero). A seat whose clock does not run is not charged.
    pub fn charge(&mut self, seat: PlayerId, now: Instant) -> Result<(), Flagged> {
        let Some((p, since)) = self.running.filter(|(p, _)| *p == seat) else {
            return Ok(());
        };
        let spent = millis(now - since);
        let left = &mut self.remaining_ms[p.index()];
        self.running = None;
        if spent >= *left {
            *left = 0;
            return Err(Flagged(p));
        }
        *left = *left - spent + self.control.bonus_ms(spent);
        Ok(())
    }

    /// The clocks at `now` as a view carries them (`None` untimed).
    pub fn view(&self, now: Instant) -> Option<ClockView> {
        self.control.timed().then(|| ClockView {
            control: self.control,
            remaining_ms: PlayerId::BOTH.map(|p| self.left_ms(p, now)),
            running: self.running.map(|(p, _)| p.index() as u8),
        })
    }

    /// The clocks as stored at `now` (wall time `unix_ms`), `None` untimed.
    pub fn stored(&self, now: Instant, unix_ms: u64) -> Option<String> {
        if !self.control.timed() {
            return None;
        }
        let stored = Stored {
            control: self.control,
            remaining_ms: self.remaining_ms,
            running: self.running.map(|(p, _)| p.index() as u8),
            since_ms: self.running.map_or(unix_ms, |(_, since)| {
                unix_ms.saturating_sub(millis(now - since))
            }),
        };
        serde_json::to_string(&stored).ok()
    }

    /// The clocks stored as `text`, read at `now` (wall time `unix_ms`):
    /// the running seat has been charged since the wall time it started,
    /// restarts included. `None` if `text` is not a stored clock.
    pub fn from_stored(text: &str, now: Instant, unix_ms: u64) -> Option<Clock> {
        let s: Stored = serde_json::from_str(text).ok()?;
        s.control.check().ok()?;
        let mut clock = Clock {
            control: s.control,
            remaining_ms: s.remaining_ms,
            running: None,
        };
        if let Some(seat) = s.running.and_then(|i| PlayerId::from_index(usize::from(i))) {
            let spent = Duration::from_millis(unix_ms.saturating_sub(s.since_ms));
            match now.checked_sub(spent) {
                Some(since) => clock.running = Some((seat, since)),
                None => {
                    // An instant that far back does not exist in this
                    // process: the time is charged now, the delay's
                    // refund of it forgone.
                    let left = &mut clock.remaining_ms[seat.index()];
                    *left = left.saturating_sub(millis(spent));
                    clock.running = Some((seat, now));
                }
            }
        }
        Some(clock)
    }

    /// Marks `seat`'s flag fallen: no time left, no clock running.
    pub fn fall(&mut self, seat: PlayerId) {
        self.remaining_ms[seat.index()] = 0;
        self.running = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FISCHER: TimeControl = TimeControl::Fischer {
        base_ms: 60_000,
        increment_ms: 5_000,
    };
    const ISF: TimeControl = TimeControl::Bronstein {
        base_ms: 720_000,
        delay_ms: 4_000,
    };

    /// The standard control `spec` declares, through the registry.
    fn standard(spec: &str) -> TimeControl {
        TimeControl::standard(game_registry::registry().load(spec).unwrap().as_ref())
    }

    fn resolve(asked: Asked, spec: &str) -> Result<TimeControl, ControlError> {
        asked.resolve(game_registry::registry().load(spec).unwrap().as_ref())
    }

    fn after(start: Instant, ms: u64) -> Instant {
        start + Duration::from_millis(ms)
    }

    #[test]
    fn fischer_adds_the_increment_after_each_move() {
        let t0 = Instant::now();
        let mut clock = Clock::new(FISCHER);
        clock.start(Some(PlayerId::P0), t0);
        clock.charge(PlayerId::P0, after(t0, 10_000)).unwrap();
        assert_eq!(clock.left_ms(PlayerId::P0, after(t0, 99_000)), 55_000);
        assert_eq!(clock.left_ms(PlayerId::P1, t0), 60_000);
    }

    #[test]
    fn bronstein_gives_back_the_time_spent_up_to_the_delay() {
        let t0 = Instant::now();
        let mut clock = Clock::new(ISF);
        clock.start(Some(PlayerId::P1), t0);
        clock.charge(PlayerId::P1, after(t0, 3_000)).unwrap();
        assert_eq!(
            clock.left_ms(PlayerId::P1, t0),
            720_000,
            "a fast move costs nothing"
        );
        clock.start(Some(PlayerId::P1), t0);
        clock.charge(PlayerId::P1, after(t0, 10_000)).unwrap();
        assert_eq!(
            clock.left_ms(PlayerId::P1, t0),
            714_000,
            "never a gain beyond the delay"
        );
    }

    #[test]
    fn the_flag_falls_when_the_time_reaches_zero() {
        let t0 = Instant::now();
        let mut clock = Clock::new(ISF);
        clock.start(Some(PlayerId::P0), t0);
        assert_eq!(clock.deadline(), Some(after(t0, 720_000)));
        assert_eq!(clock.flagged(after(t0, 719_999)), None);
        assert_eq!(clock.flagged(after(t0, 720_000)), Some(PlayerId::P0));
        assert_eq!(
            clock.charge(PlayerId::P0, after(t0, 720_001)),
            Err(Flagged(PlayerId::P0)),
            "the delay does not save a move past the flag"
        );
        assert_eq!(clock.left_ms(PlayerId::P0, t0), 0);
    }

    #[test]
    fn only_the_running_seat_is_charged() {
        let t0 = Instant::now();
        let mut clock = Clock::new(FISCHER);
        clock.start(Some(PlayerId::P0), t0);
        clock.charge(PlayerId::P1, after(t0, 5_000)).unwrap();
        assert_eq!(clock.left_ms(PlayerId::P1, t0), 60_000);
        assert_eq!(clock.left_ms(PlayerId::P0, after(t0, 5_000)), 55_000);
        clock.stop(after(t0, 5_000));
        assert!(!clock.running());
        assert_eq!(
            clock.left_ms(PlayerId::P0, after(t0, 50_000)),
            55_000,
            "a stop gives no increment"
        );
    }

    #[test]
    fn an_untimed_clock_never_runs() {
        let t0 = Instant::now();
        let mut clock = Clock::default();
        clock.start(Some(PlayerId::P0), t0);
        assert!(!clock.running());
        assert_eq!(clock.view(t0), None);
        assert_eq!(clock.stored(t0, 0), None);
        assert_eq!(clock.charge(PlayerId::P0, after(t0, 1 << 40)), Ok(()));
    }

    #[test]
    fn nonsense_controls_are_refused() {
        let fischer = |base_ms, increment_ms| TimeControl::Fischer {
            base_ms,
            increment_ms,
        };
        assert_eq!(fischer(0, 0).check(), Err(ControlError::BaseTooShort(0)));
        assert_eq!(
            fischer(999, 0).check(),
            Err(ControlError::BaseTooShort(999))
        );
        assert_eq!(
            fischer(u64::MAX, 0).check(),
            Err(ControlError::BaseTooLong(u64::MAX))
        );
        assert_eq!(
            TimeControl::Bronstein {
                base_ms: 60_000,
                delay_ms: 3_600_000
            }
            .check(),
            Err(ControlError::BonusTooLong(3_600_000))
        );
        assert_eq!(fischer(1_000, 0).check(), Ok(()));
    }

    #[test]
    fn each_game_has_its_standard_control() {
        assert_eq!(standard("stratego(variant=classic)"), ISF);
        assert_eq!(
            standard("battleline(variant=default)"),
            TimeControl::Fischer {
                base_ms: 300_000,
                increment_ms: 5_000
            }
        );
        assert_eq!(
            standard("cardwar"),
            TimeControl::Fischer {
                base_ms: 300_000,
                increment_ms: 3_000
            }
        );
        assert_eq!(
            standard("kuhn_poker(variant=high)"),
            TimeControl::Fischer {
                base_ms: 60_000,
                increment_ms: 1_000
            }
        );
    }

    #[test]
    fn a_control_is_asked_by_word_or_in_full() {
        let asked = |v: serde_json::Value| serde_json::from_value::<Asked>(v).unwrap();
        assert_eq!(
            resolve(asked(serde_json::json!("standard")), "stratego"),
            Ok(ISF)
        );
        assert_eq!(
            resolve(asked(serde_json::json!("none")), "stratego"),
            Ok(TimeControl::Untimed)
        );
        assert_eq!(
            resolve(
                asked(serde_json::json!({"kind": "fischer", "base_ms": 2000, "increment_ms": 0})),
                "kuhn_poker"
            ),
            Ok(TimeControl::Fischer {
                base_ms: 2_000,
                increment_ms: 0
            })
        );
        assert_eq!(
            resolve(
                asked(serde_json::json!({"kind": "bronstein", "base_ms": 0, "delay_ms": 0})),
                "kuhn_poker"
            ),
            Err(ControlError::BaseTooShort(0))
        );
        assert!(serde_json::from_value::<Asked>(serde_json::json!("blitz")).is_err());
    }

    #[test]
    fn a_stored_clock_charges_the_time_the_server_was_down() {
        let t0 = Instant::now();
        let mut clock = Clock::new(FISCHER);
        clock.start(Some(PlayerId::P1), t0);
        let text = clock.stored(after(t0, 2_000), 1_000_000).unwrap();
        // Read back 30 s of wall time later: 2 s before the write, 28 s
        // down.
        let back = Clock::from_stored(&text, t0, 1_028_000).unwrap();
        assert_eq!(back.left_ms(PlayerId::P1, t0), 30_000);
        assert_eq!(back.left_ms(PlayerId::P0, t0), 60_000);
        assert_eq!(Clock::from_stored("{}", t0, 0), None);
    }
}
