//! The observation tensor (`docs/stratego.md`, "Encodings"), written whole
//! or updated in place. A batch writes each game's tensor into the same row
//! every step; a move changes a few squares, so the update rewrites only
//! the squares whose cell differs from the one the row shows, the few marks
//! (last moves, shuttles, chase) and the scalars. Both paths write each
//! square's values with the same code, so they give the same tensor.

use game_traits::PlayerId;

use crate::kind::{Kind, KindSet};
use crate::observation::{ObsCell, Observation};
use crate::planes::{board_groups, kinds, scalar_groups, BOARD};
use crate::rules::Rules;
use crate::shuttle::Shuttle;

/// Most pieces one army can lose without the game being over (its movable
/// pieces), the scale of the hidden-loss counts.
const MOVABLE: f32 = 33.0;

/// The longest chase the `chase_length` value tells apart (it saturates).
const CHASE_SCALE: f32 = 64.0;

// Indices into `Frame::board` (planes) and `Frame::scalar` (values past the
// board), by the group's position in `board_groups` and `scalar_groups`.
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
const VIEWER_SECOND: usize = 20;

/// Where everything sits in the tensor of one rule set.
#[derive(Clone, Copy, Debug)]
struct Frame {
    kinds: [Kind; Kind::COUNT],
    k: usize,
    /// The plane (`0..k`) of each kind index, `k` for a kind the rule set
    /// has not.
    plane: [usize; Kind::COUNT],
    /// First plane of each board group.
    board: [usize; 21],
    /// First value of each scalar group, past the board.
    scalar: [usize; 21],
    /// Index of the first scalar.
    scalars: usize,
    /// Values in the tensor.
    size: usize,
    all: KindSet,
    movers: KindSet,
}

impl Frame {
    fn new(rules: &Rules) -> Frame {
        let variant = rules.variant;
        let (kinds, k) = kinds(variant);
        let mut plane = [k; Kind::COUNT];
        for (j, kind) in kinds[..k].iter().enumerate() {
            plane[kind.index()] = j;
        }
        let mut board = [0; 21];
        let mut planes = 0;
        for (i, (_, n)) in board_groups(k).iter().enumerate() {
            board[i] = planes;
            planes += n;
        }
        let mut scalar = [0; 21];
        let mut values = 0;
        for (i, (_, n)) in scalar_groups(k).iter().enumerate() {
            scalar[i] = values;
            values += n;
        }
        let all = KindSet::of_variant(variant);
        Frame {
            kinds,
            k,
            plane,
            board,
            scalar,
            scalars: planes * BOARD,
            size: planes * BOARD + values,
            all,
            movers: all.and(KindSet::MOBILE),
        }
    }
}

/// The value index of `sq` in a board plane, from the viewer's seat: his
/// home rows are always the bottom four (rows 6..9), so the second
/// player's board is turned round (the map is its own inverse).
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

/// Per plane of `foe_possible`, the value an unknown opponent piece that
/// may be of that kind shows: the share of the kind's pieces still unseen
/// (on the board or lost without being seen), his army less his public
/// losses and his revealed pieces.
fn possible_values(f: &Frame, obs: &Observation) -> [f32; Kind::COUNT] {
    let variant = obs.rules.variant;
    let q = obs.viewer.other();
    let mut pool = [0i32; Kind::COUNT];
    for kind in variant.kinds() {
        pool[kind.index()] = i32::from(variant.count(kind)) - i32::from(obs.lost[q][kind.index()]);
    }
    for cell in &obs.cells {
        if let ObsCell::Foe {
            kind: Some(kind), ..
        } = cell
        {
            pool[kind.index()] -= 1;
        }
    }
    let mut values = [0.0; Kind::COUNT];
    for (j, &kind) in f.kinds[..f.k].iter().enumerate() {
        values[j] = ratio(pool[kind.index()].max(0) as f32, variant.count(kind));
    }
    values
}

/// Calls `set` with every value `cell` puts at board position `at` (every
/// other value of its planes there is zero).
#[inline]
fn cell_values(
    f: &Frame,
    possible: &[f32; Kind::COUNT],
    at: usize,
    cell: ObsCell,
    mut set: impl FnMut(usize, f32),
) {
    let mut plane = |p: usize, value: f32| set(p * BOARD + at, value);
    match cell {
        ObsCell::Lake => plane(f.board[LAKE], 1.0),
        ObsCell::Empty => plane(f.board[EMPTY], 1.0),
        ObsCell::Own {
            kind,
            moved,
            revealed,
            ruled_out,
        } => {
            let j = f.plane[kind.index()];
            if j < f.k {
                plane(f.board[OWN] + j, 1.0);
            }
            plane(f.board[OWN_MOVED], f32::from(u8::from(moved)));
            plane(f.board[OWN_REVEALED], f32::from(u8::from(revealed)));
            plane(
                f.board[OWN_RULED_OUT],
                ratio(ruled_out.len() as f32, f.movers.len() as f32),
            );
        }
        ObsCell::Foe {
            kind,
            moved,
            ruled_out,
        } => {
            plane(f.board[FOE_MOVED], f32::from(u8::from(moved)));
            plane(f.board[FOE_UNMOVED], f32::from(u8::from(!moved)));
            match kind {
                Some(kind) => {
                    let j = f.plane[kind.index()];
                    if j < f.k {
                        plane(f.board[FOE] + j, 1.0);
                    }
                }
                None => {
                    plane(f.board[FOE_UNKNOWN], 1.0);
                    let allowed = if moved { f.movers } else { f.all }.minus(ruled_out);
                    for (j, &kind) in f.kinds[..f.k].iter().enumerate() {
                        let value = if allowed.contains(kind) {
                            possible[j]
                        } else {
                            0.0
                        };
                        plane(f.board[FOE_POSSIBLE] + j, value);
                    }
                }
            }
        }
    }
}

