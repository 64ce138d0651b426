//! The policy file: an ONNX graph from a seat's observation tensor to logits
//! over the game's action ids, whose metadata names what it was trained on.
//! A file is checked against the game it is to play before it plays, so a
//! network never reads another game's or another rule set's tensors.
//!
//! Metadata (ONNX `metadata_props`), all required:
//!
//! | key | value |
//! | --- | --- |
//! | `tabletop.format` | [`FORMAT`] |
//! | `tabletop.game` | the engine's name (`GameInfo::name`: `cardwar`) |
//! | `tabletop.spec` | the specification it was trained under (`cardwar(variant=default)`), for messages |
//! | `tabletop.rules` | the rules as JSON (`DynGame::rules_json`) |
//! | `tabletop.observation` | `{"size": N, "planes": [{"name", "offset", "length"}, ...]}` |
//! | `tabletop.actions` | the action space |
//!
//! The graph has one input, `batch x size` `f32`, and its first output is
//! `batch x actions` logits. `python/examples/selfplay.py --onnx` writes it.

use std::path::Path;
use std::sync::Arc;

use game_env::DynGame;
use serde::Deserialize;
use tract_onnx::pb::ModelProto;
use tract_onnx::prelude::*;

/// The value of `tabletop.format` this loader reads.
pub const FORMAT: &str = "tabletop-policy/1";

/// Files larger than this are refused before they are read: a policy for
/// these games is a few megabytes, and a server reads operator files only.
pub const MAX_FILE: u64 = 256 << 20;

/// Why a policy file cannot play a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// The file could not be read.
    #[error("cannot read {path}: {reason}")]
    Read {
        /// The file.
        path: String,
        /// The system's reason.
        reason: String,
    },
    /// Not an ONNX model (truncated, corrupt, another kind of file).
    #[error("not an ONNX model: {0}")]
    Corrupt(String),
    /// An ONNX model without the metadata of a policy file.
    #[error("not a policy file: no {0} in its metadata")]
    NotAPolicy(&'static str),
    /// A metadata value that does not read.
    #[error("bad {key} in the policy file: {reason}")]
    BadMetadata {
        /// The key.
        key: &'static str,
        /// Why it does not read.
        reason: String,
    },
    /// A policy file of another version of the format.
    #[error("policy file format {found:?}; this player reads {FORMAT:?}")]
    Format {
        /// The file's `tabletop.format`.
        found: String,
    },
    /// Trained on another game.
    #[error("the policy was trained on {trained}, not {table}")]
    WrongGame {
        /// The file's game.
        trained: String,
        /// The game it was asked to play.
        table: String,
    },
    /// Trained on the same game under other rules.
    #[error("the policy was trained under {trained}, not {table}: the rules differ")]
    WrongRules {
        /// The file's specification.
        trained: String,
        /// The specification of the game it was asked to play.
        table: String,
    },
    /// The observation tensor or the action space it was trained on is not
    /// this game's (an engine whose encoding changed since).
    #[error("the policy expects {trained}, the game gives {table}")]
    WrongShape {
        /// What the file expects.
        trained: String,
        /// What the game gives.
        table: String,
    },
    /// A policy name that is not a plain file name of a shelf.
    #[error("bad policy name {0:?}: a file name ending in .onnx, of letters, digits, -, _ and .")]
    BadName(String),
    /// No policy of that name on the shelf.
    #[error("no policy {0:?} on this server")]
    Unknown(String),
    /// The graph cannot run, or does not map an observation to one logit
    /// per action id.
    #[error("the policy's network cannot run: {0}")]
    Network(String),
}

/// What a policy file says it was trained on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trained {
    /// The engine's name (`cardwar`).
    pub game: String,
    /// The specification it was trained under.
    pub spec: String,
    /// The rules as JSON.
    pub rules: String,
    /// The observation tensor's size.
    pub size: usize,
    /// The observation's planes: name, offset, length.
    pub planes: Vec<(String, usize, usize)>,
    /// The action space.
    pub actions: usize,
}

#[derive(Deserialize)]
struct ObservationMeta {
    size: usize,
    planes: Vec<PlaneMeta>,
}

#[derive(Deserialize)]
struct PlaneMeta {
    name: String,
    offset: usize,
    length: usize,
}

/// A policy file checked against one game, its network ready to run.
#[derive(Debug)]
pub struct PolicyFile {
    trained: Trained,
    plan: Arc<TypedRunnableModel>,
}

impl PolicyFile {
    /// Reads the policy at `path` for `game`.
    pub fn load(path: &Path, game: &dyn DynGame) -> Result<Self, PolicyError> {
        Self::from_bytes(&read_bytes(path)?, game)
    }

    /// Reads a policy file's bytes for `game`.
    pub fn from_bytes(bytes: &[u8], game: &dyn DynGame) -> Result<Self, PolicyError> {
        let (proto, trained) = parse(bytes)?;
        trained.check(game)?;
        let plan = network(&proto, trained.size, trained.actions)?;
        Ok(PolicyFile { trained, plan })
    }

    /// What the file says it was trained on.
    pub fn trained(&self) -> &Trained {
        &self.trained
    }

    /// The logits of one observation tensor (the layout's size), one per
    /// action id.
    pub fn logits(&self, observation: &[f32]) -> Result<Vec<f32>, PolicyError> {
        let input = Tensor::from_shape(&[1, observation.len()], observation)
            .map_err(|e| PolicyError::Network(e.to_string()))?;
        let outputs = self
            .plan
            .run(tvec!(input.into()))
            .map_err(|e| PolicyError::Network(e.to_string()))?;
        let first = outputs
            .first()
            .ok_or_else(|| PolicyError::Network("no output".into()))?;
        let logits = first
            .to_plain_array_view::<f32>()
            .map_err(|e| PolicyError::Network(e.to_string()))?;
        Ok(logits.iter().copied().collect())
    }
}

