//! The one-line text notation of a whole position (see `docs/stratego.md`,
//! "Position notation").

use std::fmt::Write;
use std::str::FromStr;

use game_traits::PlayerId;

use crate::action::Move;
use crate::chase::Chase;
use crate::error::StrategoError;
use crate::kind::KindSet;
use crate::position::PositionBuilder;
use crate::shuttle::Shuttle;
use crate::square::Square;
use crate::state::{Piece, Stratego};
use crate::variant::Variant;

mod rule_set;

use rule_set::read_rules;
pub(crate) use rule_set::write_rules;

/// A square of the notation, or the position error naming it.
fn square(text: &str) -> Result<Square, StrategoError> {
    text.parse()
        .map_err(|_| StrategoError::InvalidPosition("not a square name (a1..j10)"))
}

fn bad<T>(why: &'static str) -> Result<T, StrategoError> {
    Err(StrategoError::InvalidPosition(why))
}

fn number<T: FromStr>(text: &str) -> Result<T, StrategoError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return bad("not a number");
    }
    text.parse()
        .map_err(|_| StrategoError::InvalidPosition("a number out of range"))
}

pub(crate) fn piece_letter(variant: Variant, p: &Piece) -> char {
    let c = variant.letter(p.kind).unwrap_or('?');
    match p.owner {
        PlayerId::P0 => c,
        PlayerId::P1 => c.to_ascii_lowercase(),
    }
}

/// One square as the board is written.
pub(crate) enum SquareText {
    Empty,
    Lake,
    Piece {
        letter: char,
        moved: bool,
        revealed: bool,
        ruled_out: KindSet,
    },
}

/// Writes the ten ranks, the top one first, `/` between them and runs of
/// empty squares as their count, each piece as its letter, `>` if it has
/// moved, `*` if it is revealed and the kinds it is known not to be in
/// braces: the board of the position notation and of the information-state
/// string alike.
pub(crate) fn write_ranks(
    out: &mut String,
    variant: Variant,
    square: impl Fn(Square) -> SquareText,
) {
    for rank in (1..=10u8).rev() {
        if rank != 10 {
            out.push('/');
        }
        let mut empty = 0;
        for file in 0..10 {
            let Some(sq) = Square::from_file_rank(file, rank) else {
                continue;
            };
            let text = square(sq);
            if let SquareText::Empty = text {
                empty += 1;
                continue;
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
                empty = 0;
            }
            match text {
                SquareText::Empty => {}
                SquareText::Lake => out.push('~'),
                SquareText::Piece {
                    letter,
                    moved,
                    revealed,
                    ruled_out,
                } => {
                    out.push(letter);
                    if moved {
                        out.push('>');
                    }
                    if revealed {
                        out.push('*');
                    }
                    if !ruled_out.is_empty() {
                        out.push('{');
                        out.extend(ruled_out.iter().filter_map(|k| variant.letter(k)));
                        out.push('}');
                    }
                }
            }
        }
        if empty > 0 {
            let _ = write!(out, "{empty}");
        }
    }
}

fn write_board(out: &mut String, b: &PositionBuilder) {
    let variant = b.rules().variant;
    write_ranks(out, variant, |sq| match b.get(sq) {
        None if sq.is_lake() => SquareText::Lake,
        None => SquareText::Empty,
        Some(p) => SquareText::Piece {
            letter: piece_letter(variant, &p),
            moved: p.moved,
            revealed: p.revealed,
            ruled_out: p.ruled_out,
        },
    });
}

