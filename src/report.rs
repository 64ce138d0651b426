//! The arena's results in words, for a reader who has never seen it: who
//! beat whom and how sure that is, each bot's time per decision and, for
//! the ladder, Elo ratings. Every line fits 100 columns (with the built-in
//! bots' names).

use std::fmt::Write as _;
use std::sync::Arc;

use game_env::{BotFailure, BotSpec, Budget, DynGame};

use crate::arena::{ArenaResult, Think};
use crate::ladder::{Ladder, Rating};
use crate::stats::margin_points;
use game_registry::PlayerSpec;

/// Virtual draws added to every pairing of a ladder, so that a bot that
/// won every game still gets a finite rating (see [`Ladder::fit`]).
pub const LADDER_PRIOR_DRAWS: f64 = 1.0;

/// What the report says beyond the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportOptions {
    /// Games per pairing asked for.
    pub games: u32,
    /// The seed of the run.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// The time budget given to the search bots (`--ms-per-move`), if any.
    pub ms_per_move: Option<u32>,
    /// Whether to add each table's Elo ladder.
    pub ladder: bool,
}

/// The whole report: how to read it first, then per table the verdicts and
/// the bots' times (and Elo ratings with [`ReportOptions::ladder`]), then
/// the totals.
pub fn format_report(
    tables: &[Arc<dyn DynGame>],
    result: &ArenaResult,
    options: &ReportOptions,
) -> String {
    let mut out = String::new();
    let mut bots: Vec<&PlayerSpec> = Vec::new();
    for r in &result.pairings {
        for b in &r.pairing.bots {
            if !bots.contains(&b) {
                bots.push(b);
            }
        }
    }
    let _ = writeln!(
        out,
        "Who beats whom: {} games a pairing, seats alternating (seed {}, {}).",
        options.games,
        options.seed,
        threads(options.threads)
    );
    let labels = labels(&bots);
    let label = |bot: &PlayerSpec| {
        bots.iter()
            .position(|b| *b == bot)
            .map_or_else(|| bot.label(), |i| labels[i].clone())
    };
    let width = labels.iter().map(String::len).max().unwrap_or(0);
    for (b, l) in bots.iter().zip(&labels) {
        let _ = writeln!(out, "  {l:<width$}  {}", describe(b));
    }
    if let Some(ms) = options.ms_per_move {
        let _ = writeln!(
            out,
            "Equal time: every search bot without a budget of its own thinks {ms} ms a \
             decision\n(--ms-per-move; not reproducible: a loaded machine searches less)."
        );
    }
    let _ = writeln!(
        out,
        "How sure: a draw counts half a win. A score's 95 % interval holds the true score 19\n\
         times in 20; at {} games it is up to ±{:.0} points wide. \"Clearly stronger\": the\n\
         whole interval is above 50 %. \"Too close to call\": it holds 50 %.",
        options.games,
        margin_points(u64::from(options.games)),
    );
    if options.ladder {
        let _ = writeln!(
            out,
            "Elo: maximum-likelihood ratings (Bradley-Terry, draws half a win, {} virtual draw\n\
             a pairing) with 95 % intervals from the Fisher information, `random` = 0 (else\n\
             the first bot); a 100-point edge is a 64 % score, 200 points 76 %.",
            LADDER_PRIOR_DRAWS
        );
    }
    for (t, table) in tables.iter().enumerate() {
        let pairings: Vec<_> = result
            .pairings
            .iter()
            .filter(|r| r.pairing.table == t)
            .collect();
        if pairings.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n{}: {}", table.title(), table.name());
        let mut ladder = Ladder::new();
        let mut think: Vec<(String, Think)> = Vec::new();
        for r in &pairings {
            let [a, b] = [0, 1].map(|i| label(&r.pairing.bots[i]));
            if r.games == 0 {
                let _ = writeln!(out, "  {a} against {b}: no game finished");
            } else {
                let _ = writeln!(out, "  {}", r.score().sentence(&a, &b));
            }
            for e in r.errors.iter().take(3) {
                let _ = writeln!(out, "    failed: {e}");
            }
            for (name, failures) in [&a, &b].into_iter().zip(&r.forfeits) {
                if !failures.is_empty() {
                    let _ = writeln!(
                        out,
                        "    {name} forfeited {}: {}",
                        failures.len(),
                        tally(failures)
                    );
                }
            }
            ladder.add(&a, &b, r.wins[0], r.draws, r.wins[1]);
            for (name, t) in [a, b].into_iter().zip(r.think) {
                match think.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, total)) => *total = total.merged(t),
                    None => think.push((name, t)),
                }
            }
        }
        let ratings = if options.ladder {
            let anchor = match think.iter().any(|(n, _)| n == "random") {
                true => "random".to_owned(),
                false => think.first().map(|(n, _)| n.clone()).unwrap_or_default(),
            };
            match ladder.fit(&anchor, LADDER_PRIOR_DRAWS) {
                Ok(ratings) => Some(ratings),
                Err(e) => {
                    let _ = writeln!(out, "  no ladder: {e}");
                    None
                }
            }
        } else {
            None
        };
        write_bots(&mut out, &think, ratings.as_deref());
    }
    let games: u64 = result.pairings.iter().map(|r| r.games).sum();
    let _ = writeln!(
        out,
        "\n{games} games in {:.1} s on {}.",
        result.seconds,
        threads(options.threads)
    );
    if !options.ladder {
        let _ = writeln!(
            out,
            "More games narrow the intervals (--rounds 400: ±5 points); every rule set with Elo\n\
             ratings: --ladder; equal time per move: --ms-per-move 10; all options: --help."
        );
    }
    out
}

