//! Writing the notation: each part of a position as its text.

use std::fmt::Write as _;

use game_traits::{Outcome, PlayerId};

use crate::card::CardSet;
use crate::line::LineView;
use crate::position::LineCard;
use crate::rules::{FirstAttacker, Rules};
use crate::state::{LayKind, Open, Phase, Public, SideHidden};

/// The names of the rules' fields in the notation, in their order.
const RULE_KEYS: [&str; 16] = [
    "aside",
    "keep_in_pile",
    "max_rounds",
    "cap_winner_health",
    "bonus_every_three_kills",
    "guards_earn_bonus",
    "donor_returns",
    "first_attacker",
    "one_prayer_per_fight",
    "reserve_in_first_round",
    "reserve_all_or_nothing",
    "grenade_rounds_up",
    "gangrene_hits_guards",
    "sniper_targets_guards",
    "sniper_by_health",
    "bomb_hits_hand",
];

/// The rules' fields as notation values, in the order of [`RULE_KEYS`].
fn rule_values(r: &Rules) -> [String; 16] {
    let b = |v: bool| u8::from(v).to_string();
    [
        r.aside.to_string(),
        r.keep_in_pile.to_string(),
        r.max_rounds.to_string(),
        b(r.cap_winner_health),
        b(r.bonus_every_three_kills),
        b(r.guards_earn_bonus),
        b(r.donor_returns),
        match r.first_attacker {
            FirstAttacker::LastAttacker => "last".into(),
            FirstAttacker::Alternate => "alternate".into(),
        },
        b(r.one_prayer_per_fight),
        b(r.reserve_in_first_round),
        b(r.reserve_all_or_nothing),
        b(r.grenade_rounds_up),
        b(r.gangrene_hits_guards),
        b(r.sniper_targets_guards),
        b(r.sniper_by_health),
        b(r.bomb_hits_hand),
    ]
}

fn rules_text(r: &Rules) -> String {
    let changed: Vec<String> = RULE_KEYS
        .iter()
        .zip(rule_values(r))
        .zip(rule_values(&Rules::default()))
        .filter(|((_, v), d)| v != d)
        .map(|((k, v), _)| format!("{k}:{v}"))
        .collect();
    if changed.is_empty() {
        "default".into()
    } else {
        changed.join(",")
    }
}

fn cards_text(set: CardSet) -> String {
    if set.is_empty() {
        return "-".into();
    }
    let cards: Vec<String> = set.iter().map(|c| c.to_string()).collect();
    cards.join(",")
}

fn line_text(cards: &[LineCard]) -> String {
    if cards.is_empty() {
        return "-".into();
    }
    let mut out = String::new();
    for (i, card) in cards.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = match *card {
            LineCard::Revealed { card, health } => write!(out, "{card}:{health}"),
            LineCard::FaceDown { card, extra: 0 } => write!(out, "({card})"),
            LineCard::FaceDown { card, extra } => write!(out, "({card}+{extra})"),
            LineCard::FromPile { card, extra: 0 } => write!(out, "{{{card}}}"),
            LineCard::FromPile { card, extra } => write!(out, "{{{card}+{extra}}}"),
        };
    }
    out
}

fn kind_text(kind: LayKind) -> &'static str {
    match kind {
        LayKind::Attack => "attack",
        LayKind::FreeAttack => "free-attack",
        LayKind::Defence => "defence",
    }
}

fn phase_text(phase: Phase, outcome: Option<Outcome>) -> String {
    match phase {
        Phase::Aside { colour, left } => format!("aside:{colour}:{left}"),
        Phase::Initiative { first_die } => format!("initiative:{first_die}"),
        Phase::DrawRoll { player } => format!("draw-roll:{player}"),
        Phase::Draw { player, left } => format!("draw:{player}:{left}"),
        Phase::Lay { player, kind, left } => format!("lay:{player}:{}:{left}", kind_text(kind)),
        Phase::Pray { player } => format!("pray:{player}"),
        Phase::PrayerRoll { player } => format!("prayer-roll:{player}"),
        Phase::Reinforce { player, left } => format!("reinforce:{player}:{left}"),
        Phase::ParatrooperRoll { player } => format!("paratrooper-roll:{player}"),
        Phase::AttackDie => "attack-die".into(),
        Phase::DefenceDie => "defence-die".into(),
        Phase::Over => match outcome {
            Some(Outcome::Win(p)) => format!("over:{p}"),
            _ => "over:draw".into(),
        },
    }
}

