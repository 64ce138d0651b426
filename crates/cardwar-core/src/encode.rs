//! The learning encodings of an observation: a flat tensor of named parts
//! and the information-state string, both from the observation alone (so
//! they hold nothing the viewer may not know). Every part is listed with
//! its offset and scaling in `docs/cardwar.md`, section 5.

use game_traits::{Encode, PlayerId, TensorLayout};

use crate::card::{CardSet, Guard, SOLDIERS};
use crate::line::LINE_CAP;
use crate::notation::write_position;
use crate::observation::Observation;
use crate::rules::Rules;
use crate::state::{CardWar, LayKind, Open, Phase, SidePublic};

/// Kinds of phase, in the order of the `phase` part.
const PHASES: usize = 12;
/// Prayer results, 2..=12.
const PRAYERS: usize = 11;
/// Health values are scaled by this (a joker's full health; a card can
/// exceed it after doctors or uncapped wins, which stays finite).
const HEALTH: f32 = 15.0;
/// Fight totals are scaled by this (health 15 + a doubled 6 + 4 of a
/// prayer, rounded up).
const TOTAL: f32 = 32.0;

/// The parts of one side, in order, prefixed `own_` (the viewer's side) or
/// `opp_` (the opponent's).
const SIDE_PARTS: [(&str, usize); 28] = [
    ("counts", 4),
    ("guards", 3),
    ("prayed", 1),
    ("open", 5),
    ("fighter", 3),
    ("pending", 2),
    ("asked", 1),
    ("draw_roll", 1),
    ("paratroopers", 1),
    ("unseen_in_pile", 1),
    ("line_present", LINE_CAP),
    ("line_revealed", LINE_CAP),
    ("line_known", LINE_CAP),
    ("line_strength", LINE_CAP),
    ("line_suit", LINE_CAP),
    ("line_health", LINE_CAP),
    ("line_extra", LINE_CAP),
    ("line_from_pile", LINE_CAP),
    ("hand", SOLDIERS),
    ("aside", SOLDIERS),
    ("pile", SOLDIERS),
    ("donors", SOLDIERS),
    ("known_alive", SOLDIERS),
    ("known_pile", SOLDIERS),
    ("known_aside", SOLDIERS),
    ("pile_or_drawn", SOLDIERS),
    ("unaccounted", SOLDIERS),
    ("revealed", SOLDIERS),
];

/// The parts common to both sides, in order.
const GLOBAL_PARTS: [(&str, usize); 13] = [
    ("seat", 2),
    ("round", 1),
    ("battle", 1),
    ("roles", 5),
    ("phase", PHASES),
    ("phase_actor", 2),
    ("phase_left", 1),
    ("lay_kind", 3),
    ("initiative", 2),
    ("attack_die", 1),
    ("last_fight", 5),
    ("last_prayer_by", 2),
    ("last_prayer", PRAYERS),
];

/// Values of one side's parts.
fn side_len() -> usize {
    SIDE_PARTS.iter().map(|p| p.1).sum()
}

/// Writes values one part after another into a fixed-size buffer.
struct Writer<'a> {
    out: &'a mut [f32],
    at: usize,
}

impl Writer<'_> {
    /// The next `n` values (fewer where a short slice ends).
    fn take(&mut self, n: usize) -> &mut [f32] {
        let len = self.out.len();
        let (start, end) = (self.at.min(len), (self.at + n).min(len));
        self.at += n;
        &mut self.out[start..end]
    }

    /// `n` values, the `i`-th being `value(i)`; written as a block, which
    /// the compiler can vectorise.
    fn each(&mut self, n: usize, value: impl Fn(usize) -> f32) {
        for (i, slot) in self.take(n).iter_mut().enumerate() {
            *slot = value(i);
        }
    }

    fn put(&mut self, v: f32) {
        if let Some(slot) = self.out.get_mut(self.at) {
            *slot = v;
        }
        self.at += 1;
    }

    fn flag(&mut self, b: bool) {
        self.put(f32::from(u8::from(b)));
    }

    /// `n` values, one-hot at `hot` (none if out of range).
    fn one_hot(&mut self, n: usize, hot: Option<usize>) {
        self.each(n, |i| f32::from(u8::from(Some(i) == hot)));
    }

    /// One value per soldier: 1 for the cards of `set`.
    fn cards(&mut self, set: CardSet) {
        let bits = set.bits();
        self.each(SOLDIERS, |id| f32::from(u8::from(bits & (1 << id) != 0)));
    }
}

