//! Setup, rounds, draws, roles, reserve, the halved army and the end.

use cardwar_core::{
    Action, CardSet, CardWar, FirstAttacker, Game, LayKind, Outcome, Phase, Rules, Turn,
};

use crate::common::{act, battle, decline, fight, play_out, position, A, D};

/// A new game through setup, drawing the lowest card and the given
/// initiative dice.
fn after_setup(rules: Rules, dice: (u8, u8)) -> CardWar {
    let mut g = CardWar::new(&rules).unwrap();
    while let Phase::Aside { .. } = g.phase() {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        act(&mut g, legal[0]);
    }
    act(&mut g, Action::Die(dice.0));
    act(&mut g, Action::Die(dice.1));
    g
}

#[test]
fn rule_deck_split_by_colour_with_guards() {
    let g = CardWar::new(&Rules::default()).unwrap();
    for p in [A, D] {
        assert_eq!(g.hidden(p).hand, CardSet::ALL);
        assert_eq!(g.side(p).guards, [14, 14, 15]);
    }
    let g = after_setup(Rules::default(), (1, 2));
    for p in [A, D] {
        assert_eq!((g.side(p).hand, g.side(p).pile), (18, 6));
        assert_eq!(g.hidden(p).pile.len(), 6);
    }
}

#[test]
fn rule_aside_count_is_configurable() {
    let rules = Rules {
        aside: 0,
        ..Rules::default()
    };
    let g = CardWar::new(&rules).unwrap();
    assert_eq!(g.phase(), Phase::Initiative { first_die: 0 });
    let g = after_setup(
        Rules {
            aside: 10,
            ..Rules::default()
        },
        (1, 2),
    );
    assert_eq!((g.side(A).hand, g.side(A).pile), (14, 10));
    assert!(CardWar::new(&Rules {
        aside: 25,
        ..Rules::default()
    })
    .is_err());
}

#[test]
fn rule_aside_cards_drawn_uniformly_and_hidden() {
    let g = CardWar::new(&Rules::default()).unwrap();
    let mut out = Vec::new();
    g.chance_outcomes(&mut out);
    assert_eq!(out.len(), 24);
    assert!(out.iter().all(|(_, p)| (*p - 1.0 / 24.0).abs() < 1e-12));
    let (mut low, mut high) = (g.clone(), g);
    act(&mut low, out[0].0);
    act(&mut high, out[23].0);
    assert_eq!(low.observation(D), high.observation(D));
    assert_ne!(low.observation(A), high.observation(A));
}

#[test]
fn rule_initiative_higher_die_attacks_first() {
    let g = after_setup(Rules::default(), (2, 5));
    assert_eq!(
        g.phase(),
        Phase::Lay {
            player: D,
            kind: LayKind::Attack,
            left: 9
        }
    );
    let g = after_setup(Rules::default(), (6, 1));
    assert_eq!(g.turn(), Turn::Player(A));
    // Equal dice are rolled again: P1 never rolls P0's number.
    let mut g = CardWar::new(&Rules {
        aside: 0,
        ..Rules::default()
    })
    .unwrap();
    act(&mut g, Action::Die(4));
    assert!(!g.is_legal(Action::Die(4)));
    let mut out = Vec::new();
    g.chance_outcomes(&mut out);
    assert_eq!(out.len(), 5);
}

#[test]
fn rule_attacker_splits_hand_in_half_odd_extra_to_defence() {
    let g = after_setup(Rules::default(), (6, 1));
    assert_eq!(
        g.phase(),
        Phase::Lay {
            player: A,
            kind: LayKind::Attack,
            left: 9
        }
    );
    let g = after_setup(
        Rules {
            aside: 7,
            ..Rules::default()
        },
        (6, 1),
    );
    // 17 cards: 8 attack, 9 defend.
    assert!(matches!(g.phase(), Phase::Lay { left: 8, .. }));
}

#[test]
fn rule_lines_laid_face_down_in_chosen_order() {
    let mut g = after_setup(Rules::default(), (6, 1));
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    // Lay the hand's last card first: order is the player's choice.
    let last = *legal.last().unwrap();
    act(&mut g, last);
    let Action::Place(card) = last else { panic!() };
    assert_eq!(g.line_card(A, 0), Some(card));
    assert_eq!(g.side(A).line.slots()[0].card, None);
    // The opponent sees a face-down card only; another choice looks alike.
    let mut h = after_setup(Rules::default(), (6, 1));
    act(&mut h, legal[0]);
    assert_eq!(g.observation(D), h.observation(D));
    assert_ne!(g.observation(A), h.observation(A));
}

