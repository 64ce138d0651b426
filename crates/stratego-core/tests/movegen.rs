//! Move generation against a slow, plainly written reference.

mod common;

use common::Pieces;

use game_traits::PlayerId::{self, P0, P1};
use game_traits::{Game, GameRng};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use stratego_core::{Action, EndReason, Kind, Move, Rules, Setup, Square, Stratego, Variant};

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
        Rules::classic_milton_bradley(),
        Rules::classic_gravon(),
        Rules {
            two_square_limit: Some(2),
            ..Rules::srazhenie_runner_soldiers()
        },
        Rules {
            two_square_limit: Some(2),
            two_square_partial_moves: true,
            ..Rules::srazhenie_runner_soldiers()
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

/// Every move of player `p` by the geometry of the rule texts (before the
/// repetition rules), written without any cleverness.
fn reference_moves_for(g: &Stratego, p: PlayerId) -> Vec<Move> {
    let rules = *g.rules();
    let long = rules.variant.long_mover(rules.runner_soldiers);
    let mut out = Vec::new();
    for from in Square::all() {
        let Some((owner, kind)) = g.piece_of(from) else {
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
                match g.piece_of(next) {
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
                    if g.piece_of(t).is_none() {
                        out.push(Move { from, to: t });
                    }
                }
            }
        }
    }
    out.sort();
    out
}

/// The two-square rule of docs/stratego.md, worked out from the moves each
/// player made (not from the engine's bookkeeping): a series is a run of a
/// player's own consecutive moves of one piece, each reversing the
/// direction of the one before and ending on the segment of the run's
/// first move (`partial`: a long mover's partial moves back count) or on
/// the square it came from, one of the run's first two squares (without).
#[derive(Default, Clone)]
struct TwoSquareReference {
    /// Whether partial moves back count.
    partial: bool,
    /// Each player's moves in order, with whether the moved piece stood on
    /// the target square afterwards (it did not when it lost a fight).
    own: [Vec<(Move, bool)>; 2],
}

fn unit(a: Square, b: Square) -> (i8, i8) {
    (
        (b.row() as i8 - a.row() as i8).signum(),
        (b.col() as i8 - a.col() as i8).signum(),
    )
}

fn distance(a: Square, b: Square) -> i8 {
    (b.row() as i8 - a.row() as i8)
        .abs()
        .max((b.col() as i8 - a.col() as i8).abs())
}

impl TwoSquareReference {
    fn record(&mut self, after: &Stratego, p: PlayerId, m: Move) {
        let survived = after.piece_of(m.to).map(|(o, _)| o) == Some(p);
        self.own[p.index()].push((m, survived));
    }

    fn new(rules: &Rules) -> TwoSquareReference {
        TwoSquareReference {
            partial: rules.two_square_partial_moves,
            ..TwoSquareReference::default()
        }
    }

    /// Whether `m` continues a series whose first move was `first` and
    /// latest `last`.
    fn continues(&self, first: Move, last: Move, m: Move) -> bool {
        m.from == last.to
            && unit(m.from, m.to) == unit(last.to, last.from)
            && if self.partial {
                on_segment(first, m.to)
            } else {
                m.to == last.from && (m.to == first.from || m.to == first.to)
            }
    }

    /// The current series of `p`: (first move, latest move, moves in it).
    fn series(&self, p: PlayerId) -> Option<(Move, Move, u8)> {
        let mut series: Option<(Move, Move, u8)> = None;
        for &(m, survived) in &self.own[p.index()] {
            series = match series {
                Some((first, last, n)) if self.continues(first, last, m) => Some((first, m, n + 1)),
                _ => Some((m, m, 1)),
            };
            if !survived {
                series = None;
            }
        }
        series
    }

    fn forbids(&self, limit: u8, p: PlayerId, m: Move) -> bool {
        self.series(p)
            .is_some_and(|(first, last, n)| n >= limit && self.continues(first, last, m))
    }
}