fn phase_index(phase: Phase) -> usize {
    match phase {
        Phase::Aside { .. } => 0,
        Phase::Initiative { .. } => 1,
        Phase::DrawRoll { .. } => 2,
        Phase::Draw { .. } => 3,
        Phase::Lay { .. } => 4,
        Phase::Pray { .. } => 5,
        Phase::PrayerRoll { .. } => 6,
        Phase::Reinforce { .. } => 7,
        Phase::ParatrooperRoll { .. } => 8,
        Phase::AttackDie => 9,
        Phase::DefenceDie => 10,
        Phase::Over => 11,
    }
}

/// Who acts in the phase and the count it carries (cards left to put
/// aside, draw, lay or pick), if any.
fn phase_actor(obs: &Observation) -> (Option<PlayerId>, u8) {
    let b = &obs.public.battle;
    match obs.public.phase {
        Phase::Aside { colour, left } => (Some(colour), left),
        Phase::Initiative { .. } | Phase::Over => (None, 0),
        Phase::DrawRoll { player }
        | Phase::Pray { player }
        | Phase::PrayerRoll { player }
        | Phase::ParatrooperRoll { player } => (Some(player), 0),
        Phase::Draw { player, left }
        | Phase::Lay { player, left, .. }
        | Phase::Reinforce { player, left } => (Some(player), left),
        Phase::AttackDie => (Some(b.attacker), 0),
        Phase::DefenceDie => (Some(b.attacker.other()), 0),
    }
}

fn encode_side(w: &mut Writer<'_>, obs: &Observation, p: PlayerId) {
    let public = &obs.public;
    let side: &SidePublic = &public.sides[p];
    let b = &public.battle;
    let own = (p == obs.viewer).then_some(&obs.own);
    let n = SOLDIERS as f32;
    for count in [side.hand, side.aside, side.pile, side.line.len() as u8] {
        w.put(f32::from(count) / n);
    }
    for g in Guard::ORDER {
        w.put(f32::from(side.guards[g.index()]) / f32::from(g.strength()));
    }
    w.flag(side.prayed);
    w.one_hot(
        5,
        Some(match b.open[p] {
            Open::None => 0,
            Open::Soldier => 1,
            Open::Guard(g) => 2 + g.index(),
        }),
    );
    let f = b.fighter[p];
    w.put(f32::from(f.kills) / 3.0);
    w.put(f32::from(f.doubled) / 2.0);
    w.flag(f.halved);
    let pending = b.pending[p];
    w.put(f32::from(pending.add) / 12.0);
    w.put(f32::from(pending.doubled) / 2.0);
    w.flag(b.asked[p]);
    w.put(f32::from(side.draw_roll) / 12.0);
    w.put(f32::from(side.paratroopers) / 6.0);
    w.put(f32::from(side.unseen_in_pile) / n);
    // The line, slot by slot: a face-down card is known to its owner only.
    let slots = side.line.slots();
    let card_at = |i: usize| match slots.get(i) {
        Some(slot) => slot.card.or(own.map(|h| h.line[i])),
        None => None,
    };
    let flag = |b: bool| f32::from(u8::from(b));
    w.each(LINE_CAP, |i| flag(i < slots.len()));
    w.each(LINE_CAP, |i| {
        flag(slots.get(i).is_some_and(|s| s.card.is_some()))
    });
    w.each(LINE_CAP, |i| flag(card_at(i).is_some()));
    w.each(LINE_CAP, |i| {
        card_at(i).map_or(0.0, |c| f32::from(c.strength()) / 13.0)
    });
    w.each(LINE_CAP, |i| {
        card_at(i).map_or(0.0, |c| f32::from(c.suit()))
    });
    w.each(LINE_CAP, |i| {
        slots.get(i).map_or(0.0, |s| f32::from(s.health) / HEALTH)
    });
    w.each(LINE_CAP, |i| {
        slots.get(i).map_or(0.0, |s| f32::from(s.extra) / 4.0)
    });
    w.each(LINE_CAP, |i| {
        flag(slots.get(i).is_some_and(|s| s.from_pile))
    });
    // The owner's hidden sets; the opponent's are all zero (he knows only
    // the counts and the knowledge sets below).
    let empty = CardSet::EMPTY;
    w.cards(own.map_or(empty, |h| h.hand));
    w.cards(own.map_or(empty, |h| h.aside));
    w.cards(own.map_or(empty, |h| h.pile));
    w.cards(side.donors);
    w.cards(side.known_alive);
    w.cards(side.known_pile);
    w.cards(side.known_aside);
    w.cards(side.pile_or_drawn);
    let revealed: CardSet = slots.iter().filter_map(|s| s.card).collect();
    let accounted = revealed
        .union(side.donors)
        .union(side.known_alive)
        .union(side.known_pile)
        .union(side.known_aside)
        .union(side.pile_or_drawn);
    // Of the opponent: cards nothing is known of (they may be anywhere
    // unseen). Of the viewer: the cards his opponent knows nothing of.
    w.cards(CardSet::ALL.minus(accounted));
    w.cards(revealed);
}