/// Whether `cell` shows values that depend on [`possible_values`].
fn unknown_foe(cell: ObsCell) -> bool {
    matches!(cell, ObsCell::Foe { kind: None, .. })
}

fn shuttle_marks(
    f: &Frame,
    viewer: PlayerId,
    plane: usize,
    shuttle: Option<Shuttle>,
    limit: Option<u8>,
    set: &mut impl FnMut(usize, f32),
) {
    let Some(s) = shuttle else {
        return;
    };
    let base = f.board[plane] * BOARD;
    for sq in s.segment() {
        set(base + seat_index(viewer, sq.index()), 1.0);
    }
    let fill = limit.map_or(1.0, |l| ratio(s.moves(), l));
    set(base + BOARD + seat_index(viewer, s.piece().index()), fill);
}

/// Calls `set` with every value of the sparse board planes: the last
/// moves, the shuttles and the chased piece.
fn marks(f: &Frame, obs: &Observation, mut set: impl FnMut(usize, f32)) {
    let v = obs.viewer;
    let q = v.other();
    for (p, group) in [(v, OWN_LAST_FROM), (q, FOE_LAST_FROM)] {
        if let Some(m) = obs.last_move[p] {
            let base = f.board[group] * BOARD;
            set(base + seat_index(v, m.from.index()), 1.0);
            set(base + BOARD + seat_index(v, m.to.index()), 1.0);
        }
    }
    let limit = obs.rules.two_square_limit;
    for (p, group) in [(v, OWN_SHUTTLE_SEGMENT), (q, FOE_SHUTTLE_SEGMENT)] {
        shuttle_marks(f, v, group, obs.shuttles[p], limit, &mut set);
    }
    if let Some(c) = &obs.chase {
        // The viewer's piece is chased when the opponent is the chaser.
        let group = if c.chaser() == q {
            OWN_CHASED
        } else {
            FOE_CHASED
        };
        set(
            f.board[group] * BOARD + seat_index(v, c.evader().index()),
            1.0,
        );
    }
}

/// Writes the scalar values (the region past the board, all of it).
fn scalars(f: &Frame, obs: &Observation, out: &mut Out<'_>) {
    if let Some(region) = out.0.get_mut(f.scalars..) {
        region.fill(0.0);
    }
    let rules = &obs.rules;
    let variant = rules.variant;
    let v = obs.viewer;
    let q = v.other();
    let mut scalar = |i: usize, value: f32| out.set(f.scalars + i, value);
    if let Some(c) = &obs.chase {
        scalar(
            f.scalar[CHASE_LENGTH],
            ratio(c.positions().len() as f32, CHASE_SCALE),
        );
    }
    let in_setup = obs.in_setup();
    scalar(f.scalar[SETUP_PHASE], f32::from(u8::from(in_setup)));
    scalar(
        f.scalar[AWAITING_DRAW],
        f32::from(u8::from(obs.first.is_none())),
    );
    scalar(f.scalar[OWN_PLACED], ratio(obs.placed[v], 40u8));
    scalar(f.scalar[FOE_PLACED], ratio(obs.placed[q], 40u8));
    scalar(
        f.scalar[VIEWER_FIRST],
        f32::from(u8::from(obs.first == Some(v))),
    );
    scalar(
        f.scalar[VIEWER_TO_MOVE],
        f32::from(u8::from(!in_setup && obs.to_move == v && obs.end.is_none())),
    );
    scalar(
        f.scalar[MOVES],
        ratio(obs.moves as f32, rules.max_moves as f32),
    );
    if let Some(l) = rules.no_attack_limit {
        scalar(f.scalar[NO_ATTACK], ratio(obs.no_attack, l));
    }
    if let Some(l) = rules.two_square_limit {
        for (p, i) in [(v, OWN_SHUTTLE_MOVES), (q, FOE_SHUTTLE_MOVES)] {
            if let Some(s) = obs.shuttles[p] {
                scalar(f.scalar[i], ratio(s.moves(), l));
            }
        }
    }
    if let Some(end) = obs.end {
        scalar(f.scalar[GAME_OVER], 1.0);
        match end.winner {
            Some(w) if w == v => scalar(f.scalar[VIEWER_WON], 1.0),
            Some(_) => scalar(f.scalar[VIEWER_LOST], 1.0),
            None => scalar(f.scalar[DRAW], 1.0),
        }
    }
    let mut own_lost = obs.lost[v];
    for h in &obs.hidden_lost[v] {
        if let Some(kind) = h.kind {
            own_lost[kind.index()] = own_lost[kind.index()].saturating_add(1);
        }
    }
    let hidden = &obs.hidden_lost[q];
    for (j, &kind) in f.kinds[..f.k].iter().enumerate() {
        let count = variant.count(kind);
        scalar(f.scalar[OWN_LOST] + j, ratio(own_lost[kind.index()], count));
        scalar(
            f.scalar[FOE_LOST] + j,
            ratio(obs.lost[q][kind.index()], count),
        );
        let may = hidden
            .iter()
            .filter(|h| f.movers.minus(h.ruled_out).contains(kind))
            .count();
        scalar(
            f.scalar[FOE_HIDDEN_POSSIBLE] + j,
            ratio(may as f32, hidden.len() as f32),
        );
    }
    scalar(
        f.scalar[OWN_HIDDEN],
        ratio(obs.hidden_lost[v].len() as f32, MOVABLE),
    );
    scalar(f.scalar[FOE_HIDDEN], ratio(hidden.len() as f32, MOVABLE));
    // The board is the viewer's (the second seat's turned) and the action
    // ids are not: a policy needs the seat to map one onto the other.
    scalar(
        f.scalar[VIEWER_SECOND],
        f32::from(u8::from(v == PlayerId::P1)),
    );
}

