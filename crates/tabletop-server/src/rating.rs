//! Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): a
//! rating, its deviation (how unsure it is) and its volatility, updated
//! from the results of a rating period. The server makes every rated
//! game a period of its own, as lichess does, so a rating moves as soon as
//! a match ends; the deviation therefore never grows with idle time (the
//! paper's step 6 for a player without games is not applied).
//!
//! The steps below are numbered as in the paper.

use serde::Serialize;

/// The paper's factor between the Glicko scale and Glicko-2's (step 2).
pub const SCALE: f64 = 173.7178;
/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's rating deviation.
pub const START_RD: f64 = 350.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.06;
/// The system constant τ, which limits how fast the volatility changes
/// (the paper suggests 0.3 to 1.2; its example uses 0.5).
pub const TAU: f64 = 0.5;
/// The convergence tolerance of the volatility's iteration (step 5).
pub const EPSILON: f64 = 0.000_001;

/// A player's rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The rating (1500 to start).
    pub rating: f64,
    /// The rating deviation (350 to start).
    pub rd: f64,
    /// The volatility (0.06 to start).
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: START_RATING,
            rd: START_RD,
            volatility: START_VOLATILITY,
        }
    }
}

/// One game of the period: the opponent's rating before it and the score
/// (1 a win, 0.5 a draw, 0 a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    /// The opponent's rating before the period.
    pub opponent: Rating,
    /// The player's score.
    pub score: f64,
}

/// Step 2: (μ, φ) on the Glicko-2 scale.
fn to_glicko2(r: Rating) -> (f64, f64) {
    ((r.rating - START_RATING) / SCALE, r.rd / SCALE)
}

/// Step 3's g(φ): how much an opponent's uncertainty damps the result.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// Step 3's E(μ, μj, φj): the expected score against an opponent.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The opponents on the Glicko-2 scale: (μj, φj, sj).
fn opponents(games: &[Game]) -> Vec<(f64, f64, f64)> {
    games
        .iter()
        .map(|game| {
            let (mu_j, phi_j) = to_glicko2(game.opponent);
            (mu_j, phi_j, game.score)
        })
        .collect()
}

/// Step 3: the estimated variance v of the rating from the results alone.
fn variance(mu: f64, opponents: &[(f64, f64, f64)]) -> f64 {
    let sum: f64 = opponents
        .iter()
        .map(|&(mu_j, phi_j, _)| {
            let e = expected(mu, mu_j, phi_j);
            g(phi_j).powi(2) * e * (1.0 - e)
        })
        .sum();
    1.0 / sum
}

/// Step 4: the estimated improvement Δ.
fn improvement(mu: f64, v: f64, opponents: &[(f64, f64, f64)]) -> f64 {
    v * score_sum(mu, opponents)
}

/// Σ g(φj)(sj − E(μ, μj, φj)), shared by steps 4 and 7.
fn score_sum(mu: f64, opponents: &[(f64, f64, f64)]) -> f64 {
    opponents
        .iter()
        .map(|&(mu_j, phi_j, s)| g(phi_j) * (s - expected(mu, mu_j, phi_j)))
        .sum()
}

