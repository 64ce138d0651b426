//! Formations and their strength: the first hot path.
//!
//! A formation's strength is one comparable [`Strength`]: the rank of its
//! class under the chosen [`FormationOrder`], then the sum of its values.
//! Without wild cards it is computed with a few bit operations on the set of
//! values; with wild cards (Leaders, Companion Cavalry, Shield Bearers) each
//! class is tested by reasoning about which values the wilds may take, never
//! by trying every assignment (the completion solver of
//! [`crate::completion`], which the flag-proof solver uses too, extended with
//! the cards still to be drawn).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Card, CardSet, Tactic, TROOPS};
use crate::completion::best_completion;

/// The formation classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FormationClass {
    /// Any other three (four) cards.
    Host,
    /// Three (four) cards of one colour.
    Battalion,
    /// Consecutive values, any colours.
    SkirmishLine,
    /// Three (four) cards of one value.
    Phalanx,
    /// Consecutive values of one colour.
    Wedge,
}

impl FormationClass {
    const fn code(self) -> u16 {
        self as u16 + 1
    }

    fn from_code(code: u16) -> Option<FormationClass> {
        match code {
            1 => Some(FormationClass::Host),
            2 => Some(FormationClass::Battalion),
            3 => Some(FormationClass::SkirmishLine),
            4 => Some(FormationClass::Phalanx),
            5 => Some(FormationClass::Wedge),
            _ => None,
        }
    }
}

/// How the classes rank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FormationOrder {
    /// The rule text: Wedge > Phalanx > Skirmish Line > Battalion > Host.
    #[default]
    Text,
    /// The published GMT game: Wedge > Phalanx > Battalion > Skirmish Line > Host.
    Published,
}

impl FormationOrder {
    /// Rank of `class`, 1 (weakest) to 5.
    pub const fn rank(self, class: FormationClass) -> u16 {
        match (class, self) {
            (FormationClass::Host, _) => 1,
            (FormationClass::Battalion, FormationOrder::Text) => 2,
            (FormationClass::SkirmishLine, FormationOrder::Text) => 3,
            (FormationClass::SkirmishLine, FormationOrder::Published) => 2,
            (FormationClass::Battalion, FormationOrder::Published) => 3,
            (FormationClass::Phalanx, _) => 4,
            (FormationClass::Wedge, _) => 5,
        }
    }

    /// The classes from strongest to weakest.
    pub const fn classes(self) -> [FormationClass; 5] {
        match self {
            FormationOrder::Text => [
                FormationClass::Wedge,
                FormationClass::Phalanx,
                FormationClass::SkirmishLine,
                FormationClass::Battalion,
                FormationClass::Host,
            ],
            FormationOrder::Published => [
                FormationClass::Wedge,
                FormationClass::Phalanx,
                FormationClass::Battalion,
                FormationClass::SkirmishLine,
                FormationClass::Host,
            ],
        }
    }
}

/// What a flag's environment does to its formations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Environment {
    /// Fog: compare sums only.
    pub fog: bool,
    /// Mud: formations have four cards.
    pub mud: bool,
}

impl Environment {
    /// Cards in a complete formation: 3, or 4 under Mud.
    pub const fn slots(self) -> usize {
        if self.mud {
            4
        } else {
            3
        }
    }
}

/// The strength of a complete formation; greater is stronger. Compares
/// class rank first, then the sum. Under Fog the class is ignored.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Strength(u16);

impl Strength {
    const fn new(rank: u16, class: u16, sum: u16) -> Strength {
        Strength(rank << 9 | class << 6 | sum)
    }

    /// The strength of a formation under Fog with this sum.
    pub const fn sum_only(sum: u16) -> Strength {
        Strength::new(0, 0, sum & 63)
    }

    /// The strength of a formation of `class` with `sum` under `order`.
    pub const fn of(class: FormationClass, sum: u16, order: FormationOrder) -> Strength {
        Strength::new(order.rank(class), class.code(), sum & 63)
    }

    /// The class, or `None` under Fog.
    pub fn class(self) -> Option<FormationClass> {
        FormationClass::from_code(self.0 >> 6 & 7)
    }

    /// The sum of the values.
    pub const fn sum(self) -> u16 {
        self.0 & 63
    }

    /// The rank of the class under the order it was made with (0 under Fog).
    pub const fn rank(self) -> u16 {
        self.0 >> 9
    }
}

