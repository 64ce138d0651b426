//! Drawing a uniformly random legal action without writing the list
//! ([`game_traits::Game::sample_legal`]): what random playouts, rollouts
//! and the batched environment use. Plays are counted from the hand and one
//! pass over the flags, and one index decoded; the claims are those the
//! engine proved at the start of the claim step (see `claims.rs`), so one
//! draw is uniform over exactly the listed actions (the kit checks it with
//! a chi-square test).

use rand::Rng;

use crate::action::Action;
use crate::card::{Card, CardSet, Deck, Tactic};
use crate::flag::FlagId;
use crate::flag_set::FlagSet;
use crate::listing::Movable;
use crate::rules::ClaimTiming;
use crate::state::{BattleLine, Phase};

/// The `k`-th (from 0) set bit of `bits`; `k` must be below its count.
/// With `FAST` (only on a CPU that has BMI2 and `popcnt`, see
/// [`BattleLine::sample_action`]) one `pdep` per word; otherwise the low
/// bits are cleared one by one.
#[inline(always)]
fn nth_bit<const FAST: bool>(bits: u128, k: usize) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        let lo = bits as u64;
        let below = lo.count_ones() as usize;
        let (word, k, base) = if k < below {
            (lo, k, 0)
        } else {
            ((bits >> 64) as u64, k - below, 64)
        };
        // SAFETY: `FAST` code runs only where the CPU has BMI2.
        let bit = unsafe { std::arch::x86_64::_pdep_u64(1u64 << (k & 63), word) };
        return base + bit.trailing_zeros();
    }
    let (mut bits, mut k) = (bits, k);
    while k > 0 {
        bits &= bits - 1;
        k -= 1;
    }
    bits.trailing_zeros()
}

/// A uniformly random number below `n` (taken as 1 when 0; counts here
/// are far below `u32::MAX`), on 32-bit words.
#[inline(always)]
fn below<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    game_traits::chance::below(rng, u32::try_from(n).unwrap_or(u32::MAX)) as usize
}

#[inline(always)]
fn nth_flag<const FAST: bool>(flags: FlagSet, k: usize) -> Option<FlagId> {
    FlagId::new(nth_bit::<FAST>(u128::from(flags.bits()), k) as usize)
}

#[inline(always)]
fn nth_card<const FAST: bool>(cards: CardSet, k: usize) -> Option<Card> {
    Card::from_index(nth_bit::<FAST>(cards.bits(), k) as usize)
}

