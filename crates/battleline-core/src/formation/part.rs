//! The fixed part of a formation: the cards already in it, summarised once
//! (when a card is placed) for the evaluator and the claim proofs.

use crate::card::{Card, CardSet, Tactic, TROOPS};

use super::{troop_strength, wild_strength, FormationOrder};

/// The cards of a formation, summarised.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Part {
    /// The cards as a mask over the slot cards' indices 0..64: the troops,
    /// then the two Leaders, Companion Cavalry and Shield Bearers.
    slots: u64,
    /// Value mask of the troops.
    pub vmask: u16,
    /// Sum of the troops' values.
    pub tsum: u16,
    /// The bits of the [`Strength`](super::Strength) of the cards as a
    /// complete formation of their number (3 or 4; 0 for another) under
    /// [`FormationOrder::Text`] without Fog, the wilds copying any card:
    /// computed once here rather than in every claim proof.
    pub strength: u16,
    /// Colour mask of the troops.
    pub colours: u8,
    /// Two troops share a value.
    pub vdup: bool,
    /// Number of cards.
    cards: u8,
}

/// Per card index: for a troop its value bit (bits 0..10), colour bit
/// (10..16), value (16..24) and bit 24 (so that summing `x >> 16` over the
/// cards counts values and troops at once); nothing for a morale tactic;
/// bit 31 for a card that has no slot. Indexed by a byte so that the lookup
/// needs no bounds check.
pub(super) const TROOP: u32 = 1 << 24;
const NOT_SLOT: u32 = 1 << 31;
pub(super) const INFO_VALUE: u32 = 0x3FF;
pub(super) const INFO_COLOUR: u32 = 0xFC00;
static CARD_INFO: [u32; 256] = {
    let mut t = [NOT_SLOT; 256];
    let mut i = 0;
    while i < TROOPS {
        t[i] = (1 << (i % 10)) | (1 << (10 + i / 10)) | (((i % 10) as u32 + 1) << 16) | TROOP;
        i += 1;
    }
    while i < WILD_BITS as usize + 4 {
        t[i] = 0;
        i += 1;
    }
    t
};

/// The card index of the first morale tactic: the four follow the troops
/// (Alexander, Darius, Companion Cavalry, Shield Bearers), and every card
/// from 64 up has no slot.
const WILD_BITS: u32 = TROOPS as u32 + Tactic::Alexander as u32;
const _: () = assert!(
    Tactic::Darius as u32 == Tactic::Alexander as u32 + 1
        && Tactic::CompanionCavalry as u32 == Tactic::Alexander as u32 + 2
        && Tactic::ShieldBearers as u32 == Tactic::Alexander as u32 + 3
        && WILD_BITS == 60
        && Card::tactic(Tactic::Fog).index() == 64
);
/// Per 4-bit set of morale tactics (bit 0 Alexander .. bit 3 Shield
/// Bearers): how many, and their highest values added up.
static WILD_COUNT: [u8; 16] = {
    let mut t = [0; 16];
    let mut w = 0;
    while w < 16 {
        t[w] = (w & 1) as u8 + (w >> 1 & 1) as u8 + (w >> 2 & 1) as u8 + (w >> 3 & 1) as u8;
        w += 1;
    }
    t
};
static WILD_SUM: [u8; 16] = {
    let mut t = [0; 16];
    let mut w = 0;
    while w < 16 {
        t[w] = 10 * (w & 1) as u8
            + 10 * (w >> 1 & 1) as u8
            + 8 * (w >> 2 & 1) as u8
            + 3 * (w >> 3 & 1) as u8;
        w += 1;
    }
    t
};

#[inline]
pub(super) fn info(c: Card) -> u32 {
    CARD_INFO[c.index() as u8 as usize]
}

/// The cards of a formation summarised in registers, before they are
/// packed into a [`Part`] (or, for a lone formation, straight into its
/// strength).
pub(super) struct Summary {
    /// The slot cards as in [`Part`].
    seen: u64,
    vmask: u16,
    tsum: u16,
    colours: u8,
    vdup: bool,
}

impl Summary {
    /// Summarises `cards`; `None` for a card that has no slot (Fog, Mud,
    /// guile tactics), a card given twice, or more than eight cards.
    #[inline(always)]
    pub(super) fn of(cards: &[Card]) -> Option<Summary> {
        // Past eight cards (two full sides) the sums below could overflow.
        if cards.len() > 8 {
            return None;
        }
        // The slot cards are exactly the indices 0..64, so a 64-bit mask
        // shifted modulo 64 sees every one (a card from 64 up has no slot
        // and spoils the result anyway). One table lookup per card and no
        // branch on its kind.
        let mut seen = 0u64;
        let mut twice = 0u64;
        let mut acc = 0u32;
        let mut same_value = 0u32;
        let mut sums = 0u32;
        for &c in cards {
            let bit = 1u64.wrapping_shl(c.index() as u32);
            twice |= seen & bit;
            seen |= bit;
            let x = info(c);
            same_value |= acc & x;
            acc |= x;
            sums += x >> 16;
        }
        if twice != 0 || acc & NOT_SLOT != 0 {
            return None;
        }
        Some(Summary {
            seen,
            vmask: (acc & INFO_VALUE) as u16,
            tsum: (sums & 0xFF) as u16,
            colours: (acc >> 10) as u8 & 0x3F,
            vdup: same_value & INFO_VALUE != 0,
        })
    }

