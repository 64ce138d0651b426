//! Battles and fights: revealing cards, dice, wounds, the three-kills
//! bonus, the health-1 rule and the guard fight.

use game_traits::{Outcome, PerPlayer, PlayerId};

use crate::card::{CardSet, Guard, Soldier};
use crate::line::remove_card;
use crate::state::{CardWar, FightReport, Open, Phase};

impl CardWar {
    /// Opens the next cards and asks for prayers until a decision or a die
    /// is due, or the battle ends.
    // Out of line: `step` runs for every action and stays small (few
    // registers to save) when the rarer, longer rules are calls.
    #[inline(never)]
    pub(crate) fn advance_battle(&mut self) {
        let a = self.public.battle.attacker;
        let d = a.other();
        if self.public.battle.open[a] == Open::None {
            if self.side(a).line.is_empty() {
                self.finish_battle();
                return;
            }
            self.open_soldier(a);
        }
        if self.public.battle.open[d] == Open::None {
            if !self.side(d).line.is_empty() {
                self.open_soldier(d);
            } else if let Some(g) = Guard::ORDER
                .into_iter()
                .find(|g| self.side(d).guards[g.index()] > 0)
            {
                self.public.battle.open[d] = Open::Guard(g);
                self.public.battle.fighter[d] = Default::default();
                self.public.battle.asked = PerPlayer::default();
            } else {
                // No guard left means the joker is dead, which ends the game
                // before this point; kept total for tampered states.
                self.finish(Outcome::Win(a));
                return;
            }
        }
        if self.public.round >= 2 {
            for p in [a, d] {
                let s = p;
                if !self.public.sides[s].prayed && !self.public.battle.asked[s] {
                    self.public.phase = Phase::Pray { player: p };
                    return;
                }
            }
        }
        self.public.phase = Phase::AttackDie;
    }

    // Inlined into its three callers: it is short, and the common fight
    // calls it once per fight.
    #[inline(always)]
    pub(crate) fn open_soldier(&mut self, p: PlayerId) {
        let s = p;
        self.reveal(p, 0);
        self.public.battle.open[s] = Open::Soldier;
        self.public.battle.fighter[s] = Default::default();
        self.public.battle.asked = PerPlayer::default();
    }

    pub(crate) fn reveal(&mut self, p: PlayerId, i: usize) {
        let s = p;
        let card = self.hidden[s].line[i];
        let side = &mut self.public.sides[s];
        if let Some(from_pile) = side.line.reveal(i, card) {
            if from_pile {
                side.reveal_from_pile(card);
            }
            side.known_alive.remove(card);
            side.pile_or_drawn.remove(card);
        }
    }

    pub(crate) fn health(&self, p: PlayerId) -> u8 {
        let s = p;
        match self.public.battle.open[s] {
            Open::None => 0,
            Open::Soldier => self.public.sides[s].line.front_health(),
            Open::Guard(g) => self.public.sides[s].guards[g.index()],
        }
    }

    pub(crate) fn full_health(&self, p: PlayerId) -> u8 {
        let s = p;
        match self.public.battle.open[s] {
            Open::None => 0,
            Open::Soldier => self.hidden[s].line[0].strength(),
            Open::Guard(g) => g.strength(),
        }
    }

    pub(crate) fn set_health(&mut self, p: PlayerId, h: u8) {
        let s = p;
        match self.public.battle.open[s] {
            Open::None => {}
            Open::Soldier => self.public.sides[s].line.set_front_health(h),
            Open::Guard(g) => self.public.sides[s].guards[g.index()] = h,
        }
    }

    pub(crate) fn halve(&self, v: u16) -> u16 {
        if self.rules.grenade_rounds_up {
            v.div_ceil(2)
        } else {
            v / 2
        }
    }

    pub(crate) fn effective_die(&self, p: PlayerId, die: u8) -> u16 {
        let b = &self.public.battle;
        let s = p;
        // Most fights have no doubling or halving: one well-predicted test.
        if b.fighter[s].doubled | b.pending[s].doubled == 0 && !b.fighter[s].halved {
            return die as u16;
        }
        let doublings = (b.fighter[s].doubled as u32 + b.pending[s].doubled as u32).min(8);
        let v = (die as u16) << doublings;
        // `halve` without a branch on the (unpredictable) grenade flag:
        // halving rounded up is adding one before the shift.
        let halved = b.fighter[s].halved;
        (v + (halved && self.rules.grenade_rounds_up) as u16) >> halved as u16
    }

    pub(crate) fn resolve(&mut self, defence_die: u8) {
        let a = self.public.battle.attacker;
        let d = a.other();
        let attack_die = self.public.battle.attack_die;
        // Each card's health is read once and handed to `win`: nothing
        // changes it before then.
        let (ha, hd) = (self.health(a), self.health(d));
        let total = |g: &Self, p: PlayerId, health: u8, die: u8| {
            health as u16 + g.effective_die(p, die) + g.public.battle.pending[p].add as u16
        };
        let ta = total(self, a, ha, attack_die);
        let td = total(self, d, hd, defence_die);
        let b = &mut self.public.battle;
        b.last_fight = Some(FightReport {
            attack_die,
            attack_total: ta,
            defence_die,
            defence_total: td,
        });
        b.attack_die = 0;
        b.pending = Default::default();
        b.asked = PerPlayer::default();
        for f in b.fighter.values_mut() {
            f.doubled = 0;
            f.halved = false;
        }
        // The winner is settled first so that its health is right even when
        // the loser is the joker and the game ends.
        if ta > td {
            self.win(a, ha, ta - td);
            self.kill_open(d);
        } else if td > ta {
            self.win(d, hd, td - ta);
            self.kill_open(a);
        } else {
            self.kill_open(a);
            self.kill_open(d);
        }
    }

