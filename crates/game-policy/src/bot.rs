//! A trained policy in a seat: it encodes the seat's observation, runs the
//! network and plays the legal action with the highest logit.

use std::sync::Arc;

use game_env::{BotFailure, DynState, EnvError, Opponent};
use game_traits::{GameRng, PlayerId};

use crate::file::PolicyFile;

/// An [`Opponent`] that plays a [`PolicyFile`] greedily: the legal action
/// with the highest logit (the lowest id among equals), so the same
/// observation always gets the same action. Masked: only the legal ids are
/// ranked, whatever the network gives the others.
pub struct PolicyBot {
    name: String,
    policy: Arc<PolicyFile>,
    observation: Vec<f32>,
    legal: Vec<usize>,
}

impl PolicyBot {
    /// The bot of `policy`, named `name` in logs and results
    /// (`policy:cardwar.onnx`).
    pub fn new(name: String, policy: Arc<PolicyFile>) -> Self {
        let size = policy.trained().size;
        PolicyBot {
            name,
            policy,
            observation: vec![0.0; size],
            legal: Vec::new(),
        }
    }
}

impl Opponent for PolicyBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &mut self,
        state: &dyn DynState,
        seat: PlayerId,
        _rng: &mut GameRng,
    ) -> Result<usize, EnvError> {
        state.legal_ids(&mut self.legal);
        if self.legal.is_empty() {
            return Err(EnvError::NoDecision);
        }
        // The file was checked against the game, not against this state:
        // a state of another game shows here as a tensor of another size.
        state
            .encode(seat, &mut self.observation)
            .map_err(|_| EnvError::Bot {
                bot: self.name.clone(),
                failure: BotFailure::WrongGame,
            })?;
        let logits = self
            .policy
            .logits(&self.observation)
            .map_err(|e| EnvError::Internal(format!("{}: {e}", self.name)))?;
        let mut best: Option<(usize, f32)> = None;
        for &id in &self.legal {
            let logit = logits.get(id).copied().ok_or_else(|| EnvError::Bot {
                bot: self.name.clone(),
                failure: BotFailure::WrongGame,
            })?;
            if best.is_none_or(|(_, b)| logit.total_cmp(&b).is_gt()) {
                best = Some((id, logit));
            }
        }
        best.map(|(id, _)| id).ok_or(EnvError::NoDecision)
    }
}
