//! The one-line text notation of a whole position: `key=value` fields
//! separated by spaces, read through [`PositionBuilder`] (so with the same
//! validation) and written back exactly.

use std::fmt::Write as _;
use std::str::FromStr;

use game_traits::{Outcome, PlayerId};

use crate::card::{CardSet, Guard, Soldier};
use crate::error::CardWarError;
use crate::line::LineView;
use crate::position::{Knowledge, LineCard, PositionBuilder};
use crate::prayer::Prayer;
use crate::rules::{FirstAttacker, Rules};
use crate::state::{
    CardWar, FightReport, Fighter, LayKind, Open, Pending, Phase, Public, SideHidden,
};

type Parsed<T> = Result<T, CardWarError>;

fn bad<T>(why: &'static str) -> Parsed<T> {
    Err(CardWarError::InvalidPosition(why))
}

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

fn set_rule(r: &mut Rules, key: &str, value: &str) -> Parsed<()> {
    match key {
        "aside" => r.aside = number(value)?,
        "keep_in_pile" => r.keep_in_pile = number(value)?,
        "max_rounds" => r.max_rounds = number(value)?,
        "cap_winner_health" => r.cap_winner_health = flag(value)?,
        "bonus_every_three_kills" => r.bonus_every_three_kills = flag(value)?,
        "guards_earn_bonus" => r.guards_earn_bonus = flag(value)?,
        "donor_returns" => r.donor_returns = flag(value)?,
        "first_attacker" => {
            r.first_attacker = match value {
                "last" => FirstAttacker::LastAttacker,
                "alternate" => FirstAttacker::Alternate,
                _ => return bad("first_attacker is last or alternate"),
            }
        }
        "one_prayer_per_fight" => r.one_prayer_per_fight = flag(value)?,
        "reserve_in_first_round" => r.reserve_in_first_round = flag(value)?,
        "reserve_all_or_nothing" => r.reserve_all_or_nothing = flag(value)?,
        "grenade_rounds_up" => r.grenade_rounds_up = flag(value)?,
        "gangrene_hits_guards" => r.gangrene_hits_guards = flag(value)?,
        "sniper_targets_guards" => r.sniper_targets_guards = flag(value)?,
        "sniper_by_health" => r.sniper_by_health = flag(value)?,
        "bomb_hits_hand" => r.bomb_hits_hand = flag(value)?,
        _ => return bad("unknown rule"),
    }
    Ok(())
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

fn parse_rules(text: &str) -> Parsed<Rules> {
    let mut rules = Rules::default();
    if text != "default" {
        for item in text.split(',') {
            let (k, v) = item.split_once(':').ok_or(CardWarError::InvalidPosition(
                "a rule is written name:value",
            ))?;
            set_rule(&mut rules, k, v)?;
        }
    }
    rules.validate()?;
    Ok(rules)
}

/// A decimal number without sign or padding.
fn number<T: FromStr>(text: &str) -> Parsed<T> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    match text.parse() {
        Ok(n) if canonical => Ok(n),
        _ => bad("bad number"),
    }
}

fn flag(text: &str) -> Parsed<bool> {
    match text {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => bad("a flag is 0 or 1"),
    }
}

fn player(text: &str) -> Parsed<PlayerId> {
    match text {
        "P0" => Ok(PlayerId::P0),
        "P1" => Ok(PlayerId::P1),
        _ => bad("a player is P0 or P1"),
    }
}

/// `P0`, `P1` or `-`.
fn maybe_player(text: &str) -> Parsed<Option<PlayerId>> {
    match text {
        "-" => Ok(None),
        _ => player(text).map(Some),
    }
}

fn cards_text(set: CardSet) -> String {
    if set.is_empty() {
        return "-".into();
    }
    let cards: Vec<String> = set.iter().map(|c| c.to_string()).collect();
    cards.join(",")
}

fn parse_cards(text: &str) -> Parsed<CardSet> {
    let mut set = CardSet::EMPTY;
    if text != "-" {
        for item in text.split(',') {
            let card: Soldier = item.parse()?;
            if set.contains(card) {
                return bad("a card is listed twice");
            }
            set.insert(card);
        }
    }
    Ok(set)
}

/// `n/n/...`: exactly `N` numbers.
fn numbers<const N: usize, T: FromStr + Copy + Default>(text: &str) -> Parsed<[T; N]> {
    let mut out = [T::default(); N];
    let mut parts = text.split('/');
    for slot in &mut out {
        *slot = number(parts.next().unwrap_or(""))?;
    }
    match parts.next() {
        None => Ok(out),
        Some(_) => bad("too many numbers"),
    }
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

/// A face-down card with its extra health: `5a` or `5a+2`.
fn hidden_card(text: &str) -> Parsed<(Soldier, u8)> {
    match text.split_once('+') {
        Some((card, extra)) => Ok((card.parse()?, number(extra)?)),
        None => Ok((text.parse()?, 0)),
    }
}

fn parse_line(text: &str) -> Parsed<Vec<LineCard>> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|item| {
            if let Some(inner) = item.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
                let (card, extra) = hidden_card(inner)?;
                Ok(LineCard::FaceDown { card, extra })
            } else if let Some(inner) = item.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                let (card, extra) = hidden_card(inner)?;
                Ok(LineCard::FromPile { card, extra })
            } else if let Some((card, health)) = item.split_once(':') {
                Ok(LineCard::Revealed {
                    card: card.parse()?,
                    health: number(health)?,
                })
            } else {
                bad("a line card is (5a), (5a+1), {5a}, {5a+1} or 5a:health")
            }
        })
        .collect()
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