impl BattleLine {
    /// A uniformly random legal action of the player on turn; `None` when
    /// no player decides now.
    ///
    /// The draw counts and picks set bits: on x86-64 CPUs that have BMI2
    /// and `popcnt` (detected at run time, once, by the standard library)
    /// the same code runs compiled with them (`popcnt` for the counts,
    /// `pdep` to pick the `k`-th bit); the crate stays portable, and both
    /// paths draw the same actions from the same random numbers.
    #[inline]
    pub(crate) fn sample_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        #[cfg(target_arch = "x86_64")]
        {
            if has_fast_bits() {
                // SAFETY: the CPU has BMI2 and `popcnt`, as checked just above.
                return unsafe { self.sample_action_fast(rng) };
            }
        }
        self.sample_action_with::<false, R>(rng)
    }

    /// A uniformly random card of the deck being dealt from (see
    /// [`BattleLine::sample_action`] for the two paths); `None` when no
    /// chance event is due or the deck is empty.
    #[inline]
    pub(crate) fn sample_deal<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        #[cfg(target_arch = "x86_64")]
        {
            if has_fast_bits() {
                // SAFETY: the CPU has BMI2 and `popcnt`, as checked just above.
                return unsafe { self.sample_deal_fast(rng) };
            }
        }
        self.sample_deal_with::<false, R>(rng)
    }

    /// [`BattleLine::sample_action_with`] compiled with BMI2 and `popcnt`.
    ///
    /// # Safety
    ///
    /// Only on a CPU that has both.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi2")]
    unsafe fn sample_action_fast<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        self.sample_action_with::<true, R>(rng)
    }

    /// [`BattleLine::sample_deal_with`] compiled with BMI2 and `popcnt`.
    ///
    /// # Safety
    ///
    /// Only on a CPU that has both.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi2")]
    unsafe fn sample_deal_fast<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        self.sample_deal_with::<true, R>(rng)
    }

    /// The body of [`BattleLine::sample_deal`].
    #[inline(always)]
    pub(crate) fn sample_deal_with<const FAST: bool, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Option<Action> {
        let pool = self.chance_pool()?;
        if pool.is_empty() {
            return None;
        }
        nth_card::<FAST>(pool, below(rng, pool.len())).map(Action::Deal)
    }

    /// The body of [`BattleLine::sample_action`]; `FAST` only on a CPU
    /// with BMI2 and `popcnt`.
    #[inline(always)]
    pub(crate) fn sample_action_with<const FAST: bool, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Option<Action> {
        let p = self.table.player;
        match self.table.phase {
            Phase::Play => {
                let plays = self.play_counts();
                let claims = if self.rules.claim_timing == ClaimTiming::StartOfTurn {
                    self.claimable(p)
                } else {
                    0
                };
                let n = plays.total();
                self.draw_or_claim::<FAST, R>(rng, n, claims, |k| self.nth_play::<FAST>(&plays, k))
            }
            Phase::Claim => {
                let draws = self.draw_options();
                let n = draws.len().max(1);
                self.draw_or_claim::<FAST, R>(rng, n, self.claimable(p), |k| Some(draws.get(k)))
            }
            Phase::Draw => {
                let draws = self.draw_options();
                Some(draws.get(below(rng, draws.len().max(1))))
            }
            Phase::Return => {
                let hand = self.hands[p];
                if hand.is_empty() {
                    return None;
                }
                nth_card::<FAST>(hand, below(rng, hand.len())).map(Action::Return)
            }
            Phase::Setup | Phase::Deal(_) | Phase::Over => None,
        }
    }

    /// Draws uniformly from `n` actions that need no proof (the `k`-th
    /// given by `nth`) and the claims on the flags of `claims`.
    #[inline(always)]
    fn draw_or_claim<const FAST: bool, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        n: usize,
        claims: u16,
        nth: impl FnOnce(usize) -> Option<Action>,
    ) -> Option<Action> {
        let c = claims.count_ones() as usize;
        if n + c == 0 {
            return None;
        }
        let k = below(rng, n + c);
        if k < n {
            nth(k)
        } else {
            nth_flag::<FAST>(FlagSet::from_bits(claims), k - n).map(Action::Claim)
        }
    }

    /// The draws listed now: one per deck with cards when a draw is due,
    /// otherwise the end of the turn.
    #[inline(always)]
    fn draw_options(&self) -> DrawOptions {
        let mut d = DrawOptions {
            n: 0,
            at: [Action::EndTurn; 2],
        };
        if self.table.draws_due > 0 {
            for deck in Deck::ALL {
                if self.deck_has_cards(deck) {
                    d.at[d.n] = Action::Draw(deck);
                    d.n += 1;
                }
            }
        }
        d
    }

    /// What the Play phase lists, without claims, by kind: the cards that
    /// take a slot, Fog, Mud, Scout, the Redeploy moves, Deserter's and
    /// Traitor's targets and the pass, in the order [`Self::nth_play`]
    /// decodes; the flags in one pass.
    #[inline(always)]
    fn play_counts(&self) -> PlayCounts {
        let p = self.table.player;
        let o = p.other();
        let hand = self.hands[p];
        let b = &self.bits;
        let (free, unclaimed) = (b.free[p.index()], b.unclaimed);
        let (fog, mud) = (b.no_fog, b.no_mud);
        let free = FlagSet::from_bits(free);
        let troops = hand.intersection(CardSet::ALL_TROOPS);
        let mut c = PlayCounts {
            slot_cards: troops,
            free,
            fog: FlagSet::EMPTY,
            mud: FlagSet::EMPTY,
            scout: false,
            redeploy: 0,
            deserter: 0,
            traitor: 0,
            pass: troops.is_empty() || free.is_empty(),
        };
        let tactics = hand.intersection(CardSet::ALL_TACTICS);
        if tactics.is_empty() || !self.tactics_allowed(p) {
            return c;
        }
        let has = |t| tactics.contains(Card::tactic(t));
        for t in [Tactic::CompanionCavalry, Tactic::ShieldBearers] {
            if has(t) {
                c.slot_cards.insert(Card::tactic(t));
            }
        }
        if (has(Tactic::Alexander) || has(Tactic::Darius)) && self.leader_allowed(p) {
            for t in [Tactic::Alexander, Tactic::Darius] {
                if has(t) {
                    c.slot_cards.insert(Card::tactic(t));
                }
            }
        }
        if has(Tactic::Fog) {
            c.fog = FlagSet::from_bits(fog);
        }
        if has(Tactic::Mud) {
            c.mud = FlagSet::from_bits(mud);
        }
        c.scout = has(Tactic::Scout);
        if has(Tactic::Redeploy) {
            let mine = self.movable(p);
            let unclaimed = FlagSet::from_bits(unclaimed);
            for card in mine.cards.iter() {
                let dest = if card.is_slot_card() { free } else { unclaimed };
                c.redeploy += (dest.bits() & !(1 << mine.flag_of(card))).count_ones() as usize + 1;
            }
        }
        let traitor = has(Tactic::Traitor) && !free.is_empty();
        if has(Tactic::Deserter) || traitor {
            let theirs = self.movable(o).cards;
            if has(Tactic::Deserter) {
                c.deserter = theirs.len();
            }
            if traitor {
                c.traitor = theirs.intersection(CardSet::ALL_TROOPS).len() * free.len();
            }
        }
        c
    }

    /// The `k`-th play of `c` (see [`Self::play_counts`]).
    #[inline(always)]
    fn nth_play<const FAST: bool>(&self, c: &PlayCounts, mut k: usize) -> Option<Action> {
        let p = self.table.player;
        let slots = c.slot_cards.len() * c.free.len();
        if k < slots {
            let card = nth_card::<FAST>(c.slot_cards, k / c.free.len())?;
            let flag = nth_flag::<FAST>(c.free, k % c.free.len())?;
            return Some(Action::Play { card, flag });
        }
        k -= slots;
        for (set, t) in [(c.fog, Tactic::Fog), (c.mud, Tactic::Mud)] {
            if k < set.len() {
                let flag = nth_flag::<FAST>(set, k)?;
                return Some(Action::Play {
                    card: Card::tactic(t),
                    flag,
                });
            }
            k -= set.len();
        }
        if c.scout {
            if k == 0 {
                return Some(Action::Scout);
            }
            k -= 1;
        }
        if k < c.redeploy {
            return self.nth_redeploy::<FAST>(&self.movable(p), c.free, k);
        }
        k -= c.redeploy;
        if k < c.deserter {
            let theirs = self.movable(p.other()).cards;
            return nth_card::<FAST>(theirs, k).map(|card| Action::Deserter { card });
        }
        k -= c.deserter;
        if k < c.traitor {
            let theirs = self
                .movable(p.other())
                .cards
                .intersection(CardSet::ALL_TROOPS);
            let card = nth_card::<FAST>(theirs, k / c.free.len())?;
            let to = nth_flag::<FAST>(c.free, k % c.free.len())?;
            return Some(Action::Traitor { card, to });
        }
        k -= c.traitor;
        (c.pass && k == 0).then_some(Action::Pass)
    }

    /// The `k`-th Redeploy move of the cards `mine`, each moved to a flag
    /// of `free` (Fog and Mud to any unclaimed flag) or discarded.
    fn nth_redeploy<const FAST: bool>(
        &self,
        mine: &Movable,
        free: FlagSet,
        mut k: usize,
    ) -> Option<Action> {
        let unclaimed = self.unclaimed_flags();
        for card in mine.cards.iter() {
            let dest = if card.is_slot_card() { free } else { unclaimed };
            let m = FlagSet::from_bits(dest.bits() & !(1 << mine.flag_of(card)));
            if k < m.len() {
                return nth_flag::<FAST>(m, k).map(|to| Action::Redeploy { card, to: Some(to) });
            }
            k -= m.len();
            if k == 0 {
                return Some(Action::Redeploy { card, to: None });
            }
            k -= 1;
        }
        None
    }
}

