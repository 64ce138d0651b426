//! A rating ladder: maximum-likelihood Elo ratings with 95% confidence
//! intervals, from head-to-head results.
//!
//! The model is Bradley-Terry on the Elo scale: bot `i` scores against bot
//! `j` with probability `1 / (1 + 10^((r_j - r_i) / 400))`, a draw counting
//! as half a win and half a loss (as chess scores it). The ratings maximise
//! the likelihood of the games; one bot, the anchor, is fixed at 0, so a
//! rating reads "Elo above the anchor". The intervals are Wald intervals
//! from the Fisher information (the curvature of the log-likelihood at its
//! maximum), relative to the anchor.
//!
//! A bot that wins every game has no finite maximum-likelihood rating. So
//! that a ladder always exists, [`Ladder::fit`] can add `prior` virtual
//! drawn games to every pairing that was played (as BayesElo does with its
//! virtual draws): it pulls each score towards 50% by that many games and
//! vanishes as real games accumulate.

use std::collections::BTreeMap;
use std::fmt;

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Elo points per unit of log-odds.
const ELO_PER_LOGIT: f64 = 400.0 / std::f64::consts::LN_10;

/// Head-to-head results between named bots.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ladder {
    names: Vec<String>,
    /// Per pair of bot indices `(i, j)` with `i < j`: games, and `i`'s
    /// points (a draw is half a point).
    pairs: BTreeMap<(usize, usize), (f64, f64)>,
}

/// One bot's place on a ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The bot.
    pub name: String,
    /// Elo above the anchor.
    pub elo: f64,
    /// The 95% interval of `elo` (a point at the anchor).
    pub interval: (f64, f64),
    /// Real games the bot played.
    pub games: f64,
}

/// Why no ladder could be fitted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LadderError {
    /// The anchor played no game.
    #[error("the anchor {0:?} played no game")]
    UnknownAnchor(String),
    /// A bot is not linked to the anchor by any chain of games.
    #[error("{0:?} is not linked to the anchor by any chain of games")]
    Disconnected(String),
    /// The likelihood has no finite maximum (a bot won or lost every
    /// game, with no prior to temper it).
    #[error("no finite rating: {0:?} won or lost every game (fit with a prior)")]
    Unbounded(String),
}

impl Ladder {
    /// An empty ladder.
    pub fn new() -> Self {
        Ladder::default()
    }