impl fmt::Debug for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.class() {
            Some(c) => write!(f, "{c:?} {}", self.sum()),
            None => write!(f, "sum {}", self.sum()),
        }
    }
}
/// The fixed part of a formation: the cards already in it, summarised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Part {
    /// Troop cards as troop bits.
    pub troops: u64,
    /// Value mask of the troops.
    pub vmask: u16,
    /// Colour mask of the troops.
    pub colours: u8,
    /// Two troops share a value.
    pub vdup: bool,
    /// Sum of the troops' values.
    pub tsum: u16,
    /// Number of troops.
    pub tcount: u8,
    /// Leaders in the formation.
    pub leaders: u8,
    /// Companion Cavalry present.
    pub cavalry: bool,
    /// Shield Bearers present.
    pub shield: bool,
}

impl Part {
    /// Summarises `cards`; `None` for a card that has no slot (Fog, Mud,
    /// guile tactics) or a card given twice.
    #[inline]
    pub fn of(cards: &[Card]) -> Option<Part> {
        let mut p = Part::default();
        let mut seen: u128 = 0;
        for &c in cards {
            let i = c.index();
            if seen >> i & 1 == 1 {
                return None;
            }
            seen |= 1 << i;
            if i < TROOPS {
                let bit = 1u16 << (i % 10);
                p.vdup |= p.vmask & bit != 0;
                p.vmask |= bit;
                p.colours |= 1 << (i / 10);
                p.tsum += (i % 10) as u16 + 1;
                p.tcount += 1;
                p.troops |= 1 << i;
            } else {
                match c.as_tactic() {
                    Some(Tactic::Alexander | Tactic::Darius) => p.leaders += 1,
                    Some(Tactic::CompanionCavalry) => p.cavalry = true,
                    Some(Tactic::ShieldBearers) => p.shield = true,
                    _ => return None,
                }
            }
        }
        Some(p)
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        (self.tcount + self.leaders + self.cavalry as u8 + self.shield as u8) as usize
    }

    pub(crate) fn wild_count(&self) -> u8 {
        self.leaders + self.cavalry as u8 + self.shield as u8
    }

    pub(crate) fn wild_max_sum(&self) -> u16 {
        self.leaders as u16 * 10
            + if self.cavalry { 8 } else { 0 }
            + if self.shield { 3 } else { 0 }
    }
}
/// The strength of a complete formation of `cards` (3 cards, 4 under Mud)
/// with every wild card given its best colour and value for its owner;
/// `None` when the cards are not a complete formation (wrong count, a
/// duplicate, a card that has no slot).
///
/// ```
/// use battleline_core::{formation_strength, Card, Colour, Environment, FormationClass, FormationOrder, Tactic};
/// let r = |v| Card::troop(Colour::Red, v).unwrap();
/// let wedge = formation_strength(&[r(3), r(4), r(5)], Environment::default(), FormationOrder::Text).unwrap();
/// assert_eq!(wedge.class(), Some(FormationClass::Wedge));
/// let with_leader = formation_strength(&[r(9), Card::tactic(Tactic::Alexander), r(10)], Environment::default(), FormationOrder::Text).unwrap();
/// assert_eq!(with_leader.sum(), 27); // Red 8-9-10
/// assert!(with_leader > wedge);
/// ```
#[inline]
pub fn formation_strength(
    cards: &[Card],
    env: Environment,
    order: FormationOrder,
) -> Option<Strength> {
    // Fast path for three troops: one table lookup per card, then bit tests.
    if let ([a, b, c], false) = (cards, env.mud) {
        let (x, y, z) = (info(*a), info(*b), info(*c));
        let or = x | y | z;
        if or & NOT_TROOP == 0 && a != b && b != c && a != c {
            let part = Part {
                vmask: (or & 0x3FF) as u16,
                colours: if x & y & z & 0xFC00 != 0 { 1 } else { 3 },
                tsum: ((x >> 16) + (y >> 16) + (z >> 16)) as u16,
                tcount: 3,
                ..Part::default()
            };
            return Some(plain_strength(&part, 3, env.fog, order));
        }
    }
    let part = Part::of(cards)?;
    part_strength(&part, env, order)
}

/// Per card index: value bit (bits 0..10), colour bit (10..16), the value
/// (from bit 16), and bit 31 for a card that is not a troop. Indexed by a
/// byte so that the lookup needs no bounds check.
const NOT_TROOP: u32 = 1 << 31;
static CARD_INFO: [u32; 256] = {
    let mut t = [NOT_TROOP; 256];
    let mut i = 0;
    while i < 70 {
        t[i] = if i < TROOPS {
            (1 << (i % 10)) | (1 << (10 + i / 10)) | (((i % 10) as u32 + 1) << 16)
        } else {
            NOT_TROOP
        };
        i += 1;
    }
    t
};

#[inline]
fn info(c: Card) -> u32 {
    CARD_INFO[c.index() as u8 as usize]
}

