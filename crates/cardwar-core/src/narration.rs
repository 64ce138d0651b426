//! An action told to one player in words ([`Game::narrate`]): who laid or
//! drew what he may see, what each roll was for, and how a fight ended
//! with each total's arithmetic (`P1 (defender) rolls 3: your 9a total
//! 14 (health 9 + die 5) beats Jb total 12 (health 9 + die 3)`, a
//! grenade's halving and a prayer's bonus included), read from his
//! observations either side of it only.
//!
//! [`Game::narrate`]: game_traits::Game::narrate

use game_traits::PlayerId;

use crate::observation::Observation;
use crate::state::{Open, Phase};
use crate::view::ActionView;

/// `player` as `viewer` calls him, and the verb's ending for him
/// ("you lay", "P1 lays").
fn who(player: PlayerId, viewer: PlayerId) -> (String, &'static str) {
    if player == viewer {
        ("you".to_owned(), "")
    } else {
        (player.to_string(), "s")
    }
}

/// `player`'s open card in `o`, in words ("your 9a", "P1's ace A1").
fn open_card(o: &Observation, player: PlayerId) -> String {
    let owner = if player == o.viewer {
        "your".to_owned()
    } else {
        format!("{player}'s")
    };
    let card = match o.public.battle.open[player] {
        Open::Guard(g) => format!("guard {g}"),
        Open::Soldier => match o.public.sides[player].line.slots().first() {
            Some(slot) => match slot.card {
                Some(c) => c.to_string(),
                None => "face-down card".to_owned(),
            },
            None => "card".to_owned(),
        },
        Open::None => "card".to_owned(),
    };
    format!("{owner} {card}")
}

/// How `player`'s fight total came about, from the table before the
/// fight: `health 9 + die 5`, `health 3 + die 5 halved by the grenade to
/// 2 + 2 from the prayer`. `None` when the parts do not add up to `total`
/// (then the total is told alone).
fn arithmetic(o: &Observation, player: PlayerId, die: u8, total: u16) -> Option<String> {
    let b = &o.public.battle;
    let side = &o.public.sides[player];
    let health = match b.open[player] {
        Open::Soldier => side.line.slots().first()?.health,
        Open::Guard(g) => side.guards[g.index()],
        Open::None => return None,
    };
    let (fighter, pending) = (b.fighter[player], b.pending[player]);
    let doublings = (u32::from(fighter.doubled) + u32::from(pending.doubled)).min(8);
    let mut value = u16::from(die) << doublings;
    let mut text = format!("health {health} + die {die}");
    match doublings {
        0 => {}
        1 => text += &format!(" doubled to {value}"),
        n => text += &format!(" doubled {n} times to {value}"),
    }
    if fighter.halved {
        value = if o.rules.grenade_rounds_up {
            value.div_ceil(2)
        } else {
            value / 2
        };
        text += &format!(" halved by the grenade to {value}");
    }
    if pending.add > 0 {
        text += &format!(" + {} from the prayer", pending.add);
    }
    (u16::from(health) + value + u16::from(pending.add) == total).then_some(text)
}

/// `player`'s open card and its fight total in words: `your 9a total 14
/// (health 9 + die 5)`.
fn total_text(o: &Observation, player: PlayerId, die: u8, total: u16) -> String {
    let card = open_card(o, player);
    match arithmetic(o, player, die, total) {
        Some(parts) => format!("{card} total {total} ({parts})"),
        None => format!("{card} total {total}"),
    }
}

