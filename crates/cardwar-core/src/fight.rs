//! The common fight as one step: two soldiers, no prayer effect or die
//! modifier pending, one winner, and the loser's next card revealed. Most
//! fights are like this; every other one goes through the general rules
//! (`resolve` and `advance_battle` in `battle.rs`), which this step agrees
//! with exactly (the tests below check it on random games).

use crate::state::{CardWar, FightReport, Open, Phase};

impl CardWar {
    /// The fight of the open cards, given the defender's die, and what
    /// follows it.
    #[inline(never)] // see `advance_battle`
    pub(crate) fn fight(&mut self, defence_die: u8) {
        if !self.common_fight(defence_die) {
            self.general_fight(defence_die);
        }
    }

    /// The fight by the general rules.
    pub(crate) fn general_fight(&mut self, defence_die: u8) {
        self.resolve(defence_die);
        if self.public.outcome.is_none() {
            self.advance_battle();
        }
    }

    /// Plays the fight if it is a common one and returns true; otherwise
    /// changes nothing and returns false. Everything it skips is checked
    /// before the first write: open soldiers on both sides, no pending
    /// prayer effect, no doubled or halved die, no tie, no three-kills
    /// bonus; the health-1 rule, the loser's empty line and donors are
    /// handed to the general rules after the fight itself.
    #[inline(always)]
    fn common_fight(&mut self, defence_die: u8) -> bool {
        let b = &self.public.battle;
        let a = b.attacker;
        let d = a.other();
        if b.open[a] != Open::Soldier || b.open[d] != Open::Soldier {
            return false;
        }
        let (fa, fd, pa, pd) = (b.fighter[a], b.fighter[d], b.pending[a], b.pending[d]);
        if fa.doubled | fd.doubled | pa.doubled | pd.doubled | pa.add | pd.add != 0
            || fa.halved | fd.halved
        {
            return false;
        }
        let attack_die = b.attack_die;
        let ha = self.public.sides[a].line.front_health();
        let hd = self.public.sides[d].line.front_health();
        let ta = ha as u16 + attack_die as u16;
        let td = hd as u16 + defence_die as u16;
        if ta == td {
            return false;
        }
        let (w, hw, diff) = if ta > td {
            (a, ha, ta - td)
        } else {
            (d, hd, td - ta)
        };
        let l = w.other();
        let kills = b.fighter[w].kills.saturating_add(1);
        let bonus = if self.rules.bonus_every_three_kills {
            kills.is_multiple_of(3)
        } else {
            kills == 3
        };
        if bonus {
            return false;
        }
        // The fight itself, as `resolve` and `win` play it.
        let diff = diff.min(u8::MAX as u16) as u8;
        let new = if self.rules.cap_winner_health {
            diff.min(hw)
        } else {
            diff
        };
        let b = &mut self.public.battle;
        b.last_fight = Some(FightReport {
            attack_die,
            attack_total: ta,
            defence_die,
            defence_total: td,
        });
        b.attack_die = 0;
        b.asked = Default::default();
        b.fighter[w].kills = kills;
        self.public.sides[w].line.set_front_health(new);
        if new == 1 {
            self.health_one(w);
        }
        // The loser dies (`kill_open`).
        let card = self.hidden[l].line[0];
        self.remove_front(l);
        self.bury(l, card);
        self.donors_follow(l, true);
        self.public.battle.open[l] = Open::None;
        // What follows (`advance_battle`): the loser's next card, then the
        // prayer questions. A lone winner at health 1 left the field, and
        // an empty line ends the battle or calls a guard: the general
        // rules take those.
        if self.public.battle.open[w] == Open::None || self.public.sides[l].line.is_empty() {
            self.advance_battle();
            return true;
        }
        self.open_soldier(l);
        self.public.phase = Phase::AttackDie;
        if self.public.round >= 2 {
            for p in [a, d] {
                if !self.public.sides[p].prayed {
                    self.public.phase = Phase::Pray { player: p };
                    break;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use game_traits::{Game, GameRng, Turn};
    use rand::SeedableRng;

    use crate::action::Action;
    use crate::rules::Rules;
    use crate::state::{CardWar, Phase};

    /// Plays random games under `rules`; at every defender's die, the one
    /// step and the general rules must leave the same state for each die.
    /// Returns how many fights took the one step.
    fn agree_on_random_games(rules: Rules, games: u64) -> usize {
        let mut legal = Vec::new();
        let mut common = 0;
        for seed in 0..games {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut game = CardWar::new(&rules).unwrap();
            while game.turn() != Turn::Terminal {
                if game.public.phase == Phase::DefenceDie {
                    for die in 1..=6 {
                        let mut fast = game.clone();
                        let mut slow = game.clone();
                        if fast.common_fight(die) {
                            common += 1;
                        } else {
                            assert_eq!(fast, game, "a refused fight changed the state");
                            fast.general_fight(die);
                        }
                        slow.general_fight(die);
                        assert_eq!(fast, slow, "seed {seed}, die {die}");
                    }
                }
                let action = match game.turn() {
                    Turn::Chance => game.sample_chance(&mut rng),
                    _ => game.sample_legal(&mut legal, &mut rng),
                };
                let action: Action = action.unwrap();
                game.apply(action).unwrap();
            }
        }
        common
    }

    #[test]
    fn the_common_fight_agrees_with_the_general_rules() {
        assert!(agree_on_random_games(Rules::default(), 60) > 1000);
    }

    #[test]
    fn the_common_fight_agrees_under_every_switch() {
        let rules = Rules {
            cap_winner_health: false,
            bonus_every_three_kills: true,
            guards_earn_bonus: false,
            donor_returns: true,
            one_prayer_per_fight: true,
            grenade_rounds_up: false,
            ..Rules::default()
        };
        assert!(agree_on_random_games(rules, 40) > 500);
    }
}
