//! Text renderings of the board: omniscient, or as one player sees it.

use std::fmt::{self, Write};

use game_traits::{PerPlayer, PlayerId, RuleSet};

use crate::kind::Kind;
use crate::observation::{HiddenLoss, ObsCell, Observation};
use crate::rules::Rules;
use crate::square::Square;
use crate::state::{End, EndReason, Stratego};
use crate::variant::Variant;

/// What every code of the renderings of a state and of an observation
/// means, for screens that show them.
pub const LEGEND: &str = "\
Status line: the rule set by its title (International, Milton Bradley, Gravon, Srazhenie, Czech...), then the setup progress (P0 n/40, P1 n/40), or the move number, the player to move and the moves without an attack, or the result and why.
'Pn view:' an observation of player n: his army at the bottom; 'to place: #k Name xN' his pieces still to set up (the action place#k).
Board: ranks 10..1 and files a..j from the first player's seat, three characters per square.
~~~ water (a lake); ' . ' an empty square.
+S a first-player piece of symbol S whose kind the opponent does not know; *S one whose kind he knows.
-S / =S the same for a second-player piece.
?? an opponent piece of unknown kind; ?> one that has moved (so no mine or flag).
Symbols: Srazhenie 1 (Marshal) .. 10 (Scout), M mine, F flag; Czech Ma Ge Ka Kd Kp St Pr Mi Sp, MP mine field, Pp flag; Classic 10 (Marshal) .. 2 (Scout), S spy, B bomb, F flag.
'lost Pn: 2x9 ...' pieces lost in fights, count x symbol; 'unseen:' losses whose kind the opponent never saw (Czech hidden attackers), '?' where the viewer does not know it.
'who starts: drawn' the game waits for the draw of who moves first; 'Pn starts' its result.";

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

/// The rule set as every screen names it: its preset's title, or for rules
/// that are no preset's the army they are played with.
fn rules_title(rules: &Rules) -> String {
    rules.preset_title().map_or_else(
        || format!("own rules ({} army)", rules.variant),
        str::to_owned,
    )
}

fn status(
    f: &mut impl Write,
    rules: &Rules,
    placed: PerPlayer<u8>,
    to_move: PlayerId,
    moves: u32,
    no_attack: u16,
    end: Option<End>,
) -> fmt::Result {
    write!(f, "{} ", rules_title(rules))?;
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
    hidden: &PerPlayer<Vec<HiddenLoss>>,
) -> fmt::Result {
    for (p, l) in lost.iter() {
        write!(f, "lost {p}:")?;
        for k in variant.kinds() {
            if l[k.index()] > 0 {
                write!(f, " {}x{}", l[k.index()], variant.symbol(k).trim())?;
            }
        }
        // Only where attackers stay hidden, so other renderings are as
        // they were.
        if !hidden[p].is_empty() {
            write!(f, " unseen:")?;
            for h in &hidden[p] {
                match h.kind {
                    Some(k) => write!(f, " {}", variant.symbol(k).trim())?,
                    None => write!(f, " ?")?,
                }
            }
        }
        writeln!(f)?;
    }
    Ok(())
}

/// The line about the draw of who moves first, only where it is drawn.
fn draw_line(f: &mut impl Write, drawn: bool, first: Option<PlayerId>, setup: bool) -> fmt::Result {
    match (drawn, first) {
        (false, _) => Ok(()),
        (true, None) => writeln!(f, "who starts: drawn"),
        (true, Some(p)) if setup => writeln!(f, "{p} starts"),
        (true, Some(_)) => Ok(()),
    }
}

impl Stratego {
    /// The omniscient rendering (every rank shown), first player at the
    /// bottom.
    fn render(&self) -> String {
        let mut s = String::new();
        let v = self.rules.variant;
        let _ = status(
            &mut s,
            &self.rules,
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
        let mut public = self.lost;
        let hidden = PerPlayer::new(PlayerId::P0, PlayerId::P1).map(|p| {
            self.hidden_losses(p)
                .map(|(kind, ruled_out)| {
                    public[p][kind.index()] = public[p][kind.index()].saturating_sub(1);
                    HiddenLoss {
                        kind: Some(kind),
                        ruled_out,
                    }
                })
                .collect()
        });
        let _ = lost_line(&mut s, v, &public, &hidden);
        let drawn = self.rules.fixed_first_player().is_none();
        let _ = draw_line(&mut s, drawn, self.first, !self.in_play());
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
            &self.rules,
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
        lost_line(f, v, &self.lost, &self.hidden_lost)?;
        let drawn = self.rules.fixed_first_player().is_none();
        draw_line(f, drawn, self.first, self.in_setup())
    }
}

#[cfg(test)]
mod tests {
    use game_traits::{Game, PlayerId, RuleSet};

    use crate::rules::Rules;
    use crate::state::Stratego;

    /// The first line of the board and of a seat's view, for `rules`.
    fn status_lines(rules: &Rules) -> (String, String) {
        let state = Stratego::new(rules).unwrap();
        let first = |text: String| text.lines().next().unwrap().to_owned();
        (
            first(state.to_string()),
            first(state.observation(PlayerId::P0).to_string()),
        )
    }

    #[test]
    fn the_status_line_names_the_rule_set_by_its_preset_title() {
        for preset in Rules::presets() {
            let (board, view) = status_lines(&preset.rules);
            assert!(
                board.starts_with(&format!("{} setup", preset.title)),
                "{board}"
            );
            assert!(
                view.starts_with(&format!("P0 view: {} setup", preset.title)),
                "{view}"
            );
        }
        let own = Rules {
            two_square_limit: Some(9),
            ..Rules::classic()
        };
        assert!(own.preset_title().is_none());
        assert!(status_lines(&own)
            .0
            .starts_with("own rules (Classic army) setup"));
    }
}
