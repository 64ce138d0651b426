//! Policies a server offers: the files of one directory its operator
//! chose, named by file name alone, so that a client can pick a policy but
//! never make the server read a path of its choosing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use game_env::DynGame;

use crate::bot::PolicyBot;
use crate::file::{PolicyError, PolicyFile, Trained};

/// The extension of the files a [`PolicyShelf`] offers.
pub const EXTENSION: &str = ".onnx";

/// The longest policy name accepted.
const MAX_NAME: usize = 100;

/// A loaded policy by file name and game specification, with the file's
/// modification time when it was read.
type Loaded = HashMap<(String, String), (Option<SystemTime>, Arc<PolicyFile>)>;

/// What each file says it was trained on (or why it is no policy), by
/// file name, with the file's modification time when it was read.
type Catalogue = HashMap<String, (Option<SystemTime>, Result<Trained, PolicyError>)>;

/// The policy files of one directory, each loaded once per game (again
/// when the file changes).
#[derive(Debug)]
pub struct PolicyShelf {
    dir: PathBuf,
    loaded: Mutex<Loaded>,
    catalogue: Mutex<Catalogue>,
}

impl PolicyShelf {
    /// The shelf of `dir`, which must be a directory.
    pub fn new(dir: PathBuf) -> Result<Self, PolicyError> {
        if !dir.is_dir() {
            return Err(PolicyError::Read {
                path: dir.display().to_string(),
                reason: "not a directory".into(),
            });
        }
        Ok(PolicyShelf {
            dir,
            loaded: Mutex::new(HashMap::new()),
            catalogue: Mutex::new(HashMap::new()),
        })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether `name` can name a policy of a shelf: a file name ending in
    /// [`EXTENSION`], of letters, digits, `-`, `_` and `.`, not starting
    /// with `.` (so never a path, a parent or a hidden file).
    pub fn check_name(name: &str) -> Result<(), PolicyError> {
        let fits = name.len() <= MAX_NAME
            && name.len() > EXTENSION.len()
            && name.ends_with(EXTENSION)
            && !name.starts_with('.')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if fits {
            Ok(())
        } else {
            Err(PolicyError::BadName(name.chars().take(MAX_NAME).collect()))
        }
    }

    /// The names of the shelf's policies, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().is_file())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| Self::check_name(n).is_ok())
            .collect();
        names.sort();
        names
    }

    /// Every policy file of the shelf, sorted by name, with what it was
    /// trained on or why it is not a policy that runs. Each file is read
    /// once, and again when it changes; `on_read` sees each reading, so
    /// that a caller reports a bad file once, not at every listing.
    pub fn catalogue(
        &self,
        mut on_read: impl FnMut(&str, &Result<Trained, PolicyError>),
    ) -> Vec<(String, Result<Trained, PolicyError>)> {
        let names = self.names();
        // A poisoned lock only means another reading panicked: the map
        // holds whole entries either way.
        let mut catalogue = self.catalogue.lock().unwrap_or_else(|e| e.into_inner());
        catalogue.retain(|name, _| names.contains(name));
        names
            .into_iter()
            .map(|name| {
                let path = self.dir.join(&name);
                let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
                let known = catalogue
                    .get(&name)
                    .filter(|(when, _)| *when == modified && modified.is_some());
                let trained = match known {
                    Some((_, trained)) => trained.clone(),
                    None => {
                        let trained = Trained::read(&path);
                        on_read(&name, &trained);
                        catalogue.insert(name.clone(), (modified, trained.clone()));
                        trained
                    }
                };
                (name, trained)
            })
            .collect()
    }

    /// The policy `name` for `game`, checked against it.
    pub fn load(&self, name: &str, game: &dyn DynGame) -> Result<Arc<PolicyFile>, PolicyError> {
        Self::check_name(name)?;
        let path = self.dir.join(name);
        let modified = match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => m.modified().ok(),
            _ => return Err(PolicyError::Unknown(name.to_owned())),
        };
        let key = (name.to_owned(), game.name().to_owned());
        // A poisoned lock only means another load panicked: the map holds
        // whole entries either way.
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((when, policy)) = loaded.get(&key) {
            if *when == modified && modified.is_some() {
                return Ok(policy.clone());
            }
        }
        let policy = Arc::new(PolicyFile::load(&path, game)?);
        loaded.insert(key, (modified, policy.clone()));
        Ok(policy)
    }

    /// The bot of the policy `name` for `game`, named `policy:NAME`.
    pub fn bot(&self, name: &str, game: &dyn DynGame) -> Result<PolicyBot, PolicyError> {
        let policy = self.load(name, game)?;
        Ok(PolicyBot::new(format!("policy:{name}"), policy))
    }
}