fn parse_phase(text: &str) -> Parsed<(Phase, Option<Outcome>)> {
    let parts: Vec<&str> = text.split(':').collect();
    let phase = match parts.as_slice() {
        ["aside", p, n] => Phase::Aside {
            colour: player(p)?,
            left: number(n)?,
        },
        ["initiative", d] => Phase::Initiative {
            first_die: number(d)?,
        },
        ["draw-roll", p] => Phase::DrawRoll { player: player(p)? },
        ["draw", p, n] => Phase::Draw {
            player: player(p)?,
            left: number(n)?,
        },
        ["lay", p, kind, n] => Phase::Lay {
            player: player(p)?,
            kind: match *kind {
                "attack" => LayKind::Attack,
                "free-attack" => LayKind::FreeAttack,
                "defence" => LayKind::Defence,
                _ => return bad("a line is attack, free-attack or defence"),
            },
            left: number(n)?,
        },
        ["pray", p] => Phase::Pray { player: player(p)? },
        ["prayer-roll", p] => Phase::PrayerRoll { player: player(p)? },
        ["reinforce", p, n] => Phase::Reinforce {
            player: player(p)?,
            left: number(n)?,
        },
        ["paratrooper-roll", p] => Phase::ParatrooperRoll { player: player(p)? },
        ["attack-die"] => Phase::AttackDie,
        ["defence-die"] => Phase::DefenceDie,
        ["over", "draw"] => return Ok((Phase::Over, Some(Outcome::Draw))),
        ["over", p] => return Ok((Phase::Over, Some(Outcome::Win(player(p)?)))),
        _ => return bad("unknown phase"),
    };
    Ok((phase, None))
}

fn open_text(open: Open) -> String {
    match open {
        Open::None => "-".into(),
        Open::Soldier => "soldier".into(),
        Open::Guard(g) => g.to_string(),
    }
}

