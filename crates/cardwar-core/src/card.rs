//! Cards: the 24 soldiers of a colour, sets of them, and the guard.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Number of soldiers of a colour: 2..king in two suits.
pub const SOLDIERS: usize = 24;

/// One soldier of a colour (2..10, jack, queen, king of one of the colour's
/// two suits). Its owner is implied by where it lies: each player only ever
/// holds cards of his own colour.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(try_from = "u8", into = "u8")]
pub struct Soldier(u8);

impl Soldier {
    /// The soldier with dense index `id` (`0..24`): rank `2 + id / 2`, suit
    /// `id % 2`.
    pub const fn new(id: u8) -> Option<Soldier> {
        if (id as usize) < SOLDIERS {
            Some(Soldier(id))
        } else {
            None
        }
    }

    /// The soldier of `rank` (2..=13) in suit `suit` (0 or 1).
    pub const fn of_rank(rank: u8, suit: u8) -> Option<Soldier> {
        if rank >= 2 && rank <= 13 && suit < 2 {
            Some(Soldier((rank - 2) * 2 + suit))
        } else {
            None
        }
    }

    /// The dense index, `0..24`.
    pub const fn id(self) -> u8 {
        self.0
    }

    /// Rank 2..=13 (jack 11, queen 12, king 13), which is also the card's
    /// strength and full health.
    pub const fn strength(self) -> u8 {
        2 + self.0 / 2
    }

    /// Suit, 0 or 1 (rendered `a` / `b`).
    pub const fn suit(self) -> u8 {
        self.0 % 2
    }

    /// All soldiers of a colour.
    pub fn all() -> impl Iterator<Item = Soldier> {
        (0..SOLDIERS as u8).map(Soldier)
    }
}

impl TryFrom<u8> for Soldier {
    type Error = String;
    fn try_from(id: u8) -> Result<Self, String> {
        Soldier::new(id).ok_or_else(|| format!("soldier id {id} out of range"))
    }
}

impl From<Soldier> for u8 {
    fn from(s: Soldier) -> u8 {
        s.0
    }
}

impl fmt::Display for Soldier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rank = match self.strength() {
            11 => "J".to_owned(),
            12 => "Q".to_owned(),
            13 => "K".to_owned(),
            n => n.to_string(),
        };
        write!(f, "{rank}{}", if self.suit() == 0 { 'a' } else { 'b' })
    }
}

impl std::str::FromStr for Soldier {
    type Err = game_traits::ParseError;

    /// Reads a soldier as it is displayed: rank `2`..`10`, `J`, `Q` or `K`,
    /// then suit `a` or `b` (`"10a"`, `"Kb"`).
    fn from_str(s: &str) -> Result<Soldier, game_traits::ParseError> {
        let bad = game_traits::ParseError::new(
            "a soldier: a rank 2..10, J, Q or K and a suit a or b (10a, Kb)",
            s,
        );
        let (rank, suit) = match (s.strip_suffix('a'), s.strip_suffix('b')) {
            (Some(r), _) => (r, 0),
            (_, Some(r)) => (r, 1),
            _ => return Err(bad),
        };
        let rank = match rank {
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            "2" => 2,
            "3" => 3,
            "4" => 4,
            "5" => 5,
            "6" => 6,
            "7" => 7,
            "8" => 8,
            "9" => 9,
            "10" => 10,
            _ => return Err(bad),
        };
        Soldier::of_rank(rank, suit).ok_or(bad)
    }
}

/// A set of soldiers of one colour, as a bit mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
// Validated: a bit past the soldiers would list a soldier that cannot exist.
#[serde(try_from = "u32", into = "u32")]
pub struct CardSet(u32);

impl TryFrom<u32> for CardSet {
    type Error = String;
    fn try_from(bits: u32) -> Result<Self, String> {
        let set = CardSet(bits);
        if set.is_valid() {
            Ok(set)
        } else {
            Err(format!("card set {bits:#x} has bits past the 24 soldiers"))
        }
    }
}

impl From<CardSet> for u32 {
    fn from(set: CardSet) -> u32 {
        set.0
    }
}

impl CardSet {
    /// No card.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 24 soldiers.
    pub const ALL: CardSet = CardSet((1 << SOLDIERS) - 1);

    /// The raw mask (bit `id` for soldier `id`).
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether every bit is a soldier.
    pub const fn is_valid(self) -> bool {
        self.0 & !Self::ALL.0 == 0
    }

    /// Number of cards.
    #[inline]
    pub fn len(self) -> usize {
        // Table lookups beat `count_ones`, which the portable x86-64 target
        // computes bit-twiddling without a popcount instruction.
        self.0.to_le_bytes().map(byte_count).iter().sum::<u8>() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `card` is in the set.
    pub const fn contains(self, card: Soldier) -> bool {
        self.0 & (1 << card.0) != 0
    }

    /// Adds `card`.
    pub fn insert(&mut self, card: Soldier) {
        self.0 |= 1 << card.0;
    }

    /// Removes `card`.
    pub fn remove(&mut self, card: Soldier) {
        self.0 &= !(1 << card.0);
    }

    /// Cards in either set.
    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// Cards of `self` not in `other`.
    pub const fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// Cards in both sets.
    pub const fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// The `n`-th card in id order, if any: how a uniform draw picks a card
    /// without allocating.
    #[inline]
    pub fn nth(self, n: usize) -> Option<Soldier> {
        #[cfg(target_arch = "x86_64")]
        if game_traits::bits::has_fast_pdep() {
            // SAFETY: `has_fast_pdep` has checked that the CPU has BMI2.
            return unsafe { self.nth_pdep(n) };
        }
        self.nth_portable(n)
    }

    /// [`CardSet::nth`] by one `pdep`, the whole draw compiled with BMI2 so
    /// that the instruction is inlined.
    ///
    /// # Safety
    ///
    /// Only on a CPU that has BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    unsafe fn nth_pdep(self, n: usize) -> Option<Soldier> {
        let bits = u64::from(self.0 & Self::ALL.0);
        let at = game_traits::bits::select_pdep(bits, u32::try_from(n).ok()?)?;
        Soldier::new(at as u8)
    }