    /// `p`'s open card, at health `h`, won the fight by `diff`.
    pub(crate) fn win(&mut self, p: PlayerId, h: u8, diff: u16) {
        let diff = diff.min(u8::MAX as u16) as u8;
        let mut new = if self.rules.cap_winner_health {
            diff.min(h)
        } else {
            diff
        };
        let s = p;
        let kills = self.public.battle.fighter[s].kills.saturating_add(1);
        self.public.battle.fighter[s].kills = kills;
        let is_guard = matches!(self.public.battle.open[s], Open::Guard(_));
        let bonus = if self.rules.bonus_every_three_kills {
            kills.is_multiple_of(3)
        } else {
            kills == 3
        };
        if bonus && (!is_guard || self.rules.guards_earn_bonus) {
            let full = self.full_health(p);
            if new < full {
                new = full;
            } else {
                let f = &mut self.public.battle.fighter[s];
                f.doubled = f.doubled.saturating_add(1);
            }
        }
        self.set_health(p, new);
        // The health-1 rule can only apply at health 1.
        if new == 1 {
            self.health_one(p);
        }
    }

    /// The health-1 rule: a soldier at 1 gives its point to the next card
    /// of its line and leaves, or returns to its owner if it is the last.
    pub(crate) fn health_one(&mut self, p: PlayerId) {
        let s = p;
        if self.public.battle.open[s] != Open::Soldier || self.health(p) != 1 {
            return;
        }
        let card = self.hidden[s].line[0];
        let has_next = self.public.sides[s].line.len() > 1;
        if has_next {
            self.public.sides[s].line.give_point(1);
        }
        self.remove_front(p);
        if has_next && !self.rules.donor_returns {
            // Put under the card it fed (the text), with the donors already
            // under this one: they all follow that card now.
            self.public.sides[s].donors.insert(card);
        } else {
            // A lone last card returns to its owner, and the donors under
            // it with it; under `donor_returns` every donor returns.
            self.set_aside(p, card);
            self.donors_follow(p, false);
        }
        self.public.battle.open[s] = Open::None;
    }

    /// The donors under `p`'s front card go where it went: to the pile
    /// (`to_pile`), or set aside with it until the round ends.
    // Inlined, with the (rare) moves out of line: every fight's loser
    // checks for donors.
    #[inline(always)]
    pub(crate) fn donors_follow(&mut self, p: PlayerId, to_pile: bool) {
        if !self.public.sides[p].donors.is_empty() {
            self.move_donors(p, to_pile);
        }
    }

    /// The body of [`CardWar::donors_follow`].
    #[cold]
    #[inline(never)]
    fn move_donors(&mut self, p: PlayerId, to_pile: bool) {
        let donors = self.public.sides[p].donors;
        self.public.sides[p].donors = CardSet::EMPTY;
        for card in donors.iter() {
            if to_pile {
                self.bury(p, card);
            } else {
                self.set_aside(p, card);
            }
        }
    }

    /// Removes `p`'s front card (the common case of [`CardWar::remove_slot`]).
    // Inlined: every fight removes one, and as a call it saves registers.
    #[inline(always)]
    pub(crate) fn remove_front(&mut self, p: PlayerId) {
        let len = self.public.sides[p].line.len();
        self.public.sides[p].line.remove_front();
        remove_card(&mut self.hidden[p].line, len, 0);
    }

    pub(crate) fn remove_slot(&mut self, p: PlayerId, i: usize) {
        let s = p;
        let len = self.public.sides[s].line.len();
        self.public.sides[s].line.remove(i);
        remove_card(&mut self.hidden[s].line, len, i);
    }

    pub(crate) fn bury(&mut self, p: PlayerId, card: Soldier) {
        let s = p;
        self.hidden[s].pile.insert(card);
        self.public.sides[s].pile += 1;
        self.public.sides[s].known_alive.remove(card);
        self.public.sides[s].pile_or_drawn.remove(card);
        self.public.sides[s].known_pile.insert(card);
    }

    pub(crate) fn set_aside(&mut self, p: PlayerId, card: Soldier) {
        let s = p;
        self.hidden[s].aside.insert(card);
        self.public.sides[s].aside += 1;
        self.public.sides[s].known_aside.insert(card);
    }

    /// Kills `p`'s open card: a soldier goes to the pile, a guard dies, the
    /// joker's death ends the game.
    pub(crate) fn kill_open(&mut self, p: PlayerId) {
        let s = p;
        match self.public.battle.open[s] {
            Open::None => {}
            Open::Soldier => {
                let card = self.hidden[s].line[0];
                self.remove_front(p);
                self.bury(p, card);
                self.donors_follow(p, true);
            }
            Open::Guard(g) => self.kill_guard(p, g),
        }
        self.public.battle.open[s] = Open::None;
    }

    pub(crate) fn kill_guard(&mut self, p: PlayerId, g: Guard) {
        self.public.sides[p].guards[g.index()] = 0;
        if self.public.battle.open[p] == Open::Guard(g) {
            self.public.battle.open[p] = Open::None;
        }
        if g == Guard::Joker && self.public.outcome.is_none() {
            self.finish(Outcome::Win(p.other()));
        }
    }
}