#[test]
fn rule_defender_lays_as_many_as_attacker_or_all() {
    let mut g = after_setup(Rules::default(), (6, 1));
    let mut legal = Vec::new();
    for _ in 0..9 {
        g.legal_actions(&mut legal);
        act(&mut g, legal[0]);
    }
    assert!(matches!(
        g.phase(),
        Phase::Lay {
            player: D,
            kind: LayKind::Defence,
            left: 9
        }
    ));
    // With fewer cards, the defender lays all he has.
    let three: CardSet = CardSet::ALL.iter().take(3).collect();
    let mut g = position(Rules::default(), 2, &[], &[])
        .with(|b| b.pile(D, CardSet::ALL.minus(three)))
        .at(Phase::Lay {
            player: A,
            kind: LayKind::Attack,
            left: 4,
        });
    for _ in 0..4 {
        g.legal_actions(&mut legal);
        act(&mut g, legal[0]);
    }
    assert!(matches!(
        g.phase(),
        Phase::Lay {
            player: D,
            left: 3,
            ..
        }
    ));
}

/// The state when round 1's first battle is over, A having attacked with
/// his lowest nine cards into D's nine highest.
fn after_first_battle() -> CardWar {
    let mut g = after_setup(Rules::default(), (6, 1));
    let mut legal = Vec::new();
    while g.public().battle_no == 1 && g.outcome().is_none() {
        g.legal_actions(&mut legal);
        let a = match g.phase() {
            Phase::Lay { player, .. } if player == D => *legal.last().unwrap(),
            Phase::AttackDie => Action::Die(1),
            Phase::DefenceDie => Action::Die(6),
            _ => legal[0],
        };
        act(&mut g, a);
    }
    g
}

#[test]
fn rule_second_player_attacks_with_his_unused_cards() {
    let g = after_first_battle();
    // Round 1: the nine cards D did not lay all attack, no reserve.
    assert_eq!(
        g.phase(),
        Phase::Lay {
            player: D,
            kind: LayKind::Attack,
            left: 9
        }
    );
    assert!(!g.is_legal(Action::EndLine));
    // Survivors of the first battle are set aside, not in hand.
    assert_eq!(g.side(D).hand, 9);
    assert!(g.side(D).aside > 0);
}

#[test]
fn rule_first_attacker_defends_with_his_defence_half() {
    let mut g = after_first_battle();
    let defence_half = g.hidden(A).hand;
    assert_eq!(defence_half.len(), 9);
    let mut legal = Vec::new();
    for _ in 0..9 {
        g.legal_actions(&mut legal);
        act(&mut g, legal[0]);
    }
    g.legal_actions(&mut legal);
    assert!(matches!(
        g.phase(),
        Phase::Lay {
            player: A,
            kind: LayKind::Defence,
            left: 9
        }
    ));
    assert!(legal
        .iter()
        .all(|a| matches!(a, Action::Place(c) if defence_half.contains(*c))));
}

#[test]
fn rule_reserve_only_after_first_round() {
    let rules = Rules {
        reserve_in_first_round: true,
        ..Rules::default()
    };
    let mut g = battle(rules, 1, &[2], &[13]);
    fight(&mut g, 1, 1);
    assert!(g.is_legal(Action::EndLine));
    let mut g = battle(Rules::default(), 2, &[2], &[13]);
    fight(&mut g, 1, 1);
    assert!(matches!(
        g.phase(),
        Phase::Lay {
            player: D,
            kind: LayKind::FreeAttack,
            ..
        }
    ));
    let reserve = g.hidden(D).hand;
    act(&mut g, Action::EndLine);
    // No second battle: the reserve is back in hand for the next round.
    assert_eq!(g.round(), 3);
    assert!(reserve.minus(g.hidden(D).hand).is_empty());
}

#[test]
fn rule_second_attacker_reserve_any_part_unless_all_or_nothing() {
    // Round 2: D lost nothing and attacks with what he did not lay.
    let free = |rules: Rules| {
        let mut g = battle(rules, 2, &[2], &[13]);
        fight(&mut g, 1, 1);
        assert!(matches!(
            g.phase(),
            Phase::Lay {
                player: D,
                kind: LayKind::FreeAttack,
                ..
            }
        ));
        g
    };
    let card = |g: &CardWar| Action::Place(g.hidden(D).hand.iter().next().unwrap());
    // Any part: one card, then the rest kept.
    let mut g = free(Rules::default());
    let a = card(&g);
    act(&mut g, a);
    assert!(g.is_legal(Action::EndLine));
    // All or nothing: a reserve only before the first card; once he
    // attacks, every card follows.
    let all = Rules {
        reserve_all_or_nothing: true,
        ..Rules::default()
    };
    let g = free(all);
    assert!(g.is_legal(Action::EndLine));
    let mut g = free(all);
    let hand = g.side(D).hand;
    let a = card(&g);
    act(&mut g, a);
    assert!(!g.is_legal(Action::EndLine));
    assert_eq!(
        g.phase(),
        Phase::Lay {
            player: D,
            kind: LayKind::Attack,
            left: hand - 1
        }
    );
}

