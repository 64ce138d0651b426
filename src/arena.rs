//! Round-robin tournaments of bots over the registered games (the `arena`
//! example).
//!
//! Every game of a pairing gets its seed from the arena seed and its index
//! alone, and results are gathered by index, so a run is identical for the
//! same seed whatever the number of threads. Games `2k` and `2k + 1` share
//! a seed with the seats swapped, which cancels much of the luck of the deal
//! between the two bots.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use std::sync::Arc;

use game_env::{BotFailure, DynGame, EnvError};
use game_registry::{PlayerSpec, PlayerSpecError};
use game_traits::{agent_rng, chance_rng, Outcome, PerPlayer, PlayerId, Turn};

use crate::stats::{Rate, Score};

/// How long a program or a policy may think about one decision.
const COMMAND_TIME_LIMIT: Duration = Duration::from_secs(10);

/// A bot of the arena from its name on the command line: any
/// [`PlayerSpec`] but a person, a game's own bot only if some registered
/// game has it.
///
/// ```
/// use tabletop_rules::{arena_bot, PlayerSpecError};
/// assert_eq!(arena_bot("ismcts:30").unwrap().label(), "ismcts:30");
/// assert_eq!(arena_bot("human"), Err(PlayerSpecError::Person));
/// ```
pub fn arena_bot(name: &str) -> Result<PlayerSpec, PlayerSpecError> {
    name.parse::<PlayerSpec>()?
        .bot_of(&game_registry::registry())
}

/// Two bots meeting at one table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Index of the table in the list passed to [`run_arena`].
    pub table: usize,
    /// The two bots; `bots[0]` sits in seat 0 in even-numbered games.
    pub bots: [PlayerSpec; 2],
}

/// Every pair of `bots` at every table that has them (a `heuristic` or an
/// `expert` only where the game has one); a bot named twice meets itself.
pub fn round_robin<B: Clone + Into<PlayerSpec>>(
    tables: &[Arc<dyn DynGame>],
    bots: &[B],
) -> Vec<Pairing> {
    let bots: Vec<PlayerSpec> = bots.iter().cloned().map(Into::into).collect();
    let mut pairings = Vec::new();
    for (t, table) in tables.iter().enumerate() {
        let usable: Vec<&PlayerSpec> = bots.iter().filter(|b| b.fits(table.as_ref())).collect();
        for (i, a) in usable.iter().enumerate() {
            for b in &usable[i + 1..] {
                pairings.push(Pairing {
                    table: t,
                    bots: [(*a).clone(), (*b).clone()],
                });
            }
        }
    }
    pairings
}

/// How an arena is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaConfig {
    /// Games per pairing (seats alternate).
    pub games: u32,
    /// The seed every game's seed derives from.
    pub seed: u64,
    /// Worker threads (at least one).
    pub threads: usize,
    /// Whether to keep every game's record.
    pub keep_records: bool,
}

