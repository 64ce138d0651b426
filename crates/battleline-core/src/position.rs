//! Building any position the rules allow, validated like a deserialised
//! state.

use game_traits::{Outcome, PerPlayer, PlayerId};

use crate::card::{Card, CardSet, Deck};
use crate::error::BattleLineError;
use crate::flag::{Flag, FlagId, FLAGS};
use crate::flag_bits::FlagBits;
use crate::proof_cache::ProofCache;
use crate::rules::Rules;
use crate::state::{BattleLine, Phase, Table, Top};

/// What is at one flag, as the builder is told.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct FlagSpec {
    /// The cards in the order they are placed (who, what).
    placed: Vec<(PlayerId, Card)>,
    /// Fog, with who laid it when that is recorded.
    fog: Option<Option<PlayerId>>,
    /// Mud, likewise.
    mud: Option<Option<PlayerId>>,
    /// Who completed first, when given (otherwise from the placing order).
    first: Option<Option<PlayerId>>,
    claimed: Option<PlayerId>,
}

/// A validated builder of any Battle Line position (as cozy-chess's
/// `BoardBuilder`): set the flags, hands, discards, Scout returns, the
/// tactics records and where the turn stands; the decks get every card not
/// placed anywhere else. [`PositionBuilder::build`] checks the whole
/// position with the same validation as a deserialised state.
///
/// A new builder is the start of a game after the deal, with empty hands:
/// every card in the decks, the first player of `rules` to play, move 0.
///
/// ```
/// use battleline_core::{Action, BattleLine, Card, Colour, FlagId, Game, Phase, PlayerId, PositionBuilder, Rules};
/// let r = |v| Card::troop(Colour::Red, v).unwrap();
/// let b = |v| Card::troop(Colour::Blue, v).unwrap();
/// let f1 = FlagId::new(0).unwrap();
/// let game = PositionBuilder::new(Rules::default())
///     .place(f1, PlayerId::P0, r(8))
///     .place(f1, PlayerId::P0, r(9))
///     .place(f1, PlayerId::P0, r(10))
///     .place(f1, PlayerId::P1, b(2))
///     .hand(PlayerId::P0, [r(1), r(2)].into_iter().collect())
///     .hand(PlayerId::P1, [b(5)].into_iter().collect())
///     .turn(PlayerId::P0, Phase::Claim)
///     .draws_due(1)
///     .build()
///     .unwrap();
/// // No Wedge above Red 8-9-10 exists: the claim holds at once.
/// assert!(game.is_legal(Action::Claim(f1)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionBuilder {
    rules: Rules,
    flags: [FlagSpec; FLAGS],
    hands: PerPlayer<CardSet>,
    known: PerPlayer<CardSet>,
    discards: PerPlayer<CardSet>,
    returned: [Vec<Card>; 2],
    tactics_played: PerPlayer<u8>,
    leaders_played: PerPlayer<bool>,
    phase: Phase,
    player: PlayerId,
    draws_due: u8,
    returns_due: u8,
    drawn: u8,
    passes: u8,
    scout_by: Option<PlayerId>,
    moves: u32,
    outcome: Option<Outcome>,
    settled: Option<bool>,
}

impl PositionBuilder {
    /// An empty table under `rules`, every card in the decks, the first
    /// player to play.
    pub fn new(rules: Rules) -> PositionBuilder {
        PositionBuilder {
            rules,
            flags: Default::default(),
            hands: PerPlayer::default(),
            known: PerPlayer::default(),
            discards: PerPlayer::default(),
            returned: Default::default(),
            tactics_played: PerPlayer::default(),
            leaders_played: PerPlayer::default(),
            phase: Phase::Play,
            player: rules.first_player,
            draws_due: 0,
            returns_due: 0,
            drawn: 0,
            passes: 0,
            scout_by: None,
            moves: 0,
            outcome: None,
            settled: None,
        }
    }

