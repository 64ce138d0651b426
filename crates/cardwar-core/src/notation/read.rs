//! Reading the notation: each field's text checked and turned into its
//! part of a position, then the whole built (and validated) by the
//! position builder.

use std::str::FromStr;

use game_traits::{Outcome, PlayerId};

use crate::card::{CardSet, Guard, Soldier};
use crate::error::CardWarError;
use crate::position::{Knowledge, LineCard, PositionBuilder};
use crate::prayer::Prayer;
use crate::rules::{FirstAttacker, Rules};
use crate::state::{CardWar, FightReport, Fighter, LayKind, Open, Pending, Phase};
use game_traits::RuleSet;

type Parsed<T> = Result<T, CardWarError>;

/// A soldier of the notation, or the position error naming it.
fn soldier(text: &str) -> Parsed<Soldier> {
    text.parse()
        .map_err(|_| CardWarError::InvalidPosition("not a soldier (2a..Kb)"))
}

fn bad<T>(why: &'static str) -> Parsed<T> {
    Err(CardWarError::InvalidPosition(why))
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

fn parse_cards(text: &str) -> Parsed<CardSet> {
    let mut set = CardSet::EMPTY;
    if text != "-" {
        for item in text.split(',') {
            let card = soldier(item)?;
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

/// A face-down card with its extra health: `5a` or `5a+2`.
fn hidden_card(text: &str) -> Parsed<(Soldier, u8)> {
    match text.split_once('+') {
        Some((card, extra)) => Ok((soldier(card)?, number(extra)?)),
        None => Ok((soldier(text)?, 0)),
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
                    card: soldier(card)?,
                    health: number(health)?,
                })
            } else {
                bad("a line card is (5a), (5a+1), {5a}, {5a+1} or 5a:health")
            }
        })
        .collect()
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

/// Reads a position (see [`CardWar::from_notation`]).
pub(super) fn read_position(text: &str) -> Parsed<CardWar> {
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
                        k.get_or_insert_with(Knowledge::default).known_alive = parse_cards(value)?;
                        b
                    }
                    "known_pile" => {
                        k.get_or_insert_with(Knowledge::default).known_pile = parse_cards(value)?;
                        b
                    }
                    "known_aside" => {
                        k.get_or_insert_with(Knowledge::default).known_aside = parse_cards(value)?;
                        b
                    }
                    "pile_or_drawn" => {
                        k.get_or_insert_with(Knowledge::default).pile_or_drawn =
                            parse_cards(value)?;
                        b
                    }
                    "unseen" => {
                        k.get_or_insert_with(Knowledge::default).unseen_in_pile = number(value)?;
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
