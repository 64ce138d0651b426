//! The wire schema: actions round-trip through their structs under every
//! preset, foreign codes are refused, observation and view structs carry
//! every fact of what they render as exact JSON integers, and a
//! determinisation gives its viewer the same observation struct.

use game_traits::rand::SeedableRng;
use game_traits::testkit::env_count;
use game_traits::{Game, GameRng, PerPlayer, PlayerId, Wire, MAX_SAFE_INTEGER};
use proptest::prelude::*;
use serde::Serialize;
use serde_json::ser::Formatter;
use serde_json::Value;
use std::io::{self, Write};
use stratego_core::{
    classic, Action, ActionView, Chase, End, EndReason, FirstPlayer, HiddenLoss, Kind, KindSet,
    Move, ObsCell, Observation, Rules, Shuttle, Square, Stratego, StrategoActionStruct,
    StrategoObservationStruct, StrategoViewStruct, Variant, WireEndReason, WireFirstPlayer,
    WirePhase, WirePieces, WireVariant,
};

fn sq(name: &str) -> Square {
    name.parse().expect("square name")
}

/// The kind `variant` names `name` (its name without the rank).
fn kind_named(variant: Variant, name: &str) -> Kind {
    variant
        .kinds()
        .find(|&k| variant.name(k).split(" (").next() == Some(name))
        .unwrap_or_else(|| panic!("{variant} has no piece named {name}"))
}

/// The rule-set-free code of a kind: its index as the constants name it.
fn code(kind: Kind) -> String {
    match kind {
        Kind::MINE => "MINE".to_owned(),
        Kind::FLAG => "FLAG".to_owned(),
        k => format!("R{}", k.index()),
    }
}

fn kinds_named(variant: Variant, names: &[String]) -> KindSet {
    names.iter().fold(KindSet::EMPTY, |set, n| {
        set.or(KindSet::of(kind_named(variant, n)))
    })
}

fn through_json(action: &StrategoActionStruct) -> StrategoActionStruct {
    let json = serde_json::to_string(action).expect("an action struct serialises");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json} reads back: {e}"))
}

#[test]
fn action_struct_round_trips_every_action() {
    for (name, _, rules) in Rules::presets() {
        for id in 0..Stratego::action_space(&rules) {
            let action = Action::from_id(&rules, id).expect("an id of the space");
            let wire = Stratego::action_struct(action);
            let back = through_json(&wire);
            assert_eq!(back, wire, "{name}: {action}");
            assert_eq!(
                Stratego::action_from_struct(&rules, &back),
                Some(action),
                "{name}: id {id} {action}"
            );
        }
    }
}

