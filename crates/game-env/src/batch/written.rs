//! What a row of a batch's observation buffer holds, kept beside it so
//! that each step writes only what changed there.

use std::any::Any;

/// The record, kept by whoever owns a tensor row, of what the game last
/// wrote in it ([`game_traits::Encode::Written`], with the observation it
/// was written from); empty until the first write, and after
/// [`WrittenRow::forget`], when the next write fills the whole row.
#[derive(Default)]
pub struct WrittenRow(Option<Box<dyn Any + Send + Sync>>);

impl WrittenRow {
    /// Forgets what the row holds: the next write fills all of it (for a
    /// row that someone else wrote into, or another buffer).
    pub fn forget(&mut self) {
        self.0 = None;
    }

    /// Runs `f` on the record, a new one (`T::default()`) when the row
    /// holds nothing known or was written by another game.
    pub fn with<T, R>(&mut self, f: impl FnOnce(&mut T) -> R) -> R
    where
        T: Default + Send + Sync + 'static,
    {
        let mut kept: Box<T> = match self.0.take().map(|b| b.downcast::<T>()) {
            Some(Ok(kept)) => kept,
            _ => Box::default(),
        };
        let result = f(&mut kept);
        self.0 = Some(kept);
        result
    }
}
