//! One player's observation on the wire: every field of [`Observation`],
//! sets of cards as lists of codes in id order (`2a, 2b, 3a, ..., Kb`).

use game_traits::schemars::JsonSchema;
use game_traits::{Outcome, PlayerId};
use serde::Serialize;

use super::CardCode;
use crate::card::{CardSet, Guard};
use crate::observation::Observation;
use crate::prayer::Prayer;
use crate::rules::Rules;
use crate::state::{LayKind, Open, Phase, SidePublic};

/// One player's observation of card war: the rules, everything public
/// (with what each side knows of the other's cards) and the viewer's own
/// cards. Per-side data is in `sides`, indexed by seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct CardWarObservationStruct {
    /// Whose observation this is.
    pub viewer: PlayerId,
    /// The rule set, in its own serde form (the registry's parameters).
    pub rules: Rules,
    /// The current round, from 1 (0 during setup).
    pub round: u16,
    /// The battle of the round, 1 or 2.
    pub battle: u8,
    /// Player decisions so far.
    pub moves: u32,
    /// What happens next.
    pub phase: CardWarPhase,
    /// The player who decides now; `null` while chance acts or once the
    /// game is over.
    pub to_move: Option<PlayerId>,
    /// The first attacker of the round (before the halved-army rule).
    pub first_attacker: PlayerId,
    /// The attacker of the battle in progress.
    pub attacker: PlayerId,
    /// The halved-army rule swapped the roles this round.
    pub swapped: bool,
    /// Who last attacked with at least one card this round.
    pub last_attacker: Option<PlayerId>,
    /// Each seat's initiative die (0 while not rolled).
    pub initiative: [u8; 2],
    /// The attacker's die of the current fight (0 before it is rolled).
    pub attack_die: u8,
    /// The last fight resolved, kept into the next battle.
    pub last_fight: Option<CardWarFight>,
    /// The last prayer, kept into the next battle.
    pub last_prayer: Option<CardWarPrayer>,
    /// The result once the game is over.
    pub outcome: Option<CardWarOutcome>,
    /// Both sides as the viewer sees them, indexed by seat.
    pub sides: [CardWarSide; 2],
    /// The viewer's own cards, which only he sees.
    pub own: CardWarOwnCards,
}

/// Where the game stands, tagged by `"type"`: who acts and what the next
/// action means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CardWarPhase {
    /// Chance: the next card `player` puts aside into his pile at setup.
    Aside {
        /// Whose soldiers.
        player: PlayerId,
        /// Cards still to put aside.
        left: u8,
    },
    /// Chance: the initiative dice (equal dice are rolled again).
    Initiative {
        /// Seat 0's die, 0 while not rolled.
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
        line: CardWarLineKind,
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

/// How a line being laid may end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(rename_all = "snake_case")]
pub enum CardWarLineKind {
    /// An attack line of a fixed size.
    Attack,
    /// An attack line of any size: the rest of the hand is a reserve.
    FreeAttack,
    /// A defence line as long as the attack line, or the whole hand.
    Defence,
}

impl CardWarLineKind {
    /// Every kind of line.
    pub const ALL: [CardWarLineKind; 3] = [
        CardWarLineKind::Attack,
        CardWarLineKind::FreeAttack,
        CardWarLineKind::Defence,
    ];

    /// Its code as the wire writes it (`"free_attack"`).
    pub const fn code(self) -> &'static str {
        match self {
            CardWarLineKind::Attack => "attack",
            CardWarLineKind::FreeAttack => "free_attack",
            CardWarLineKind::Defence => "defence",
        }
    }

    /// Its name as a player reads it (`"free attack line"`): the
    /// glossary's ([`Wire::glossary`](game_traits::Wire::glossary)).
    pub const fn name(self) -> &'static str {
        match self {
            CardWarLineKind::Attack => "attack line",
            CardWarLineKind::FreeAttack => "free attack line",
            CardWarLineKind::Defence => "defence line",
        }
    }
}

/// The dice and totals of a fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct CardWarFight {
    /// The attacker's die as rolled.
    pub attack_die: u8,
    /// The attacker's total.
    pub attack_total: u16,
    /// The defender's die as rolled (the higher of two for a guard).
    pub defence_die: u8,
    /// The defender's total.
    pub defence_total: u16,
}