impl Encode for CardWar {
    /// A flat tensor: the global parts, then the viewer's side (`own_`),
    /// then the opponent's (`opp_`); the same shape under every rule set.
    fn tensor_layout(_: &Rules) -> TensorLayout {
        let mut parts: Vec<(String, usize)> = GLOBAL_PARTS
            .iter()
            .map(|&(name, len)| (name.to_owned(), len))
            .collect();
        for prefix in ["own", "opp"] {
            parts.extend(
                SIDE_PARTS
                    .iter()
                    .map(|&(name, len)| (format!("{prefix}_{name}"), len)),
            );
        }
        let named: Vec<(&str, usize)> = parts.iter().map(|(n, l)| (n.as_str(), *l)).collect();
        // A value per slot of the line, hand, pile...
        TensorLayout::of_parts(&named).stacked(&[("cards", &[LINE_CAP])])
    }

    type Written = Written;

    fn encode(obs: &Observation, out: &mut [f32]) {
        encode_into(obs, out);
    }

    fn encode_update(obs: &Observation, written: &mut Written, out: &mut [f32]) {
        update(obs, written, out);
    }

    /// `view=P0 ` and the position's notation with the opponent's hidden
    /// cards left out: his hand, set-aside cards and pile as counts
    /// (`#9`), his face-down slots as `(?)` or `{?}` (from the pile), with
    /// the health given to them (`(?+1)`).
    fn information_state_string(obs: &Observation) -> String {
        let mut hidden = [None, None];
        hidden[obs.viewer.index()] = Some(&obs.own);
        format!(
            "view={} {}",
            obs.viewer,
            write_position(&obs.rules, &obs.public, hidden)
        )
    }
}

/// Writes the tensor of `obs` into `out` (as far as it goes; the rest of a
/// longer slice is zero) and says how many values the layout holds.
fn encode_into(obs: &Observation, out: &mut [f32]) -> usize {
    let mut w = Writer { out, at: 0 };
    encode_global(&mut w, obs);
    encode_side(&mut w, obs, obs.viewer);
    encode_side(&mut w, obs, obs.viewer.other());
    // A longer slice than the layout: the rest is zero.
    let written = w.at;
    if let Some(rest) = w.out.get_mut(written..) {
        rest.fill(0.0);
    }
    written
}

