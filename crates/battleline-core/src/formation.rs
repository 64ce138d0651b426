//! Formations and their strength: the first hot path.
//!
//! A formation's strength is one comparable [`Strength`]: the rank of its
//! class under the chosen [`FormationOrder`], then the sum of its values.
//! Without wild cards it is computed with a few bit operations on the set of
//! values and one lookup of the class's rank; with wild cards (Leaders,
//! Companion Cavalry, Shield Bearers) that may copy any card the wilds are
//! placed from the top (Cavalry is a free-colour 8, Leaders fill, Shield
//! Bearers bound where a run may start), every class's best computed
//! without branches; never by trying every assignment. Under
//! [`WildCards::UnseenOnly`](crate::WildCards) the completion solver of
//! [`crate::completion`] places them among the unseen cards.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Card, CardSet};
use crate::completion::best_completion;

mod part;

pub(crate) use part::Part;
use part::{info, wild_sum, with_cavalry, Summary, INFO_COLOUR, INFO_VALUE, TROOP};

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

    /// The same strength, made under [`FormationOrder::Text`], ranked
    /// under `order` (the class code stays; only its rank moves).
    #[inline]
    pub(crate) fn under(self, order: FormationOrder) -> Strength {
        match order {
            FormationOrder::Text => self,
            FormationOrder::Published => {
                Strength(self.0 & 0x1FF | PUBLISHED_RANK[(self.0 >> 6 & 7) as usize] << 9)
            }
        }
    }
}

/// The rank of each class code under [`FormationOrder::Published`].
static PUBLISHED_RANK: [u16; 8] = {
    let mut t = [0u16; 8];
    let classes = FormationOrder::Text.classes();
    let mut i = 0;
    while i < 5 {
        t[classes[i].code() as usize] = FormationOrder::Published.rank(classes[i]);
        i += 1;
    }
    t
};

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
    // Fast path for three troops: one table lookup per card, then bit
    // tests and one more lookup, no branch on the class.
    if let ([a, b, c], false) = (cards, env.mud) {
        let (x, y, z) = (info(*a), info(*b), info(*c));
        if x & y & z & TROOP != 0 && a != b && b != c && a != c {
            let vmask = ((x | y | z) & INFO_VALUE) as u16;
            let one_colour = x & y & z & INFO_COLOUR != 0;
            let sum = (((x >> 16) + (y >> 16) + (z >> 16)) & 0xFF) as u16;
            return Some(troop_strength(vmask, one_colour, sum, 3, env.fog, order));
        }
    }
    any_formation_strength(cards, env, order)
}

