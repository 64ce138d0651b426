//! Sets of flags: the claims of a player, the flags open to a card.

use std::fmt;

use crate::flag::{FlagId, FLAGS};

/// A set of the nine flags, small and `Copy` (one bit per flag).
///
/// ```
/// use battleline_core::{FlagId, FlagSet};
/// let f = |i| FlagId::new(i).unwrap();
/// let mut claims: FlagSet = [f(0), f(4)].into_iter().collect();
/// assert!(claims.contains(f(4)) && claims.len() == 2);
/// assert!(!claims.is_victory());
/// claims.insert(f(5));
/// claims.insert(f(3));
/// assert!(claims.is_victory()); // F4 F5 F6: a breakthrough
/// assert_eq!(claims.iter().map(FlagId::index).collect::<Vec<_>>(), [0, 3, 4, 5]);
/// assert_eq!(claims.to_string(), "F1 F4 F5 F6");
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct FlagSet(u16);

impl FlagSet {
    /// No flag.
    pub const EMPTY: FlagSet = FlagSet(0);
    /// All nine flags.
    pub const ALL: FlagSet = FlagSet((1 << FLAGS) - 1);

    pub(crate) const fn from_bits(bits: u16) -> FlagSet {
        FlagSet(bits & FlagSet::ALL.0)
    }

    pub(crate) const fn bits(self) -> u16 {
        self.0
    }

    /// Whether `flag` is in the set.
    pub const fn contains(self, flag: FlagId) -> bool {
        self.0 >> flag.index() & 1 == 1
    }

    /// Adds `flag`.
    pub fn insert(&mut self, flag: FlagId) {
        self.0 |= 1 << flag.index();
    }

    /// Removes `flag`.
    pub fn remove(&mut self, flag: FlagId) {
        self.0 &= !(1 << flag.index());
    }

    /// Number of flags.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether claiming these flags wins: three adjacent (a breakthrough)
    /// or any five.
    pub const fn is_victory(self) -> bool {
        let m = self.0;
        m.count_ones() >= 5 || m & m >> 1 & m >> 2 != 0
    }

    /// The flags from left to right.
    pub fn iter(self) -> FlagSetIter {
        FlagSetIter(self.0)
    }
}

impl FromIterator<FlagId> for FlagSet {
    fn from_iter<I: IntoIterator<Item = FlagId>>(iter: I) -> Self {
        let mut s = FlagSet::EMPTY;
        for f in iter {
            s.insert(f);
        }
        s
    }
}

impl IntoIterator for FlagSet {
    type Item = FlagId;
    type IntoIter = FlagSetIter;
    fn into_iter(self) -> FlagSetIter {
        self.iter()
    }
}

/// Iterator over a [`FlagSet`], left to right.
#[derive(Clone, Debug)]
pub struct FlagSetIter(u16);

impl Iterator for FlagSetIter {
    type Item = FlagId;
    fn next(&mut self) -> Option<FlagId> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        FlagId::new(i)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for FlagSetIter {}

impl fmt::Debug for FlagSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl fmt::Display for FlagSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, flag) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{flag}")?;
        }
        Ok(())
    }
}
