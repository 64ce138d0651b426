#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod bot;
mod file;
mod shelf;

pub use bot::PolicyBot;
pub use file::{PolicyError, PolicyFile, Trained, FORMAT, MAX_FILE};
pub use shelf::{PolicyShelf, EXTENSION};