/// Step 5: the new volatility σ′, the root of the paper's f(x) found by
/// the Illinois algorithm (a regula falsi that halves the stale end).
fn new_volatility(sigma: f64, phi: f64, v: f64, delta: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - d) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    while (big_b - big_a).abs() > EPSILON {
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

/// Step 6: the deviation grown by the volatility, φ*.
fn pre_period_deviation(phi: f64, sigma: f64) -> f64 {
    (phi * phi + sigma * sigma).sqrt()
}

/// Step 7: the new deviation φ′ and rating μ′.
fn new_rating(mu: f64, phi_star: f64, v: f64, opponents: &[(f64, f64, f64)]) -> (f64, f64) {
    let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    (mu + phi * phi * score_sum(mu, opponents), phi)
}

/// Step 8: back to the Glicko scale.
fn from_glicko2(mu: f64, phi: f64, sigma: f64) -> Rating {
    Rating {
        rating: SCALE * mu + START_RATING,
        rd: SCALE * phi,
        volatility: sigma,
    }
}

/// The rating of `player` after a period with `games` (unchanged for an
/// empty period: the server rates only periods with a game).
pub fn update(player: Rating, games: &[Game]) -> Rating {
    if games.is_empty() {
        return player;
    }
    let (mu, phi) = to_glicko2(player);
    let opponents = opponents(games);
    let v = variance(mu, &opponents);
    let delta = improvement(mu, v, &opponents);
    let sigma = new_volatility(player.volatility, phi, v, delta);
    let phi_star = pre_period_deviation(phi, sigma);
    let (mu, phi) = new_rating(mu, phi_star, v, &opponents);
    from_glicko2(mu, phi, sigma)
}

/// Both seats' ratings after one game between them; `score0` is seat 0's
/// score (1, 0.5 or 0), seat 1 scores the rest.
pub fn after_game(ratings: [Rating; 2], score0: f64) -> [Rating; 2] {
    [
        update(
            ratings[0],
            &[Game {
                opponent: ratings[1],
                score: score0,
            }],
        ),
        update(
            ratings[1],
            &[Game {
                opponent: ratings[0],
                score: 1.0 - score0,
            }],
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// The paper's player and opponents.
    fn example() -> (Rating, Vec<Game>) {
        let r = |rating, rd| Rating {
            rating,
            rd,
            volatility: START_VOLATILITY,
        };
        let games = vec![
            Game {
                opponent: r(1400.0, 30.0),
                score: 1.0,
            },
            Game {
                opponent: r(1550.0, 100.0),
                score: 0.0,
            },
            Game {
                opponent: r(1700.0, 300.0),
                score: 0.0,
            },
        ];
        (r(1500.0, 200.0), games)
    }

    #[test]
    fn step_2_converts_to_the_glicko2_scale() {
        let (mu, phi) = to_glicko2(example().0);
        assert!(close(mu, 0.0, 1e-12));
        assert!(close(phi, 1.1513, 1e-4), "{phi}");
    }

    #[test]
    fn step_3_g_e_and_the_variance_match_the_paper() {
        let (_, games) = example();
        let opp = opponents(&games);
        let gs: Vec<f64> = opp.iter().map(|o| g(o.1)).collect();
        let es: Vec<f64> = opp.iter().map(|o| expected(0.0, o.0, o.1)).collect();
        for (got, want) in gs.iter().zip([0.9955, 0.9531, 0.7242]) {
            assert!(close(*got, want, 1e-4), "g {got} vs {want}");
        }
        for (got, want) in es.iter().zip([0.639, 0.432, 0.303]) {
            assert!(close(*got, want, 1e-3), "E {got} vs {want}");
        }
        // The paper computes v from E rounded to three decimals: 1.7785;
        // unrounded it is 1.77898.
        assert!(close(variance(0.0, &opp), 1.7785, 6e-4));
        assert!(close(variance(0.0, &opp), 1.77898, 1e-5));
    }

    #[test]
    fn step_4_the_improvement_matches_the_paper() {
        let opp = opponents(&example().1);
        let v = variance(0.0, &opp);
        // The paper's −0.4834 is from its rounded v and E; unrounded −0.48393.
        assert!(close(improvement(0.0, v, &opp), -0.4834, 6e-4));
        assert!(close(improvement(0.0, v, &opp), -0.48393, 1e-5));
    }

    #[test]
    fn step_5_the_illinois_volatility_matches_the_paper() {
        let (player, games) = example();
        let (mu, phi) = to_glicko2(player);
        let opp = opponents(&games);
        let v = variance(mu, &opp);
        let sigma = new_volatility(player.volatility, phi, v, improvement(mu, v, &opp));
        assert!(close(sigma, 0.05999, 1e-5), "{sigma}");
    }

    #[test]
    fn step_6_the_pre_period_deviation_matches_the_paper() {
        assert!(close(pre_period_deviation(1.1513, 0.05999), 1.152862, 1e-5));
    }

    #[test]
    fn steps_7_and_8_the_worked_example_gives_1464_06_151_52_0_05999() {
        let (player, games) = example();
        let after = update(player, &games);
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.rd, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 1e-5), "{after:?}");
    }

    #[test]
    fn a_period_without_games_changes_nothing() {
        let r = Rating::default();
        assert_eq!(update(r, &[]), r);
    }

    #[test]
    fn one_game_moves_the_winner_up_and_the_loser_down_by_the_same_amount_between_equals() {
        let [w, l] = after_game([Rating::default(); 2], 1.0);
        assert!(w.rating > START_RATING && l.rating < START_RATING);
        assert!(close(
            w.rating - START_RATING,
            START_RATING - l.rating,
            1e-9
        ));
        assert!(w.rd < START_RD && close(w.rd, l.rd, 1e-9));
        let [a, b] = after_game([Rating::default(); 2], 0.5);
        assert!(close(a.rating, START_RATING, 1e-9) && close(b.rating, START_RATING, 1e-9));
    }

    #[test]
    fn a_large_surprise_takes_the_iteration_s_other_bracket() {
        // Δ² > φ² + v: step 5's B is ln(Δ² − φ² − v), not the search.
        let strong = Rating {
            rating: 2400.0,
            rd: 30.0,
            volatility: 0.06,
        };
        let weak = Rating {
            rating: 1000.0,
            rd: 30.0,
            volatility: 0.06,
        };
        let [w, s] = after_game([weak, strong], 1.0);
        assert!(w.volatility > 0.06 && w.volatility.is_finite(), "{w:?}");
        assert!(s.rating < 2400.0 && w.rating > 1000.0);
    }
}
