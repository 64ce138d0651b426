//! The learning encodings of an observation: a fixed-shape tensor and the
//! one-line information-state string (`docs/stratego.md`, "Encodings").
//! Both read the [`Observation`] alone, so they hold nothing its player may
//! not know.

use std::fmt::Write;

use game_traits::{Encode, Plane, PlayerId, TensorLayout};

use crate::kind::{Kind, KindSet};
use crate::notation::{
    piece_letter, write_chase, write_move, write_ranks, write_rules, write_shuttle, SquareText,
};
use crate::observation::{ObsCell, Observation};
use crate::rules::Rules;
use crate::shuttle::Shuttle;
use crate::square::Square;
use crate::state::{Piece, Stratego};
use crate::variant::Variant;

/// Values of one board plane: the 10x10 squares from the viewer's seat.
const BOARD: usize = 100;

/// Most pieces one army can lose without the game being over (its movable
/// pieces), the scale of the hidden-loss counts.
const MOVABLE: f32 = 33.0;

/// The longest chase the `chase_length` value tells apart (it saturates).
const CHASE_SCALE: f32 = 64.0;

/// The board planes of a rule set with `k` kinds, in order: `(name, how
/// many)`; a count of `k` is one plane per kind.
fn board_groups(k: usize) -> [(&'static str, usize); 21] {
    [
        ("own", k),
        ("own_moved", 1),
        ("own_revealed", 1),
        ("own_ruled_out", 1),
        ("foe", k),
        ("foe_unknown", 1),
        ("foe_moved", 1),
        ("foe_unmoved", 1),
        ("foe_possible", k),
        ("empty", 1),
        ("lake", 1),
        ("own_last_from", 1),
        ("own_last_to", 1),
        ("foe_last_from", 1),
        ("foe_last_to", 1),
        ("own_shuttle_segment", 1),
        ("own_shuttle_piece", 1),
        ("foe_shuttle_segment", 1),
        ("foe_shuttle_piece", 1),
        ("own_chased", 1),
        ("foe_chased", 1),
    ]
}

/// The scalar parts, in order, after the board planes.
fn scalar_groups(k: usize) -> [(&'static str, usize); 20] {
    [
        ("setup_phase", 1),
        ("awaiting_draw", 1),
        ("own_placed", 1),
        ("foe_placed", 1),
        ("viewer_moves_first", 1),
        ("viewer_to_move", 1),
        ("moves", 1),
        ("no_attack", 1),
        ("own_shuttle_moves", 1),
        ("foe_shuttle_moves", 1),
        ("chase_length", 1),
        ("game_over", 1),
        ("viewer_won", 1),
        ("viewer_lost", 1),
        ("draw", 1),
        ("own_lost", k),
        ("foe_lost", k),
        ("own_hidden_losses", 1),
        ("foe_hidden_losses", 1),
        ("foe_hidden_possible", k),
    ]
}

/// The short name of a kind in plane names: `r0` (the Marshal) to `r9`,
/// `mine`, `flag`.
fn slug(kind: Kind) -> String {
    match kind {
        Kind::MINE => "mine".to_owned(),
        Kind::FLAG => "flag".to_owned(),
        k => format!("r{}", k.index()),
    }
}

/// The kinds of a rule set in index order, and how many.
fn kinds(variant: Variant) -> ([Kind; Kind::COUNT], usize) {
    let mut out = [Kind::FLAG; Kind::COUNT];
    let mut n = 0;
    for k in variant.kinds() {
        out[n] = k;
        n += 1;
    }
    (out, n)
}

/// Where each group starts, by the group's position in `board_groups`
/// (in planes) and `scalar_groups` (in values past the board).
struct Offsets {
    board: [usize; 21],
    scalar: [usize; 20],
    planes: usize,
}

fn offsets(k: usize) -> Offsets {
    let mut o = Offsets {
        board: [0; 21],
        scalar: [0; 20],
        planes: 0,
    };
    for (i, (_, n)) in board_groups(k).iter().enumerate() {
        o.board[i] = o.planes;
        o.planes += n;
    }
    let mut at = 0;
    for (i, (_, n)) in scalar_groups(k).iter().enumerate() {
        o.scalar[i] = at;
        at += n;
    }
    o
}

// Indices into `Offsets::board` and `Offsets::scalar`.
const OWN: usize = 0;
const OWN_MOVED: usize = 1;
const OWN_REVEALED: usize = 2;
const OWN_RULED_OUT: usize = 3;
const FOE: usize = 4;
const FOE_UNKNOWN: usize = 5;
const FOE_MOVED: usize = 6;
const FOE_UNMOVED: usize = 7;
const FOE_POSSIBLE: usize = 8;
const EMPTY: usize = 9;
const LAKE: usize = 10;
const OWN_LAST_FROM: usize = 11;
const FOE_LAST_FROM: usize = 13;
const OWN_SHUTTLE_SEGMENT: usize = 15;
const FOE_SHUTTLE_SEGMENT: usize = 17;
const OWN_CHASED: usize = 19;
const FOE_CHASED: usize = 20;

const SETUP_PHASE: usize = 0;
const AWAITING_DRAW: usize = 1;
const OWN_PLACED: usize = 2;
const FOE_PLACED: usize = 3;
const VIEWER_FIRST: usize = 4;
const VIEWER_TO_MOVE: usize = 5;
const MOVES: usize = 6;
const NO_ATTACK: usize = 7;
const OWN_SHUTTLE_MOVES: usize = 8;
const FOE_SHUTTLE_MOVES: usize = 9;
const CHASE_LENGTH: usize = 10;
const GAME_OVER: usize = 11;
const VIEWER_WON: usize = 12;
const VIEWER_LOST: usize = 13;
const DRAW: usize = 14;
const OWN_LOST: usize = 15;
const FOE_LOST: usize = 16;
const OWN_HIDDEN: usize = 17;
const FOE_HIDDEN: usize = 18;
const FOE_HIDDEN_POSSIBLE: usize = 19;

/// The value index of `sq` in a board plane, from the viewer's seat: his
/// home rows are always the bottom four (rows 6..9), so the second
/// player's board is turned round.
#[inline]
fn seat_index(viewer: PlayerId, sq: usize) -> usize {
    match viewer {
        PlayerId::P0 => sq,
        PlayerId::P1 => 99 - sq,
    }
}

/// A writer that ignores values past the end of a short slice (the
/// contract: nothing panics).
struct Out<'a>(&'a mut [f32]);

impl Out<'_> {
    #[inline]
    fn set(&mut self, i: usize, v: f32) {
        if let Some(slot) = self.0.get_mut(i) {
            *slot = v;
        }
    }
}

