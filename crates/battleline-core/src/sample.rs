//! Drawing a uniformly random legal action without writing the list
//! ([`game_traits::Game::sample_legal`]): what random playouts, rollouts
//! and the batched environment use. Plays are counted from the hand and the
//! free-flag mask and one index decoded; claims, which need a proof each,
//! are proved only when drawn: a drawn claim that fails is struck from the
//! candidates and the draw repeated, which keeps the draw uniform over
//! exactly the listed actions (the kit checks it with a chi-square test).

use rand::Rng;

use crate::action::Action;
use crate::card::{Card, CardSet, Deck, Tactic};
use crate::flag::FlagId;
use crate::flag_set::FlagSet;
use crate::proof::claim_holds;
use crate::rules::ClaimTiming;
use crate::state::{BattleLine, Phase};

/// The `k`-th (from 0) set bit of `bits`; `k` must be below its count.
#[inline]
fn nth_bit(mut bits: u128, mut k: usize) -> u32 {
    while k > 0 {
        bits &= bits - 1;
        k -= 1;
    }
    bits.trailing_zeros()
}

#[inline]
fn nth_flag(flags: FlagSet, k: usize) -> Option<FlagId> {
    FlagId::new(nth_bit(u128::from(flags.bits()), k) as usize)
}

#[inline]
fn nth_card(cards: CardSet, k: usize) -> Option<Card> {
    Card::from_index(nth_bit(cards.bits(), k) as usize)
}