fn read_board(mut b: PositionBuilder, text: &str) -> Result<PositionBuilder, StrategoError> {
    let variant = b.rules().variant;
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 10 {
        return bad("the board must have 10 ranks separated by '/'");
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 10 - i as u8;
        let mut file = 0u8;
        let mut chars = rank_text.chars().peekable();
        while let Some(c) = chars.next() {
            let here = |file: u8| {
                Square::from_file_rank(file, rank).ok_or(StrategoError::InvalidPosition(
                    "a rank longer than 10 squares",
                ))
            };
            if let Some(d) = c.to_digit(10) {
                let mut n = d;
                if d == 1 && chars.peek() == Some(&'0') {
                    chars.next();
                    n = 10;
                }
                if n == 0 {
                    return bad("an empty run of 0 squares");
                }
                for _ in 0..n {
                    if here(file)?.is_lake() {
                        return bad("a lake written as an empty square");
                    }
                    file += 1;
                }
                continue;
            }
            let sq = here(file)?;
            file += 1;
            if c == '~' {
                if !sq.is_lake() {
                    return bad("water off the lakes");
                }
                continue;
            }
            if sq.is_lake() {
                return bad("a piece on a lake");
            }
            let owner = if c.is_ascii_uppercase() {
                PlayerId::P0
            } else {
                PlayerId::P1
            };
            let kind = variant.kind_of_letter(c.to_ascii_uppercase()).ok_or(
                StrategoError::InvalidPosition("a letter that names no piece"),
            )?;
            let mut piece = Piece::new(owner, kind);
            if chars.peek() == Some(&'>') {
                chars.next();
                piece.moved = true;
            }
            if chars.peek() == Some(&'*') {
                chars.next();
                piece.revealed = true;
            }
            if chars.peek() == Some(&'{') {
                chars.next();
                let mut set = KindSet::EMPTY;
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(l) => {
                            let k =
                                variant
                                    .kind_of_letter(l)
                                    .ok_or(StrategoError::InvalidPosition(
                                        "a letter that names no piece",
                                    ))?;
                            set = set.or(KindSet::of(k));
                        }
                        None => return bad("a '{' without its '}'"),
                    }
                }
                piece.ruled_out = set;
            }
            b = b.piece(sq, piece);
        }
        if file != 10 {
            return bad("a rank of other than 10 squares");
        }
    }
    Ok(b)
}

pub(crate) fn write_move(out: &mut String, m: Option<Move>) {
    let _ = match m {
        Some(m) => write!(out, "{m}"),
        None => write!(out, "-"),
    };
}

fn read_move(text: &str) -> Result<Option<Move>, StrategoError> {
    if text == "-" {
        return Ok(None);
    }
    let (from, to) = text.split_once('-').ok_or(StrategoError::InvalidPosition(
        "a move must be written from-to",
    ))?;
    Ok(Some(Move {
        from: square(from)?,
        to: square(to)?,
    }))
}

pub(crate) fn write_shuttle(out: &mut String, s: Option<Shuttle>) {
    let _ = match s {
        Some(s) => write!(
            out,
            "{}-{}@{}x{}{}",
            s.origin(),
            s.end(),
            s.piece(),
            s.moves(),
            if s.last_move_back() { '<' } else { '>' }
        ),
        None => write!(out, "-"),
    };
}

fn read_shuttle(text: &str) -> Result<Option<Shuttle>, StrategoError> {
    if text == "-" {
        return Ok(None);
    }
    let shape = StrategoError::InvalidPosition("a shuttle must be written a3-a7@a5x2<");
    let (back, rest) = match (text.strip_suffix('<'), text.strip_suffix('>')) {
        (Some(rest), _) => (true, rest),
        (_, Some(rest)) => (false, rest),
        _ => return Err(shape),
    };
    let (segment, rest) = rest.split_once('@').ok_or(shape.clone())?;
    let (piece, count) = rest.split_once('x').ok_or(shape.clone())?;
    let (origin, end) = segment.split_once('-').ok_or(shape)?;
    Shuttle::new(
        square(origin)?,
        square(end)?,
        square(piece)?,
        number(count)?,
        back,
    )
    .map(Some)
    .ok_or(StrategoError::InvalidPosition("an inconsistent shuttle"))
}

fn read_player(text: &str) -> Result<PlayerId, StrategoError> {
    match text {
        "P0" => Ok(PlayerId::P0),
        "P1" => Ok(PlayerId::P1),
        _ => bad("a player must be P0 or P1"),
    }
}

fn read_pair<T>(
    text: &str,
    read: fn(&str) -> Result<T, StrategoError>,
) -> Result<[T; 2], StrategoError> {
    let (a, b) = text.split_once(',').ok_or(StrategoError::InvalidPosition(
        "a pair must be written first,second",
    ))?;
    Ok([read(a)?, read(b)?])
}

fn read_chase(text: &str) -> Result<Option<Chase>, StrategoError> {
    if text == "-" {
        return Ok(None);
    }
    let shape = StrategoError::InvalidPosition("a chase must be written P1@e5:hash,hash");
    let (who, rest) = text.split_once('@').ok_or(shape.clone())?;
    let (evader, hashes) = rest.split_once(':').ok_or(shape)?;
    let positions = hashes
        .split(',')
        .map(|h| {
            if h.is_empty() || h.len() > 16 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
                return bad("a position hash must be up to 16 hex digits");
            }
            u64::from_str_radix(h, 16)
                .map_err(|_| StrategoError::InvalidPosition("a bad position hash"))
        })
        .collect::<Result<Vec<u64>, _>>()?;
    Ok(Some(Chase::new(
        read_player(who)?,
        square(evader)?,
        positions,
    )))
}