/// Short names for the screen: a program's bot by the file names of its
/// command (`cmd:python3 random_bot.py 7`), every name at most
/// [`LABEL_WIDTH`] characters; the full names when two would coincide.
fn labels(bots: &[&PlayerSpec]) -> Vec<String> {
    let short = |kind: &str, argv: &[String]| {
        let words: Vec<&str> = argv
            .iter()
            .map(|w| w.rsplit('/').next().unwrap_or(w))
            .collect();
        let text = format!("{kind}:{}", words.join(" "));
        match text.char_indices().nth(LABEL_WIDTH - 1) {
            Some((cut, _)) => format!("{}~", &text[..cut]),
            None => text,
        }
    };
    let labels: Vec<String> = bots
        .iter()
        .map(|b| match b {
            PlayerSpec::Bot(spec) => spec.to_string(),
            PlayerSpec::Cmd(argv) => short("cmd", argv),
            PlayerSpec::Legacy { prefix, argv } => short(prefix, argv),
            PlayerSpec::Policy(file) => short("policy", std::slice::from_ref(file)),
            PlayerSpec::Human => "human".to_owned(),
        })
        .collect();
    let unique = labels
        .iter()
        .enumerate()
        .all(|(i, l)| !labels[..i].contains(l));
    match unique {
        true => labels,
        false => bots.iter().map(|b| b.label()).collect(),
    }
}

/// The widest short name of a program's bot.
const LABEL_WIDTH: usize = 36;

