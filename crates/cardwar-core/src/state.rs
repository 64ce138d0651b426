//! The state of a game: what both players see ([`Public`]), what each keeps
//! to himself ([`SideHidden`]), and the phases of a round.

use game_traits::{Outcome, PerPlayer, PlayerId};
use serde::{Deserialize, Serialize};

use crate::card::{CardSet, Guard, Soldier};
use crate::line::{LineView, LINE_CAP};
use crate::prayer::Prayer;
use crate::rules::Rules;

/// How a line being laid may end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LayKind {
    /// An attack line of a fixed size (half the hand, or all of it in
    /// round 1's second battle).
    Attack,
    /// An attack line of any size: the rest of the hand is a reserve.
    FreeAttack,
    /// A defence line as long as the attack line, or the whole hand.
    Defence,
}

/// Where the game stands: who acts and what the next action means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
// An explicit tag byte: every action dispatches on the phase, and decoding a
// tag folded into a field's spare values costs several instructions each time.
#[repr(u8)]
pub enum Phase {
    /// Chance: the next card `colour` puts aside into his pile at setup.
    Aside {
        /// Whose soldiers.
        colour: PlayerId,
        /// Cards still to put aside.
        left: u8,
    },
    /// Chance: the initiative dice; `first_die` is P0's die (0 before it is
    /// rolled). P1's die never equals it (equal dice are rolled again).
    Initiative {
        /// P0's die, 0 while not rolled.
        first_die: u8,
    },
    /// Chance: `player` rolls 2d6 for his draw.
    DrawRoll {
        /// Who draws.
        player: PlayerId,
    },
    /// Chance: the next card `player` draws from his pile.
    Draw {
        /// Who draws.
        player: PlayerId,
        /// Cards still to draw.
        left: u8,
    },
    /// Decision: `player` lays the next card of a line.
    Lay {
        /// Who lays.
        player: PlayerId,
        /// Which line.
        kind: LayKind,
        /// Cards still to lay (at most, for a free attack).
        left: u8,
    },
    /// Decision: `player` may pray before this fight's dice.
    Pray {
        /// Who is asked.
        player: PlayerId,
    },
    /// Chance: the 2d6 of `player`'s prayer.
    PrayerRoll {
        /// Who prays.
        player: PlayerId,
    },
    /// Chance: the next card picked from `player`'s pile by a prayer.
    Reinforce {
        /// Whose pile.
        player: PlayerId,
        /// Cards still to pick.
        left: u8,
    },
    /// Chance: the die giving the number of paratroopers.
    ParatrooperRoll {
        /// Who prayed.
        player: PlayerId,
    },
    /// Chance: the attacker's die of the fight.
    AttackDie,
    /// Chance: the defender's die (the higher of two for a guard).
    DefenceDie,
    /// The game is over.
    Over,
}

/// Which card of a side is fighting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
// An explicit tag byte, not one folded into the guard's spare values: every
// fight reads it several times (see `Phase`).
#[repr(u8)]
pub enum Open {
    /// None yet: the next one is revealed before the fight.
    #[default]
    None,
    /// The soldier in slot 0 of the side's line.
    Soldier,
    /// An ace or the joker of the defender.
    Guard(Guard),
}

/// What is attached to the open card of a side for the current battle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fighter {
    /// Cards it has killed in fights of this battle.
    pub kills: u8,
    /// Doublings of its next die (three-kills bonus).
    pub doubled: u8,
    /// Its next die is halved (grenade).
    pub halved: bool,
}

/// Prayer effects waiting for the side's next fight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pending {
    /// Added to the total (results 2, 3, 4).
    pub add: u8,
    /// Doublings of the die (result 6).
    pub doubled: u8,
}

/// What happened in the last fight, for narration and rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FightReport {
    /// The attacker's die as rolled.
    pub attack_die: u8,
    /// The attacker's total.
    pub attack_total: u16,
    /// The defender's die as rolled (the higher of two for a guard).
    pub defence_die: u8,
    /// The defender's total.
    pub defence_total: u16,
}