/// Writes a chase, `P1@e5:` and the position hashes, or `-`.
pub(crate) fn write_chase(out: &mut String, chase: Option<&Chase>) {
    match chase {
        None => out.push('-'),
        Some(c) => {
            let _ = write!(out, "{}@{}:", c.chaser(), c.evader());
            for (i, h) in c.positions().iter().enumerate() {
                let _ = write!(out, "{}{h:016x}", if i > 0 { "," } else { "" });
            }
        }
    }
}

/// Reads one player's hidden losses, `-` or `D{CEF}E{CD}` (each the
/// kind's letter in the owner's case, then the letters of the kinds ruled
/// out), into the builder.
fn read_hidden(
    mut b: PositionBuilder,
    player: PlayerId,
    text: &str,
) -> Result<PositionBuilder, StrategoError> {
    if text == "-" {
        return Ok(b);
    }
    let variant = b.rules().variant;
    let shape = StrategoError::InvalidPosition("a hidden loss must be written D{CEF}");
    let mut rest = text;
    while !rest.is_empty() {
        let mut chars = rest.chars();
        let letter = chars.next().ok_or(shape.clone())?;
        let owner_case = match player {
            PlayerId::P0 => letter.is_ascii_uppercase(),
            PlayerId::P1 => letter.is_ascii_lowercase(),
        };
        let kind = variant
            .kind_of_letter(letter.to_ascii_uppercase())
            .filter(|_| owner_case)
            .ok_or(StrategoError::InvalidPosition(
                "a letter that names no piece of that player",
            ))?;
        let body = chars.as_str().strip_prefix('{').ok_or(shape.clone())?;
        let (set_text, after) = body.split_once('}').ok_or(shape.clone())?;
        let mut set = KindSet::EMPTY;
        for l in set_text.chars() {
            let k = variant
                .kind_of_letter(l)
                .ok_or(StrategoError::InvalidPosition(
                    "a letter that names no piece",
                ))?;
            set = set.or(KindSet::of(k));
        }
        b = b.hidden_loss(player, kind, set);
        rest = after;
    }
    Ok(b)
}

impl PositionBuilder {
    /// The position in the one-line notation of [`Stratego::to_notation`].
    pub fn to_notation(&self) -> String {
        let mut out = String::new();
        write_rules(&mut out, self.rules());
        out.push(' ');
        write_board(&mut out, self);
        let (moves, no_attack) = self.counters();
        if self.is_setup() {
            out.push_str(" setup");
            if self.rules().fixed_first_player().is_none() && !self.is_undrawn() {
                let _ = write!(out, ":{}", self.turn());
            }
        } else {
            let _ = write!(out, " {}", self.turn());
        }
        let _ = write!(out, " {moves} {no_attack} ");
        let last = self.last_moves();
        write_move(&mut out, last[PlayerId::P0]);
        out.push(',');
        write_move(&mut out, last[PlayerId::P1]);
        out.push(' ');
        let shuttles = self.shuttles();
        write_shuttle(&mut out, shuttles[PlayerId::P0]);
        out.push(',');
        write_shuttle(&mut out, shuttles[PlayerId::P1]);
        out.push(' ');
        write_chase(&mut out, self.chase_ref());
        let hidden = self.hidden();
        if hidden.values().any(|l| !l.is_empty()) {
            let variant = self.rules().variant;
            for (p, list) in hidden.iter() {
                out.push(if p == PlayerId::P0 { ' ' } else { ',' });
                if list.is_empty() {
                    out.push('-');
                }
                for &(set, kind) in list {
                    out.push(piece_letter(variant, &Piece::new(p, kind)));
                    out.push('{');
                    out.extend(set.iter().filter_map(|k| variant.letter(k)));
                    out.push('}');
                }
            }
        }
        out
    }

