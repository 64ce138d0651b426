//! Check that a saved game record replays legally and print it step by
//! step.
//!
//! ```text
//! cargo run --release --example replay -- game.json --view p0
//! cargo run --release --example replay -- records.jsonl --line 3 --view all
//! ```
//!
//! The file holds one record as JSON (as `play --save` writes it) or one
//! record per line (as `arena --records` writes them). From a seat's view
//! only what that seat saw is printed.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use tabletop_rules::{pick_record, registry, replay_record, View};

/// Check that a game record replays legally and print it step by step.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// The record: one JSON record, or JSON lines (one record a line).
    file: PathBuf,
    /// Which record of a JSON-lines file, from 1.
    #[arg(long, default_value_t = 1)]
    line: usize,
    /// Whose view: all (everything), p0 or p1 (only what that seat saw).
    #[arg(long, default_value = "all")]
    view: View,
}

fn main() -> ExitCode {
    let Args { file, line, view } = Args::parse();
    let file = file.display().to_string();
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("replay: cannot read {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let registry = registry();
    let result = pick_record(&text, line).and_then(|json| {
        let mut out = std::io::stdout().lock();
        replay_record(&registry, json, view, &mut out)
    });
    match result {
        Ok(_) => {
            println!("record replays legally");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("replay: {file}: {e}");
            ExitCode::FAILURE
        }
    }
}
