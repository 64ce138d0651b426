//! The battle line of one side: face-down and revealed cards in fighting
//! order.

use serde::{Deserialize, Serialize};

use crate::card::{Soldier, SOLDIERS};

/// Most cards a line can hold: every soldier of a colour.
pub const LINE_CAP: usize = SOLDIERS;

/// What both players see of one place in a line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SlotView {
    /// The card once revealed; `None` while face down.
    pub card: Option<Soldier>,
    /// Current health of a revealed card (0 while face down).
    pub health: u8,
    /// Health points given to a face-down card by health-1 cards (0 once
    /// revealed: they are then part of `health`).
    pub extra: u8,
    /// The face-down card was brought from the pile by a prayer (7, 11):
    /// both players saw it come from there (false once revealed).
    pub from_pile: bool,
}

/// The public view of a line: slot 0 fights first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
// Validated: a length past the slots would make `slots()` index out of range.
#[serde(try_from = "RawLineView")]
pub struct LineView {
    len: u8,
    slots: [SlotView; LINE_CAP],
}

/// The unchecked shape of [`LineView`].
#[derive(Deserialize)]
struct RawLineView {
    len: u8,
    slots: [SlotView; LINE_CAP],
}

impl TryFrom<RawLineView> for LineView {
    type Error = &'static str;
    fn try_from(raw: RawLineView) -> Result<Self, &'static str> {
        let line = LineView {
            len: raw.len,
            slots: raw.slots,
        };
        if line.is_well_formed() {
            Ok(line)
        } else {
            Err("malformed line")
        }
    }
}

impl Default for LineView {
    fn default() -> Self {
        LineView {
            len: 0,
            slots: [SlotView::default(); LINE_CAP],
        }
    }
}

impl LineView {
    /// Number of cards in the line.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the line is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The slots in fighting order.
    pub fn slots(&self) -> &[SlotView] {
        &self.slots[..self.len()]
    }

    /// Number of face-down slots holding a card brought from the pile.
    pub(crate) fn brought_from_pile(&self) -> usize {
        self.slots().iter().filter(|s| s.from_pile).count()
    }

    /// Health of the first slot: 0 when the line is empty, since unused
    /// slots are blank (a well-formed line; deserialising checks it).
    pub(crate) fn front_health(&self) -> u8 {
        self.slots[0].health
    }

    pub(crate) fn slot_mut(&mut self, i: usize) -> Option<&mut SlotView> {
        self.slots[..self.len as usize].get_mut(i)
    }

    pub(crate) fn push(&mut self) -> bool {
        if self.len() < LINE_CAP {
            self.slots[self.len()] = SlotView::default();
            self.len += 1;
            true
        } else {
            false
        }
    }

    /// Removes slot `i`, closing the gap; the hidden card array must be
    /// shifted alike ([`remove_card`]).
    pub(crate) fn remove(&mut self, i: usize) {
        let n = self.len();
        if i < n {
            // Slots past the length are blank, so shifting the whole array
            // is right; its fixed size lets the compiler inline the move of
            // the front card, which is what fights remove.
            self.slots.copy_within(i + 1.., i);
            self.slots[LINE_CAP - 1] = SlotView::default();
            self.len -= 1;
        }
    }

    pub(crate) fn clear(&mut self) {
        *self = LineView::default();
    }

    /// Checks the raw fields: length in range, unused slots blank.
    pub(crate) fn is_well_formed(&self) -> bool {
        self.len() <= LINE_CAP
            && self.slots[self.len()..]
                .iter()
                .all(|s| *s == SlotView::default())
            && self.slots().iter().all(|s| match s.card {
                Some(_) => s.health >= 1 && s.extra == 0 && !s.from_pile,
                None => s.health == 0,
            })
    }
}

/// Removes entry `i` of the hidden card array of a line of length `len`.
pub(crate) fn remove_card(cards: &mut [Soldier; LINE_CAP], len: usize, i: usize) {
    if i < len && len <= LINE_CAP {
        cards.copy_within(i + 1.., i);
        cards[LINE_CAP - 1] = Soldier::default();
    }
}
