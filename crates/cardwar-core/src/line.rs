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

/// Room for the slots of a line: its cards start at a moving front, so
/// that a fight removes the first card without moving the others; pushing
/// at the end of the room moves them back to the start first (rare: it
/// takes eight cards dead and more brought by prayers in one battle).
const ROOM: usize = LINE_CAP + 8;

/// The public view of a line: slot 0 fights first.
///
/// Its serde form is the length and the 24 slots in fighting order, blank
/// past the length; deserialising checks it (see [`LineView::slots`]).
#[derive(Clone, Copy)]
pub struct LineView {
    /// Where slot 0 lies in `room`.
    front: u8,
    len: u8,
    /// Face-down slots brought from the pile (kept so that the unseen
    /// count is tightened without walking the line).
    brought: u8,
    /// The slots from `front` on; every place outside them is blank.
    room: [SlotView; ROOM],
}

/// The serde form of [`LineView`] (also its unchecked shape).
#[derive(Debug, Serialize, Deserialize)]
struct RawLineView {
    len: u8,
    slots: [SlotView; LINE_CAP],
}

impl From<LineView> for RawLineView {
    fn from(line: LineView) -> Self {
        let mut slots = [SlotView::default(); LINE_CAP];
        slots[..line.len()].copy_from_slice(line.slots());
        RawLineView {
            len: line.len,
            slots,
        }
    }
}

impl TryFrom<RawLineView> for LineView {
    type Error = &'static str;
    fn try_from(raw: RawLineView) -> Result<Self, &'static str> {
        let len = raw.len as usize;
        // Validated: a length past the slots would make `slots()` index out
        // of range, and slots past it must be blank.
        let well_formed = len <= LINE_CAP
            && raw.slots[len..].iter().all(|s| *s == SlotView::default())
            && raw.slots[..len].iter().all(slot_is_consistent);
        if !well_formed {
            return Err("malformed line");
        }
        let mut line = LineView::default();
        line.room[..LINE_CAP].copy_from_slice(&raw.slots);
        line.len = raw.len;
        line.brought = raw.slots.iter().filter(|s| s.from_pile).count() as u8;
        Ok(line)
    }
}

impl Serialize for LineView {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RawLineView::from(*self).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for LineView {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = RawLineView::deserialize(deserializer)?;
        LineView::try_from(raw).map_err(serde::de::Error::custom)
    }
}

/// Lines are equal when their slots in fighting order are: where the front
/// lies in the room is not part of the line.
impl PartialEq for LineView {
    fn eq(&self, other: &Self) -> bool {
        self.slots() == other.slots()
    }
}

impl Eq for LineView {}

impl std::hash::Hash for LineView {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.slots().hash(state);
    }
}

impl std::fmt::Debug for LineView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineView")
            .field("len", &self.len)
            .field("slots", &self.slots())
            .finish()
    }
}

/// A slot's fields agree: a revealed card has health and no face-down
/// marks, a face-down one has no health yet.
fn slot_is_consistent(s: &SlotView) -> bool {
    match s.card {
        Some(_) => s.health >= 1 && s.extra == 0 && !s.from_pile,
        None => s.health == 0,
    }
}

