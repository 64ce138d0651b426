//! Rounds: roles, the halved-army rule, the two battles, reserves and the
//! end of a round.

use game_traits::{Outcome, PlayerId};

use crate::card::{CardSet, Soldier};
use crate::rules::FirstAttacker;
use crate::state::{Battle, CardWar, LayKind, Phase};

impl CardWar {
    #[inline(never)] // see `advance_battle`
    pub(crate) fn begin_round(&mut self) {
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
            for side in self.public.sides.values_mut() {
                side.shuffle_pile();
            }
            self.public.phase = Phase::DrawRoll {
                player: self.public.first,
            };
        } else {
            self.choose_roles();
        }
    }

    #[inline(never)] // see `advance_battle`
    pub(crate) fn after_draw(&mut self, player: PlayerId) {
        if player == self.public.first {
            self.public.phase = Phase::DrawRoll {
                player: player.other(),
            };
        } else {
            self.choose_roles();
        }
    }

    pub(crate) fn choose_roles(&mut self) {
        let f = self.public.first;
        let o = f.other();
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

    pub(crate) fn start_battle(&mut self, attacker: PlayerId, kind: LayKind) {
        // The reports of the last fight and prayer stay: the dice of the
        // fight that ended the previous battle are known to both.
        let last = self.public.battle;
        self.public.battle = Battle::new(attacker);
        self.public.battle.last_fight = last.last_fight;
        self.public.battle.last_prayer = last.last_prayer;
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

    #[inline(never)] // see `advance_battle`
    pub(crate) fn lay_done(&mut self, player: PlayerId, kind: LayKind) {
        match kind {
            LayKind::Attack | LayKind::FreeAttack => {
                let k = self.side(player).line.len() as u8;
                let d = player.other();
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

    pub(crate) fn finish_battle(&mut self) {
        for s in PlayerId::BOTH {
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
            // Donors go where the card they fed goes: it survived.
            self.donors_follow(s, false);
            // Cards a prayer brought from the pile are now only "alive".
            self.public.sides[s].tighten_unseen();
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
            let second = attacker.other();
            if self.side(second).hand == 0 {
                self.end_round();
            } else {
                self.start_battle(second, kind);
            }
        } else {
            self.end_round();
        }
    }

    pub(crate) fn end_round(&mut self) {
        for s in PlayerId::BOTH {
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
            _ => first.other(),
        };
        self.begin_round();
    }

    pub(crate) fn finish(&mut self, outcome: Outcome) {
        self.public.outcome = Some(outcome);
        self.public.phase = Phase::Over;
    }
}