impl Trained {
    /// What the policy file at `path` says it was trained on, once it
    /// reads as a policy whose network runs; checked against no game
    /// ([`Trained::check`] does that for each game it may play).
    pub fn read(path: &Path) -> Result<Trained, PolicyError> {
        let (proto, trained) = parse(&read_bytes(path)?)?;
        network(&proto, trained.size, trained.actions)?;
        Ok(trained)
    }

    fn from_proto(proto: &ModelProto) -> Result<Self, PolicyError> {
        let get = |key: &'static str| {
            proto
                .metadata_props
                .iter()
                .find(|p| p.key == key)
                .map(|p| p.value.as_str())
                .ok_or(PolicyError::NotAPolicy(key))
        };
        let format = get("tabletop.format")?;
        if format != FORMAT {
            return Err(PolicyError::Format {
                found: format.chars().take(60).collect(),
            });
        }
        let observation: ObservationMeta = serde_json::from_str(get("tabletop.observation")?)
            .map_err(|e| PolicyError::BadMetadata {
                key: "tabletop.observation",
                reason: e.to_string(),
            })?;
        let actions = get("tabletop.actions")?
            .parse()
            .map_err(|e: std::num::ParseIntError| PolicyError::BadMetadata {
                key: "tabletop.actions",
                reason: e.to_string(),
            })?;
        Ok(Trained {
            game: get("tabletop.game")?.to_owned(),
            spec: get("tabletop.spec")?.to_owned(),
            rules: get("tabletop.rules")?.to_owned(),
            size: observation.size,
            planes: observation
                .planes
                .into_iter()
                .map(|p| (p.name, p.offset, p.length))
                .collect(),
            actions,
        })
    }

    /// `Ok` if a network trained so reads `game`'s tensors and ids.
    pub fn check(&self, game: &dyn DynGame) -> Result<(), PolicyError> {
        let info = game.info();
        if self.game != info.name {
            return Err(PolicyError::WrongGame {
                trained: self.game.clone(),
                table: info.name.to_owned(),
            });
        }
        // Compared as values: the same rules whatever the key order.
        let rules = |json: &str| serde_json::from_str::<serde_json::Value>(json).ok();
        if rules(&self.rules).is_none() || rules(&self.rules) != rules(game.rules_json()) {
            return Err(PolicyError::WrongRules {
                trained: self.spec.clone(),
                table: game.name().to_owned(),
            });
        }
        let layout = game.layout();
        let planes: Vec<(String, usize, usize)> = layout
            .planes
            .iter()
            .map(|p| (p.name.clone(), p.offset, p.len))
            .collect();
        if self.size != layout.size() || self.planes != planes {
            return Err(PolicyError::WrongShape {
                trained: format!(
                    "an observation of {} values in {} planes",
                    self.size,
                    self.planes.len()
                ),
                table: format!("{} values in {} planes", layout.size(), planes.len()),
            });
        }
        if self.actions != info.action_space {
            return Err(PolicyError::WrongShape {
                trained: format!("{} action ids", self.actions),
                table: format!("{} action ids", info.action_space),
            });
        }
        Ok(())
    }
}

/// The bytes of the file at `path`, refused above [`MAX_FILE`] before
/// they are read.
fn read_bytes(path: &Path) -> Result<Vec<u8>, PolicyError> {
    let read_error = |e: std::io::Error| PolicyError::Read {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    let len = std::fs::metadata(path).map_err(read_error)?.len();
    if len > MAX_FILE {
        return Err(PolicyError::Read {
            path: path.display().to_string(),
            reason: format!("{len} bytes, above the limit of {MAX_FILE}"),
        });
    }
    std::fs::read(path).map_err(read_error)
}

/// The ONNX model of a policy file's bytes and what its metadata says.
fn parse(bytes: &[u8]) -> Result<(ModelProto, Trained), PolicyError> {
    let mut reader = bytes;
    let proto = tract_onnx::onnx()
        .proto_model_for_read(&mut reader)
        .map_err(|e| PolicyError::Corrupt(e.to_string()))?;
    let trained = Trained::from_proto(&proto)?;
    Ok((proto, trained))
}

/// The graph of `proto` made to run on one observation of `size` values,
/// checked to give `actions` logits.
fn network(
    proto: &ModelProto,
    size: usize,
    actions: usize,
) -> Result<Arc<TypedRunnableModel>, PolicyError> {
    let refused = |e: TractError| PolicyError::Network(e.to_string());
    let model = tract_onnx::onnx()
        .model_for_proto_model(proto)
        .map_err(refused)?;
    if model.inputs.len() != 1 || model.outputs.is_empty() {
        return Err(PolicyError::Network(format!(
            "{} inputs and {} outputs; expected one input and the logits first",
            model.inputs.len(),
            model.outputs.len()
        )));
    }
    let plan = model
        .with_input_fact(0, f32::fact([1, size]).into())
        .and_then(|m| m.into_optimized())
        .and_then(|m| m.into_runnable())
        .map_err(refused)?;
    let shape = plan
        .model()
        .output_fact(0)
        .map_err(refused)?
        .shape
        .as_concrete()
        .map(<[usize]>::to_vec);
    if shape.as_deref() != Some(&[1, actions][..]) {
        return Err(PolicyError::Network(format!(
            "its output is {shape:?} for one observation, not [1, {actions}]"
        )));
    }
    Ok(plan)
}