/// The battle in progress (reset at each battle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Battle {
    /// The attacking side.
    pub attacker: PlayerId,
    /// The open card of each side.
    pub open: PerPlayer<Open>,
    /// Per side, the state of its open card.
    pub fighter: PerPlayer<Fighter>,
    /// Per side, prayer effects for its next fight.
    pub pending: PerPlayer<Pending>,
    /// Per side, whether it was asked to pray before the current fight.
    pub asked: PerPlayer<bool>,
    /// The attacker's die of the current fight (0 before it is rolled).
    pub attack_die: u8,
    /// The last fight resolved, in this battle or an earlier one: a new
    /// battle keeps it, so that the dice of the fight that ended the last
    /// battle stay known.
    pub last_fight: Option<FightReport>,
    /// The last prayer and who made it, kept across battles alike.
    pub last_prayer: Option<(PlayerId, Prayer)>,
}

impl Battle {
    pub(crate) fn new(attacker: PlayerId) -> Self {
        Battle {
            attacker,
            open: PerPlayer::new(Open::None, Open::None),
            fighter: PerPlayer::default(),
            pending: PerPlayer::default(),
            asked: PerPlayer::default(),
            attack_die: 0,
            last_fight: None,
            last_prayer: None,
        }
    }
}

/// What both players see of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SidePublic {
    /// Cards in hand (available this round).
    pub hand: u8,
    /// Cards set aside until the round ends (survivors of a line).
    pub aside: u8,
    /// Cards in the pile.
    pub pile: u8,
    /// Health of the two aces and the joker (0 = dead).
    pub guards: [u8; 3],
    /// Whether the side has prayed (once per game).
    pub prayed: bool,
    /// The side's line in the current battle.
    pub line: LineView,
    /// The opponent's knowledge: soldiers of this side known to be alive in
    /// the hand, set aside or face down, without knowing which (seen, then
    /// returned).
    pub known_alive: CardSet,
    /// The opponent's knowledge: soldiers known to lie in the pile (seen
    /// dying since the last shuffle).
    pub known_pile: CardSet,
    /// The opponent's knowledge: soldiers known to be set aside (seen
    /// leaving the field alive this round).
    pub known_aside: CardSet,
    /// The opponent's knowledge: soldiers known to have been in the pile
    /// when it was shuffled, and not seen since: each is still in the pile
    /// or was drawn from it (a shuffle moves `known_pile` here).
    pub pile_or_drawn: CardSet,
    /// The opponent's knowledge: the most cards of the pile, and of the
    /// face-down slots a prayer brought from it, that he never saw there
    /// (those put aside face down at setup). Only seen cards ever enter a
    /// pile later, so it can only go down.
    pub unseen_in_pile: u8,
    /// The health-1 cards lying under the front card of the line (ruling
    /// 7): each gave its point to the card after it, and goes where the
    /// card it fed goes. Always empty under
    /// [`Rules::donor_returns`](crate::Rules::donor_returns). Every donor
    /// fought face up, so both players know them.
    // Absent from states written before donors were kept: those had none.
    #[serde(default)]
    pub donors: CardSet,
    /// The 2d6 of the side's last draw roll (0 before round 2's): kept
    /// because the cards drawn do not tell it when the pile gives fewer.
    #[serde(default)]
    pub draw_roll: u8,
    /// The die of the side's paratroopers prayer (0 if it has not had
    /// one): kept because the cards brought do not tell it when the pile
    /// gives fewer.
    #[serde(default)]
    pub paratroopers: u8,
}

impl SidePublic {
    /// The opponent's knowledge when the pile is shuffled: the cards known
    /// to lie in it may now be drawn.
    pub(crate) fn shuffle_pile(&mut self) {
        self.pile_or_drawn = self.pile_or_drawn.union(self.known_pile);
        self.known_pile = CardSet::EMPTY;
    }

    /// The opponent's knowledge when cards leave the pile or the slots a
    /// prayer filled from it (a draw into the hand, a revealed slot, the end
    /// of a battle): those hold at most their cards not known in the pile
    /// unseen.
    pub(crate) fn tighten_unseen(&mut self) {
        let free = (self.pile as usize + self.line.brought_from_pile())
            .saturating_sub(self.known_pile.len());
        self.unseen_in_pile = self.unseen_in_pile.min(free as u8);
    }

    /// The opponent's knowledge when a face-down card a prayer brought
    /// from the pile is revealed (before `card` leaves the sets of cards
    /// known elsewhere). Out of line: it is rare, and inlined it would make
    /// every reveal save more registers.
    #[cold]
    #[inline(never)]
    pub(crate) fn reveal_from_pile(&mut self, card: Soldier) {
        // A card from the pile that was never seen there was one of its
        // unseen cards.
        if !self.pile_or_drawn.contains(card) {
            self.unseen_in_pile = self.unseen_in_pile.saturating_sub(1);
        }
        self.tighten_unseen();
    }

