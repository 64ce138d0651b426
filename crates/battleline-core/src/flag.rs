//! The nine flags: each with two sides of slots, an environment, and who
//! completed first.

use std::fmt;

use game_traits::{PerPlayer, PlayerId};
use serde::{Deserialize, Serialize};

use crate::card::{Card, CardSet, Tactic};
use crate::formation::{
    part_strength, part_strength_unseen, Environment, FormationOrder, Part, Strength,
};

/// Number of flags.
pub const FLAGS: usize = 9;

/// One of the nine flags, 0..9 from left to right.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct FlagId(u8);

impl TryFrom<u8> for FlagId {
    type Error = &'static str;
    fn try_from(i: u8) -> Result<Self, &'static str> {
        FlagId::new(i as usize).ok_or("no flag has that index")
    }
}

impl From<FlagId> for u8 {
    fn from(f: FlagId) -> u8 {
        f.0
    }
}

impl FlagId {
    /// The flag with index `index` (0..9).
    pub const fn new(index: usize) -> Option<FlagId> {
        if index < FLAGS {
            Some(FlagId(index as u8))
        } else {
            None
        }
    }

    /// The index 0..9.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// All flags from left to right.
    pub fn all() -> impl Iterator<Item = FlagId> {
        (0..FLAGS as u8).map(FlagId)
    }
}

impl fmt::Display for FlagId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "F{}", self.0 + 1)
    }
}

impl fmt::Debug for FlagId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a card cannot be placed on or taken from a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    /// The flag is claimed: closed to cards and tactics.
    #[error("the flag is claimed")]
    Claimed,
    /// The card has no slot (Fog, Mud, guile tactics).
    #[error("{0} does not go into a slot")]
    NotASlotCard(Card),
    /// The card is already at this flag.
    #[error("{0} is already at this flag")]
    Duplicate(Card),
    /// No free slot on that side.
    #[error("no free slot")]
    Full,
    /// The card is not on that side.
    #[error("{0} is not on that side")]
    Missing(Card),
    /// Fog or Mud is already there.
    #[error("the environment card is already there")]
    EnvironmentTaken,
}

/// One player's cards at a flag, in the order played.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Vec<Card>", into = "Vec<Card>")]
pub struct Side {
    /// The cards in the order placed; past `len` always `FILLER`, so
    /// that the derived equality compares only the cards there.
    cards: [Card; 4],
    /// The number of cards.
    len: u8,
    /// The cards as bits over card indices: every slot card's index is
    /// below 64, so one word holds them; derived from `cards`, kept so
    /// that claims and strengths need no pass over the cards.
    mask: u64,
    /// The formation summary of the cards, derived likewise.
    part: Part,
}

/// What fills a side's unused places (never a slot card).
const FILLER: Card = Card::tactic(Tactic::Fog);

impl Default for Side {
    fn default() -> Side {
        Side {
            cards: [FILLER; 4],
            len: 0,
            mask: 0,
            part: Part::default(),
        }
    }
}

impl TryFrom<Vec<Card>> for Side {
    type Error = &'static str;
    fn try_from(cards: Vec<Card>) -> Result<Self, &'static str> {
        if cards.len() > 4 || Part::of(&cards).is_none() {
            return Err("more than four cards, a card twice or a card without a slot on a side");
        }
        let mut s = Side::default();
        for c in cards {
            s.push(c);
        }
        Ok(s)
    }
}

impl From<Side> for Vec<Card> {
    fn from(s: Side) -> Vec<Card> {
        s.iter().collect()
    }
}

