//! Empty: the crate has a build script only so that its
//! `[build-dependencies]` (a feature pin of syn, see Cargo.toml) take part
//! in feature resolution.

fn main() {}