impl BattleLine {
    /// A uniformly random legal action of the player on turn; `None` when
    /// no player decides now.
    pub(crate) fn sample_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        let p = self.table.player;
        match self.table.phase {
            Phase::Play => {
                let claims = self.rules.claim_timing == ClaimTiming::StartOfTurn;
                self.sample_with_claims(claims, rng, |s, k| s.nth_play(k), self.count_plays())
            }
            Phase::Claim => {
                let draws = self.draw_options();
                let n = draws.len().max(1);
                self.sample_with_claims(true, rng, |_, k| Some(draws.get(k)), n)
            }
            Phase::Draw => {
                let draws = self.draw_options();
                Some(draws.get(rng.random_range(0..draws.len().max(1))))
            }
            Phase::Return => {
                let hand = self.hands[p];
                if hand.is_empty() {
                    return None;
                }
                nth_card(hand, rng.random_range(0..hand.len())).map(Action::Return)
            }
            Phase::Setup | Phase::Deal(_) | Phase::Over => None,
        }
    }

    /// Draws uniformly from `n` actions that are legal without a proof
    /// (the `k`-th given by `nth`) and, with `claims`, the claims the
    /// player can prove: each complete unclaimed flag of his is a
    /// candidate, proved only when drawn and struck when it fails.
    fn sample_with_claims<R: Rng + ?Sized>(
        &self,
        claims: bool,
        rng: &mut R,
        nth: impl Fn(&Self, usize) -> Option<Action>,
        n: usize,
    ) -> Option<Action> {
        let p = self.table.player;
        let mut candidates = 0u16;
        if claims {
            for (i, f) in self.table.flags.iter().enumerate() {
                if f.claimed().is_none() && f.is_complete(p) {
                    candidates |= 1 << i;
                }
            }
        }
        let mut avail = None;
        loop {
            let c = candidates.count_ones() as usize;
            if n + c == 0 {
                return None;
            }
            let k = rng.random_range(0..n + c);
            if k < n {
                return nth(self, k);
            }
            let i = nth_bit(u128::from(candidates), k - n);
            let a = *avail.get_or_insert_with(|| self.table.available_troops());
            if claim_holds(&self.table.flags[i as usize], p, a, &self.rules) {
                return FlagId::new(i as usize).map(Action::Claim);
            }
            candidates &= !(1 << i);
        }
    }

    /// The draws listed now: one per deck with cards when a draw is due,
    /// otherwise the end of the turn.
    fn draw_options(&self) -> DrawOptions {
        let mut d = DrawOptions {
            n: 0,
            at: [Action::EndTurn; 2],
        };
        if self.table.draws_due > 0 {
            for deck in Deck::ALL {
                if self.deck_len(deck) > 0 {
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
    /// decodes.
    fn play_counts(&self) -> PlayCounts {
        let p = self.table.player;
        let hand = self.hands[p];
        let free = self.free_flags(p);
        let tactics = self.tactics_allowed(p);
        let has = |t| tactics && hand.contains(Card::tactic(t));
        let mut slot_cards = hand.intersection(CardSet::ALL_TROOPS);
        if tactics {
            for t in [Tactic::CompanionCavalry, Tactic::ShieldBearers] {
                if hand.contains(Card::tactic(t)) {
                    slot_cards.insert(Card::tactic(t));
                }
            }
            if self.leader_allowed(p) {
                for t in [Tactic::Alexander, Tactic::Darius] {
                    if hand.contains(Card::tactic(t)) {
                        slot_cards.insert(Card::tactic(t));
                    }
                }
            }
        }
        let env_free = |fog: bool| {
            let mut m = 0u16;
            for (i, f) in self.table.flags.iter().enumerate() {
                let taken = if fog { f.env().fog } else { f.env().mud };
                if f.claimed().is_none() && !taken {
                    m |= 1 << i;
                }
            }
            FlagSet::from_bits(m)
        };
        let fog = if has(Tactic::Fog) {
            env_free(true)
        } else {
            FlagSet::EMPTY
        };
        let mud = if has(Tactic::Mud) {
            env_free(false)
        } else {
            FlagSet::EMPTY
        };
        let mut redeploy = 0;
        if has(Tactic::Redeploy) {
            let mine = self.movable(p);
            let unclaimed = self.unclaimed_flags();
            for card in mine.cards.iter() {
                let dest = if card.is_slot_card() { free } else { unclaimed };
                redeploy += (dest.bits() & !(1 << mine.flag_of(card))).count_ones() as usize + 1;
            }
        }
        let theirs = if has(Tactic::Deserter) || (has(Tactic::Traitor) && !free.is_empty()) {
            self.movable(p.other()).cards
        } else {
            CardSet::EMPTY
        };
        PlayCounts {
            slot_cards,
            free,
            fog,
            mud,
            scout: has(Tactic::Scout),
            redeploy,
            deserter: if has(Tactic::Deserter) {
                theirs.len()
            } else {
                0
            },
            traitor: if has(Tactic::Traitor) && !free.is_empty() {
                theirs.intersection(CardSet::ALL_TROOPS).len() * free.len()
            } else {
                0
            },
            pass: !self.troop_playable(p, free),
        }
    }

    fn count_plays(&self) -> usize {
        self.play_counts().total()
    }

    /// The `k`-th play of [`Self::play_counts`].
    fn nth_play(&self, mut k: usize) -> Option<Action> {
        let p = self.table.player;
        let c = self.play_counts();
        let slots = c.slot_cards.len() * c.free.len();
        if k < slots {
            let card = nth_card(c.slot_cards, k / c.free.len())?;
            let flag = nth_flag(c.free, k % c.free.len())?;
            return Some(Action::Play { card, flag });
        }
        k -= slots;
        for (set, t) in [(c.fog, Tactic::Fog), (c.mud, Tactic::Mud)] {
            if k < set.len() {
                let flag = nth_flag(set, k)?;
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
            let mine = self.movable(p);
            let unclaimed = self.unclaimed_flags();
            for card in mine.cards.iter() {
                let dest = if card.is_slot_card() {
                    c.free
                } else {
                    unclaimed
                };
                let m = FlagSet::from_bits(dest.bits() & !(1 << mine.flag_of(card)));
                if k < m.len() {
                    return nth_flag(m, k).map(|to| Action::Redeploy { card, to: Some(to) });
                }
                k -= m.len();
                if k == 0 {
                    return Some(Action::Redeploy { card, to: None });
                }
                k -= 1;
            }
            return None;
        }
        k -= c.redeploy;
        if k < c.deserter {
            let theirs = self.movable(p.other()).cards;
            return nth_card(theirs, k).map(|card| Action::Deserter { card });
        }
        k -= c.deserter;
        if k < c.traitor {
            let theirs = self
                .movable(p.other())
                .cards
                .intersection(CardSet::ALL_TROOPS);
            let card = nth_card(theirs, k / c.free.len())?;
            let to = nth_flag(c.free, k % c.free.len())?;
            return Some(Action::Traitor { card, to });
        }
        k -= c.traitor;
        (c.pass && k == 0).then_some(Action::Pass)
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
