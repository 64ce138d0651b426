//! Which claims the player on turn can prove: through the proof cache, so
//! that a claim step proves only the flags whose remembered answer no
//! longer applies, and the whole answer is kept until a flag changes.

use game_traits::PlayerId;

use crate::card::CardSet;
use crate::proof::{check_claim, claim_holds};
use crate::rules::{ClaimTiming, WildCards};
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
        let avail = self.table.available_troops();
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
    pub(crate) fn refresh_proofs(&mut self) {
        let p = self.table.player;
        if !self.in_claim_step() || self.proofs.claimable(p).is_some() {
            return;
        }
        let mut candidates = self.claim_candidates(p);
        let avail = self.table.available_troops();
        let unseen = self.rules.wild_cards == WildCards::UnseenOnly;
        let mut m = 0;
        while candidates != 0 {
            let i = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let holds = match self.proofs.lookup(i, p, avail.troop_bits()) {
                Some(h) => h,
                None => {
                    let check = check_claim(&self.table.flags[i], p, avail, &self.rules);
                    self.proofs.store(i, p, avail.troop_bits(), unseen, check);
                    check.holds()
                }
            };
            if holds {
                m |= 1 << i;
            }
        }
        self.proofs.set_claimable(p, m);
    }
}
