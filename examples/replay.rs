//! Check that a saved game record replays legally and print it step by
//! step.
//!
//! ```text
//! cargo run --release --example replay -- game.json --view p0
//! cargo run --release --example replay -- records.jsonl --line 3 --view all
//! ```
//!
//! The file holds one record as JSON (as `play --save` writes it) or one
//! record per line (as `arena --records` writes them; `--line N` picks one,
//! from 1). `--view all` shows everything; `--view p0` only what seat 0
//! saw.

use std::process::ExitCode;

use tabletop_rules::registry::{table_for_record, tables};
use tabletop_rules::replay::{pick_record, View};

const USAGE: &str = "usage: replay FILE [--line N] [--view all|p0|p1]";

fn parse_args() -> Result<(String, usize, View), String> {
    let (mut file, mut line, mut view) = (None, 1, View::Omniscient);
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--help" | "-h" => return Err(String::new()),
            "--line" => {
                let v = value()?;
                line = v
                    .parse()
                    .map_err(|_| format!("--line wants a number, not {v:?}"))?;
            }
            "--view" => view = value()?.parse::<View>().map_err(|e| e.to_string())?,
            _ if arg.starts_with("--") => return Err(format!("unknown flag {arg:?}")),
            _ if file.is_none() => file = Some(arg),
            _ => return Err(format!("unexpected argument {arg:?}")),
        }
    }
    file.map(|f| (f, line, view))
        .ok_or_else(|| "which file?".to_owned())
}

fn main() -> ExitCode {
    let (file, line, view) = match parse_args() {
        Ok(parsed) => parsed,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("replay: {e}");
            }
            eprintln!("{USAGE}");
            return if e.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            };
        }
    };
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("replay: cannot read {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let tables = tables();
    let result = pick_record(&text, line).and_then(|json| {
        let table = table_for_record(&tables, json)?;
        let mut out = std::io::stdout().lock();
        table.replay(json, view, &mut out)
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
