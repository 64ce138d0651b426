//! Setups: the 40 pieces of one army in its four home rows.

use std::fmt;

use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};

use game_traits::PlayerId;

use crate::error::StrategoError;
use crate::kind::Kind;
use crate::square::Square;
use crate::variant::Variant;

pub(crate) mod model;
mod table;

/// Number of squares of a setup.
pub const SETUP_SQUARES: usize = 40;

/// A square of a setup, as its owner sees it: `row` 0 is the front row
/// (facing the lakes), 3 the back row; `col` 0 is the owner's left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SetupSquare {
    /// 0 (front) ..= 3 (back).
    pub row: u8,
    /// 0 (owner's left) ..= 9.
    pub col: u8,
}

impl SetupSquare {
    /// The setup square with index `i` (`row * 10 + col`), if below 40.
    pub const fn from_index(i: usize) -> Option<SetupSquare> {
        if i < SETUP_SQUARES {
            Some(SetupSquare {
                row: (i / 10) as u8,
                col: (i % 10) as u8,
            })
        } else {
            None
        }
    }

    /// `row * 10 + col`, or `None` off the setup area.
    pub const fn index(self) -> Option<usize> {
        if self.row < 4 && self.col < 10 {
            Some(self.row as usize * 10 + self.col as usize)
        } else {
            None
        }
    }

    /// `player`'s setup square on the board square named `name` (`a1`,
    /// `j4` for the first player, `a7`..`j10` for the second); `None` when
    /// `name` is no square or not one of his.
    ///
    /// ```
    /// use stratego_core::{PlayerId, SetupSquare};
    /// assert_eq!(SetupSquare::named(PlayerId::P0, "a4"), Some(SetupSquare { row: 0, col: 0 }));
    /// assert_eq!(SetupSquare::named(PlayerId::P1, "a10"), Some(SetupSquare { row: 3, col: 9 }));
    /// assert_eq!(SetupSquare::named(PlayerId::P1, "a4"), None);
    /// ```
    pub fn named(player: PlayerId, name: &str) -> Option<SetupSquare> {
        let square: Square = name.trim().to_ascii_lowercase().parse().ok()?;
        (0..SETUP_SQUARES)
            .filter_map(SetupSquare::from_index)
            .find(|s| s.board_square(player) == Some(square))
    }

    /// The board square of this setup square for `player`: the first
    /// player's home rows are ranks 1..=4, the second player's setup is
    /// turned by 180 degrees onto ranks 7..=10. `None` off the setup area.
    pub const fn board_square(self, player: PlayerId) -> Option<Square> {
        if self.row >= 4 || self.col >= 10 {
            return None;
        }
        if matches!(player, PlayerId::P0) {
            Square::at(6 + self.row, self.col)
        } else {
            Square::at(3 - self.row, 9 - self.col)
        }
    }
}

/// One army's placement: a validated value type. Every square of the four
/// home rows holds one piece and the counts are the rule set's.
///
/// The compact text form is 40 letters, front row first, each row from the
/// owner's left (the Gravon form for Classic): `B` mine/bomb, `M` flag, and
/// the ranks from `C` (the weakest: Srazhenie Scout, Czech Špión, classic
/// Spy) upwards in strength.
///
/// ```
/// use stratego_core::{Setup, Variant};
/// let text = "BDGFDFDDDBHFLJGKDIFGEHEMCEHBDDIBJEIBHEBG";
/// let setup = Setup::from_gravon(text).unwrap();
/// assert_eq!(setup.to_text(), text);
/// assert_eq!(setup.variant(), Variant::Classic);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "SetupRepr", into = "SetupRepr")]
pub struct Setup {
    variant: Variant,
    kinds: [Kind; SETUP_SQUARES],
}

#[derive(Serialize, Deserialize)]
struct SetupRepr {
    variant: Variant,
    text: String,
}