impl Side {
    /// Number of cards.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the side is empty.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The cards in the order they were placed.
    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        self.cards[..self.len()].iter().copied()
    }

    /// The cards as a fixed array and a length (no allocation).
    pub fn to_array(&self) -> ([Card; 4], usize) {
        (self.cards, self.len())
    }

    /// Whether `card` is on this side.
    pub fn contains(&self, card: Card) -> bool {
        card.index() < 64 && self.mask >> card.index() & 1 == 1
    }

    /// The cards as a set.
    pub fn cards(&self) -> CardSet {
        CardSet::from_low_bits(self.mask)
    }

    /// The cards as bits over card indices (all below 64).
    pub(crate) const fn bits(&self) -> u64 {
        self.mask
    }

    pub(crate) fn part(&self) -> Part {
        self.part
    }

    fn refresh(&mut self) {
        let cards = &self.cards[..self.len()];
        // A side only ever holds distinct slot cards.
        self.part = Part::of(cards).unwrap_or_default();
    }

    fn push(&mut self, card: Card) {
        // Only slot cards (index below 64) go on a side.
        if card.index() >= 64 {
            return;
        }
        if let Some(slot) = self.cards.get_mut(self.len as usize) {
            *slot = card;
            self.len += 1;
            self.mask |= 1 << card.index();
            self.refresh();
        }
    }

    fn take(&mut self, card: Card) -> bool {
        let n = self.len();
        match self.cards[..n].iter().position(|&c| c == card) {
            Some(i) => {
                self.cards.copy_within(i + 1..n, i);
                self.cards[n - 1] = FILLER;
                self.len -= 1;
                self.mask &= !(1 << card.index());
                self.refresh();
                true
            }
            None => false,
        }
    }
}

impl CardSet {
    /// The set whose card indices are the set bits of `bits` (cards 0..64:
    /// the troops and the four morale tactics).
    pub(crate) fn from_low_bits(bits: u64) -> CardSet {
        CardSet::try_from(u128::from(bits)).unwrap_or_default()
    }
}

/// A flag: both sides, Fog and Mud, who completed first, who claimed it.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawFlag")]
pub struct Flag {
    /// Per player, his side of the flag.
    sides: PerPlayer<Side>,
    /// Whether Fog lies beside the flag.
    fog: bool,
    /// Whether Mud lies beside the flag.
    mud: bool,
    /// Of the complete sides, the one completed first.
    first_complete: Option<PlayerId>,
    /// Who claimed the flag.
    claimed: Option<PlayerId>,
    /// Who laid Fog: recorded only when the rules let Redeploy and
    /// Deserter take it, so default states serialise as they always did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fog_by: Option<PlayerId>,
    /// Who laid Mud, recorded as `fog_by`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mud_by: Option<PlayerId>,
}

#[derive(Deserialize)]
struct RawFlag {
    sides: PerPlayer<Side>,
    fog: bool,
    mud: bool,
    first_complete: Option<PlayerId>,
    claimed: Option<PlayerId>,
    #[serde(default)]
    fog_by: Option<PlayerId>,
    #[serde(default)]
    mud_by: Option<PlayerId>,
}

impl TryFrom<RawFlag> for Flag {
    type Error = &'static str;
    fn try_from(r: RawFlag) -> Result<Self, &'static str> {
        let f = Flag {
            sides: r.sides,
            fog: r.fog,
            mud: r.mud,
            first_complete: r.first_complete,
            claimed: r.claimed,
            fog_by: r.fog_by,
            mud_by: r.mud_by,
        };
        f.check()?;
        Ok(f)
    }
}

impl Flag {
    /// An empty flag.
    pub fn new() -> Flag {
        Flag::default()
    }

    /// Fog and Mud at this flag.
    pub const fn env(&self) -> Environment {
        Environment {
            fog: self.fog,
            mud: self.mud,
        }
    }

    /// `player`'s side.
    pub fn side(&self, player: PlayerId) -> &Side {
        &self.sides[player]
    }

    /// Who laid Fog (`None` without Fog, and always under the default
    /// [`EnvironmentTactics::Fixed`](crate::EnvironmentTactics), where
    /// nobody needs to know).
    pub const fn fog_owner(&self) -> Option<PlayerId> {
        self.fog_by
    }

    /// Who laid Mud (recorded as for [`Flag::fog_owner`]).
    pub const fn mud_owner(&self) -> Option<PlayerId> {
        self.mud_by
    }

    /// Who claimed the flag.
    pub const fn claimed(&self) -> Option<PlayerId> {
        self.claimed
    }

    /// Of the complete sides, the one completed first (`None` when no side
    /// is complete).
    pub const fn first_complete(&self) -> Option<PlayerId> {
        self.first_complete
    }