fn ratio(n: impl Into<f32>, of: impl Into<f32>) -> f32 {
    let of = of.into();
    if of > 0.0 {
        (n.into() / of).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

fn shuttle_planes(
    out: &mut Out<'_>,
    viewer: PlayerId,
    plane: usize,
    shuttle: Option<Shuttle>,
    limit: Option<u8>,
) {
    let Some(s) = shuttle else {
        return;
    };
    for sq in Square::all().filter(|&sq| s.contains(sq)) {
        out.set(plane * BOARD + seat_index(viewer, sq.index()), 1.0);
    }
    let fill = limit.map_or(1.0, |l| ratio(s.moves(), l));
    out.set(
        (plane + 1) * BOARD + seat_index(viewer, s.piece().index()),
        fill,
    );
}

impl Stratego {
    /// The tensor layout of [`Encode`] under `rules` (see
    /// `docs/stratego.md`, "Encodings").
    fn layout(rules: &Rules) -> TensorLayout {
        let (kinds, k) = kinds(rules.variant);
        let mut planes = Vec::new();
        let mut offset = 0;
        let mut push = |name: String, len: usize| {
            planes.push(Plane { name, offset, len });
            offset += len;
        };
        for (name, n) in board_groups(k) {
            if n == k {
                for kind in &kinds[..k] {
                    push(format!("{name}_{}", slug(*kind)), BOARD);
                }
            } else {
                push(name.to_owned(), BOARD);
            }
        }
        for (name, n) in scalar_groups(k) {
            if n == k {
                for kind in &kinds[..k] {
                    push(format!("{name}_{}", slug(*kind)), 1);
                }
            } else {
                push(name.to_owned(), 1);
            }
        }
        TensorLayout {
            shape: vec![offset],
            planes,
        }
    }

    /// Writes the tensor of `obs` (see [`Stratego::layout`]).
    fn write_tensor(obs: &Observation, out: &mut [f32]) {
        out.fill(0.0);
        let rules = &obs.rules;
        let variant = rules.variant;
        let (kinds, k) = kinds(variant);
        let o = offsets(k);
        let scalars = o.planes * BOARD;
        let v = obs.viewer;
        let q = v.other();
        let mut out = Out(out);
        let plane_of = |kind: Kind| kinds[..k].iter().position(|&x| x == kind);
        let movers = KindSet::of_variant(variant).and(KindSet::MOBILE);
        // The kinds still unseen among the opponent's pieces (on the board
        // and lost without being seen): his army less his public losses
        // and his revealed pieces.
        let mut pool = [0i32; Kind::COUNT];
        for kind in variant.kinds() {
            pool[kind.index()] =
                i32::from(variant.count(kind)) - i32::from(obs.lost[q][kind.index()]);
        }
        for cell in &obs.cells {
            if let ObsCell::Foe {
                kind: Some(kind), ..
            } = cell
            {
                pool[kind.index()] -= 1;
            }
        }
        let possible = |allowed: KindSet, kind: Kind| -> f32 {
            if allowed.contains(kind) {
                ratio(pool[kind.index()].max(0) as f32, variant.count(kind))
            } else {
                0.0
            }
        };
        for (i, cell) in obs.cells.iter().enumerate() {
            let at = seat_index(v, i);
            let mut plane = |p: usize, value: f32| out.set(p * BOARD + at, value);
            match *cell {
                ObsCell::Lake => plane(o.board[LAKE], 1.0),
                ObsCell::Empty => plane(o.board[EMPTY], 1.0),
                ObsCell::Own {
                    kind,
                    moved,
                    revealed,
                    ruled_out,
                } => {
                    if let Some(j) = plane_of(kind) {
                        plane(o.board[OWN] + j, 1.0);
                    }
                    plane(o.board[OWN_MOVED], f32::from(u8::from(moved)));
                    plane(o.board[OWN_REVEALED], f32::from(u8::from(revealed)));
                    plane(
                        o.board[OWN_RULED_OUT],
                        ratio(ruled_out.len() as f32, movers.len() as f32),
                    );
                }
                ObsCell::Foe {
                    kind,
                    moved,
                    ruled_out,
                } => {
                    plane(o.board[FOE_MOVED], f32::from(u8::from(moved)));
                    plane(o.board[FOE_UNMOVED], f32::from(u8::from(!moved)));
                    match kind {
                        Some(kind) => {
                            if let Some(j) = plane_of(kind) {
                                plane(o.board[FOE] + j, 1.0);
                            }
                        }
                        None => {
                            plane(o.board[FOE_UNKNOWN], 1.0);
                            let all = KindSet::of_variant(variant);
                            let allowed = if moved { movers } else { all }.minus(ruled_out);
                            for (j, &kind) in kinds[..k].iter().enumerate() {
                                plane(o.board[FOE_POSSIBLE] + j, possible(allowed, kind));
                            }
                        }
                    }
                }
            }
        }
        for (p, base) in [(v, o.board[OWN_LAST_FROM]), (q, o.board[FOE_LAST_FROM])] {
            if let Some(m) = obs.last_move[p] {
                out.set(base * BOARD + seat_index(v, m.from.index()), 1.0);
                out.set((base + 1) * BOARD + seat_index(v, m.to.index()), 1.0);
            }
        }
        let limit = rules.two_square_limit;
        shuttle_planes(
            &mut out,
            v,
            o.board[OWN_SHUTTLE_SEGMENT],
            obs.shuttles[v],
            limit,
        );
        shuttle_planes(
            &mut out,
            v,
            o.board[FOE_SHUTTLE_SEGMENT],
            obs.shuttles[q],
            limit,
        );
        if let Some(c) = &obs.chase {
            // The viewer's piece is chased when the opponent is the chaser.
            let plane = if c.chaser() == q {
                o.board[OWN_CHASED]
            } else {
                o.board[FOE_CHASED]
            };
            out.set(plane * BOARD + seat_index(v, c.evader().index()), 1.0);
            out.set(
                scalars + o.scalar[CHASE_LENGTH],
                ratio(c.positions().len() as f32, CHASE_SCALE),
            );
        }
        let mut scalar = |i: usize, value: f32| out.set(scalars + i, value);
        let in_setup = obs.in_setup();
        scalar(o.scalar[SETUP_PHASE], f32::from(u8::from(in_setup)));
        scalar(
            o.scalar[AWAITING_DRAW],
            f32::from(u8::from(obs.first.is_none())),
        );
        scalar(o.scalar[OWN_PLACED], ratio(obs.placed[v], 40u8));
        scalar(o.scalar[FOE_PLACED], ratio(obs.placed[q], 40u8));
        scalar(
            o.scalar[VIEWER_FIRST],
            f32::from(u8::from(obs.first == Some(v))),
        );
        scalar(
            o.scalar[VIEWER_TO_MOVE],
            f32::from(u8::from(!in_setup && obs.to_move == v && obs.end.is_none())),
        );
        scalar(
            o.scalar[MOVES],
            ratio(obs.moves as f32, rules.max_moves as f32),
        );
        if let Some(l) = rules.no_attack_limit {
            scalar(o.scalar[NO_ATTACK], ratio(obs.no_attack, l));
        }
        if let Some(l) = limit {
            for (p, i) in [(v, OWN_SHUTTLE_MOVES), (q, FOE_SHUTTLE_MOVES)] {
                if let Some(s) = obs.shuttles[p] {
                    scalar(o.scalar[i], ratio(s.moves(), l));
                }
            }
        }
        if let Some(end) = obs.end {
            scalar(o.scalar[GAME_OVER], 1.0);
            match end.winner {
                Some(w) if w == v => scalar(o.scalar[VIEWER_WON], 1.0),
                Some(_) => scalar(o.scalar[VIEWER_LOST], 1.0),
                None => scalar(o.scalar[DRAW], 1.0),
            }
        }
        let mut own_lost = obs.lost[v];
        for h in &obs.hidden_lost[v] {
            if let Some(kind) = h.kind {
                own_lost[kind.index()] = own_lost[kind.index()].saturating_add(1);
            }
        }
        let hidden = &obs.hidden_lost[q];
        for (j, &kind) in kinds[..k].iter().enumerate() {
            let count = variant.count(kind);
            scalar(o.scalar[OWN_LOST] + j, ratio(own_lost[kind.index()], count));
            scalar(
                o.scalar[FOE_LOST] + j,
                ratio(obs.lost[q][kind.index()], count),
            );
            let may = hidden
                .iter()
                .filter(|h| movers.minus(h.ruled_out).contains(kind))
                .count();
            scalar(
                o.scalar[FOE_HIDDEN_POSSIBLE] + j,
                ratio(may as f32, hidden.len() as f32),
            );
        }
        scalar(
            o.scalar[OWN_HIDDEN],
            ratio(obs.hidden_lost[v].len() as f32, MOVABLE),
        );
        scalar(o.scalar[FOE_HIDDEN], ratio(hidden.len() as f32, MOVABLE));
    }

    /// The information-state string of `obs` (syntax in
    /// `docs/stratego.md`, "Encodings").
    fn info_string(obs: &Observation) -> String {
        let variant = obs.rules.variant;
        let v = obs.viewer;
        let mut out = String::with_capacity(160);
        write_rules(&mut out, &obs.rules);
        let _ = write!(out, " {v} ");
        write_ranks(&mut out, variant, |sq| match obs.cell(sq) {
            ObsCell::Lake => SquareText::Lake,
            ObsCell::Empty => SquareText::Empty,
            ObsCell::Own {
                kind,
                moved,
                revealed,
                ruled_out,
            } => SquareText::Piece {
                letter: piece_letter(variant, &Piece::new(v, kind)),
                moved,
                revealed,
                ruled_out,
            },
            ObsCell::Foe {
                kind,
                moved,
                ruled_out,
            } => SquareText::Piece {
                letter: match kind {
                    Some(kind) => piece_letter(variant, &Piece::new(v.other(), kind)),
                    // An unknown piece: `X` for the first player's, `x` for
                    // the second's (no kind uses X).
                    None if v == PlayerId::P1 => 'X',
                    None => 'x',
                },
                moved,
                revealed: kind.is_some(),
                ruled_out,
            },
        });
        match (obs.first, obs.in_setup()) {
            (None, _) => out.push_str(" draw"),
            (Some(first), true) => {
                let _ = write!(
                    out,
                    " setup:{first}:{}/{}",
                    obs.placed[PlayerId::P0],
                    obs.placed[PlayerId::P1]
                );
            }
            (Some(first), false) => {
                let _ = write!(out, " {}:{first}", obs.to_move);
            }
        }
        let _ = write!(out, " {} {} ", obs.moves, obs.no_attack);
        for (p, lost) in obs.lost.iter() {
            out.push(if p == PlayerId::P0 { '(' } else { '|' });
            for kind in variant.kinds() {
                let n = lost[kind.index()];
                if n > 0 {
                    out.push(piece_letter(variant, &Piece::new(p, kind)));
                    if n > 1 {
                        let _ = write!(out, "{n}");
                    }
                }
            }
            for h in &obs.hidden_lost[p] {
                out.push(match h.kind {
                    Some(kind) => piece_letter(variant, &Piece::new(p, kind)),
                    None => '?',
                });
                write_set_always(&mut out, variant, h.ruled_out);
            }
        }
        out.push_str(") ");
        write_move(&mut out, obs.last_move[PlayerId::P0]);
        out.push(',');
        write_move(&mut out, obs.last_move[PlayerId::P1]);
        out.push(' ');
        write_shuttle(&mut out, obs.shuttles[PlayerId::P0]);
        out.push(',');
        write_shuttle(&mut out, obs.shuttles[PlayerId::P1]);
        out.push(' ');
        write_chase(&mut out, obs.chase.as_ref());
        match obs.end {
            None => out.push_str(" -"),
            Some(end) => {
                let _ = match end.winner {
                    Some(w) => write!(out, " {w}:{:?}", end.reason),
                    None => write!(out, " draw:{:?}", end.reason),
                };
            }
        }
        out
    }
}

/// `{..}` with the letters of `set`, nothing when it is empty.
fn write_set_always(out: &mut String, variant: Variant, set: KindSet) {
    out.push('{');
    out.extend(set.iter().filter_map(|k| variant.letter(k)));
    out.push('}');
}

impl Encode for Stratego {
    fn tensor_layout(rules: &Rules) -> TensorLayout {
        Stratego::layout(rules)
    }

    fn encode(observation: &Observation, out: &mut [f32]) {
        Stratego::write_tensor(observation, out);
    }

    fn information_state_string(observation: &Observation) -> String {
        Stratego::info_string(observation)
    }
}
