//! Where a batched step writes: one row per game in caller-owned buffers
//! ([`StepOutput`]), and owned buffers to lend it ([`StepBuffers`]).

use crate::dynamic::DynState;
use crate::EnvError;

/// A cell of a legal-action mask: `bool` (Rust's own) or `i8` (what
/// Gymnasium's `Discrete.sample(mask)` and PettingZoo's masked games take,
/// so Python reads it without a conversion).
pub trait MaskCell: Copy + Send + Sync + Default + 'static {
    /// Writes `state`'s legal mask into `row`, through `scratch` where the
    /// engine's own `bool` mask needs converting.
    fn write(
        state: &mut dyn DynState,
        row: &mut [Self],
        scratch: &mut Vec<bool>,
    ) -> Result<(), EnvError>;

    /// Whether the cell says legal.
    fn is_legal(self) -> bool;
}

impl MaskCell for bool {
    fn write(
        state: &mut dyn DynState,
        row: &mut [bool],
        _: &mut Vec<bool>,
    ) -> Result<(), EnvError> {
        state.write_mask_mut(row)
    }

    fn is_legal(self) -> bool {
        self
    }
}

impl MaskCell for i8 {
    fn write(
        state: &mut dyn DynState,
        row: &mut [i8],
        scratch: &mut Vec<bool>,
    ) -> Result<(), EnvError> {
        scratch.clear();
        scratch.resize(row.len(), false);
        state.write_mask_mut(scratch)?;
        for (cell, &legal) in row.iter_mut().zip(scratch.iter()) {
            *cell = i8::from(legal);
        }
        Ok(())
    }

    fn is_legal(self) -> bool {
        self != 0
    }
}

/// Where one step's results go: one row per game, rows contiguous. Every
/// buffer but `rewards`, `terminated`, `truncated` and `to_move` is
/// optional (an empty slice skips it).
pub struct StepOutput<'a, M: MaskCell = bool> {
    /// `games x tensor size`: the tensor of the player to move, or empty.
    /// Rows are updated in place from what the environment last wrote in
    /// them: a caller that writes into them calls
    /// [`BatchEnv::forget_observations`](crate::BatchEnv::forget_observations)
    /// before the next call.
    pub observations: &'a mut [f32],
    /// `games x action space`: the legal mask of the player to move, or
    /// empty.
    pub masks: &'a mut [M],
    /// `games x 2`: each seat's reward from this step (its return when the
    /// episode ended in it, else 0).
    pub rewards: &'a mut [f32],
    /// `games`: the episode ended by the rules in this step.
    pub terminated: &'a mut [bool],
    /// `games`: the episode was cut by `max_steps` in this step.
    pub truncated: &'a mut [bool],
    /// `games`: the seat to move now (0 or 1).
    pub to_move: &'a mut [u8],
    /// `games x 2 x tensor size`: where an episode ended in this step, both
    /// seats' tensors of its last state (the row of `observations` holds
    /// the next episode's already), for bootstrapping values on
    /// truncation; other rows are left as they were. Or empty.
    pub final_observations: &'a mut [f32],
    /// `games x 2`: where an episode ended in this step, both seats'
    /// returns over it; 0 elsewhere. Or empty.
    pub episode_returns: &'a mut [f32],
    /// `games`: where an episode ended in this step, its number of steps
    /// (decisions given to `step`); 0 elsewhere. Or empty.
    pub episode_lengths: &'a mut [u32],
}

/// Buffers owned by the caller's side for a batch, reused every step.
#[derive(Clone, Debug, Default)]
pub struct StepBuffers {
    /// See [`StepOutput::observations`].
    pub observations: Vec<f32>,
    /// See [`StepOutput::masks`].
    pub masks: Vec<bool>,
    /// See [`StepOutput::rewards`].
    pub rewards: Vec<f32>,
    /// See [`StepOutput::terminated`].
    pub terminated: Vec<bool>,
    /// See [`StepOutput::truncated`].
    pub truncated: Vec<bool>,
    /// See [`StepOutput::to_move`].
    pub to_move: Vec<u8>,
    /// See [`StepOutput::final_observations`].
    pub final_observations: Vec<f32>,
    /// See [`StepOutput::episode_returns`].
    pub episode_returns: Vec<f32>,
    /// See [`StepOutput::episode_lengths`].
    pub episode_lengths: Vec<u32>,
}

impl StepBuffers {
    /// Buffers for `games` games of a batch whose tensors hold `tensor`
    /// values and whose action space is `space`, with or without tensors
    /// (final ones included) and masks; the episode statistics always.
    pub fn sized(games: usize, tensor: usize, space: usize, tensors: bool, masks: bool) -> Self {
        StepBuffers {
            observations: vec![0.0; if tensors { games * tensor } else { 0 }],
            masks: vec![false; if masks { games * space } else { 0 }],
            rewards: vec![0.0; 2 * games],
            terminated: vec![false; games],
            truncated: vec![false; games],
            to_move: vec![0; games],
            final_observations: vec![0.0; if tensors { 2 * games * tensor } else { 0 }],
            episode_returns: vec![0.0; 2 * games],
            episode_lengths: vec![0; games],
        }
    }

    /// The buffers as a [`StepOutput`].
    pub fn output(&mut self) -> StepOutput<'_> {
        StepOutput {
            observations: &mut self.observations,
            masks: &mut self.masks,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            to_move: &mut self.to_move,
            final_observations: &mut self.final_observations,
            episode_returns: &mut self.episode_returns,
            episode_lengths: &mut self.episode_lengths,
        }
    }
}

fn cut<T>(s: &mut [T], at: usize) -> (&mut [T], &mut [T]) {
    let at = at.min(s.len());
    s.split_at_mut(at)
}

impl<'a, M: MaskCell> StepOutput<'a, M> {
    /// The same buffers, borrowed for a shorter while.
    pub fn reborrow(&mut self) -> StepOutput<'_, M> {
        StepOutput {
            observations: self.observations,
            masks: self.masks,
            rewards: self.rewards,
            terminated: self.terminated,
            truncated: self.truncated,
            to_move: self.to_move,
            final_observations: self.final_observations,
            episode_returns: self.episode_returns,
            episode_lengths: self.episode_lengths,
        }
    }

    /// The first `games` rows and the rest.
    pub(crate) fn split_at(self, games: usize, tensor: usize, space: usize) -> (Self, Self) {
        let (o1, o2) = cut(self.observations, games * tensor);
        let (m1, m2) = cut(self.masks, games * space);
        let (r1, r2) = cut(self.rewards, games * 2);
        let (t1, t2) = cut(self.terminated, games);
        let (u1, u2) = cut(self.truncated, games);
        let (p1, p2) = cut(self.to_move, games);
        let (f1, f2) = cut(self.final_observations, games * 2 * tensor);
        let (e1, e2) = cut(self.episode_returns, games * 2);
        let (l1, l2) = cut(self.episode_lengths, games);
        (
            StepOutput {
                observations: o1,
                masks: m1,
                rewards: r1,
                terminated: t1,
                truncated: u1,
                to_move: p1,
                final_observations: f1,
                episode_returns: e1,
                episode_lengths: l1,
            },
            StepOutput {
                observations: o2,
                masks: m2,
                rewards: r2,
                terminated: t2,
                truncated: u2,
                to_move: p2,
                final_observations: f2,
                episode_returns: e2,
                episode_lengths: l2,
            },
        )
    }
}