#[test]
fn rule_draw_2d6_leaving_five_in_pile() {
    let mut g = position(Rules::default(), 2, &[], &[])
        .pile(A, &[2, 2, 3, 3, 4, 4, 5, 5, 6, 6])
        .pile(D, &[2, 3, 4, 5])
        .at(Phase::DrawRoll { player: A });
    let mut out = Vec::new();
    g.chance_outcomes(&mut out);
    assert_eq!(out[5], (Action::Dice(7), 6.0 / 36.0));
    act(&mut g, Action::Dice(7));
    assert_eq!(g.phase(), Phase::Draw { player: A, left: 5 });
    let mut legal = Vec::new();
    for _ in 0..5 {
        g.legal_actions(&mut legal);
        assert_eq!(legal.len(), g.side(A).pile as usize);
        act(&mut g, legal[0]);
    }
    assert_eq!(g.side(A).pile, 5);
    // Four in the pile: nothing may be drawn.
    assert_eq!(g.phase(), Phase::DrawRoll { player: D });
    act(&mut g, Action::Dice(12));
    assert_eq!(g.side(D).pile, 4);
    assert!(matches!(g.phase(), Phase::Lay { .. }));
}

/// Round 2, second battle: the second attacker keeps everything in
/// reserve, so A attacked last.
fn round_two_without_second_attack(rules: Rules) -> CardWar {
    let mut g = battle(rules, 2, &[2], &[13]);
    fight(&mut g, 1, 1);
    act(&mut g, Action::EndLine);
    g
}

#[test]
fn rule_last_attacker_attacks_first_next_round() {
    let g = round_two_without_second_attack(Rules::default());
    assert_eq!((g.round(), g.public().first), (3, A));
    let alternate = Rules {
        first_attacker: FirstAttacker::Alternate,
        ..Rules::default()
    };
    let g = round_two_without_second_attack(alternate);
    assert_eq!((g.round(), g.public().first), (3, D));
    // In a full round the second attacker attacks first next round.
    let mut g = battle(Rules::default(), 2, &[2], &[13]);
    fight(&mut g, 1, 1);
    let c = g.hidden(D).hand.iter().next().unwrap();
    act(&mut g, Action::Place(c));
    act(&mut g, Action::EndLine);
    let mut legal = Vec::new();
    while g.round() == 2 {
        g.legal_actions(&mut legal);
        let a = if g.phase() == Phase::AttackDie {
            Action::Die(6)
        } else {
            legal[0]
        };
        act(&mut g, a);
        decline(&mut g);
    }
    assert_eq!(g.public().first, D);
}

#[test]
fn rule_halved_army_attacker_defends_instead() {
    // The text's example: 5 cards against 11.
    let rules = Rules {
        keep_in_pile: 24,
        ..Rules::default()
    };
    let ranks: Vec<u8> = (2..=13).flat_map(|r| [r, r]).collect();
    let mut g = position(rules, 2, &[], &[])
        .pile(A, &ranks[..19])
        .pile(D, &ranks[..13])
        .at(Phase::DrawRoll { player: D });
    act(&mut g, Action::Dice(2));
    assert!(g.public().swapped);
    assert_eq!(
        g.phase(),
        Phase::Lay {
            player: D,
            kind: LayKind::Attack,
            left: 5
        }
    );
    let mut legal = Vec::new();
    for _ in 0..5 {
        g.legal_actions(&mut legal);
        act(&mut g, legal[0]);
    }
    assert!(matches!(
        g.phase(),
        Phase::Lay {
            player: A,
            kind: LayKind::Defence,
            left: 5
        }
    ));
    // Play the battle out: no second battle follows.
    while g.round() == 2 && g.outcome().is_none() {
        g.legal_actions(&mut legal);
        act(&mut g, legal[0]);
    }
    assert_eq!(g.round(), 3);
    assert!(g.side(D).hand >= 6, "the defence half is kept");
}

#[test]
fn rule_round_limit_ends_in_draw() {
    let rules = Rules {
        max_rounds: 1,
        ..Rules::default()
    };
    let mut g = battle(rules, 1, &[2], &[13]);
    fight(&mut g, 1, 1);
    let c = g.hidden(D).hand.iter().next().unwrap();
    act(&mut g, Action::Place(c));
    // Play on with the defender always winning: nobody reaches a joker.
    play_out(&mut g, |g, legal| match g.phase() {
        Phase::AttackDie => Action::Die(1),
        Phase::DefenceDie => Action::Die(6),
        _ => legal[0],
    });
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert_eq!(g.round(), 1);
    assert_eq!(g.returns(A), 0.0);
}
