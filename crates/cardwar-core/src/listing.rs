//! Listing the actions on a set of cards (the legal placements, or the
//! cards a draw can bring) without a loop over the cards.

use crate::action::Action;
use crate::card::{byte_count, CardSet, Soldier, SOLDIERS};

/// Bytes of a card set that hold soldiers.
const BYTES: usize = SOLDIERS / 8;

/// For each byte `i` of a card set (soldiers `8i..8i + 8`) and each value
/// `b` of that byte, the actions on those cards in id order, padded with
/// junk to eight. Listing a set is then three fixed 16-byte copies, each
/// kept only up to the byte's card count: no per-card work and no branch on
/// the (random) set. Two tables of 12 KiB each.
pub(crate) struct ByteRows([[[Action; 8]; 256]; BYTES]);

/// The placements of the cards of a hand.
pub(crate) static PLACES: ByteRows = ByteRows::new(true);
/// The draws of the cards of a pile.
pub(crate) static DRAWS: ByteRows = ByteRows::new(false);

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
    pub(crate) fn push(&self, out: &mut Vec<Action>, set: CardSet) {
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