/// The seed of the game with index `game` of a pairing: games `2k` and
/// `2k + 1` (the same deal with seats swapped) share it.
pub fn game_seed(seed: u64, game: u32) -> u64 {
    // SplitMix64 finaliser: neighbouring indices give unrelated seeds.
    let mut z = seed ^ (u64::from(game / 2)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The totals of one pairing.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingResult {
    /// The pairing.
    pub pairing: Pairing,
    /// Games finished.
    pub games: u64,
    /// Wins of `bots[0]` and of `bots[1]`.
    pub wins: [u64; 2],
    /// Draws.
    pub draws: u64,
    /// Player decisions over all finished games.
    pub moves: u64,
    /// Seconds of play over all finished games (one thread's time).
    pub seconds: f64,
    /// The thinking time of `bots[0]` and of `bots[1]` over all finished
    /// games.
    pub think: [Think; 2],
    /// Games that failed, with the reason (an engine bug, or a bot that
    /// could not be built): not counted in `games`.
    pub errors: Vec<String>,
    /// Why `bots[0]`'s and `bots[1]`'s lost games were forfeits: a bot
    /// that fails to decide (times out, answers garbage or an illegal
    /// move, exits, resigns) loses that game, which counts in `games` and
    /// the opponent's `wins` as any loss does.
    pub forfeits: [Vec<BotFailure>; 2],
}

/// How long a bot took over its decisions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Think {
    /// Decisions timed.
    pub decisions: u64,
    /// Seconds over all of them.
    pub seconds: f64,
    /// The longest one, in seconds.
    pub longest: f64,
}

impl Think {
    fn record(&mut self, seconds: f64) {
        self.decisions += 1;
        self.seconds += seconds;
        self.longest = self.longest.max(seconds);
    }

    /// Both tallies together.
    pub fn merged(self, other: Think) -> Think {
        Think {
            decisions: self.decisions + other.decisions,
            seconds: self.seconds + other.seconds,
            longest: self.longest.max(other.longest),
        }
    }

    /// Mean milliseconds per decision (0 with none).
    pub fn mean_ms(self) -> f64 {
        1000.0 * self.seconds / self.decisions.max(1) as f64
    }

    /// The longest decision in milliseconds.
    pub fn max_ms(self) -> f64 {
        1000.0 * self.longest
    }
}

impl PairingResult {
    fn new(pairing: Pairing) -> Self {
        PairingResult {
            pairing,
            games: 0,
            wins: [0; 2],
            draws: 0,
            moves: 0,
            seconds: 0.0,
            think: [Think::default(); 2],
            errors: Vec::new(),
            forfeits: [Vec::new(), Vec::new()],
        }
    }

    /// The results of `bots[0]` against `bots[1]`.
    pub fn score(&self) -> Score {
        Score {
            wins: self.wins[0],
            draws: self.draws,
            losses: self.wins[1],
        }
    }

    /// Win rate of `bots[i]`.
    pub fn win_rate(&self, i: usize) -> Rate {
        Rate::new(self.wins[i.min(1)], self.games)
    }

    /// Draw rate.
    pub fn draw_rate(&self) -> Rate {
        Rate::new(self.draws, self.games)
    }

    /// Mean player decisions per game.
    pub fn mean_moves(&self) -> f64 {
        self.moves as f64 / self.games.max(1) as f64
    }

    /// Games per second of one thread.
    pub fn games_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.games as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Where an arena stands, for a progress display.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// Games done.
    pub done: usize,
    /// Games in all.
    pub total: usize,
    /// Since the start.
    pub elapsed: Duration,
    /// The table of the game just finished.
    pub table: &'a str,
    /// Its pairing.
    pub pairing: &'a Pairing,
}

/// The outcome of a whole arena run.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaResult {
    /// One entry per pairing, in the order given.
    pub pairings: Vec<PairingResult>,
    /// Every game's record (JSON, one line each) in pairing then game
    /// order, when kept.
    pub records: Vec<String>,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
}

