//! The stand-in for the PostgreSQL backend in a build without the
//! `postgres` feature: [`Shared`] has no value, so `Store::shared` is
//! always `None` and every multi-process path is skipped at no cost, with
//! the same types as the real backend.

use tokio::sync::mpsc::UnboundedReceiver;

use super::{Change, StoreResult};

/// What the processes on one PostgreSQL database share: nothing can be,
/// in a build without the `postgres` feature.
#[derive(Debug)]
pub enum Shared {}

impl Shared {
    /// Claims match `id` for this process (never called: no value exists).
    pub fn claim(&self, _id: i64) -> StoreResult<bool> {
        match *self {}
    }

    /// Releases one claim of match `id`.
    pub fn release(&self, _id: i64) -> StoreResult<()> {
        match *self {}
    }

    /// The unfinished matches where a bot is to decide.
    pub fn bots_due(&self) -> StoreResult<Vec<i64>> {
        match *self {}
    }

    /// The changes other processes commit.
    pub fn changes(&self) -> Option<UnboundedReceiver<Change>> {
        match *self {}
    }
}
