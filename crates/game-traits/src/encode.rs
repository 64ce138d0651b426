//! Fixed-shape encodings of an observation, for learning code: a tensor of
//! `f32` and a compact information-state string.
//!
//! Both are computed from a player's [`Game::Observation`] alone, never
//! from the state, so they can hold nothing the player may not know.

use serde::{Deserialize, Serialize};

use crate::Game;

/// One named part of an observation tensor: `len` consecutive values from
/// `offset` in the flattened tensor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plane {
    /// What the values mean, e.g. `own_scout` or `hand_troops`.
    pub name: String,
    /// Index of the first value in the flattened tensor.
    pub offset: usize,
    /// Number of values.
    pub len: usize,
    /// The stack of like planes this one belongs to and its real shape
    /// (each of Stratego's board planes is a `board` plane of 10 x 10),
    /// for learning code that wants more than a flat run of values
    /// (`tabletop.spaces` in Python); `None` for a run of plain features.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<Stack>,
}

/// What a [`Plane`] is one of: the planes of a stack share a meaning and
/// a real shape, and stack into `[planes, dims...]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stack {
    /// The stack's name, e.g. `board`.
    pub name: String,
    /// One plane's shape, row-major; its product is the plane's length.
    pub dims: Vec<usize>,
}

/// The shape of an observation tensor and what each part holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensorLayout {
    /// The tensor's shape, row-major (e.g. `[planes, 10, 10]`).
    pub shape: Vec<usize>,
    /// The named parts, in order, covering the flattened tensor exactly.
    pub planes: Vec<Plane>,
}

impl TensorLayout {
    /// Number of values in the flattened tensor.
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// A layout of `planes` of `plane_len` values each, shaped
    /// `[planes.len(), dims...]` where `dims` multiply to `plane_len`.
    pub fn of_planes(names: &[&str], dims: &[usize]) -> Self {
        let len: usize = dims.iter().product();
        let mut shape = vec![names.len()];
        shape.extend_from_slice(dims);
        TensorLayout {
            shape,
            planes: names
                .iter()
                .enumerate()
                .map(|(i, n)| Plane {
                    name: (*n).to_owned(),
                    offset: i * len,
                    len,
                    stack: None,
                })
                .collect(),
        }
    }

    /// A flat layout made of named parts of the given lengths, shaped
    /// `[total]`.
    pub fn of_parts(parts: &[(&str, usize)]) -> Self {
        let mut offset = 0;
        let planes = parts
            .iter()
            .map(|&(name, len)| {
                let plane = Plane {
                    name: name.to_owned(),
                    offset,
                    len,
                    stack: None,
                };
                offset += len;
                plane
            })
            .collect();
        TensorLayout {
            shape: vec![offset],
            planes,
        }
    }

    /// The layout with each plane whose length is that of one of
    /// `stacks`' shapes (the first that fits) marked as a plane of that
    /// stack: a game declares here what its planes are, once.
    ///
    /// ```
    /// use game_traits::TensorLayout;
    ///
    /// let layout = TensorLayout::of_parts(&[("mine", 100), ("theirs", 100), ("turn", 1)])
    ///     .stacked(&[("board", &[10, 10])]);
    /// let stacks: Vec<_> = layout.planes.iter().map(|p| p.stack.as_ref().map(|s| &s.name[..])).collect();
    /// assert_eq!(stacks, [Some("board"), Some("board"), None]);
    /// ```
    pub fn stacked(mut self, stacks: &[(&str, &[usize])]) -> Self {
        for plane in &mut self.planes {
            plane.stack = stacks
                .iter()
                .find(|(_, dims)| dims.iter().product::<usize>() == plane.len)
                .map(|&(name, dims)| Stack {
                    name: name.to_owned(),
                    dims: dims.to_vec(),
                });
        }
        self
    }

    /// The part named `name`.
    pub fn plane(&self, name: &str) -> Option<&Plane> {
        self.planes.iter().find(|p| p.name == name)
    }
}

/// A game whose observations have a fixed-shape tensor and a one-line
/// information-state string (OpenSpiel's `ObservationTensor` and
/// `InformationStateString`).
///
/// # Contract
///
/// - [`Encode::encode`] writes exactly [`TensorLayout::size`] finite values
///   and depends only on the observation.
/// - Two different observations give different strings; equal ones equal
///   strings (the string is stable across versions of the same rules).
pub trait Encode: Game {
    /// The tensor's shape and named parts under `rules`.
    fn tensor_layout(rules: &Self::Rules) -> TensorLayout;

    /// Writes the tensor of `observation` into `out`, whose length is the
    /// layout's size (a shorter or longer slice is filled as far as both
    /// go; nothing panics).
    fn encode(observation: &Self::Observation, out: &mut [f32]);

    /// A compact one-line text that names `observation` exactly.
    fn information_state_string(observation: &Self::Observation) -> String;

    /// What a tensor rewritten in place by [`Encode::encode_update`] holds,
    /// as far as the game needs to know it to write only what changed. Its
    /// [`Default`] knows nothing: the next update writes every value.
    type Written: Default + Send + Sync + 'static;

    /// Makes `out` the tensor of `observation`, exactly the values of
    /// [`Encode::encode`], given that `out` holds what the last update with
    /// `written` left in it (anything, when `written` is new). A batch that
    /// writes each game's tensor every step into the same row writes only
    /// what the step changed. The default writes the whole tensor.
    fn encode_update(
        observation: &Self::Observation,
        written: &mut Self::Written,
        out: &mut [f32],
    ) {
        let _ = written;
        Self::encode(observation, out);
    }

    /// `player`'s observation ([`Game::observation`]) written over `into`, an
    /// observation of this game, reusing its storage: a batch observes every
    /// step without allocating. The default makes a new one.
    fn observe_into(&self, player: crate::PlayerId, into: &mut Self::Observation) {
        *into = self.observation(player);
    }
}
