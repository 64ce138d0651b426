//! The state of a game: the public [`Table`], both hands and the two decks,
//! and their accessors.

use std::fmt;

use game_traits::{Outcome, PerPlayer, PlayerId};
use serde::{Deserialize, Serialize};

use crate::card::{Card, CardSet, Deck};
use crate::flag::{Flag, FlagId, FLAGS};
use crate::flag_bits::FlagBits;
use crate::flag_set::FlagSet;
use crate::proof::available_troops;
use crate::proof_cache::ProofCache;
use crate::rules::Rules;

/// Cards in a full hand.
pub const HAND_SIZE: usize = 7;

/// Upper bound on the actions of any game: 14 deals; at most 72 turns that
/// play a card (at most 72 cards ever enter the hands: 70 plus the two Scout
/// returns) of at most 3 actions (play, draw, deal), plus 6 for the Scout
/// turn's extra draws and returns; at most 74 passing turns (never two in a
/// row but the last) of at most 2 actions; and 9 claims.
pub const MAX_GAME_LENGTH: u32 = 14 + 72 * 3 + 6 + 74 * 2 + 9;

/// Where a turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Chance: dealing the starting hands.
    Setup,
    /// The player plays a card, a tactic, or passes (and, under
    /// [`ClaimTiming::StartOfTurn`](crate::ClaimTiming), claims first).
    Play,
    /// After playing: claims, then the choice of deck.
    Claim,
    /// Further draws (Scout), or the choice of deck when claims are not
    /// made here.
    Draw,
    /// Chance: the next card of a deck.
    Deal(Deck),
    /// Scout: returning cards to the decks.
    Return,
    /// The game is over.
    Over,
}

/// Cards returned by Scout on top of a deck, bottom first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct Top([Option<Card>; 2]);

impl Top {
    pub(crate) fn len(&self) -> usize {
        self.0.iter().flatten().count()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0[0].is_none()
    }

    /// The cards, bottom first.
    pub(crate) fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.0.iter().flatten().copied()
    }

    pub(crate) fn set(&self) -> CardSet {
        self.cards().collect()
    }

    /// Whether the cards are stacked without a gap.
    pub(crate) fn is_valid(&self) -> bool {
        !(self.0[0].is_none() && self.0[1].is_some())
    }

    pub(crate) fn with(mut self, card: Card) -> Top {
        self.push(card);
        self
    }

    pub(crate) fn push(&mut self, card: Card) {
        if let Some(slot) = self.0.iter_mut().find(|s| s.is_none()) {
            *slot = Some(card);
        }
    }

    pub(crate) fn pop(&mut self) -> Option<Card> {
        if self.0[1].is_some() {
            self.0[1].take()
        } else {
            self.0[0].take()
        }
    }
}

/// Everything both players see: the flags, the discards, the tactics
/// records and where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Table {
    /// The nine flags from left to right: the cards on each side in the
    /// order played, Fog and Mud, who completed first, who claimed it.
    pub(crate) flags: [Flag; FLAGS],
    /// Per player, the cards laid face up beside the tactics deck on his
    /// side: his played guile tactics and the cards discarded from his side.
    pub(crate) discards: PerPlayer<CardSet>,
    /// Per player, the tactics cards he has played (the tactics limit
    /// compares these).
    pub(crate) tactics_played: PerPlayer<u8>,
    /// Per player, whether he has played a Leader (for
    /// [`LeaderLimit::OncePerGame`](crate::LeaderLimit)).
    pub(crate) leaders_played: PerPlayer<bool>,
    /// Where the turn stands.
    pub(crate) phase: Phase,
    /// Whose turn it is (the first player during the deal).
    pub(crate) player: PlayerId,
    /// Cards the player still draws this turn (1 after a play, 3 after
    /// Scout, 0 after a pass): 0 in Play and Return; in Draw and Deal 1
    /// (nothing drawn yet) or `3 - drawn` in Scout's turn.
    pub(crate) draws_due: u8,
    /// Cards the player still returns with Scout this turn: 2 from Scout
    /// to its last draw, then in Return 1 or 2, so that the returns on the
    /// decks and those due make `min(2, drawn)`; 0 outside Scout's turn.
    pub(crate) returns_due: u8,
    /// Cards the player has drawn this turn (Scout returns at most these):
    /// at most 3, 0 in Play and Claim.
    pub(crate) drawn: u8,
    /// Passes in a row (two end the game by the end rule): at most 1 in
    /// Play, 0 in a turn that played a card, 2 only in the passer's claim
    /// step or once over.
    pub(crate) passes: u8,
    /// Who played Scout, if anyone: his returns may still lie on the decks.
    pub(crate) scout_by: Option<PlayerId>,
    /// Player decisions so far (chance outcomes are not counted): with the
    /// actions the position can still lead to, at most
    /// [`MAX_GAME_LENGTH`]; 0 during the deal.
    pub(crate) moves: u32,
    /// The result, once over.
    pub(crate) outcome: Option<Outcome>,
    /// Whether the game ended by the end rule.
    pub(crate) settled: bool,
}

