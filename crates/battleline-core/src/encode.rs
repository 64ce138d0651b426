//! The learning encodings of an [`Observation`]: a fixed-shape tensor and
//! the information-state string. Both read the observation only (never a
//! state), so they hold nothing the viewer may not know; the planes are
//! listed in the rules document (`docs/battleline.md`, "Encodings").

use std::fmt::Write as _;

use game_traits::{Encode, Outcome, PlayerId, TensorLayout};

use crate::card::{Card, CardSet, Deck, Tactic, CARDS};
use crate::flag::FLAGS;
use crate::notation::{phase_name, write_cards, write_flags, write_public_tail};
use crate::observation::Observation;
use crate::rules::Rules;
use crate::state::{BattleLine, Phase, MAX_GAME_LENGTH};

/// The parts of the tensor in order, with their lengths. Everything is
/// seen from the viewer: `own` is the viewer, `opp` the other player, so
/// one network serves both seats.
const PARTS: [(&str, usize); 39] = [
    ("own_side_cards", FLAGS * CARDS),
    ("opp_side_cards", FLAGS * CARDS),
    ("fog", FLAGS),
    ("mud", FLAGS),
    ("fog_laid_by_own", FLAGS),
    ("mud_laid_by_own", FLAGS),
    ("own_completed_first", FLAGS),
    ("opp_completed_first", FLAGS),
    ("own_claimed", FLAGS),
    ("opp_claimed", FLAGS),
    ("own_hand", CARDS),
    ("own_hand_known_to_opp", CARDS),
    ("opp_hand_known", CARDS),
    ("own_discards", CARDS),
    ("opp_discards", CARDS),
    ("unseen", CARDS),
    ("own_returns_on_decks", CARDS),
    ("opp_hand_size", 1),
    ("troop_deck", 1),
    ("tactics_deck", 1),
    ("troop_deck_returns", 1),
    ("tactics_deck_returns", 1),
    ("own_tactics_played", 1),
    ("opp_tactics_played", 1),
    ("own_tactics_allowed", 1),
    ("own_leader_played", 1),
    ("opp_leader_played", 1),
    ("phase", PHASES),
    ("own_turn", 1),
    ("draws_due", 1),
    ("returns_due", 1),
    ("drawn", 1),
    ("passes", 1),
    ("scout_by_own", 1),
    ("scout_by_opp", 1),
    ("moves", 1),
    ("result", 3),
    ("settled", 1),
    ("seat", 2),
];

/// The phases, one-hot in this order: setup, play, claim, draw,
/// deal-troop, deal-tactics, return, over.
const PHASES: usize = 8;

/// Number of values in the tensor (the same under every rule set).
pub const TENSOR_SIZE: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < PARTS.len() {
        n += PARTS[i].1;
        i += 1;
    }
    n
};

/// The offset of part `name` (a compile-time lookup, so a misspelt name
/// fails the build).
const fn at(name: &str) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < PARTS.len() {
        if eq(PARTS[i].0, name) {
            return n;
        }
        n += PARTS[i].1;
        i += 1;
    }
    panic!("no such part")
}

const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

fn phase_index(phase: Phase) -> usize {
    match phase {
        Phase::Setup => 0,
        Phase::Play => 1,
        Phase::Claim => 2,
        Phase::Draw => 3,
        Phase::Deal(Deck::Troop) => 4,
        Phase::Deal(Deck::Tactics) => 5,
        Phase::Return => 6,
        Phase::Over => 7,
    }
}

/// Writes into the caller's slice, ignoring what falls outside it (the
/// trait asks for no panic on a slice of the wrong length).
struct Out<'a>(&'a mut [f32]);

impl Out<'_> {
    fn set(&mut self, i: usize, v: f32) {
        if let Some(x) = self.0.get_mut(i) {
            *x = v;
        }
    }

    fn cards(&mut self, base: usize, cards: CardSet) {
        for c in cards.iter() {
            self.set(base + c.index(), 1.0);
        }
    }

    fn flag(&mut self, base: usize, flag: usize, on: bool) {
        if on {
            self.set(base + flag, 1.0);
        }
    }
}

impl Observation {
    /// The cards in the game whose place the viewer does not know: the
    /// other hand less the cards he knows there, the decks below the
    /// returns, and Scout returns the other player made.
    pub fn unseen(&self) -> CardSet {
        let t = &self.table;
        let mut known = self
            .hand
            .union(t.discards[PlayerId::P0])
            .union(t.discards[PlayerId::P1])
            .union(self.revealed[self.viewer]);
        for f in &t.flags {
            for p in PlayerId::all() {
                known = known.union(f.side(p).cards());
            }
            if f.env().fog {
                known.insert(Card::tactic(Tactic::Fog));
            }
            if f.env().mud {
                known.insert(Card::tactic(Tactic::Mud));
            }
        }
        for top in &self.tops {
            known = known.union(top.set());
        }
        self.rules.cards().difference(known)
    }
}

impl Encode for BattleLine {
    fn tensor_layout(_: &Rules) -> TensorLayout {
        // A side of the 9 flags, each a set over the 70 cards; card sets;
        // a value per flag.
        TensorLayout::of_parts(&PARTS).stacked(&[
            ("sides", &[FLAGS, CARDS]),
            ("cards", &[CARDS]),
            ("flags", &[FLAGS]),
        ])
    }

    type Written = ();