    /// Whether `player` has a complete formation here.
    pub fn is_complete(&self, player: PlayerId) -> bool {
        self.side(player).len() == self.env().slots()
    }

    /// Whether `player` may put a card here.
    pub fn has_free_slot(&self, player: PlayerId) -> bool {
        self.claimed.is_none() && self.side(player).len() < self.env().slots()
    }

    /// Whether `card` is in a slot at this flag.
    pub fn contains(&self, card: Card) -> bool {
        self.sides[PlayerId::P0].contains(card) || self.sides[PlayerId::P1].contains(card)
    }

    /// The strength of `player`'s formation when complete.
    pub fn strength(&self, player: PlayerId, order: FormationOrder) -> Option<Strength> {
        part_strength(&self.side(player).part(), self.env(), order)
    }

    /// The strength of `player`'s formation when complete and its wilds may
    /// only become troop cards of `unseen` (those not visible on the table,
    /// [`WildCards::UnseenOnly`](crate::WildCards)); `None` also when they
    /// cannot all become one.
    pub fn strength_unseen(
        &self,
        player: PlayerId,
        order: FormationOrder,
        unseen: CardSet,
    ) -> Option<Strength> {
        part_strength_unseen(
            &self.side(player).part(),
            self.env(),
            order,
            unseen.troop_bits(),
        )
    }

    /// Puts `card` into a free slot on `player`'s side. Completing the side
    /// records who completed first.
    pub fn place(&mut self, player: PlayerId, card: Card) -> Result<(), FlagError> {
        if self.claimed.is_some() {
            return Err(FlagError::Claimed);
        }
        if !card.is_slot_card() {
            return Err(FlagError::NotASlotCard(card));
        }
        if self.contains(card) {
            return Err(FlagError::Duplicate(card));
        }
        if !self.has_free_slot(player) {
            return Err(FlagError::Full);
        }
        self.sides[player].push(card);
        if self.is_complete(player) && self.first_complete.is_none() {
            self.first_complete = Some(player);
        }
        Ok(())
    }

    /// Takes `card` from `player`'s side (Redeploy, Deserter, Traitor): the
    /// side is incomplete again, and completing it again counts anew.
    pub fn take(&mut self, player: PlayerId, card: Card) -> Result<(), FlagError> {
        if self.claimed.is_some() {
            return Err(FlagError::Claimed);
        }
        if !self.sides[player].take(card) {
            return Err(FlagError::Missing(card));
        }
        if self.first_complete == Some(player) {
            let o = player.other();
            self.first_complete = self.is_complete(o).then_some(o);
        }
        Ok(())
    }

    /// Lays Fog beside the flag.
    pub fn add_fog(&mut self) -> Result<(), FlagError> {
        if self.claimed.is_some() {
            return Err(FlagError::Claimed);
        }
        if self.fog {
            return Err(FlagError::EnvironmentTaken);
        }
        self.fog = true;
        Ok(())
    }

    /// Lays Mud beside the flag: three-card formations are incomplete again.
    pub fn add_mud(&mut self) -> Result<(), FlagError> {
        if self.claimed.is_some() {
            return Err(FlagError::Claimed);
        }
        if self.mud {
            return Err(FlagError::EnvironmentTaken);
        }
        self.mud = true;
        // No side can hold four cards before Mud, so none is complete now.
        self.first_complete = None;
        Ok(())
    }

    /// Records `player` as the one who laid the environment card `tactic`
    /// (Fog or Mud) that lies here.
    pub(crate) fn set_environment_owner(&mut self, tactic: Tactic, player: PlayerId) {
        match tactic {
            Tactic::Fog if self.fog => self.fog_by = Some(player),
            Tactic::Mud if self.mud => self.mud_by = Some(player),
            _ => {}
        }
    }

