//! Umbrella crate of the workspace: re-exports the shared abstraction and
//! every game crate.
pub use game_traits;
