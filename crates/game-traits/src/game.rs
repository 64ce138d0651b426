//! The [`Game`] trait: the one abstraction every rules engine implements.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use rand::Rng;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::player::{Outcome, PlayerId, Turn};
use crate::RuleSet;

/// A rules engine: the state of one game in progress, and everything a
/// generic driver (a bot, a trainer, a server) needs to play it knowing
/// nothing about the game.
///
/// A state is created from its [`Game::Rules`] by [`Game::new`]. Whose turn
/// it is comes from [`Game::turn`]: a player, a chance event, or the end.
/// Players choose among [`Game::legal_actions`]; at a chance event the
/// outcomes and their probabilities come from [`Game::chance_outcomes`], and
/// the chosen outcome is applied with the same [`Game::apply`] as a player's
/// action. So a whole game is one sequence of actions, which is what a
/// [`Record`](crate::Record) stores.
///
/// Hidden information lives only in the state; what a player may know is
/// his [`Game::Observation`], and [`Game::determinize`] builds a full state
/// from an observation alone.
///
/// Checked play is built on the unchecked one, as in shakmaty and
/// OpenSpiel: a game implements [`Game::check_action`] (why an action is
/// illegal, if it is) and [`Game::apply_unchecked`]; the provided
/// [`Game::apply`] runs the first and then the second, so a refused action
/// leaves the state untouched by construction.
///
/// # Contract
///
/// - `apply` of an action that [`Game::is_legal`] rejects returns an error
///   and leaves the state equal (`==`) to what it was.
/// - `is_legal(a)` agrees with `check_action(a).is_ok()` and with the
///   listed set, for every id of the action space.
/// - [`Ord`] on actions agrees with the order of [`RuleSet::action_id`].
/// - [`Game::action_view`] never tells a viewer apart two actions that
///   leave him with the same observation.
/// - `legal_actions` lists each action once, sorted by [`RuleSet::action_id`],
///   and is non-empty at every non-terminal turn.
/// - At a chance event, `legal_actions` lists exactly the outcomes of
///   `chance_outcomes`, each with a probability in (0, 1], summing to 1.
/// - `observation(p)` of `determinize(observation(p))` is `observation(p)`.
///
/// The conformance test-kit (`testkit` feature) checks all of this on many
/// random games.
pub trait Game:
    Clone + PartialEq + Debug + Display + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The rule set and its options ([`Default`] is the default rule set):
    /// the static half of the game, which says the action space and ids,
    /// the bounds of a game, the options as data and the presets.
    type Rules: RuleSet<Action = Self::Action>;
    /// A player's decision or a chance outcome. [`FromStr`] reads what
    /// [`Display`] writes (and the short forms a person types), with the
    /// game's own parse error.
    type Action: Copy
        + Eq
        + Ord
        + Hash
        + Debug
        + Display
        + FromStr<Err: std::error::Error + Send + Sync + 'static>
        + Serialize
        + DeserializeOwned
        + Send
        + Sync;
    /// What one player may know of the state; rendered by [`Display`].
    type Observation: Clone
        + PartialEq
        + Debug
        + Display
        + Serialize
        + DeserializeOwned
        + Send
        + Sync;
    /// Why an action, a rule set or an observation was refused.
    type Error: std::error::Error + Clone + PartialEq + Send + Sync + 'static;
    /// An action as one viewer perceives it: the whole action when he can
    /// know it, otherwise only what he sees of it ("P1 drew a tactics
    /// card", "P1 placed a piece"). What logs, replays and screens show.
    type ActionView: Clone + Eq + Debug + Display + Serialize + DeserializeOwned + Send + Sync;

    /// A short stable name of the game, used in records.
    const NAME: &'static str;
    /// The game's name as a person reads it ("Battle Line"): what every
    /// screen calls it, with its preset's [`Preset::title`](crate::Preset).
    const TITLE: &'static str;
    /// Whether anything is hidden (by default something is).
    const INFORMATION: crate::Information = crate::Information::Imperfect;

    /// The initial state of a game under `rules`, or an error when the rules
    /// are inconsistent.
    fn new(rules: &Self::Rules) -> Result<Self, Self::Error>;

    /// The rules this game is played under.
    fn rules(&self) -> &Self::Rules;

    /// Who acts now.
    fn turn(&self) -> Turn;

    /// Clears `out` and fills it with the legal actions at this turn, sorted
    /// by [`RuleSet::action_id`]. At a chance event these are the outcomes; at
    /// the end of the game the list is empty. Reusing `out` keeps the hot
    /// path free of allocation.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// A uniformly random legal action of the player to move, `None` when
    /// no player decides now: what random playouts, rollouts and batched
    /// environments draw. `legal` is scratch space. By default the list is
    /// written and one entry picked; games override it with a draw that
    /// does not write the list, uniform over exactly the listed actions
    /// (the kit checks it with a chi-square test).
    fn sample_legal<R: Rng + ?Sized>(
        &self,
        legal: &mut Vec<Self::Action>,
        rng: &mut R,
    ) -> Option<Self::Action> {
        if !matches!(self.turn(), Turn::Player(_)) {
            return None;
        }
        self.legal_actions(legal);
        if legal.is_empty() {
            return None;
        }
        Some(legal[crate::chance::uniform_index(legal.len(), rng)])
    }

    /// Writes the legal-action mask over the dense action space into
    /// `mask` (resized to [`RuleSet::action_space`]): 1 for each listed
    /// action's id, 0 elsewhere. `legal` is scratch space.
    fn legal_mask(&self, legal: &mut Vec<Self::Action>, mask: &mut [bool]) {
        mask.fill(false);
        self.legal_actions(legal);
        for &a in legal.iter() {
            if let Some(slot) = mask.get_mut(self.rules().action_id(a)) {
                *slot = true;
            }
        }
    }

    /// `Ok` when `action` may be applied now, otherwise the error saying
    /// why not (an illegal action with its reason). Decides one action
    /// without listing them all.
    fn check_action(&self, action: Self::Action) -> Result<(), Self::Error>;

    /// Whether `action` may be applied now; by default
    /// [`Game::check_action`] without its reason. Games override it only
    /// with something faster that agrees.
    fn is_legal(&self, action: Self::Action) -> bool {
        self.check_action(action).is_ok()
    }

    /// Applies a legal action or chance outcome; an illegal one returns the
    /// error of [`Game::check_action`] and leaves the state unchanged.
    /// Games do not override this.
    fn apply(&mut self, action: Self::Action) -> Result<(), Self::Error> {
        self.check_action(action)?;
        self.apply_unchecked(action);
        Ok(())
    }

    /// Applies an action already known to be legal (one just listed by
    /// [`Game::legal_actions`]), skipping the check: what search code calls
    /// on its hot path, and what a game implements. With an illegal action
    /// the state is unspecified but memory-safe, and no panic follows.
    fn apply_unchecked(&mut self, action: Self::Action);

    /// `action`, about to be applied to this state, as `viewer` perceives
    /// it. Computed before the action is applied, from what the viewer may
    /// know: two actions that leave him with the same observation give the
    /// same view.
    fn action_view(&self, viewer: PlayerId, action: Self::Action) -> Self::ActionView;

    /// An action told to `viewer` in words, with what it showed him:
    /// `view` is his [`Game::action_view`] of it, `before` and `after` his
    /// observations either side of it (a fight's result, a claim's proof).
    /// Reads only his observations, so it cannot tell him more than he may
    /// know. The default is the view's text.
    fn narrate(
        viewer: PlayerId,
        before: &Self::Observation,
        view: &Self::ActionView,
        after: &Self::Observation,
    ) -> String {
        let _ = (viewer, before, after);
        view.to_string()
    }

    /// Clears `out` and fills it with the outcomes of the chance event now
    /// due and their probabilities; empty when the turn is not
    /// [`Turn::Chance`].
    fn chance_outcomes(&self, out: &mut Vec<(Self::Action, f64)>);

    /// Draws one outcome of the chance event now due from `rng`, with the
    /// probabilities of [`Game::chance_outcomes`]; `None` when the turn is
    /// not a chance event. Games override it with a version that does not
    /// allocate.
    fn sample_chance<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Action> {
        let mut outcomes = Vec::new();
        self.chance_outcomes(&mut outcomes);
        crate::chance::sample_weighted(&outcomes, rng)
    }

    /// What `player` may know now: his own hidden information, everything
    /// public, and what he remembers (perfect recall).
    fn observation(&self, player: PlayerId) -> Self::Observation;

    /// A full state consistent with `observation`, the unseen part drawn from
    /// `rng`: what an information-set search plays on. Errors when the
    /// observation is inconsistent (for instance tampered with).
    fn determinize<R: Rng + ?Sized>(
        observation: &Self::Observation,
        rng: &mut R,
    ) -> Result<Self, Self::Error>;

    /// The result once the game has ended; `None` before.
    fn outcome(&self) -> Option<Outcome>;

    /// The return (score) of `player` at the end of the game; 0 before. By
    /// default +1 for the winner, -1 for the others, 0 for all in a draw.
    fn returns(&self, player: PlayerId) -> f64 {
        self.outcome().map_or(0.0, |o| o.win_loss_return(player))
    }

    /// Number of player decisions made so far (chance outcomes excluded).
    fn move_count(&self) -> u32;

    /// What a generic driver needs to know of the game under `rules`, as
    /// data (OpenSpiel's `GameType` and `GameInfo`).
    fn info(rules: &Self::Rules) -> crate::GameInfo {
        let (min_return, max_return) = rules.return_bounds();
        let returns_sum = rules.returns_sum();
        crate::GameInfo {
            name: Self::NAME,
            chance: rules.chance_mode(),
            information: Self::INFORMATION,
            utility: if returns_sum == 0.0 {
                crate::Utility::ZeroSum
            } else {
                crate::Utility::ConstantSum
            },
            players: 2,
            action_space: rules.action_space(),
            max_game_length: rules.max_game_length(),
            min_return,
            max_return,
            returns_sum,
        }
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.turn() == Turn::Terminal
    }
}
