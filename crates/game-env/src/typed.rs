//! [`Typed`]: a typed state of game `G` as a [`DynState`], with the scratch
//! list its hot path reuses.

use std::any::Any;
use std::fmt;

use game_traits::{Encode, Game, GameRng, Outcome, PlayerId, Turn, Wire};
use serde_json::Value;

use crate::dynamic::{DynState, LegalAction, Told};
use crate::typed_game::{action_of, legal_action, to_json, to_value};
use crate::{EnvError, WrittenRow};
use game_traits::RuleSet;

/// A typed state with the scratch buffers its integer calls reuse, so that
/// stepping it allocates nothing.
#[derive(Clone)]
pub struct Typed<G: Game> {
    state: G,
    legal: Vec<G::Action>,
    tensor_size: usize,
}

impl<G: Game + Encode> Typed<G> {
    /// Wraps `state`.
    pub fn new(state: G) -> Self {
        Typed {
            tensor_size: G::tensor_layout(state.rules()).size(),
            state,
            legal: Vec::new(),
        }
    }

    /// The typed state.
    pub fn state(&self) -> &G {
        &self.state
    }

    /// The typed state, mutably.
    pub fn state_mut(&mut self) -> &mut G {
        &mut self.state
    }
}

/// What a tensor row of game `G` holds: the observation it was last
/// written from, kept to be observed over, and the game's own record.
struct Kept<G: Encode> {
    observation: Option<G::Observation>,
    written: G::Written,
}

impl<G: Encode> Default for Kept<G> {
    fn default() -> Self {
        Kept {
            observation: None,
            written: G::Written::default(),
        }
    }
}

impl<G: Game> fmt::Display for Typed<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.state, f)
    }
}