/// The draw actions listed now (at least the end of the turn).
#[derive(Clone, Copy)]
struct DrawOptions {
    n: usize,
    at: [Action; 2],
}

impl DrawOptions {
    fn len(&self) -> usize {
        self.n
    }

    /// The `k`-th, or the end of the turn when no draw is listed.
    fn get(&self, k: usize) -> Action {
        if self.n == 0 {
            Action::EndTurn
        } else {
            self.at[k.min(self.n - 1)]
        }
    }
}

/// The Play phase's actions by kind (see [`BattleLine::play_counts`]).
struct PlayCounts {
    slot_cards: CardSet,
    free: FlagSet,
    fog: FlagSet,
    mud: FlagSet,
    scout: bool,
    redeploy: usize,
    deserter: usize,
    traitor: usize,
    pass: bool,
}

impl PlayCounts {
    #[inline(always)]
    fn total(&self) -> usize {
        self.slot_cards.len() * self.free.len()
            + self.fog.len()
            + self.mud.len()
            + usize::from(self.scout)
            + self.redeploy
            + self.deserter
            + self.traitor
            + usize::from(self.pass)
    }
}

/// Whether this CPU has `popcnt` and a fast `pdep` (detected once).
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_fast_bits() -> bool {
    game_traits::bits::has_popcnt() && game_traits::bits::has_fast_pdep()
}

