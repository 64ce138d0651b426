//! Which claims the player on turn can prove: through the proof cache, so
//! that a claim step proves only the flags whose remembered answer no
//! longer applies, and the whole answer is kept until a flag changes.

use game_traits::PlayerId;

use crate::card::{Card, CardSet};
use crate::formation::formation_strength;
use crate::proof::{check_claim, claim_holds};
use crate::rules::{ClaimTiming, ProofTie, WildCards};
use crate::state::{BattleLine, Phase};

impl BattleLine {
    /// Whether `player` can prove a claim on flag `flag` with the troop
    /// cards `avail` available: the remembered answer when one applies,
    /// otherwise the proof.
    #[inline]
    pub(crate) fn claim_proved(&self, player: PlayerId, flag: usize, avail: CardSet) -> bool {
        match self.proofs.lookup(flag, player, avail.troop_bits()) {
            Some(holds) => holds,
            None => claim_holds(&self.table.flags[flag], player, avail, &self.rules),
        }
    }

    /// The flags `player` may try to claim: unclaimed, his side complete.
    #[inline(always)]
    pub(crate) fn claim_candidates(&self, player: PlayerId) -> u16 {
        self.bits.complete[player.index()]
    }

    /// The flags `player` can claim now, as bits (remembered when the
    /// engine proved them at the start of the claim step).
    #[inline(always)]
    pub(crate) fn claimable(&self, player: PlayerId) -> u16 {
        if let Some(m) = self.proofs.claimable(player) {
            return m;
        }
        let mut candidates = self.claim_candidates(player);
        if candidates == 0 {
            return 0;
        }
        let avail = self.available();
        let mut m = 0;
        while candidates != 0 {
            let i = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            if self.claim_proved(player, i, avail) {
                m |= 1 << i;
            }
        }
        m
    }

    /// Whether the player on turn may claim now.
    #[inline(always)]
    fn in_claim_step(&self) -> bool {
        match self.table.phase {
            Phase::Claim => true,
            Phase::Play => self.rules.claim_timing == ClaimTiming::StartOfTurn,
            _ => false,
        }
    }

    /// In a claim step, proves the claims of the player on turn that the
    /// cache cannot answer, remembers them and the flags he can claim.
    /// Called after every action (it does nothing once the answer is
    /// known) and wherever a state is made.
    #[inline(always)]
    pub(crate) fn refresh_proofs(&mut self) {
        if self.in_claim_step() && self.proofs.claimable(self.table.player).is_none() {
            self.prove_claims();
        }
    }

    /// The body of [`BattleLine::refresh_proofs`], out of line.
    #[inline(never)]
    fn prove_claims(&mut self) {
        let p = self.table.player;
        let mut candidates = self.claim_candidates(p);
        let avail = self.available();
        let unseen = self.rules.wild_cards == WildCards::UnseenOnly;
        let mut m = 0;
        while candidates != 0 {
            let i = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let bits = avail.troop_bits();
            let holds = match self.proofs.lookup(i, p, bits) {
                Some(h) => h,
                None => match self.rewitness(i, p, bits) {
                    Some(w) => {
                        self.proofs.store_refuted(i, p, w);
                        false
                    }
                    None => {
                        let check = check_claim(&self.table.flags[i], p, avail, &self.rules);
                        self.proofs.store(i, p, bits, unseen, check);
                        check.holds()
                    }
                },
            };
            if holds {
                m |= 1 << i;
            }
        }
        self.proofs.set_claimable(p, m);
    }

    /// When the claim at `flag` was refuted with a witness before the
    /// opponent added a card outside it: a new witness, if the old one
    /// less one card, all of it still among the troop bits `avail`,
    /// completes his side into a formation that beats the claimant's
    /// (under [`ProofTie::Blocks`] or equals it). A few formation
    /// strengths instead of a proof; `None` sends the claim to the proof.
    fn rewitness(&self, flag: usize, claimant: PlayerId, avail: u64) -> Option<u64> {
        let old = self.proofs.stale_witness(flag, claimant)?;
        let f = &self.table.flags[flag];
        let env = f.env();
        let order = self.rules.formation_order;
        let (mut cards, n) = f.side(claimant.other()).to_array();
        let slots = env.slots();
        if n >= slots || old.count_ones() as usize != slots - n + 1 {
            return None;
        }
        let mine = f.strength(claimant, order)?;
        let mut rest_of = old;
        while rest_of != 0 {
            let drop = rest_of & rest_of.wrapping_neg();
            rest_of &= rest_of - 1;
            let rest = old & !drop;
            if rest & !avail != 0 {
                continue;
            }
            let mut bits = rest;
            for slot in cards.iter_mut().take(slots).skip(n) {
                *slot = Card::from_index(bits.trailing_zeros() as usize)?;
                bits &= bits - 1;
            }
            if let Some(s) = formation_strength(&cards[..slots], env, order) {
                if s > mine || (s == mine && self.rules.proof_tie == ProofTie::Blocks) {
                    return Some(rest);
                }
            }
        }
        None
    }
}
