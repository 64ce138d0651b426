//! Applying an action: the turn's steps, the tactics' effects, claims and
//! the end rule.

use game_traits::{Outcome, PlayerId};

use crate::action::Action;
use crate::card::{Card, Deck, Tactic};
use crate::flag::Flag;
use crate::flag_bits::FlagBits;
use crate::rules::{ClaimTiming, EnvironmentTactics, LastPass, WildCards};
use crate::state::{BattleLine, Phase, HAND_SIZE};

impl BattleLine {
    /// Applies `action`, legal or not: an illegal one leaves some state
    /// but never panics (every card move checks that the card is there).
    pub(crate) fn step(&mut self, action: Action) {
        let p = self.table.player;
        let o = p.other();
        let decision = !matches!(action, Action::Deal(_));
        match action {
            Action::Deal(card) => {
                let d = card.deck().index();
                self.pools[d].remove(card);
                if self.table.phase == Phase::Setup {
                    let to = self.setup_receiver();
                    self.hands[to].insert(card);
                    if self.hands.values().all(|h| h.len() >= HAND_SIZE) {
                        self.table.phase = Phase::Play;
                        self.table.player = self.rules.first_player;
                    }
                } else {
                    self.receive(card);
                }
            }
            Action::Play { card, flag } => {
                self.hands[p].remove(card);
                match card.as_tactic() {
                    Some(t @ (Tactic::Fog | Tactic::Mud)) => {
                        self.lay_environment(p, t, flag.index())
                    }
                    _ => {
                        self.place(p, flag.index(), card);
                    }
                }
                if let Some(t) = card.as_tactic() {
                    self.use_tactic(p, card, false);
                    if t.is_leader() {
                        self.table.leaders_played[p] = true;
                    }
                }
                self.table.passes = 0;
                self.after_play(1, 0);
            }
            Action::Scout => {
                self.use_tactic(p, Card::tactic(Tactic::Scout), true);
                self.table.scout_by = Some(p);
                self.table.passes = 0;
                self.after_play(3, 2);
            }
            Action::Redeploy { card, to } => {
                self.use_tactic(p, Card::tactic(Tactic::Redeploy), true);
                if let Some(src) = self.flag_of(p, card) {
                    match card.as_tactic() {
                        Some(t @ (Tactic::Fog | Tactic::Mud)) => {
                            self.take_environment(p, t, src);
                            match to {
                                Some(to) => self.lay_environment(p, t, to.index()),
                                None => self.table.discards[p].insert(card),
                            }
                        }
                        _ => {
                            let _ = self.with_flag(src, |f| f.take(p, card));
                            match to {
                                Some(to) => {
                                    self.place(p, to.index(), card);
                                }
                                None => self.table.discards[p].insert(card),
                            }
                        }
                    }
                }
                self.table.passes = 0;
                self.after_play(1, 0);
            }
            Action::Deserter { card } => {
                self.use_tactic(p, Card::tactic(Tactic::Deserter), true);
                if let Some(src) = self.flag_of(o, card) {
                    match card.as_tactic() {
                        Some(t @ (Tactic::Fog | Tactic::Mud)) => self.take_environment(p, t, src),
                        _ => {
                            let _ = self.with_flag(src, |f| f.take(o, card));
                        }
                    }
                    self.table.discards[o].insert(card);
                }
                self.table.passes = 0;
                self.after_play(1, 0);
            }
            Action::Traitor { card, to } => {
                self.use_tactic(p, Card::tactic(Tactic::Traitor), true);
                if let Some(src) = self.flag_of(o, card) {
                    let _ = self.with_flag(src, |f| f.take(o, card));
                    self.place(p, to.index(), card);
                }
                self.table.passes = 0;
                self.after_play(1, 0);
            }
            Action::Pass => {
                self.table.passes += 1;
                // Under StartOfTurn the passer has had his claim step already.
                let at_once = self.rules.last_pass == LastPass::SettleAtOnce
                    || self.rules.claim_timing == ClaimTiming::StartOfTurn;
                if self.table.passes >= 2 && at_once {
                    self.table.moves += 1;
                    self.settle();
                    return;
                }
                // Otherwise the claim step; ending it settles (`end_turn`).
                self.after_play(0, 0);
            }
            Action::Claim(flag) => {
                let i = flag.index();
                self.proofs.claimed(i);
                self.table.flags[i].set_claimed(p);
                self.bits.update(i, &self.table.flags[i]);
                if self.table.claimed(p).is_victory() {
                    self.finish(Outcome::Win(p));
                }
            }
            Action::Draw(d) => {
                if let Some(card) = self.tops[d.index()].pop() {
                    if let Some(owner) = self.table.scout_by {
                        if owner != p {
                            self.revealed[owner].insert(card);
                        }
                    }
                    self.receive(card);
                } else {
                    self.table.phase = Phase::Deal(d);
                }
            }
            Action::EndTurn => self.finish_draws(),
            Action::Return(card) => {
                self.hands[p].remove(card);
                self.tops[card.deck().index()].push(card);
                self.table.returns_due = self.table.returns_due.saturating_sub(1);
                if self.table.returns_due == 0 {
                    self.end_turn();
                }
            }
        }
        if decision {
            self.table.moves += 1;
        }
        // What a player knows of the other hand ends when the card leaves it.
        let r = &mut self.revealed;
        if !r[PlayerId::P0].union(r[PlayerId::P1]).is_empty() {
            for p in PlayerId::all() {
                self.revealed[p] = self.revealed[p].intersection(self.hands[p.other()]);
            }
        }
        self.refresh_proofs();
    }

