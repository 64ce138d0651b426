//! Play any game against a bot in the terminal.
//!
//! ```text
//! cargo run --release --example play -- stratego                   # against the expert
//! cargo run --release --example play -- stratego --bot heuristic
//! cargo run --release --example play -- battleline --bot ismcts --seat 1 --save
//! ```
//!
//! The table is shown from your side; each move is told as you see it (a
//! fight's result, a claim's proof). Type a move as listed, its number or
//! a short form of its game (`help` lists them: `R7 F1` in Battle Line,
//! `e4e5` in Stratego, `10a` in card war); `legend` explains the table's
//! codes. A Stratego army is set up in one step: a setup like people play
//! (or random, or one written as 40 letters), edited by swapping two
//! squares (`swap a1 b4`), then `ok`. `--save` writes the record into the
//! records folder (`$XDG_DATA_HOME/tabletop`, else
//! `~/.local/share/tabletop`), `--save FILE` to that file; the `replay`
//! example reads it. `--help` lists every option with its default.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use tabletop_rules::game_traits::PlayerId;
use tabletop_rules::{
    play_session, record_file_name, records_dir, registry, BotSpec, PlayOptions, SessionEnd,
};

/// Play a game against a bot in the terminal.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// The game: battleline, stratego (the classic rules), cardwar, a
    /// preset such as stratego/srazhenie, or a specification with
    /// parameters such as `battleline(order=gmt)`.
    game: String,
    /// The opponent: expert[:B], heuristic, ismcts[:B], flat[:B], random,
    /// or a game's own bot by name (`prob`, `expert-v1`); B is a budget
    /// per decision (iterations such as 300, or milliseconds such as
    /// 50ms). Default: the game's strongest, its expert (ismcts where a
    /// game has none).
    #[arg(long)]
    bot: Option<BotSpec>,
    /// Your seat: 0 moves first.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=1))]
    seat: u8,
    /// Seed of the chance events and of the bot (default: the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Write the record (JSON) when the session ends: to FILE, or without
    /// FILE into the records folder ($XDG_DATA_HOME/tabletop, else
    /// ~/.local/share/tabletop), never into the working directory.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "")]
    save: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let registry = registry();
    let game = match registry.load(&args.game) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("play: {e}");
            return ExitCode::from(2);
        }
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs())
    });
    let records = records_dir();
    let save = match args.save {
        // `--save` alone: the records folder.
        Some(path) if path.as_os_str().is_empty() => match &records {
            Some(dir) => Some(dir.join(record_file_name(game.name(), seed, None))),
            None => {
                eprintln!("play: --save without FILE needs HOME or XDG_DATA_HOME; give a file");
                return ExitCode::from(2);
            }
        },
        other => other,
    };
    let options = PlayOptions {
        bot: args.bot,
        seat: if args.seat == 0 {
            PlayerId::P0
        } else {
            PlayerId::P1
        },
        seed,
        save,
        records,
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
