//! Bots play each other and the results are printed in words: who beat
//! whom and how sure that is, each bot's time per decision, and with
//! `--ladder` Elo ratings over every game and rule set.
//!
//! ```text
//! cargo run --release --example arena
//! cargo run --release --example arena -- --ladder
//! cargo run --release --example arena -- --game stratego --bots ismcts,random --rounds 200 --seed 7
//! cargo run --release --example arena -- --bots heuristic,ismcts,flat --ms-per-move 10
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
    arena_bot, format_report, registry, round_robin, run_arena, select, ArenaConfig, BotSpec,
    Budget, PlayerSpec, Progress, ReportOptions,
};

/// The first screen's games: one table per game at its default rules, few
/// enough for 40 games a pairing in well under a minute on two cores.
const FIRST_SCREEN_GAMES: &str = "battleline,stratego,cardwar";

/// The first screen's bots: each game's expert (its strongest) first, then
/// the search bot, the hand-written and the weakest, at budgets the first
/// screen can afford in every game (`expert:2`: Battle Line's expert
/// judges its plays over 2 futures, Stratego's searches 2 plies deep,
/// card war's needs none).
const FIRST_SCREEN_BOTS: &str = "expert:2,ismcts:100,heuristic,random";

/// Games a pairing on the first screen: its 18 pairings in under a minute
/// on two cores.
const FIRST_SCREEN_ROUNDS: u32 = 20;

/// The ladder's bots: every built-in bot at its game's default budget.
const LADDER_BOTS: &str = "random,flat,ismcts,heuristic,expert";

/// Bots play each other; prints who beat whom with 95% intervals, each
/// bot's time per decision and, with --ladder, Elo ratings.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Games to play, comma-separated: a game (its default rules), a preset
    /// (`stratego/czech`) or a specification with parameters
    /// (`stratego(variant=classic,two_square_limit=3)`). Default: Battle
    /// Line, Stratego and card war at their default rules; with --ladder,
    /// every rule set the arena knows.
    #[arg(long, value_name = "NAMES")]
    game: Option<String>,
    /// Bots, comma-separated: expert[:B] (each game's strongest), ismcts[:B],
    /// flat[:B], heuristic, random (B = a budget per decision: iterations
    /// such as 300, reproducible, or milliseconds such as 50ms), `cmd:PROGRAM ARGS` for a bot in any
    /// language speaking the JSON-lines protocol (docs/bot-protocol.md), or
    /// `spelinski:PROGRAM ARGS` for a Battle Line bot of the
    /// BoardGameAIEngine protocol (troops-only rules), or `ucc:PROGRAM
    /// ARGS` for a Stratego agent of the UCC 2012 protocol (classic
    /// rules), or `policy:FILE` for a trained policy (an ONNX file of
    /// python/examples/selfplay.py --onnx; it plays the game and rules it
    /// was trained on; needs the arena built with `--features policy`), or
    /// a game's own bot by name (`prob`, `expert-v1`). A bot named twice
    /// plays itself. Default: expert:2,ismcts:100,heuristic,random
    /// (expert,ismcts,heuristic,random with --ms-per-move); with --ladder,
    /// random,flat,ismcts,heuristic,expert.
    #[arg(long, value_name = "BOTS", value_delimiter = ',', value_parser = arena_bot)]
    bots: Option<Vec<PlayerSpec>>,
    /// Games per pairing of two bots at one table (seats alternate).
    /// Default: 40; with --ladder, 100; the first screen (no --game, --bots
    /// or --ladder), 20.
    #[arg(long, value_name = "N")]
    rounds: Option<u32>,
    /// Equal time: every search bot whose name gives no budget thinks this
    /// many milliseconds a decision (not reproducible, unlike iterations).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u32).range(1..))]
    ms_per_move: Option<u32>,
    /// The full ladder: every rule set, every built-in bot, and each
    /// table's maximum-likelihood Elo ratings with 95% intervals.
    #[arg(long)]
    ladder: bool,
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
    let games = match (&args.game, args.ladder) {
        (Some(games), _) => Some(games.as_str()),
        (None, true) => None,
        (None, false) => Some(FIRST_SCREEN_GAMES),
    };
    let tables = match select(&registry(), games) {
        Ok(tables) => tables,
        Err(e) => {
            eprintln!("arena: {e}");
            return ExitCode::from(2);
        }
    };
    let default_bots = match (args.ladder, args.ms_per_move) {
        (true, _) => LADDER_BOTS,
        (false, Some(_)) => "expert,ismcts,heuristic,random",
        (false, None) => FIRST_SCREEN_BOTS,
    };
    let mut bots = args.bots.clone().unwrap_or_else(|| {
        default_bots
            .split(',')
            .map(|b| arena_bot(b).expect("the default bots parse"))
            .collect()
    });
    if let Some(ms) = args.ms_per_move {
        let budget = Budget::Time(Duration::from_millis(u64::from(ms)));
        for bot in &mut bots {
            if let PlayerSpec::Bot(spec) = bot {
                *spec = BotSpec::or_budget(*spec, budget);
            }
        }
    }
    let pairings = round_robin(&tables, &bots);
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
        games: args.rounds.unwrap_or(
            match (args.ladder, args.game.is_none() && args.bots.is_none()) {
                (true, _) => 100,
                (false, true) => FIRST_SCREEN_ROUNDS,
                (false, false) => 40,
            },
        ),
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
                p.pairing.bots[0].label(),
                p.pairing.bots[1].label()
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
    let options = ReportOptions {
        games: config.games,
        seed: config.seed,
        threads: config.threads,
        ms_per_move: args.ms_per_move,
        ladder: args.ladder,
    };
    print!("{}", format_report(&tables, &result, &options));
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
