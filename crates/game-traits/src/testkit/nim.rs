//! Nim, the smallest game that is not in the workspace: one heap of stones,
//! each player in turn takes one to a few, and who takes the last wins.
//! Tests register it beside the real games to show that a game joins every
//! screen and tool by its own declarations ([`Game::TITLE`],
//! [`Preset::title`], its tensor layout), with no table elsewhere to edit.
//!
//! ```
//! use game_traits::testkit::{check_game_with, nim::Nim, KitConfig};
//! // Nothing is hidden in Nim.
//! let config = KitConfig { hidden_information: false, ..KitConfig::default() };
//! check_game_with::<Nim>(&Default::default(), &config);
//! ```

use std::fmt;

use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{
    ChanceMode, Encode, Game, GameError, Information, Outcome, PlayerId, Preset, RuleSet,
    TensorLayout, Turn, Wire,
};

/// A heap and how much a move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NimRules {
    /// Stones at the start.
    pub heap: u8,
    /// Most stones one move takes.
    pub max_take: u8,
}

impl Default for NimRules {
    fn default() -> Self {
        NimRules {
            heap: 15,
            max_take: 3,
        }
    }
}

/// Taking this many stones (one to [`NimRules::max_take`]).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub struct Take(pub u8);

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "take {}", self.0)
    }
}

/// Text that is no move of Nim.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a move of Nim: expected take N")]
pub struct NimParseError(pub String);

impl std::str::FromStr for Take {
    type Err = NimParseError;

    fn from_str(s: &str) -> Result<Take, NimParseError> {
        let n = s.trim().trim_start_matches("take").trim();
        n.parse().map(Take).map_err(|_| NimParseError(s.to_owned()))
    }
}

/// Nim's errors.
pub type NimError = GameError<Take>;

/// A game of Nim: the whole state is public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawNim")]
pub struct Nim {
    rules: NimRules,
    /// Stones left.
    left: u8,
    /// Moves made.
    moves: u32,
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} stones left after {} moves", self.left, self.moves)
    }
}

/// A state as read, before it is checked to be one a game reaches.
#[derive(Deserialize)]
struct RawNim {
    rules: NimRules,
    left: u8,
    moves: u32,
}

impl TryFrom<RawNim> for Nim {
    type Error = NimError;

    fn try_from(raw: RawNim) -> Result<Nim, NimError> {
        raw.rules.validate()?;
        let taken = u32::from(raw.rules.heap).checked_sub(u32::from(raw.left));
        let reached = taken.is_some_and(|t| {
            t >= raw.moves && u64::from(t) <= u64::from(raw.moves) * u64::from(raw.rules.max_take)
        });
        if !reached {
            return Err(GameError::InvalidState("no game of these rules reaches it"));
        }
        Ok(Nim {
            rules: raw.rules,
            left: raw.left,
            moves: raw.moves,
        })
    }
}

impl Nim {
    fn mover(&self) -> PlayerId {
        PlayerId::BOTH[(self.moves % 2) as usize]
    }
}

impl RuleSet for NimRules {
    type Action = Take;
    type Error = NimError;

    fn validate(&self) -> Result<(), NimError> {
        if !(1..=100).contains(&self.heap) || !(1..=9).contains(&self.max_take) {
            return Err(GameError::InvalidRules("heap 1..=100, max_take 1..=9"));
        }
        Ok(())
    }

    fn action_space(&self) -> usize {
        usize::from(self.max_take)
    }

    fn action_id(&self, action: Take) -> usize {
        usize::from(action.0).saturating_sub(1)
    }

    fn action_from_id(&self, id: usize) -> Option<Take> {
        (id < self.action_space())
            .then(|| u8::try_from(id + 1).ok().map(Take))
            .flatten()
    }

    fn is_chance_outcome(&self, _: Take) -> bool {
        false
    }

    fn max_game_length(&self) -> u32 {
        u32::from(self.heap)
    }

    fn chance_mode(&self) -> ChanceMode {
        ChanceMode::Deterministic
    }

    fn presets() -> Vec<Preset<Self>> {
        vec![
            Preset::new(
                "fifteen",
                "Fifteen stones",
                "Fifteen stones, one to three a move; who takes the last wins.",
                "the classic subtraction game",
                NimRules::default(),
            ),
            Preset::new(
                "long",
                "Long heap",
                "Forty stones, one to five a move.",
                "a longer heap",
                NimRules {
                    heap: 40,
                    max_take: 5,
                },
            ),
        ]
    }

    crate::parameter_table! {
        heap: Int { min: 1, max: 100 }, "stones at the start (1..=100)";
        max_take: Int { min: 1, max: 9 }, "most stones a move takes (1..=9)";
    }
}

