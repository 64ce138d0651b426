//! The rules in motion: setup, rounds, battles, fights, bonuses and
//! prayers. Every function here keeps the public counts, the hidden card
//! sets and the opponent's knowledge in step.

use game_traits::{Outcome, PlayerId};

use crate::action::Action;
use crate::card::{CardSet, Guard, Soldier};
use crate::line::remove_card;
use crate::prayer::Prayer;
use crate::rules::{FirstAttacker, Rules};
use crate::state::{
    other, Battle, CardWar, FightReport, LayKind, Open, Phase, Public, SideHidden, SidePublic,
};

/// Probability weight (out of 36) of the higher of two dice being `k`.
pub(crate) fn guard_die_weight(k: u8) -> u32 {
    2 * k as u32 - 1
}

/// Probability weight (out of 36) of 2d6 summing to `s`.
pub(crate) fn two_dice_weight(s: u8) -> u32 {
    6 - (s as i32 - 7).unsigned_abs()
}

impl CardWar {
    pub(crate) fn start(rules: Rules) -> Self {
        let mut game = CardWar {
            rules,
            public: Public {
                round: 0,
                moves: 0,
                phase: Phase::Initiative { first_die: 0 },
                first: PlayerId::P0,
                battle_no: 1,
                swapped: false,
                last_attacker: None,
                sides: [SidePublic::new(24), SidePublic::new(24)],
                battle: Battle::new(PlayerId::P0),
                outcome: None,
            },
            hidden: [SideHidden::new(), SideHidden::new()],
        };
        if rules.aside > 0 {
            game.public.phase = Phase::Aside {
                colour: PlayerId::P0,
                left: rules.aside,
            };
        }
        game
    }

    /// Whether `action` is legal now.
    pub(crate) fn legal(&self, action: Action) -> bool {
        match (self.public.phase, action) {
            (Phase::Aside { colour, .. }, Action::Draw(c)) => self.hid(colour).hand.contains(c),
            (Phase::Initiative { first_die }, Action::Die(d @ 1..=6)) if d != first_die => {
                (1..=6).contains(&d) && d != first_die
            }
            (Phase::DrawRoll { .. } | Phase::PrayerRoll { .. }, Action::Dice(s)) => {
                (2..=12).contains(&s)
            }
            (Phase::Draw { player, .. } | Phase::Reinforce { player, .. }, Action::Draw(c)) => {
                self.hid(player).pile.contains(c)
            }
            (Phase::Lay { player, .. }, Action::Place(c)) => self.hid(player).hand.contains(c),
            (
                Phase::Lay {
                    kind: LayKind::FreeAttack,
                    ..
                },
                Action::EndLine,
            ) => true,
            (Phase::Pray { .. }, Action::Pray | Action::Decline) => true,
            (
                Phase::ParatrooperRoll { .. } | Phase::AttackDie | Phase::DefenceDie,
                Action::Die(d),
            ) => (1..=6).contains(&d),
            _ => false,
        }
    }

