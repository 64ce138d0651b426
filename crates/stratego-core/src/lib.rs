//! Stratego in three rule sets: the Soviet "Сражение" ([`Rules::srazhenie`]),
//! a Czech variant ([`Rules::czech`]) and the international classic rules
//! ([`Rules::classic`]), behind the shared [`game_traits::Game`] trait.
//!
//! A game starts with the setup phase: each player in turn places his 40
//! pieces square by square ([`Action::Place`]), unseen by the other; then
//! the players alternate [`Action::Move`]s. Hidden ranks are only reachable
//! through a player's [`Observation`]; [`Game::determinize`] fills them in
//! consistently with what that player knows.
//!
//! ```
//! use game_traits::{Game, PlayerId, Turn};
//! use stratego_core::{Rules, Setup, Stratego, Variant};
//! use rand::SeedableRng;
//!
//! let mut rng = game_traits::GameRng::seed_from_u64(7);
//! let rules = Rules::classic();
//! let red = Setup::smart(Variant::Classic, &mut rng);
//! let blue = Setup::shuffle(Variant::Classic, &mut rng);
//! let mut game = Stratego::new_with_setups(&rules, &red, &blue).unwrap();
//! assert_eq!(game.turn(), Turn::Player(PlayerId::P0));
//! let mut legal = Vec::new();
//! while !game.is_terminal() {
//!     game.legal_actions(&mut legal);
//!     let pick = legal[game_traits::chance::uniform_index(legal.len(), &mut rng)];
//!     game.apply(pick).unwrap();
//! }
//! println!("{game}");
//! ```
#![warn(missing_docs)]

mod action;
mod error;
mod observation;
mod render;
mod repetition;
mod repr;
mod rules;
mod setup;
mod square;
mod state;
mod variant;

pub use action::{Action, Move, ACTION_SPACE};
pub use error::StrategoError;
pub use observation::{ObsCell, Observation};
pub use repetition::{Chase, Series};
pub use rules::{Rules, MAX_MOVES_LIMIT};
pub use setup::{Setup, SetupSquare, SETUP_SQUARES};
pub use square::Square;
pub use state::{End, EndReason, LastMove, Stratego};
pub use variant::{Fight, Kind, KindSet, Variant};

use game_traits::{Game, Outcome, PlayerId, Turn};
use rand::Rng;

/// Number of setup decisions of a game (40 per player).
pub const SETUP_ACTIONS: u32 = 2 * SETUP_SQUARES as u32;

impl Stratego {
    /// A game whose setup phase has been played with these two setups
    /// (first player's, second player's): 80 [`Action::Place`]s, so a
    /// record of the game still starts from [`Game::new`].
    pub fn new_with_setups(
        rules: &Rules,
        first: &Setup,
        second: &Setup,
    ) -> Result<Stratego, StrategoError> {
        let mut game = Stratego::with_rules(rules)?;
        for setup in [first, second] {
            if setup.variant() != rules.variant {
                return Err(StrategoError::Setup(format!(
                    "a {} setup for a {} game",
                    setup.variant(),
                    rules.variant
                )));
            }
            for &k in setup.kinds() {
                game.try_apply(Action::Place(k))?;
            }
        }
        Ok(game)
    }