#[cfg(test)]
mod tests {
    use game_traits::{Game, GameRng, Turn};
    use rand::{RngCore, SeedableRng};

    use crate::rules::Rules;
    use crate::state::BattleLine;
    use game_traits::{Preset, RuleSet};

    /// The portable path plays whole games of legal actions under every
    /// preset and, where the CPU has BMI2 and `popcnt`, the fast path draws
    /// the same actions from the same random numbers.
    #[test]
    fn both_paths_draw_alike() {
        let mut compared = 0;
        for Preset { rules, .. } in Rules::presets() {
            for seed in 0..20 {
                let mut s = BattleLine::new(&rules).unwrap();
                let mut rng = GameRng::seed_from_u64(seed);
                while s.turn() != Turn::Terminal {
                    let chance = s.turn() == Turn::Chance;
                    #[cfg(target_arch = "x86_64")]
                    let fast = super::has_fast_bits().then(|| {
                        let mut r = rng.clone();
                        // SAFETY: the CPU has BMI2 and `popcnt`, as checked.
                        let a = unsafe {
                            if chance {
                                s.sample_deal_fast(&mut r)
                            } else {
                                s.sample_action_fast(&mut r)
                            }
                        };
                        (a, r.next_u64())
                    });
                    let a = if chance {
                        s.sample_deal_with::<false, _>(&mut rng)
                    } else {
                        s.sample_action_with::<false, _>(&mut rng)
                    };
                    #[cfg(target_arch = "x86_64")]
                    if let Some(fast) = fast {
                        assert_eq!(fast, (a, rng.clone().next_u64()), "{s}");
                        compared += 1;
                    }
                    let a = a.unwrap();
                    assert!(s.is_legal(a), "{a}\n{s}");
                    s.apply_unchecked(a);
                }
            }
        }
        #[cfg(target_arch = "x86_64")]
        assert!(compared > 10_000 || !super::has_fast_bits(), "{compared}");
    }
}
