//! Positions a user can build: [`PositionBuilder`] sets any part of a
//! position the rules allow and checks the whole with the same validation
//! as deserialisation.

use game_traits::{Outcome, PerPlayer, PlayerId};

use crate::card::{CardSet, Soldier};
use crate::error::CardWarError;
use crate::line::{LineView, SlotView, LINE_CAP};
use crate::prayer::Prayer;
use crate::rules::Rules;
use crate::state::{
    CardWar, FightReport, Fighter, LayKind, Open, Pending, Phase, Public, SideHidden,
};

/// One card of a line, for [`PositionBuilder::line`], in fighting order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineCard {
    /// Face down, laid from the hand.
    FaceDown {
        /// The card.
        card: Soldier,
        /// Health points health-1 cards in front of it gave it.
        extra: u8,
    },
    /// Face down, brought from the pile by a prayer (both players saw it
    /// come from there).
    FromPile {
        /// The card.
        card: Soldier,
        /// Health points health-1 cards in front of it gave it.
        extra: u8,
    },
    /// Face up, with the health it has left (at least 1).
    Revealed {
        /// The card.
        card: Soldier,
        /// Its current health.
        health: u8,
    },
}

impl LineCard {
    /// `card` face down, laid from the hand, with no extra health.
    pub const fn down(card: Soldier) -> LineCard {
        LineCard::FaceDown { card, extra: 0 }
    }

    /// `card` face up at full health.
    pub const fn up(card: Soldier) -> LineCard {
        LineCard::Revealed {
            card,
            health: card.strength(),
        }
    }

    /// The card.
    pub const fn card(self) -> Soldier {
        match self {
            LineCard::FaceDown { card, .. }
            | LineCard::FromPile { card, .. }
            | LineCard::Revealed { card, .. } => card,
        }
    }

    /// What both players see of the slot.
    fn slot(self) -> SlotView {
        match self {
            LineCard::FaceDown { extra, .. } => SlotView {
                extra,
                ..SlotView::default()
            },
            LineCard::FromPile { extra, .. } => SlotView {
                extra,
                from_pile: true,
                ..SlotView::default()
            },
            LineCard::Revealed { card, health } => SlotView {
                card: Some(card),
                health,
                ..SlotView::default()
            },
        }
    }

    /// The line card of a slot holding `card`.
    pub(crate) fn of_slot(slot: &SlotView, card: Soldier) -> LineCard {
        match (slot.card, slot.from_pile) {
            (Some(_), _) => LineCard::Revealed {
                card,
                health: slot.health,
            },
            (None, true) => LineCard::FromPile {
                card,
                extra: slot.extra,
            },
            (None, false) => LineCard::FaceDown {
                card,
                extra: slot.extra,
            },
        }
    }
}

/// What the opponent knows of a side's unseen cards (see the fields of
/// [`SidePublic`](crate::SidePublic) of the same names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Knowledge {
    /// Soldiers known alive in the hand, set aside or face down.
    pub known_alive: CardSet,
    /// Soldiers known to lie in the pile.
    pub known_pile: CardSet,
    /// Soldiers known to be set aside.
    pub known_aside: CardSet,
    /// Soldiers known to have been in the pile at its last shuffle.
    pub pile_or_drawn: CardSet,
    /// The most cards of the pile (and of the face-down slots a prayer
    /// brought from it) never seen there.
    pub unseen_in_pile: u8,
}

/// A validated builder of any position the rules allow (as cozy-chess's
/// `BoardBuilder`): the round and roles, each side's lines, hand, set-aside
/// cards, pile, guards, prayer and the opponent's knowledge, and the battle
/// in progress.
///
/// It starts from round 1 with P0 about to lay his attack line of 12 and
/// every soldier in hand. A side's hand, unless set, holds every soldier
/// not placed elsewhere (line, aside, pile, donors); its knowledge, unless set, is that the opponent
/// saw nothing (every card of the pile unseen).
/// [`PositionBuilder::begin_fights`] lets the engine open the front cards
/// as when the last card of the lines is laid.
///
/// ```
/// use cardwar_core::{CardWar, Game, LineCard, Phase, PlayerId, PositionBuilder, Rules, Soldier};
///
/// let king = Soldier::of_rank(13, 0).unwrap();
/// let five = Soldier::of_rank(5, 0).unwrap();
/// let game = PositionBuilder::new(Rules::default())
///     .line(PlayerId::P0, &[LineCard::down(king)])
///     .line(PlayerId::P1, &[LineCard::down(five)])
///     .begin_fights()
///     .build()
///     .unwrap();
/// assert_eq!(game.phase(), Phase::AttackDie);
/// assert_eq!(game.open_health(PlayerId::P1), Some(5));
/// assert_eq!(game.hidden(PlayerId::P0).hand.len(), 23);
/// ```
#[derive(Clone, Debug)]
pub struct PositionBuilder {
    rules: Rules,
    public: Public,
    lines: PerPlayer<Vec<LineCard>>,
    hands: PerPlayer<Option<CardSet>>,
    asides: PerPlayer<CardSet>,
    piles: PerPlayer<CardSet>,
    knowledge: PerPlayer<Option<Knowledge>>,
    begin_fights: bool,
}

