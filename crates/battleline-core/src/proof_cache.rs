//! Claim proofs remembered per flag and claimant, so that a flag whose
//! cards have not changed is not proved again each turn.
//!
//! A proof's answer depends only on the flag and on the troop cards still
//! available, and in play that set only shrinks (cards go from the hands to
//! the table and from the table to the discards, never back). Under
//! [`WildCards::CopyTable`] the claimant's strength does not depend on it,
//! so an answer carries over:
//! - a claim that holds still holds for any smaller available set (the
//!   opponent's completions are drawn from fewer cards);
//! - a refuted claim stays refuted while every card of its witness (the
//!   winning completion found) is still available.
//!
//! Under [`WildCards::UnseenOnly`] the claimant's wilds depend on the set
//! too, so an answer is reused only for the very set it was proved with.
//! The engine forgets a flag's entries whenever it changes the flag (and
//! with it the available set), and every answer is checked against the
//! available set it is asked for, so a remembered answer is always the one
//! the proof would give (the property tests compare them over random
//! games). A cache is no part of the position: it compares equal, hashes to
//! nothing and is never serialised or observed.

use std::fmt;
use std::hash::{Hash, Hasher};

use game_traits::PlayerId;

use crate::card::Card;
use crate::flag::FLAGS;
use crate::proof::ClaimCheck;

/// The tag of an entry, in the bits above the 60 troop bits.
const TAG_SHIFT: u32 = 60;
const SET_MASK: u64 = (1 << TAG_SHIFT) - 1;
/// No answer.
const UNKNOWN: u64 = 0;
/// Holds for every available set within the stored one.
const HOLDS_WITHIN: u64 = 1;
/// Refuted while the stored witness is available.
const REFUTED_WHILE: u64 = 2;
/// Holds for exactly the stored set.
const HOLDS_EXACT: u64 = 3;
/// Refuted for exactly the stored set.
const REFUTED_EXACT: u64 = 4;
/// Was refuted with the stored witness before the opponent added a card
/// outside it: no answer, but the witness less one card may complete the
/// new side into a winner (see `BattleLine::rewitness`).
const STALE_WITNESS: u64 = 5;

/// The claimable flags of one player, as a whole, valid until a flag
/// changes: bit 15 says it is known, bit 14 whose it is.
const SUMMARY_KNOWN: u16 = 1 << 15;
const SUMMARY_P1: u16 = 1 << 14;

/// Remembered claim proofs (see the module's description).
#[derive(Clone, Copy, Default)]
pub(crate) struct ProofCache {
    /// Per flag and claimant: a tag and a set of troop bits.
    entries: [[u64; 2]; FLAGS],
    /// The flags one player can claim now, when known.
    summary: u16,
}

impl ProofCache {
    /// The remembered answer for `claimant` at flag `flag` given the troop
    /// bits `avail`, if one applies.
    #[inline]
    pub(crate) fn lookup(&self, flag: usize, claimant: PlayerId, avail: u64) -> Option<bool> {
        let e = self.entries[flag][claimant.index()];
        let set = e & SET_MASK;
        match e >> TAG_SHIFT {
            HOLDS_WITHIN => (avail & !set == 0).then_some(true),
            REFUTED_WHILE => (set & !avail == 0).then_some(false),
            HOLDS_EXACT => (avail == set).then_some(true),
            REFUTED_EXACT => (avail == set).then_some(false),
            _ => None,
        }
    }

    /// Remembers `check`, proved with the troop bits `avail`; `unseen` when
    /// the rules let wilds become only unseen cards.
    pub(crate) fn store(
        &mut self,
        flag: usize,
        claimant: PlayerId,
        avail: u64,
        unseen: bool,
        check: ClaimCheck,
    ) {
        let avail = avail & SET_MASK;
        let e = match (check, unseen) {
            (ClaimCheck::Holds, false) => HOLDS_WITHIN << TAG_SHIFT | avail,
            (ClaimCheck::Holds, true) => HOLDS_EXACT << TAG_SHIFT | avail,
            (ClaimCheck::Refuted(w), false) => {
                REFUTED_WHILE << TAG_SHIFT | (w.cards().troop_bits() & SET_MASK)
            }
            (ClaimCheck::Refuted(_), true) => REFUTED_EXACT << TAG_SHIFT | avail,
            (ClaimCheck::AlreadyClaimed | ClaimCheck::Incomplete, _) => UNKNOWN,
        };
        self.entries[flag][claimant.index()] = e;
    }

