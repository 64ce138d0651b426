//! A series of games with the published scoring: the winner of a game gets
//! 5 points, the loser one point per flag he captured; the winner starts
//! the next game.

use game_traits::{Game, Outcome, PlayerId};
use serde::{Deserialize, Serialize};

use crate::rules::Rules;
use crate::state::BattleLine;

/// Points of one finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameScore {
    /// Points of P0 and P1.
    pub points: [u32; 2],
    /// The winner, `None` for a draw (possible only by the end rule).
    pub winner: Option<PlayerId>,
}

/// A game handed to [`Series::record`] is not over, or was played under
/// other rules than the series expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeriesError {
    /// The game has not ended.
    #[error("the game is not over")]
    NotOver,
    /// The game was not started with [`Series::next_rules`].
    #[error("the game was played under other rules than the series expects")]
    WrongRules,
}

/// A running series: total points and who starts the next game.
///
/// ```
/// use battleline_core::{BattleLine, Rules, Series};
/// use game_traits::{play_match, RandomAgent};
/// let mut series = Series::new(Rules::default());
/// for seed in 0..3 {
///     let (mut a, mut b) = (RandomAgent, RandomAgent);
///     let (game, _) = play_match::<BattleLine>(&series.next_rules(), seed, &mut [&mut a, &mut b]).unwrap();
///     series.record(&game).unwrap();
/// }
/// assert_eq!(series.games(), 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Series {
    rules: Rules,
    points: [u32; 2],
    games: u32,
}

impl Series {
    /// A new series; the first game is started by `rules.first_player`.
    pub fn new(rules: Rules) -> Series {
        Series {
            rules,
            points: [0; 2],
            games: 0,
        }
    }

    /// The rules of the next game (with the right player starting).
    pub fn next_rules(&self) -> Rules {
        self.rules
    }

    /// Total points of P0 and P1.
    pub fn points(&self) -> [u32; 2] {
        self.points
    }

    /// Games recorded.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// The score of a finished game, without recording it.
    pub fn score(game: &BattleLine) -> Result<GameScore, SeriesError> {
        let outcome = game.outcome().ok_or(SeriesError::NotOver)?;
        let t = game.table();
        let flags = PlayerId::BOTH.map(|p| t.claimed(p).len() as u32);
        Ok(match outcome {
            Outcome::Win(w) => {
                let mut points = flags;
                points[w.index()] = 5;
                GameScore {
                    points,
                    winner: Some(w),
                }
            }
            // A draw by the end rule: each scores his flags.
            Outcome::Draw => GameScore {
                points: flags,
                winner: None,
            },
        })
    }

    /// Adds a finished game played under [`Series::next_rules`]. The winner
    /// starts the next game; after a draw the other player starts.
    pub fn record(&mut self, game: &BattleLine) -> Result<GameScore, SeriesError> {
        if *game.rules() != self.rules {
            return Err(SeriesError::WrongRules);
        }
        let score = Series::score(game)?;
        for (total, p) in self.points.iter_mut().zip(score.points) {
            // Totals come from the caller (or a loaded series): never overflow.
            *total = total.saturating_add(p);
        }
        self.games = self.games.saturating_add(1);
        let next = score.winner.unwrap_or(self.rules.first_player.other());
        self.rules = self.rules.with_first_player(next);
        Ok(score)
    }
}
