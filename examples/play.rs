//! Play any game against a bot in the terminal.
//!
//! ```text
//! cargo run --release --example play -- stratego --bot heuristic
//! cargo run --release --example play -- battleline --bot ismcts --seat 1 --save game.json
//! ```
//!
//! The table is shown from your side with a legend of its notation; type a
//! move as written, or its number (`help` lists the commands). `--save FILE`
//! writes the record, which the `replay` example reads. `--help` lists every
//! option with its default.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use tabletop_rules::game_traits::PlayerId;
use tabletop_rules::{play_session, registry, BotSpec, PlayOptions, SessionEnd};

/// Play a game against a bot in the terminal.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// The game: battleline, stratego (the classic rules), cardwar, a
    /// preset such as stratego/srazhenie, or a specification with
    /// parameters such as `battleline(order=gmt)`.
    game: String,
    /// The opponent: random, flat[:N], ismcts[:N], heuristic.
    #[arg(long, default_value = "ismcts")]
    bot: BotSpec,
    /// Your seat: 0 moves first.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=1))]
    seat: u8,
    /// Seed of the chance events and of the bot (default: the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Write the record (JSON) here when the session ends.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let options = PlayOptions {
        bot: args.bot,
        seat: if args.seat == 0 {
            PlayerId::P0
        } else {
            PlayerId::P1
        },
        seed: args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs())
        }),
        save: args.save,
    };
    let registry = registry();
    let game = match registry.load(&args.game) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("play: {e}");
            return ExitCode::from(2);
        }
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout();
    match play_session(game.as_ref(), &options, &mut input, &mut output) {
        Ok(SessionEnd::Finished(_)) => ExitCode::SUCCESS,
        Ok(SessionEnd::Quit | SessionEnd::InputEnded) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("play: {e}");
            ExitCode::FAILURE
        }
    }
}