    /// Changes flag `i` by `change`: what was proved there is forgotten
    /// (and, as the available cards may change with it, the claimable
    /// summary) and its bits updated. Every change to a flag goes through
    /// here or [`BattleLine::place`].
    fn with_flag<T>(&mut self, i: usize, change: impl FnOnce(&mut Flag) -> T) -> T {
        self.proofs.forget(i);
        let r = change(&mut self.table.flags[i]);
        self.bits.update(i, &self.table.flags[i]);
        self.bits.recount(&self.table);
        r
    }

    /// Puts `card` on `p`'s side of flag `i`, keeping what the proof cache
    /// can keep (see `ProofCache::placed`).
    fn place(&mut self, p: PlayerId, i: usize, card: Card) {
        if self.table.flags[i].place(p, card).is_ok() {
            self.bits
                .placed(i, p, &self.table.flags[i], 1 << card.index());
            let unseen = self.rules.wild_cards == WildCards::UnseenOnly;
            self.proofs.placed(i, p, card, unseen);
        }
    }

    /// Who gets the next card of the deal: the hands alternate, the first
    /// player first.
    pub(crate) fn setup_receiver(&self) -> PlayerId {
        let first = self.rules.first_player;
        if self.hands[first].len() <= self.hands[first.other()].len() {
            first
        } else {
            first.other()
        }
    }

    /// Takes the environment card `t` from flag `src`, the tactic being
    /// played by `remover`; cards pushed out of a side by Mud's going go to
    /// their owners' discards.
    fn take_environment(&mut self, remover: PlayerId, t: Tactic, src: usize) {
        let dropped = self.with_flag(src, |f| {
            if t == Tactic::Fog {
                let _ = f.remove_fog();
                None
            } else {
                f.remove_mud(remover).ok()
            }
        });
        if let Some(dropped) = dropped {
            for (d, c) in self.table.discards.values_mut().zip(dropped) {
                if let Some(c) = c {
                    d.insert(c);
                }
            }
        }
    }

    /// Lays Fog or Mud (`t`) beside flag `to` for `p`.
    fn lay_environment(&mut self, p: PlayerId, t: Tactic, to: usize) {
        let movable = self.rules.environment_tactics == EnvironmentTactics::Movable;
        self.with_flag(to, |f| {
            let _ = if t == Tactic::Fog {
                f.add_fog()
            } else {
                f.add_mud()
            };
            if movable {
                f.set_environment_owner(t, p);
            }
        });
    }

    fn receive(&mut self, card: Card) {
        let p = self.table.player;
        self.hands[p].insert(card);
        self.table.draws_due = self.table.draws_due.saturating_sub(1);
        self.table.drawn += 1;
        self.enter_draw();
    }

    fn enter_draw(&mut self) {
        if self.table.draws_due > 0
            && (self.deck_has_cards(Deck::Troop) || self.deck_has_cards(Deck::Tactics))
        {
            self.table.phase = Phase::Draw;
        } else {
            self.finish_draws();
        }
    }

