//! Combat: dice, wounds, bonuses, the health-1 rule, the guard fight.

use cardwar_core::{Action, Game, Guard, Open, Outcome, Phase, Rules};

use crate::common::{act, battle, fight, position, soldier, A, D};

#[test]
fn rule_die_added_and_difference_is_winners_health() {
    // The text's example: red 6 + 3 = 9 against black 10 + 5 = 15.
    let mut g = battle(Rules::default(), 1, &[6, 5], &[10]);
    fight(&mut g, 3, 5);
    let r = g.public().battle.last_fight.unwrap();
    assert_eq!((r.attack_total, r.defence_total), (9, 15));
    assert_eq!(g.open_health(D), Some(6));
    assert!(g.hidden(A).pile.contains(soldier(6, 0)));
}

#[test]
fn rule_winner_unwounded_when_difference_covers_health() {
    // The text's example: black 2 + 6 = 8 kills red 5 + 1 = 6 unhurt.
    let mut g = battle(Rules::default(), 1, &[2, 3], &[5, 4]);
    fight(&mut g, 6, 1);
    assert_eq!(g.open_health(A), Some(2));
    assert!(g.hidden(D).pile.contains(soldier(5, 0)));
}

#[test]
fn rule_winner_health_capped_at_health_before_fight() {
    let mut g = battle(Rules::default(), 1, &[10, 3], &[2, 4]);
    fight(&mut g, 6, 1);
    assert_eq!(g.open_health(A), Some(10));
    let rules = Rules {
        cap_winner_health: false,
        ..Rules::default()
    };
    let mut g = battle(rules, 1, &[10, 3], &[2, 4]);
    fight(&mut g, 6, 1);
    assert_eq!(g.open_health(A), Some(13));
}

#[test]
fn rule_equal_totals_kill_both() {
    // The text's example: jack + 2 = 13 = 8 + 5.
    let mut g = battle(Rules::default(), 1, &[11, 3], &[8, 4]);
    fight(&mut g, 2, 5);
    assert!(g.hidden(A).pile.contains(soldier(11, 0)));
    assert!(g.hidden(D).pile.contains(soldier(8, 0)));
    assert_eq!(g.line_card(A, 0), Some(soldier(3, 0)));
    assert_eq!(g.line_card(D, 0), Some(soldier(4, 0)));
}

#[test]
fn rule_wounded_card_fights_next_with_remaining_health() {
    let mut g = battle(Rules::default(), 1, &[6, 5], &[10, 2]);
    fight(&mut g, 3, 5); // the 10 keeps 6
    fight(&mut g, 6, 1); // 5 + 6 = 11 beats 6 + 1 = 7 (a fresh 10 would tie)
    let r = g.public().battle.last_fight.unwrap();
    assert_eq!(r.defence_total, 7);
    assert!(g.hidden(D).pile.contains(soldier(10, 0)));
    assert_eq!(g.open_health(A), Some(4));
}

#[test]
fn rule_killed_cards_go_to_their_colour_pile_seen_by_both() {
    let mut g = battle(Rules::default(), 1, &[6, 5], &[10]);
    fight(&mut g, 3, 5);
    let six = soldier(6, 0);
    assert!(g.hidden(A).pile.contains(six));
    assert_eq!(g.side(A).pile, 1);
    assert!(g.side(A).known_pile.contains(six));
}

#[test]
fn rule_three_kills_restore_health() {
    let mut g = battle(Rules::default(), 1, &[13], &[2, 2, 3, 4]);
    fight(&mut g, 1, 6); // 14 vs 8: king keeps 6
    assert_eq!(g.open_health(A), Some(6));
    fight(&mut g, 6, 1); // 12 vs 3
    fight(&mut g, 6, 1); // 12 vs 4: third kill, wounded -> restored
    assert_eq!(g.public().battle.fighter[A].kills, 3);
    assert_eq!(g.open_health(A), Some(13));
}

#[test]
fn rule_three_kills_unwounded_doubles_next_die() {
    let mut g = battle(Rules::default(), 1, &[13], &[2, 2, 3, 4]);
    for _ in 0..3 {
        fight(&mut g, 6, 1);
    }
    assert_eq!(g.open_health(A), Some(13));
    assert_eq!(g.public().battle.fighter[A].doubled, 1);
    fight(&mut g, 3, 6);
    assert_eq!(g.public().battle.last_fight.unwrap().attack_total, 13 + 6);
    assert_eq!(g.public().battle.fighter[A].doubled, 0);
}

#[test]
fn rule_three_kills_bonus_once_unless_configured() {
    let kills = |rules: Rules| {
        let mut g = battle(rules, 1, &[13], &[2, 2, 3, 3, 4, 4, 5]);
        for _ in 0..6 {
            fight(&mut g, 6, 1);
        }
        g.public().battle.fighter[A].doubled
    };
    assert_eq!(kills(Rules::default()), 0);
    let every = Rules {
        bonus_every_three_kills: true,
        ..Rules::default()
    };
    assert_eq!(kills(every), 1);
}