/// Each bot's time per decision, and its rating when there is a ladder
/// (then best first).
fn write_bots(out: &mut String, think: &[(String, Think)], ratings: Option<&[Rating]>) {
    let width = think.iter().map(|(n, _)| n.len()).max().unwrap_or(3).max(3);
    let mut rows: Vec<(&str, Think, Option<&Rating>)> = think
        .iter()
        .map(|(n, t)| {
            let rating = ratings.and_then(|rs| rs.iter().find(|r| r.name == *n));
            (n.as_str(), *t, rating)
        })
        .collect();
    if ratings.is_some() {
        rows.sort_by(|x, y| {
            let elo = |r: Option<&Rating>| r.map_or(f64::NEG_INFINITY, |r| r.elo);
            elo(y.2).total_cmp(&elo(x.2))
        });
    }
    let _ = write!(
        out,
        "  {:<width$}  {:>11}  {:>9}",
        "bot", "ms/decision", "longest"
    );
    if ratings.is_some() {
        let _ = write!(
            out,
            "  {:>6}  {:<18}  {:>6}",
            "Elo", "95 % interval", "games"
        );
    }
    out.push('\n');
    for (name, t, rating) in rows {
        let _ = write!(
            out,
            "  {name:<width$}  {:>11}  {:>9}",
            millis(t.mean_ms()),
            millis(t.max_ms())
        );
        if let Some(r) = rating {
            let interval = if r.interval.0 == r.interval.1 {
                "(anchor)".to_owned()
            } else {
                format!("{} to {}", elo(r.interval.0), elo(r.interval.1))
            };
            let _ = write!(out, "  {:>6}  {interval:<18}  {:>6}", elo(r.elo), r.games);
        }
        out.push('\n');
    }
}

