//! The conformance kit of `game-traits` on every rule switch, and golden
//! playthroughs of the default rules.

use cardwar_core::{CardWar, FirstAttacker, Rules};
use game_traits::testkit::{check_game, check_golden};

#[test]
fn conformance_default_rules() {
    check_game::<CardWar>(&Rules::default());
}

#[test]
fn conformance_every_switch_flipped() {
    check_game::<CardWar>(&Rules {
        aside: 0,
        keep_in_pile: 0,
        max_rounds: 8,
        cap_winner_health: false,
        bonus_every_three_kills: true,
        guards_earn_bonus: false,
        donor_returns: false,
        first_attacker: FirstAttacker::Alternate,
        one_prayer_per_fight: true,
        reserve_in_first_round: true,
        grenade_rounds_up: false,
        gangrene_hits_guards: false,
        sniper_targets_guards: true,
        sniper_by_health: true,
        bomb_hits_hand: true,
    });
}

#[test]
fn conformance_large_pile() {
    check_game::<CardWar>(&Rules {
        aside: 20,
        keep_in_pile: 2,
        ..Rules::default()
    });
}

#[test]
fn golden_default_rules() {
    check_golden::<CardWar>(
        &Rules::default(),
        &[1, 2],
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/default.txt"),
    );
}