    /// The morale tactics as 4 bits (see [`WILD_COUNT`]).
    #[inline]
    fn wilds(&self) -> u8 {
        (self.seen >> WILD_BITS) as u8
    }

    /// The sum of the troops and of the wilds at their highest.
    #[inline]
    pub(super) fn high_sum(&self) -> u16 {
        self.tsum + wild_sum(self.wilds())
    }

    /// The bits of the strength of the cards as a complete formation of `n`
    /// cards under [`FormationOrder::Text`] without Fog.
    #[inline]
    pub(super) fn strength(&self, n: u8) -> u16 {
        let one_colour = self.colours & self.colours.wrapping_sub(1) == 0;
        let text = FormationOrder::Text;
        match self.wilds() {
            0 => troop_strength(self.vmask, one_colour, self.tsum, n, false, text).0,
            w => wild_strength(self.vmask, self.vdup, one_colour, self.tsum, w, n).0,
        }
    }
}

impl Part {
    /// Summarises `cards`; `None` for a card that has no slot (Fog, Mud,
    /// guile tactics), a card given twice, or more than eight cards.
    #[inline]
    pub fn of(cards: &[Card]) -> Option<Part> {
        let s = Summary::of(cards)?;
        let n = cards.len() as u8;
        let strength = if let 3 | 4 = n { s.strength(n) } else { 0 };
        Some(Part {
            slots: s.seen,
            vmask: s.vmask,
            tsum: s.tsum,
            strength,
            colours: s.colours,
            vdup: s.vdup,
            cards: n,
        })
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.cards as usize
    }

    /// The cards as a mask over the slot cards' indices: they alone make
    /// the part (two parts of the same cards are equal).
    #[inline]
    pub(crate) fn slots(&self) -> u64 {
        self.slots
    }

    /// The troop cards as troop bits.
    #[inline]
    pub(crate) fn troops(&self) -> u64 {
        self.slots & CardSet::ALL_TROOPS.troop_bits()
    }

    /// The morale tactics as 4 bits (see [`WILD_COUNT`]).
    #[inline]
    fn wild_bits(&self) -> usize {
        (self.slots >> WILD_BITS) as usize
    }

    /// Leaders in the formation.
    #[inline]
    pub(crate) fn leaders(&self) -> u8 {
        WILD_COUNT[self.wild_bits() & 3]
    }

    /// Companion Cavalry present.
    #[inline]
    pub(crate) fn cavalry(&self) -> bool {
        self.wild_bits() & 4 != 0
    }

    /// Shield Bearers present.
    #[inline]
    pub(crate) fn shield(&self) -> bool {
        self.wild_bits() & 8 != 0
    }

    /// Number of wild cards.
    #[inline]
    pub(crate) fn wild_count(&self) -> u8 {
        WILD_COUNT[self.wild_bits()]
    }

    /// The wilds' highest values added up: 10 a Leader, 8 Cavalry, 3 Shield
    /// Bearers.
    #[inline]
    pub(crate) fn wild_max_sum(&self) -> u16 {
        WILD_SUM[self.wild_bits()] as u16
    }

    /// The value mask and whether two cards share a value, Companion
    /// Cavalry counted as the troop of value 8 it becomes (its colour is
    /// free, so it never breaks a one-colour formation).
    #[inline]
    pub(crate) fn values_with_cavalry(&self) -> (u16, bool) {
        with_cavalry(self.vmask, self.vdup, self.cavalry())
    }
}

/// [`Part::values_with_cavalry`] from the parts.
#[inline]
pub(super) fn with_cavalry(vmask: u16, vdup: bool, cavalry: bool) -> (u16, bool) {
    if cavalry {
        let eight = 1 << 7;
        (vmask | eight, vdup || vmask & eight != 0)
    } else {
        (vmask, vdup)
    }
}

/// The highest values of the morale tactics `wilds` (4 bits as in
/// [`WILD_COUNT`]) added up.
#[inline]
pub(super) fn wild_sum(wilds: u8) -> u16 {
    WILD_SUM[wilds as usize & 15] as u16
}