/// Plays `config.games` games of every pairing on `config.threads` threads,
/// calling `progress` after each game.
pub fn run_arena(
    tables: &[Arc<dyn DynGame>],
    pairings: &[Pairing],
    config: &ArenaConfig,
    progress: &mut dyn FnMut(Progress<'_>),
) -> ArenaResult {
    let start = Instant::now();
    // Game-major order, so that every pairing advances together and the
    // slow pairings do not all come at the end.
    let jobs: Vec<(usize, u32)> = (0..config.games)
        .flat_map(|g| (0..pairings.len()).map(move |p| (p, g)))
        .collect();
    let mut played: Vec<Option<Result<Played, String>>> = vec![None; jobs.len()];
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..config.threads.clamp(1, jobs.len().max(1)) {
            let sender = sender.clone();
            let (next, jobs) = (&next, &jobs);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(p, g)) = jobs.get(i) else {
                    break;
                };
                let result = play_one(tables, &pairings[p], config, g);
                if sender.send((i, result)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        for (done, (i, result)) in receiver.iter().enumerate() {
            let pairing = &pairings[jobs[i].0];
            played[i] = Some(result);
            progress(Progress {
                done: done + 1,
                total: jobs.len(),
                elapsed: start.elapsed(),
                table: tables[pairing.table].name(),
                pairing,
            });
        }
    });
    let mut results: Vec<PairingResult> = pairings
        .iter()
        .map(|p| PairingResult::new(p.clone()))
        .collect();
    let mut records = vec![Vec::new(); pairings.len()];
    for (&(p, g), result) in jobs.iter().zip(played) {
        let total = &mut results[p];
        match result.unwrap_or_else(|| Err("game not played".to_owned())) {
            Ok(game) => {
                total.games += 1;
                total.moves += u64::from(game.moves);
                total.seconds += game.seconds;
                // Seat 0 holds bots[0] in even games.
                let first_in_seat0 = g % 2 == 0;
                let seats = if first_in_seat0 { [0, 1] } else { [1, 0] };
                for (bot, seat) in seats.into_iter().enumerate() {
                    total.think[bot] = total.think[bot].merged(game.think[seat]);
                }
                if let Some((seat, failure)) = game.forfeit {
                    let bot = usize::from((seat == PlayerId::P0) != first_in_seat0);
                    total.forfeits[bot].push(failure);
                }
                match game.outcome {
                    Outcome::Draw => total.draws += 1,
                    Outcome::Win(w) => {
                        let winner_is_first = (w == PlayerId::P0) == first_in_seat0;
                        total.wins[usize::from(!winner_is_first)] += 1;
                    }
                }
                if let Some(record) = game.record {
                    records[p].push(record);
                }
            }
            Err(e) => total.errors.push(e),
        }
    }
    ArenaResult {
        pairings: results,
        records: records.into_iter().flatten().collect(),
        seconds: start.elapsed().as_secs_f64(),
    }
}

fn play_one(
    tables: &[Arc<dyn DynGame>],
    pairing: &Pairing,
    config: &ArenaConfig,
    game: u32,
) -> Result<Played, String> {
    let table = tables[pairing.table].as_ref();
    let [a, b] = &pairing.bots;
    let seats = if game.is_multiple_of(2) {
        [a, b]
    } else {
        [b, a]
    };
    let seed = game_seed(config.seed, game);
    // A panic is an engine or bot bug: report it as a failed game rather
    // than losing the whole run.
    catch_unwind(AssertUnwindSafe(|| {
        play_game(table, seats, seed, config.keep_records)
    }))
    .unwrap_or_else(|_| Err(format!("{} seed {seed}: panicked", table.name())))
}

/// The result of one bot game.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// Who won (by seat).
    pub outcome: Outcome,
    /// Player decisions.
    pub moves: u32,
    /// Seconds the game took.
    pub seconds: f64,
    /// The thinking time of the bot in seat 0 and of the one in seat 1.
    pub think: [Think; 2],
    /// The record as one line of JSON, when asked for: a forfeited
    /// game's ends at the position where the bot failed.
    pub record: Option<String>,
    /// The seat whose bot failed to decide, and how: it lost the game.
    pub forfeit: Option<(PlayerId, BotFailure)>,
}