#[test]
fn rule_health_one_gives_point_to_next_card() {
    let mut g = battle(Rules::default(), 1, &[5, 7], &[4, 9]);
    fight(&mut g, 1, 1); // 6 vs 5: the 5 keeps 1
    assert_eq!(g.side(A).line.len(), 1);
    assert_eq!(g.line_card(A, 0), Some(soldier(7, 0)));
    assert_eq!(g.open_health(A), Some(8));
    // Put under the card it fed (ruling 7), seen by both.
    assert_eq!(g.side(A).donors, [soldier(5, 0)].into_iter().collect());
    assert!(!g.hidden(A).aside.contains(soldier(5, 0)));
}

#[test]
fn rule_health_one_donor_follows_the_card_it_fed_to_the_pile() {
    let mut g = battle(Rules::default(), 1, &[5, 7], &[4, 9]);
    fight(&mut g, 1, 1); // the 5 feeds the 7 (8 health)
    fight(&mut g, 1, 6); // 9 vs 15: the 7 dies, its donor with it
    for rank in [5, 7] {
        assert!(g.hidden(A).pile.contains(soldier(rank, 0)), "{rank}");
        assert!(g.side(A).known_pile.contains(soldier(rank, 0)), "{rank}");
    }
    assert!(g.side(A).donors.is_empty());
}

#[test]
fn rule_health_one_donor_follows_the_card_it_fed_back_to_its_owner() {
    // D's 5 wins 6 vs 5 and keeps 1: it feeds D's 7. A's line is gone,
    // so the battle ends and the 7 survives: the 5 goes back with it.
    let mut g = battle(Rules::default(), 1, &[4], &[5, 7]);
    fight(&mut g, 1, 1);
    assert_eq!(g.public().battle_no, 2);
    for rank in [5, 7] {
        assert!(g.hidden(D).aside.contains(soldier(rank, 0)), "{rank}");
    }
    // The 5 fought face up; the 7 never opened.
    assert!(g.side(D).known_aside.contains(soldier(5, 0)));
    assert!(!g.side(D).known_aside.contains(soldier(7, 0)));
    assert!(g.side(D).donors.is_empty());
}

#[test]
fn rule_health_one_every_donor_returns_when_configured() {
    let rules = Rules {
        donor_returns: true,
        ..Rules::default()
    };
    let mut g = battle(rules, 1, &[5, 7], &[4, 9]);
    fight(&mut g, 1, 1);
    assert!(g.hidden(A).aside.contains(soldier(5, 0)));
    assert!(g.side(A).donors.is_empty());
    assert_eq!(g.open_health(A), Some(8));
    fight(&mut g, 1, 6); // the 7 dies alone
    assert!(g.hidden(A).pile.contains(soldier(7, 0)));
    assert!(g.hidden(A).aside.contains(soldier(5, 0)));
}

#[test]
fn rule_health_one_last_card_returns_to_owner() {
    let mut g = battle(Rules::default(), 1, &[5], &[4, 9]);
    fight(&mut g, 1, 1);
    // The attack is over: the 5 went back to its owner, not to the pile.
    assert!(g.hidden(A).aside.contains(soldier(5, 0)));
    assert!(!g.hidden(A).pile.contains(soldier(5, 0)));
    assert_eq!(g.public().battle_no, 2);
}

#[test]
fn rule_health_one_last_card_returns_with_the_donors_under_it() {
    let mut g = battle(Rules::default(), 1, &[3, 5], &[2, 9]);
    fight(&mut g, 1, 1); // 4 vs 3: the 3 keeps 1 and feeds the 5 (6)
    fight(&mut g, 5, 1); // 11 vs 10: the 5 keeps 1, the last of its line
    for rank in [3, 5] {
        assert!(g.hidden(A).aside.contains(soldier(rank, 0)), "{rank}");
        assert!(!g.hidden(A).pile.contains(soldier(rank, 0)), "{rank}");
    }
    assert_eq!(g.public().battle_no, 2);
}

#[test]
fn rule_health_one_applies_at_once_before_any_prayer() {
    // Ruling 30: the 5 left at 1 gives its point at once, so the prayer
    // question of the next fight is asked with the 7 open; no prayer can
    // save the 5.
    let mut g = battle(Rules::default(), 2, &[5, 7], &[4, 9]);
    fight(&mut g, 1, 1);
    assert_eq!(g.phase(), Phase::Pray { player: A });
    assert_eq!(g.line_card(A, 0), Some(soldier(7, 0)));
    assert_eq!(g.open_health(A), Some(8));
}

#[test]
fn rule_broken_defence_fights_aces_then_joker() {
    let mut g = battle(Rules::default(), 1, &[13, 13, 12], &[2]);
    fight(&mut g, 6, 1);
    assert_eq!(g.public().battle.open[D], Open::Guard(Guard::FirstAce));
    // The king kept its health (no heal before the guards): 13 + 1 < 14 + 6.
    fight(&mut g, 1, 6);
    assert_eq!(g.side(D).guards, [6, 14, 15]);
    fight(&mut g, 6, 1); // 19 vs 7: the first ace dies
    assert_eq!(g.side(D).guards[0], 0);
    assert_eq!(g.public().battle.open[D], Open::Guard(Guard::SecondAce));
    fight(&mut g, 1, 6); // the king has 12 left: 13 vs 20
    assert_eq!(g.side(D).guards[1], 7);
}