impl TryFrom<SetupRepr> for Setup {
    type Error = StrategoError;
    fn try_from(r: SetupRepr) -> Result<Self, Self::Error> {
        Setup::from_text(r.variant, &r.text)
    }
}

impl From<Setup> for SetupRepr {
    fn from(s: Setup) -> Self {
        SetupRepr {
            variant: s.variant,
            text: s.to_text(),
        }
    }
}

impl Setup {
    /// A setup from the kinds of its 40 squares (index `row * 10 + col`,
    /// front row first); refused when the counts are not the rule set's.
    pub fn new(variant: Variant, kinds: [Kind; SETUP_SQUARES]) -> Result<Setup, StrategoError> {
        let mut counts = [0u8; Kind::COUNT];
        for k in kinds {
            counts[k.index()] += 1;
        }
        for k in Kind::ALL {
            if counts[k.index()] != variant.count(k) {
                return Err(StrategoError::InvalidSetup(
                    "the piece counts are not the rule set's",
                ));
            }
        }
        Ok(Setup { variant, kinds })
    }

    /// The rule set whose army this is.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The kind at `square`.
    pub fn get(&self, square: SetupSquare) -> Option<Kind> {
        square.index().map(|i| self.kinds[i])
    }

    /// The 40 kinds, front row first.
    pub fn kinds(&self) -> &[Kind; SETUP_SQUARES] {
        &self.kinds
    }

    /// Swaps the pieces of two squares (the "click one, then the other"
    /// operation); counts stay valid by construction.
    pub fn swap(&mut self, a: SetupSquare, b: SetupSquare) -> Result<(), StrategoError> {
        match (a.index(), b.index()) {
            (Some(i), Some(j)) => {
                self.kinds.swap(i, j);
                Ok(())
            }
            _ => Err(StrategoError::InvalidSetup(
                "a square outside the home rows",
            )),
        }
    }

    /// The 40-letter compact form.
    pub fn to_text(&self) -> String {
        self.kinds
            .iter()
            .filter_map(|&k| self.variant.letter(k))
            .collect()
    }

    /// Reads the 40-letter compact form of a `variant` army.
    pub fn from_text(variant: Variant, text: &str) -> Result<Setup, StrategoError> {
        let text = text.trim();
        let mut kinds = [Kind::FLAG; SETUP_SQUARES];
        let mut n = 0;
        for ch in text.chars() {
            if n == SETUP_SQUARES {
                return Err(StrategoError::InvalidSetup("more than 40 letters"));
            }
            kinds[n] = variant
                .kind_of_letter(ch)
                .ok_or(StrategoError::InvalidSetup("a letter that names no piece"))?;
            n += 1;
        }
        if n != SETUP_SQUARES {
            return Err(StrategoError::InvalidSetup("fewer than 40 letters"));
        }
        Setup::new(variant, kinds)
    }

    /// How a person writes a setup of `variant` as text
    /// ([`Setup::from_text`]) and names its squares, for a help screen.
    pub fn writing_help(variant: Variant) -> String {
        let letters: Vec<String> = variant
            .kinds()
            .filter_map(|k| Some(format!("{} {}", variant.letter(k)?, variant.name(k))))
            .collect();
        format!(
            "a setup is 40 letters, your front row first, each row from your left: {}; \
             a square of your home rows is its file and rank (a1..j4 seated first, a7..j10 second)",
            letters.join(", ")
        )
    }

    /// Reads a classic setup in the 40-letter Gravon form (`B`..`M`).
    pub fn from_gravon(text: &str) -> Result<Setup, StrategoError> {
        Setup::from_text(Variant::Classic, text)
    }

    /// The Gravon form of a classic setup; `None` for the other rule sets.
    pub fn to_gravon(&self) -> Option<String> {
        (self.variant == Variant::Classic).then(|| self.to_text())
    }

