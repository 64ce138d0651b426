//! One test per rule of `docs/cardwar.md` (named after it), on positions
//! built through the public builder and driven with chosen dice.

#[path = "../common/mod.rs"]
mod common;

mod combat;
mod prayers;
mod rounds;