    /// Forgets what was proved at `flag`, which changed (and with it
    /// possibly the available set, which the summary depends on).
    #[inline]
    pub(crate) fn forget(&mut self, flag: usize) {
        self.entries[flag] = [UNKNOWN; 2];
        self.summary = 0;
    }

    /// `placer` put `card` on his side of `flag`. His own answers there are
    /// forgotten; the other's carry over when the card was one the proof
    /// had to assume available (under [`WildCards::CopyTable`]): every
    /// completion of the side with the card is a completion of the side
    /// before, from the cards then available, so a claim that held still
    /// holds; and a witness holding the card, less the card, completes the
    /// new side into the same winning formation (unless it is the witness's
    /// last card).
    pub(crate) fn placed(&mut self, flag: usize, placer: PlayerId, card: Card, unseen: bool) {
        self.summary = 0;
        let e = &mut self.entries[flag];
        e[placer.index()] = UNKNOWN;
        let other = &mut e[placer.other().index()];
        let bit = if card.is_troop() {
            1u64 << card.index()
        } else {
            0
        };
        let set = *other & SET_MASK;
        *other = match *other >> TAG_SHIFT {
            _ if unseen || bit == 0 => UNKNOWN,
            HOLDS_WITHIN if set & bit != 0 => *other,
            // The last card of the witness completes the side: a tie is
            // then decided by who completed first, no longer by the proof's
            // tie rule, so the claim is proved again (cheaply, both sides
            // complete).
            REFUTED_WHILE if set & bit != 0 && set != bit => *other & !bit,
            REFUTED_WHILE => STALE_WITNESS << TAG_SHIFT | set,
            _ => UNKNOWN,
        };
    }

    /// The witness of a refutation made before the opponent added a card
    /// outside it, if that is what is remembered.
    #[inline]
    pub(crate) fn stale_witness(&self, flag: usize, claimant: PlayerId) -> Option<u64> {
        let e = self.entries[flag][claimant.index()];
        (e >> TAG_SHIFT == STALE_WITNESS).then_some(e & SET_MASK)
    }

    /// Remembers that the claim is refuted while the troop cards
    /// `witness` are available.
    pub(crate) fn store_refuted(&mut self, flag: usize, claimant: PlayerId, witness: u64) {
        self.entries[flag][claimant.index()] = REFUTED_WHILE << TAG_SHIFT | (witness & SET_MASK);
    }

    /// Forgets `flag`, just claimed: the table's cards and so the other
    /// flags' answers are unchanged, and the flag leaves the summary.
    #[inline]
    pub(crate) fn claimed(&mut self, flag: usize) {
        self.entries[flag] = [UNKNOWN; 2];
        self.summary &= !(1 << flag);
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        *self = ProofCache::default();
    }

    /// The flags `player` can claim, if known.
    #[inline]
    pub(crate) fn claimable(&self, player: PlayerId) -> Option<u16> {
        let tag = SUMMARY_KNOWN
            | if player == PlayerId::P1 {
                SUMMARY_P1
            } else {
                0
            };
        (self.summary & (SUMMARY_KNOWN | SUMMARY_P1) == tag).then_some(self.summary & 0x1ff)
    }

    /// Records the flags `player` can claim now.
    pub(crate) fn set_claimable(&mut self, player: PlayerId, flags: u16) {
        let tag = SUMMARY_KNOWN
            | if player == PlayerId::P1 {
                SUMMARY_P1
            } else {
                0
            };
        self.summary = tag | (flags & 0x1ff);
    }
}

/// Every cache equals every other: it is no part of the position.
impl PartialEq for ProofCache {
    fn eq(&self, _: &ProofCache) -> bool {
        true
    }
}

impl Eq for ProofCache {}

/// Hashes to nothing, as it compares equal to every cache.
impl Hash for ProofCache {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

/// Prints nothing of the entries, so that equal positions print alike.
impl fmt::Debug for ProofCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProofCache")
    }
}