/// `1 thread`, `2 threads`.
/// The failures by their message, the three most frequent: "the bot
/// resigned (2), no answer within 3s (1)".
fn tally(failures: &[BotFailure]) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for f in failures {
        let text = f.to_string();
        match counts.iter_mut().find(|(t, _)| *t == text) {
            Some((_, n)) => *n += 1,
            None => counts.push((text, 1)),
        }
    }
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    counts
        .iter()
        .take(3)
        .map(|(t, n)| format!("{t} ({n})"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn threads(n: usize) -> String {
    match n {
        1 => "1 thread".to_owned(),
        n => format!("{n} threads"),
    }
}

/// Elo points, signed, whole, and never `-0`.
fn elo(points: f64) -> String {
    match points.round() {
        0.0 => "0".to_owned(),
        p => format!("{p:+.0}"),
    }
}

/// Milliseconds with three significant figures or so.
fn millis(ms: f64) -> String {
    if ms >= 100.0 {
        format!("{ms:.0}")
    } else if ms >= 1.0 {
        format!("{ms:.1}")
    } else {
        format!("{ms:.3}")
    }
}

/// What a bot is, in a few words.
fn describe(bot: &PlayerSpec) -> String {
    let per_decision = |budget: Option<Budget>, unit: &str| match budget {
        Some(Budget::Iterations(n)) => format!("{n} {unit} a decision"),
        Some(Budget::Time(t)) => format!("{} ms a decision", t.as_millis()),
        None => format!("the game's default number of {unit} a decision"),
    };
    match bot {
        PlayerSpec::Bot(BotSpec::Random) => "uniformly random moves".to_owned(),
        PlayerSpec::Bot(BotSpec::Heuristic) => "each game's hand-written rules of thumb".to_owned(),
        PlayerSpec::Bot(BotSpec::Flat(b)) => {
            format!("flat Monte Carlo, {}", per_decision(*b, "playouts"))
        }
        PlayerSpec::Bot(BotSpec::Expert(b)) => format!(
            "each game's expert (its strongest bot), {}",
            per_decision(*b, "iterations")
        ),
        PlayerSpec::Bot(BotSpec::Sparring(name, b)) => format!(
            "the game's own sparring bot {name}, {}",
            per_decision(*b, "iterations")
        ),
        PlayerSpec::Bot(BotSpec::Ismcts(b)) => format!(
            "tree search over the hidden cards (ISMCTS), {}",
            per_decision(*b, "iterations")
        ),
        PlayerSpec::Cmd(argv) => format!("JSON-lines bot protocol: {}", argv.join(" ")),
        PlayerSpec::Policy(file) => {
            format!("a trained policy, the legal move of highest logit: {file}")
        }
        PlayerSpec::Human => "a person".to_owned(),
        PlayerSpec::Legacy { prefix, argv } => {
            let protocol = match *prefix {
                "spelinski" => "BoardGameAIEngine protocol",
                "ucc" => "UCC 2012 Stratego protocol",
                other => other,
            };
            format!("{protocol}: {}", argv.join(" "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_are_described_with_their_budget() {
        let ismcts: PlayerSpec = "ismcts:50ms".parse().unwrap();
        assert_eq!(
            describe(&ismcts),
            "tree search over the hidden cards (ISMCTS), 50 ms a decision"
        );
        let flat: PlayerSpec = "flat:30".parse().unwrap();
        assert_eq!(describe(&flat), "flat Monte Carlo, 30 playouts a decision");
    }

    #[test]
    fn programs_get_short_distinct_labels() {
        let bots: Vec<PlayerSpec> = [
            "spelinski:python3 examples/bots/spelinski_bot.py",
            "cmd:python3 /a/very/long/path/to/a_bot_with_a_long_name.py 7",
            "random",
        ]
        .iter()
        .map(|b| b.parse().unwrap())
        .collect();
        let refs: Vec<&PlayerSpec> = bots.iter().collect();
        assert_eq!(
            labels(&refs),
            [
                "spelinski:python3 spelinski_bot.py",
                "cmd:python3 a_bot_with_a_long_name.~",
                "random"
            ]
        );
        // Two programs alike in their short names keep their full names.
        let twins: Vec<PlayerSpec> = ["cmd:python3 a/bot.py", "cmd:python3 b/bot.py"]
            .iter()
            .map(|b| b.parse().unwrap())
            .collect();
        let refs: Vec<&PlayerSpec> = twins.iter().collect();
        assert_eq!(
            labels(&refs),
            ["cmd:python3 a/bot.py", "cmd:python3 b/bot.py"]
        );
    }

    #[test]
    fn report_explains_the_noise_first_fits_100_columns_and_ranks_with_random_at_zero() {
        use crate::arena::{round_robin, run_arena, ArenaConfig};
        use crate::{registry, select};
        let tables = select(&registry(), Some("kuhn_poker")).unwrap();
        let bots: Vec<PlayerSpec> = ["random", "ismcts:30", "flat:10"]
            .iter()
            .map(|b| b.parse().unwrap())
            .collect();
        let config = ArenaConfig {
            games: 20,
            seed: 5,
            threads: 1,
            keep_records: false,
        };
        let result = run_arena(&tables, &round_robin(&tables, &bots), &config, &mut |_| {});
        let options = ReportOptions {
            games: 20,
            seed: 5,
            threads: 1,
            ms_per_move: None,
            ladder: true,
        };
        let text = format_report(&tables, &result, &options);
        assert!(text.lines().all(|l| l.chars().count() <= 100), "{text}");
        let explained = text.find("95 % interval holds").unwrap();
        let first_verdict = text
            .find("clearly stronger")
            .into_iter()
            .chain(text.find("too close to call"))
            .filter(|&i| i > explained)
            .min()
            .unwrap();
        assert!(explained < first_verdict, "{text}");
        assert_eq!(text.matches(" %): ").count(), 3, "{text}");
        let anchor = text.lines().find(|l| l.contains("(anchor)")).unwrap();
        assert!(anchor.trim_start().starts_with("random"), "{anchor}");
        // Without the ladder, no Elo.
        let plain = format_report(
            &tables,
            &result,
            &ReportOptions {
                ladder: false,
                ..options
            },
        );
        assert!(!plain.contains("(anchor)") && plain.contains("--ladder"));
    }

    #[test]
    fn elo_points_are_signed_and_whole() {
        assert_eq!(elo(-0.4), "0");
        assert_eq!(elo(0.0), "0");
        assert_eq!(elo(412.6), "+413");
        assert_eq!(elo(-37.2), "-37");
    }

    #[test]
    fn milliseconds_keep_about_three_figures() {
        assert_eq!(millis(0.0123), "0.012");
        assert_eq!(millis(3.26), "3.3");
        assert_eq!(millis(250.4), "250");
    }
}
