//! The prayer to the gods: when it may be made and each of its eleven
//! results.

use cardwar_core::{Action, CardSet, CardWar, Game, Guard, LayKind, Open, Outcome, Phase, Rules};

use crate::common::{act, battle, decline, fight, position, soldier, A, D};

/// Round 2, A attacks with `att` against `def`, and prays for `sum`.
fn prayed(rules: Rules, att: &[u8], def: &[u8], sum: u8) -> CardWar {
    let mut g = battle(rules, 2, att, def);
    assert_eq!(g.phase(), Phase::Pray { player: A });
    act(&mut g, Action::Pray);
    assert_eq!(g.phase(), Phase::PrayerRoll { player: A });
    act(&mut g, Action::Dice(sum));
    g
}

#[test]
fn rule_prayer_once_per_game_not_in_first_round() {
    let g = battle(Rules::default(), 1, &[5, 5], &[9, 9]);
    assert_eq!(g.phase(), Phase::AttackDie);
    let mut g = battle(Rules::default(), 2, &[5, 5], &[9, 9]);
    assert_eq!(g.phase(), Phase::Pray { player: A });
    act(&mut g, Action::Decline);
    assert_eq!(g.phase(), Phase::Pray { player: D });
    act(&mut g, Action::Decline);
    assert_eq!(g.phase(), Phase::AttackDie);
    // Once A has prayed, only D is asked at the next fights.
    let mut g = prayed(Rules::default(), &[5, 5], &[9, 9], 2);
    assert!(g.side(A).prayed);
    act(&mut g, Action::Decline);
    fight(&mut g, 1, 6);
    assert_eq!(g.phase(), Phase::Pray { player: D });
    // The prayer's roll is 2d6.
    let mut g = battle(Rules::default(), 2, &[5], &[9]);
    act(&mut g, Action::Pray);
    let mut out = Vec::new();
    g.chance_outcomes(&mut out);
    let total: f64 = out.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    assert_eq!(out[0], (Action::Dice(2), 1.0 / 36.0));
}

#[test]
fn rule_both_may_pray_before_one_fight_unless_configured() {
    let g = prayed(Rules::default(), &[5, 5], &[9, 9], 2);
    assert_eq!(g.phase(), Phase::Pray { player: D });
    let once = Rules {
        one_prayer_per_fight: true,
        ..Rules::default()
    };
    let mut g = prayed(once, &[5, 5], &[9, 9], 2);
    assert_eq!(g.phase(), Phase::AttackDie);
    // At the next pair of cards the defender is asked again.
    fight(&mut g, 1, 6);
    assert_eq!(g.phase(), Phase::Pray { player: D });
}

/// The attacker's total after praying for `sum` and rolling 3.
fn attack_total_after(sum: u8) -> u16 {
    let mut g = prayed(Rules::default(), &[5, 5], &[9, 9], sum);
    fight(&mut g, 3, 1);
    g.public().battle.last_fight.unwrap().attack_total
}

#[test]
fn rule_prayer_2_grin_of_the_gods_adds_two() {
    assert_eq!(attack_total_after(2), 5 + 3 + 2);
}

#[test]
fn rule_prayer_3_pity_of_the_gods_adds_three() {
    assert_eq!(attack_total_after(3), 5 + 3 + 3);
}

#[test]
fn rule_prayer_4_condescension_of_the_gods_adds_four() {
    assert_eq!(attack_total_after(4), 5 + 3 + 4);
    // The bonus is for one fight only.
    let mut g = prayed(Rules::default(), &[5, 5], &[2, 2], 4);
    fight(&mut g, 3, 1);
    fight(&mut g, 3, 1);
    assert_eq!(g.public().battle.last_fight.unwrap().attack_total, 5 + 3);
}

#[test]
fn rule_prayer_5_doctors_add_five_health_even_above_full() {
    let g = prayed(Rules::default(), &[5, 5], &[9, 9], 5);
    assert_eq!(g.open_health(A), Some(10));
}