    /// Lists the legal actions in id order.
    pub(crate) fn list_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.public.phase {
            Phase::Aside { colour, .. } => {
                out.extend(self.hid(colour).hand.iter().map(Action::Draw))
            }
            Phase::Initiative { first_die } => {
                out.extend((1..=6).filter(|&d| d != first_die).map(Action::Die))
            }
            Phase::DrawRoll { .. } | Phase::PrayerRoll { .. } => {
                out.extend((2..=12).map(Action::Dice))
            }
            Phase::Draw { player, .. } | Phase::Reinforce { player, .. } => {
                out.extend(self.hid(player).pile.iter().map(Action::Draw))
            }
            Phase::Lay { player, kind, .. } => {
                out.extend(self.hid(player).hand.iter().map(Action::Place));
                if kind == LayKind::FreeAttack {
                    out.push(Action::EndLine);
                }
            }
            Phase::Pray { .. } => out.extend([Action::Pray, Action::Decline]),
            Phase::ParatrooperRoll { .. } | Phase::AttackDie | Phase::DefenceDie => {
                out.extend((1..=6).map(Action::Die))
            }
            Phase::Over => {}
        }
    }

    /// The chance outcomes now due, with their weights and the weights'
    /// total; empty at a decision.
    pub(crate) fn chance_weights(&self, mut emit: impl FnMut(Action, u32)) -> u32 {
        match self.public.phase {
            Phase::Aside { colour, .. } => {
                let hand = self.hid(colour).hand;
                hand.iter().for_each(|c| emit(Action::Draw(c), 1));
                hand.len() as u32
            }
            Phase::Initiative { first_die } => {
                let mut total = 0;
                for d in (1..=6).filter(|&d| d != first_die) {
                    emit(Action::Die(d), 1);
                    total += 1;
                }
                total
            }
            Phase::DrawRoll { .. } | Phase::PrayerRoll { .. } => {
                (2..=12).for_each(|s| emit(Action::Dice(s), two_dice_weight(s)));
                36
            }
            Phase::Draw { player, .. } | Phase::Reinforce { player, .. } => {
                let pile = self.hid(player).pile;
                pile.iter().for_each(|c| emit(Action::Draw(c), 1));
                pile.len() as u32
            }
            Phase::ParatrooperRoll { .. } | Phase::AttackDie => {
                (1..=6).for_each(|d| emit(Action::Die(d), 1));
                6
            }
            Phase::DefenceDie => {
                let d = other(self.public.battle.attacker);
                if matches!(self.public.battle.open[d.index()], Open::Guard(_)) {
                    (1..=6).for_each(|k| emit(Action::Die(k), guard_die_weight(k)));
                    36
                } else {
                    (1..=6).for_each(|k| emit(Action::Die(k), 1));
                    6
                }
            }
            Phase::Lay { .. } | Phase::Pray { .. } | Phase::Over => 0,
        }
    }

    /// Draws a chance outcome without allocating.
    pub(crate) fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        let uniform_card = |set: CardSet, rng: &mut R| {
            if set.is_empty() {
                None
            } else {
                set.nth(rng.random_range(0..set.len())).map(Action::Draw)
            }
        };
        match self.public.phase {
            Phase::Aside { colour, .. } => uniform_card(self.hid(colour).hand, rng),
            Phase::Draw { player, .. } | Phase::Reinforce { player, .. } => {
                uniform_card(self.hid(player).pile, rng)
            }
            Phase::Initiative { first_die } => {
                let d = rng.random_range(1..=if first_die == 0 { 6 } else { 5 });
                Some(Action::Die(if first_die != 0 && d >= first_die {
                    d + 1
                } else {
                    d
                }))
            }
            Phase::DrawRoll { .. } | Phase::PrayerRoll { .. } => {
                // Both dice from one uniform draw over the 36 pairs.
                let pair: u8 = rng.random_range(0..36);
                Some(Action::Dice(pair / 6 + pair % 6 + 2))
            }
            Phase::ParatrooperRoll { .. } | Phase::AttackDie => {
                Some(Action::Die(rng.random_range(1..=6)))
            }
            Phase::DefenceDie => {
                let d = other(self.public.battle.attacker);
                Some(Action::Die(
                    if matches!(self.public.battle.open[d.index()], Open::Guard(_)) {
                        // The higher of two dice, from one draw over the 36 pairs.
                        let pair: u8 = rng.random_range(0..36);
                        (pair / 6).max(pair % 6) + 1
                    } else {
                        rng.random_range(1..=6)
                    },
                ))
            }
            Phase::Lay { .. } | Phase::Pray { .. } | Phase::Over => None,
        }
    }

    /// Applies an action; one that does not fit the phase, or names a card
    /// or die face that is not available, is ignored.
    pub(crate) fn step(&mut self, action: Action) {
        match (self.public.phase, action) {
            (Phase::Aside { colour, left }, Action::Draw(c))
                if self.hid(colour).hand.contains(c) =>
            {
                self.hand_to_pile(colour, c);
                if left > 1 {
                    self.public.phase = Phase::Aside {
                        colour,
                        left: left - 1,
                    };
                } else if colour == PlayerId::P0 {
                    self.public.phase = Phase::Aside {
                        colour: PlayerId::P1,
                        left: self.rules.aside,
                    };
                } else {
                    self.public.phase = Phase::Initiative { first_die: 0 };
                }
            }
            (Phase::Initiative { first_die: 0 }, Action::Die(d @ 1..=6)) => {
                self.public.phase = Phase::Initiative { first_die: d };
            }
            (Phase::Initiative { first_die }, Action::Die(d @ 1..=6)) if d != first_die => {
                self.public.first = if first_die > d {
                    PlayerId::P0
                } else {
                    PlayerId::P1
                };
                self.begin_round();
            }
            (Phase::DrawRoll { player }, Action::Dice(s @ 2..=12)) => {
                let pile = self.side(player).pile;
                let n = s.min(pile.saturating_sub(self.rules.keep_in_pile));
                if n > 0 {
                    self.public.phase = Phase::Draw { player, left: n };
                } else {
                    self.after_draw(player);
                }
            }
            (Phase::Draw { player, left }, Action::Draw(c))
                if self.hid(player).pile.contains(c) =>
            {
                let (h, p) = (
                    &mut self.hidden[player.index()],
                    &mut self.public.sides[player.index()],
                );
                h.pile.remove(c);
                h.hand.insert(c);
                p.pile -= 1;
                p.hand += 1;
                if left > 1 && p.pile > 0 {
                    self.public.phase = Phase::Draw {
                        player,
                        left: left - 1,
                    };
                } else {
                    self.after_draw(player);
                }
            }
            (Phase::Lay { player, kind, left }, Action::Place(c))
                if self.hid(player).hand.contains(c) =>
            {
                self.public.moves += 1;
                let s = player.index();
                let len = self.public.sides[s].line.len();
                if self.public.sides[s].line.push() {
                    self.hidden[s].hand.remove(c);
                    self.hidden[s].line[len] = c;
                    self.public.sides[s].hand -= 1;
                }
                if left > 1 && self.public.sides[s].hand > 0 {
                    self.public.phase = Phase::Lay {
                        player,
                        kind,
                        left: left - 1,
                    };
                } else {
                    self.lay_done(player, kind);
                }
            }
            (
                Phase::Lay {
                    player,
                    kind: kind @ LayKind::FreeAttack,
                    ..
                },
                Action::EndLine,
            ) => {
                self.public.moves += 1;
                self.lay_done(player, kind);
            }
            (Phase::Pray { player }, Action::Pray) => {
                self.public.moves += 1;
                self.public.sides[player.index()].prayed = true;
                if self.rules.one_prayer_per_fight {
                    self.public.battle.asked = [true; 2];
                } else {
                    self.public.battle.asked[player.index()] = true;
                }
                self.public.phase = Phase::PrayerRoll { player };
            }
            (Phase::Pray { player }, Action::Decline) => {
                self.public.moves += 1;
                self.public.battle.asked[player.index()] = true;
                self.advance_battle();
            }
            (Phase::PrayerRoll { player }, Action::Dice(s)) => {
                if let Some(prayer) = Prayer::from_sum(s) {
                    self.pray(player, prayer);
                }
            }
            (Phase::Reinforce { player, left }, Action::Draw(c))
                if self.hid(player).pile.contains(c) =>
            {
                let s = player.index();
                let len = self.public.sides[s].line.len();
                if self.public.sides[s].line.push() {
                    self.hidden[s].pile.remove(c);
                    self.hidden[s].line[len] = c;
                    self.public.sides[s].pile -= 1;
                }
                if left > 1 && self.public.sides[s].pile > 0 {
                    self.public.phase = Phase::Reinforce {
                        player,
                        left: left - 1,
                    };
                } else {
                    self.advance_battle();
                }
            }
            (Phase::ParatrooperRoll { player }, Action::Die(d @ 1..=6)) => {
                let n = d.min(self.side(player).pile);
                if n > 0 {
                    self.public.phase = Phase::Reinforce { player, left: n };
                } else {
                    self.advance_battle();
                }
            }
            (Phase::AttackDie, Action::Die(d @ 1..=6)) => {
                self.public.battle.attack_die = d;
                self.public.phase = Phase::DefenceDie;
            }
            (Phase::DefenceDie, Action::Die(d @ 1..=6)) => {
                self.resolve(d);
                if self.public.outcome.is_none() {
                    self.advance_battle();
                }
            }
            _ => {}
        }
    }

    fn hid(&self, p: PlayerId) -> &SideHidden {
        &self.hidden[p.index() & 1]
    }

    pub(crate) fn hand_to_pile(&mut self, p: PlayerId, c: Soldier) {
        let s = p.index();
        self.hidden[s].hand.remove(c);
        self.hidden[s].pile.insert(c);
        self.public.sides[s].hand -= 1;
        self.public.sides[s].pile += 1;
    }

    // ---- rounds ---------------------------------------------------------

    fn begin_round(&mut self) {
        if self.public.round >= self.rules.max_rounds {
            self.finish(Outcome::Draw);
            return;
        }
        self.public.round += 1;
        self.public.battle_no = 1;
        self.public.swapped = false;
        self.public.last_attacker = None;
        if self.public.round >= 2 {
            // Both piles are shuffled: a card seen dying could now be drawn.
            for side in &mut self.public.sides {
                side.known_pile = CardSet::EMPTY;
            }
            self.public.phase = Phase::DrawRoll {
                player: self.public.first,
            };
        } else {
            self.choose_roles();
        }
    }

    fn after_draw(&mut self, player: PlayerId) {
        if player == self.public.first {
            self.public.phase = Phase::DrawRoll {
                player: other(player),
            };
        } else {
            self.choose_roles();
        }
    }

    fn choose_roles(&mut self) {
        let f = self.public.first;
        let o = other(f);
        let (nf, no) = (self.side(f).hand, self.side(o).hand);
        if nf == 0 && no == 0 {
            self.end_round();
        } else if 2 * nf as u16 <= no as u16 {
            self.public.swapped = true;
            self.start_battle(o, LayKind::Attack);
        } else {
            self.start_battle(f, LayKind::Attack);
        }
    }

    fn start_battle(&mut self, attacker: PlayerId, kind: LayKind) {
        self.public.battle = Battle::new(attacker);
        let n = self.side(attacker).hand;
        let left = match kind {
            LayKind::Attack if self.public.battle_no == 1 => n / 2,
            _ => n,
        };
        if left == 0 && kind != LayKind::FreeAttack {
            self.lay_done(attacker, kind);
        } else {
            self.public.phase = Phase::Lay {
                player: attacker,
                kind,
                left,
            };
        }
    }

    fn lay_done(&mut self, player: PlayerId, kind: LayKind) {
        match kind {
            LayKind::Attack | LayKind::FreeAttack => {
                let k = self.side(player).line.len() as u8;
                let d = other(player);
                let left = k.min(self.side(d).hand);
                if k == 0 {
                    self.finish_battle();
                } else if left > 0 {
                    self.public.phase = Phase::Lay {
                        player: d,
                        kind: LayKind::Defence,
                        left,
                    };
                } else {
                    self.start_fights();
                }
            }
            LayKind::Defence => self.start_fights(),
        }
    }

    pub(crate) fn start_fights(&mut self) {
        self.public.last_attacker = Some(self.public.battle.attacker);
        self.advance_battle();
    }

    fn finish_battle(&mut self) {
        for s in 0..2 {
            let len = self.public.sides[s].line.len();
            for i in 0..len {
                let card = self.hidden[s].line[i];
                let revealed = self.public.sides[s].line.slots()[i].card.is_some();
                self.hidden[s].aside.insert(card);
                if revealed {
                    self.public.sides[s].known_aside.insert(card);
                }
            }
            self.public.sides[s].aside += len as u8;
            self.public.sides[s].line.clear();
            self.hidden[s].line = [Soldier::default(); crate::line::LINE_CAP];
        }
        let attacker = self.public.battle.attacker;
        let last = self.public.battle;
        self.public.battle = Battle::new(attacker);
        self.public.battle.last_fight = last.last_fight;
        self.public.battle.last_prayer = last.last_prayer;
        if self.public.battle_no == 1 && !self.public.swapped {
            self.public.battle_no = 2;
            let kind = if self.public.round == 1 && !self.rules.reserve_in_first_round {
                LayKind::Attack
            } else {
                LayKind::FreeAttack
            };
            let second = other(attacker);
            if self.side(second).hand == 0 {
                self.end_round();
            } else {
                self.start_battle(second, kind);
            }
        } else {
            self.end_round();
        }
    }

    fn end_round(&mut self) {
        for s in 0..2 {
            let h = &mut self.hidden[s];
            h.hand = h.hand.union(h.aside);
            h.aside = CardSet::EMPTY;
            let p = &mut self.public.sides[s];
            p.hand += p.aside;
            p.aside = 0;
            p.known_alive = p.known_alive.union(p.known_aside);
            p.known_aside = CardSet::EMPTY;
        }
        let first = self.public.first;
        self.public.first = match (self.rules.first_attacker, self.public.last_attacker) {
            (FirstAttacker::LastAttacker, Some(p)) => p,
            _ => other(first),
        };
        self.begin_round();
    }

    fn finish(&mut self, outcome: Outcome) {
        self.public.outcome = Some(outcome);
        self.public.phase = Phase::Over;
    }

    // ---- battle ---------------------------------------------------------

    /// Opens the next cards and asks for prayers until a decision or a die
    /// is due, or the battle ends.
    pub(crate) fn advance_battle(&mut self) {
        let a = self.public.battle.attacker;
        let d = other(a);
        if self.public.battle.open[a.index()] == Open::None {
            if self.side(a).line.is_empty() {
                self.finish_battle();
                return;
            }
            self.open_soldier(a);
        }
        if self.public.battle.open[d.index()] == Open::None {
            if !self.side(d).line.is_empty() {
                self.open_soldier(d);
            } else if let Some(g) = Guard::ORDER
                .into_iter()
                .find(|g| self.side(d).guards[g.index()] > 0)
            {
                self.public.battle.open[d.index()] = Open::Guard(g);
                self.public.battle.fighter[d.index()] = Default::default();
                self.public.battle.asked = [false; 2];
            } else {
                // No guard left means the joker is dead, which ends the game
                // before this point; kept total for tampered states.
                self.finish(Outcome::Win(a));
                return;
            }
        }
        if self.public.round >= 2 {
            for p in [a, d] {
                let s = p.index();
                if !self.public.sides[s].prayed && !self.public.battle.asked[s] {
                    self.public.phase = Phase::Pray { player: p };
                    return;
                }
            }
        }
        self.public.phase = Phase::AttackDie;
    }

    fn open_soldier(&mut self, p: PlayerId) {
        let s = p.index();
        self.reveal(p, 0);
        self.public.battle.open[s] = Open::Soldier;
        self.public.battle.fighter[s] = Default::default();
        self.public.battle.asked = [false; 2];
    }

    fn reveal(&mut self, p: PlayerId, i: usize) {
        let s = p.index();
        let card = self.hidden[s].line[i];
        if let Some(slot) = self.public.sides[s].line.slot_mut(i) {
            if slot.card.is_none() {
                slot.card = Some(card);
                slot.health = card.strength().saturating_add(slot.extra);
                slot.extra = 0;
                self.public.sides[s].known_alive.remove(card);
            }
        }
    }

    fn health(&self, p: PlayerId) -> u8 {
        let s = p.index();
        match self.public.battle.open[s] {
            Open::None => 0,
            Open::Soldier => self.public.sides[s]
                .line
                .slots()
                .first()
                .map_or(0, |v| v.health),
            Open::Guard(g) => self.public.sides[s].guards[g.index()],
        }
    }

    fn full_health(&self, p: PlayerId) -> u8 {
        let s = p.index();
        match self.public.battle.open[s] {
            Open::None => 0,
            Open::Soldier => self.hidden[s].line[0].strength(),
            Open::Guard(g) => g.strength(),
        }
    }

    fn set_health(&mut self, p: PlayerId, h: u8) {
        let s = p.index();
        match self.public.battle.open[s] {
            Open::None => {}
            Open::Soldier => {
                if let Some(slot) = self.public.sides[s].line.slot_mut(0) {
                    slot.health = h;
                }
            }
            Open::Guard(g) => self.public.sides[s].guards[g.index()] = h,
        }
    }

    fn halve(&self, v: u16) -> u16 {
        if self.rules.grenade_rounds_up {
            v.div_ceil(2)
        } else {
            v / 2
        }
    }

    fn effective_die(&self, p: PlayerId, die: u8) -> u16 {
        let b = &self.public.battle;
        let s = p.index();
        let doublings = (b.fighter[s].doubled as u32 + b.pending[s].doubled as u32).min(8);
        let mut v = (die as u16) << doublings;
        if b.fighter[s].halved {
            v = self.halve(v);
        }
        v
    }

    fn resolve(&mut self, defence_die: u8) {
        let a = self.public.battle.attacker;
        let d = other(a);
        let attack_die = self.public.battle.attack_die;
        let total = |g: &Self, p: PlayerId, die: u8| {
            g.health(p) as u16
                + g.effective_die(p, die)
                + g.public.battle.pending[p.index()].add as u16
        };
        let ta = total(self, a, attack_die);
        let td = total(self, d, defence_die);
        let b = &mut self.public.battle;
        b.last_fight = Some(FightReport {
            attack_die,
            attack_total: ta,
            defence_die,
            defence_total: td,
        });
        b.attack_die = 0;
        b.pending = Default::default();
        b.asked = [false; 2];
        for f in &mut b.fighter {
            f.doubled = 0;
            f.halved = false;
        }
        // The winner is settled first so that its health is right even when
        // the loser is the joker and the game ends.
        if ta > td {
            self.win(a, ta - td);
            self.kill_open(d);
        } else if td > ta {
            self.win(d, td - ta);
            self.kill_open(a);
        } else {
            self.kill_open(a);
            self.kill_open(d);
        }
    }

    fn win(&mut self, p: PlayerId, diff: u16) {
        let h = self.health(p);
        let diff = diff.min(u8::MAX as u16) as u8;
        let new = if self.rules.cap_winner_health {
            diff.min(h)
        } else {
            diff
        };
        self.set_health(p, new);
        let s = p.index();
        let kills = self.public.battle.fighter[s].kills.saturating_add(1);
        self.public.battle.fighter[s].kills = kills;
        let is_guard = matches!(self.public.battle.open[s], Open::Guard(_));
        let bonus = if self.rules.bonus_every_three_kills {
            kills % 3 == 0
        } else {
            kills == 3
        };
        if bonus && (!is_guard || self.rules.guards_earn_bonus) {
            let full = self.full_health(p);
            if new < full {
                self.set_health(p, full);
            } else {
                let f = &mut self.public.battle.fighter[s];
                f.doubled = f.doubled.saturating_add(1);
            }
        }
        self.health_one(p);
    }

    /// The health-1 rule: a soldier at 1 gives its point to the next card
    /// of its line and leaves, or returns to its owner if it is the last.
    fn health_one(&mut self, p: PlayerId) {
        let s = p.index();
        if self.public.battle.open[s] != Open::Soldier || self.health(p) != 1 {
            return;
        }
        let card = self.hidden[s].line[0];
        let has_next = self.public.sides[s].line.len() > 1;
        if has_next {
            if let Some(next) = self.public.sides[s].line.slot_mut(1) {
                if next.card.is_some() {
                    next.health = next.health.saturating_add(1);
                } else {
                    next.extra = next.extra.saturating_add(1);
                }
            }
        }
        self.remove_slot(p, 0);
        if has_next && !self.rules.donor_returns {
            self.bury(p, card);
        } else {
            self.set_aside(p, card);
        }
        self.public.battle.open[s] = Open::None;
    }

    fn remove_slot(&mut self, p: PlayerId, i: usize) {
        let s = p.index();
        let len = self.public.sides[s].line.len();
        self.public.sides[s].line.remove(i);
        remove_card(&mut self.hidden[s].line, len, i);
    }

    fn bury(&mut self, p: PlayerId, card: Soldier) {
        let s = p.index();
        self.hidden[s].pile.insert(card);
        self.public.sides[s].pile += 1;
        self.public.sides[s].known_alive.remove(card);
        self.public.sides[s].known_pile.insert(card);
    }

    fn set_aside(&mut self, p: PlayerId, card: Soldier) {
        let s = p.index();
        self.hidden[s].aside.insert(card);
        self.public.sides[s].aside += 1;
        self.public.sides[s].known_aside.insert(card);
    }

    /// Kills `p`'s open card: a soldier goes to the pile, a guard dies, the
    /// joker's death ends the game.
    fn kill_open(&mut self, p: PlayerId) {
        let s = p.index();
        match self.public.battle.open[s] {
            Open::None => {}
            Open::Soldier => {
                let card = self.hidden[s].line[0];
                self.remove_slot(p, 0);
                self.bury(p, card);
            }
            Open::Guard(g) => self.kill_guard(p, g),
        }
        self.public.battle.open[s] = Open::None;
    }

    fn kill_guard(&mut self, p: PlayerId, g: Guard) {
        self.public.sides[p.index()].guards[g.index()] = 0;
        if self.public.battle.open[p.index()] == Open::Guard(g) {
            self.public.battle.open[p.index()] = Open::None;
        }
        if g == Guard::Joker && self.public.outcome.is_none() {
            self.finish(Outcome::Win(other(p)));
        }
    }

    // ---- prayer ---------------------------------------------------------

    fn pray(&mut self, p: PlayerId, prayer: Prayer) {
        let q = other(p);
        let (s, t) = (p.index(), q.index());
        self.public.battle.last_prayer = Some((p, prayer));
        match prayer {
            Prayer::Grin | Prayer::Pity | Prayer::Condescension => {
                let add = match prayer {
                    Prayer::Grin => 2,
                    Prayer::Pity => 3,
                    _ => 4,
                };
                let pending = &mut self.public.battle.pending[s];
                pending.add = pending.add.saturating_add(add);
            }
            Prayer::Doctors => {
                let h = self.health(p).saturating_add(5);
                self.set_health(p, h);
            }
            Prayer::Hellfire => {
                let pending = &mut self.public.battle.pending[s];
                pending.doubled = pending.doubled.saturating_add(1);
            }
            Prayer::Reinforcement | Prayer::Paratroopers => {
                // The pile is shuffled before picking.
                self.public.sides[s].known_pile = CardSet::EMPTY;
                if prayer == Prayer::Paratroopers {
                    self.public.phase = Phase::ParatrooperRoll { player: p };
                    return;
                }
                if self.public.sides[s].pile > 0 {
                    self.public.phase = Phase::Reinforce { player: p, left: 1 };
                    return;
                }
            }
            Prayer::Grenade => {
                let h = self.halve(self.health(q) as u16) as u8;
                self.set_health(q, h);
                self.public.battle.fighter[t].halved = true;
                if h == 0 {
                    self.kill_open(q);
                } else {
                    self.health_one(q);
                }
            }
            Prayer::Gangrene => {
                let is_guard = matches!(self.public.battle.open[t], Open::Guard(_));
                if self.health(q) < self.full_health(q)
                    && (!is_guard || self.rules.gangrene_hits_guards)
                {
                    self.kill_open(q);
                }
            }
            Prayer::Sniper => self.sniper(q),
            Prayer::AtomicBomb => {
                let len = self.public.sides[t].line.len();
                for _ in 0..len {
                    let card = self.hidden[t].line[0];
                    self.remove_slot(q, 0);
                    self.bury(q, card);
                }
                if self.public.battle.open[t] == Open::Soldier {
                    self.public.battle.open[t] = Open::None;
                }
                if q == self.public.battle.attacker {
                    self.finish_battle();
                    return;
                }
            }
        }
        if self.public.outcome.is_none() {
            self.advance_battle();
        }
    }

    fn sniper(&mut self, q: PlayerId) {
        let t = q.index();
        let len = self.public.sides[t].line.len();
        for i in 0..len {
            self.reveal(q, i);
        }
        let mut best: Option<(u8, Option<usize>, Option<Guard>)> = None;
        for (i, slot) in self.public.sides[t].line.slots().iter().enumerate() {
            if !matches!(best, Some((h, ..)) if slot.health <= h) {
                best = Some((slot.health, Some(i), None));
            }
        }
        if self.rules.sniper_targets_guards && q != self.public.battle.attacker {
            for g in Guard::ORDER {
                let h = self.public.sides[t].guards[g.index()];
                if h > 0 && !matches!(best, Some((bh, ..)) if h <= bh) {
                    best = Some((h, None, Some(g)));
                }
            }
        }
        match best {
            Some((_, Some(i), _)) => {
                let card = self.hidden[t].line[i];
                self.remove_slot(q, i);
                self.bury(q, card);
                if i == 0 && self.public.battle.open[t] == Open::Soldier {
                    self.public.battle.open[t] = Open::None;
                }
            }
            Some((_, None, Some(g))) => self.kill_guard(q, g),
            _ => {}
        }
    }
}
