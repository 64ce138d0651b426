//! Text renderings of the board: omniscient, or as one player sees it.

use std::fmt::{self, Write};

use game_traits::{PerPlayer, PlayerId};

use crate::kind::Kind;
use crate::observation::{ObsCell, Observation};
use crate::square::Square;
use crate::state::{End, EndReason, Stratego};
use crate::variant::Variant;

/// Three characters per square: `~~~` water, ` . ` empty; a piece is a
/// side marker and its two-character symbol. The first player's pieces are
/// marked `+` (rank unknown to the opponent) or `*` (known), the second
/// player's `-` or `=`; an opponent piece of unknown rank shows `??`, or
/// `?>` once it has moved.
fn token(
    variant: Variant,
    owner: PlayerId,
    kind: Option<Kind>,
    revealed: bool,
    moved: bool,
) -> String {
    let marker = match (owner, revealed) {
        (PlayerId::P0, false) => '+',
        (PlayerId::P0, true) => '*',
        (PlayerId::P1, false) => '-',
        (PlayerId::P1, true) => '=',
    };
    let sym = match kind {
        Some(k) => variant.symbol(k),
        None if moved => "?>",
        None => "??",
    };
    // Keep the marker next to the symbol: " +9" rather than "+ 9".
    match sym.strip_prefix(' ') {
        Some(short) => format!(" {marker}{short}"),
        None => format!("{marker}{sym}"),
    }
}

fn grid(f: &mut impl Write, flipped: bool, cell: impl Fn(Square) -> String) -> fmt::Result {
    let files: Vec<char> = (0..10u8).map(|c| (b'a' + c) as char).collect();
    let order: Vec<u8> = if flipped {
        (0..10).rev().collect()
    } else {
        (0..10).collect()
    };
    for &row in &order {
        let rank = 10 - row;
        write!(f, "{rank:>2} ")?;
        let cols: Vec<u8> = if flipped {
            (0..10).rev().collect()
        } else {
            (0..10).collect()
        };
        for &col in &cols {
            if let Some(sq) = Square::at(row, col) {
                write!(f, "{}", cell(sq))?;
            }
        }
        writeln!(f)?;
    }
    write!(f, "   ")?;
    let cols: Vec<char> = if flipped {
        files.into_iter().rev().collect()
    } else {
        files
    };
    for c in cols {
        write!(f, " {c} ")?;
    }
    writeln!(f)
}

fn reason_text(reason: EndReason) -> &'static str {
    match reason {
        EndReason::FlagCaptured => "flag captured",
        EndReason::NoLegalMove => "no legal move",
        EndReason::BothStuck => "neither side can move",
        EndReason::FlagUnreachable => "neither flag can ever be captured",
        EndReason::NoAttackLimit => "no attack for too long",
        EndReason::MoveLimit => "move limit reached",
    }
}

fn status(
    f: &mut impl Write,
    variant: Variant,
    placed: PerPlayer<u8>,
    to_move: PlayerId,
    moves: u32,
    no_attack: u16,
    end: Option<End>,
) -> fmt::Result {
    write!(f, "{variant} ")?;
    match end {
        Some(e) => {
            match e.winner {
                Some(w) => write!(f, "{w} wins")?,
                None => write!(f, "draw")?,
            }
            write!(f, " ({}) after {moves} moves", reason_text(e.reason))?;
        }
        None if placed[PlayerId::P1] < 40 => write!(
            f,
            "setup: P0 {}/40, P1 {}/40",
            placed[PlayerId::P0],
            placed[PlayerId::P1]
        )?,
        None => write!(
            f,
            "move {moves}, {to_move} to move, {no_attack} without attack"
        )?,
    }
    writeln!(f)
}

fn lost_line(
    f: &mut impl Write,
    variant: Variant,
    lost: &PerPlayer<[u8; Kind::COUNT]>,
) -> fmt::Result {
    for (p, l) in lost.iter() {
        write!(f, "lost {p}:")?;
        for k in variant.kinds() {
            if l[k.index()] > 0 {
                write!(f, " {}x{}", l[k.index()], variant.symbol(k).trim())?;
            }
        }
        writeln!(f)?;
    }
    Ok(())
}

impl Stratego {
    /// The omniscient rendering (every rank shown), first player at the
    /// bottom.
    fn render(&self) -> String {
        let mut s = String::new();
        let v = self.rules.variant;
        let _ = status(
            &mut s,
            v,
            self.placed,
            self.to_move,
            self.moves,
            self.no_attack,
            self.end,
        );
        let _ = grid(&mut s, false, |sq| {
            if sq.is_lake() {
                return "~~~".into();
            }
            match self.piece(sq) {
                None => " . ".into(),
                Some(p) => token(v, p.owner, Some(p.kind), p.revealed, p.moved),
            }
        });
        let _ = lost_line(&mut s, v, &self.lost);
        s
    }
}

impl fmt::Display for Stratego {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

/// The board as the viewer sees it, his own pieces at the bottom.
impl Observation {
    /// The viewer's pieces still to place, named for a person choosing the
    /// next `place#k` action.
    fn pieces_to_place(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.rules.variant;
        let mut sep = " ";
        write!(f, "to place:")?;
        for k in v.kinds() {
            let placed = self
                .cells
                .iter()
                .filter(|c| matches!(c, ObsCell::Own { kind, .. } if *kind == k))
                .count();
            let left = usize::from(v.count(k)).saturating_sub(placed);
            if left > 0 {
                write!(f, "{sep}#{} {} x{left}", k.index(), v.name(k))?;
                sep = ", ";
            }
        }
        writeln!(f)
    }
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.rules.variant;
        write!(f, "{} view: ", self.viewer)?;
        status(
            f,
            v,
            self.placed,
            self.to_move,
            self.moves,
            self.no_attack,
            self.end,
        )?;
        if self.end.is_none() && self.placed[self.viewer] < 40 {
            self.pieces_to_place(f)?;
        }
        grid(f, self.viewer == PlayerId::P1, |sq| {
            match self.cells.get(sq.index()) {
                Some(ObsCell::Lake) => "~~~".into(),
                Some(ObsCell::Own {
                    kind,
                    moved,
                    revealed,
                    ..
                }) => token(v, self.viewer, Some(*kind), *revealed, *moved),
                Some(ObsCell::Foe { kind, moved, .. }) => {
                    token(v, self.viewer.other(), *kind, kind.is_some(), *moved)
                }
                _ => " . ".into(),
            }
        })?;
        lost_line(f, v, &self.lost)
    }
}