fn parse_open(text: &str) -> Parsed<Open> {
    Ok(match text {
        "-" => Open::None,
        "soldier" => Open::Soldier,
        "A1" => Open::Guard(Guard::FirstAce),
        "A2" => Open::Guard(Guard::SecondAce),
        "Jk" => Open::Guard(Guard::Joker),
        _ => return bad("an open card is -, soldier, A1, A2 or Jk"),
    })
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

impl CardWar {
    /// The whole position on one line of `key=value` fields: the rules
    /// (those that differ from the default), the round, decisions made,
    /// phase, roles, the initiative dice and the battle in progress, then
    /// each side's cards, guards, prayer, open card, fight modifiers, the
    /// opponent's knowledge, the donors under the front card and the
    /// side's last draw roll and paratroopers die. [`CardWar::from_notation`] reads it back exactly.
    ///
    /// Cards are written as displayed (`2a` .. `10b`, `Ja`, `Qb`, `Ka`),
    /// card sets as comma lists (`-` when empty); a line lists its slots
    /// from the front: `(5a)` face down, `(5a+1)` face down with a point
    /// from a health-1 card, `{5a}` face down from the pile, `5a:3`
    /// revealed with 3 health left. The phase is `lay:P0:attack:9`,
    /// `pray:P1`, `attack-die`, `over:P0`, `over:draw`...
    ///
    /// ```
    /// use cardwar_core::{CardWar, Game, Rules};
    ///
    /// let game = CardWar::new(&Rules::default()).unwrap();
    /// let text = game.to_notation();
    /// assert!(text.starts_with("rules=default round=0 moves=0 phase=aside:P0:6 "));
    /// assert_eq!(CardWar::from_notation(&text).unwrap(), game);
    /// ```
    pub fn to_notation(&self) -> String {
        write_position(
            &self.rules,
            &self.public,
            [
                Some(&self.hidden[PlayerId::P0]),
                Some(&self.hidden[PlayerId::P1]),
            ],
        )
    }

    /// Reads a position written by [`CardWar::to_notation`]. Fields may
    /// come in any order and may be left out: a missing one keeps the
    /// value of [`PositionBuilder::new`] (a missing hand holds every
    /// soldier not placed elsewhere, missing knowledge is that the
    /// opponent saw nothing). The position is validated as a deserialised
    /// state is; any error is [`CardWarError::InvalidPosition`] (or
    /// [`CardWarError::InvalidRules`]), never a panic.
    pub fn from_notation(text: &str) -> Result<CardWar, CardWarError> {
        let mut seen: Vec<&str> = Vec::new();
        let mut fields: Vec<(&str, &str)> = Vec::new();
        for token in text.split_whitespace() {
            let (key, value) = token.split_once('=').ok_or(CardWarError::InvalidPosition(
                "a field is written key=value",
            ))?;
            if seen.contains(&key) {
                return bad("a field is given twice");
            }
            seen.push(key);
            fields.push((key, value));
        }
        // The rules first: the builder starts from them.
        let rules = match fields.iter().find(|(k, _)| *k == "rules") {
            Some((_, v)) => parse_rules(v)?,
            None => Rules::default(),
        };
        let mut b = PositionBuilder::new(rules);
        let mut knowledge = [None::<Knowledge>; 2];
        let mut outcome = None;
        for (key, value) in fields {
            b = match key {
                "rules" => b,
                "round" => b.round(number(value)?),
                "moves" => b.moves(number(value)?),
                "phase" => {
                    let (phase, o) = parse_phase(value)?;
                    outcome = o;
                    b.phase(phase)
                }
                "first" => b.first(player(value)?),
                "battle" => b.battle_no(number(value)?),
                "swapped" => b.swapped(flag(value)?),
                "last" => b.last_attacker(maybe_player(value)?),
                "initiative" => {
                    let [p0, p1] = numbers::<2, u8>(value)?;
                    b.initiative(p0, p1)
                }
                "attacker" => b.attacker(player(value)?),
                "die" => b.attack_die(number(value)?),
                "last_fight" => b.last_fight(match value {
                    "-" => None,
                    _ => {
                        let [ad, at, dd, dt] = numbers::<4, u16>(value)?;
                        let die = |d: u16| u8::try_from(d).or(bad("bad die"));
                        Some(FightReport {
                            attack_die: die(ad)?,
                            attack_total: at,
                            defence_die: die(dd)?,
                            defence_total: dt,
                        })
                    }
                }),
                "last_prayer" => b.last_prayer(match value.split_once(':') {
                    None if value == "-" => None,
                    Some((pl, sum)) => Some((
                        player(pl)?,
                        Prayer::from_sum(number(sum)?)
                            .ok_or(CardWarError::InvalidPosition("a prayer is a sum 2..12"))?,
                    )),
                    None => return bad("a prayer is written P0:sum"),
                }),
                _ => {
                    let (pl, field) = match key.split_once('.') {
                        Some(("p0", f)) => (PlayerId::P0, f),
                        Some(("p1", f)) => (PlayerId::P1, f),
                        _ => return bad("unknown field"),
                    };
                    let k = &mut knowledge[pl.index()];
                    match field {
                        "hand" => b.hand(pl, parse_cards(value)?),
                        "aside" => b.aside(pl, parse_cards(value)?),
                        "pile" => b.pile(pl, parse_cards(value)?),
                        "line" => b.line(pl, &parse_line(value)?),
                        "guards" => b.guards(pl, numbers::<3, u8>(value)?),
                        "prayed" => b.prayed(pl, flag(value)?),
                        "open" => b.open(pl, parse_open(value)?),
                        "fighter" => {
                            let [kills, doubled, halved] = numbers::<3, u8>(value)?;
                            b.fighter(
                                pl,
                                Fighter {
                                    kills,
                                    doubled,
                                    halved: match halved {
                                        0 => false,
                                        1 => true,
                                        _ => return bad("halved is 0 or 1"),
                                    },
                                },
                            )
                        }
                        "pending" => {
                            let [add, doubled] = numbers::<2, u8>(value)?;
                            b.pending(pl, Pending { add, doubled })
                        }
                        "asked" => b.asked(pl, flag(value)?),
                        "donors" => b.donors(pl, parse_cards(value)?),
                        "draw_roll" => b.draw_roll(pl, number(value)?),
                        "paratroopers" => b.paratroopers(pl, number(value)?),
                        "known_alive" => {
                            k.get_or_insert_with(Knowledge::default).known_alive =
                                parse_cards(value)?;
                            b
                        }
                        "known_pile" => {
                            k.get_or_insert_with(Knowledge::default).known_pile =
                                parse_cards(value)?;
                            b
                        }
                        "known_aside" => {
                            k.get_or_insert_with(Knowledge::default).known_aside =
                                parse_cards(value)?;
                            b
                        }
                        "pile_or_drawn" => {
                            k.get_or_insert_with(Knowledge::default).pile_or_drawn =
                                parse_cards(value)?;
                            b
                        }
                        "unseen" => {
                            k.get_or_insert_with(Knowledge::default).unseen_in_pile =
                                number(value)?;
                            b
                        }
                        _ => return bad("unknown field"),
                    }
                }
            };
        }
        for pl in PlayerId::BOTH {
            if let Some(k) = knowledge[pl.index()] {
                b = b.knowledge(pl, k);
            }
        }
        b.outcome(outcome).build()
    }
}

impl FromStr for CardWar {
    type Err = CardWarError;

    /// [`CardWar::from_notation`].
    fn from_str(text: &str) -> Result<CardWar, CardWarError> {
        CardWar::from_notation(text)
    }
}