/// Compares two complete formations at a flag with environment `env`;
/// `None` when either is not a complete formation. An equal result is
/// decided by who completed first (see [`crate::Flag::first_complete`]).
///
/// ```
/// use std::cmp::Ordering;
/// use battleline_core::{compare_formations, Card, Colour, Environment, FormationOrder};
/// let c = |col, v| Card::troop(col, v).unwrap();
/// let line = [c(Colour::Yellow, 4), c(Colour::Red, 6), c(Colour::Green, 5)];
/// let battalion = [c(Colour::Blue, 2), c(Colour::Blue, 7), c(Colour::Blue, 4)];
/// let env = Environment::default();
/// assert_eq!(compare_formations(&line, &battalion, env, FormationOrder::Text), Some(Ordering::Greater));
/// assert_eq!(compare_formations(&line, &battalion, env, FormationOrder::Published), Some(Ordering::Less));
/// ```
pub fn compare_formations(
    a: &[Card],
    b: &[Card],
    env: Environment,
    order: FormationOrder,
) -> Option<std::cmp::Ordering> {
    Some(formation_strength(a, env, order)?.cmp(&formation_strength(b, env, order)?))
}

/// The strength of a complete summarised formation.
#[inline]
pub(crate) fn part_strength(
    part: &Part,
    env: Environment,
    order: FormationOrder,
) -> Option<Strength> {
    let n = env.slots() as u8;
    if part.len() != n as usize {
        return None;
    }
    if part.wild_count() == 0 {
        return Some(plain_strength(part, n, env.fog, order));
    }
    best_completion::<false>(part, env, 0, order, 0).map(|(s, _)| s)
}

/// [`part_strength`] when every wild must become a distinct troop card of
/// `unseen` (the cards not visible on the table); `None` also when the
/// wilds cannot all become one.
#[inline]
pub(crate) fn part_strength_unseen(
    part: &Part,
    env: Environment,
    order: FormationOrder,
    unseen: u64,
) -> Option<Strength> {
    let n = env.slots() as u8;
    if part.len() != n as usize {
        return None;
    }
    if part.wild_count() == 0 {
        return Some(plain_strength(part, n, env.fog, order));
    }
    best_completion::<true>(part, env, unseen, order, 0).map(|(s, _)| s)
}

/// The strength of a complete formation of `cards` under the option
/// [`WildCards::UnseenOnly`](crate::WildCards): each wild card may only
/// become a troop card that is not `visible` on the table (in a slot at
/// any flag or in the discards) nor among `cards`, and the wilds become
/// distinct cards. `None` also when the wilds cannot all become one: such a
/// formation is no formation.
///
/// ```
/// use battleline_core::{formation_strength_unseen, Card, CardSet, Colour, Environment, FormationClass, FormationOrder, Tactic};
/// let r = |v| Card::troop(Colour::Red, v).unwrap();
/// let cards = [r(9), Card::tactic(Tactic::Alexander), r(10)];
/// let env = Environment::default();
/// let free = formation_strength_unseen(&cards, env, FormationOrder::Text, CardSet::EMPTY).unwrap();
/// assert_eq!(free.sum(), 27); // Red 8-9-10
/// // With Red 8 on the table the Leader is an 8 of another colour.
/// let seen: CardSet = [r(8)].into_iter().collect();
/// let s = formation_strength_unseen(&cards, env, FormationOrder::Text, seen).unwrap();
/// assert_eq!((s.class(), s.sum()), (Some(FormationClass::SkirmishLine), 27));
/// ```
pub fn formation_strength_unseen(
    cards: &[Card],
    env: Environment,
    order: FormationOrder,
    visible: CardSet,
) -> Option<Strength> {
    let part = Part::of(cards)?;
    let pool = CardSet::ALL_TROOPS.troop_bits() & !visible.troop_bits() & !part.troops;
    part_strength_unseen(&part, env, order, pool)
}

/// Strength of a formation of troops only: pure bit tests on the value mask.
#[inline]
fn plain_strength(part: &Part, n: u8, fog: bool, order: FormationOrder) -> Strength {
    if fog {
        return Strength::sum_only(part.tsum);
    }
    let flush = part.colours.count_ones() == 1;
    let distinct = part.vmask.count_ones();
    let run = distinct == n as u32 && (part.vmask >> part.vmask.trailing_zeros()) == (1 << n) - 1;
    // A formation is never two of Phalanx, run, one colour except a Wedge,
    // so the class does not depend on the order; only its rank does.
    let class = if run && flush {
        FormationClass::Wedge
    } else if distinct == 1 {
        FormationClass::Phalanx
    } else if run {
        FormationClass::SkirmishLine
    } else if flush {
        FormationClass::Battalion
    } else {
        FormationClass::Host
    };
    Strength::of(class, part.tsum, order)
}
