//! The learning encodings of an observation: a fixed-shape tensor and the
//! one-line information-state string (`docs/stratego.md`, "Encodings").
//! Both read the [`Observation`] alone, so they hold nothing its player may
//! not know.

use std::fmt::Write;

use game_traits::{Encode, PlayerId, TensorLayout};

use crate::kind::KindSet;
use crate::notation::{
    piece_letter, write_chase, write_move, write_ranks, write_rules, write_shuttle, SquareText,
};
use crate::observation::{ObsCell, Observation};
use crate::planes;
use crate::rules::Rules;
use crate::state::{Piece, Stratego};
use crate::tensor;
use crate::variant::Variant;

impl Stratego {
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
        planes::layout(rules)
    }

    type Written = tensor::Written;

    fn encode(observation: &Observation, out: &mut [f32]) {
        tensor::write(observation, out);
    }

    fn encode_update(observation: &Observation, written: &mut tensor::Written, out: &mut [f32]) {
        tensor::update(observation, written, out);
    }

    fn observe_into(&self, player: PlayerId, into: &mut Observation) {
        self.observe_over(player, into);
    }

    fn information_state_string(observation: &Observation) -> String {
        Stratego::info_string(observation)
    }
}