/// A prayer and its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct CardWarPrayer {
    /// Who prayed.
    pub player: PlayerId,
    /// The 2d6 sum that chose the result, 2..=12.
    pub sum: u8,
    /// The result.
    pub result: CardWarPrayerResult,
}

/// The result of a prayer, one per sum of 2d6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(rename_all = "snake_case")]
pub enum CardWarPrayerResult {
    /// 2: +2 to the praying side's total in this fight.
    Grin,
    /// 3: +3 to the total.
    Pity,
    /// 4: +4 to the total.
    Condescension,
    /// 5: +5 health to the praying side's open card.
    Doctors,
    /// 6: the praying side's die is doubled.
    Hellfire,
    /// 7: one card from the pile joins the end of the line.
    Reinforcement,
    /// 8: the opponent's open card loses half its health and its next die
    /// is halved.
    Grenade,
    /// 9: the opponent's open card dies if wounded.
    Gangrene,
    /// 10: the opponent's soldiers on the field are revealed and the
    /// strongest is removed.
    Sniper,
    /// 11: a die's worth of cards from the pile join the end of the line.
    Paratroopers,
    /// 12: every opponent soldier on the field dies.
    AtomicBomb,
}

impl CardWarPrayerResult {
    /// Its code as the wire writes it (`"atomic_bomb"`).
    pub const fn code(self) -> &'static str {
        match self {
            CardWarPrayerResult::Grin => "grin",
            CardWarPrayerResult::Pity => "pity",
            CardWarPrayerResult::Condescension => "condescension",
            CardWarPrayerResult::Doctors => "doctors",
            CardWarPrayerResult::Hellfire => "hellfire",
            CardWarPrayerResult::Reinforcement => "reinforcement",
            CardWarPrayerResult::Grenade => "grenade",
            CardWarPrayerResult::Gangrene => "gangrene",
            CardWarPrayerResult::Sniper => "sniper",
            CardWarPrayerResult::Paratroopers => "paratroopers",
            CardWarPrayerResult::AtomicBomb => "atomic_bomb",
        }
    }
}

/// The result of a finished game, tagged by `"type"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CardWarOutcome {
    /// One player won.
    Win {
        /// The winner.
        winner: PlayerId,
    },
    /// Nobody won.
    Draw,
}

/// Which card of a side fights now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub enum CardWarOpen {
    /// None yet: the next one is revealed before the fight.
    #[serde(rename = "none")]
    None,
    /// The soldier in slot 0 of the side's line.
    #[serde(rename = "soldier")]
    Soldier,
    /// The first ace.
    A1,
    /// The second ace.
    A2,
    /// The joker, the general.
    Jk,
}

/// What both players see of one side, with the state of its fighter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct CardWarSide {
    /// Cards in hand (available this round).
    pub hand: u8,
    /// Cards set aside until the round ends (survivors of a line).
    pub aside: u8,
    /// Cards in the pile.
    pub pile: u8,
    /// Health of the first ace, the second ace and the joker, in that
    /// order (0 = dead).
    pub guards: [u8; 3],
    /// Whether the side has prayed (once per game).
    pub prayed: bool,
    /// Which card of the side fights now.
    pub open: CardWarOpen,
    /// Cards the open card has killed in this battle.
    pub kills: u8,
    /// Doublings of the open card's next die (three-kills bonus).
    pub doubled: u8,
    /// The open card's next die is halved (grenade).
    pub halved: bool,
    /// Prayer bonus added to the side's next total.
    pub pending_add: u8,
    /// Prayer doublings of the side's next die.
    pub pending_doubled: u8,
    /// Whether the side was asked to pray before the current fight.
    pub asked: bool,
    /// The line in fighting order: slot 0 fights first.
    pub line: Vec<CardWarSlot>,
    /// Health-1 cards lying under the front card of the line.
    pub donors: Vec<CardCode>,
    /// The opponent's knowledge: cards of this side known alive in hand,
    /// set aside or face down, without knowing which.
    pub known_alive: Vec<CardCode>,
    /// The opponent's knowledge: cards known to be set aside.
    pub known_aside: Vec<CardCode>,
    /// The opponent's knowledge: cards known to lie in the pile.
    pub known_pile: Vec<CardCode>,
    /// The opponent's knowledge: cards in the pile when it was last
    /// shuffled, not seen since (still there, or drawn).
    pub pile_or_drawn: Vec<CardCode>,
    /// The opponent's knowledge: the most cards of the pile, and of the
    /// face-down slots a prayer brought from it, that he never saw there.
    pub unseen_in_pile: u8,
    /// The side's last 2d6 draw roll (0 before round 2's).
    pub draw_roll: u8,
    /// The die of the side's paratroopers prayer (0 if none).
    pub paratroopers: u8,
}