/// The parts common to both sides.
fn encode_global(w: &mut Writer<'_>, obs: &Observation) {
    let public = &obs.public;
    let b = &public.battle;
    let me = obs.viewer;
    let who = |p: Option<PlayerId>| p.map(|p| usize::from(p != me));
    w.one_hot(2, Some(me.index()));
    w.put(f32::from(public.round) / f32::from(obs.rules.max_rounds));
    w.put(f32::from(public.battle_no.saturating_sub(1)));
    w.flag(b.attacker == me);
    w.flag(public.first == me);
    w.flag(public.swapped);
    w.one_hot(2, who(public.last_attacker));
    w.one_hot(PHASES, Some(phase_index(public.phase)));
    let (actor, left) = phase_actor(obs);
    w.one_hot(2, who(actor));
    w.put(f32::from(left) / SOLDIERS as f32);
    w.one_hot(
        3,
        match public.phase {
            Phase::Lay { kind, .. } => Some(match kind {
                LayKind::Attack => 0,
                LayKind::FreeAttack => 1,
                LayKind::Defence => 2,
            }),
            _ => None,
        },
    );
    w.put(f32::from(public.initiative[me]) / 6.0);
    w.put(f32::from(public.initiative[me.other()]) / 6.0);
    w.put(f32::from(b.attack_die) / 6.0);
    match b.last_fight {
        Some(r) => {
            w.put(1.0);
            w.put(f32::from(r.attack_die) / 6.0);
            w.put(f32::from(r.attack_total) / TOTAL);
            w.put(f32::from(r.defence_die) / 6.0);
            w.put(f32::from(r.defence_total) / TOTAL);
        }
        None => (0..5).for_each(|_| w.put(0.0)),
    }
    w.one_hot(2, who(b.last_prayer.map(|(p, _)| p)));
    w.one_hot(
        PRAYERS,
        b.last_prayer
            .map(|(_, prayer)| usize::from(prayer.sum() - 2)),
    );
}

/// What a tensor row holds: the observation it was last written from,
/// whole (`None` when nothing is known of it).
#[derive(Debug, Default)]
pub struct Written(Option<Observation>);

/// Whether side `p`'s part of the tensor is the same in `a` and `b`, two
/// observations of one viewer: it reads only the side's public state, its
/// half of the battle, and the viewer's own cards when it is his side.
fn same_side(a: &Observation, b: &Observation, p: PlayerId) -> bool {
    let (x, y) = (&a.public.battle, &b.public.battle);
    a.public.sides[p] == b.public.sides[p]
        && x.open[p] == y.open[p]
        && x.fighter[p] == y.fighter[p]
        && x.pending[p] == y.pending[p]
        && x.asked[p] == y.asked[p]
        && (p != a.viewer || a.own == b.own)
}

/// Makes `out`, which holds what the last update with `written` left (or
/// anything, when `written` knows nothing), the tensor of `obs`: the
/// global parts are written, each side's parts only when they changed.
fn update(obs: &Observation, written: &mut Written, out: &mut [f32]) {
    let size = GLOBAL_PARTS.iter().map(|p| p.1).sum::<usize>() + 2 * side_len();
    match &mut written.0 {
        Some(last) if out.len() == size && last.viewer == obs.viewer => {
            let mut w = Writer { out, at: 0 };
            encode_global(&mut w, obs);
            for p in [obs.viewer, obs.viewer.other()] {
                if same_side(last, obs, p) {
                    w.at += side_len();
                } else {
                    encode_side(&mut w, obs, p);
                }
            }
            last.clone_from(obs);
        }
        _ => {
            encode_into(obs, out);
            written.0 = (out.len() == size).then(|| obs.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use game_traits::{Encode, Game};

    use super::*;

    #[test]
    fn every_part_is_written_once() {
        let rules = Rules::default();
        let size = CardWar::tensor_layout(&rules).size();
        assert_eq!(
            size,
            GLOBAL_PARTS.iter().map(|p| p.1).sum::<usize>() + 2 * side_len()
        );
        let game = CardWar::new(&rules).unwrap();
        let mut out = vec![f32::NAN; size + 3];
        assert_eq!(encode_into(&game.observation(PlayerId::P1), &mut out), size);
        assert!(out.iter().all(|v| v.is_finite()));
    }
}