    fn encode(obs: &Observation, out: &mut [f32]) {
        out.fill(0.0);
        let mut o = Out(out);
        let (v, w) = (obs.viewer, obs.viewer.other());
        let t = &obs.table;
        for (i, f) in t.flags.iter().enumerate() {
            for (base, p) in [(at("own_side_cards"), v), (at("opp_side_cards"), w)] {
                o.cards(base + i * CARDS, f.side(p).cards());
            }
            let env = f.env();
            o.flag(at("fog"), i, env.fog);
            o.flag(at("mud"), i, env.mud);
            o.flag(at("fog_laid_by_own"), i, f.fog_owner() == Some(v));
            o.flag(at("mud_laid_by_own"), i, f.mud_owner() == Some(v));
            o.flag(at("own_completed_first"), i, f.first_complete() == Some(v));
            o.flag(at("opp_completed_first"), i, f.first_complete() == Some(w));
            o.flag(at("own_claimed"), i, f.claimed() == Some(v));
            o.flag(at("opp_claimed"), i, f.claimed() == Some(w));
        }
        o.cards(at("own_hand"), obs.hand);
        o.cards(at("own_hand_known_to_opp"), obs.revealed[w]);
        o.cards(at("opp_hand_known"), obs.revealed[v]);
        o.cards(at("own_discards"), t.discards[v]);
        o.cards(at("opp_discards"), t.discards[w]);
        o.cards(at("unseen"), obs.unseen());
        for top in &obs.tops {
            // The last returned is drawn next: 1.0; the one below it 0.5.
            let cards: Vec<Card> = top.cards().collect();
            for (k, c) in cards.iter().enumerate() {
                let next = k + 1 == cards.len();
                o.set(
                    at("own_returns_on_decks") + c.index(),
                    if next { 1.0 } else { 0.5 },
                );
            }
        }
        let n = |x: u8, max: f32| f32::from(x) / max;
        o.set(at("opp_hand_size"), n(obs.opponent_hand, 9.0));
        let deck = |d: Deck| obs.pools[d.index()] + obs.top_lens[d.index()];
        o.set(at("troop_deck"), n(deck(Deck::Troop), 60.0));
        o.set(at("tactics_deck"), n(deck(Deck::Tactics), 10.0));
        o.set(at("troop_deck_returns"), n(obs.top_lens[0], 2.0));
        o.set(at("tactics_deck_returns"), n(obs.top_lens[1], 2.0));
        let (mine, theirs) = (t.tactics_played[v], t.tactics_played[w]);
        o.set(at("own_tactics_played"), n(mine, 5.0));
        o.set(at("opp_tactics_played"), n(theirs, 5.0));
        o.set(
            at("own_tactics_allowed"),
            f32::from(u8::from(mine <= theirs)),
        );
        o.set(
            at("own_leader_played"),
            f32::from(u8::from(t.leaders_played[v])),
        );
        o.set(
            at("opp_leader_played"),
            f32::from(u8::from(t.leaders_played[w])),
        );
        o.set(at("phase") + phase_index(t.phase), 1.0);
        o.set(at("own_turn"), f32::from(u8::from(t.player == v)));
        o.set(at("draws_due"), n(t.draws_due, 3.0));
        o.set(at("returns_due"), n(t.returns_due, 2.0));
        o.set(at("drawn"), n(t.drawn, 3.0));
        o.set(at("passes"), n(t.passes, 2.0));
        o.set(
            at("scout_by_own"),
            f32::from(u8::from(t.scout_by == Some(v))),
        );
        o.set(
            at("scout_by_opp"),
            f32::from(u8::from(t.scout_by == Some(w))),
        );
        o.set(at("moves"), t.moves as f32 / MAX_GAME_LENGTH as f32);
        match t.outcome {
            Some(Outcome::Win(p)) if p == v => o.set(at("result"), 1.0),
            Some(Outcome::Win(_)) => o.set(at("result") + 1, 1.0),
            Some(Outcome::Draw) => o.set(at("result") + 2, 1.0),
            None => {}
        }
        o.set(at("settled"), f32::from(u8::from(t.settled)));
        o.set(at("seat") + v.index(), 1.0);
    }

    fn information_state_string(obs: &Observation) -> String {
        let t = &obs.table;
        let (v, w) = (obs.viewer, obs.viewer.other());
        let mut out = String::new();
        write_flags(&mut out, t);
        let _ = write!(out, " {}:{} view={v} h=", t.player, phase_name(t.phase));
        for p in PlayerId::all() {
            if p == PlayerId::P1 {
                out.push('/');
            }
            if p == v {
                let known = obs.revealed[w];
                write_cards(&mut out, obs.hand.iter(), |c| known.contains(c));
            } else {
                // The other hand: its size, then the cards of it he knows.
                let _ = write!(out, "{}", obs.opponent_hand);
                let known = obs.revealed[v];
                if !known.is_empty() {
                    out.push('+');
                    write_cards(&mut out, known.iter(), |_| false);
                }
            }
        }
        out.push_str(" d=");
        for d in Deck::ALL {
            if d == Deck::Tactics {
                out.push('/');
            }
            let i = d.index();
            let _ = write!(out, "{}", obs.pools[i]);
            let top = obs.tops[i];
            if !top.is_empty() {
                // His own returns: he knows them and their order.
                out.push('+');
                write_cards(&mut out, top.cards(), |_| false);
            } else if obs.top_lens[i] > 0 {
                // The other player's returns: only how many.
                let _ = write!(out, "+{}", obs.top_lens[i]);
            }
        }
        write_public_tail(&mut out, t, &obs.rules);
        out
    }
}
