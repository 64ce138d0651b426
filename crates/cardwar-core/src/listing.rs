//! The legal actions: deciding one action without listing, and listing
//! them all in id order (the placements of a hand, or the cards a draw can
//! bring, without a loop over the cards).

use crate::action::Action;
use crate::card::{byte_count, CardSet, Soldier, SOLDIERS};
use crate::state::{CardWar, LayKind, Phase};

/// Bytes of a card set that hold soldiers.
const BYTES: usize = SOLDIERS / 8;

/// For each byte `i` of a card set (soldiers `8i..8i + 8`) and each value
/// `b` of that byte, the actions on those cards in id order, padded with
/// junk to eight. Listing a set is then three fixed 16-byte copies, each
/// kept only up to the byte's card count: no per-card work and no branch on
/// the (random) set. Two tables of 12 KiB each.
struct ByteRows([[[Action; 8]; 256]; BYTES]);

/// The placements of the cards of a hand.
static PLACES: ByteRows = ByteRows::new(true);
/// The draws of the cards of a pile.
static DRAWS: ByteRows = ByteRows::new(false);

impl ByteRows {
    /// The table of `Place` actions, or of `Draw` actions.
    const fn new(place: bool) -> ByteRows {
        let mut rows = [[[Action::EndLine; 8]; 256]; BYTES];
        let mut i = 0;
        while i < BYTES {
            let mut b = 0;
            while b < 256 {
                let (mut bit, mut k) = (0, 0);
                while bit < 8 {
                    if b & (1 << bit) != 0 {
                        if let Some(card) = Soldier::new((8 * i + bit) as u8) {
                            rows[i][b][k] = if place {
                                Action::Place(card)
                            } else {
                                Action::Draw(card)
                            };
                        }
                        k += 1;
                    }
                    bit += 1;
                }
                b += 1;
            }
            i += 1;
        }
        ByteRows(rows)
    }

    /// Appends the actions on the cards of `set`, in id order.
    fn push(&self, out: &mut Vec<Action>, set: CardSet) {
        // Room for three whole rows first (one capacity check and a block
        // fill), then each row copied in at the end of the previous one's
        // cards, then the junk cut off.
        let start = out.len();
        out.resize(start + 8 * BYTES, Action::Place(Soldier::default()));
        let mut end = start;
        for (row, byte) in self.0.iter().zip(set.bits().to_le_bytes()) {
            if let Some(room) = out.get_mut(end..end + 8) {
                room.copy_from_slice(&row[byte as usize]);
            }
            end += byte_count(byte) as usize;
        }
        out.truncate(end);
    }
}