/// The fight the defence die `d` ends, told from the table before it and
/// the report after it.
fn fight(before: &Observation, after: &Observation, d: u8) -> String {
    let attacker = before.public.battle.attacker;
    let defender = attacker.other();
    let (name, s) = who(defender, before.viewer);
    let Some(r) = after.public.battle.last_fight else {
        return format!("{name} (defender) roll{s} {d}");
    };
    let a = total_text(before, attacker, r.attack_die, r.attack_total);
    let b = total_text(before, defender, r.defence_die, r.defence_total);
    let result = match r.attack_total.cmp(&r.defence_total) {
        std::cmp::Ordering::Greater => format!("{a} beats {b}"),
        std::cmp::Ordering::Less => format!("{b} beats {a}"),
        std::cmp::Ordering::Equal => format!("{a} and {b} kill each other"),
    };
    format!("{name} (defender) roll{s} {d}: {result}")
}

/// See the module documentation.
pub(crate) fn narrate(
    viewer: PlayerId,
    before: &Observation,
    view: &ActionView,
    after: &Observation,
) -> String {
    let sentence = |player: PlayerId, verb: &str, rest: &str| {
        let (name, s) = who(player, viewer);
        format!("{name} {verb}{s}{rest}")
    };
    let his = |player: PlayerId| if player == viewer { "your" } else { "his" };
    match *view {
        ActionView::Lay {
            player,
            card: Some(c),
            face_down: true,
        } => sentence(player, "lay", &format!(" {c} face down")),
        ActionView::Lay {
            player,
            card: Some(c),
            face_down: false,
        } => sentence(
            player,
            "lay",
            &format!(" {c}, revealed as the fights begin"),
        ),
        ActionView::Lay { player, .. } => sentence(player, "lay", " a card face down"),
        ActionView::EndLine { player } => sentence(
            player,
            "end",
            &format!(" {} line, keeping the rest in reserve", his(player)),
        ),
        ActionView::Pray { player } => sentence(player, "pray", ""),
        ActionView::Decline { player } => {
            let (name, _) = who(player, viewer);
            let does = if player == viewer { "do" } else { "does" };
            format!("{name} {does} not pray")
        }
        ActionView::PutAside { player, card } => sentence(
            player,
            "put",
            &format!(
                " {} aside into {} pile",
                card.map_or("a card".to_owned(), |c| c.to_string()),
                his(player)
            ),
        ),
        ActionView::Drew { player, card } => {
            let (name, _) = who(player, viewer);
            let card = card.map_or("a card".to_owned(), |c| c.to_string());
            format!("{name} drew {card}")
        }
        ActionView::Reinforcement { player, card } => {
            let (name, _) = who(player, viewer);
            let card = card.map_or("a card".to_owned(), |c| c.to_string());
            format!("{name} brought {card} face down from {} pile", his(player))
        }
        ActionView::Die(d) => match before.public.phase {
            Phase::Initiative { first_die: 0 } => {
                sentence(PlayerId::P0, "roll", &format!(" {d} for the initiative"))
            }
            Phase::Initiative { .. } => {
                let first = after.public.battle.attacker;
                let (name, s) = who(first, viewer);
                let roll = sentence(PlayerId::P1, "roll", &format!(" {d} for the initiative"));
                format!("{roll}: {name} attack{s} first")
            }
            Phase::ParatrooperRoll { player } => {
                sentence(player, "roll", &format!(" {d} for paratroopers"))
            }
            Phase::AttackDie => {
                let attacker = before.public.battle.attacker;
                let (name, s) = who(attacker, viewer);
                format!("{name} (attacker) roll{s} {d}")
            }
            Phase::DefenceDie => fight(before, after, d),
            _ => view.to_string(),
        },
        ActionView::Dice(s) => match before.public.phase {
            Phase::DrawRoll { player } => {
                sentence(player, "roll", &format!(" {s} on two dice to draw"))
            }
            Phase::PrayerRoll { player } => {
                let answer = after
                    .public
                    .battle
                    .last_prayer
                    .map_or(String::new(), |(_, prayer)| format!(": {prayer}"));
                sentence(
                    player,
                    "roll",
                    &format!(" {s} on two dice for the prayer{answer}"),
                )
            }
            _ => view.to_string(),
        },
        ActionView::Unfit(_) => view.to_string(),
    }
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
        narrate(
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
