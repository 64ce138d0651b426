//! Cards: 60 troop cards (6 colours x values 1..10) and 10 tactics cards.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One of the six troop colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// Red (R).
    Red,
    /// Orange (O).
    Orange,
    /// Yellow (Y).
    Yellow,
    /// Green (G).
    Green,
    /// Blue (B).
    Blue,
    /// Purple (P).
    Purple,
}

impl Colour {
    /// All colours in index order.
    pub const ALL: [Colour; 6] = [
        Colour::Red,
        Colour::Orange,
        Colour::Yellow,
        Colour::Green,
        Colour::Blue,
        Colour::Purple,
    ];

    /// The colour's index 0..6.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The colour's name (`Red`).
    pub const fn word(self) -> &'static str {
        match self {
            Colour::Red => "Red",
            Colour::Orange => "Orange",
            Colour::Yellow => "Yellow",
            Colour::Green => "Green",
            Colour::Blue => "Blue",
            Colour::Purple => "Purple",
        }
    }

    /// The one-letter name used in renderings.
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Orange => 'O',
            Colour::Yellow => 'Y',
            Colour::Green => 'G',
            Colour::Blue => 'B',
            Colour::Purple => 'P',
        }
    }
}

/// The ten tactics cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Tactic {
    /// Leader Alexander: a wild card of any colour and value.
    Alexander,
    /// Leader Darius: a wild card of any colour and value.
    Darius,
    /// Companion Cavalry: value 8, any colour.
    CompanionCavalry,
    /// Shield Bearers: value 1, 2 or 3, any colour.
    ShieldBearers,
    /// Fog: the flag is decided by sum only.
    Fog,
    /// Mud: formations at the flag have four cards.
    Mud,
    /// Scout: draw three, return two.
    Scout,
    /// Redeploy: move or discard one of your own cards.
    Redeploy,
    /// Deserter: discard one of the opponent's cards.
    Deserter,
    /// Traitor: take one of the opponent's troop cards.
    Traitor,
}

impl Tactic {
    /// All tactics in card order.
    pub const ALL: [Tactic; 10] = [
        Tactic::Alexander,
        Tactic::Darius,
        Tactic::CompanionCavalry,
        Tactic::ShieldBearers,
        Tactic::Fog,
        Tactic::Mud,
        Tactic::Scout,
        Tactic::Redeploy,
        Tactic::Deserter,
        Tactic::Traitor,
    ];

    /// Whether this is a morale tactic, played into a slot like a troop.
    pub const fn is_morale(self) -> bool {
        matches!(
            self,
            Tactic::Alexander | Tactic::Darius | Tactic::CompanionCavalry | Tactic::ShieldBearers
        )
    }

    /// Whether this is a Leader.
    pub const fn is_leader(self) -> bool {
        matches!(self, Tactic::Alexander | Tactic::Darius)
    }

    /// The card's name, as messages to a person write it (`Darius`,
    /// `Companion Cavalry`); renderings and notation use [`Tactic::short`].
    ///
    /// ```
    /// use battleline_core::Tactic;
    /// assert_eq!(Tactic::Darius.name(), "Darius");
    /// assert_eq!(Tactic::ShieldBearers.name(), "Shield Bearers");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Tactic::Alexander => "Alexander",
            Tactic::Darius => "Darius",
            Tactic::CompanionCavalry => "Companion Cavalry",
            Tactic::ShieldBearers => "Shield Bearers",
            Tactic::Fog => "Fog",
            Tactic::Mud => "Mud",
            Tactic::Scout => "Scout",
            Tactic::Redeploy => "Redeploy",
            Tactic::Deserter => "Deserter",
            Tactic::Traitor => "Traitor",
        }
    }

    /// The short name used in renderings.
    pub const fn short(self) -> &'static str {
        match self {
            Tactic::Alexander => "AL",
            Tactic::Darius => "DA",
            Tactic::CompanionCavalry => "C8",
            Tactic::ShieldBearers => "SB",
            Tactic::Fog => "FOG",
            Tactic::Mud => "MUD",
            Tactic::Scout => "SCT",
            Tactic::Redeploy => "RDP",
            Tactic::Deserter => "DES",
            Tactic::Traitor => "TRT",
        }
    }
}

/// The kind of a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardKind {
    /// A troop card.
    Troop(Colour, u8),
    /// A tactics card.
    Tactic(Tactic),
}

/// A card, stored as its index 0..70: troops are `colour * 10 + value - 1`,
/// tactics follow in [`Tactic::ALL`] order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Card(u8);

/// Number of troop cards.
pub const TROOPS: usize = 60;
/// Number of cards in the game.
pub const CARDS: usize = 70;

impl TryFrom<u8> for Card {
    type Error = &'static str;
    fn try_from(i: u8) -> Result<Self, &'static str> {
        Card::from_index(i as usize).ok_or("no card has that index")
    }
}

impl From<Card> for u8 {
    fn from(c: Card) -> u8 {
        c.0
    }
}

impl Card {
    /// The troop card of `colour` and `value` (1..=10); `None` for another value.
    pub const fn troop(colour: Colour, value: u8) -> Option<Card> {
        if value >= 1 && value <= 10 {
            Some(Card(colour as u8 * 10 + value - 1))
        } else {
            None
        }
    }

    /// The tactics card `tactic`.
    pub const fn tactic(tactic: Tactic) -> Card {
        Card(TROOPS as u8 + tactic as u8)
    }

    /// The card with index `index` (0..70).
    pub const fn from_index(index: usize) -> Option<Card> {
        if index < CARDS {
            Some(Card(index as u8))
        } else {
            None
        }
    }