/// Whether `sq` is one of the squares from `first.from` to `first.to`.
fn on_segment(first: Move, sq: Square) -> bool {
    sq == first.from
        || (unit(first.from, sq) == unit(first.from, first.to)
            && distance(first.from, sq) <= distance(first.from, first.to)
            && {
                let (dr, dc) = unit(first.from, sq);
                let k = distance(first.from, sq);
                first.from.row() as i8 + dr * k == sq.row() as i8
                    && first.from.col() as i8 + dc * k == sq.col() as i8
            })
}

/// The legal moves of player `p` by the reference rules.
fn reference_legal(g: &Stratego, p: PlayerId, history: &TwoSquareReference) -> Vec<Move> {
    let mut out = reference_moves_for(g, p);
    if let Some(limit) = g.rules().two_square_limit {
        out.retain(|m| !history.forbids(limit, p, *m));
    }
    out
}

fn engine_moves(g: &Stratego) -> Vec<Move> {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    legal
        .into_iter()
        .map(|a| match a {
            Action::Move(m) => m,
            Action::Place(_) | Action::Start(_) => panic!("no move in play"),
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
    let mut history = TwoSquareReference::new(&rules);
    let mut chase = ChaseReference::default();
    while !g.is_terminal() {
        let p = g.current_player().unwrap();
        let engine = engine_moves(&g);
        let mut expected = reference_legal(&g, p, &history);
        if rules.more_squares_rule {
            expected.retain(|m| !chase.forbids(&g, p, *m));
        }
        assert_eq!(engine, expected, "seed {seed}, position:\n{g}");
        for m in &engine {
            assert!(g.is_legal(Action::Move(*m)));
        }
        // Shuttling often (back to where the piece came from) reaches the
        // two-square limit, so the rule is really exercised.
        let back = g
            .last_move(p)
            .map(|lm| Move {
                from: lm.to,
                to: lm.from,
            })
            .filter(|m| engine.contains(m));
        let pick = match back {
            Some(m) if rng.random_bool(0.5) => m,
            _ => engine[rng.random_range(0..engine.len())],
        };
        let before = g.clone();
        g.apply(Action::Move(pick)).unwrap();
        history.record(&g, p, pick);
        chase.record(&before, &g, p, pick);
    }
    // A game ended for want of moves really left the player to move none.
    let to_move = g.observation(P0).to_move;
    let none_for = |p: PlayerId| {
        reference_legal(&g, p, &history)
            .iter()
            .all(|m| rules.more_squares_rule && chase.forbids(&g, p, *m))
    };
    match g.end().map(|e| e.reason) {
        Some(EndReason::NoLegalMove) => assert!(none_for(to_move)),
        Some(EndReason::BothStuck) => assert!(none_for(P0) && none_for(P1)),
        _ => {}
    }
}

/// Which side stands on each square.
type Occupancy = Vec<Option<PlayerId>>;

fn occupancy(g: &Stratego) -> Occupancy {
    Square::all()
        .map(|s| g.piece_of(s).map(|(o, _)| o))
        .collect()
}

fn adjacent(a: Square, b: Square) -> bool {
    (a.row() as i8 - b.row() as i8).abs() + (a.col() as i8 - b.col() as i8).abs() == 1
}

/// The more-squares rule of docs/stratego.md, kept with whole positions.
#[derive(Default)]
struct ChaseReference {
    chase: Option<(PlayerId, Square, Vec<Occupancy>)>,
    last: [Option<Move>; 2],
}

impl ChaseReference {
    fn forbids(&self, g: &Stratego, p: PlayerId, m: Move) -> bool {
        let Some((chaser, evader, positions)) = &self.chase else {
            return false;
        };
        if *chaser != p || g.piece_of(m.to).is_some() || !adjacent(m.to, *evader) {
            return false;
        }
        if self.last[p.index()]
            == Some(Move {
                from: m.to,
                to: m.from,
            })
        {
            return false;
        }
        let mut after = occupancy(g);
        after[m.from.index()] = None;
        after[m.to.index()] = Some(p);
        positions.contains(&after)
    }

    fn record(&mut self, before: &Stratego, after: &Stratego, p: PlayerId, m: Move) {
        let q = p.other();
        let fight = before.piece_of(m.to).is_some();
        self.last[p.index()] = Some(m);
        if fight {
            self.chase = None;
            return;
        }
        let threatened_by_q = before.last_move(q).filter(|lm| {
            before.piece_of(lm.to).map(|(o, _)| o) == Some(q) && adjacent(lm.to, m.from)
        });
        if threatened_by_q.is_some() {
            match &mut self.chase {
                Some((c, ev, pos)) if *c == q => {
                    *ev = m.to;
                    pos.push(occupancy(after));
                }
                _ => self.chase = Some((q, m.to, vec![occupancy(before), occupancy(after)])),
            }
            return;
        }
        match &mut self.chase {
            Some((c, ev, pos)) if *c == p && adjacent(m.to, *ev) => pos.push(occupancy(after)),
            _ => self.chase = None,
        }
    }
}

fn check_chase_game(seed: u64) -> usize {
    let rules = Rules {
        more_squares_rule: true,
        two_square_limit: Some(3),
        ..Rules::classic()
    };
    let mut rng = GameRng::seed_from_u64(seed);
    let (a, b) = (
        Setup::shuffle(rules.variant, &mut rng),
        Setup::shuffle(rules.variant, &mut rng),
    );
    let mut g = Stratego::new_with_setups(&rules, &a, &b).unwrap();
    let mut reference = ChaseReference::default();
    let mut history = TwoSquareReference::new(&rules);
    let mut forbidden_seen = 0;
    while !g.is_terminal() {
        let p = g.current_player().unwrap();
        let geometric = reference_legal(&g, p, &history);
        let expected: Vec<Move> = geometric
            .iter()
            .copied()
            .filter(|m| !reference.forbids(&g, p, *m))
            .collect();
        forbidden_seen += geometric.len() - expected.len();
        assert_eq!(engine_moves(&g), expected, "seed {seed}, position:\n{g}");
        let pick = chasing_policy(&g, &reference, &expected, &mut rng);
        let before = g.clone();
        g.apply(Action::Move(pick)).unwrap();
        reference.record(&before, &g, p, pick);
        history.record(&g, p, pick);
    }
    forbidden_seen
}

/// Random play that keeps chasing and evading, so that the more-squares
/// rule has positions to forbid.
fn chasing_policy(
    g: &Stratego,
    reference: &ChaseReference,
    legal: &[Move],
    rng: &mut GameRng,
) -> Move {
    let p = g.current_player().unwrap_or(P0);
    let quiet = |m: &&Move| g.piece_of(m.to).is_none();
    let preferred: Vec<Move> = match &reference.chase {
        Some((c, ev, _)) if *c == p => legal
            .iter()
            .filter(quiet)
            .filter(|m| adjacent(m.to, *ev))
            .copied()
            .collect(),
        _ => match g.last_move(p.other()) {
            Some(lm) => legal
                .iter()
                .filter(quiet)
                .filter(|m| adjacent(m.from, lm.to))
                .copied()
                .collect(),
            None => Vec::new(),
        },
    };
    let threats: Vec<Move> = legal
        .iter()
        .filter(quiet)
        .filter(|m| {
            Square::all().any(|s| {
                adjacent(s, m.to) && s != m.from && g.piece_of(s).is_some_and(|(o, _)| o != p)
            })
        })
        .copied()
        .collect();
    if !preferred.is_empty() && rng.random_bool(0.9) {
        preferred[rng.random_range(0..preferred.len())]
    } else if !threats.is_empty() && rng.random_bool(0.5) {
        threats[rng.random_range(0..threats.len())]
    } else {
        legal[rng.random_range(0..legal.len())]
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn movegen_with_chase_rule_matches_reference(seed in any::<u64>()) {
        check_chase_game(seed);
    }
}

#[test]
fn chasing_play_does_meet_the_more_squares_rule() {
    let forbidden: usize = (0..8).map(check_chase_game).sum();
    assert!(forbidden > 0, "the property test above would test nothing");
}

#[test]
fn chase_reference_and_engine_agree_on_a_forced_chase() {
    // The position of the chase rule test, checked through the reference.
    let rules = Rules {
        more_squares_rule: true,
        ..Rules::classic()
    };
    let mut g = common::pos(
        rules,
        &[
            ("a1", P0, Kind::FLAG),
            ("j10", P1, Kind::FLAG),
            ("d2", P0, Kind::R0),
            ("d4", P1, Kind::R3),
        ],
        P0,
    );
    let mut reference = ChaseReference::default();
    for m in [
        "d2-d3", "d4-e4", "d3-d4", "e4-e3", "d4-e4", "e3-d3", "e4-e3", "d3-d4",
    ] {
        let (f, t) = m.split_once('-').unwrap();
        let mv = Move {
            from: f.parse().unwrap(),
            to: t.parse().unwrap(),
        };
        let p = g.current_player().unwrap();
        let before = g.clone();
        g.apply(Action::Move(mv)).unwrap();
        reference.record(&before, &g, p, mv);
    }
    let back = Move {
        from: "e3".parse().unwrap(),
        to: "d3".parse().unwrap(),
    };
    assert!(reference.forbids(&g, P0, back));
    assert!(!engine_moves(&g).contains(&back));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn movegen_matches_reference(seed in any::<u64>(), which in 0usize..11, smart in any::<bool>()) {
        check_game(rule_sets()[which], seed, smart);
    }
}

/// Draws `sample_legal` many times on `g` and checks that it draws exactly
/// the listed actions: nothing unlisted, and (with forty draws a listed
/// action, a miss has odds below one in 10^15) every listed one.
fn check_sampler_support(g: &Stratego, rng: &mut GameRng, what: &str) {
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let mut scratch = Vec::new();
    let mut seen = vec![false; legal.len()];
    for _ in 0..40 * legal.len().max(1) {
        match g.sample_legal(&mut scratch, rng) {
            Some(a) => match legal.iter().position(|&l| l == a) {
                Some(i) => seen[i] = true,
                None => panic!("{what}: drew the unlisted {a:?} in\n{g}"),
            },
            None => assert!(legal.is_empty(), "{what}: drew nothing in\n{g}"),
        }
    }
    assert!(
        seen.iter().all(|&s| s),
        "{what}: some listed move never drawn in\n{g}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]
    /// The mask sampler (one fill or subtraction per direction, the
    /// restricted shuttle piece apart) draws over exactly the listing, on
    /// positions along random games and on the last one deserialised and
    /// rebuilt from its notation (whose masks are derived afresh), every
    /// rule set with the more-squares and no-attack rules on too.
    #[test]
    fn sampler_draws_exactly_the_listing(seed in any::<u64>(), which in 0usize..11, steps in 0usize..400, shuttle in any::<bool>()) {
        let base = rule_sets()[which];
        let rules = if shuttle { base } else { Rules { more_squares_rule: true, no_attack_limit: Some(100), ..base } };
        let mut rng = GameRng::seed_from_u64(seed);
        let a = Setup::shuffle(rules.variant, &mut rng);
        let b = Setup::shuffle(rules.variant, &mut rng);
        let mut g = Stratego::new_with_setups(&rules, &a, &b).unwrap();
        let mut legal = Vec::new();
        for i in 0..steps {
            if g.is_terminal() {
                break;
            }
            if i % 8 == 0 {
                check_sampler_support(&g, &mut rng, "in play");
            }
            g.legal_actions(&mut legal);
            // Going back where the piece came from half the time runs
            // shuttles up to the two-square limit.
            let p = g.current_player().unwrap();
            let back = g.last_move(p).map(|lm| Action::Move(Move { from: lm.to, to: lm.from })).filter(|m| legal.contains(m));
            let pick = match back {
                Some(m) if shuttle && rng.random_bool(0.5) => m,
                _ => legal[rng.random_range(0..legal.len())],
            };
            g.apply_unchecked(pick);
        }
        check_sampler_support(&g, &mut rng, "played");
        let json = serde_json::to_string(&g).unwrap();
        let read: Stratego = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&read, &g);
        check_sampler_support(&read, &mut rng, "deserialised");
        let rebuilt = Stratego::from_notation(&g.to_notation()).unwrap();
        check_sampler_support(&rebuilt, &mut rng, "rebuilt");
    }
}