    /// A builder holding `state`, to change it.
    pub fn from_state(state: &BattleLine) -> PositionBuilder {
        let t = &state.table;
        let mut b = PositionBuilder::new(state.rules);
        for (spec, f) in b.flags.iter_mut().zip(&t.flags) {
            for p in PlayerId::all() {
                spec.placed.extend(f.side(p).iter().map(|c| (p, c)));
            }
            spec.fog = f.env().fog.then_some(f.fog_owner());
            spec.mud = f.env().mud.then_some(f.mud_owner());
            spec.first = Some(f.first_complete());
            spec.claimed = f.claimed();
        }
        b.hands = state.hands;
        b.known = state.revealed;
        b.discards = t.discards;
        b.returned = Deck::ALL.map(|d| state.tops[d.index()].cards().collect());
        b.tactics_played = t.tactics_played;
        b.leaders_played = t.leaders_played;
        b.phase = t.phase;
        b.player = t.player;
        b.draws_due = t.draws_due;
        b.returns_due = t.returns_due;
        b.drawn = t.drawn;
        b.passes = t.passes;
        b.scout_by = t.scout_by;
        b.moves = t.moves;
        b.outcome = t.outcome;
        b.settled = Some(t.settled);
        b
    }

    /// Puts `card` into the next slot of `player`'s side at `flag` (a troop
    /// or morale card). The first side to complete is recorded in the order
    /// of these calls unless [`PositionBuilder::first_complete`] says.
    pub fn place(mut self, flag: FlagId, player: PlayerId, card: Card) -> Self {
        self.flags[flag.index()].placed.push((player, card));
        self
    }

    /// Lays Fog beside `flag`; `owner` is who laid it, recorded only under
    /// [`EnvironmentTactics::Movable`](crate::EnvironmentTactics) (give
    /// `None` otherwise).
    pub fn fog(mut self, flag: FlagId, owner: Option<PlayerId>) -> Self {
        self.flags[flag.index()].fog = Some(owner);
        self
    }

    /// Lays Mud beside `flag`, with its owner as for [`PositionBuilder::fog`].
    pub fn mud(mut self, flag: FlagId, owner: Option<PlayerId>) -> Self {
        self.flags[flag.index()].mud = Some(owner);
        self
    }

    /// Who completed first at `flag` (`None`: no side complete).
    pub fn first_complete(mut self, flag: FlagId, player: Option<PlayerId>) -> Self {
        self.flags[flag.index()].first = Some(player);
        self
    }

    /// `player` has claimed `flag`.
    pub fn claim(mut self, flag: FlagId, player: PlayerId) -> Self {
        self.flags[flag.index()].claimed = Some(player);
        self
    }

    /// `player`'s hand.
    pub fn hand(mut self, player: PlayerId, cards: CardSet) -> Self {
        self.hands[player] = cards;
        self
    }

    /// The cards of the other hand that `player` knows (he returned them
    /// with his Scout, the other drew them).
    pub fn known(mut self, player: PlayerId, cards: CardSet) -> Self {
        self.known[player] = cards;
        self
    }

    /// The cards face up on `player`'s side of the tactics deck.
    pub fn discards(mut self, player: PlayerId, cards: CardSet) -> Self {
        self.discards[player] = cards;
        self
    }

    /// The cards Scout put back on top of `deck`, bottom first (at most two).
    pub fn returned(mut self, deck: Deck, cards: &[Card]) -> Self {
        self.returned[deck.index()] = cards.to_vec();
        self
    }

    /// The tactics cards `player` has played, and whether one was a Leader.
    pub fn tactics_played(mut self, player: PlayerId, count: u8, leader: bool) -> Self {
        self.tactics_played[player] = count;
        self.leaders_played[player] = leader;
        self
    }

    /// Whose turn it is and its phase.
    pub fn turn(mut self, player: PlayerId, phase: Phase) -> Self {
        self.player = player;
        self.phase = phase;
        self
    }

    /// Cards still to draw this turn.
    pub fn draws_due(mut self, n: u8) -> Self {
        self.draws_due = n;
        self
    }

    /// Cards still to return with Scout this turn.
    pub fn returns_due(mut self, n: u8) -> Self {
        self.returns_due = n;
        self
    }

    /// Cards drawn so far this turn.
    pub fn drawn(mut self, n: u8) -> Self {
        self.drawn = n;
        self
    }

