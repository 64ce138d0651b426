//! Regressions of issue 15: values the validation used to accept although
//! play from them soon reached a state it refuses (fault E), or rules
//! stored with a state that its history contradicts (fault F). Each test
//! first shows the untampered value accepted, so that it can fail.

use cardwar_core::game_traits::testkit::check_accepted;
use cardwar_core::rand::{Rng, SeedableRng};
use cardwar_core::{CardWar, Game, GameRng, Observation, Phase, PlayerId, Rules, Turn};
use game_traits::RuleSet;
use serde_json::{json, Value};

/// The first state of a seeded random game under `rules` whose phase
/// satisfies `want` (and any further condition on the state).
fn state_where(rules: &Rules, want: impl Fn(&CardWar) -> bool) -> CardWar {
    let mut legal = Vec::new();
    for seed in 0..500 {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut g = CardWar::new(rules).unwrap();
        while g.turn() != Turn::Terminal {
            if want(&g) {
                return g;
            }
            g.legal_actions(&mut legal);
            g.apply(legal[rng.random_range(0..legal.len())]).unwrap();
        }
    }
    panic!("no random game reaches the state wanted");
}

/// `g` serialised with `edit` applied: the untampered text must load (and
/// keep every contract), and the result of the edit is returned.
fn tampered(g: &CardWar, edit: impl FnOnce(&mut Value)) -> Result<CardWar, serde_json::Error> {
    let mut v = serde_json::to_value(g).unwrap();
    let back: CardWar = serde_json::from_value(v.clone()).unwrap();
    check_accepted(back, &mut GameRng::seed_from_u64(1)).unwrap();
    edit(&mut v);
    serde_json::from_value(v)
}

/// The same for a player's observation.
fn tampered_obs(
    g: &CardWar,
    viewer: PlayerId,
    edit: impl FnOnce(&mut Value),
) -> Result<Observation, serde_json::Error> {
    let mut v = serde_json::to_value(g.observation(viewer)).unwrap();
    serde_json::from_value::<Observation>(v.clone()).unwrap();
    edit(&mut v);
    serde_json::from_value(v)
}

fn refused<T: std::fmt::Debug>(r: Result<T, serde_json::Error>, why: &str) {
    match r {
        Ok(v) => panic!("accepted {v:?}"),
        Err(e) => assert!(e.to_string().contains(why), "{e}"),
    }
}

/// The tampered observations a hostile run found accepted (issue 15, E).
fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/regressions/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn fault_e_attack_die_outside_a_fight() {
    // Found: attack die 1 in P0's defence lay; once the lines were laid
    // the fight began with the die already rolled ("a fight needs two open
    // cards").
    let text = fixture("fault_e_attack_die_in_a_lay_phase");
    refused(
        serde_json::from_str::<Observation>(&text),
        "an attack die outside a fight's dice",
    );
    let lay = state_where(&Rules::default(), |g| {
        matches!(g.phase(), Phase::Lay { .. })
    });
    refused(
        tampered(&lay, |v| v["public"]["battle"]["attack_die"] = json!(3)),
        "an attack die outside a fight's dice",
    );
    let attack = state_where(&Rules::default(), |g| g.phase() == Phase::AttackDie);
    refused(
        tampered(&attack, |v| v["public"]["battle"]["attack_die"] = json!(2)),
        "an attack die outside a fight's dice",
    );
}

#[test]
fn fault_e_round_0_in_a_fight() {
    // Found: round 0 at the defender's die; after the battle the next line
    // was laid in round 0 ("bad lay phase").
    let text = fixture("fault_e_round_0_in_a_fight");
    refused(
        serde_json::from_str::<Observation>(&text),
        "round 0 is setup and only setup",
    );
    let fight = state_where(&Rules::default(), |g| g.phase() == Phase::DefenceDie);
    refused(
        tampered(&fight, |v| v["public"]["round"] = json!(0)),
        "round 0 is setup and only setup",
    );
    let setup = state_where(&Rules::default(), |g| {
        matches!(g.phase(), Phase::Aside { .. })
    });
    refused(
        tampered(&setup, |v| v["public"]["round"] = json!(1)),
        "round 0 is setup and only setup",
    );
}

