//! What an action showed one player, as events ([`Wire::events`]): who
//! laid or drew what he may see, what each roll was for, and how a fight
//! ended with each total's arithmetic (a grenade's halving and a prayer's
//! bonus included), and the end of the game; read from his observations
//! either side of it only. Worded by [`CardWarEvent`]'s
//! [`Event::tell`](game_traits::Event::tell) (`P1 (defender) rolls 3:
//! your 9a total 14 (health 9 + die 5) beats Jb total 12 (health 9 + die
//! 3)`).
//!
//! [`Wire::events`]: game_traits::Wire::events

use game_traits::{Outcome, PlayerId};

use super::{
    CardCode, CardWarArithmetic, CardWarEnding, CardWarEvent, CardWarFightResult, CardWarFightSide,
    CardWarOpen, CardWarPileCard,
};
use crate::observation::Observation;
use crate::state::{Open, Phase};
use crate::view::ActionView;

/// How `player`'s fight total came about, from the table before the
/// fight. `None` when the parts do not add up to `total` (then the total
/// is told alone).
fn arithmetic(o: &Observation, player: PlayerId, die: u8, total: u16) -> Option<CardWarArithmetic> {
    let b = &o.public.battle;
    let side = &o.public.sides[player];
    let health = match b.open[player] {
        Open::Soldier => side.line.slots().first()?.health,
        Open::Guard(g) => side.guards[g.index()],
        Open::None => return None,
    };
    let (fighter, pending) = (b.fighter[player], b.pending[player]);
    let doublings = (u32::from(fighter.doubled) + u32::from(pending.doubled)).min(8);
    let doubled = u16::from(die) << doublings;
    let halved = fighter.halved.then(|| {
        if o.rules.grenade_rounds_up {
            doubled.div_ceil(2)
        } else {
            doubled / 2
        }
    });
    let value = halved.unwrap_or(doubled);
    (u16::from(health) + value + u16::from(pending.add) == total).then_some(CardWarArithmetic {
        health,
        die,
        doublings: doublings as u8,
        doubled,
        halved,
        prayer: pending.add,
    })
}

/// `player`'s open card and its fight total.
fn fight_side(o: &Observation, player: PlayerId, die: u8, total: u16) -> CardWarFightSide {
    let (open, card) = match o.public.battle.open[player] {
        Open::Soldier => match o.public.sides[player].line.slots().first() {
            Some(slot) => (CardWarOpen::Soldier, slot.card.map(CardCode::from)),
            None => (CardWarOpen::None, None),
        },
        open => (open.into(), None),
    };
    CardWarFightSide {
        player,
        open,
        card,
        total,
        arithmetic: arithmetic(o, player, die, total),
    }
}

/// The defence die `d` and the fight it ends, from the table before it
/// and the report after it.
fn defence(before: &Observation, after: &Observation, die: u8) -> CardWarEvent {
    let attacker = before.public.battle.attacker;
    let defender = attacker.other();
    let fight = after.public.battle.last_fight.map(|r| CardWarFightResult {
        attack: fight_side(before, attacker, r.attack_die, r.attack_total),
        defence: fight_side(before, defender, r.defence_die, r.defence_total),
    });
    CardWarEvent::DefenceRoll {
        player: defender,
        die,
        fight,
    }
}

/// The action itself; `None` for an action that does not fit the phase
/// (it cannot be applied, so nothing happened).
fn action(before: &Observation, view: &ActionView, after: &Observation) -> Option<CardWarEvent> {
    let code = |card: Option<crate::card::Soldier>| card.map(CardCode::from);
    Some(match *view {
        ActionView::Lay {
            player,
            card,
            face_down,
        } => CardWarEvent::Laid {
            player,
            card: code(card),
            face_down,
        },
        ActionView::EndLine { player } => CardWarEvent::EndedLine { player },
        ActionView::Pray { player } => CardWarEvent::Prayed { player },
        ActionView::Decline { player } => CardWarEvent::Declined { player },
        ActionView::PutAside { player, card } => {
            CardWarEvent::PutAside(CardWarPileCard::new(player, card))
        }
        ActionView::Drew { player, card } => CardWarEvent::Drew(CardWarPileCard::new(player, card)),
        ActionView::Reinforcement { player, card } => {
            CardWarEvent::Reinforcement(CardWarPileCard::new(player, card))
        }
        ActionView::Die(die) => match before.public.phase {
            Phase::Initiative { first_die: 0 } => CardWarEvent::InitiativeRoll {
                player: PlayerId::P0,
                die,
                first: None,
            },
            Phase::Initiative { .. } => CardWarEvent::InitiativeRoll {
                player: PlayerId::P1,
                die,
                first: Some(after.public.battle.attacker),
            },
            Phase::ParatrooperRoll { player } => CardWarEvent::ParatrooperRoll { player, die },
            Phase::AttackDie => CardWarEvent::AttackRoll {
                player: before.public.battle.attacker,
                die,
            },
            Phase::DefenceDie => defence(before, after, die),
            _ => return None,
        },
        ActionView::Dice(sum) => match before.public.phase {
            Phase::DrawRoll { player } => CardWarEvent::DrawRoll { player, sum },
            Phase::PrayerRoll { player } => CardWarEvent::PrayerRoll {
                player,
                sum,
                answer: after.public.battle.last_prayer.map(|(_, p)| p.into()),
            },
            _ => return None,
        },
        ActionView::Unfit(_) => return None,
    })
}

