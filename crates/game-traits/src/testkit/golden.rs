//! Golden playthroughs: whole seeded trajectories written to a checked-in
//! text file, compared on every run.

use std::fmt::Write as _;
use std::path::Path;

use crate::RuleSet;
use crate::{play_match, Game, PlayerId, RandomAgent};

/// Renders the games played by uniform random agents from `seeds` and
/// compares them with the file at `path`, failing with a readable diff when
/// anything changed. With `UPDATE_GOLDEN=1` in the environment the file is
/// (re)written instead:
///
/// ```text
/// UPDATE_GOLDEN=1 cargo test -p <crate> --test conformance
/// ```
///
/// Every action is one line with the turn, the action id and a digest of
/// the serialised state; the full renderings of the state and of each
/// player's observation are printed at the start, at about 30 evenly spaced
/// steps, and at the end.
pub fn check_golden<G: Game>(rules: &G::Rules, seeds: &[u64], path: impl AsRef<Path>) {
    let path = path.as_ref();
    let text = render::<G>(rules, seeds);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("golden directory");
        }
        std::fs::write(path, &text).expect("golden file written");
        return;
    }
    let old = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "golden file {} unreadable ({e}); create it with UPDATE_GOLDEN=1",
            path.display()
        )
    });
    if let Some(diff) = first_difference(&old, &text) {
        panic!(
            "{} golden playthrough changed ({}):\n{diff}\n\
             If the change is intended, regenerate with UPDATE_GOLDEN=1 and review the diff.",
            G::NAME,
            path.display()
        );
    }
}

/// 64-bit FNV-1a: a stable digest that needs no dependency.
fn digest(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn snapshot<G: Game>(out: &mut String, state: &G) {
    let _ = writeln!(out, "state:\n{state}");
    for p in PlayerId::all() {
        let _ = writeln!(out, "view of {p}:\n{}", state.observation(p));
    }
}

fn render<G: Game>(rules: &G::Rules, seeds: &[u64]) -> String {
    let mut out = String::new();
    for &seed in seeds {
        let (mut a, mut b) = (RandomAgent, RandomAgent);
        let (end, record) = play_match::<G>(rules, seed, &mut [&mut a, &mut b])
            .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", G::NAME));
        let len = record.actions().len();
        let stride = (len / 30).max(1);
        let _ = writeln!(out, "=== {} seed {seed}: {len} actions ===", G::NAME);
        let mut i = 0;
        let result = record.replay_with(|state, action| {
            if i % stride == 0 {
                snapshot(&mut out, state);
            }
            let json = serde_json::to_string(state).unwrap_or_default();
            let _ = writeln!(
                out,
                "#{i} {} -> {action} [id {}] digest {:016x}",
                state.turn(),
                state.rules().action_id(action),
                digest(&json)
            );
            i += 1;
        });
        let end_replayed = result.unwrap_or_else(|e| panic!("{} seed {seed}: {e}", G::NAME));
        assert!(
            end_replayed == end,
            "{} seed {seed}: replay differs",
            G::NAME
        );
        snapshot(&mut out, &end);
        let returns: Vec<String> = PlayerId::all()
            .map(|p| format!("{p}:{}", end.returns(p)))
            .collect();
        let _ = writeln!(
            out,
            "end: {} after {} moves; returns {}\n",
            end.outcome()
                .map_or("unfinished".to_owned(), |o| o.to_string()),
            end.move_count(),
            returns.join(" ")
        );
    }
    out
}

/// The first differing line with a few lines of context, or `None`.
fn first_difference(old: &str, new: &str) -> Option<String> {
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let at = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))?;
    let lo = at.saturating_sub(3);
    let mut s = format!("first difference at line {}:\n", at + 1);
    for (tag, lines) in [("-", &a), ("+", &b)] {
        for line in lines.iter().skip(lo).take(at + 4 - lo) {
            let _ = writeln!(s, "{tag} {line}");
        }
    }
    Some(s)
}
