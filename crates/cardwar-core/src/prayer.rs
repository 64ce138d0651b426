//! The prayer to the gods: the eleven results of 2d6.

use std::fmt;

use game_traits::PlayerId;
use serde::{Deserialize, Serialize};

use crate::card::{CardSet, Guard};
use crate::state::{CardWar, Open, Phase};

/// The result of a prayer, one per sum of 2d6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Prayer {
    /// 2: +2 to the praying side's total in this fight.
    Grin,
    /// 3: +3 to the total.
    Pity,
    /// 4: +4 to the total.
    Condescension,
    /// 5: +5 health to the praying side's open card.
    Doctors,
    /// 6: the praying side's die is doubled.
    Hellfire,
    /// 7: one card from the pile joins the end of the line.
    Reinforcement,
    /// 8: the opponent's open card loses half its health and its next die
    /// is halved.
    Grenade,
    /// 9: the opponent's open card dies if wounded.
    Gangrene,
    /// 10: the opponent's soldiers on the field are revealed and the
    /// strongest is removed.
    Sniper,
    /// 11: a die's worth of cards from the pile join the end of the line.
    Paratroopers,
    /// 12: every opponent soldier on the field dies.
    AtomicBomb,
}

impl Prayer {
    /// The result of a 2d6 sum (2..=12).
    pub const fn from_sum(sum: u8) -> Option<Prayer> {
        Some(match sum {
            2 => Prayer::Grin,
            3 => Prayer::Pity,
            4 => Prayer::Condescension,
            5 => Prayer::Doctors,
            6 => Prayer::Hellfire,
            7 => Prayer::Reinforcement,
            8 => Prayer::Grenade,
            9 => Prayer::Gangrene,
            10 => Prayer::Sniper,
            11 => Prayer::Paratroopers,
            12 => Prayer::AtomicBomb,
            _ => return None,
        })
    }

    /// The sum of 2d6 that gives this result (2..=12).
    pub const fn sum(self) -> u8 {
        self as u8 + 2
    }

    /// The name in the text, in English.
    pub const fn name(self) -> &'static str {
        match self {
            Prayer::Grin => "grin of the gods (+2)",
            Prayer::Pity => "pity of the gods (+3)",
            Prayer::Condescension => "condescension of the gods (+4)",
            Prayer::Doctors => "doctors (+5 health)",
            Prayer::Hellfire => "hellfire (die x2)",
            Prayer::Reinforcement => "reinforcement (1 card)",
            Prayer::Grenade => "grenade (half health, half die)",
            Prayer::Gangrene => "gangrene (wounded card dies)",
            Prayer::Sniper => "sniper-scout (strongest removed)",
            Prayer::Paratroopers => "paratroopers (a die's worth of cards)",
            Prayer::AtomicBomb => "atomic bomb (all soldiers die)",
        }
    }
}

impl fmt::Display for Prayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The effects of each result.
impl CardWar {
    #[inline(never)] // see `advance_battle`
    pub(crate) fn pray(&mut self, p: PlayerId, prayer: Prayer) {
        let q = p.other();
        let (s, t) = (p, q);
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
                self.public.sides[s].shuffle_pile();
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
                    // Killed cards are seen by both (ruling 22).
                    self.reveal(q, 0);
                    let card = self.hidden[t].line[0];
                    self.remove_slot(q, 0);
                    self.bury(q, card);
                }
                self.donors_follow(q, true);
                if self.public.battle.open[t] == Open::Soldier {
                    self.public.battle.open[t] = Open::None;
                }
                if self.rules.bomb_hits_hand {
                    self.bomb_off_field(q);
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

    /// The variant bomb: `q`'s hand and set-aside soldiers die too, seen
    /// by both (ruling 22).
    pub(crate) fn bomb_off_field(&mut self, q: PlayerId) {
        let t = q;
        let (hand, aside) = (self.hidden[t].hand, self.hidden[t].aside);
        self.hidden[t].hand = CardSet::EMPTY;
        self.hidden[t].aside = CardSet::EMPTY;
        let side = &mut self.public.sides[t];
        side.hand = 0;
        side.aside = 0;
        side.known_aside = CardSet::EMPTY;
        for card in hand.union(aside).iter() {
            self.bury(q, card);
        }
    }

    pub(crate) fn sniper(&mut self, q: PlayerId) {
        let t = q;
        let len = self.public.sides[t].line.len();
        for i in 0..len {
            self.reveal(q, i);
        }
        // The largest card: by the value on it (the text), or by the health
        // it has left; the first in fighting order on a tie.
        let by_health = self.rules.sniper_by_health;
        let mut best: Option<(u8, Option<usize>, Option<Guard>)> = None;
        for (i, slot) in self.public.sides[t].line.slots().iter().enumerate() {
            let size = if by_health {
                slot.health
            } else {
                self.hidden[t].line[i].strength()
            };
            if !matches!(best, Some((b, ..)) if size <= b) {
                best = Some((size, Some(i), None));
            }
        }
        if self.rules.sniper_targets_guards && q != self.public.battle.attacker {
            for g in Guard::ORDER {
                let h = self.public.sides[t].guards[g.index()];
                let size = if by_health { h } else { g.strength() };
                if h > 0 && !matches!(best, Some((b, ..)) if size <= b) {
                    best = Some((size, None, Some(g)));
                }
            }
        }
        match best {
            Some((_, Some(i), _)) => {
                let card = self.hidden[t].line[i];
                self.remove_slot(q, i);
                self.bury(q, card);
                if i == 0 {
                    // The front card: the donors under it die with it.
                    self.donors_follow(q, true);
                    if self.public.battle.open[t] == Open::Soldier {
                        self.public.battle.open[t] = Open::None;
                    }
                }
            }
            Some((_, None, Some(g))) => self.kill_guard(q, g),
            _ => {}
        }
    }
}