impl<G> DynState for Typed<G>
where
    G: Game + Encode + Wire,
{
    fn turn(&self) -> Turn {
        self.state.turn()
    }

    fn legal_ids(&self, out: &mut Vec<usize>) {
        let mut legal = Vec::new();
        self.state.legal_actions(&mut legal);
        let rules = self.state.rules();
        out.clear();
        out.extend(legal.iter().map(|&a| rules.action_id(a)));
    }

    fn legal_actions(&self) -> Vec<LegalAction> {
        let mut legal = Vec::new();
        self.state.legal_actions(&mut legal);
        let rules = self.state.rules();
        legal.iter().map(|&a| legal_action::<G>(rules, a)).collect()
    }

    fn write_mask(&self, mask: &mut [bool]) -> Result<(), EnvError> {
        check_mask::<G>(self.state.rules(), mask)?;
        self.state.legal_mask(&mut Vec::new(), mask);
        Ok(())
    }

    fn write_mask_mut(&mut self, mask: &mut [bool]) -> Result<(), EnvError> {
        check_mask::<G>(self.state.rules(), mask)?;
        self.state.legal_mask(&mut self.legal, mask);
        Ok(())
    }

    fn chance_outcomes(&self, out: &mut Vec<(usize, f64)>) {
        let mut outcomes = Vec::new();
        self.state.chance_outcomes(&mut outcomes);
        let rules = self.state.rules();
        out.clear();
        out.extend(outcomes.iter().map(|&(a, p)| (rules.action_id(a), p)));
    }

    fn apply_id(&mut self, id: usize) -> Result<(), EnvError> {
        let action = action_of::<G>(self.state.rules(), id)?;
        self.state
            .apply(action)
            .map_err(|e| illegal::<G>(id, action, &e))
    }

    fn sample_chance_id(&self, rng: &mut GameRng) -> Option<usize> {
        let a = self.state.sample_chance(rng)?;
        Some(self.state.rules().action_id(a))
    }

    fn sample_legal_id(&self, rng: &mut GameRng) -> Option<usize> {
        let a = self.state.sample_legal(&mut Vec::new(), rng)?;
        Some(self.state.rules().action_id(a))
    }

    fn play_chance(&mut self, rng: &mut GameRng) -> u32 {
        let mut played = 0;
        while self.state.turn() == Turn::Chance {
            match self.state.sample_chance(rng) {
                Some(a) => self.state.apply_unchecked(a),
                None => break,
            }
            played += 1;
        }
        played
    }

    fn encode(&self, player: PlayerId, out: &mut [f32]) -> Result<(), EnvError> {
        let size = self.tensor_size;
        if out.len() != size {
            return Err(EnvError::BufferSize {
                name: "observation",
                given: out.len(),
                expected: size,
            });
        }
        G::encode(&self.state.observation(player), out);
        Ok(())
    }

    fn encode_update(
        &self,
        player: PlayerId,
        out: &mut [f32],
        row: &mut WrittenRow,
    ) -> Result<(), EnvError> {
        let size = self.tensor_size;
        if out.len() != size {
            return Err(EnvError::BufferSize {
                name: "observation",
                given: out.len(),
                expected: size,
            });
        }
        row.with(|kept: &mut Kept<G>| {
            let observation = match kept.observation.as_mut() {
                Some(o) => {
                    self.state.observe_into(player, o);
                    o
                }
                None => kept.observation.insert(self.state.observation(player)),
            };
            G::encode_update(observation, &mut kept.written, out);
        });
        Ok(())
    }

    fn information_state_string(&self, player: PlayerId) -> String {
        G::information_state_string(&self.state.observation(player))
    }

    fn observation_json(&self, player: PlayerId) -> Result<String, EnvError> {
        to_json(&self.state.observation(player))
    }

    fn observation_struct(&self, player: PlayerId) -> Result<Value, EnvError> {
        to_value(&G::observation_struct(&self.state.observation(player)))
    }

    fn observation_text(&self, player: PlayerId) -> String {
        self.state.observation(player).to_string()
    }

    fn action_view(&self, viewer: PlayerId, id: usize) -> Result<String, EnvError> {
        let action = action_of::<G>(self.state.rules(), id)?;
        Ok(self.state.action_view(viewer, action).to_string())
    }

    fn view_struct(&self, viewer: PlayerId, id: usize) -> Result<Value, EnvError> {
        let action = action_of::<G>(self.state.rules(), id)?;
        to_value(&G::view_struct(&self.state.action_view(viewer, action)))
    }

    fn action_struct(&self, id: usize) -> Result<Value, EnvError> {
        to_value(&G::action_struct(action_of::<G>(self.state.rules(), id)?))
    }

    fn action_text(&self, id: usize) -> Result<String, EnvError> {
        action_of::<G>(self.state.rules(), id).map(|a| a.to_string())
    }

    fn narrate(&self, viewer: PlayerId, id: usize) -> Result<String, EnvError> {
        let action = action_of::<G>(self.state.rules(), id)?;
        let view = self.state.action_view(viewer, action);
        let before = self.state.observation(viewer);
        let mut after = self.state.clone();
        after
            .apply(action)
            .map_err(|e| illegal::<G>(id, action, &e))?;
        Ok(G::narrate(
            viewer,
            &before,
            &view,
            &after.observation(viewer),
        ))
    }

    fn told(&self, viewer: Option<PlayerId>, id: usize) -> Result<Option<Told>, EnvError> {
        let action = action_of::<G>(self.state.rules(), id)?;
        let mut after = self.state.clone();
        after
            .apply(action)
            .map_err(|e| illegal::<G>(id, action, &e))?;
        let events_of = |seat: PlayerId| {
            G::events(
                seat,
                &self.state.observation(seat),
                &self.state.action_view(seat, action),
                &after.observation(seat),
            )
        };
        let events = match viewer {
            Some(seat) => events_of(seat),
            None => {
                let both = PlayerId::BOTH.map(events_of);
                let [first, second] = both;
                if first != second {
                    return Ok(None);
                }
                first
            }
        };
        told_of(&events, viewer)
            .map(Some)
            .map_err(|e| EnvError::Internal(format!("serialising events: {e}")))
    }

    fn explain_refusal(&self, viewer: PlayerId, id: usize) -> Option<Told> {
        let action = action_of::<G>(self.state.rules(), id).ok()?;
        let events = G::refusal(&self.state.observation(viewer), action);
        if events.is_empty() {
            return None;
        }
        told_of(&events, Some(viewer)).ok()
    }

    fn check_id(&self, id: usize) -> Result<(), EnvError> {
        let action = action_of::<G>(self.state.rules(), id)?;
        self.state
            .check_action(action)
            .map_err(|e| illegal::<G>(id, action, &e))
    }

    fn returns(&self) -> [f64; 2] {
        PlayerId::BOTH.map(|p| self.state.returns(p))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    fn move_count(&self) -> u32 {
        self.state.move_count()
    }

    fn to_json(&self) -> Result<String, EnvError> {
        to_json(&self.state)
    }

    fn resample(&self, player: PlayerId, rng: &mut GameRng) -> Result<Box<dyn DynState>, EnvError> {
        let det = G::determinize(&self.state.observation(player), rng)
            .map_err(|e| EnvError::InvalidObservation(e.to_string()))?;
        Ok(Box::new(Typed::new(det)))
    }

    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

fn check_mask<G: Game>(rules: &G::Rules, mask: &[bool]) -> Result<(), EnvError> {
    let space = rules.action_space();
    if mask.len() == space {
        Ok(())
    } else {
        Err(EnvError::BufferSize {
            name: "mask",
            given: mask.len(),
            expected: space,
        })
    }
}

/// The engine's refusal of `action` as the environment's error, its reason
/// kept apart from the action.
fn illegal<G: Game>(id: usize, action: G::Action, error: &G::Error) -> EnvError {
    let action = action.to_string();
    let message = error.to_string();
    // Every game's refusal reads "illegal action ACTION: REASON" (the
    // workspace's error vocabulary): the action has its own field here.
    let reason = message
        .strip_prefix("illegal action ")
        .and_then(|rest| rest.strip_prefix(action.as_str()))
        .and_then(|rest| rest.strip_prefix(": "))
        .map_or_else(|| message.clone(), str::to_owned);
    EnvError::IllegalAction { id, action, reason }
}

/// `events` with their words as `viewer` reads them.
fn told_of<E: game_traits::Event>(
    events: &[E],
    viewer: Option<PlayerId>,
) -> Result<Told, serde_json::Error> {
    Ok(Told {
        events: serde_json::value::to_raw_value(events)?,
        text: game_traits::tell_all(events, viewer),
    })
}
