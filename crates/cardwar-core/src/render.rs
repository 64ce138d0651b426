//! Text rendering of the battle line, health values and hands.

use std::fmt::{self, Write};

use game_traits::PlayerId;

use crate::card::Guard;
use crate::observation::Observation;
use crate::state::{CardWar, LayKind, Open, Phase, Public, SideHidden};

const COLOUR: [&str; 2] = ["black", "red"];

/// What the codes of a rendered state or observation mean, for screens.
pub const LEGEND: &str = "\
Cards: 2..10, J (11), Q (12), K (13) and suit a or b (2a .. Kb); each colour \
holds 24 soldiers. Guards: A1, A2 (aces, 14) and Jk (joker, 15) with their \
health, `dead` once killed.
Line (front first): 7a:5 revealed with 5 health left; [7a:5] or [A1:14] the \
open card of a fight; (7a) face down (shown to its owner only), ?? face down \
unseen; +1 after a face-down card: health given by a health-1 card; \
<under the front: 5a> health-1 donors lying under the front card.
Sides: hand / aside (survivors set aside until the round ends) / pile counts; \
prayed: the once-a-game prayer is used; kills N, die x2 (three kills), die /2 \
(grenade); drew on N: the last 2d6 draw roll; paratroopers die N.
known alive / aside / pile / pile or drawn: the opponent's cards the viewer \
saw and where they must be.
last fight: each side's die and total (kept into the next battle); \
initiative P0-P1: the dice of who attacks first in round 1.";

/// Renders the public state, with the cards of `hidden[s]` shown for the
/// sides whose hidden cards are known (`None`: shown as `??`).
fn render(f: &mut fmt::Formatter<'_>, p: &Public, hidden: [Option<&SideHidden>; 2]) -> fmt::Result {
    let b = &p.battle;
    write!(
        f,
        "round {} battle {}: {} attacks",
        p.round, p.battle_no, b.attacker
    )?;
    if p.swapped {
        f.write_str(" (halved army)")?;
    }
    f.write_str(" | ")?;
    match p.phase {
        Phase::Aside { colour, left } => write!(f, "{colour} puts aside {left} more"),
        Phase::Initiative { first_die: 0 } => f.write_str("initiative: P0 rolls"),
        Phase::Initiative { first_die } => write!(f, "initiative: P0 rolled {first_die}, P1 rolls"),
        Phase::DrawRoll { player } => write!(f, "{player} rolls 2d6 to draw"),
        Phase::Draw { player, left } => write!(f, "{player} draws {left} more"),
        Phase::Lay { player, kind, left } => {
            let what = match kind {
                LayKind::Attack => "attack",
                LayKind::FreeAttack => "attack (or reserve)",
                LayKind::Defence => "defence",
            };
            write!(f, "{player} lays {what}, {left} left")
        }
        Phase::Pray { player } => write!(f, "{player} may pray"),
        Phase::PrayerRoll { player } => write!(f, "{player} prays: 2d6"),
        Phase::Reinforce { player, left } => write!(f, "{player} picks {left} reinforcement(s)"),
        Phase::ParatrooperRoll { player } => write!(f, "{player} rolls for paratroopers"),
        Phase::AttackDie => f.write_str("attacker rolls"),
        Phase::DefenceDie => f.write_str("defender rolls"),
        Phase::Over => match p.outcome {
            Some(o) => write!(f, "game over: {o}"),
            None => f.write_str("game over"),
        },
    }?;
    // The initiative dice matter in round 1 only: shown there.
    let dice = p.initiative;
    if dice[PlayerId::P1] > 0 && p.round <= 1 {
        write!(
            f,
            " | initiative {}-{}",
            dice[PlayerId::P0],
            dice[PlayerId::P1]
        )?;
    }
    writeln!(f)?;
    for s in PlayerId::BOTH {
        let side = &p.sides[s];
        write!(f, "{s} {:<5} guards", COLOUR[s.index()])?;
        for g in Guard::ORDER {
            let h = side.guards[g.index()];
            let open = b.open[s] == Open::Guard(g);
            match (h, open) {
                (0, _) => write!(f, " {g}:dead")?,
                (_, true) => write!(f, " [{g}:{h}]")?,
                _ => write!(f, " {g}:{h}")?,
            }
        }
        write!(
            f,
            " | hand {} aside {} pile {}{}",
            side.hand,
            side.aside,
            side.pile,
            if side.prayed { " | prayed" } else { "" }
        )?;
        if side.draw_roll > 0 {
            write!(f, " | drew on {}", side.draw_roll)?;
        }
        if side.paratroopers > 0 {
            write!(f, " | paratroopers die {}", side.paratroopers)?;
        }
        let fi = b.fighter[s];
        if fi.kills > 0 || fi.doubled > 0 || fi.halved {
            write!(f, " | kills {}", fi.kills)?;
            if fi.doubled > 0 {
                write!(f, " die x{}", 1u32 << fi.doubled.min(8))?;
            }
            if fi.halved {
                f.write_str(" die /2")?;
            }
        }
        writeln!(f)?;
        let mut line = String::new();
        for (i, slot) in side.line.slots().iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            let open = i == 0 && b.open[s] == Open::Soldier;
            match (slot.card, hidden[s.index()]) {
                (Some(c), _) if open => {
                    let _ = write!(line, "[{c}:{}]", slot.health);
                }
                (Some(c), _) => {
                    let _ = write!(line, "{c}:{}", slot.health);
                }
                (None, Some(h)) => {
                    let _ = write!(line, "({})", h.line[i]);
                }
                (None, None) => line.push_str("??"),
            }
            if slot.extra > 0 {
                let _ = write!(line, "+{}", slot.extra);
            }
        }
        if !side.donors.is_empty() {
            let _ = write!(line, " <under the front: {}>", side.donors);
        }
        writeln!(f, "  line: {}", if line.is_empty() { "-" } else { &line })?;
        if let Some(h) = hidden[s.index()] {
            writeln!(
                f,
                "  hand: {}  aside: {}  pile: {}",
                h.hand, h.aside, h.pile
            )?;
        } else {
            // What the viewer remembers of the cards he cannot see.
            let known = [
                ("alive", side.known_alive),
                ("aside", side.known_aside),
                ("pile", side.known_pile),
                ("pile or drawn", side.pile_or_drawn),
            ];
            if known.iter().any(|(_, set)| !set.is_empty()) {
                f.write_str("  known")?;
                for (what, set) in known.iter().filter(|(_, set)| !set.is_empty()) {
                    write!(f, " {what}: {set}")?;
                }
                writeln!(f)?;
            }
        }
    }
    if let Some(r) = b.last_fight {
        write!(
            f,
            "last fight: attacker die {} total {} vs defender die {} total {}",
            r.attack_die, r.attack_total, r.defence_die, r.defence_total
        )?;
        if let Some((pl, prayer)) = b.last_prayer {
            write!(f, " | last prayer: {pl} {prayer}")?;
        }
        writeln!(f)?;
    }
    Ok(())
}

impl fmt::Display for CardWar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        render(
            f,
            &self.public,
            [
                Some(&self.hidden[PlayerId::P0]),
                Some(&self.hidden[PlayerId::P1]),
            ],
        )
    }
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "view of {}", self.viewer)?;
        let mut hidden = [None, None];
        hidden[self.viewer.index()] = Some(&self.own);
        render(f, &self.public, hidden)
    }
}