impl Game for Nim {
    type Rules = NimRules;
    type Action = Take;
    type Observation = Nim;
    type Error = NimError;
    type ActionView = Take;

    const NAME: &'static str = "nim";
    const TITLE: &'static str = "Nim";
    const INFORMATION: Information = Information::Perfect;

    fn new(rules: &NimRules) -> Result<Self, NimError> {
        rules.validate()?;
        Ok(Nim {
            rules: *rules,
            left: rules.heap,
            moves: 0,
        })
    }

    fn rules(&self) -> &NimRules {
        &self.rules
    }

    fn turn(&self) -> Turn {
        if self.left == 0 {
            Turn::Terminal
        } else {
            Turn::Player(self.mover())
        }
    }

    fn legal_actions(&self, out: &mut Vec<Take>) {
        out.clear();
        if self.turn() != Turn::Terminal {
            out.extend((1..=self.left.min(self.rules.max_take)).map(Take));
        }
    }

    fn check_action(&self, action: Take) -> Result<(), NimError> {
        let n = action.0;
        let reason = if self.turn() == Turn::Terminal {
            "the game is over"
        } else if n < 1 || n > self.rules.max_take {
            "a move takes one to max_take stones"
        } else if n > self.left {
            "not that many stones are left"
        } else {
            return Ok(());
        };
        Err(GameError::IllegalAction { action, reason })
    }

    fn apply_unchecked(&mut self, action: Take) {
        self.left = self.left.saturating_sub(action.0);
        self.moves = self.moves.saturating_add(1);
    }

    fn action_view(&self, _: PlayerId, action: Take) -> Take {
        action
    }

    fn narrate(viewer: PlayerId, before: &Nim, view: &Take, after: &Nim) -> String {
        crate::narrate_events::<Self>(viewer, before, view, after)
    }

    fn chance_outcomes(&self, out: &mut Vec<(Take, f64)>) {
        out.clear();
    }

    fn observation(&self, _: PlayerId) -> Nim {
        self.clone()
    }

    fn determinize<R: Rng + ?Sized>(obs: &Nim, _: &mut R) -> Result<Self, NimError> {
        Ok(obs.clone())
    }

    fn outcome(&self) -> Option<Outcome> {
        // Who took the last stone moved last: the other is to move.
        (self.turn() == Turn::Terminal).then(|| Outcome::Win(self.mover().other()))
    }

    fn move_count(&self) -> u32 {
        self.moves
    }
}

/// The tensor: the stones left, one-hot, and the seat to move.
impl Encode for Nim {
    fn tensor_layout(rules: &NimRules) -> TensorLayout {
        let heap = usize::from(rules.heap) + 1;
        TensorLayout::of_parts(&[("left", heap), ("to_move", 2)])
    }

    type Written = ();

    fn encode(obs: &Nim, out: &mut [f32]) {
        out.fill(0.0);
        let heap = usize::from(obs.rules.heap) + 1;
        if let Some(slot) = out.get_mut(usize::from(obs.left)) {
            *slot = 1.0;
        }
        if let Some(slot) = out.get_mut(heap + obs.mover().index()) {
            *slot = 1.0;
        }
    }

    fn information_state_string(obs: &Nim) -> String {
        format!("{} left, {} to move", obs.left, obs.mover())
    }
}

/// Nim's observation on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct NimObservation {
    /// Stones left.
    pub left: u8,
    /// Most stones a move takes.
    pub max_take: u8,
    /// The seat to move.
    pub to_move: PlayerId,
}

/// What a move of Nim did: `player` took `stones`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NimEvent {
    /// `player` took some stones.
    Took {
        /// Who moved.
        player: PlayerId,
        /// The move.
        take: Take,
    },
}

impl crate::Event for NimEvent {
    fn tell(&self, _viewer: Option<PlayerId>) -> String {
        let NimEvent::Took { player, take } = self;
        format!("{player}: {take}")
    }
}

impl Wire for Nim {
    type ActionStruct = Take;
    type ViewStruct = Take;
    type ObservationStruct = NimObservation;
    type Event = NimEvent;

    fn action_struct(action: Take) -> Take {
        action
    }

    fn action_from_struct(_: &NimRules, action: &Take) -> Option<Take> {
        Some(*action)
    }

    fn view_struct(view: &Take) -> Take {
        *view
    }

    fn observation_struct(obs: &Nim) -> NimObservation {
        NimObservation {
            left: obs.left,
            max_take: obs.rules.max_take,
            to_move: obs.mover(),
        }
    }

    fn events(_: PlayerId, before: &Nim, view: &Take, _: &Nim) -> Vec<NimEvent> {
        vec![NimEvent::Took {
            player: before.mover(),
            take: *view,
        }]
    }
}