    fn index(&mut self, name: &str) -> usize {
        match self.names.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                self.names.push(name.to_owned());
                self.names.len() - 1
            }
        }
    }

    /// Adds the games between `a` and `b`: `a`'s wins, the draws and `b`'s
    /// wins. A bot met by itself adds nothing (it cannot rate itself).
    pub fn add(&mut self, a: &str, b: &str, wins_a: u64, draws: u64, wins_b: u64) {
        let (i, j) = (self.index(a), self.index(b));
        if i == j {
            return;
        }
        let games = (wins_a + draws + wins_b) as f64;
        let points_a = wins_a as f64 + 0.5 * draws as f64;
        let (key, points) = if i < j {
            ((i, j), points_a)
        } else {
            ((j, i), games - points_a)
        };
        let entry = self.pairs.entry(key).or_insert((0.0, 0.0));
        entry.0 += games;
        entry.1 += points;
    }

    /// The bots, in the order they first appeared.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The maximum-likelihood ratings, `anchor` at 0, best first, with
    /// `prior` virtual draws added to every pairing that was played (0 for
    /// the plain maximum-likelihood estimate).
    pub fn fit(&self, anchor: &str, prior: f64) -> Result<Vec<Rating>, LadderError> {
        let k = self.names.len();
        let a = self
            .names
            .iter()
            .position(|n| n == anchor)
            .ok_or_else(|| LadderError::UnknownAnchor(anchor.to_owned()))?;
        // Pairs with games, tempered by the prior.
        let pairs: Vec<(usize, usize, f64, f64)> = self
            .pairs
            .iter()
            .filter(|(_, &(n, _))| n > 0.0)
            .map(|(&(i, j), &(n, s))| (i, j, n + prior, s + prior / 2.0))
            .collect();
        self.check_connected(a, &pairs)?;
        // The free ratings (every bot but the anchor), in log-odds units.
        let free: Vec<usize> = (0..k).filter(|&i| i != a).collect();
        let slot = |i: usize| free.iter().position(|&f| f == i);
        let mut theta = vec![0.0; k];
        let mut information = vec![vec![0.0; free.len()]; free.len()];
        for _ in 0..200 {
            let (gradient, info) = derivatives(&theta, &pairs, &free);
            information = info;
            let step = solve(&information, &gradient)
                .ok_or_else(|| LadderError::Disconnected(self.names[free[0]].clone()))?;
            // Newton's step, halved until the likelihood does not fall
            // (it is concave, so this ends).
            let before = log_likelihood(&theta, &pairs);
            let mut scale = 1.0;
            let mut next = theta.clone();
            loop {
                for (f, &i) in free.iter().enumerate() {
                    next[i] = theta[i] + scale * step[f];
                }
                if log_likelihood(&next, &pairs) >= before - 1e-12 || scale < 1e-6 {
                    break;
                }
                scale /= 2.0;
            }
            let moved = free
                .iter()
                .map(|&i| (next[i] - theta[i]).abs())
                .fold(0.0, f64::max);
            theta = next;
            if let Some(&i) = free.iter().find(|&&i| theta[i].abs() > 30.0) {
                // Beyond 5,000 Elo: the maximum is at infinity.
                return Err(LadderError::Unbounded(self.names[i].clone()));
            }
            if moved < 1e-10 {
                break;
            }
        }
        let identity: Vec<Vec<f64>> = (0..free.len())
            .map(|r| {
                (0..free.len())
                    .map(|c| f64::from(u8::from(r == c)))
                    .collect()
            })
            .collect();
        let covariance: Vec<Vec<f64>> = identity
            .iter()
            .map(|e| solve(&information, e).unwrap_or_else(|| vec![f64::INFINITY; e.len()]))
            .collect();
        let mut ratings: Vec<Rating> = (0..k)
            .map(|i| {
                let elo = ELO_PER_LOGIT * theta[i];
                let half = slot(i).map_or(0.0, |f| {
                    Z95 * ELO_PER_LOGIT * covariance[f][f].max(0.0).sqrt()
                });
                Rating {
                    name: self.names[i].clone(),
                    elo,
                    interval: (elo - half, elo + half),
                    games: self
                        .pairs
                        .iter()
                        .filter(|(&(p, q), _)| p == i || q == i)
                        .map(|(_, &(n, _))| n)
                        .sum(),
                }
            })
            .collect();
        ratings.sort_by(|x, y| y.elo.total_cmp(&x.elo).then_with(|| x.name.cmp(&y.name)));
        Ok(ratings)
    }

    fn check_connected(
        &self,
        anchor: usize,
        pairs: &[(usize, usize, f64, f64)],
    ) -> Result<(), LadderError> {
        let mut reached = vec![false; self.names.len()];
        reached[anchor] = true;
        let mut grew = true;
        while grew {
            grew = false;
            for &(i, j, _, _) in pairs {
                if reached[i] != reached[j] {
                    reached[i] = true;
                    reached[j] = true;
                    grew = true;
                }
            }
        }
        match reached.iter().position(|r| !r) {
            Some(i) => Err(LadderError::Disconnected(self.names[i].clone())),
            None => Ok(()),
        }
    }
}

/// The probability that a bot `d` log-odds above another scores.
fn logistic(d: f64) -> f64 {
    1.0 / (1.0 + (-d).exp())
}

fn log_likelihood(theta: &[f64], pairs: &[(usize, usize, f64, f64)]) -> f64 {
    pairs
        .iter()
        .map(|&(i, j, n, s)| {
            let d = theta[i] - theta[j];
            // ln p = -ln(1 + e^-d), computed without overflow.
            let ln_p = -softplus(-d);
            let ln_q = -softplus(d);
            s * ln_p + (n - s) * ln_q
        })
        .sum()
}

fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

/// The gradient of the log-likelihood and the Fisher information (minus its
/// Hessian) over the free ratings.
fn derivatives(
    theta: &[f64],
    pairs: &[(usize, usize, f64, f64)],
    free: &[usize],
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let slot = |i: usize| free.iter().position(|&f| f == i);
    let mut gradient = vec![0.0; free.len()];
    let mut information = vec![vec![0.0; free.len()]; free.len()];
    for &(i, j, n, s) in pairs {
        let p = logistic(theta[i] - theta[j]);
        let g = s - n * p;
        let w = n * p * (1.0 - p);
        let (fi, fj) = (slot(i), slot(j));
        if let Some(fi) = fi {
            gradient[fi] += g;
            information[fi][fi] += w;
        }
        if let Some(fj) = fj {
            gradient[fj] -= g;
            information[fj][fj] += w;
        }
        if let (Some(fi), Some(fj)) = (fi, fj) {
            information[fi][fj] -= w;
            information[fj][fi] -= w;
        }
    }
    (gradient, information)
}

/// `x` with `m x = b`, by Gaussian elimination with partial pivoting;
/// `None` when `m` is singular.
fn solve(m: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .zip(b)
        .map(|(row, &bi)| row.iter().copied().chain([bi]).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        for row in 0..n {
            if row != col {
                let factor = a[row][col] / a[col][col];
                let pivot_row = a[col].clone();
                for (x, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                    *x -= factor * p;
                }
            }
        }
    }
    Some((0..n).map(|i| a[i][n] / a[i][i]).collect())
}

impl fmt::Display for Rating {
    /// As `heuristic  +412 [+301, +523]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {:+.0} [{:+.0}, {:+.0}]",
            self.name, self.elo, self.interval.0, self.interval.1
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elo_of(p: f64) -> f64 {
        400.0 * (p / (1.0 - p)).log10()
    }

