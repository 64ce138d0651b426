//! The observation tensor's planes (`docs/stratego.md`, "Encodings"):
//! their names and order, read by the layout that [`Encode`] publishes and
//! by the writer that fills them (`tensor.rs`), so the two agree by
//! construction.
//!
//! [`Encode`]: game_traits::Encode

use game_traits::{Plane, TensorLayout};

use crate::kind::Kind;
use crate::rules::Rules;
use crate::variant::Variant;

/// Values of one board plane: the 10x10 squares from the viewer's seat.
pub(crate) const BOARD: usize = 100;

/// The board planes of a rule set with `k` kinds, in order: `(name, how
/// many)`; a count of `k` is one plane per kind.
pub(crate) fn board_groups(k: usize) -> [(&'static str, usize); 21] {
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
pub(crate) fn scalar_groups(k: usize) -> [(&'static str, usize); 21] {
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
        ("viewer_second", 1),
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
pub(crate) fn kinds(variant: Variant) -> ([Kind; Kind::COUNT], usize) {
    let mut out = [Kind::FLAG; Kind::COUNT];
    let mut n = 0;
    for k in variant.kinds() {
        out[n] = k;
        n += 1;
    }
    (out, n)
}

/// The tensor layout of [`Encode`](game_traits::Encode) under `rules` (see
/// `docs/stratego.md`, "Encodings").
pub(crate) fn layout(rules: &Rules) -> TensorLayout {
    let (kinds, k) = kinds(rules.variant);
    let mut planes = Vec::new();
    let mut offset = 0;
    let mut push = |name: String, len: usize| {
        planes.push(Plane {
            name,
            offset,
            len,
            stack: None,
        });
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
    // The board planes, row-major from the viewer's side.
    TensorLayout {
        shape: vec![offset],
        planes,
    }
    .stacked(&[("board", &[10, 10])])
}