#[test]
fn rule_prayer_6_hellfire_doubles_the_die() {
    assert_eq!(attack_total_after(6), 5 + 6);
    let mut g = prayed(Rules::default(), &[5, 5], &[9, 9], 6);
    fight(&mut g, 1, 1);
    assert_eq!(g.public().battle.last_fight.unwrap().attack_total, 5 + 2);
}

#[test]
fn rule_prayer_7_reinforcement_joins_end_of_line() {
    let mut g = position(Rules::default(), 2, &[5, 5], &[9, 9])
        .pile(A, &[2, 3, 4])
        .fights();
    act(&mut g, Action::Pray);
    act(&mut g, Action::Dice(7));
    assert_eq!(g.phase(), Phase::Reinforce { player: A, left: 1 });
    let mut out = Vec::new();
    g.chance_outcomes(&mut out);
    assert_eq!(
        out.len(),
        3,
        "picked from the whole pile, even under 5 cards"
    );
    let three = soldier(3, 0);
    act(&mut g, Action::Draw(three));
    assert_eq!(g.side(A).line.len(), 3);
    assert_eq!(g.line_card(A, 2), Some(three));
    assert_eq!(
        g.observation(D).public().sides[A].line.slots()[2].card,
        None
    );
    assert_eq!(g.side(A).pile, 2);
}

#[test]
fn rule_prayer_8_grenade_halves_health_and_next_die() {
    let mut g = prayed(Rules::default(), &[5, 5], &[9, 9], 8);
    assert_eq!(g.open_health(D), Some(5));
    decline(&mut g);
    fight(&mut g, 1, 5);
    assert_eq!(g.public().battle.last_fight.unwrap().defence_total, 5 + 3);
    let down = Rules {
        grenade_rounds_up: false,
        ..Rules::default()
    };
    let mut g = prayed(down, &[5, 5], &[9, 9], 8);
    assert_eq!(g.open_health(D), Some(4));
    fight(&mut g, 1, 5);
    assert_eq!(g.public().battle.last_fight.unwrap().defence_total, 4 + 2);
}

#[test]
fn rule_prayer_10_sniper_kills_the_donors_under_its_target() {
    let mut g = battle(Rules::default(), 2, &[5, 7], &[4, 9]);
    fight(&mut g, 1, 1); // A's 5 keeps 1 and lies under the 7
    act(&mut g, Action::Decline);
    act(&mut g, Action::Pray);
    act(&mut g, Action::Dice(10));
    for rank in [5, 7] {
        assert!(g.hidden(A).pile.contains(soldier(rank, 0)), "{rank}");
    }
    assert!(g.side(A).donors.is_empty());
}

#[test]
fn rule_prayer_9_gangrene_kills_wounded_card() {
    let mut g = battle(Rules::default(), 2, &[6, 5], &[9, 9]);
    fight(&mut g, 3, 4); // 9 vs 13: D's 9 keeps 4
    assert_eq!(g.open_health(D), Some(4));
    act(&mut g, Action::Pray);
    act(&mut g, Action::Dice(9));
    assert!(g.hidden(D).pile.contains(soldier(9, 0)));
    assert_eq!(g.open_health(D), Some(9), "the next 9 comes up");
    // A healthy card is spared.
    let g = prayed(Rules::default(), &[5], &[9, 9], 9);
    assert_eq!(g.open_health(D), Some(9));
    assert_eq!(g.side(D).pile, 0);
}

#[test]
fn rule_prayer_9_gangrene_on_wounded_guard() {
    let run = |rules: Rules| {
        let mut g = position(rules, 2, &[13], &[])
            .with(|b| b.guards(D, [10, 14, 15]))
            .fights();
        act(&mut g, Action::Pray);
        act(&mut g, Action::Dice(9));
        g.side(D).guards[0]
    };
    assert_eq!(run(Rules::default()), 0);
    let spare = Rules {
        gangrene_hits_guards: false,
        ..Rules::default()
    };
    assert_eq!(run(spare), 10);
}