#[test]
fn fault_e_known_alive_at_setup() {
    // Nobody has seen a card at setup. A soldier of P1's hand "known
    // alive" was put aside into his pile a draw later, where no card can be
    // known alive ("knowledge contradicts the cards").
    let setup = state_where(&Rules::default(), |g| {
        matches!(
            g.phase(),
            Phase::Aside {
                colour: PlayerId::P1,
                ..
            }
        )
    });
    let card = setup.hidden(PlayerId::P1).hand.iter().next().unwrap();
    let bits = u32::from(cardwar_core::CardSet::from_iter([card]));
    refused(
        tampered(&setup, |v| {
            v["public"]["sides"][1]["known_alive"] = json!(bits);
        }),
        "setup holds what only play makes",
    );
    // P0's view of it, which determinisation would have completed.
    refused(
        tampered_obs(&setup, PlayerId::P0, |v| {
            v["public"]["sides"][1]["known_alive"] = json!(bits);
        }),
        "setup holds what only play makes",
    );
}

#[test]
fn fault_e_a_card_known_in_the_pile_at_a_draw() {
    // Piles are shuffled as a round begins: a card known to lie in the pile
    // during the draws would be drawn into the hand while still "known in
    // the pile".
    let rules = Rules::default();
    let draw = state_where(&rules, |g| {
        matches!(g.phase(), Phase::DrawRoll { .. }) && !g.hidden(PlayerId::P0).pile.is_empty()
    });
    let card = draw.hidden(PlayerId::P0).pile.iter().next().unwrap();
    let bits = u32::from(cardwar_core::CardSet::from_iter([card]));
    refused(
        tampered(&draw, |v| {
            v["public"]["sides"][0]["known_pile"] = json!(bits);
            v["public"]["sides"][0]["pile_or_drawn"] = json!(
                v["public"]["sides"][0]["pile_or_drawn"].as_u64().unwrap() & !u64::from(bits)
            );
        }),
        "bad draw phase",
    );
}

#[test]
fn fault_f_rules_changed_mid_game_are_refused() {
    let d = Rules::default();
    // Donors lie under a card; switching `donor_returns` on would leave
    // cards under a card that no rule put there.
    let donors = state_where(&d, |g| !g.side(PlayerId::P0).donors.is_empty());
    refused(
        tampered(&donors, |v| v["rules"]["donor_returns"] = json!(true)),
        "donors under a card though every donor returns",
    );
    // A free attack line with a card laid cannot exist under the
    // all-or-nothing reserve (it becomes a fixed line at its first card).
    let free = state_where(&d, |g| match g.phase() {
        Phase::Lay {
            kind: cardwar_core::LayKind::FreeAttack,
            player,
            ..
        } => !g.side(player).line.is_empty(),
        _ => false,
    });
    refused(
        tampered(&free, |v| {
            v["rules"]["reserve_all_or_nothing"] = json!(true)
        }),
        "bad lay phase",
    );
    // Round 1's second attack keeps no reserve unless the rules say so.
    let first_round = state_where(&d, |g| {
        g.round() == 1
            && matches!(
                g.phase(),
                Phase::Lay {
                    kind: cardwar_core::LayKind::Attack,
                    ..
                }
            )
            && g.public().battle_no == 2
    });
    refused(
        tampered(&first_round, |v| {
            v["rules"]["reserve_in_first_round"] = json!(true)
        }),
        "bad lay phase",
    );
    // A draw that takes more than the pile may give under a raised
    // `keep_in_pile`.
    let draw = state_where(&d, |g| matches!(g.phase(), Phase::Draw { .. }));
    refused(
        tampered(&draw, |v| v["rules"]["keep_in_pile"] = json!(24)),
        "bad draw phase",
    );
    // A round past a lowered limit.
    let late = state_where(&d, |g| g.round() == 5);
    refused(
        tampered(&late, |v| v["rules"]["max_rounds"] = json!(4)),
        "round past the limit",
    );
    // A draw at the limit that is not the last round's end.
    let over = state_where(&d, |g| g.round() == 3 && g.phase() == Phase::AttackDie);
    refused(
        tampered(&over, |v| {
            v["public"]["phase"] = json!("Over");
            v["public"]["outcome"] = json!("Draw");
        }),
        "the result does not fit the end",
    );
}

#[test]
fn the_decision_count_stays_within_its_bound() {
    // A loaded count at the bound stays there as play goes on (it used to
    // pass it, and the next state's serialisation was refused).
    let rules = Rules::default();
    let lay = state_where(&rules, |g| matches!(g.phase(), Phase::Lay { .. }));
    let bound = rules.max_game_length();
    let at = tampered(&lay, |v| v["public"]["moves"] = json!(bound)).unwrap();
    check_accepted(at, &mut GameRng::seed_from_u64(3)).unwrap();
    refused(
        tampered(&lay, |v| v["public"]["moves"] = json!(bound + 1)),
        "more decisions than any game has",
    );
}