impl PositionBuilder {
    /// Round 1, P0 to lay an attack line of 12, every soldier in hand.
    pub fn new(rules: Rules) -> PositionBuilder {
        let mut public = CardWar::start(rules).public;
        public.round = 1;
        public.phase = Phase::Lay {
            player: PlayerId::P0,
            kind: LayKind::Attack,
            left: 12,
        };
        PositionBuilder {
            rules,
            public,
            lines: PerPlayer::default(),
            hands: PerPlayer::default(),
            asides: PerPlayer::default(),
            piles: PerPlayer::default(),
            knowledge: PerPlayer::default(),
            begin_fights: false,
        }
    }

    /// Every part of `game`, to change some of them.
    pub fn from_state(game: &CardWar) -> PositionBuilder {
        let side = |p: PlayerId| {
            let s = &game.public.sides[p];
            Knowledge {
                known_alive: s.known_alive,
                known_pile: s.known_pile,
                known_aside: s.known_aside,
                pile_or_drawn: s.pile_or_drawn,
                unseen_in_pile: s.unseen_in_pile,
            }
        };
        PositionBuilder {
            rules: game.rules,
            public: game.public,
            lines: PerPlayer::from_fn(|p| {
                let slots = game.public.sides[p].line.slots();
                slots
                    .iter()
                    .zip(game.hidden[p].line)
                    .map(|(slot, card)| LineCard::of_slot(slot, card))
                    .collect()
            }),
            hands: PerPlayer::from_fn(|p| Some(game.hidden[p].hand)),
            asides: PerPlayer::from_fn(|p| game.hidden[p].aside),
            piles: PerPlayer::from_fn(|p| game.hidden[p].pile),
            knowledge: PerPlayer::from_fn(|p| Some(side(p))),
            begin_fights: false,
        }
    }

    /// The rule set.
    pub fn rules(mut self, rules: Rules) -> Self {
        self.rules = rules;
        self
    }

    /// The round (from 1; 0 during setup).
    pub fn round(mut self, round: u16) -> Self {
        self.public.round = round;
        self
    }

    /// Player decisions made so far.
    pub fn moves(mut self, moves: u32) -> Self {
        self.public.moves = moves;
        self
    }

    /// What happens next. [`Phase::Over`] needs an [`PositionBuilder::outcome`].
    pub fn phase(mut self, phase: Phase) -> Self {
        self.public.phase = phase;
        self
    }

    /// The result of a game that is over.
    pub fn outcome(mut self, outcome: Option<Outcome>) -> Self {
        self.public.outcome = outcome;
        self
    }

    /// The round's first attacker (before the halved-army rule).
    pub fn first(mut self, player: PlayerId) -> Self {
        self.public.first = player;
        self
    }

    /// The battle of the round, 1 or 2.
    pub fn battle_no(mut self, battle_no: u8) -> Self {
        self.public.battle_no = battle_no;
        self
    }

    /// Whether the halved-army rule swapped the roles this round.
    pub fn swapped(mut self, swapped: bool) -> Self {
        self.public.swapped = swapped;
        self
    }

    /// Who last attacked with at least one card this round.
    pub fn last_attacker(mut self, player: Option<PlayerId>) -> Self {
        self.public.last_attacker = player;
        self
    }

    /// The attacker of the battle in progress.
    pub fn attacker(mut self, player: PlayerId) -> Self {
        self.public.battle.attacker = player;
        self
    }

    /// `player`'s line, slot 0 (the next to fight) first.
    pub fn line(mut self, player: PlayerId, cards: &[LineCard]) -> Self {
        self.lines[player] = cards.to_vec();
        self
    }

    /// `player`'s hand (by default every soldier not placed elsewhere).
    pub fn hand(mut self, player: PlayerId, cards: CardSet) -> Self {
        self.hands[player] = Some(cards);
        self
    }

    /// `player`'s cards set aside until the round ends.
    pub fn aside(mut self, player: PlayerId, cards: CardSet) -> Self {
        self.asides[player] = cards;
        self
    }

    /// `player`'s pile.
    pub fn pile(mut self, player: PlayerId, cards: CardSet) -> Self {
        self.piles[player] = cards;
        self
    }

    /// The health of `player`'s two aces and joker (0: dead).
    pub fn guards(mut self, player: PlayerId, health: [u8; 3]) -> Self {
        self.public.sides[player].guards = health;
        self
    }

    /// Whether `player` has prayed (once per game).
    pub fn prayed(mut self, player: PlayerId, prayed: bool) -> Self {
        self.public.sides[player].prayed = prayed;
        self
    }

