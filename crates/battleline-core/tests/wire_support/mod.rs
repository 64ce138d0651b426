//! Reading wire structs back against the engine's values, the layout of
//! the pinned example, and the parts of the schema a playout reaches.

use std::collections::BTreeSet;
use std::io::{self, Write};

use battleline_core::{
    ActionView, BattleLine, Card, CardCode, CardSet, Deck, FlagId, Observation, ObservationStruct,
    Phase, PlayerId, Wire,
};
use serde::Serialize;
use serde_json::ser::Formatter;
use serde_json::Value;

fn set(codes: &[CardCode]) -> CardSet {
    codes.iter().map(|c| c.0).collect()
}

fn list(codes: &[CardCode]) -> Vec<Card> {
    codes.iter().map(|c| c.0).collect()
}

fn phase_name(phase: Phase) -> Value {
    let (name, deck) = match phase {
        Phase::Setup => ("setup", None),
        Phase::Play => ("play", None),
        Phase::Claim => ("claim", None),
        Phase::Draw => ("draw", None),
        Phase::Deal(Deck::Troop) => ("deal", Some("troop")),
        Phase::Deal(Deck::Tactics) => ("deal", Some("tactics")),
        Phase::Return => ("return", None),
        Phase::Over => ("over", None),
    };
    match deck {
        Some(d) => serde_json::json!({"type": name, "deck": d}),
        None => serde_json::json!({"type": name}),
    }
}

/// Asserts that `s` carries every fact of `o`, read back from the struct
/// (the other seat's knowledge of the viewer's hand, which the
/// observation keeps but does not expose, is compared with `state`).
pub fn assert_carries(state: &BattleLine, o: &Observation, s: &ObservationStruct) {
    let v = o.viewer();
    let t = o.table();
    assert_eq!(s.viewer, v);
    assert_eq!(set(&s.hand), o.hand());
    assert_eq!(usize::from(s.hand_sizes[v.index()]), o.hand().len());
    assert_eq!(
        usize::from(s.hand_sizes[v.other().index()]),
        o.opponent_hand_len()
    );
    assert_eq!(set(&s.revealed[v.index()]), o.known_opponent_cards());
    for p in PlayerId::all() {
        assert_eq!(set(&s.revealed[p.index()]), state.known_by(p));
        assert_eq!(set(&s.discards[p.index()]), t.discards(p));
        assert_eq!(s.tactics_played[p.index()], t.tactics_played(p));
        assert_eq!(s.leaders_played[p.index()], t.leader_played(p));
    }
    assert_eq!(s.flags.len(), 9);
    for (id, f) in FlagId::all().zip(&s.flags) {
        let flag = t.flag(id);
        assert_eq!(usize::from(f.flag), id.index() + 1);
        for p in PlayerId::all() {
            assert_eq!(
                list(&f.cards[p.index()]),
                flag.side(p).iter().collect::<Vec<_>>()
            );
        }
        assert_eq!((f.fog, f.mud), (flag.env().fog, flag.env().mud));
        assert_eq!((f.fog_by, f.mud_by), (flag.fog_owner(), flag.mud_owner()));
        assert_eq!(f.first_complete, flag.first_complete());
        assert_eq!(f.claimed_by, flag.claimed());
    }
    for (d, deck) in [
        (Deck::Troop, &s.troop_deck),
        (Deck::Tactics, &s.tactics_deck),
    ] {
        assert_eq!(usize::from(deck.size), o.deck_len(d));
        assert_eq!(usize::from(deck.returned), o.returned_len(d));
        assert_eq!(
            list(&deck.returned_cards),
            o.returned_by_viewer(d).collect::<Vec<_>>()
        );
    }
    assert_eq!(
        serde_json::to_value(s.phase).unwrap(),
        phase_name(t.phase())
    );
    assert_eq!(s.player, t.player());
    assert_eq!(
        (s.draws_due, s.returns_due, s.drawn, s.passes),
        (t.draws_due(), t.returns_due(), t.drawn(), t.passes())
    );
    assert_eq!(s.scout_by, t.scout_by());
    assert_eq!(s.moves, t.moves());
    assert_eq!(s.settled, t.settled());
    let outcome = serde_json::to_value(s.outcome).unwrap();
    let expected = match t.outcome() {
        None => Value::Null,
        Some(game_traits::Outcome::Win(w)) => serde_json::json!({"type": "win", "winner": w}),
        Some(game_traits::Outcome::Draw) => serde_json::json!({"type": "draw"}),
    };
    assert_eq!(outcome, expected);
}