/// What both players see of one place in a line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct CardWarSlot {
    /// The card once revealed; `null` while face down (the viewer's own
    /// face-down cards are in `own.line`).
    pub card: Option<CardCode>,
    /// Health of a revealed card (0 while face down).
    pub health: u8,
    /// Health given to a face-down card by health-1 cards.
    pub extra: u8,
    /// The face-down card was brought from the pile by a prayer.
    pub from_pile: bool,
}

/// The viewer's own cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars")]
pub struct CardWarOwnCards {
    /// Cards in hand.
    pub hand: Vec<CardCode>,
    /// Cards set aside until the round ends.
    pub aside: Vec<CardCode>,
    /// Cards in the pile.
    pub pile: Vec<CardCode>,
    /// Every card of the viewer's line in fighting order, face down or
    /// not (as long as `sides[viewer].line`).
    pub line: Vec<CardCode>,
}

fn codes(set: CardSet) -> Vec<CardCode> {
    set.iter().map(CardCode::from).collect()
}

impl CardWarObservationStruct {
    pub(super) fn of(o: &Observation) -> Self {
        let p = &o.public;
        let b = &p.battle;
        let side = |s: PlayerId| CardWarSide::of(&p.sides[s], o, s);
        let line_len = p.sides[o.viewer].line.len();
        CardWarObservationStruct {
            viewer: o.viewer,
            rules: o.rules,
            round: p.round,
            battle: p.battle_no,
            moves: p.moves,
            phase: CardWarPhase::of(p.phase),
            to_move: match p.phase {
                Phase::Lay { player, .. } | Phase::Pray { player } => Some(player),
                _ => None,
            },
            first_attacker: p.first,
            attacker: b.attacker,
            swapped: p.swapped,
            last_attacker: p.last_attacker,
            initiative: p.initiative.into_array(),
            attack_die: b.attack_die,
            last_fight: b.last_fight.map(|f| CardWarFight {
                attack_die: f.attack_die,
                attack_total: f.attack_total,
                defence_die: f.defence_die,
                defence_total: f.defence_total,
            }),
            last_prayer: b.last_prayer.map(|(player, prayer)| CardWarPrayer {
                player,
                sum: prayer.sum(),
                result: prayer.into(),
            }),
            outcome: p.outcome.map(|o| match o {
                Outcome::Win(winner) => CardWarOutcome::Win { winner },
                Outcome::Draw => CardWarOutcome::Draw,
            }),
            sides: PlayerId::BOTH.map(side),
            own: CardWarOwnCards {
                hand: codes(o.own.hand),
                aside: codes(o.own.aside),
                pile: codes(o.own.pile),
                line: o.own.line[..line_len].iter().map(|&c| c.into()).collect(),
            },
        }
    }
}

impl CardWarSide {
    fn of(side: &SidePublic, o: &Observation, s: PlayerId) -> Self {
        let b = &o.public.battle;
        let (fighter, pending) = (b.fighter[s], b.pending[s]);
        CardWarSide {
            hand: side.hand,
            aside: side.aside,
            pile: side.pile,
            guards: side.guards,
            prayed: side.prayed,
            open: b.open[s].into(),
            kills: fighter.kills,
            doubled: fighter.doubled,
            halved: fighter.halved,
            pending_add: pending.add,
            pending_doubled: pending.doubled,
            asked: b.asked[s],
            line: side
                .line
                .slots()
                .iter()
                .map(|slot| CardWarSlot {
                    card: slot.card.map(CardCode::from),
                    health: slot.health,
                    extra: slot.extra,
                    from_pile: slot.from_pile,
                })
                .collect(),
            donors: codes(side.donors),
            known_alive: codes(side.known_alive),
            known_aside: codes(side.known_aside),
            known_pile: codes(side.known_pile),
            pile_or_drawn: codes(side.pile_or_drawn),
            unseen_in_pile: side.unseen_in_pile,
            draw_roll: side.draw_roll,
            paratroopers: side.paratroopers,
        }
    }
}