/// [`formation_strength`] past the fast path for three troops: kept out of
/// line so that the fast path inlines into its callers.
#[inline(never)]
fn any_formation_strength(
    cards: &[Card],
    env: Environment,
    order: FormationOrder,
) -> Option<Strength> {
    let s = Summary::of(cards)?;
    if cards.len() != env.slots() {
        return None;
    }
    Some(if env.fog {
        Strength::sum_only(s.high_sum())
    } else {
        Strength(s.strength(cards.len() as u8)).under(order)
    })
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
#[inline(always)]
pub(crate) fn part_strength(
    part: &Part,
    env: Environment,
    order: FormationOrder,
) -> Option<Strength> {
    if part.len() != env.slots() {
        return None;
    }
    Some(if env.fog {
        Strength::sum_only(part.tsum + part.wild_max_sum())
    } else {
        Strength(part.strength).under(order)
    })
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
    if part.wild_count() == 0 {
        return part_strength(part, env, order);
    }
    if part.len() != env.slots() {
        return None;
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
    let pool = CardSet::ALL_TROOPS.troop_bits() & !visible.troop_bits() & !part.troops();
    part_strength_unseen(&part, env, order, pool)
}

/// Strength of `n` distinct troops with value mask `vmask`: pure bit tests
/// and a lookup of the class's rank, so that random formations cost no
/// mispredicted branch.
#[inline]
fn troop_strength(
    vmask: u16,
    one_colour: bool,
    sum: u16,
    n: u8,
    fog: bool,
    order: FormationOrder,
) -> Strength {
    if fog {
        return Strength::sum_only(sum);
    }
    let single = vmask & vmask.wrapping_sub(1) == 0;
    let run = vmask.wrapping_shr(vmask.trailing_zeros()) == (1 << n) - 1;
    let shape = run as usize | (single as usize) << 1 | (one_colour as usize) << 2;
    Strength(CLASS_BITS[order as usize][shape] | (sum & 63))
}

/// The class bits of [`Strength`] per order and shape (bit 0 a run, bit 1
/// one value, bit 2 one colour). A formation is never two of Phalanx, run,
/// one colour except a Wedge, so the class does not depend on the order;
/// only its rank does.
static CLASS_BITS: [[u16; 8]; 2] = {
    const fn row(order: FormationOrder) -> [u16; 8] {
        let mut r = [0u16; 8];
        let mut shape = 0;
        while shape < 8 {
            let (run, single, flush) = (shape & 1 != 0, shape & 2 != 0, shape & 4 != 0);
            let class = if run && flush {
                FormationClass::Wedge
            } else if single {
                FormationClass::Phalanx
            } else if run {
                FormationClass::SkirmishLine
            } else if flush {
                FormationClass::Battalion
            } else {
                FormationClass::Host
            };
            r[shape] = Strength::of(class, 0, order).0;
            shape += 1;
        }
        r
    }
    [row(FormationOrder::Text), row(FormationOrder::Published)]
};

/// Strength of a complete formation with wild cards that may copy any card
/// ([`WildCards::CopyTable`](crate::WildCards)), under
/// [`FormationOrder::Text`] without Fog. The wilds are placed from
/// the top without trying classes one by one: Cavalry is a troop of value 8
/// in any colour, Leaders fill whatever slots are left (any value, any
/// colour), so only Shield Bearers' values 1-3 restrict a run.
#[inline(never)]
pub(crate) fn wild_strength(
    vmask: u16,
    vdup: bool,
    one_colour: bool,
    tsum: u16,
    wilds: u8,
    n: u8,
) -> Strength {
    let of = |class, sum| Strength::of(class, sum, FormationOrder::Text).0;
    let shield = wilds & 8 != 0;
    let (vmask, vdup) = with_cavalry(vmask, vdup, wilds & 4 != 0);
    let all_high = tsum + wild_sum(wilds);
    // Every class the wilds can reach, best sum each, without branches:
    // the strongest wins (0 for a class out of reach).
    let starts = if vdup { 0 } else { run_starts(vmask, n) }
        & SHIELD_STARTS[(shield as usize) << 3 | (!vmask & 0b111) as usize];
    let run = run_sum(n, (15 - (starts | 1).leading_zeros()) as u8);
    let has_run = starts != 0;
    let wedge = if has_run && one_colour {
        of(FormationClass::Wedge, run)
    } else {
        0
    };
    // One value or none yet: Leaders copy it, Shield Bearers need 1-3.
    let v = match (vmask, shield) {
        (0, true) => 2,
        (0, false) => 9,
        (m, _) => m.trailing_zeros() as u16,
    };
    let phalanx_ok = vmask & vmask.wrapping_sub(1) == 0 && (!shield || v <= 2);
    let phalanx = if phalanx_ok {
        of(FormationClass::Phalanx, n as u16 * (v + 1))
    } else {
        0
    };
    let line = if has_run {
        of(FormationClass::SkirmishLine, run)
    } else {
        0
    };
    let battalion = if one_colour {
        of(FormationClass::Battalion, all_high)
    } else {
        0
    };
    let host = of(FormationClass::Host, all_high);
    Strength(wedge.max(phalanx).max(line).max(battalion).max(host))
}

/// The run starts Shield Bearers allow, per (whether they are there) << 3
/// | (the free values 1-3 as 3 bits): they take a free value 1-3 inside the
/// run, so the run may start at most at the highest such value.
static SHIELD_STARTS: [u16; 16] = {
    let mut t = [u16::MAX; 16];
    let mut free = 0;
    while free < 8 {
        t[8 | free] = match free {
            0 => 0,
            1 => 0b1,
            2 | 3 => 0b11,
            _ => 0b111,
        };
        free += 1;
    }
    t
};

/// The starts (value indices, as a mask) of the runs of `n` values that hold
/// every value of `vmask` (a run holds each value once).
#[inline]
pub(crate) fn run_starts(vmask: u16, n: u8) -> u16 {
    let last = 10 - n as u32;
    if vmask == 0 {
        return (2 << last) - 1;
    }
    let hi = 15 - vmask.leading_zeros();
    let lo = vmask.trailing_zeros().min(last);
    let from = (hi + 1).saturating_sub(n as u32);
    if from > lo {
        0
    } else {
        ((2u16 << lo) - 1) & !((1u16 << from) - 1)
    }
}

/// Sum of the run of `n` values from value index `lo`.
pub(crate) const fn run_sum(n: u8, lo: u8) -> u16 {
    let n = n as u16;
    n * (lo as u16 + 1) + n * (n - 1) / 2
}