/// The cell that board position `at` of `obs`'s tensor shows.
#[inline]
fn shown(obs: &Observation, at: usize) -> ObsCell {
    obs.cells
        .get(seat_index(obs.viewer, at))
        .copied()
        .unwrap_or(ObsCell::Empty)
}

/// Writes the whole tensor of `obs` into `out`.
pub(crate) fn write(obs: &Observation, out: &mut [f32]) {
    write_whole(&Frame::new(&obs.rules), obs, out, &mut Written::default());
}

fn write_whole(f: &Frame, obs: &Observation, out: &mut [f32], written: &mut Written) {
    out.fill(0.0);
    let possible = possible_values(f, obs);
    let mut out = Out(out);
    for at in 0..BOARD {
        let cell = shown(obs, at);
        cell_values(f, &possible, at, cell, |i, value| out.set(i, value));
        written.shown[at] = cell;
    }
    written.possible = possible;
    written.marks.clear();
    marks(f, obs, |i, value| {
        out.set(i, value);
        written.marks.push(i);
    });
    scalars(f, obs, &mut out);
}

/// What a tensor row holds, as [`update`] left it: the rule set, whose
/// view it is, the cell each board position shows, the values its unknown opponent pieces show
/// and where its marks are.
#[derive(Debug)]
pub struct Written {
    frame: Option<(Rules, Frame)>,
    viewer: PlayerId,
    shown: [ObsCell; BOARD],
    possible: [f32; Kind::COUNT],
    marks: Vec<usize>,
}

impl Default for Written {
    fn default() -> Self {
        Written {
            frame: None,
            viewer: PlayerId::P0,
            shown: [ObsCell::Empty; BOARD],
            possible: [0.0; Kind::COUNT],
            marks: Vec::with_capacity(32),
        }
    }
}

/// Makes `out`, which holds what the last update with `written` left (or
/// anything, when `written` knows nothing), the tensor of `obs`.
pub(crate) fn update(obs: &Observation, written: &mut Written, out: &mut [f32]) {
    let f = match written.frame {
        // The other seat's view differs almost everywhere (the board turns
        // round): one pass over the whole row, which the memory system
        // streams, costs less than scattered updates of most squares.
        Some((rules, f))
            if rules == obs.rules && out.len() == f.size && written.viewer == obs.viewer =>
        {
            f
        }
        _ => {
            let f = Frame::new(&obs.rules);
            write_whole(&f, obs, out, written);
            // A slice of another length holds no whole tensor to update.
            written.frame = (out.len() == f.size).then_some((obs.rules, f));
            written.viewer = obs.viewer;
            return;
        }
    };
    let possible = possible_values(&f, obs);
    let pool_changed = possible != written.possible;
    let mut out = Out(out);
    for at in 0..BOARD {
        let cell = shown(obs, at);
        let old = written.shown[at];
        if cell != old || (pool_changed && unknown_foe(cell)) {
            // Two unknown opponent pieces set the same values' places, so
            // the new one's overwrite the old one's.
            if !(unknown_foe(old) && unknown_foe(cell)) {
                cell_values(&f, &possible, at, old, |i, _| out.set(i, 0.0));
            }
            cell_values(&f, &possible, at, cell, |i, value| out.set(i, value));
            written.shown[at] = cell;
        }
    }
    written.possible = possible;
    for &i in &written.marks {
        out.set(i, 0.0);
    }
    written.marks.clear();
    marks(&f, obs, |i, value| {
        out.set(i, value);
        written.marks.push(i);
    });
    scalars(&f, obs, &mut out);
}