    /// The card's index 0..70.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// What the card is.
    pub const fn kind(self) -> CardKind {
        if self.0 < TROOPS as u8 {
            CardKind::Troop(Colour::ALL[(self.0 / 10) as usize], self.0 % 10 + 1)
        } else {
            CardKind::Tactic(Tactic::ALL[(self.0 - TROOPS as u8) as usize])
        }
    }

    /// Whether it is a troop card.
    pub const fn is_troop(self) -> bool {
        self.0 < TROOPS as u8
    }

    /// The tactic, if it is a tactics card.
    pub const fn as_tactic(self) -> Option<Tactic> {
        match self.kind() {
            CardKind::Tactic(t) => Some(t),
            CardKind::Troop(..) => None,
        }
    }

    /// Whether the card goes into a slot of a formation (troops and morale tactics).
    pub const fn is_slot_card(self) -> bool {
        self.0 < TROOPS as u8 + 4
    }

    /// The card as messages to a person name it: a troop by its code
    /// (`R7`), a tactics card by its name (`Darius`), never by the code
    /// renderings use (`DA`).
    ///
    /// ```
    /// use battleline_core::{Card, Colour, Tactic};
    /// assert_eq!(Card::tactic(Tactic::Darius).name(), "Darius");
    /// assert_eq!(Card::troop(Colour::Red, 7).unwrap().name(), "R7");
    /// ```
    pub fn name(self) -> String {
        match self.kind() {
            CardKind::Troop(..) => self.to_string(),
            CardKind::Tactic(t) => t.name().to_owned(),
        }
    }

    /// The deck the card belongs to.
    pub const fn deck(self) -> Deck {
        if self.is_troop() {
            Deck::Troop
        } else {
            Deck::Tactics
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            CardKind::Troop(c, v) => write!(f, "{}{}", c.letter(), v),
            CardKind::Tactic(t) => f.write_str(t.short()),
        }
    }
}

/// Parses the rendering of a card: `R7`, `P10`, a tactics card's short name
/// (`AL`, `C8`, `FOG`, ...).
impl std::str::FromStr for Card {
    type Err = game_traits::ParseError;
    fn from_str(s: &str) -> Result<Card, Self::Err> {
        if let Some(t) = Tactic::ALL.into_iter().find(|t| t.short() == s) {
            return Ok(Card::tactic(t));
        }
        let mut chars = s.chars();
        let colour = chars
            .next()
            .and_then(|l| Colour::ALL.into_iter().find(|c| c.letter() == l));
        let value = chars.as_str().parse::<u8>().ok();
        match (colour, value) {
            (Some(c), Some(v)) if chars.as_str().starts_with(|d: char| d.is_ascii_digit()) => {
                Card::troop(c, v)
            }
            _ => None,
        }
        .ok_or_else(|| game_traits::ParseError::new("a card such as R7, P10, AL or FOG", s))
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// One of the two draw piles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Deck {
    /// The 60 troop cards.
    Troop,
    /// The 10 tactics cards.
    Tactics,
}

impl Deck {
    /// Both decks.
    pub const ALL: [Deck; 2] = [Deck::Troop, Deck::Tactics];

    /// Index 0 (troop) or 1 (tactics).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Every card of this deck.
    pub const fn cards(self) -> CardSet {
        match self {
            Deck::Troop => CardSet::ALL_TROOPS,
            Deck::Tactics => CardSet::ALL_TACTICS,
        }
    }
}

impl fmt::Display for Deck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Deck::Troop => "troop deck",
            Deck::Tactics => "tactics deck",
        })
    }
}

/// A set of cards as a bit set over card indices.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u128", into = "u128")]
pub struct CardSet(u128);

impl TryFrom<u128> for CardSet {
    type Error = &'static str;
    fn try_from(bits: u128) -> Result<Self, &'static str> {
        if bits >> CARDS == 0 {
            Ok(CardSet(bits))
        } else {
            Err("card set has bits outside the 70 cards")
        }
    }
}

impl From<CardSet> for u128 {
    fn from(s: CardSet) -> u128 {
        s.0
    }
}

impl CardSet {
    /// No card.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 70 cards.
    pub const ALL: CardSet = CardSet((1 << CARDS) - 1);
    /// The 60 troop cards.
    pub const ALL_TROOPS: CardSet = CardSet((1 << TROOPS) - 1);
    /// The 10 tactics cards.
    pub const ALL_TACTICS: CardSet = CardSet(((1 << CARDS) - 1) & !((1 << TROOPS) - 1));

    /// The set of troop cards given as a bit set over troop indices (bit
    /// `colour * 10 + value - 1`); bits above 60 are ignored.
    pub const fn from_troop_bits(bits: u64) -> CardSet {
        CardSet((bits & ((1 << TROOPS) - 1)) as u128)
    }

    /// The troop cards of the set as bits over troop indices.
    pub const fn troop_bits(self) -> u64 {
        (self.0 & ((1 << TROOPS) - 1)) as u64
    }

    /// The raw bits.
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// Whether `card` is in the set.
    pub const fn contains(self, card: Card) -> bool {
        self.0 >> card.0 & 1 == 1
    }

    /// Adds `card`.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    /// Removes `card`.
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.0);
    }

    /// Number of cards.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The union.
    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// The intersection.
    pub const fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// The cards of `self` not in `other`.
    pub const fn difference(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// The `n`-th card in index order.
    pub fn nth(self, n: usize) -> Option<Card> {
        self.iter().nth(n)
    }

    /// The cards in index order.
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

/// Iterator over a [`CardSet`] in index order.
#[derive(Clone, Debug)]
pub struct CardSetIter(u128);

impl Iterator for CardSetIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card(i as u8))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for c in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{c}")?;
        }
        Ok(())
    }
}