    fn finish_draws(&mut self) {
        let t = &mut self.table;
        t.draws_due = 0;
        t.returns_due = t.returns_due.min(t.drawn);
        if t.returns_due > 0 {
            t.phase = Phase::Return;
        } else {
            self.end_turn();
        }
    }

    fn end_turn(&mut self) {
        // The claim step after the second pass in a row is over: nobody can
        // change the table any more, so the end rule settles the rest.
        if self.table.passes >= 2 {
            self.settle();
            return;
        }
        let t = &mut self.table;
        t.player = t.player.other();
        t.phase = Phase::Play;
        t.draws_due = 0;
        t.returns_due = 0;
        t.drawn = 0;
    }

    fn after_play(&mut self, draws: u8, returns: u8) {
        let t = &mut self.table;
        t.draws_due = draws;
        t.returns_due = returns;
        t.drawn = 0;
        match self.rules.claim_timing {
            ClaimTiming::BeforeDraw => self.table.phase = Phase::Claim,
            ClaimTiming::StartOfTurn => self.enter_draw(),
        }
    }

    fn use_tactic(&mut self, p: PlayerId, card: Card, guile: bool) {
        self.hands[p].remove(card);
        self.table.tactics_played[p] = self.table.tactics_played[p].saturating_add(1);
        if guile {
            self.table.discards[p].insert(card);
        }
    }

    /// The unclaimed flag where `card` is `p`'s (in a slot on his side, or
    /// as Fog or Mud he laid).
    fn flag_of(&self, p: PlayerId, card: Card) -> Option<usize> {
        let owner = |f: &Flag| match card.as_tactic() {
            Some(Tactic::Fog) => f.fog_owner(),
            Some(Tactic::Mud) => f.mud_owner(),
            _ => None,
        };
        self.table.flags.iter().position(|f| {
            f.claimed().is_none() && (f.side(p).contains(card) || owner(f) == Some(p))
        })
    }

    fn finish(&mut self, outcome: Outcome) {
        self.table.outcome = Some(outcome);
        self.table.phase = Phase::Over;
    }

    /// The end rule: after two passes in a row nobody can change the table,
    /// so every unclaimed flag goes to the stronger complete formation (a
    /// complete one beats an incomplete one; ties go to who completed
    /// first; two incomplete sides leave it to nobody). Then a player with
    /// a breakthrough or five flags wins if the other has none; otherwise
    /// more flags win; equal is a draw.
    fn settle(&mut self) {
        let order = self.rules.formation_order;
        let unseen = (self.rules.wild_cards == WildCards::UnseenOnly).then(|| self.available());
        self.proofs.clear();
        for f in self.table.flags.iter_mut() {
            if f.claimed().is_some() {
                continue;
            }
            let strength = |p| match unseen {
                Some(u) => f.strength_unseen(p, order, u),
                None => f.strength(p, order),
            };
            let s = [strength(PlayerId::P0), strength(PlayerId::P1)];
            let winner = match s {
                [Some(a), Some(b)] if a == b => f.first_complete(),
                [Some(a), Some(b)] => Some(if a > b { PlayerId::P0 } else { PlayerId::P1 }),
                [Some(_), None] => Some(PlayerId::P0),
                [None, Some(_)] => Some(PlayerId::P1),
                [None, None] => None,
            };
            if let Some(w) = winner {
                f.set_claimed(w);
            }
        }
        self.bits = FlagBits::of(&self.table);
        let m = PlayerId::BOTH.map(|p| self.table.claimed(p));
        let v = m.map(|s| s.is_victory());
        let outcome = match (v, m[0].len().cmp(&m[1].len())) {
            ([true, false], _) => Outcome::Win(PlayerId::P0),
            ([false, true], _) => Outcome::Win(PlayerId::P1),
            (_, std::cmp::Ordering::Greater) => Outcome::Win(PlayerId::P0),
            (_, std::cmp::Ordering::Less) => Outcome::Win(PlayerId::P1),
            (_, std::cmp::Ordering::Equal) => Outcome::Draw,
        };
        self.table.settled = true;
        self.finish(outcome);
    }
}