    /// A position in play built from a list of pieces (square, owner 0 or
    /// 1, kind), for puzzles, analysis and tests: every piece not listed
    /// counts as lost in an earlier fight; listed pieces have not moved and
    /// are not revealed. Both flags must be on the board. The game may be
    /// over at once (the player to move has no legal move, or, with
    /// [`Rules::unreachable_flag_draw`], no flag can ever be captured).
    pub fn from_position(
        rules: &Rules,
        pieces: &[(Square, u8, Kind)],
        to_move: u8,
    ) -> Result<Stratego, StrategoError> {
        rules.validate()?;
        let mut cells: Vec<u8> = Square::all()
            .map(|sq| {
                if sq.is_lake() {
                    state::WALL
                } else {
                    state::EMPTY
                }
            })
            .collect();
        let mut lost = [[0u8; Kind::COUNT]; 2];
        for side in lost.iter_mut() {
            for k in Kind::ALL {
                side[k.index()] = rules.variant.count(k);
            }
        }
        for &(sq, owner, kind) in pieces {
            let bad = |why: &str| StrategoError::State(format!("{why} on {sq}"));
            if owner > 1 || sq.is_lake() || cells[sq.index()] != state::EMPTY {
                return Err(bad("bad owner, lake or square taken"));
            }
            let left = &mut lost[owner as usize][kind.index()];
            *left = left
                .checked_sub(1)
                .ok_or_else(|| bad("too many pieces of a kind"))?;
            cells[sq.index()] = state::PRESENT | (owner << 4) | kind.index() as u8;
        }
        if lost.iter().any(|side| side[Kind::FLAG.index()] > 0) {
            return Err(StrategoError::State(
                "both flags must be on the board".into(),
            ));
        }
        Stratego::from_parts_with(
            repr::StateRepr {
                rules: *rules,
                cells,
                placed: [SETUP_SQUARES as u8; 2],
                to_move: to_move & 1,
                moves: 0,
                no_attack: 0,
                lost,
                series: [Series::default(); 2],
                chase: None,
                last_move: [None; 2],
                end: None,
                ruled_out: Vec::new(),
            },
            true,
        )
    }

    /// The setup of `player` (0 or 1) as placed, once complete.
    pub fn setup_of(&self, player: u8) -> Option<Setup> {
        let p = player as usize & 1;
        if (self.placed[p] as usize) < SETUP_SQUARES || self.moves > 0 {
            return None;
        }
        let mut kinds = [Kind::FLAG; SETUP_SQUARES];
        for (i, k) in kinds.iter_mut().enumerate() {
            *k = self.piece(SetupSquare::from_index(i)?.board_square(p)?)?.1;
        }
        Setup::new(self.rules.variant, kinds).ok()
    }
}

impl Game for Stratego {
    type Rules = Rules;
    type Action = Action;
    type Observation = Observation;
    type Error = StrategoError;

    const NAME: &'static str = "stratego";

    fn new(rules: &Rules) -> Result<Self, StrategoError> {
        Stratego::with_rules(rules)
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn num_players(_: &Rules) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.current_player() {
            Some(p) => Turn::Player(PlayerId::new(p)),
            None => Turn::Terminal,
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal_into(out);
    }

    fn is_legal(&self, action: Action) -> bool {
        self.is_legal_action(action)
    }

    fn apply(&mut self, action: Action) -> Result<(), StrategoError> {
        self.try_apply(action)
    }

    fn apply_unchecked(&mut self, action: Action) {
        self.apply_legal(action);
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
    }

    fn sample_chance<R: Rng + ?Sized>(&self, _: &mut R) -> Option<Action> {
        None
    }

    fn observation(&self, player: PlayerId) -> Observation {
        self.observe(player.index() as u8)
    }

    fn determinize<R: Rng + ?Sized>(
        observation: &Observation,
        rng: &mut R,
    ) -> Result<Self, StrategoError> {
        Stratego::determinize_from(observation, rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end.map(|e| match e.winner {
            Some(w) => Outcome::Win(PlayerId::new(w)),
            None => Outcome::Draw,
        })
    }

    fn move_count(&self) -> u32 {
        self.placed[0] as u32 + self.placed[1] as u32 + self.moves
    }

    fn max_game_length(rules: &Rules) -> u32 {
        SETUP_ACTIONS + rules.max_moves
    }

    fn action_space(_: &Rules) -> usize {
        ACTION_SPACE
    }

    fn action_id(_: &Rules, action: Action) -> usize {
        action.id()
    }

    fn action_from_id(_: &Rules, id: usize) -> Option<Action> {
        Action::from_id(id)
    }
}