/// See the module documentation.
pub(crate) fn events(
    before: &Observation,
    view: &ActionView,
    after: &Observation,
) -> Vec<CardWarEvent> {
    let mut events: Vec<CardWarEvent> = action(before, view, after).into_iter().collect();
    if let (None, Some(outcome)) = (before.public.outcome, after.public.outcome) {
        events.push(match outcome {
            Outcome::Win(winner) => CardWarEvent::GameOver {
                winner: Some(winner),
                ending: CardWarEnding::GeneralFell,
            },
            Outcome::Draw => CardWarEvent::GameOver {
                winner: None,
                ending: CardWarEnding::RoundLimit,
            },
        });
    }
    events
}

#[cfg(test)]
mod tests {
    use game_traits::{Game, GameRng, Turn};
    use rand::SeedableRng;

    use super::*;
    use crate::action::Action;
    use crate::position::PositionBuilder;
    use crate::rules::Rules;
    use crate::state::{CardWar, Fighter, Pending};

    /// A state of a seeded random game at a defender's die with two
    /// soldiers open.
    fn at_defence_die() -> CardWar {
        let mut legal = Vec::new();
        for seed in 0..50 {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut game = CardWar::new(&Rules::default()).unwrap();
            while game.turn() != Turn::Terminal {
                let b = &game.public.battle;
                if game.public.phase == Phase::DefenceDie
                    && b.open.values().all(|o| *o == Open::Soldier)
                {
                    return game;
                }
                let action = match game.turn() {
                    Turn::Chance => game.sample_chance(&mut rng),
                    _ => game.sample_legal(&mut legal, &mut rng),
                };
                game.apply(action.unwrap()).unwrap();
            }
        }
        panic!("no fight of two soldiers in 50 games");
    }

    /// The fight ended by the defender's `die`, told to `viewer`.
    fn fight_told(game: &CardWar, viewer: PlayerId, die: u8) -> String {
        let action = Action::Die(die);
        let mut after = game.clone();
        after.apply(action).unwrap();
        CardWar::narrate(
            viewer,
            &game.observation(viewer),
            &game.action_view(viewer, action),
            &after.observation(viewer),
        )
    }

    /// The numbers of `told`'s totals and of their parts: each total
    /// equals its health plus its die (and what modifies it).
    fn totals_add_up(told: &str) {
        for part in told.split(" total ").skip(1) {
            let total: u16 = part.split(' ').next().unwrap().parse().unwrap();
            let inside = part.split_once('(').unwrap().1.split_once(')').unwrap().0;
            let health: u16 = inside["health ".len()..]
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            // The die's last value ("die 5", "die 5 halved ... to 2").
            let die_part = inside.split(" + ").nth(1).unwrap();
            let die: u16 = die_part.rsplit(' ').next().unwrap().parse().unwrap();
            let add: u16 = inside
                .split(" + ")
                .nth(2)
                .map_or(0, |a| a.split(' ').next().unwrap().parse().unwrap());
            assert_eq!(health + die + add, total, "{told}");
        }
    }

    #[test]
    fn fight_totals_show_health_plus_die() {
        let game = at_defence_die();
        for die in 1..=6 {
            let told = fight_told(&game, PlayerId::P0, die);
            assert_eq!(told.matches("(health ").count(), 2, "{told}");
            assert!(told.contains(&format!(" + die {die})")), "{told}");
            totals_add_up(&told);
        }
    }

    #[test]
    fn fight_totals_show_the_grenade_halving_and_the_prayer_bonus() {
        let game = at_defence_die();
        let attacker = game.public.battle.attacker;
        let defender = attacker.other();
        let game = PositionBuilder::from_state(&game)
            .fighter(
                defender,
                Fighter {
                    halved: true,
                    ..game.public.battle.fighter[defender]
                },
            )
            .pending(attacker, Pending { add: 2, doubled: 1 })
            .build()
            .unwrap();
        let told = fight_told(&game, defender, 5);
        let halved = if game.rules.grenade_rounds_up { 3 } else { 2 };
        assert!(
            told.contains(&format!("+ die 5 halved by the grenade to {halved})")),
            "{told}"
        );
        assert!(told.contains(" doubled to "), "{told}");
        assert!(told.contains(" + 2 from the prayer)"), "{told}");
        totals_add_up(&told);
    }
}
