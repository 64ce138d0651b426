//! One player's observation on the wire: everything [`Observation`] holds,
//! as named fields, sets of cards as lists of codes.

use game_traits::schemars::JsonSchema;
use game_traits::{Outcome, PlayerId};
use serde::Serialize;

use super::{codes, flag_number, per_seat, CardCode, DeckCode, RulesStruct};
use crate::card::Deck;
use crate::flag::{Flag, FlagId};
use crate::observation::Observation;
use crate::state::Phase;

/// One player's observation of Battle Line: the whole table, his hand, the
/// sizes of what he cannot see, and the cards he knows in hidden places.
/// Per-seat data are two-element arrays indexed by the seat (0, 1); flags
/// are numbered 1 to 9; card lists are in card order unless said otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineObservation")]
pub struct ObservationStruct {
    /// Whose observation this is.
    pub viewer: PlayerId,
    /// The rules in force.
    pub rules: RulesStruct,
    /// Where the turn stands.
    pub phase: PhaseStruct,
    /// Whose turn it is (the first player during the deal).
    pub player: PlayerId,
    /// The viewer's hand.
    pub hand: Vec<CardCode>,
    /// Per seat, the number of cards in the hand.
    pub hand_sizes: [u8; 2],
    /// Per seat, the cards of the other seat's hand that this seat knows:
    /// cards it returned with Scout that the other then drew (both players
    /// saw the returns and who drew them).
    pub revealed: [Vec<CardCode>; 2],
    /// The nine flags, flag 1 (leftmost) first.
    pub flags: Vec<FlagStruct>,
    /// Per seat, the cards laid face up on the seat's side: its played
    /// guile tactics and the cards discarded from its side.
    pub discards: [Vec<CardCode>; 2],
    /// Per seat, the tactics cards it has played (the tactics limit
    /// compares these).
    pub tactics_played: [u8; 2],
    /// Per seat, whether it has played a Leader.
    pub leaders_played: [bool; 2],
    /// The troop deck.
    pub troop_deck: DeckStruct,
    /// The tactics deck (empty when the rules have no tactics cards).
    pub tactics_deck: DeckStruct,
    /// Cards the player still draws this turn.
    pub draws_due: u8,
    /// Cards the player still returns with Scout this turn.
    pub returns_due: u8,
    /// Cards the player has drawn this turn.
    pub drawn: u8,
    /// Passes in a row (two end the game by the end rule).
    pub passes: u8,
    /// Who played Scout, if anyone: his returns may still lie on the decks.
    pub scout_by: Option<PlayerId>,
    /// Player decisions so far (chance outcomes are not counted).
    pub moves: u32,
    /// The result, once the game is over.
    pub outcome: Option<OutcomeStruct>,
    /// Whether the game ended by the end rule (two passes in a row).
    pub settled: bool,
}

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schemars(crate = "game_traits::schemars", rename = "BattleLinePhase")]
pub enum PhaseStruct {
    /// Chance: dealing the starting hands.
    Setup,
    /// The player plays a card, a tactic, or passes (and claims first when
    /// the rules have claims at the start of the turn).
    Play,
    /// After playing: claims, then the choice of deck.
    Claim,
    /// Further draws (Scout), or the choice of deck when claims are not
    /// made here.
    Draw,
    /// Chance: the next card of `deck`.
    Deal {
        /// The deck the card comes from.
        deck: DeckCode,
    },
    /// Scout: returning cards to the decks.
    Return,
    /// The game is over.
    Over,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineOutcome")]
pub enum OutcomeStruct {
    /// One player won.
    Win {
        /// The winner.
        winner: PlayerId,
    },
    /// Nobody won.
    Draw,
}

/// One flag: both sides, Fog and Mud, who completed first, who claimed it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineFlag")]
pub struct FlagStruct {
    /// The flag's number, 1 (leftmost) to 9.
    pub flag: u8,
    /// Per seat, its cards at the flag in the order played.
    pub cards: [Vec<CardCode>; 2],
    /// Whether Fog lies beside the flag (sums only).
    pub fog: bool,
    /// Whether Mud lies beside the flag (formations of four cards).
    pub mud: bool,
    /// Who laid Fog: recorded only when the rules let Redeploy and
    /// Deserter take it, `null` otherwise.
    pub fog_by: Option<PlayerId>,
    /// Who laid Mud, recorded as `fog_by`.
    pub mud_by: Option<PlayerId>,
    /// Of the complete sides, the one completed first.
    pub first_complete: Option<PlayerId>,
    /// Who claimed the flag.
    pub claimed_by: Option<PlayerId>,
}

/// One draw pile as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineDeckView")]
pub struct DeckStruct {
    /// Cards left, the Scout returns on top included.
    pub size: u8,
    /// How many of them are Scout returns on top (drawn first).
    pub returned: u8,
    /// Those returns, bottom first, when the viewer returned them; empty
    /// when the other player did (only `returned` counts them).
    pub returned_cards: Vec<CardCode>,
}

impl From<Phase> for PhaseStruct {
    fn from(phase: Phase) -> PhaseStruct {
        match phase {
            Phase::Setup => PhaseStruct::Setup,
            Phase::Play => PhaseStruct::Play,
            Phase::Claim => PhaseStruct::Claim,
            Phase::Draw => PhaseStruct::Draw,
            Phase::Deal(deck) => PhaseStruct::Deal { deck: deck.into() },
            Phase::Return => PhaseStruct::Return,
            Phase::Over => PhaseStruct::Over,
        }
    }
}

impl From<Outcome> for OutcomeStruct {
    fn from(outcome: Outcome) -> OutcomeStruct {
        match outcome {
            Outcome::Win(winner) => OutcomeStruct::Win { winner },
            Outcome::Draw => OutcomeStruct::Draw,
        }
    }
}

fn flag(id: FlagId, f: &Flag) -> FlagStruct {
    FlagStruct {
        flag: flag_number(id),
        cards: per_seat(|p| codes(f.side(p).iter())),
        fog: f.env().fog,
        mud: f.env().mud,
        fog_by: f.fog_owner(),
        mud_by: f.mud_owner(),
        first_complete: f.first_complete(),
        claimed_by: f.claimed(),
    }
}

fn deck(o: &Observation, d: Deck) -> DeckStruct {
    DeckStruct {
        size: o.deck_len(d) as u8,
        returned: o.returned_len(d) as u8,
        returned_cards: codes(o.returned_by_viewer(d)),
    }
}

/// The wire form of `o`.
pub(super) fn of(o: &Observation) -> ObservationStruct {
    let t = o.table();
    let own = o.hand().len() as u8;
    ObservationStruct {
        viewer: o.viewer(),
        rules: o.rules().into(),
        phase: t.phase().into(),
        player: t.player(),
        hand: codes(o.hand()),
        hand_sizes: per_seat(|p| {
            if p == o.viewer() {
                own
            } else {
                o.opponent_hand_len() as u8
            }
        }),
        revealed: per_seat(|p| codes(o.revealed[p])),
        flags: FlagId::all().map(|id| flag(id, t.flag(id))).collect(),
        discards: per_seat(|p| codes(t.discards(p))),
        tactics_played: per_seat(|p| t.tactics_played(p)),
        leaders_played: per_seat(|p| t.leader_played(p)),
        troop_deck: deck(o, Deck::Troop),
        tactics_deck: deck(o, Deck::Tactics),
        draws_due: t.draws_due(),
        returns_due: t.returns_due(),
        drawn: t.drawn(),
        passes: t.passes(),
        scout_by: t.scout_by(),
        moves: t.moves(),
        outcome: t.outcome().map(Into::into),
        settled: t.settled(),
    }
}