    /// Passes in a row (two: the passer's claim step before the end rule,
    /// or a game that ended after them; see [`PositionBuilder::settled`]).
    pub fn passes(mut self, n: u8) -> Self {
        self.passes = n;
        self
    }

    /// Who played Scout.
    pub fn scout_by(mut self, player: Option<PlayerId>) -> Self {
        self.scout_by = player;
        self
    }

    /// Player decisions so far.
    pub fn moves(mut self, n: u32) -> Self {
        self.moves = n;
        self
    }

    /// The result of a finished game (with [`Phase::Over`]).
    pub fn outcome(mut self, outcome: Option<Outcome>) -> Self {
        self.outcome = outcome;
        self
    }

    /// Whether the end rule settled the game. Unless set, a finished game
    /// after two passes in a row was settled; set `false` for one that a
    /// claim in the passer's claim step won ([`LastPass::ClaimFirst`](crate::LastPass)).
    pub fn settled(mut self, settled: bool) -> Self {
        self.settled = Some(settled);
        self
    }

    /// The position, or why it is not one the rules allow.
    pub fn build(&self) -> Result<BattleLine, BattleLineError> {
        let bad = BattleLineError::InvalidPosition;
        let mut flags = [Flag::new(); FLAGS];
        for (f, spec) in flags.iter_mut().zip(&self.flags) {
            if spec.mud.is_some() {
                f.add_mud().map_err(|_| bad("Mud twice"))?;
            }
            if spec.fog.is_some() {
                f.add_fog().map_err(|_| bad("Fog twice"))?;
            }
            for &(p, card) in &spec.placed {
                f.place(p, card)
                    .map_err(|_| bad("a card that cannot go into that slot"))?;
            }
            for (t, owner) in [
                (crate::card::Tactic::Fog, spec.fog),
                (crate::card::Tactic::Mud, spec.mud),
            ] {
                if let Some(Some(p)) = owner {
                    f.set_environment_owner(t, p);
                }
            }
            if let Some(first) = spec.first {
                f.set_first_complete(first);
            }
            if let Some(p) = spec.claimed {
                f.set_claimed(p);
            }
        }
        let mut tops = [Top::default(); 2];
        for d in Deck::ALL {
            let cards = &self.returned[d.index()];
            if cards.len() > 2 {
                return Err(bad("more than two cards returned on a deck"));
            }
            for &c in cards {
                tops[d.index()].push(c);
            }
        }
        let settled = self
            .settled
            .unwrap_or(self.passes == 2 && self.phase == Phase::Over);
        let table = Table {
            flags,
            discards: self.discards,
            tactics_played: self.tactics_played,
            leaders_played: self.leaders_played,
            phase: self.phase,
            player: self.player,
            draws_due: self.draws_due,
            returns_due: self.returns_due,
            drawn: self.drawn,
            passes: self.passes,
            scout_by: self.scout_by,
            moves: self.moves,
            outcome: self.outcome,
            settled,
        };
        // The decks hold what is nowhere else.
        let mut elsewhere = self.hands[PlayerId::P0]
            .union(self.hands[PlayerId::P1])
            .union(self.discards[PlayerId::P0])
            .union(self.discards[PlayerId::P1]);
        for (f, spec) in table.flags.iter().zip(&self.flags) {
            for p in PlayerId::all() {
                elsewhere = elsewhere.union(f.side(p).cards());
            }
            for (on, t) in [
                (spec.fog.is_some(), crate::card::Tactic::Fog),
                (spec.mud.is_some(), crate::card::Tactic::Mud),
            ] {
                if on {
                    if elsewhere.contains(Card::tactic(t)) {
                        return Err(bad("an environment card twice"));
                    }
                    elsewhere.insert(Card::tactic(t));
                }
            }
        }
        for t in &tops {
            elsewhere = elsewhere.union(t.set());
        }
        let pools = Deck::ALL.map(|d| self.rules.deck_cards(d).difference(elsewhere));
        let mut state = BattleLine {
            rules: self.rules,
            table,
            hands: self.hands,
            pools,
            tops,
            revealed: self.known,
            proofs: ProofCache::default(),
            bits: FlagBits::default(),
        };
        state.validate().map_err(bad)?;
        state.rebuild();
        Ok(state)
    }
}