#[cfg(test)]
mod tests {
    use game_traits::PlayerId;

    use super::ProofCache;
    use crate::card::{Card, CardSet, Colour};
    use crate::flag::Flag;
    use crate::proof::{check_claim, ClaimCheck};
    use crate::rules::Rules;

    fn troop(v: u8) -> Card {
        Card::troop(Colour::Red, v).unwrap()
    }

    fn bits(cards: &[Card]) -> u64 {
        cards.iter().copied().collect::<CardSet>().troop_bits()
    }

    /// What each kind of entry answers: a claim that held, for the sets
    /// within the one proved; a refutation, while its witness is
    /// available; under UnseenOnly, only the very set; nothing once the
    /// flag changed, and a placement keeps what it may.
    #[test]
    fn entries_answer_only_where_they_apply() {
        let (p, q) = (PlayerId::P0, PlayerId::P1);
        let a = bits(&[troop(1), troop(2), troop(3)]);
        let mut c = ProofCache::default();
        assert_eq!(c.lookup(0, p, a), None);
        c.store(0, p, a, false, ClaimCheck::Holds);
        assert_eq!(c.lookup(0, p, a), Some(true));
        assert_eq!(c.lookup(0, p, bits(&[troop(2)])), Some(true));
        assert_eq!(c.lookup(0, p, a | bits(&[troop(4)])), None);
        assert_eq!(c.lookup(0, q, a), None);
        assert_eq!(c.lookup(1, p, a), None);
        c.store(0, p, a, true, ClaimCheck::Holds);
        assert_eq!(c.lookup(0, p, bits(&[troop(2)])), None);
        assert_eq!(c.lookup(0, p, a), Some(true));
        // A Host of Blue 1, 3, 5 against Red 1, with Red 2 and 3 left:
        // refuted by the Wedge Red 1-2-3.
        let mut flag = Flag::new();
        for v in [1, 3, 5] {
            flag.place(p, Card::troop(Colour::Blue, v).unwrap())
                .unwrap();
        }
        flag.place(q, troop(1)).unwrap();
        let avail = CardSet::from_troop_bits(bits(&[troop(2), troop(3)]));
        let refuted = check_claim(&flag, p, avail, &Rules::default());
        let ClaimCheck::Refuted(w) = refuted else {
            panic!("{refuted:?}")
        };
        assert_eq!(w.cards().troop_bits(), bits(&[troop(2), troop(3)]));
        c.store(1, p, a, false, refuted);
        assert_eq!(c.lookup(1, p, a), Some(false));
        assert_eq!(
            c.lookup(1, p, bits(&[troop(2), troop(3), troop(9)])),
            Some(false)
        );
        assert_eq!(c.lookup(1, p, bits(&[troop(2)])), None);
        // The opponent lays a card of the witness: the rest still completes.
        c.placed(1, q, troop(2), false);
        assert_eq!(c.lookup(1, p, bits(&[troop(3)])), Some(false));
        // ...its last card: complete, a tie would go to who completed
        // first, so no answer.
        let mut last = c;
        last.placed(1, q, troop(3), false);
        assert_eq!(last.lookup(1, p, a), None);
        // ...one outside it: no answer, the witness kept for a retry.
        c.placed(1, q, troop(7), false);
        assert_eq!(c.lookup(1, p, a), None);
        assert_eq!(c.stale_witness(1, p), Some(bits(&[troop(3)])));
        // A claim that held survives the opponent laying an available card.
        c.store(2, p, a, false, ClaimCheck::Holds);
        c.placed(2, q, troop(1), false);
        assert_eq!(c.lookup(2, p, bits(&[troop(2), troop(3)])), Some(true));
        c.placed(2, q, troop(8), false);
        assert_eq!(c.lookup(2, p, bits(&[troop(2)])), None);
        c.store(3, p, a, false, ClaimCheck::Holds);
        c.forget(3);
        assert_eq!(c.lookup(3, p, a), None);
        c.set_claimable(q, 0b101);
        assert_eq!(c.claimable(q), Some(0b101));
        assert_eq!(c.claimable(p), None);
        c.claimed(2);
        assert_eq!(c.claimable(q), Some(0b001));
        c.forget(5);
        assert_eq!(c.claimable(q), None);
    }
}