#[test]
fn placement_reads_the_kind_by_its_name_in_the_rule_set() {
    for (name, _, rules) in Rules::presets() {
        for kind in rules.variant.kinds() {
            let piece = rules.variant.name(kind).split(" (").next().unwrap_or("");
            let json = format!(r#"{{"type":"place","kind":"{piece}"}}"#);
            let wire: StrategoActionStruct = serde_json::from_str(&json).expect("a placement");
            assert_eq!(
                Stratego::action_from_struct(&rules, &wire),
                Some(Action::Place(kind)),
                "{name}: {json}"
            );
        }
    }
}

#[test]
fn codes_squares_and_seats_outside_the_rules_are_refused() {
    let refused = |rules: &Rules, json: &str| {
        serde_json::from_str::<StrategoActionStruct>(json)
            .ok()
            .and_then(|a| Stratego::action_from_struct(rules, &a))
            .is_none()
    };
    let (classic, czech, srazhenie) = (Rules::classic(), Rules::czech(), Rules::srazhenie());
    // Czech has no tenth rank and names its pieces in Czech.
    assert!(refused(&czech, r#"{"type":"place","kind":"R9"}"#));
    assert!(refused(&czech, r#"{"type":"place","kind":"Scout"}"#));
    assert!(!refused(&czech, r#"{"type":"place","kind":"Průzkumník"}"#));
    assert!(refused(&classic, r#"{"type":"place","kind":"Průzkumník"}"#));
    assert!(refused(&classic, r#"{"type":"place","kind":"Scout (2)"}"#));
    assert!(refused(&classic, r#"{"type":"place","kind":"scout"}"#));
    assert!(refused(&classic, r#"{"type":"place","kind":8}"#));
    // Who starts is drawn only in Czech.
    assert!(refused(&classic, r#"{"type":"start","player":0}"#));
    assert!(!refused(&czech, r#"{"type":"start","player":1}"#));
    assert!(refused(&czech, r#"{"type":"start","player":2}"#));
    // Squares off the board, into a lake, or moves no piece can make.
    assert!(refused(
        &classic,
        r#"{"type":"move","from":"a1","to":"k1"}"#
    ));
    assert!(refused(
        &classic,
        r#"{"type":"move","from":"a0","to":"a1"}"#
    ));
    assert!(refused(
        &classic,
        r#"{"type":"move","from":"c4","to":"c5"}"#
    ));
    assert!(refused(
        &classic,
        r#"{"type":"move","from":"a1","to":"b2"}"#
    ));
    assert!(!refused(&czech, r#"{"type":"move","from":"a1","to":"b2"}"#));
    assert!(refused(
        &srazhenie,
        r#"{"type":"move","from":"a1","to":"a3"}"#
    ));
    assert!(!refused(
        &classic,
        r#"{"type":"move","from":"a1","to":"a3"}"#
    ));
    // Unknown types and fields.
    assert!(refused(&classic, r#"{"type":"pass"}"#));
    assert!(refused(
        &classic,
        r#"{"type":"move","from":"a1","to":"a2","piece":"Scout"}"#
    ));
}

proptest! {
    #[test]
    fn arbitrary_json_never_panics(text in ".{0,80}", preset in 0usize..6) {
        let rules = Rules::presets()[preset % Rules::presets().len()].2;
        if let Ok(wire) = serde_json::from_str::<StrategoActionStruct>(&text) {
            let _ = Stratego::action_from_struct(&rules, &wire);
        }
    }

    #[test]
    fn any_struct_read_is_an_action_of_the_space(
        kind in "[A-Za-z0-9éáš ]{0,12}",
        from in "[a-k][0-9]{1,2}",
        to in "[a-k][0-9]{1,2}",
        player in 0u8..3,
        preset in 0usize..6,
    ) {
        let rules = Rules::presets()[preset % Rules::presets().len()].2;
        let texts = [
            serde_json::json!({"type": "place", "kind": kind}),
            serde_json::json!({"type": "move", "from": from, "to": to}),
            serde_json::json!({"type": "start", "player": player}),
        ];
        for json in texts {
            let Ok(wire) = serde_json::from_value::<StrategoActionStruct>(json) else {
                continue;
            };
            if let Some(action) = Stratego::action_from_struct(&rules, &wire) {
                prop_assert!(action.id(&rules).is_some());
                let again = Stratego::action_struct(action);
                prop_assert_eq!(Stratego::action_from_struct(&rules, &again), Some(action));
            }
        }
    }
}

/// Every number in `v` is a non-negative integer a JSON reader keeps
/// exact.
fn assert_safe_integers(v: &Value, what: &str) {
    match v {
        Value::Number(n) => assert!(
            n.as_u64().is_some_and(|n| n <= MAX_SAFE_INTEGER),
            "{what}: {n} is no safe integer"
        ),
        Value::Array(items) => items.iter().for_each(|i| assert_safe_integers(i, what)),
        Value::Object(fields) => fields.values().for_each(|f| assert_safe_integers(f, what)),
        Value::Null | Value::Bool(_) | Value::String(_) => {}
    }
}

fn rules_back(s: &StrategoObservationStruct) -> Rules {
    let w = &s.rules;
    Rules {
        variant: match w.variant {
            WireVariant::Srazhenie => Variant::Srazhenie,
            WireVariant::Czech => Variant::Czech,
            WireVariant::Classic => Variant::Classic,
        },
        runner_soldiers: w.runner_soldiers,
        long_move_attack: w.long_move_attack,
        czech_scout_steps_diagonally: w.czech_scout_steps_diagonally,
        reveal_attacker: w.reveal_attacker,
        two_square_limit: w.two_square_limit,
        two_square_partial_moves: w.two_square_partial_moves,
        more_squares_rule: w.more_squares_rule,
        no_attack_limit: w.no_attack_limit,
        no_move_loses: w.no_move_loses,
        both_stuck_draw: w.both_stuck_draw,
        unreachable_flag_draw: w.unreachable_flag_draw,
        first_player: match w.first_player {
            WireFirstPlayer::Seat0 => FirstPlayer::Seat0,
            WireFirstPlayer::Seat1 => FirstPlayer::Seat1,
            WireFirstPlayer::Drawn => FirstPlayer::Drawn,
        },
        max_moves: w.max_moves,
    }
}

fn counts_back(variant: Variant, pieces: &[WirePieces]) -> [u8; Kind::COUNT] {
    let mut counts = [0; Kind::COUNT];
    for p in pieces {
        let kind = kind_named(variant, &p.piece);
        assert_eq!(p.kind, code(kind), "{}", p.piece);
        counts[kind.index()] += p.count;
    }
    counts
}

fn end_back(reason: WireEndReason) -> EndReason {
    match reason {
        WireEndReason::FlagCaptured => EndReason::FlagCaptured,
        WireEndReason::NoLegalMove => EndReason::NoLegalMove,
        WireEndReason::BothStuck => EndReason::BothStuck,
        WireEndReason::FlagUnreachable => EndReason::FlagUnreachable,
        WireEndReason::NoAttackLimit => EndReason::NoAttackLimit,
        WireEndReason::MoveLimit => EndReason::MoveLimit,
    }
}

/// The observation the struct describes, read back from its codes alone.
fn observation_back(s: &StrategoObservationStruct) -> Observation {
    let rules = rules_back(s);
    let variant = rules.variant;
    let named = |name: &Option<String>| name.as_deref().map(|n| kind_named(variant, n));
    let mut cells = vec![ObsCell::Empty; 100];
    for lake in &s.lakes {
        cells[sq(lake).index()] = ObsCell::Lake;
    }
    for p in &s.board {
        let ruled_out = kinds_named(variant, &p.ruled_out);
        cells[sq(&p.square).index()] = if p.owner == s.viewer {
            ObsCell::Own {
                kind: named(&p.piece).expect("own pieces are named"),
                moved: p.moved,
                revealed: p.revealed,
                ruled_out,
            }
        } else {
            assert_eq!(
                p.revealed,
                p.piece.is_some(),
                "a foe is revealed when named"
            );
            ObsCell::Foe {
                kind: named(&p.piece),
                moved: p.moved,
                ruled_out,
            }
        };
        if let Some(kind) = named(&p.piece) {
            let rank = variant.name(kind).split(" (").nth(1);
            assert_eq!(p.rank.map(|r| format!("{r})")).as_deref(), rank);
        }
    }
    let army = counts_back(variant, &s.army);
    assert_eq!(army, Kind::ALL.map(|k| variant.count(k)));
    let end = match s.phase {
        WirePhase::Over { winner, reason } => Some(End {
            winner,
            reason: end_back(reason),
        }),
        _ => None,
    };
    let move_back = |m: &Option<stratego_core::WireMove>| {
        m.as_ref().map(|m| Move {
            from: sq(&m.from),
            to: sq(&m.to),
        })
    };
    Observation {
        rules,
        viewer: s.viewer,
        cells,
        placed: PerPlayer::from(s.placed),
        to_move: s.to_move,
        moves: s.moves,
        no_attack: s.no_attack,
        lost: PerPlayer::from(s.lost.clone().map(|l| counts_back(variant, &l))),
        hidden_lost: PerPlayer::from(s.hidden_lost.clone().map(|l| {
            l.iter()
                .map(|h| HiddenLoss {
                    kind: named(&h.piece),
                    ruled_out: kinds_named(variant, &h.ruled_out),
                })
                .collect()
        })),
        first: s.first,
        shuttles: PerPlayer::from(s.shuttles.clone().map(|w| {
            w.map(|w| {
                Shuttle::new(
                    sq(&w.origin),
                    sq(&w.end),
                    sq(&w.square),
                    w.moves,
                    w.last_move_back,
                )
                .expect("a consistent shuttle")
            })
        })),
        chase: s.chase.as_ref().map(|c| {
            let positions = c
                .positions
                .iter()
                .map(|h| {
                    assert_eq!(h.len(), 16, "{h}");
                    u64::from_str_radix(h, 16).expect("a hex hash")
                })
                .collect();
            Chase::new(c.chaser, sq(&c.evader), positions)
        }),
        last_move: PerPlayer::from(s.last_move.clone().map(|m| move_back(&m))),
        end,
    }
}

/// The phase agrees with the turn of the game it was observed in.
fn check_phase(g: &Stratego, s: &StrategoObservationStruct) {
    match (&s.phase, g.turn()) {
        (WirePhase::Draw, game_traits::Turn::Chance) => {}
        (WirePhase::Setup { player, square }, game_traits::Turn::Player(p)) => {
            assert_eq!(*player, p);
            assert!(
                g.piece(sq(square)).is_none(),
                "the next setup square is free"
            );
        }
        (WirePhase::Play { to_move }, game_traits::Turn::Player(p)) => assert_eq!(*to_move, p),
        (WirePhase::Over { .. }, game_traits::Turn::Terminal) => {}
        (phase, turn) => panic!("phase {phase:?} in turn {turn:?}"),
    }
}

/// The view the struct describes.
fn view_back(variant: Variant, v: &StrategoViewStruct) -> ActionView {
    match v {
        StrategoViewStruct::Start { player } => ActionView::Start(*player),
        StrategoViewStruct::Place {
            player,
            square,
            piece,
            kind,
            rank,
        } => {
            let k = piece.as_deref().map(|n| kind_named(variant, n));
            assert_eq!(kind.is_some(), k.is_some());
            assert_eq!(
                rank.is_some(),
                k.is_some_and(|k| variant.name(k).contains('('))
            );
            ActionView::Place {
                player: *player,
                square: sq(square),
                kind: k,
                variant,
            }
        }
        StrategoViewStruct::Move { from, to } => ActionView::Move(Move {
            from: sq(from),
            to: sq(to),
        }),
    }
}

fn observation_json(g: &Stratego, p: PlayerId) -> (Observation, StrategoObservationStruct, Value) {
    let o = g.observation(p);
    let s = Stratego::observation_struct(&o);
    let v = serde_json::to_value(&s).expect("an observation struct serialises");
    (o, s, v)
}

#[test]
fn observation_and_view_structs_carry_every_fact_as_safe_integers() {
    let games = env_count("WIRE_GAMES", 4);
    let mut legal = Vec::new();
    let mut seen = Seen::default();
    for (name, _, rules) in Rules::presets() {
        for seed in 0..games {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut g = Stratego::new(&rules).expect("a preset is valid");
            loop {
                for p in PlayerId::BOTH {
                    let (o, s, v) = observation_json(&g, p);
                    assert_safe_integers(&v, name);
                    check_phase(&g, &s);
                    assert_eq!(observation_back(&s), o, "{name} seed {seed}: {v}");
                    seen.note(&s);
                }
                let action = match g.turn() {
                    game_traits::Turn::Terminal => break,
                    game_traits::Turn::Chance => g.sample_chance(&mut rng),
                    game_traits::Turn::Player(_) => g.sample_legal(&mut legal, &mut rng),
                }
                .expect("a live game has an action");
                for p in PlayerId::BOTH {
                    let view = g.action_view(p, action);
                    let wire = Stratego::view_struct(&view);
                    assert_safe_integers(&serde_json::to_value(&wire).expect("json"), name);
                    assert_eq!(view_back(rules.variant, &wire), view, "{name}: {action}");
                }
                g.apply(action).expect("a sampled action is legal");
            }
        }
    }
    assert_eq!(
        seen,
        Seen::everything(),
        "the playouts reach every part of the schema"
    );
}

/// Which parts of the observation struct the playouts filled, so that the
/// round trip above is known to cover them.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    draw: bool,
    setup: bool,
    play: bool,
    over: bool,
    revealed_foe: bool,
    unknown_moved_foe: bool,
    ruled_out: bool,
    lost: bool,
    hidden_lost: bool,
    shuttle: bool,
    chase: bool,
}

impl Seen {
    fn everything() -> Seen {
        Seen {
            draw: true,
            setup: true,
            play: true,
            over: true,
            revealed_foe: true,
            unknown_moved_foe: true,
            ruled_out: true,
            lost: true,
            hidden_lost: true,
            shuttle: true,
            chase: true,
        }
    }

    fn note(&mut self, s: &StrategoObservationStruct) {
        match s.phase {
            WirePhase::Draw => self.draw = true,
            WirePhase::Setup { .. } => self.setup = true,
            WirePhase::Play { .. } => self.play = true,
            WirePhase::Over { .. } => self.over = true,
        }
        let foes = || s.board.iter().filter(|p| p.owner != s.viewer);
        self.revealed_foe |= foes().any(|p| p.piece.is_some());
        self.unknown_moved_foe |= foes().any(|p| p.piece.is_none() && p.moved);
        self.ruled_out |= s.board.iter().any(|p| !p.ruled_out.is_empty());
        self.lost |= s.lost.iter().any(|l| !l.is_empty());
        self.hidden_lost |= s.hidden_lost.iter().any(|l| !l.is_empty());
        self.shuttle |= s.shuttles.iter().any(Option::is_some);
        self.chase |= s.chase.is_some();
    }
}

#[test]
fn determinisation_gives_its_viewer_the_same_observation_struct() {
    let games = env_count("WIRE_GAMES", 4);
    let mut legal = Vec::new();
    for (name, _, rules) in Rules::presets() {
        for seed in 0..games {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut g = Stratego::new(&rules).expect("a preset is valid");
            let mut step = 0u64;
            while !g.is_terminal() {
                if step.is_multiple_of(37) {
                    for p in PlayerId::BOTH {
                        let (o, _, v) = observation_json(&g, p);
                        let d = Stratego::determinize(&o, &mut rng).expect("determinisable");
                        let (_, _, dv) = observation_json(&d, p);
                        assert_eq!(
                            dv.to_string(),
                            v.to_string(),
                            "{name} seed {seed} step {step}"
                        );
                    }
                }
                let action = if matches!(g.turn(), game_traits::Turn::Chance) {
                    g.sample_chance(&mut rng)
                } else {
                    g.sample_legal(&mut legal, &mut rng)
                }
                .expect("a live game has an action");
                g.apply(action).expect("a sampled action is legal");
                step += 1;
            }
        }
    }
}

/// Writes JSON with one top-level field a line and one element of a
/// top-level list a line, the rest compact: how the rules document shows
/// the pinned example.
#[derive(Default)]
struct Layout {
    /// Per open container: whether it is laid out a line per item, and
    /// whether it has an item yet.
    open: Vec<(bool, bool)>,
}

impl Layout {
    fn begin<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        array: bool,
        bracket: &[u8],
    ) -> io::Result<()> {
        let level = self.open.len() + 1;
        self.open.push((level == 1 || (level == 2 && array), false));
        w.write_all(bracket)
    }

    fn end<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        if let Some((true, true)) = self.open.pop() {
            w.write_all(b"\n")?;
            w.write_all(&b"  ".repeat(self.open.len()))?;
        }
        w.write_all(bracket)
    }

    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        let level = self.open.len();
        match self.open.last_mut() {
            Some((true, has)) => {
                *has = true;
                w.write_all(b"\n")?;
                w.write_all(&b"  ".repeat(level))
            }
            _ => Ok(()),
        }
    }
}

impl Formatter for Layout {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, true, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, false, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        let top = self.open.len() == 1;
        w.write_all(if top { b": " } else { b":" })
    }
}

fn layout(s: &StrategoObservationStruct) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Layout::default());
    s.serialize(&mut ser)
        .expect("an observation struct serialises");
    String::from_utf8(out).expect("JSON is UTF-8")
}

#[test]
fn pinned_example_of_an_early_observation() {
    let mut g = Stratego::new(&Rules::default()).expect("the default rules are valid");
    for kind in [classic::SCOUT, classic::BOMB] {
        g.apply(Action::Place(kind)).expect("a setup placement");
    }
    let s = Stratego::observation_struct(&g.observation(PlayerId::P0));
    let json = serde_json::to_string(&s).expect("an observation struct serialises");
    assert_eq!(json, PINNED);
    let shown = layout(&s);
    assert_eq!(
        serde_json::from_str::<Value>(&shown).ok(),
        serde_json::from_str(&json).ok()
    );
    let doc = include_str!("../docs/stratego.md");
    assert!(
        doc.contains(&shown),
        "docs/stratego.md shows the example as\n{shown}"
    );
}

/// The observation of the first seat after it placed a Scout and a Bomb
/// under the default rules.
const PINNED: &str = r#"{"viewer":0,"rules":{"variant":"classic","runner_soldiers":false,"long_move_attack":true,"czech_scout_steps_diagonally":true,"reveal_attacker":true,"two_square_limit":5,"two_square_partial_moves":true,"more_squares_rule":true,"no_attack_limit":null,"no_move_loses":true,"both_stuck_draw":true,"unreachable_flag_draw":false,"first_player":"seat0","max_moves":3000},"phase":{"type":"setup","player":0,"square":"c4"},"first":0,"placed":[2,0],"to_move":0,"moves":0,"no_attack":0,"army":[{"piece":"Marshal","kind":"R0","rank":10,"count":1},{"piece":"General","kind":"R1","rank":9,"count":1},{"piece":"Colonel","kind":"R2","rank":8,"count":2},{"piece":"Major","kind":"R3","rank":7,"count":3},{"piece":"Captain","kind":"R4","rank":6,"count":4},{"piece":"Lieutenant","kind":"R5","rank":5,"count":4},{"piece":"Sergeant","kind":"R6","rank":4,"count":4},{"piece":"Miner","kind":"R7","rank":3,"count":5},{"piece":"Scout","kind":"R8","rank":2,"count":8},{"piece":"Spy","kind":"R9","rank":1,"count":1},{"piece":"Bomb","kind":"MINE","rank":null,"count":6},{"piece":"Flag","kind":"FLAG","rank":null,"count":1}],"to_place":[{"piece":"Marshal","kind":"R0","rank":10,"count":1},{"piece":"General","kind":"R1","rank":9,"count":1},{"piece":"Colonel","kind":"R2","rank":8,"count":2},{"piece":"Major","kind":"R3","rank":7,"count":3},{"piece":"Captain","kind":"R4","rank":6,"count":4},{"piece":"Lieutenant","kind":"R5","rank":5,"count":4},{"piece":"Sergeant","kind":"R6","rank":4,"count":4},{"piece":"Miner","kind":"R7","rank":3,"count":5},{"piece":"Scout","kind":"R8","rank":2,"count":7},{"piece":"Spy","kind":"R9","rank":1,"count":1},{"piece":"Bomb","kind":"MINE","rank":null,"count":5},{"piece":"Flag","kind":"FLAG","rank":null,"count":1}],"board":[{"square":"a4","owner":0,"piece":"Scout","rank":2,"moved":false,"revealed":false,"ruled_out":[]},{"square":"b4","owner":0,"piece":"Bomb","rank":null,"moved":false,"revealed":false,"ruled_out":[]}],"lakes":["c6","d6","g6","h6","c5","d5","g5","h5"],"lost":[[],[]],"hidden_lost":[[],[]],"last_move":[null,null],"shuttles":[null,null],"chase":null}"#;