impl Table {
    pub(crate) fn new(first: PlayerId) -> Table {
        Table {
            flags: [Flag::new(); FLAGS],
            discards: PerPlayer::default(),
            tactics_played: PerPlayer::default(),
            leaders_played: PerPlayer::default(),
            phase: Phase::Setup,
            player: first,
            draws_due: 0,
            returns_due: 0,
            drawn: 0,
            passes: 0,
            scout_by: None,
            moves: 0,
            outcome: None,
            settled: false,
        }
    }

    /// The flags from left to right.
    pub fn flags(&self) -> &[Flag; FLAGS] {
        &self.flags
    }

    /// The flag `flag`.
    pub fn flag(&self, flag: FlagId) -> &Flag {
        &self.flags[flag.index()]
    }

    /// Cards laid face up beside the tactics deck on `player`'s side:
    /// his played guile tactics and the cards discarded from his side.
    pub fn discards(&self, player: PlayerId) -> CardSet {
        self.discards[player]
    }

    /// Tactics cards `player` has played.
    pub fn tactics_played(&self, player: PlayerId) -> u8 {
        self.tactics_played[player]
    }

    /// Whether `player` has played a Leader.
    pub fn leader_played(&self, player: PlayerId) -> bool {
        self.leaders_played[player]
    }

    /// The phase of the turn.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whose turn it is.
    pub fn player(&self) -> PlayerId {
        self.player
    }

    /// Cards the player still draws this turn.
    pub fn draws_due(&self) -> u8 {
        self.draws_due
    }

    /// Cards the player still returns with Scout this turn.
    pub fn returns_due(&self) -> u8 {
        self.returns_due
    }

    /// Cards the player has drawn this turn.
    pub fn drawn(&self) -> u8 {
        self.drawn
    }

    /// Passes in a row.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// Who played Scout, if anyone.
    pub fn scout_by(&self) -> Option<PlayerId> {
        self.scout_by
    }

    /// Player decisions so far.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// The result, once over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game ended by the end rule (two passes in a row).
    pub fn settled(&self) -> bool {
        self.settled
    }

    /// The flags claimed by `player`.
    pub fn claimed(&self, player: PlayerId) -> FlagSet {
        FlagId::all()
            .filter(|&f| self.flags[f.index()].claimed() == Some(player))
            .collect()
    }

    /// The troop cards a claim proof must assume still available: all those
    /// not visible on the table or in the discards.
    pub fn available_troops(&self) -> CardSet {
        available_troops(
            &self.flags,
            self.discards[PlayerId::P0].union(self.discards[PlayerId::P1]),
        )
    }
}