    /// The health-1 cards lying under `player`'s front card (ruling 7;
    /// they fought face up, so both players know them).
    pub fn donors(mut self, player: PlayerId, cards: CardSet) -> Self {
        self.public.sides[player].donors = cards;
        self
    }

    /// Both initiative dice, P0's then P1's (0: not rolled).
    pub fn initiative(mut self, p0: u8, p1: u8) -> Self {
        self.public.initiative = PerPlayer::new(p0, p1);
        self
    }

    /// The 2d6 of `player`'s last draw roll (0: none yet).
    pub fn draw_roll(mut self, player: PlayerId, sum: u8) -> Self {
        self.public.sides[player].draw_roll = sum;
        self
    }

    /// The die of `player`'s paratroopers prayer (0: none).
    pub fn paratroopers(mut self, player: PlayerId, die: u8) -> Self {
        self.public.sides[player].paratroopers = die;
        self
    }

    /// What the opponent knows of `player`'s unseen cards (by default
    /// nothing: every card of the pile unseen).
    pub fn knowledge(mut self, player: PlayerId, knowledge: Knowledge) -> Self {
        self.knowledge[player] = Some(knowledge);
        self
    }

    /// `player`'s open card in the battle.
    pub fn open(mut self, player: PlayerId, open: Open) -> Self {
        self.public.battle.open[player] = open;
        self
    }

    /// The kills and die modifiers of `player`'s open card.
    pub fn fighter(mut self, player: PlayerId, fighter: Fighter) -> Self {
        self.public.battle.fighter[player] = fighter;
        self
    }

    /// Prayer effects waiting for `player`'s next fight.
    pub fn pending(mut self, player: PlayerId, pending: Pending) -> Self {
        self.public.battle.pending[player] = pending;
        self
    }

    /// Whether `player` was asked to pray before the current fight.
    pub fn asked(mut self, player: PlayerId, asked: bool) -> Self {
        self.public.battle.asked[player] = asked;
        self
    }

    /// The attacker's die of the current fight (0 before it is rolled).
    pub fn attack_die(mut self, die: u8) -> Self {
        self.public.battle.attack_die = die;
        self
    }

    /// The last fight resolved.
    pub fn last_fight(mut self, report: Option<FightReport>) -> Self {
        self.public.battle.last_fight = report;
        self
    }

    /// The last prayer and who made it.
    pub fn last_prayer(mut self, prayer: Option<(PlayerId, Prayer)>) -> Self {
        self.public.battle.last_prayer = prayer;
        self
    }

    /// The lines are laid: at [`PositionBuilder::build`], the engine starts
    /// the fights as when the last card is laid (the attacker is the last
    /// attacker; the front cards, or the defender's first living guard,
    /// open; the prayer questions due are asked), which sets the phase.
    pub fn begin_fights(mut self) -> Self {
        self.begin_fights = true;
        self
    }

    /// The position, if it is one the rules allow.
    pub fn build(self) -> Result<CardWar, CardWarError> {
        let invalid = CardWarError::InvalidPosition;
        let mut public = self.public;
        let mut hidden = PerPlayer::new(SideHidden::new(), SideHidden::new());
        for p in PlayerId::BOTH {
            let cards = &self.lines[p];
            if cards.len() > LINE_CAP {
                return Err(invalid("a line holds at most 24 cards"));
            }
            let (side, h) = (&mut public.sides[p], &mut hidden[p]);
            let mut line = LineView::default();
            let mut placed = CardSet::EMPTY;
            for (i, card) in cards.iter().enumerate() {
                line.push_slot(card.slot());
                h.line[i] = card.card();
                placed.insert(card.card());
            }
            h.aside = self.asides[p];
            h.pile = self.piles[p];
            h.hand = self.hands[p].unwrap_or(
                CardSet::ALL.minus(placed.union(h.aside).union(h.pile).union(side.donors)),
            );
            side.line = line;
            // Counts from the sets; a set overlapping another fails the
            // check of the cards below.
            side.hand = h.hand.len() as u8;
            side.aside = h.aside.len() as u8;
            side.pile = h.pile.len() as u8;
            let k = self.knowledge[p].unwrap_or(Knowledge {
                unseen_in_pile: (h.pile.len() + side.line.brought_from_pile()) as u8,
                ..Knowledge::default()
            });
            side.known_alive = k.known_alive;
            side.known_pile = k.known_pile;
            side.known_aside = k.known_aside;
            side.pile_or_drawn = k.pile_or_drawn;
            side.unseen_in_pile = k.unseen_in_pile;
        }
        let mut game = CardWar {
            rules: self.rules,
            public,
            hidden,
        };
        if self.begin_fights {
            game.public.phase = Phase::AttackDie;
            game.start_fights();
        }
        game.validate(invalid)?;
        Ok(game)
    }
}

impl CardWar {
    /// A builder holding every part of this position, to change some.
    pub fn to_builder(&self) -> PositionBuilder {
        PositionBuilder::from_state(self)
    }
}