    fn rating<'a>(ratings: &'a [Rating], name: &str) -> &'a Rating {
        ratings.iter().find(|r| r.name == name).unwrap()
    }

    #[test]
    fn two_bots_differ_by_the_elo_of_their_score() {
        // 30 wins in 40: p = 3/4, 400 log10(3) = 190.85 Elo.
        let mut ladder = Ladder::new();
        ladder.add("strong", "weak", 30, 0, 10);
        let ratings = ladder.fit("weak", 0.0).unwrap();
        let strong = rating(&ratings, "strong");
        assert!((strong.elo - elo_of(0.75)).abs() < 1e-6, "{strong}");
        assert!((strong.elo - 190.849).abs() < 1e-3);
        // Fisher information of the log-odds: n p (1 - p) = 7.5.
        let half = Z95 * ELO_PER_LOGIT / 7.5f64.sqrt();
        assert!((strong.interval.1 - strong.elo - half).abs() < 1e-6);
        assert!((strong.elo - strong.interval.0 - half).abs() < 1e-6);
        assert_eq!(rating(&ratings, "weak").interval, (0.0, 0.0));
        assert_eq!(ratings[0].name, "strong");
        assert_eq!(strong.games, 40.0);
    }

    #[test]
    fn draws_count_as_half_wins() {
        // 20 wins, 20 draws, 0 losses: 30 points of 40, as 30-10.
        let mut drawn = Ladder::new();
        drawn.add("a", "b", 20, 20, 0);
        let a = drawn.fit("b", 0.0).unwrap()[0].elo;
        assert!((a - elo_of(0.75)).abs() < 1e-6, "{a}");
    }

    #[test]
    fn prior_draws_temper_a_clean_sweep() {
        let mut sweep = Ladder::new();
        sweep.add("a", "b", 10, 0, 0);
        assert_eq!(sweep.fit("b", 0.0), Err(LadderError::Unbounded("a".into())));
        // One virtual draw: 10.5 of 11.
        let a = sweep.fit("b", 1.0).unwrap()[0].elo;
        assert!((a - elo_of(10.5 / 11.0)).abs() < 1e-6, "{a}");
    }

    #[test]
    fn three_bots_in_a_consistent_chain() {
        // Scores consistent with ratings 0, 200, 400: every pairing's
        // observed rate is exactly the model's, so the fit recovers them.
        let p = |d: f64| 1.0 / (1.0 + 10f64.powf(-d / 400.0));
        let mut ladder = Ladder::new();
        let n = 1_000_000u64;
        for (x, y, d) in [("b", "a", 200.0), ("c", "b", 200.0), ("c", "a", 400.0)] {
            let wins = (p(d) * n as f64).round() as u64;
            ladder.add(x, y, wins, 0, n - wins);
        }
        let ratings = ladder.fit("a", 0.0).unwrap();
        let names: Vec<&str> = ratings.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["c", "b", "a"]);
        assert!((rating(&ratings, "b").elo - 200.0).abs() < 0.1);
        assert!((rating(&ratings, "c").elo - 400.0).abs() < 0.1);
    }

    #[test]
    fn ratings_do_not_depend_on_the_order_of_the_games() {
        let games = [
            ("x", "y", 1, 0, 0),
            ("y", "z", 0, 1, 0),
            ("z", "x", 1, 0, 0),
            ("x", "y", 0, 0, 1),
            ("y", "x", 1, 0, 0),
            ("x", "z", 1, 0, 0),
            ("z", "y", 0, 0, 1),
            ("x", "y", 1, 0, 0),
        ];
        let fit = |order: &[usize]| {
            let mut ladder = Ladder::new();
            for &g in order {
                let (a, b, w, d, l) = games[g];
                ladder.add(a, b, w, d, l);
            }
            ladder.fit("z", 1.0).unwrap()
        };
        let first = fit(&[0, 1, 2, 3, 4, 5, 6, 7]);
        for order in [[7, 6, 5, 4, 3, 2, 1, 0], [3, 0, 6, 1, 7, 2, 5, 4]] {
            let other = fit(&order);
            for r in &first {
                let o = rating(&other, &r.name);
                assert!((r.elo - o.elo).abs() < 1e-6, "{r} {o}");
                assert!((r.interval.0 - o.interval.0).abs() < 1e-6, "{r} {o}");
            }
        }
    }

    #[test]
    fn more_games_narrow_the_interval() {
        let width = |scale: u64| {
            let mut ladder = Ladder::new();
            ladder.add("a", "b", 6 * scale, 2 * scale, 4 * scale);
            ladder.add("b", "c", 5 * scale, 0, 5 * scale);
            ladder.add("a", "c", 7 * scale, 0, 3 * scale);
            let ratings = ladder.fit("c", 0.0).unwrap();
            let a = rating(&ratings, "a");
            (a.elo, a.interval.1 - a.interval.0)
        };
        let (elo1, w1) = width(1);
        let (elo4, w4) = width(4);
        // Same rates, four times the games: the same rating, half the width.
        assert!((elo1 - elo4).abs() < 1e-6);
        assert!((w1 / w4 - 2.0).abs() < 1e-6, "{w1} {w4}");
    }

    #[test]
    fn a_ladder_needs_its_anchor_and_links_to_it() {
        let mut ladder = Ladder::new();
        ladder.add("a", "b", 3, 0, 2);
        ladder.add("c", "d", 3, 0, 2);
        assert_eq!(
            ladder.fit("nobody", 1.0),
            Err(LadderError::UnknownAnchor("nobody".into()))
        );
        assert_eq!(
            ladder.fit("a", 1.0),
            Err(LadderError::Disconnected("c".into()))
        );
        // A bot against itself rates nothing.
        let mut selfish = Ladder::new();
        selfish.add("a", "a", 3, 0, 2);
        assert_eq!(selfish.fit("a", 0.0).unwrap().len(), 1);
    }
}
