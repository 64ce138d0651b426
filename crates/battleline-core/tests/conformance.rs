//! The conformance kit of game-traits on every rule set, and the golden
//! playthroughs of the default rules.

use battleline_core::{
    BattleLine, ClaimTiming, EnvironmentTactics, LeaderLimit, ProofTie, Rules, WildCards,
};
use game_traits::testkit::{check_game, check_golden};
use game_traits::PlayerId;

#[test]
fn conformance_default_rules() {
    check_game::<BattleLine>(&Rules::default());
}

#[test]
fn conformance_published_order() {
    check_game::<BattleLine>(&Rules::published_order());
}

#[test]
fn conformance_claims_at_start_of_turn() {
    check_game::<BattleLine>(&Rules::claims_at_start_of_turn());
}

#[test]
fn conformance_other_options() {
    check_game::<BattleLine>(&Rules {
        claim_timing: ClaimTiming::BeforeDraw,
        leader_limit: LeaderLimit::OneOnTable,
        proof_tie: ProofTie::Blocks,
        first_player: PlayerId::P1,
        ..Rules::published_order()
    });
}

#[test]
fn conformance_movable_environment() {
    check_game::<BattleLine>(&Rules::movable_environment());
    check_game::<BattleLine>(&Rules {
        environment_tactics: EnvironmentTactics::Movable,
        leader_limit: LeaderLimit::OneOnTable,
        ..Rules::claims_at_start_of_turn()
    });
}

#[test]
fn conformance_unseen_wilds() {
    check_game::<BattleLine>(&Rules::unseen_wilds());
    check_game::<BattleLine>(&Rules {
        wild_cards: WildCards::UnseenOnly,
        environment_tactics: EnvironmentTactics::Movable,
        proof_tie: ProofTie::Blocks,
        ..Rules::published_order()
    });
}

#[test]
fn golden_default_rules() {
    check_golden::<BattleLine>(
        &Rules::default(),
        &[1, 2],
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/default.txt"),
    );
}