#[test]
fn rule_prayer_10_sniper_reveals_and_removes_strongest() {
    let g = prayed(Rules::default(), &[5, 5], &[3, 13, 9, 13], 10);
    assert!(g.hidden(D).pile.contains(soldier(13, 0)));
    let shown: Vec<_> = g.side(D).line.slots().iter().map(|s| s.card).collect();
    assert_eq!(
        shown,
        vec![
            Some(soldier(3, 0)),
            Some(soldier(9, 0)),
            Some(soldier(13, 1))
        ]
    );
    assert_eq!(g.open_health(D), Some(3));
    // With guards as targets, the joker (15) is the strongest.
    let rules = Rules {
        sniper_targets_guards: true,
        ..Rules::default()
    };
    let g = prayed(rules, &[5], &[3], 10);
    assert_eq!(g.outcome(), Some(Outcome::Win(A)));
}

#[test]
fn rule_prayer_10_sniper_removes_the_largest_card_by_its_value() {
    // "Из них убирается самая большая": the largest card, by the number on
    // it. D's king is wounded to 8, behind it lies a fresh 10.
    let wounded_king = |rules: Rules| {
        let mut g = battle(rules, 2, &[5, 5], &[13, 10]);
        fight(&mut g, 1, 1); // 5 + 1 = 6 against 13 + 1 = 14: the king keeps 8
        assert_eq!(g.open_health(D), Some(8));
        act(&mut g, Action::Pray);
        act(&mut g, Action::Dice(10));
        g
    };
    let g = wounded_king(Rules::default());
    assert!(g.hidden(D).pile.contains(soldier(13, 0)));
    assert_eq!(g.line_card(D, 0), Some(soldier(10, 0)));
    // Variant: the card with the most health left.
    let rules = Rules {
        sniper_by_health: true,
        ..Rules::default()
    };
    let g = wounded_king(rules);
    assert!(g.hidden(D).pile.contains(soldier(10, 0)));
    assert_eq!(g.open_health(D), Some(8));
}

#[test]
fn rule_prayer_11_paratroopers_a_die_of_cards() {
    let mut g = position(Rules::default(), 2, &[5, 5], &[9, 9])
        .pile(A, &[2, 3, 4])
        .fights();
    act(&mut g, Action::Pray);
    act(&mut g, Action::Dice(11));
    assert_eq!(g.phase(), Phase::ParatrooperRoll { player: A });
    act(&mut g, Action::Die(5));
    // Five asked for, three in the pile: all three come.
    assert_eq!(g.phase(), Phase::Reinforce { player: A, left: 3 });
    let mut legal = Vec::new();
    for _ in 0..3 {
        g.legal_actions(&mut legal);
        act(&mut g, legal[0]);
    }
    assert_eq!((g.side(A).line.len(), g.side(A).pile), (5, 0));
    assert_eq!(g.phase(), Phase::Pray { player: D });
}

#[test]
fn rule_prayer_12_atomic_bomb_on_defence_spares_guards() {
    let g = prayed(Rules::default(), &[5, 5], &[9, 9, 8], 12);
    assert!(g.side(D).line.is_empty());
    assert_eq!(g.side(D).pile, 3);
    assert_eq!(g.public().battle.open[D], Open::Guard(Guard::FirstAce));
    assert_eq!(g.side(D).guards, [14, 14, 15]);
    assert_eq!(g.open_health(A), Some(5), "the bomber takes no damage");
}

#[test]
fn rule_prayer_12_atomic_bomb_on_attack_ends_it() {
    let mut g = battle(Rules::default(), 2, &[5, 5, 7], &[9, 9]);
    act(&mut g, Action::Decline);
    act(&mut g, Action::Pray);
    act(&mut g, Action::Dice(12));
    assert_eq!(g.side(A).pile, 3);
    assert_eq!(g.side(A).guards, [14, 14, 15]);
    assert!(matches!(
        g.phase(),
        Phase::Lay {
            player: D,
            kind: LayKind::FreeAttack,
            ..
        }
    ));
}