impl Default for LineView {
    fn default() -> Self {
        LineView {
            front: 0,
            len: 0,
            brought: 0,
            room: [SlotView::default(); ROOM],
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
        let front = self.front as usize;
        &self.room[front..front + self.len()]
    }

    /// Number of face-down slots holding a card brought from the pile.
    pub(crate) fn brought_from_pile(&self) -> usize {
        self.brought as usize
    }

    /// Health of the first slot: 0 when the line is empty, since places
    /// outside the slots are blank.
    pub(crate) fn front_health(&self) -> u8 {
        self.room[self.front as usize % ROOM].health
    }

    /// Sets the health of the first slot (nothing for an empty line).
    pub(crate) fn set_front_health(&mut self, health: u8) {
        if self.len > 0 {
            self.room[self.front as usize % ROOM].health = health;
        }
    }

    /// The slot `i` places from the front, if the line is that long.
    fn slot_mut(&mut self, i: usize) -> Option<&mut SlotView> {
        let front = self.front as usize;
        let len = self.len();
        self.room[front..front + len].get_mut(i)
    }

    /// Reveals slot `i` as `card` at its strength plus the points given
    /// to it face down. Returns whether the card came from the pile, or
    /// `None` if there is no such slot face down.
    pub(crate) fn reveal(&mut self, i: usize, card: Soldier) -> Option<bool> {
        let slot = self.slot_mut(i).filter(|s| s.card.is_none())?;
        slot.card = Some(card);
        slot.health = card.strength().saturating_add(slot.extra);
        slot.extra = 0;
        let from_pile = std::mem::take(&mut slot.from_pile);
        self.brought -= from_pile as u8;
        Some(from_pile)
    }

    /// Gives a health point to slot `i`: to its health once revealed, as
    /// an extra point while face down.
    pub(crate) fn give_point(&mut self, i: usize) {
        if let Some(slot) = self.slot_mut(i) {
            if slot.card.is_some() {
                slot.health = slot.health.saturating_add(1);
            } else {
                slot.extra = slot.extra.saturating_add(1);
            }
        }
    }

    /// Adds a blank slot at the end; false when the line is full.
    pub(crate) fn push(&mut self) -> bool {
        if self.len() >= LINE_CAP {
            return false;
        }
        if self.front as usize + self.len() >= ROOM {
            self.back_to_start();
        }
        // The place is blank already, as every place outside the slots.
        self.len += 1;
        true
    }

    /// Adds `slot` at the end; false when the line is full.
    pub(crate) fn push_slot(&mut self, slot: SlotView) -> bool {
        if self.len() >= LINE_CAP {
            return false;
        }
        if self.front as usize + self.len() >= ROOM {
            self.back_to_start();
        }
        self.room[(self.front as usize + self.len()) % ROOM] = slot;
        self.len += 1;
        self.brought += slot.from_pile as u8;
        true
    }

    /// Moves the slots back to the start of the room, blanking the places
    /// left behind. Out of line: it is rare, and inlined it would make
    /// every push save more registers.
    #[cold]
    #[inline(never)]
    fn back_to_start(&mut self) {
        let (front, len) = (self.front as usize, self.len());
        self.room.copy_within(front..front + len, 0);
        self.room[len..].fill(SlotView::default());
        self.front = 0;
    }

    /// Removes the first slot by moving the front: nothing else moves.
    #[inline]
    pub(crate) fn remove_front(&mut self) {
        if self.len == 0 {
            return;
        }
        let front = self.front as usize % ROOM;
        self.brought -= self.room[front].from_pile as u8;
        self.room[front] = SlotView::default();
        self.len -= 1;
        // An emptied line starts again at the start of the room.
        self.front = if self.len == 0 { 0 } else { self.front + 1 };
    }

    /// Removes slot `i`, closing the gap; the hidden card array must be
    /// shifted alike ([`remove_card`]). The first slot goes by moving the
    /// front: nothing else moves.
    pub(crate) fn remove(&mut self, i: usize) {
        let (front, len) = (self.front as usize, self.len());
        if i >= len {
            return;
        }
        if i == 0 {
            self.remove_front();
        } else {
            self.brought -= self.room[front + i].from_pile as u8;
            self.room.copy_within(front + i + 1..front + len, front + i);
            self.room[front + len - 1] = SlotView::default();
            self.len -= 1;
        }
    }

    pub(crate) fn clear(&mut self) {
        *self = LineView::default();
    }

    /// Checks the fields: every slot consistent, the count of slots from
    /// the pile right, places outside the slots blank.
    pub(crate) fn is_well_formed(&self) -> bool {
        let (front, len) = (self.front as usize, self.len());
        len <= LINE_CAP
            && front + len <= ROOM
            && self.room[..front]
                .iter()
                .chain(&self.room[front + len..])
                .all(|s| *s == SlotView::default())
            && self.slots().iter().all(slot_is_consistent)
            && self.slots().iter().filter(|s| s.from_pile).count() == self.brought as usize
    }
}

/// Removes entry `i` of the hidden card array of a line of length `len`.
pub(crate) fn remove_card(cards: &mut [Soldier; LINE_CAP], len: usize, i: usize) {
    if i < len && len <= LINE_CAP {
        cards.copy_within(i + 1.., i);
        cards[LINE_CAP - 1] = Soldier::default();
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// One change to a line, as the rules make them.
    #[derive(Clone, Debug)]
    enum Op {
        Push,
        PushFromPile,
        Reveal(usize, u8),
        GivePoint(usize),
        SetFrontHealth(u8),
        RemoveFront,
        Remove(usize),
        Clear,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => Just(Op::Push),
            2 => Just(Op::PushFromPile),
            3 => (0..26usize, 0..24u8).prop_map(|(i, c)| Op::Reveal(i, c)),
            1 => (0..26usize).prop_map(Op::GivePoint),
            1 => (1..20u8).prop_map(Op::SetFrontHealth),
            4 => Just(Op::RemoveFront),
            1 => (0..26usize).prop_map(Op::Remove),
            1 => Just(Op::Clear),
        ]
    }

    /// The obviously right line: a vector in fighting order.
    fn apply(line: &mut LineView, model: &mut Vec<SlotView>, op: &Op) {
        match *op {
            Op::Push | Op::PushFromPile => {
                let slot = SlotView {
                    from_pile: matches!(op, Op::PushFromPile),
                    ..SlotView::default()
                };
                let pushed = if slot.from_pile {
                    line.push_slot(slot)
                } else {
                    line.push()
                };
                assert_eq!(pushed, model.len() < LINE_CAP);
                if pushed {
                    model.push(slot);
                }
            }
            Op::Reveal(i, c) => {
                let card = Soldier::new(c).unwrap();
                let expected = match model.get_mut(i) {
                    Some(s) if s.card.is_none() => {
                        let from_pile = s.from_pile;
                        *s = SlotView {
                            card: Some(card),
                            health: card.strength() + s.extra,
                            ..SlotView::default()
                        };
                        Some(from_pile)
                    }
                    _ => None,
                };
                assert_eq!(line.reveal(i, card), expected);
            }
            Op::GivePoint(i) => {
                if let Some(s) = model.get_mut(i) {
                    if s.card.is_some() {
                        s.health += 1;
                    } else {
                        s.extra += 1;
                    }
                }
                line.give_point(i);
            }
            Op::SetFrontHealth(h) => {
                // Only a revealed front card has health.
                if let Some(s) = model.first_mut().filter(|s| s.card.is_some()) {
                    s.health = h;
                    line.set_front_health(h);
                }
            }
            Op::RemoveFront => {
                if !model.is_empty() {
                    model.remove(0);
                }
                line.remove_front();
            }
            Op::Remove(i) => {
                if i < model.len() {
                    model.remove(i);
                }
                line.remove(i);
            }
            Op::Clear => {
                model.clear();
                line.clear();
            }
        }
    }

    /// The serde form of the model: its slots, blank past the length.
    fn model_json(model: &[SlotView]) -> serde_json::Value {
        let mut slots = [SlotView::default(); LINE_CAP];
        slots[..model.len()].copy_from_slice(model);
        serde_json::json!({ "len": model.len(), "slots": slots })
    }

    proptest! {
        #[test]
        fn line_matches_a_vector(ops in prop::collection::vec(op(), 0..300)) {
            let mut line = LineView::default();
            let mut model = Vec::new();
            for op in &ops {
                apply(&mut line, &mut model, op);
                prop_assert_eq!(line.slots(), &model[..]);
                prop_assert_eq!(line.len(), model.len());
                prop_assert_eq!(line.is_empty(), model.is_empty());
                prop_assert_eq!(
                    line.brought_from_pile(),
                    model.iter().filter(|s| s.from_pile).count()
                );
                prop_assert_eq!(line.front_health(), model.first().map_or(0, |s| s.health));
                prop_assert!(line.is_well_formed());
                let json = serde_json::to_value(line).unwrap();
                prop_assert_eq!(&json, &model_json(&model));
                let back: LineView = serde_json::from_value(json).unwrap();
                prop_assert_eq!(back, line);
                prop_assert_eq!(back.slots(), line.slots());
            }
        }

        #[test]
        fn tampered_lines_are_refused_exactly_when_malformed(
            len in 0..30usize,
            slots in prop::collection::vec(
                (prop::option::of(0..24u8), 0..3u8, 0..2u8, any::<bool>()),
                LINE_CAP,
            ),
        ) {
            let slots: Vec<SlotView> = slots
                .into_iter()
                .map(|(card, health, extra, from_pile)| SlotView {
                    card: card.and_then(Soldier::new),
                    health,
                    extra,
                    from_pile,
                })
                .collect();
            let json = serde_json::json!({ "len": len, "slots": slots });
            let valid = len <= LINE_CAP
                && slots[len..].iter().all(|s| *s == SlotView::default())
                && slots[..len].iter().all(|s| match s.card {
                    Some(_) => s.health >= 1 && s.extra == 0 && !s.from_pile,
                    None => s.health == 0,
                });
            match serde_json::from_value::<LineView>(json.clone()) {
                Ok(line) => {
                    prop_assert!(valid, "accepted {}", json);
                    prop_assert!(line.is_well_formed());
                    prop_assert_eq!(line.slots(), &slots[..len]);
                    prop_assert_eq!(serde_json::to_value(line).unwrap(), json);
                }
                Err(_) => prop_assert!(!valid, "refused {}", json),
            }
        }
    }

    #[test]
    fn a_long_battle_moves_the_slots_back_to_the_start() {
        // Twenty pushes and removals walk the front past the room's end:
        // the line must stay whole.
        let mut line = LineView::default();
        let mut model = Vec::new();
        for _ in 0..3 {
            apply(&mut line, &mut model, &Op::Push);
        }
        for k in 0..40 {
            apply(&mut line, &mut model, &Op::PushFromPile);
            apply(&mut line, &mut model, &Op::Reveal(0, (k % 24) as u8));
            apply(&mut line, &mut model, &Op::RemoveFront);
            assert_eq!(line.slots(), &model[..]);
            assert!(line.is_well_formed());
        }
    }
}