    /// [`CardSet::nth`] without BMI2.
    pub(crate) fn nth_portable(self, n: usize) -> Option<Soldier> {
        // The soldiers span three bytes. Which byte holds the card is found
        // by comparisons rather than branches (`n` is random, so branches on
        // it mispredict), then a table gives the card within the byte. The
        // bytes are taken by shifts: indexing a byte array would go through
        // memory and stall on the store just made.
        let bits = self.0 & Self::ALL.0;
        let c0 = byte_count(bits as u8);
        let c01 = c0 + byte_count((bits >> 8) as u8);
        if n >= (c01 + byte_count((bits >> 16) as u8)) as usize {
            return None;
        }
        let n = n as u8;
        let (past0, past1) = (n >= c0, n >= c01);
        let shift = 8 * (past0 as u32 + past1 as u32);
        let skipped = if past1 {
            c01
        } else if past0 {
            c0
        } else {
            0
        };
        let byte = (bits >> shift) as u8;
        let within = SELECT_IN_BYTE[byte as usize][(n - skipped) as usize % COUNT];
        Some(Soldier(shift as u8 + within))
    }

    /// The cards in id order.
    pub fn iter(self) -> Cards {
        Cards(self.0)
    }
}

/// Index of the bit count in a row of [`SELECT_IN_BYTE`].
const COUNT: usize = 8;

/// Number of set bits of `byte`.
pub(crate) fn byte_count(byte: u8) -> u8 {
    SELECT_IN_BYTE[byte as usize][COUNT]
}

/// `SELECT_IN_BYTE[b][k]` for `k < 8`: the position of the `k`-th set bit of
/// byte `b` (0 where there is none); `SELECT_IN_BYTE[b][COUNT]`: the number
/// of set bits (the portable build has no popcount instruction).
static SELECT_IN_BYTE: [[u8; COUNT + 1]; 256] = {
    let mut table = [[0u8; COUNT + 1]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if b & (1 << bit) != 0 {
                table[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        table[b][COUNT] = k as u8;
        b += 1;
    }
    table
};

/// The cards of a [`CardSet`] in id order; its exact length lets
/// `Vec::extend` reserve once.
#[derive(Clone, Copy, Debug)]
pub struct Cards(u32);

impl Iterator for Cards {
    type Item = Soldier;

    fn next(&mut self) -> Option<Soldier> {
        (self.0 != 0).then(|| {
            let id = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Soldier(id)
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cards {}

impl FromIterator<Soldier> for CardSet {
    fn from_iter<I: IntoIterator<Item = Soldier>>(iter: I) -> Self {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for card in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

/// The general and his guard: two aces and the joker, face up beside their
/// owner, with one health for the whole game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Guard {
    /// The ace that fights first.
    FirstAce,
    /// The ace that fights second.
    SecondAce,
    /// The general: when he dies his side loses.
    Joker,
}

impl Guard {
    /// The guards in the order they fight.
    pub const ORDER: [Guard; 3] = [Guard::FirstAce, Guard::SecondAce, Guard::Joker];

    /// Index in [`Guard::ORDER`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Strength and starting health: ace 14, joker 15.
    pub const fn strength(self) -> u8 {
        match self {
            Guard::Joker => 15,
            _ => 14,
        }
    }

    /// Its code, as the notation and the wire's `open` write it (`"A1"`,
    /// `"A2"`, `"Jk"`).
    pub const fn code(self) -> &'static str {
        match self {
            Guard::FirstAce => "A1",
            Guard::SecondAce => "A2",
            Guard::Joker => "Jk",
        }
    }

    /// Its name as a player reads it (`"first ace"`): the glossary's
    /// ([`Wire::glossary`](game_traits::Wire::glossary)).
    pub const fn name(self) -> &'static str {
        match self {
            Guard::FirstAce => "first ace",
            Guard::SecondAce => "second ace",
            Guard::Joker => "joker",
        }
    }
}

impl fmt::Display for Guard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sets of every size, spread over the 24 bits (a multiplicative walk
    /// through the masks, plus the extremes).
    fn sample_sets() -> impl Iterator<Item = CardSet> {
        let walk = (0..20_000u32).map(|i| CardSet(i.wrapping_mul(0x9E37_79B9) >> 8));
        walk.chain([CardSet::EMPTY, CardSet::ALL, CardSet(1), CardSet(1 << 23)])
    }

    #[test]
    fn nth_matches_iteration_on_both_paths() {
        for set in sample_sets() {
            for n in (0..34).chain([64, 1 << 32, usize::MAX]) {
                let slow = set.iter().nth(n);
                assert_eq!(set.nth_portable(n), slow, "{set:?} {n}");
                assert_eq!(set.nth(n), slow, "{set:?} {n}");
            }
        }
    }
}
