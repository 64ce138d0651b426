//! Card war's glossary ([`Wire::glossary`](game_traits::Wire::glossary)):
//! the codes its wire sends that a player reads as words. Lines (the
//! `lay` phase's `line`), guards (`open`, and the order of `guards`) and
//! prayer results (`last_prayer.result`), each with what it does under the
//! rules in play, so that a screen never keeps a table of them. Cards are
//! their own names (`"7a"`, `"Kb"`).

use game_traits::Term;

use super::{CardWarLineKind, CardWarPrayerResult};
use crate::card::Guard;
use crate::prayer::Prayer;
use crate::rules::Rules;

/// Lines, then guards in the order they fight, then prayer results by
/// their sum.
pub(super) fn glossary(rules: &Rules) -> Vec<Term> {
    let lines = CardWarLineKind::ALL
        .into_iter()
        .map(|line| Term::new(line.code(), line.name(), "line"));
    let guards = Guard::ORDER.into_iter().map(|guard| {
        Term::new(guard.code(), guard.name(), "guard")
            .symbol(guard.code())
            .note(guard_note(rules, guard))
    });
    let prayers = (2..=12).filter_map(Prayer::from_sum).map(|prayer| {
        Term::new(
            CardWarPrayerResult::from(prayer).code(),
            prayer.name(),
            "prayer",
        )
        .symbol(prayer.sum().to_string())
        .note(prayer_note(rules, prayer))
    });
    lines.chain(guards).chain(prayers).collect()
}

/// A guard's strength, when it fights and what its death means.
fn guard_note(rules: &Rules, guard: Guard) -> String {
    let mut note = format!(
        "strength {0}, {0} health for the whole game; defends when the defence line is gone, \
         rolling two dice and keeping the higher",
        guard.strength()
    );
    if rules.guards_earn_bonus {
        note += "; earns the three-kills bonus";
    }
    if guard == Guard::Joker {
        note += "; the general: when he dies his side loses";
    }
    note + "."
}

/// What the result does, on the praying side's fight, under `rules`.
fn prayer_note(rules: &Rules, prayer: Prayer) -> String {
    let sum = prayer.sum();
    let effect = match prayer {
        Prayer::Grin | Prayer::Pity | Prayer::Condescension => {
            format!("+{sum} to the total in this fight")
        }
        Prayer::Doctors => "+5 health to the open card, even above full".to_owned(),
        Prayer::Hellfire => "the die in this fight is doubled".to_owned(),
        Prayer::Reinforcement => "one card from the pile joins the end of the line".to_owned(),
        Prayer::Grenade if rules.grenade_rounds_up => {
            "the opponent's open card keeps the larger half of its health, \
             and its next die counts half, rounded up"
                .to_owned()
        }
        Prayer::Grenade => "the opponent's open card keeps the smaller half of its health \
             (a card left at 0 dies), and its next die counts half, rounded down"
            .to_owned(),
        Prayer::Gangrene if rules.gangrene_hits_guards => {
            "the opponent's open card dies if wounded, an ace or the joker too".to_owned()
        }
        Prayer::Gangrene => {
            "the opponent's open soldier dies if wounded; aces and the joker are spared".to_owned()
        }
        Prayer::Sniper => {
            let which = if rules.sniper_by_health {
                "the one with the most health left"
            } else {
                "the highest"
            };
            let guards = if rules.sniper_targets_guards {
                ", a defending ace or joker among them"
            } else {
                ""
            };
            format!(
                "the opponent's soldiers on the field are revealed and {which}{guards} is removed"
            )
        }
        Prayer::Paratroopers => {
            "a die's worth of cards from the pile join the end of the line".to_owned()
        }
        Prayer::AtomicBomb if rules.bomb_hits_hand => {
            "every opponent soldier on the field, in his hand and set aside dies; \
             aces and the joker are spared"
                .to_owned()
        }
        Prayer::AtomicBomb => {
            "every opponent soldier on the field dies; aces and the joker are spared".to_owned()
        }
    };
    format!("{sum} on two dice: {effect}.")
}