impl CardWarPhase {
    fn of(phase: Phase) -> Self {
        match phase {
            Phase::Aside { colour, left } => CardWarPhase::Aside {
                player: colour,
                left,
            },
            Phase::Initiative { first_die } => CardWarPhase::Initiative { first_die },
            Phase::DrawRoll { player } => CardWarPhase::DrawRoll { player },
            Phase::Draw { player, left } => CardWarPhase::Draw { player, left },
            Phase::Lay { player, kind, left } => CardWarPhase::Lay {
                player,
                line: match kind {
                    LayKind::Attack => CardWarLineKind::Attack,
                    LayKind::FreeAttack => CardWarLineKind::FreeAttack,
                    LayKind::Defence => CardWarLineKind::Defence,
                },
                left,
            },
            Phase::Pray { player } => CardWarPhase::Pray { player },
            Phase::PrayerRoll { player } => CardWarPhase::PrayerRoll { player },
            Phase::Reinforce { player, left } => CardWarPhase::Reinforce { player, left },
            Phase::ParatrooperRoll { player } => CardWarPhase::ParatrooperRoll { player },
            Phase::AttackDie => CardWarPhase::AttackDie,
            Phase::DefenceDie => CardWarPhase::DefenceDie,
            Phase::Over => CardWarPhase::Over,
        }
    }
}

impl From<Open> for CardWarOpen {
    fn from(open: Open) -> Self {
        match open {
            Open::None => CardWarOpen::None,
            Open::Soldier => CardWarOpen::Soldier,
            Open::Guard(Guard::FirstAce) => CardWarOpen::A1,
            Open::Guard(Guard::SecondAce) => CardWarOpen::A2,
            Open::Guard(Guard::Joker) => CardWarOpen::Jk,
        }
    }
}

impl From<CardWarPrayerResult> for Prayer {
    fn from(result: CardWarPrayerResult) -> Self {
        match result {
            CardWarPrayerResult::Grin => Prayer::Grin,
            CardWarPrayerResult::Pity => Prayer::Pity,
            CardWarPrayerResult::Condescension => Prayer::Condescension,
            CardWarPrayerResult::Doctors => Prayer::Doctors,
            CardWarPrayerResult::Hellfire => Prayer::Hellfire,
            CardWarPrayerResult::Reinforcement => Prayer::Reinforcement,
            CardWarPrayerResult::Grenade => Prayer::Grenade,
            CardWarPrayerResult::Gangrene => Prayer::Gangrene,
            CardWarPrayerResult::Sniper => Prayer::Sniper,
            CardWarPrayerResult::Paratroopers => Prayer::Paratroopers,
            CardWarPrayerResult::AtomicBomb => Prayer::AtomicBomb,
        }
    }
}

impl From<Prayer> for CardWarPrayerResult {
    fn from(prayer: Prayer) -> Self {
        match prayer {
            Prayer::Grin => CardWarPrayerResult::Grin,
            Prayer::Pity => CardWarPrayerResult::Pity,
            Prayer::Condescension => CardWarPrayerResult::Condescension,
            Prayer::Doctors => CardWarPrayerResult::Doctors,
            Prayer::Hellfire => CardWarPrayerResult::Hellfire,
            Prayer::Reinforcement => CardWarPrayerResult::Reinforcement,
            Prayer::Grenade => CardWarPrayerResult::Grenade,
            Prayer::Gangrene => CardWarPrayerResult::Gangrene,
            Prayer::Sniper => CardWarPrayerResult::Sniper,
            Prayer::Paratroopers => CardWarPrayerResult::Paratroopers,
            Prayer::AtomicBomb => CardWarPrayerResult::AtomicBomb,
        }
    }
}
