//! Bots play each other in every game and rule set, and a table of results
//! is printed.
//!
//! ```text
//! cargo run --release --example arena
//! cargo run --release --example arena -- --game stratego --bots ismcts,random --games 200 --seed 7
//! ```
//!
//! Flags: `--game NAMES` (comma-separated; a game name selects all its rule
//! sets), `--bots NAMES` (random, flat[:N], ismcts[:N], heuristic),
//! `--games N` per pairing, `--seed S`, `--threads T` (default: all cores;
//! the results do not depend on it), `--records FILE` (every game record as
//! one JSON line, loadable by the `replay` example).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use tabletop_rules::arena::{format_results, round_robin, run_arena, ArenaConfig, Progress};
use tabletop_rules::bots::BotSpec;
use tabletop_rules::registry::{select_tables, tables};

const USAGE: &str = "usage: arena [--game NAMES] [--bots NAMES] [--games N] [--seed S] [--threads T] [--records FILE]
  NAMES are comma-separated. Games: a game (all its rule sets) or game/ruleset.
  Bots: random, flat[:N], ismcts[:N] (N playouts/iterations per move), heuristic.";

struct Args {
    games: Option<String>,
    bots: Vec<BotSpec>,
    per_pairing: u32,
    seed: u64,
    threads: usize,
    records: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        games: None,
        bots: vec![
            BotSpec::Random,
            BotSpec::Flat(None),
            BotSpec::Ismcts(None),
            BotSpec::Heuristic,
        ],
        per_pairing: 6,
        seed: 1,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        records: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--help" || flag == "-h" {
            return Err(String::new());
        }
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--game" | "--games-of" => args.games = Some(value()?),
            "--bots" => {
                args.bots = value()?
                    .split(',')
                    .map(|b| b.parse::<BotSpec>().map_err(|e| e.to_string()))
                    .collect::<Result<_, _>>()?
            }
            "--games" => args.per_pairing = number(&flag, &value()?)?,
            "--seed" => args.seed = number(&flag, &value()?)?,
            "--threads" => args.threads = number::<usize>(&flag, &value()?)?.max(1),
            "--records" => args.records = Some(value()?),
            _ => return Err(format!("unknown argument {flag:?}")),
        }
    }
    Ok(args)
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{flag} wants a non-negative number, not {value:?}"))
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("arena: {e}");
            }
            eprintln!("{USAGE}");
            return if e.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            };
        }
    };
    let tables = match select_tables(tables(), args.games.as_deref()) {
        Ok(tables) => tables,
        Err(e) => {
            eprintln!("arena: {e}");
            return ExitCode::from(2);
        }
    };
    let pairings = round_robin(&tables, &args.bots);
    if pairings.is_empty() {
        eprintln!("arena: nothing to play (need two different bots and at least one game)");
        return ExitCode::from(2);
    }
    // Open the records file first, so that a bad path fails before the games.
    let mut records_file = match args
        .records
        .as_deref()
        .map(std::fs::File::create)
        .transpose()
    {
        Ok(file) => file,
        Err(e) => {
            eprintln!("arena: cannot write the records: {e}");
            return ExitCode::from(2);
        }
    };
    let config = ArenaConfig {
        games: args.per_pairing,
        seed: args.seed,
        threads: args.threads,
        keep_records: args.records.is_some(),
    };
    let names: Vec<&str> = tables.iter().map(|t| t.name()).collect();
    eprintln!(
        "arena: {} pairings x {} games over {} on {} threads, seed {}",
        pairings.len(),
        config.games,
        names.join(", "),
        config.threads,
        config.seed
    );
    let terminal = std::io::stderr().is_terminal();
    let mut last = Duration::ZERO;
    let mut show = |p: Progress<'_>| {
        // A live line on a terminal; a line every ~10% otherwise (logs).
        let step = (p.total / 10).max(1);
        let due = if terminal {
            p.elapsed >= last + Duration::from_millis(200) || p.done == p.total
        } else {
            p.done % step == 0 || p.done == p.total
        };
        if due {
            last = p.elapsed;
            let line = format!(
                "[{:>5}/{}] {:>5.1}s  {} {} vs {}",
                p.done,
                p.total,
                p.elapsed.as_secs_f64(),
                p.table,
                p.pairing.bots[0],
                p.pairing.bots[1]
            );
            if terminal {
                eprint!("\r{line:<78}");
                if p.done == p.total {
                    eprintln!();
                }
            } else {
                eprintln!("{line}");
            }
        }
    };
    let result = run_arena(&tables, &pairings, &config, &mut show);
    print!("{}", format_results(&tables, &result));
    if let (Some(file), Some(path)) = (&mut records_file, &args.records) {
        let mut text = result.records.join("\n");
        text.push('\n');
        match file.write_all(text.as_bytes()) {
            Ok(()) => eprintln!("arena: {} records written to {path}", result.records.len()),
            Err(e) => {
                eprintln!("arena: could not write {path}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if result.pairings.iter().any(|r| !r.errors.is_empty()) {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
