//! Bots play each other in every game and rule set, and a table of results
//! is printed.
//!
//! ```text
//! cargo run --release --example arena
//! cargo run --release --example arena -- --game stratego --bots ismcts,random --rounds 200 --seed 7
//! ```
//!
//! `--help` lists every option with its default; the same seed gives the
//! same results whatever the number of threads.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use tabletop_rules::{
    format_results, registry, round_robin, run_arena, select, ArenaBot, ArenaConfig, Progress,
};

/// Bots play each other in every game and rule set; prints win, draw and
/// loss rates with 95% confidence intervals.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Games to play, comma-separated: a game (its default rules), a preset
    /// (`stratego/czech`) or a specification with parameters
    /// (`stratego(variant=classic,two_square_limit=3)`). Default: Battle
    /// Line, Stratego classic, Srazhenie and Czech, card war.
    #[arg(long, value_name = "NAMES")]
    game: Option<String>,
    /// Bots, comma-separated: random, flat[:N], ismcts[:N], heuristic
    /// (N = playouts or iterations per decision), `cmd:PROGRAM ARGS` for a
    /// bot in any language speaking the JSON-lines protocol
    /// (docs/bot-protocol.md), or `spelinski:PROGRAM ARGS` for a Battle Line
    /// bot of the BoardGameAIEngine protocol (troops-only rules). A bot named
    /// twice plays itself.
    #[arg(
        long,
        value_name = "BOTS",
        value_delimiter = ',',
        default_value = "random,flat,ismcts,heuristic"
    )]
    bots: Vec<ArenaBot>,
    /// Games per pairing of two bots at one table (seats alternate).
    #[arg(long, value_name = "N", default_value_t = 6)]
    rounds: u32,
    /// Seed of the whole run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: every core). Results do not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Write every game record as one JSON line, loadable by `replay`.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let tables = match select(&registry(), args.game.as_deref()) {
        Ok(tables) => tables,
        Err(e) => {
            eprintln!("arena: {e}");
            return ExitCode::from(2);
        }
    };
    let pairings = round_robin(&tables, &args.bots);
    if pairings.is_empty() {
        eprintln!("arena: nothing to play (need two bots and at least one game)");
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
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let config = ArenaConfig {
        games: args.rounds,
        seed: args.seed,
        threads,
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
            p.done.is_multiple_of(step) || p.done == p.total
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
            Ok(()) => eprintln!(
                "arena: {} records written to {}",
                result.records.len(),
                path.display()
            ),
            Err(e) => {
                eprintln!("arena: could not write {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    if result.pairings.iter().any(|r| !r.errors.is_empty()) {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