/// A game of Battle Line in progress: the public [`Table`], both hands and
/// the two decks (an unordered pool of unseen cards, plus the cards Scout
/// returned on top). Start one with [`game_traits::Game::new`], or build
/// any position with [`PositionBuilder`](crate::PositionBuilder) or
/// [`BattleLine::from_notation`].
///
/// ```
/// use battleline_core::{BattleLine, Game, PlayerId, Rules};
/// let game = BattleLine::new(&Rules::default()).unwrap();
/// assert_eq!(game.hand(PlayerId::P0).len(), 0);
/// let text = game.to_notation();
/// assert_eq!(text.parse::<BattleLine>().unwrap(), game);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "crate::validate::RawBattleLine")]
pub struct BattleLine {
    /// The rules in force.
    pub(crate) rules: Rules,
    /// Everything both players see.
    pub(crate) table: Table,
    /// Per player, his hand: the player not on turn holds at most
    /// [`HAND_SIZE`]; the player on turn too in Play, one fewer plus his
    /// draws (less his returns) once he has played a card.
    pub(crate) hands: PerPlayer<CardSet>,
    /// Per deck (troop, tactics), the unseen cards below the Scout returns:
    /// a draw takes a uniformly random one, so they have no order.
    pub(crate) pools: [CardSet; 2],
    /// Per deck, the cards Scout put back on top, bottom first: drawn
    /// before the pool, without a chance event.
    pub(crate) tops: [Top; 2],
    /// Per player, the cards of the other hand he knows: those the other
    /// drew from his Scout returns, while they stay in that hand.
    pub(crate) revealed: PerPlayer<CardSet>,
    /// Claim proofs already made: no part of the position (equal to every
    /// other cache, never serialised), rebuilt wherever a state is made.
    #[serde(skip)]
    pub(crate) proofs: ProofCache,
    /// The flags' facts as masks: a function of the table, so no part of
    /// the position either, rebuilt wherever a state is made.
    #[serde(skip)]
    pub(crate) bits: FlagBits,
}

/// The position's fields, as derived (the proof cache is no part of it).
impl fmt::Debug for BattleLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BattleLine")
            .field("rules", &self.rules)
            .field("table", &self.table)
            .field("hands", &self.hands)
            .field("pools", &self.pools)
            .field("tops", &self.tops)
            .field("revealed", &self.revealed)
            .finish()
    }
}

impl BattleLine {
    pub(crate) fn start(rules: Rules) -> BattleLine {
        BattleLine {
            rules,
            table: Table::new(rules.first_player),
            hands: PerPlayer::default(),
            pools: [CardSet::ALL_TROOPS, rules.deck_cards(Deck::Tactics)],
            tops: [Top::default(); 2],
            revealed: PerPlayer::default(),
            proofs: ProofCache::default(),
            bits: FlagBits::of(&Table::new(rules.first_player)),
        }
    }

    /// Rebuilds what the state keeps beside the position (the flags'
    /// masks, the proof cache) from the position alone.
    pub(crate) fn rebuild(&mut self) {
        self.bits = FlagBits::of(&self.table);
        self.proofs.clear();
        self.refresh_proofs();
    }

    /// [`Table::available_troops`] from the cards on the table as kept.
    #[inline]
    pub(crate) fn available(&self) -> CardSet {
        let d = &self.table.discards;
        CardSet::ALL_TROOPS
            .difference(CardSet::from_low_bits(self.bits.on_table))
            .difference(d[PlayerId::P0].union(d[PlayerId::P1]))
    }

    /// The public part.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// `player`'s hand.
    pub fn hand(&self, player: PlayerId) -> CardSet {
        self.hands[player]
    }

    /// The cards of the other hand that `player` knows (he returned them
    /// with Scout and the other drew them).
    pub fn known_by(&self, player: PlayerId) -> CardSet {
        self.revealed[player]
    }

    /// Cards left in `deck` (returned cards included).
    pub fn deck_len(&self, deck: Deck) -> usize {
        self.pools[deck.index()].len() + self.tops[deck.index()].len()
    }

    /// Whether `deck` has a card left (no count needed).
    #[inline]
    pub(crate) fn deck_has_cards(&self, deck: Deck) -> bool {
        !self.pools[deck.index()].is_empty() || !self.tops[deck.index()].is_empty()
    }

    /// The cards of `deck` below the Scout returns, drawn in random order.
    pub fn deck_pool(&self, deck: Deck) -> CardSet {
        self.pools[deck.index()]
    }

    /// The cards Scout returned on top of `deck`, bottom first (the last
    /// is drawn first).
    pub fn returned(&self, deck: Deck) -> impl Iterator<Item = Card> + '_ {
        self.tops[deck.index()].cards()
    }

    /// Whether `player` may claim `flag` now by the rules of proof (ignoring
    /// whose turn it is).
    pub fn can_claim(&self, player: PlayerId, flag: FlagId) -> bool {
        self.claim_proved(player, flag.index(), self.available())
    }
}