    /// Takes Fog away (Redeploy or Deserter under
    /// [`EnvironmentTactics::Movable`](crate::EnvironmentTactics)):
    /// formations are compared by class again.
    pub fn remove_fog(&mut self) -> Result<(), FlagError> {
        if self.claimed.is_some() {
            return Err(FlagError::Claimed);
        }
        if !self.fog {
            return Err(FlagError::Missing(Card::tactic(Tactic::Fog)));
        }
        self.fog = false;
        self.fog_by = None;
        Ok(())
    }

    /// Takes Mud away, `remover` being the player whose tactic does it.
    /// Formations have three cards again: a side holding four loses its
    /// most recently placed card, returned per seat for its owner's
    /// discards. Completion order is re-evaluated: a side complete before
    /// keeps its place; a side that only the removal completes counts as
    /// completing now, and when it completes both sides at once the
    /// remover's side counts as completing last (his play completed it).
    pub fn remove_mud(&mut self, remover: PlayerId) -> Result<[Option<Card>; 2], FlagError> {
        if self.claimed.is_some() {
            return Err(FlagError::Claimed);
        }
        if !self.mud {
            return Err(FlagError::Missing(Card::tactic(Tactic::Mud)));
        }
        self.mud = false;
        self.mud_by = None;
        let mut dropped = [None; 2];
        for (side, out) in self.sides.values_mut().zip(dropped.iter_mut()) {
            if side.len() > 3 {
                let (cards, n) = side.to_array();
                let last = cards[n - 1];
                side.take(last);
                *out = Some(last);
            }
        }
        if self.first_complete.is_none() {
            let complete = [
                self.is_complete(PlayerId::P0),
                self.is_complete(PlayerId::P1),
            ];
            self.first_complete = match complete {
                [true, true] => Some(remover.other()),
                [true, false] => Some(PlayerId::P0),
                [false, true] => Some(PlayerId::P1),
                [false, false] => None,
            };
        }
        Ok(dropped)
    }

    /// Checks that the fields agree: sides within the slots, no card
    /// twice, owners only of an environment card that lies here, the first
    /// complete side and the claimant complete.
    pub(crate) fn check(&self) -> Result<(), &'static str> {
        let slots = self.env().slots();
        let (a, n) = self.sides[PlayerId::P0].to_array();
        let (b, m) = self.sides[PlayerId::P1].to_array();
        if (!self.fog && self.fog_by.is_some()) || (!self.mud && self.mud_by.is_some()) {
            return Err("owner of an environment card that is not there");
        }
        if n > slots || m > slots {
            return Err("more cards on a side than slots");
        }
        let both: Vec<Card> = a[..n].iter().chain(&b[..m]).copied().collect();
        if Part::of(&both).is_none() {
            return Err("a card twice at a flag");
        }
        let complete = PlayerId::BOTH.map(|p| self.is_complete(p));
        let first_ok = match self.first_complete {
            None => !complete[0] && !complete[1],
            Some(p) => complete[p.index()],
        };
        if !first_ok {
            return Err("first completion contradicts the sides");
        }
        if !self.claimed.is_none_or(|p| complete[p.index()]) {
            return Err("claimed by an incomplete side");
        }
        Ok(())
    }

    pub(crate) fn set_first_complete(&mut self, player: Option<PlayerId>) {
        self.first_complete = player;
    }

    pub(crate) fn set_claimed(&mut self, player: PlayerId) {
        self.claimed = Some(player);
    }

    pub(crate) fn sides(&self) -> &[Side; 2] {
        self.sides.as_array()
    }
}

impl fmt::Debug for Flag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |s: &Side| {
            s.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        write!(
            f,
            "[{}] vs [{}]",
            side(&self.sides[PlayerId::P0]),
            side(&self.sides[PlayerId::P1])
        )?;
        if self.fog {
            f.write_str(" fog")?;
        }
        if self.mud {
            f.write_str(" mud")?;
        }
        if let Some(p) = self.fog_by {
            write!(f, " fog_by:{p}")?;
        }
        if let Some(p) = self.mud_by {
            write!(f, " mud_by:{p}")?;
        }
        if let Some(p) = self.first_complete {
            write!(f, " first:{p}")?;
        }
        if let Some(p) = self.claimed {
            write!(f, " claimed:{p}")?;
        }
        Ok(())
    }
}
