//! Play any game against a bot in the terminal.
//!
//! ```text
//! cargo run --release --example play -- battleline --bot ismcts --seat 0 --save game.json
//! ```
//!
//! The table is shown from your side; type a move's number or its notation
//! as listed (`help` lists the commands). `--save FILE` writes the record,
//! which the `replay` example reads.

use std::path::PathBuf;
use std::process::ExitCode;

use tabletop_rules::bots::BotSpec;
use tabletop_rules::game_traits::PlayerId;
use tabletop_rules::play::{PlayOptions, SessionEnd};
use tabletop_rules::registry::{select_tables, tables};

const USAGE: &str = "usage: play GAME [--bot random|flat[:N]|ismcts[:N]|heuristic] [--seat 0|1] [--seed S] [--save FILE]";

fn parse_args() -> Result<(String, PlayOptions), String> {
    let mut game = None;
    let mut options = PlayOptions {
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs()),
        ..PlayOptions::default()
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--help" | "-h" => return Err(String::new()),
            "--bot" => options.bot = value()?.parse::<BotSpec>().map_err(|e| e.to_string())?,
            "--seat" => {
                let v = value()?;
                let seat = v.trim_start_matches(['p', 'P']).parse::<u8>();
                options.seat =
                    PlayerId::new(seat.map_err(|_| format!("--seat wants 0 or 1, not {v:?}"))?);
            }
            "--seed" => {
                let v = value()?;
                options.seed = v
                    .parse()
                    .map_err(|_| format!("--seed wants a number, not {v:?}"))?;
            }
            "--save" => options.save = Some(PathBuf::from(value()?)),
            _ if arg.starts_with("--") => return Err(format!("unknown flag {arg:?}")),
            _ if game.is_none() => game = Some(arg),
            _ => return Err(format!("unexpected argument {arg:?}")),
        }
    }
    game.map(|g| (g, options))
        .ok_or_else(|| "which game?".to_owned())
}

fn main() -> ExitCode {
    let known: Vec<String> = tables().iter().map(|t| t.name().to_owned()).collect();
    let (game, options) = match parse_args() {
        Ok(parsed) => parsed,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("play: {e}");
            }
            eprintln!("{USAGE}\ngames: {}", known.join(", "));
            return if e.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            };
        }
    };
    let chosen = match select_tables(tables(), Some(&game)) {
        Ok(chosen) => chosen,
        Err(e) => {
            eprintln!("play: {e}");
            return ExitCode::from(2);
        }
    };
    // A game name alone means its first (default) rule set.
    let table = &chosen[0];
    println!(
        "{} (seed {}); rule sets: {}",
        table.name(),
        options.seed,
        known.join(", ")
    );
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout();
    match table.play_interactive(&options, &mut input, &mut output) {
        Ok(SessionEnd::Finished(_)) => ExitCode::SUCCESS,
        Ok(SessionEnd::Quit | SessionEnd::InputEnded) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("play: {e}");
            ExitCode::FAILURE
        }
    }
}
