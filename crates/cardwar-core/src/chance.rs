//! Chance events: the outcomes due at each chance phase with their
//! weights, and drawing one without allocating.

use crate::action::Action;
use crate::card::CardSet;
use crate::dice::{self, guard_die_weight, two_dice_weight};
use crate::state::{CardWar, Open, Phase};

/// A card drawn uniformly from `set`, which holds `count` cards. The count
/// is the public one, equal to the set's size in every state (validation
/// checks it): reading it, rather than counting the set, takes the count off
/// the path from the set to the random index. Out of line so that the dice,
/// the commoner chance events, are sampled by a function with fewer
/// registers to save.
#[inline(never)]
fn uniform_card<R: rand::Rng + ?Sized>(set: CardSet, count: u8, rng: &mut R) -> Option<Action> {
    if count == 0 {
        None
    } else {
        set.nth(dice::below(rng, count.into()) as usize)
            .map(Action::Draw)
    }
}

impl CardWar {
    /// The chance outcomes now due, with their weights and the weights'
    /// total; empty at a decision.
    pub(crate) fn chance_weights(&self, mut emit: impl FnMut(Action, u32)) -> u32 {
        match self.public.phase {
            Phase::Aside { colour, .. } => {
                let hand = self.hidden(colour).hand;
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
                let pile = self.hidden(player).pile;
                pile.iter().for_each(|c| emit(Action::Draw(c), 1));
                pile.len() as u32
            }
            Phase::ParatrooperRoll { .. } | Phase::AttackDie => {
                (1..=6).for_each(|d| emit(Action::Die(d), 1));
                6
            }
            Phase::DefenceDie => {
                let d = self.public.battle.attacker.other();
                if matches!(self.public.battle.open[d], Open::Guard(_)) {
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
        match self.public.phase {
            Phase::Aside { colour, .. } => {
                uniform_card(self.hidden(colour).hand, self.side(colour).hand, rng)
            }
            Phase::Draw { player, .. } | Phase::Reinforce { player, .. } => {
                uniform_card(self.hidden(player).pile, self.side(player).pile, rng)
            }
            Phase::Initiative { first_die } => {
                let d = dice::below(rng, if first_die == 0 { 6 } else { 5 }) as u8 + 1;
                Some(Action::Die(if first_die != 0 && d >= first_die {
                    d + 1
                } else {
                    d
                }))
            }
            Phase::DrawRoll { .. } | Phase::PrayerRoll { .. } => {
                Some(Action::Dice(dice::two_dice_sum(rng)))
            }
            Phase::ParatrooperRoll { .. } | Phase::AttackDie => Some(Action::Die(dice::die(rng))),
            Phase::DefenceDie => {
                let d = self.public.battle.attacker.other();
                Some(Action::Die(
                    if matches!(self.public.battle.open[d], Open::Guard(_)) {
                        dice::higher_of_two_dice(rng)
                    } else {
                        dice::die(rng)
                    },
                ))
            }
            Phase::Lay { .. } | Phase::Pray { .. } | Phase::Over => None,
        }
    }
}