fn open_text(open: Open) -> String {
    match open {
        Open::None => "-".into(),
        Open::Soldier => "soldier".into(),
        Open::Guard(g) => g.to_string(),
    }
}

/// The notation of a position, or of what a player sees of it: a side
/// whose hidden cards are `None` has its hand, set-aside cards and pile
/// written as counts (`#9`) and its face-down cards as `(?)` / `{?}`.
pub(crate) fn write_position(
    rules: &Rules,
    p: &Public,
    hidden: [Option<&SideHidden>; 2],
) -> String {
    let b = &p.battle;
    let mut out = format!(
        "rules={} round={} moves={} phase={} first={} battle={} swapped={} last={} \
         initiative={}/{} attacker={} die={} last_fight={} last_prayer={}",
        rules_text(rules),
        p.round,
        p.moves,
        phase_text(p.phase, p.outcome),
        p.first,
        p.battle_no,
        u8::from(p.swapped),
        p.last_attacker.map_or("-".into(), |l| l.to_string()),
        p.initiative[PlayerId::P0],
        p.initiative[PlayerId::P1],
        b.attacker,
        b.attack_die,
        b.last_fight.map_or("-".into(), |r| format!(
            "{}/{}/{}/{}",
            r.attack_die, r.attack_total, r.defence_die, r.defence_total
        )),
        b.last_prayer
            .map_or("-".into(), |(pl, prayer)| format!("{pl}:{}", prayer.sum())),
    );
    for pl in PlayerId::BOTH {
        let side = &p.sides[pl];
        let (hand, aside, pile, line) = match hidden[pl.index()] {
            Some(h) => {
                let line: Vec<LineCard> = side
                    .line
                    .slots()
                    .iter()
                    .zip(h.line)
                    .map(|(slot, card)| LineCard::of_slot(slot, card))
                    .collect();
                (
                    cards_text(h.hand),
                    cards_text(h.aside),
                    cards_text(h.pile),
                    line_text(&line),
                )
            }
            None => (
                format!("#{}", side.hand),
                format!("#{}", side.aside),
                format!("#{}", side.pile),
                unseen_line_text(&side.line),
            ),
        };
        let [a1, a2, jk] = side.guards;
        let (f, pending) = (b.fighter[pl], b.pending[pl]);
        let s = pl.index();
        let _ = write!(
            out,
            " p{s}.hand={hand} p{s}.aside={aside} p{s}.pile={pile} p{s}.line={line} \
             p{s}.guards={a1}/{a2}/{jk} p{s}.prayed={} p{s}.open={} p{s}.fighter={}/{}/{} \
             p{s}.pending={}/{} p{s}.asked={} p{s}.known_alive={} p{s}.known_pile={} \
             p{s}.known_aside={} p{s}.pile_or_drawn={} p{s}.unseen={} p{s}.donors={} \
             p{s}.draw_roll={} p{s}.paratroopers={}",
            u8::from(side.prayed),
            open_text(b.open[pl]),
            f.kills,
            f.doubled,
            u8::from(f.halved),
            pending.add,
            pending.doubled,
            u8::from(b.asked[pl]),
            cards_text(side.known_alive),
            cards_text(side.known_pile),
            cards_text(side.known_aside),
            cards_text(side.pile_or_drawn),
            side.unseen_in_pile,
            cards_text(side.donors),
            side.draw_roll,
            side.paratroopers,
        );
    }
    out
}

/// A line as its owner's opponent sees it: revealed cards with their
/// health, face-down ones without the card.
fn unseen_line_text(line: &LineView) -> String {
    if line.is_empty() {
        return "-".into();
    }
    let items: Vec<String> = line
        .slots()
        .iter()
        .map(|slot| {
            let extra = match slot.extra {
                0 => String::new(),
                n => format!("+{n}"),
            };
            match (slot.card, slot.from_pile) {
                (Some(card), _) => format!("{card}:{}", slot.health),
                (None, true) => format!("{{?{extra}}}"),
                (None, false) => format!("(?{extra})"),
            }
        })
        .collect();
    items.join(",")
}