/// Asserts that the view struct of `view` shows its card exactly where
/// the view does, and a public action as its action struct.
pub fn assert_view_carries(view: ActionView, json: &Value) {
    let code = |c: Option<Card>| c.map_or(Value::Null, |c| Value::from(c.to_string()));
    match view {
        ActionView::Public { player, action } => {
            assert_eq!(json["type"], "public");
            assert_eq!(json["player"], player.index());
            let a = serde_json::to_value(BattleLine::action_struct(action)).unwrap();
            assert_eq!(json["action"], a);
        }
        ActionView::Dealt { to, card } => {
            assert_eq!(json["type"], "dealt");
            assert_eq!(json["to"], to.index());
            assert_eq!(json["card"], code(card));
        }
        ActionView::Drew { player, deck, card } | ActionView::Returned { player, deck, card } => {
            assert_eq!(json["player"], player.index());
            assert_eq!(
                json["deck"],
                if deck == Deck::Troop {
                    "troop"
                } else {
                    "tactics"
                }
            );
            assert_eq!(json["card"], code(card));
        }
    }
    assert!(json
        .get("card")
        .is_none_or(|c| c.is_null() || c.is_string()));
}

/// Records the parts of the schema that an observation struct's JSON
/// shows, so that the playouts can be seen to reach them all.
pub fn note_parts(json: &Value, reached: &mut BTreeSet<String>) {
    let mut note = |part: &str| reached.insert(part.to_string());
    let filled = |v: &Value| v.as_array().is_some_and(|a| !a.is_empty());
    note(&format!("phase {}", json["phase"]));
    for seat in 0..2 {
        for list in ["revealed", "discards"] {
            if filled(&json[list][seat]) {
                note(list);
            }
        }
        if json["leaders_played"][seat] == true {
            note("leaders_played");
        }
    }
    for deck in ["troop_deck", "tactics_deck"] {
        if filled(&json[deck]["returned_cards"]) {
            note("returns shown");
        } else if json[deck]["returned"] != 0 {
            note("returns hidden");
        }
    }
    for flag in json["flags"].as_array().unwrap() {
        for fact in ["fog", "mud"] {
            if flag[fact] == true {
                note(fact);
            }
        }
        for seat in ["fog_by", "mud_by", "first_complete", "claimed_by"] {
            if !flag[seat].is_null() {
                note(seat);
            }
        }
    }
    for seat in ["scout_by", "outcome"] {
        if !json[seat].is_null() {
            note(seat);
        }
    }
    if json["settled"] == true {
        note("settled");
    }
}

/// JSON with each top-level field on its own line and each object of a
/// top-level list (the flags) on its own line, compact within: the layout
/// of the pinned example in the rules document. A formatter rather than a
/// pass over a `Value`, whose map would sort the fields.
#[derive(Default)]
struct Layout {
    /// The open containers: whether each is a list, and whether its items
    /// were put on lines of their own.
    open: Vec<(bool, bool)>,
}

impl Formatter for Layout {
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if let [_, (true, broken)] = self.open.as_mut_slice() {
            *broken = true;
            w.write_all(b"\n    ")?;
        }
        self.open.push((false, false));
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open.pop();
        if self.open.is_empty() {
            w.write_all(b"\n")?;
        }
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        if self.open.len() == 1 {
            w.write_all(b"\n  ")?;
        }
        Ok(())
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(if self.open.len() == 1 { b": " } else { b":" })
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open.push((true, false));
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if let Some((_, true)) = self.open.pop() {
            w.write_all(b"\n  ")?;
        }
        w.write_all(b"]")
    }
}

pub fn layout(value: &impl Serialize) -> String {
    let mut out = Vec::new();
    value
        .serialize(&mut serde_json::Serializer::with_formatter(
            &mut out,
            Layout::default(),
        ))
        .unwrap();
    String::from_utf8(out).unwrap()
}