    /// The army in table order (strongest first, then mines, flag), the
    /// starting point of the generators.
    fn ordered(variant: Variant) -> [Kind; SETUP_SQUARES] {
        let mut kinds = [Kind::FLAG; SETUP_SQUARES];
        let mut n = 0;
        for k in variant.kinds() {
            for _ in 0..variant.count(k) {
                kinds[n] = k;
                n += 1;
            }
        }
        kinds
    }

    /// "Shuffle": a uniformly random setup.
    pub fn shuffle<R: Rng + ?Sized>(variant: Variant, rng: &mut R) -> Setup {
        let mut kinds = Setup::ordered(variant);
        kinds.shuffle(rng);
        Setup { variant, kinds }
    }

    /// "Smart": the flag in the back row with mines on its free sides, the
    /// front-line kind ([`Variant::front_kind`]) in the front row, the rest
    /// random (remaining mines behind the front row).
    pub fn smart<R: Rng + ?Sized>(variant: Variant, rng: &mut R) -> Setup {
        let mut slots: [Option<Kind>; SETUP_SQUARES] = [None; SETUP_SQUARES];
        let flag_col = rng.random_range(0..10usize);
        slots[30 + flag_col] = Some(Kind::FLAG);
        let mut mines = variant.count(Kind::MINE) as usize;
        let mut guards = vec![20 + flag_col];
        if flag_col > 0 {
            guards.push(30 + flag_col - 1);
        }
        if flag_col < 9 {
            guards.push(30 + flag_col + 1);
        }
        for g in guards {
            slots[g] = Some(Kind::MINE);
            mines -= 1;
        }
        let mut back: Vec<usize> = (10..SETUP_SQUARES)
            .filter(|&i| slots[i].is_none())
            .collect();
        back.shuffle(rng);
        for &i in back.iter().take(mines) {
            slots[i] = Some(Kind::MINE);
        }
        let front_kind = variant.front_kind();
        let mut front: Vec<usize> = (0..10).collect();
        front.shuffle(rng);
        for &i in front.iter().take(variant.count(front_kind) as usize) {
            slots[i] = Some(front_kind);
        }
        let mut rest: Vec<Kind> = Vec::new();
        for k in variant.kinds() {
            if k != Kind::FLAG && k != Kind::MINE && k != front_kind {
                rest.extend(std::iter::repeat_n(k, variant.count(k) as usize));
            }
        }
        rest.shuffle(rng);
        let mut rest = rest.into_iter();
        let mut kinds = [Kind::FLAG; SETUP_SQUARES];
        for (slot, kind) in slots.iter().zip(kinds.iter_mut()) {
            *kind = match slot {
                Some(k) => *k,
                None => rest.next().unwrap_or(Kind::FLAG),
            };
        }
        Setup { variant, kinds }
    }

    /// "Human-like": a setup drawn from the model of 64,920 human classic
    /// setups (the expert bot sets up with it) (how often people put each kind
    /// on each square, the flag's sides mined); the other rule sets weigh
    /// their kinds by the classic kind of the same role. Never a copy of
    /// one human setup.
    ///
    /// ```
    /// use stratego_core::game_traits::rand::SeedableRng;
    /// use stratego_core::game_traits::GameRng;
    /// use stratego_core::{Setup, Variant};
    /// let mut rng = GameRng::seed_from_u64(7);
    /// let setup = Setup::human_like(Variant::Czech, &mut rng);
    /// assert_eq!(Setup::from_text(Variant::Czech, &setup.to_text()).unwrap(), setup);
    /// ```
    pub fn human_like<R: Rng + ?Sized>(variant: Variant, rng: &mut R) -> Setup {
        model::draw_setup(variant, rng)
    }
}

/// Four lines of ten two-character symbols, back row first (as the owner
/// sees the board from his seat).
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..4).rev() {
            for col in 0..10 {
                write!(f, "{} ", self.variant.symbol(self.kinds[row * 10 + col]))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
