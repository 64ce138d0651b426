//! The wire schema: what a client reads of a game (the browser page, a bot
//! program, Python, an HTTP client). Actions, action views and
//! observations go out as structured, versioned JSON, in the manner of
//! OpenSpiel's `ActionStruct` and `ObservationStruct`:
//!
//! - an action is a struct tagged by `"type"`
//!   (`{"type": "play", "card": "R7", "flag": 3}`), read back by
//!   [`Wire::action_from_struct`];
//! - cards and pieces are readable codes (`"R7"`, `"Fog"`, `"Scout"`), and
//!   sets of them are lists of codes, never the engine's bit sets (a
//!   128-bit set is no JSON number a browser can hold);
//! - every number fits in 2^53, so that every JSON reader keeps it exact.
//!
//! States and records keep their own serialisation (compact, and read back
//! by every version); the wire schema is only what clients read. Its JSON
//! Schema is derived from these types ([`schemars`]) and published beside
//! the server's OpenAPI file.

use std::fmt::Debug;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::{Game, PlayerId};

/// The wire schema's version: bumped on every change that a client could
/// notice (a field renamed or removed, a meaning changed).
pub const WIRE_VERSION: u32 = 1;

/// A code the wire sends (a card, a piece, a line) with its name as a
/// person reads it: a game declares its codes' names once
/// ([`Wire::glossary`]), and screens take them from there instead of
/// keeping tables of names of their own.
///
/// ```
/// use game_traits::Term;
///
/// let spy = Term::new("R9", "Spy", "piece").symbol("S").note("beats the Marshal when it attacks.");
/// assert_eq!(
///     serde_json::to_string(&spy).unwrap(),
///     r#"{"code":"R9","name":"Spy","group":"piece","symbol":"S","note":"beats the Marshal when it attacks."}"#
/// );
/// // A term with no symbol or note writes neither.
/// let red = Term::new("R7", "Red 7", "troop");
/// assert_eq!(serde_json::to_string(&red).unwrap(), r#"{"code":"R7","name":"Red 7","group":"troop"}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Term {
    /// The code as the wire writes it (Battle Line: `"R7"`, `"DA"`).
    pub code: String,
    /// Its name (`"Red 7"`, `"Darius"`).
    pub name: String,
    /// The group of codes it belongs to, for a screen that draws each
    /// group its own way (`"troop"`, `"tactic"`), and that keeps codes
    /// of different kinds apart (a piece's code and an action type's).
    pub group: &'static str,
    /// The short sign a board draws it by, where the game has one
    /// (Stratego: `"10"` for the Marshal of the international rules,
    /// `"Ma"` for the Czech Maršál); absent where it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// What it does, in one clause, where it does something its name
    /// does not tell (Stratego's Miner: `"the only piece that clears a
    /// Bomb."`); absent where it has nothing to add.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Term {
    /// `code` named `name` in `group`, with no symbol and no note.
    pub fn new(code: impl Into<String>, name: impl Into<String>, group: &'static str) -> Term {
        Term {
            code: code.into(),
            name: name.into(),
            group,
            symbol: None,
            note: None,
        }
    }

    /// The term with its short sign.
    #[must_use]
    pub fn symbol(mut self, symbol: impl Into<String>) -> Term {
        self.symbol = Some(symbol.into());
        self
    }

    /// The term with what it does.
    #[must_use]
    pub fn note(mut self, note: impl Into<String>) -> Term {
        self.note = Some(note.into());
        self
    }
}

/// A game's client-facing forms.
///
/// ```
/// use game_traits::kuhn::{KuhnAction, KuhnPoker, KuhnRules};
/// use game_traits::Wire;
///
/// let bet = KuhnPoker::action_struct(KuhnAction::Bet);
/// let json = serde_json::to_string(&bet).unwrap();
/// assert_eq!(json, r#"{"type":"bet"}"#);
/// let back = serde_json::from_str(&json).unwrap();
/// assert_eq!(KuhnPoker::action_from_struct(&KuhnRules::default(), &back), Some(KuhnAction::Bet));
/// ```
pub trait Wire: Game {
    /// An action as a struct tagged by `"type"`.
    type ActionStruct: Clone + Debug + PartialEq + Serialize + DeserializeOwned + JsonSchema;

    /// An action as one viewer perceives it (what [`Game::action_view`]
    /// gives), as a struct tagged by `"type"`.
    type ViewStruct: Clone + Debug + Serialize + JsonSchema;

    /// One player's observation as a record of named fields.
    type ObservationStruct: Clone + Debug + Serialize + JsonSchema;

    /// What an action did, as one viewer may know it, tagged by `"kind"`.
    type Event: crate::Event;

    /// The struct of `action`.
    fn action_struct(action: Self::Action) -> Self::ActionStruct;

    /// The action a struct names, if it is one of the action space under
    /// `rules` (a struct read from a client may name a card the rules do
    /// not have, or a flag out of range).
    fn action_from_struct(rules: &Self::Rules, action: &Self::ActionStruct)
        -> Option<Self::Action>;

    /// The struct of an action view.
    fn view_struct(view: &Self::ActionView) -> Self::ViewStruct;

    /// The struct of an observation.
    fn observation_struct(observation: &Self::Observation) -> Self::ObservationStruct;

    /// What the action `view` showed `viewer`, in order: `view` is his
    /// [`Game::action_view`] of it, `before` and `after` his observations
    /// either side of it (a fight's result, a claim's proof, the end of
    /// the game). Read from his observations only, so two states he
    /// cannot tell apart give him the same events.
    fn events(
        viewer: PlayerId,
        before: &Self::Observation,
        view: &Self::ActionView,
        after: &Self::Observation,
    ) -> Vec<Self::Event>;

    /// What shows the viewer of `observation` why `action` is refused now,
    /// beyond the engine's reason ([`Game::check_action`]), as events read
    /// from his observation alone (Battle Line: a refused claim's
    /// counterexample, the cards still to come that would beat it). Empty,
    /// the default, when the game has nothing to add.
    fn refusal(observation: &Self::Observation, action: Self::Action) -> Vec<Self::Event> {
        let _ = (observation, action);
        Vec::new()
    }

    /// The names of the codes the wire sends under `rules`, for screens
    /// that draw them (Battle Line: every card; Stratego: every piece of
    /// the rule set, whose names, signs and powers differ between rule
    /// sets). Empty, the default, for a game whose codes are their own
    /// names. Each (group, code) pair is named once.
    fn glossary(rules: &Self::Rules) -> Vec<Term> {
        let _ = rules;
        Vec::new()
    }
}

/// [`Game::narrate`] worded from [`Wire::events`], for the games that
/// have them: the one wording of a step, whichever screen shows it.
pub fn narrate_events<G: Wire>(
    viewer: PlayerId,
    before: &G::Observation,
    view: &G::ActionView,
    after: &G::Observation,
) -> String {
    crate::tell_all(&G::events(viewer, before, view, after), Some(viewer))
}

/// The largest integer every JSON reader keeps exact (a double's 53-bit
/// mantissa): the kit checks that no wire value exceeds it.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;
