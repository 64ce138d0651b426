//! The rule-set token of the notation: the rule set's name and, in
//! brackets, the options that differ from its defaults.

use std::fmt::Write;
use std::str::FromStr;

use crate::error::StrategoError;
use crate::rules::{FirstPlayer, Rules};
use crate::variant::Variant;

use super::{bad, number};
use game_traits::RuleSet;

/// The rule options by notation key, with how to write and read each
/// value (a flag `0`/`1`, a number or `off`, a seat `p0`/`p1`/`drawn`).
type Opt = (
    &'static str,
    fn(&Rules) -> String,
    fn(&mut Rules, &str) -> bool,
);

fn flag(v: bool) -> String {
    u32::from(v).to_string()
}

fn set_flag(slot: &mut bool, v: &str) -> bool {
    match v {
        "0" => *slot = false,
        "1" => *slot = true,
        _ => return false,
    }
    true
}

fn limit<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "off".to_owned(), |n| n.to_string())
}

fn set_limit<T: FromStr>(slot: &mut Option<T>, v: &str) -> bool {
    if v == "off" {
        *slot = None;
        return true;
    }
    match number(v) {
        Ok(n) => {
            *slot = Some(n);
            true
        }
        Err(_) => false,
    }
}

const OPTIONS: [Opt; 13] = [
    (
        "runner",
        |r| flag(r.runner_soldiers),
        |r, v| set_flag(&mut r.runner_soldiers, v),
    ),
    (
        "long_attack",
        |r| flag(r.long_move_attack),
        |r, v| set_flag(&mut r.long_move_attack, v),
    ),
    (
        "scout_diag",
        |r| flag(r.czech_scout_steps_diagonally),
        |r, v| set_flag(&mut r.czech_scout_steps_diagonally, v),
    ),
    (
        "reveal",
        |r| flag(r.reveal_attacker),
        |r, v| set_flag(&mut r.reveal_attacker, v),
    ),
    (
        "two_square",
        |r| limit(r.two_square_limit),
        |r, v| set_limit(&mut r.two_square_limit, v),
    ),
    (
        "partial",
        |r| flag(r.two_square_partial_moves),
        |r, v| set_flag(&mut r.two_square_partial_moves, v),
    ),
    (
        "chase",
        |r| flag(r.more_squares_rule),
        |r, v| set_flag(&mut r.more_squares_rule, v),
    ),
    (
        "no_attack",
        |r| limit(r.no_attack_limit),
        |r, v| set_limit(&mut r.no_attack_limit, v),
    ),
    (
        "stuck_loses",
        |r| flag(r.no_move_loses),
        |r, v| set_flag(&mut r.no_move_loses, v),
    ),
    (
        "both_stuck_draw",
        |r| flag(r.both_stuck_draw),
        |r, v| set_flag(&mut r.both_stuck_draw, v),
    ),
    (
        "unreachable_draw",
        |r| flag(r.unreachable_flag_draw),
        |r, v| set_flag(&mut r.unreachable_flag_draw, v),
    ),
    (
        "first",
        |r| {
            match r.first_player {
                FirstPlayer::Seat0 => "p0",
                FirstPlayer::Seat1 => "p1",
                FirstPlayer::Drawn => "drawn",
            }
            .to_owned()
        },
        |r, v| {
            r.first_player = match v {
                "p0" => FirstPlayer::Seat0,
                "p1" => FirstPlayer::Seat1,
                "drawn" => FirstPlayer::Drawn,
                _ => return false,
            };
            true
        },
    ),
    (
        "max_moves",
        |r| r.max_moves.to_string(),
        |r, v| match number(v) {
            Ok(n) => {
                r.max_moves = n;
                true
            }
            Err(_) => false,
        },
    ),
];

fn variant_key(v: Variant) -> &'static str {
    match v {
        Variant::Srazhenie => "srazhenie",
        Variant::Czech => "czech",
        Variant::Classic => "classic",
    }
}

pub(crate) fn write_rules(out: &mut String, rules: &Rules) {
    out.push_str(variant_key(rules.variant));
    let base = Rules::for_variant(rules.variant);
    let mut sep = '[';
    for (key, get, _) in OPTIONS {
        let v = get(rules);
        if v != get(&base) {
            let _ = write!(out, "{sep}{key}={v}");
            sep = ',';
        }
    }
    if sep == ',' {
        out.push(']');
    }
}

pub(super) fn read_rules(text: &str) -> Result<Rules, StrategoError> {
    let (name, options) = match text.split_once('[') {
        Some((name, rest)) => match rest.strip_suffix(']') {
            Some(options) => (name, Some(options)),
            None => return bad("rule options must end with ']'"),
        },
        None => (text, None),
    };
    let variant = Variant::ALL
        .into_iter()
        .find(|&v| variant_key(v) == name)
        .ok_or(StrategoError::InvalidPosition(
            "the rule set must be srazhenie, czech or classic",
        ))?;
    let mut rules = Rules::for_variant(variant);
    for option in options.into_iter().flat_map(|o| o.split(',')) {
        let (key, value) = option
            .split_once('=')
            .ok_or(StrategoError::InvalidPosition(
                "a rule option must be key=value",
            ))?;
        let (_, _, set) = OPTIONS
            .iter()
            .find(|(k, _, _)| *k == key)
            .ok_or(StrategoError::InvalidPosition("an unknown rule option"))?;
        if !set(&mut rules, value) {
            return bad("a rule option out of range");
        }
    }
    rules.validate()?;
    Ok(rules)
}