#[test]
fn rule_aces_and_joker_never_attack() {
    // The attack line is exhausted: the battle ends though the attacker's
    // guards are alive, and they never enter a line.
    let mut g = battle(Rules::default(), 1, &[2], &[13]);
    fight(&mut g, 1, 1);
    assert_eq!(g.public().battle_no, 2);
    assert_eq!(g.side(A).guards, [14, 14, 15]);
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(legal.iter().all(|a| matches!(a, Action::Place(_))));
}

#[test]
fn rule_guards_roll_two_dice_keep_higher() {
    let mut g = battle(Rules::default(), 1, &[13], &[]);
    act(&mut g, Action::Die(3));
    assert_eq!(g.phase(), Phase::DefenceDie);
    let mut out = Vec::new();
    g.chance_outcomes(&mut out);
    let expected: Vec<_> = (1..=6u8)
        .map(|k| (Action::Die(k), (2 * k - 1) as f64 / 36.0))
        .collect();
    assert_eq!(out, expected);
    // A soldier defending rolls one die.
    let mut g = battle(Rules::default(), 1, &[13], &[2]);
    act(&mut g, Action::Die(3));
    g.chance_outcomes(&mut out);
    assert!(out.iter().all(|(_, p)| (*p - 1.0 / 6.0).abs() < 1e-12));
}

#[test]
fn rule_guards_keep_health_soldiers_heal() {
    let mut g = battle(Rules::default(), 1, &[5, 13], &[12]);
    fight(&mut g, 1, 6); // 6 vs 18: the queen keeps 12
    fight(&mut g, 6, 1); // 19 vs 13: the queen dies, the king keeps 6
    fight(&mut g, 1, 6); // 7 vs 20: the king dies, the first ace keeps 13
    assert_eq!(g.public().battle_no, 2, "the attack is over");
    assert_eq!(g.side(D).guards, [13, 14, 15]);
    // A wounded soldier that survives returns healed: nothing of its wound
    // is kept outside the line.
    let mut g = battle(Rules::default(), 1, &[5], &[13]);
    fight(&mut g, 6, 1); // 11 vs 14: the king keeps 3
    assert!(g.hidden(D).aside.contains(soldier(13, 0)));
    assert!(g.side(D).line.is_empty());
}

#[test]
fn rule_dead_ace_is_skipped() {
    let mut g = position(Rules::default(), 1, &[13], &[2])
        .with(|b| b.guards(D, [0, 14, 15]))
        .fights();
    fight(&mut g, 6, 1);
    assert_eq!(g.public().battle.open[D], Open::Guard(Guard::SecondAce));
}

#[test]
fn rule_joker_death_ends_game() {
    let mut g = position(Rules::default(), 1, &[13, 13], &[])
        .with(|b| b.guards(D, [0, 0, 3]))
        .fights();
    assert_eq!(g.public().battle.open[D], Open::Guard(Guard::Joker));
    fight(&mut g, 1, 1);
    assert_eq!(g.outcome(), Some(Outcome::Win(A)));
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.returns(A), 1.0);
    assert_eq!(g.returns(D), -1.0);
}

#[test]
fn rule_card_strength_is_its_number() {
    // 2..10 by number, jack 11, queen 12, king 13, ace 14, joker 15.
    for rank in 2..=13 {
        for suit in 0..2 {
            assert_eq!(soldier(rank, suit).strength(), rank);
        }
    }
    assert_eq!(
        Guard::ORDER.map(Guard::strength),
        [14, 14, 15],
        "aces and the joker"
    );
}

#[test]
fn rule_guards_earn_three_kills_bonus_unless_configured() {
    let run = |rules: Rules| {
        let mut g = battle(rules, 1, &[3, 2, 2, 3], &[]);
        fight(&mut g, 6, 1); // 9 vs 15: the first ace keeps 6
        fight(&mut g, 1, 6); // 3 vs 12: the ace keeps 6 (capped)
        fight(&mut g, 1, 6); // third kill
        g.side(D).guards[Guard::FirstAce.index()]
    };
    assert_eq!(run(Rules::default()), 14, "a wounded ace is restored");
    let rules = Rules {
        guards_earn_bonus: false,
        ..Rules::default()
    };
    assert_eq!(run(rules), 6);
}

#[test]
fn rule_health_one_rule_spares_guards() {
    // An ace at 1 health has no line to give its point to: it fights on.
    let mut g = position(Rules::default(), 1, &[5, 5], &[])
        .with(|b| b.guards(D, [4, 14, 15]))
        .fights();
    fight(&mut g, 4, 6); // 9 vs 10: the ace keeps 1
    assert_eq!(g.public().battle.open[D], Open::Guard(Guard::FirstAce));
    assert_eq!(g.open_health(D), Some(1));
    assert_eq!(g.phase(), Phase::AttackDie);
}