    /// Reads the one-line notation of [`Stratego::to_notation`] into a
    /// builder (not yet validated as a whole: see
    /// [`PositionBuilder::build`]).
    pub fn from_notation(text: &str) -> Result<PositionBuilder, StrategoError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (rules, board, turn, moves, no_attack, last, shuttles, chase, hidden) = match fields[..]
        {
            [r, b, t, m, n, l, s, c] => (r, b, t, m, n, l, s, c, None),
            [r, b, t, m, n, l, s, c, h] => (r, b, t, m, n, l, s, c, Some(h)),
            _ => return bad("a position has 8 or 9 fields separated by spaces"),
        };
        let mut b = read_board(PositionBuilder::new(read_rules(rules)?), board)?;
        let drawn = b.rules().fixed_first_player().is_none();
        b = match turn.split_once(':') {
            None if turn == "setup" => b.setup_phase(true).undrawn(drawn),
            Some(("setup", p)) if drawn => b.setup_phase(true).to_move(read_player(p)?),
            Some(_) => return bad("setup:P0 or setup:P1 only where who starts is drawn"),
            None => b.to_move(read_player(turn)?),
        };
        if let Some(hidden) = hidden {
            let [h0, h1] = read_pair(hidden, |t| Ok(t.to_owned()))?;
            for (p, text) in [(PlayerId::P0, h0), (PlayerId::P1, h1)] {
                b = read_hidden(b, p, &text)?;
            }
        }
        let [l0, l1] = read_pair(last, read_move)?;
        let [s0, s1] = read_pair(shuttles, read_shuttle)?;
        Ok(b.moves(number(moves)?)
            .no_attack(number(no_attack)?)
            .last_move(PlayerId::P0, l0)
            .last_move(PlayerId::P1, l1)
            .shuttle(PlayerId::P0, s0)
            .shuttle(PlayerId::P1, s1)
            .chase(read_chase(chase)?))
    }
}

impl Stratego {
    /// The whole position on one line: rules, board, phase or player to
    /// move, move and no-attack counters, each side's last move and
    /// two-square shuttle, the chase. [`Stratego::from_notation`] reads it
    /// back to an equal state. The syntax (from `docs/stratego.md`):
    ///
    /// ```text
    /// <rules> <board> <turn> <moves> <no-attack> <last P0>,<last P1> <shuttle P0>,<shuttle P1> <chase>
    /// ```
    ///
    /// - rules: `srazhenie`, `czech` or `classic`, then the options that
    ///   differ from that preset in brackets: `classic[chase=1,no_attack=200]`
    ///   (keys `runner`, `long_attack`, `scout_diag`, `reveal`,
    ///   `two_square`, `chase`, `no_attack`, `stuck_loses`,
    ///   `both_stuck_draw`, `unreachable_draw`, `max_moves`; flags 0/1,
    ///   limits a number or `off`);
    /// - board: ranks 10 down to 1 separated by `/`, each file `a`..`j`: a
    ///   digit run for empty squares, `~` for water, a piece as its setup
    ///   letter ([`Variant::letter`]: `B` mine, `M` flag, `C`.. the ranks
    ///   upwards), upper case for the first player, lower case for the
    ///   second, then `>` if it has moved, `*` if its opponent knows its
    ///   kind, `{..}` the letters of the kinds it is known not to be;
    /// - turn: `P0` or `P1` to move in play, or `setup` while the armies are
    ///   being placed (the pieces on the board are the placements so far);
    /// - last moves `e4-e5` or `-`; shuttles `a3-a7@a5x2<`: first move
    ///   a3-a7, the piece now on a5 after 2 moves, the last one back (`<`)
    ///   or out (`>`), or `-`; the chase `P1@e5:` and the position hashes in
    ///   hex separated by commas, or `-`.
    ///
    /// The end of the game is not written: it is the one the position has
    /// reached.
    ///
    /// ```
    /// use game_traits::Game;
    /// use stratego_core::{Rules, Stratego};
    /// let game = Stratego::new(&Rules::classic()).unwrap();
    /// let text = game.to_notation();
    /// assert_eq!(text, "classic 10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/10 setup 0 0 -,- -,- -");
    /// assert_eq!(Stratego::from_notation(&text).unwrap(), game);
    /// ```
    pub fn to_notation(&self) -> String {
        PositionBuilder::from(self).to_notation()
    }

    /// Reads a position in the notation of [`Stratego::to_notation`]; a
    /// typed error ([`StrategoError::InvalidPosition`]) on any malformed
    /// or inconsistent text.
    pub fn from_notation(text: &str) -> Result<Stratego, StrategoError> {
        PositionBuilder::from_notation(text)?.build()
    }
}

impl FromStr for Stratego {
    type Err = StrategoError;
    fn from_str(text: &str) -> Result<Stratego, StrategoError> {
        Stratego::from_notation(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::Kind;

    #[test]
    fn every_kind_has_a_letter_in_its_rule_set() {
        for v in Variant::ALL {
            for k in v.kinds() {
                assert_eq!(v.kind_of_letter(v.letter(k).unwrap()), Some(k));
            }
            assert!(Kind::ALL
                .iter()
                .all(|&k| v.count(k) > 0 || v.letter(k).is_none()));
        }
    }
}