#[test]
fn rule_prayer_kills_do_not_count_for_three_kills_bonus() {
    let mut g = battle(Rules::default(), 2, &[13, 2], &[2, 2, 3, 3]);
    fight(&mut g, 6, 1); // the king kills a 2
    fight(&mut g, 6, 1); // and the other
    act(&mut g, Action::Pray);
    act(&mut g, Action::Dice(10)); // the sniper takes the open 3
    assert!(g.hidden(D).pile.contains(soldier(3, 0)));
    assert_eq!(g.public().battle.fighter[A].kills, 2);
    fight(&mut g, 6, 1); // the king's third kill in a fight
    let f = g.public().battle.fighter[A];
    assert_eq!((f.kills, f.doubled), (3, 1), "unwounded: next die doubled");
}

#[test]
fn rule_doubling_then_halving_on_one_roll() {
    // A prays for hellfire, D throws a grenade at A's king: the die is
    // doubled, then halved (5 -> 10 -> 5; halving first would give 6).
    let mut g = battle(Rules::default(), 2, &[13, 2], &[2, 2]);
    act(&mut g, Action::Pray);
    act(&mut g, Action::Dice(6));
    assert_eq!(g.phase(), Phase::Pray { player: D });
    act(&mut g, Action::Pray);
    act(&mut g, Action::Dice(8));
    assert_eq!(g.open_health(A), Some(7), "13 halved, rounded up");
    act(&mut g, Action::Die(5));
    act(&mut g, Action::Die(1));
    assert_eq!(g.public().battle.last_fight.unwrap().attack_total, 7 + 5);
}

#[test]
fn rule_reinforcements_of_a_guarded_defender_fight_before_the_next_guard() {
    let mut g = position(Rules::default(), 2, &[13, 13], &[])
        .pile(D, &[5])
        .fights();
    assert_eq!(g.public().battle.open[D], Open::Guard(Guard::FirstAce));
    act(&mut g, Action::Decline);
    act(&mut g, Action::Pray);
    act(&mut g, Action::Dice(7));
    act(&mut g, Action::Draw(soldier(5, 0)));
    assert_eq!(g.side(D).line.len(), 1);
    fight(&mut g, 6, 1); // 19 vs 15: the first ace dies
    assert_eq!(g.side(D).guards[Guard::FirstAce.index()], 0);
    assert_eq!(g.public().battle.open[D], Open::Soldier);
    assert_eq!(g.line_card(D, 0), Some(soldier(5, 0)));
}

#[test]
fn rule_cards_killed_by_prayers_are_seen_by_both() {
    // Ruling 22: the bomb's victims, face down until then, are known to
    // lie in the pile; so are the sniper's and gangrene's.
    let g = prayed(Rules::default(), &[5, 5], &[9, 8, 7], 12);
    let victims: CardSet = [9, 8, 7].into_iter().map(|r| soldier(r, 0)).collect();
    assert_eq!(g.side(D).known_pile, victims);
    assert_eq!(g.observation(A).public().sides[D].known_pile, victims);
    let g = prayed(Rules::default(), &[5, 5], &[3, 9], 10);
    assert!(g.side(D).known_pile.contains(soldier(9, 0)));
}

#[test]
fn rule_prayer_12_atomic_bomb_spares_the_hand_unless_configured() {
    // Ruling 27: "all the opponent's cards" are his soldiers on the field;
    // the variant destroys his hand and set-aside cards too (not his pile).
    let g = prayed(Rules::default(), &[5, 5], &[9, 8], 12);
    assert_eq!(g.side(D).hand, 22);
    let rules = Rules {
        bomb_hits_hand: true,
        ..Rules::default()
    };
    // D has set a king aside.
    let mut g = position(rules, 2, &[5, 5], &[9, 8])
        .aside(D, &[13])
        .fights();
    act(&mut g, Action::Pray);
    act(&mut g, Action::Dice(12));
    assert_eq!(
        (g.side(D).hand, g.side(D).aside, g.side(D).pile),
        (0, 0, 24)
    );
    assert_eq!(g.side(D).known_pile, CardSet::ALL, "seen by both");
    assert_eq!(g.public().battle.open[D], Open::Guard(Guard::FirstAce));
}