impl CardWar {
    /// Why `action` is not legal now, or `None` when it is.
    pub(crate) fn illegal_reason(&self, action: Action) -> Option<&'static str> {
        const NOT_IN_HAND: &str = "that soldier is not in the hand";
        const NOT_IN_PILE: &str = "that soldier is not in the pile";
        const BAD_DIE: &str = "a die shows 1 to 6";
        let ok = |legal: bool, why: &'static str| (!legal).then_some(why);
        match (self.public.phase, action) {
            (Phase::Over, _) => Some("the game is over"),
            (Phase::Aside { colour, .. }, Action::Draw(c)) => {
                ok(self.hidden(colour).hand.contains(c), NOT_IN_HAND)
            }
            (Phase::Aside { .. }, _) => Some("a card to put aside is due"),
            (Phase::Initiative { first_die }, Action::Die(d)) => match d {
                1..=6 => ok(d != first_die, "equal initiative dice are rolled again"),
                _ => Some(BAD_DIE),
            },
            (Phase::DrawRoll { .. } | Phase::PrayerRoll { .. }, Action::Dice(s)) => {
                ok((2..=12).contains(&s), "two dice sum to 2 to 12")
            }
            (Phase::DrawRoll { .. } | Phase::PrayerRoll { .. }, _) => {
                Some("a roll of two dice is due")
            }
            (Phase::Draw { player, .. } | Phase::Reinforce { player, .. }, Action::Draw(c)) => {
                ok(self.hidden(player).pile.contains(c), NOT_IN_PILE)
            }
            (Phase::Draw { .. } | Phase::Reinforce { .. }, _) => {
                Some("a card from the pile is due")
            }
            (Phase::Lay { player, .. }, Action::Place(c)) => {
                ok(self.hidden(player).hand.contains(c), NOT_IN_HAND)
            }
            (Phase::Lay { kind, .. }, Action::EndLine) => ok(
                kind == LayKind::FreeAttack,
                "only an attack that may keep a reserve can stop early",
            ),
            (Phase::Lay { .. }, _) => Some("a card of the line is to be laid"),
            (Phase::Pray { .. }, Action::Pray | Action::Decline) => None,
            (Phase::Pray { .. }, _) => Some("the prayer question is to be answered"),
            (
                Phase::ParatrooperRoll { .. } | Phase::AttackDie | Phase::DefenceDie,
                Action::Die(d),
            ) => ok((1..=6).contains(&d), BAD_DIE),
            (
                Phase::Initiative { .. }
                | Phase::ParatrooperRoll { .. }
                | Phase::AttackDie
                | Phase::DefenceDie,
                _,
            ) => Some("a die roll is due"),
        }
    }

    /// A uniform legal action of a decision, `None` elsewhere (see
    /// `Game::sample_legal`).
    pub(crate) fn sample_action<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        match self.public.phase {
            Phase::Lay { player, kind, .. } => {
                // The public count equals the hand's size in every accepted
                // state, and reading it keeps the count off the path to the
                // random index (as `uniform_card` does).
                let n = u32::from(self.public.sides[player].hand);
                let choices = n + u32::from(kind == LayKind::FreeAttack);
                let k = crate::dice::below(rng, choices);
                if k == n && kind == LayKind::FreeAttack {
                    Some(Action::EndLine)
                } else {
                    self.hidden(player).hand.nth(k as usize).map(Action::Place)
                }
            }
            Phase::Pray { .. } => Some(if crate::dice::below(rng, 2) == 0 {
                Action::Pray
            } else {
                Action::Decline
            }),
            _ => None,
        }
    }

    /// Lists the legal actions in id order.
    pub(crate) fn list_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        // Playouts list the legal actions of decisions only, placements
        // above all: the chance nodes' lists are out of line, so that this
        // function saves few registers.
        match self.public.phase {
            Phase::Lay { player, kind, .. } => {
                PLACES.push(out, self.hidden(player).hand);
                if kind == LayKind::FreeAttack {
                    out.push(Action::EndLine);
                }
            }
            Phase::Pray { .. } => out.extend([Action::Pray, Action::Decline]),
            Phase::Over => {}
            _ => self.list_chance(out),
        }
    }

    /// Lists the outcomes of a chance node in id order.
    #[inline(never)]
    fn list_chance(&self, out: &mut Vec<Action>) {
        match self.public.phase {
            Phase::Aside { colour, .. } => DRAWS.push(out, self.hidden(colour).hand),
            Phase::Initiative { first_die } => {
                out.extend((1..=6).filter(|&d| d != first_die).map(Action::Die))
            }
            Phase::DrawRoll { .. } | Phase::PrayerRoll { .. } => {
                out.extend((2..=12).map(Action::Dice))
            }
            Phase::Draw { player, .. } | Phase::Reinforce { player, .. } => {
                DRAWS.push(out, self.hidden(player).pile)
            }
            Phase::ParatrooperRoll { .. } | Phase::AttackDie | Phase::DefenceDie => {
                out.extend((1..=6).map(Action::Die))
            }
            Phase::Lay { .. } | Phase::Pray { .. } | Phase::Over => {}
        }
    }
}
