//! An action told to one player in words ([`Game::narrate`]): who laid or
//! drew what he may see, what each roll was for, and how a fight ended
//! (`P1 (defender) rolls 3: your 9a total 14 beats Jb total 12`), read
//! from his observations either side of it only.
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

/// The fight the defence die `d` ends, told from the table before it and
/// the report after it.
fn fight(before: &Observation, after: &Observation, d: u8) -> String {
    let attacker = before.public.battle.attacker;
    let defender = attacker.other();
    let (name, s) = who(defender, before.viewer);
    let Some(r) = after.public.battle.last_fight else {
        return format!("{name} (defender) roll{s} {d}");
    };
    let a = format!("{} total {}", open_card(before, attacker), r.attack_total);
    let b = format!("{} total {}", open_card(before, defender), r.defence_total);
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
