//! The rules in force, as the observation sends them: every field of
//! [`Rules`], its values as snake_case names.

use game_traits::schemars::JsonSchema;
use game_traits::PlayerId;
use serde::Serialize;

use crate::formation::FormationOrder;
use crate::rules::{
    ClaimTiming, EnvironmentTactics, LastPass, LeaderLimit, ProofTie, Rules, WildCards,
};

/// The rules of the game (see [`Rules`] for what each ruling does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineRules")]
pub struct RulesStruct {
    /// The ranking of the formation classes.
    pub formation_order: FormationOrderName,
    /// When flags are claimed.
    pub claim_timing: ClaimTimingName,
    /// How many Leaders a player may play.
    pub leader_limit: LeaderLimitName,
    /// What a claim proof makes of a completion that only ties.
    pub proof_tie: ProofTieName,
    /// The seat that starts.
    pub first_player: PlayerId,
    /// Whether Redeploy and Deserter can take Fog and Mud.
    pub environment_tactics: EnvironmentTacticsName,
    /// What a wild card may become.
    pub wild_cards: WildCardsName,
    /// Whether the ten tactics cards are in the game.
    pub tactics: bool,
    /// What the second of two passes in a row leads to.
    pub last_pass: LastPassName,
}

/// [`FormationOrder`] on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineFormationOrder")]
pub enum FormationOrderName {
    /// The rule text: Skirmish Line above Battalion.
    Text,
    /// The published GMT game: Battalion above Skirmish Line.
    Published,
}

/// [`ClaimTiming`] on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineClaimTiming")]
pub enum ClaimTimingName {
    /// After playing, before drawing.
    BeforeDraw,
    /// Only at the start of the turn, before playing.
    StartOfTurn,
}

/// [`LeaderLimit`] on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineLeaderLimit")]
pub enum LeaderLimitName {
    /// One Leader per player and game.
    OncePerGame,
    /// A Leader whenever none of the player's is on the table.
    OneOnTable,
}

/// [`ProofTie`] on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineProofTie")]
pub enum ProofTieName {
    /// The claim succeeds.
    ClaimantWins,
    /// A possible tie blocks the claim.
    Blocks,
}

/// [`EnvironmentTactics`] on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(
    crate = "game_traits::schemars",
    rename = "BattleLineEnvironmentTactics"
)]
pub enum EnvironmentTacticsName {
    /// Fog and Mud stay beside their flag.
    Fixed,
    /// Redeploy and Deserter can take them.
    Movable,
}

/// [`WildCards`] on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineWildCards")]
pub enum WildCardsName {
    /// Any card of its values, also one on the table.
    CopyTable,
    /// Only a troop card not visible on the table.
    UnseenOnly,
}

/// [`LastPass`] on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(crate = "game_traits::schemars", rename = "BattleLineLastPass")]
pub enum LastPassName {
    /// The passer still has his claim step, then the end rule settles.
    ClaimFirst,
    /// The end rule settles at once.
    SettleAtOnce,
}

impl From<&Rules> for RulesStruct {
    fn from(r: &Rules) -> RulesStruct {
        RulesStruct {
            formation_order: match r.formation_order {
                FormationOrder::Text => FormationOrderName::Text,
                FormationOrder::Published => FormationOrderName::Published,
            },
            claim_timing: match r.claim_timing {
                ClaimTiming::BeforeDraw => ClaimTimingName::BeforeDraw,
                ClaimTiming::StartOfTurn => ClaimTimingName::StartOfTurn,
            },
            leader_limit: match r.leader_limit {
                LeaderLimit::OncePerGame => LeaderLimitName::OncePerGame,
                LeaderLimit::OneOnTable => LeaderLimitName::OneOnTable,
            },
            proof_tie: match r.proof_tie {
                ProofTie::ClaimantWins => ProofTieName::ClaimantWins,
                ProofTie::Blocks => ProofTieName::Blocks,
            },
            first_player: r.first_player,
            environment_tactics: match r.environment_tactics {
                EnvironmentTactics::Fixed => EnvironmentTacticsName::Fixed,
                EnvironmentTactics::Movable => EnvironmentTacticsName::Movable,
            },
            wild_cards: match r.wild_cards {
                WildCards::CopyTable => WildCardsName::CopyTable,
                WildCards::UnseenOnly => WildCardsName::UnseenOnly,
            },
            tactics: r.tactics,
            last_pass: match r.last_pass {
                LastPass::ClaimFirst => LastPassName::ClaimFirst,
                LastPass::SettleAtOnce => LastPassName::SettleAtOnce,
            },
        }
    }
}