    pub(crate) fn new(hand: u8) -> Self {
        SidePublic {
            hand,
            aside: 0,
            pile: 0,
            guards: Guard::ORDER.map(Guard::strength),
            prayed: false,
            line: LineView::default(),
            known_alive: CardSet::EMPTY,
            known_pile: CardSet::EMPTY,
            known_aside: CardSet::EMPTY,
            pile_or_drawn: CardSet::EMPTY,
            unseen_in_pile: 0,
            donors: CardSet::EMPTY,
            draw_roll: 0,
            paratroopers: 0,
        }
    }
}

/// What only the owner knows of his side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SideHidden {
    /// Cards in hand.
    pub hand: CardSet,
    /// Cards set aside until the round ends.
    pub aside: CardSet,
    /// Cards in the pile.
    pub pile: CardSet,
    /// The card in each slot of the line (blank past its length).
    pub line: [Soldier; LINE_CAP],
}

impl SideHidden {
    pub(crate) fn new() -> Self {
        SideHidden {
            hand: CardSet::ALL,
            aside: CardSet::EMPTY,
            pile: CardSet::EMPTY,
            line: [Soldier::default(); LINE_CAP],
        }
    }
}

/// Everything both players see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Public {
    /// Current round, from 1 (0 during setup).
    pub round: u16,
    /// Player decisions so far.
    pub moves: u32,
    /// What happens next.
    pub phase: Phase,
    /// The first attacker of the round (before the halved-army rule).
    pub first: PlayerId,
    /// Battle of the round, 1 or 2.
    pub battle_no: u8,
    /// The halved-army rule swapped the roles this round.
    pub swapped: bool,
    /// Who last attacked with at least one card this round.
    pub last_attacker: Option<PlayerId>,
    /// Each player's initiative die (0 while not rolled): kept because who
    /// attacks first does not tell the values.
    #[serde(default)]
    pub initiative: PerPlayer<u8>,
    /// Both sides, indexed by seat.
    pub sides: PerPlayer<SidePublic>,
    /// The battle in progress.
    pub battle: Battle,
    /// The result once over.
    pub outcome: Option<Outcome>,
}

/// A whole game of card war: rules, the public state and each player's
/// hidden cards. Create it with [`game_traits::Game::new`], or any
/// position with [`PositionBuilder`](crate::PositionBuilder) or
/// [`CardWar::from_notation`].
///
/// ```
/// use cardwar_core::game_traits::{play_match, RandomAgent};
/// use cardwar_core::{CardWar, Heuristic, Rules};
///
/// let (mut a, mut b) = (Heuristic, RandomAgent);
/// let (state, record) = play_match::<CardWar>(&Rules::default(), 7, &mut [&mut a, &mut b]).unwrap();
/// assert!(state.outcome().is_some());
/// assert_eq!(record.replay().unwrap(), state);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "crate::validate::RawCardWar")]
pub struct CardWar {
    pub(crate) rules: Rules,
    pub(crate) public: Public,
    pub(crate) hidden: PerPlayer<SideHidden>,
}

impl CardWar {
    /// Everything both players see.
    pub fn public(&self) -> &Public {
        &self.public
    }

    /// The hidden cards of `player`'s side.
    pub fn hidden(&self, player: PlayerId) -> &SideHidden {
        &self.hidden[player]
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.public.phase
    }

    /// The result once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.public.outcome
    }

    /// The current round (0 during setup).
    pub fn round(&self) -> u16 {
        self.public.round
    }

    /// The public view of `player`'s side.
    pub fn side(&self, player: PlayerId) -> &SidePublic {
        &self.public.sides[player]
    }

    /// The card `player` has in slot `i` of his line.
    pub fn line_card(&self, player: PlayerId, i: usize) -> Option<Soldier> {
        let s = player;
        (i < self.public.sides[s].line.len()).then(|| self.hidden[s].line[i])
    }

    /// The health of `player`'s open card, if he has one.
    pub fn open_health(&self, player: PlayerId) -> Option<u8> {
        let s = player;
        match self.public.battle.open[s] {
            Open::None => None,
            Open::Soldier => self.public.sides[s].line.slots().first().map(|v| v.health),
            Open::Guard(g) => Some(self.public.sides[s].guards[g.index()]),
        }
    }
}
