//! The rules configuration: every ruling that could go the other way.

use game_traits::PlayerId;
use serde::{Deserialize, Serialize};

use crate::card::{CardSet, Deck};
use crate::formation::FormationOrder;

/// When a player may claim flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClaimTiming {
    /// In his turn after playing a card and before drawing (the main rule).
    #[default]
    BeforeDraw,
    /// Only at the start of his turn, before playing (the text's variant).
    StartOfTurn,
}

/// How many Leaders a player may play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LeaderLimit {
    /// Once a player has played a Leader, a second one stays in his hand to
    /// the end of the game (the text).
    #[default]
    OncePerGame,
    /// A player may play a Leader whenever none of his is on his side of the
    /// line (so again after his Leader was discarded).
    OneOnTable,
}

/// What a claim proof makes of an opponent completion that would only tie.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ProofTie {
    /// The claim succeeds: the opponent would complete last and lose the tie.
    #[default]
    ClaimantWins,
    /// A possible tie blocks the claim.
    Blocks,
}

/// Whether Fog and Mud can leave their flag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EnvironmentTactics {
    /// Fog and Mud stay beside their flag for the rest of the game; Redeploy
    /// and Deserter cannot take them (the project's ruling).
    #[default]
    Fixed,
    /// The published GMT reading: Redeploy may move one of the player's own
    /// Fog or Mud from an unclaimed flag beside another unclaimed flag or
    /// discard it; Deserter may discard the opponent's Fog or Mud from an
    /// unclaimed flag. When Mud leaves a flag, every side holding four cards
    /// discards its most recently placed card.
    Movable,
}

impl EnvironmentTactics {
    fn is_fixed(&self) -> bool {
        *self == EnvironmentTactics::Fixed
    }
}

/// What the second of two passes in a row leads to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LastPass {
    /// The player who passed still has his claim step (under
    /// [`ClaimTiming::BeforeDraw`]); the end rule settles the flags left
    /// when he ends it (RULES-NOTES: "a player whose pass ends the game
    /// still gets his claim step"). A claim there that wins ends the game
    /// at once, as any winning claim does.
    #[default]
    ClaimFirst,
    /// The second pass settles the flags at once, with no claim step (the
    /// engine before issue 13). Under [`ClaimTiming::StartOfTurn`] both
    /// readings are the same: the passer claimed at the start of his turn.
    SettleAtOnce,
}

impl LastPass {
    fn is_claim_first(&self) -> bool {
        *self == LastPass::ClaimFirst
    }
}

fn is_true(b: &bool) -> bool {
    *b
}

fn yes() -> bool {
    true
}

/// Which troop cards a wild card (Leader, Companion Cavalry, Shield
/// Bearers) may become.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WildCards {
    /// Any card of its values, also one already on the table (the
    /// project's ruling: a wild stands in for a card, it is not that card).
    #[default]
    CopyTable,
    /// Only a troop card not visible on the table (in no slot at any flag,
    /// not in the discards); the wilds of a formation become distinct cards.
    UnseenOnly,
}

impl WildCards {
    fn is_copy_table(&self) -> bool {
        *self == WildCards::CopyTable
    }
}

/// The rules of one game of Battle Line. [`Default`] is the rule text with
/// the rulings of the project.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// Ranking of the formation classes.
    pub formation_order: FormationOrder,
    /// When claims are made.
    pub claim_timing: ClaimTiming,
    /// Leaders a player may play.
    pub leader_limit: LeaderLimit,
    /// Ties in a claim proof.
    pub proof_tie: ProofTie,
    /// The player who starts (the one who did not deal).
    pub first_player: PlayerId,
    /// Whether Redeploy and Deserter can take Fog and Mud. Left out of the
    /// serialised rules when fixed, so default records read as before.
    #[serde(default, skip_serializing_if = "EnvironmentTactics::is_fixed")]
    pub environment_tactics: EnvironmentTactics,
    /// What wild cards may become. Left out of the serialised rules when
    /// [`WildCards::CopyTable`], so default records read as before.
    #[serde(default, skip_serializing_if = "WildCards::is_copy_table")]
    pub wild_cards: WildCards,
    /// Whether the ten tactics cards are in the game (`true`, the text).
    /// `false` is the base game of troop cards only, which bot competitions
    /// and the Schotten Totten family play: no tactics deck, every draw
    /// from the troop deck. Left out of the serialised rules when `true`.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub tactics: bool,
    /// What the second of two passes in a row leads to. Left out of the
    /// serialised rules when [`LastPass::ClaimFirst`].
    #[serde(default, skip_serializing_if = "LastPass::is_claim_first")]
    pub last_pass: LastPass,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            formation_order: FormationOrder::Text,
            claim_timing: ClaimTiming::BeforeDraw,
            leader_limit: LeaderLimit::OncePerGame,
            proof_tie: ProofTie::ClaimantWins,
            first_player: PlayerId::P0,
            environment_tactics: EnvironmentTactics::Fixed,
            wild_cards: WildCards::CopyTable,
            tactics: true,
            last_pass: LastPass::ClaimFirst,
        }
    }
}

impl Rules {
    /// The default rules with the published GMT formation order
    /// (Battalion above Skirmish Line).
    pub fn published_order() -> Rules {
        Rules {
            formation_order: FormationOrder::Published,
            ..Rules::default()
        }
    }

    /// The default rules with the text's variant: claims only at the start
    /// of the turn.
    pub fn claims_at_start_of_turn() -> Rules {
        Rules {
            claim_timing: ClaimTiming::StartOfTurn,
            ..Rules::default()
        }
    }

    /// The default rules with the published reading of Fog and Mud: Redeploy
    /// and Deserter can take them.
    pub fn movable_environment() -> Rules {
        Rules {
            environment_tactics: EnvironmentTactics::Movable,
            ..Rules::default()
        }
    }

    /// The default rules with wild cards that may only become troop cards
    /// not visible on the table.
    pub fn unseen_wilds() -> Rules {
        Rules {
            wild_cards: WildCards::UnseenOnly,
            ..Rules::default()
        }
    }

    /// The default rules without tactics cards: the base game of 60 troop
    /// cards that bot competitions and the Schotten Totten family play.
    pub fn troops_only() -> Rules {
        Rules {
            tactics: false,
            ..Rules::default()
        }
    }

    /// The cards in the game: all 70, or the 60 troop cards when
    /// [`Rules::tactics`] is off (the tactics cards then stay in the box,
    /// nowhere in the state).
    pub fn cards(&self) -> CardSet {
        if self.tactics {
            CardSet::ALL
        } else {
            CardSet::ALL_TROOPS
        }
    }

    /// The cards of `deck` in the game (none of the tactics deck when
    /// [`Rules::tactics`] is off).
    pub fn deck_cards(&self, deck: Deck) -> CardSet {
        deck.cards().intersection(self.cards())
    }

    /// The same rules with `player` starting.
    pub fn with_first_player(self, player: PlayerId) -> Rules {
        Rules {
            first_player: player,
            ..self
        }
    }
}
