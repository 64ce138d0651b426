//! Reading wire structs back into the engine's values, so that the tests
//! compare whole observations and views, not a few fields.

pub mod layout;

use game_traits::{Game, PerPlayer};
use stratego_core::{
    ActionView, Chase, End, EndReason, FirstPlayer, HiddenLoss, Kind, KindSet, Move, ObsCell,
    Observation, Rules, Shuttle, Square, Stratego, StrategoObservationStruct, StrategoViewStruct,
    Variant, WireEndReason, WireFirstPlayer, WirePhase, WirePieces, WireVariant,
};

pub fn sq(name: &str) -> Square {
    name.parse().expect("square name")
}

/// The kind `variant` names `name` (its name without the rank).
pub fn kind_named(variant: Variant, name: &str) -> Kind {
    variant
        .kinds()
        .find(|&k| variant.name(k).split(" (").next() == Some(name))
        .unwrap_or_else(|| panic!("{variant} has no piece named {name}"))
}

/// The rule-set-free code of a kind: its index as the constants name it.
pub fn code(kind: Kind) -> String {
    match kind {
        Kind::MINE => "MINE".to_owned(),
        Kind::FLAG => "FLAG".to_owned(),
        k => format!("R{}", k.index()),
    }
}

pub fn kinds_named(variant: Variant, names: &[String]) -> KindSet {
    names.iter().fold(KindSet::EMPTY, |set, n| {
        set.or(KindSet::of(kind_named(variant, n)))
    })
}

pub fn rules_back(s: &StrategoObservationStruct) -> Rules {
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

pub fn counts_back(variant: Variant, pieces: &[WirePieces]) -> [u8; Kind::COUNT] {
    let mut counts = [0; Kind::COUNT];
    for p in pieces {
        let kind = kind_named(variant, &p.piece);
        assert_eq!(p.kind, code(kind), "{}", p.piece);
        counts[kind.index()] += p.count;
    }
    counts
}

pub fn end_back(reason: WireEndReason) -> EndReason {
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
pub fn observation_back(s: &StrategoObservationStruct) -> Observation {
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
pub fn check_phase(g: &Stratego, s: &StrategoObservationStruct) {
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
pub fn view_back(variant: Variant, v: &StrategoViewStruct) -> ActionView {
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