/// Plays one game of `game` from `seed`, seat `i` by `bots[i]`: chance
/// from the seed's chance stream and each seat's bot from its own stream,
/// as [`game_traits::play_match`] draws them, so the same seed gives the
/// same game. A bot that fails to decide forfeits: the game is the
/// other seat's ([`Played::forfeit`] says why), as on the server; an
/// error is an engine's fault or a bot that could not be built.
pub fn play_game(
    game: &dyn DynGame,
    bots: [&PlayerSpec; 2],
    seed: u64,
    keep_record: bool,
) -> Result<Played, String> {
    let name = game.name();
    let build = |bot: &PlayerSpec| {
        bot.build(game, COMMAND_TIME_LIMIT)
            .map_err(|e| e.to_string())
    };
    let mut agents = PerPlayer::new(build(bots[0])?, build(bots[1])?);
    let mut seat_rngs = PerPlayer::from_fn(|p| agent_rng(seed, p));
    let mut chance = chance_rng(seed);
    let mut state = game.new_state();
    let mut actions = Vec::new();
    let max = game.info().max_game_length as usize;
    let mut think = [Think::default(); 2];
    let start = Instant::now();
    let mut forfeit = None;
    loop {
        let id = match state.turn() {
            Turn::Terminal => break,
            _ if actions.len() >= max => return Err(format!("{name} seed {seed}: too long")),
            Turn::Chance => state
                .sample_chance_id(&mut chance)
                .ok_or_else(|| format!("{name} seed {seed}: chance without outcomes"))?,
            Turn::Player(p) => {
                let asked = Instant::now();
                let chosen = agents[p].choose(state.as_ref(), p, &mut seat_rngs[p]);
                think[p.index().min(1)].record(asked.elapsed().as_secs_f64());
                match chosen {
                    Ok(id) => id,
                    Err(EnvError::Bot { failure, .. }) => {
                        forfeit = Some((p, failure));
                        break;
                    }
                    Err(e) => return Err(format!("{name} seed {seed}: {p}'s bot: {e}")),
                }
            }
        };
        state
            .apply_id(id)
            .map_err(|e| format!("{name} seed {seed}: {e}"))?;
        actions.push(id);
    }
    let seconds = start.elapsed().as_secs_f64();
    let outcome = match &forfeit {
        Some((loser, _)) => Outcome::Win(loser.other()),
        None => state
            .outcome()
            .ok_or_else(|| format!("{name} seed {seed}: ended without an outcome"))?,
    };
    let record = match keep_record {
        true => Some(
            game.record_json(seed, &actions)
                .map_err(|e| e.to_string())?,
        ),
        false => None,
    };
    Ok(Played {
        outcome,
        moves: state.move_count(),
        seconds,
        think,
        record,
        forfeit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{registry, select};
    use game_env::BotSpec;

    #[test]
    fn time_budgeted_bot_thinks_about_its_budget_and_is_timed_by_bot_not_seat() {
        let tables = select(&registry(), Some("kuhn_poker")).unwrap();
        let timed = arena_bot("ismcts:5ms").unwrap();
        let pairings = round_robin(&tables, &[timed, PlayerSpec::Bot(BotSpec::Random)]);
        let config = ArenaConfig {
            games: 4,
            seed: 3,
            threads: 1,
            keep_records: false,
        };
        let result = run_arena(&tables, &pairings, &config, &mut |_| {});
        let [search, random] = result.pairings[0].think;
        assert!(search.decisions >= 4 && random.decisions >= 1);
        // Every Kuhn decision has two choices, so the search runs its 5 ms.
        assert!(search.mean_ms() >= 5.0, "{search:?}");
        // Loosely: a loaded machine may deschedule a thread, but not for
        // seconds on end.
        assert!(search.max_ms() < 2_000.0, "{search:?}");
        assert!(random.mean_ms() < search.mean_ms(), "{random:?}");
    }

    #[test]
    fn think_tallies_merge() {
        let mut a = Think::default();
        a.record(0.002);
        a.record(0.004);
        let mut b = Think::default();
        b.record(0.010);
        let both = a.merged(b);
        assert_eq!(both.decisions, 3);
        assert!((both.mean_ms() - 16.0 / 3.0).abs() < 1e-9);
        assert!((both.max_ms() - 10.0).abs() < 1e-9);
        assert_eq!(Think::default().mean_ms(), 0.0);
    }
}
