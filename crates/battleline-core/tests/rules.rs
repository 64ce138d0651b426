//! One test per rule of the game, on whole states played through the
//! public API (chance outcomes are chosen by the test to script a game).

use battleline_core::{
    Action, BattleLine, Card, CardSet, Colour, Deck, FlagId, FlagSet, LeaderLimit, Phase, Rules,
    Tactic,
};
use game_traits::RuleSet;
use game_traits::{play_match, Game, GameRng, PlayerId, RandomAgent, Turn};
use rand::{Rng, SeedableRng};

const P0: PlayerId = PlayerId::P0;
const P1: PlayerId = PlayerId::P1;

fn t(c: Colour, v: u8) -> Card {
    Card::troop(c, v).unwrap()
}

fn tac(x: Tactic) -> Card {
    Card::tactic(x)
}

fn flag(i: usize) -> FlagId {
    FlagId::new(i).unwrap()
}

fn legal(s: &BattleLine) -> Vec<Action> {
    let mut v = Vec::new();
    s.legal_actions(&mut v);
    v
}

fn act(s: &mut BattleLine, a: Action) {
    s.apply(a).unwrap_or_else(|e| panic!("{a}: {e}\n{s}"));
}

/// Deals Red 1-7 to the first player and Blue 1-7 to the second.
fn dealt(rules: Rules) -> BattleLine {
    let mut s = BattleLine::new(&rules).unwrap();
    for v in 1..=7 {
        act(&mut s, Action::Deal(t(Colour::Red, v)));
        act(&mut s, Action::Deal(t(Colour::Blue, v)));
    }
    s
}

/// Plays `play`, then draws `draw` from its deck.
fn turn(s: &mut BattleLine, play: Action, draw: Card) {
    act(s, play);
    act(s, Action::Draw(draw.deck()));
    if s.turn() == Turn::Chance {
        act(s, Action::Deal(draw));
    }
}

fn play(card: Card, f: usize) -> Action {
    Action::Play {
        card,
        flag: flag(f),
    }
}

#[test]
fn rule_hands_of_seven_and_the_non_dealer_starts() {
    let s = dealt(Rules::default());
    assert_eq!(s.hand(P0).len(), 7);
    assert_eq!(s.hand(P1).len(), 7);
    assert_eq!(s.turn(), Turn::Player(P0));
    assert_eq!(s.deck_len(Deck::Troop), 46);
    assert_eq!(s.deck_len(Deck::Tactics), 10);
    let s = dealt(Rules::default().with_first_player(P1));
    assert_eq!(s.turn(), Turn::Player(P1));
    assert_eq!(s.hand(P1), (1..=7).map(|v| t(Colour::Red, v)).collect());
}

#[test]
fn rule_draw_from_either_deck_at_the_end_of_the_turn() {
    let mut s = dealt(Rules::default());
    act(&mut s, play(t(Colour::Red, 1), 0));
    assert_eq!(
        legal(&s),
        vec![Action::Draw(Deck::Troop), Action::Draw(Deck::Tactics)]
    );
    act(&mut s, Action::Draw(Deck::Tactics));
    assert_eq!(s.turn(), Turn::Chance);
    act(&mut s, Action::Deal(tac(Tactic::Scout)));
    assert!(s.hand(P0).contains(tac(Tactic::Scout)));
    assert_eq!(s.turn(), Turn::Player(P1));
}

#[test]
fn rule_play_continues_after_both_decks_are_empty() {
    let mut rng = GameRng::seed_from_u64(5);
    let mut seen_empty = 0;
    for seed in 0..40 {
        let mut s = BattleLine::new(&Rules::default()).unwrap();
        let mut chance = GameRng::seed_from_u64(seed);
        while !s.is_terminal() {
            if s.deck_len(Deck::Troop) + s.deck_len(Deck::Tactics) == 0
                && s.table().phase() == Phase::Play
            {
                seen_empty += 1;
                // Playing still works; the turn then ends without a draw.
                let l = legal(&s);
                assert!(!l.is_empty());
            }
            let a = match s.turn() {
                Turn::Chance => s.sample_chance(&mut chance).unwrap(),
                _ => {
                    let l = legal(&s);
                    if s.table().phase() == Phase::Claim
                        && s.deck_len(Deck::Troop) + s.deck_len(Deck::Tactics) == 0
                    {
                        assert!(l.contains(&Action::EndTurn));
                    }
                    l[rng.random_range(0..l.len())]
                }
            };
            s.apply(a).unwrap();
        }
    }
    assert!(seen_empty > 0, "no game reached empty decks");
}

#[test]
fn rule_claims_are_made_after_playing_and_before_drawing() {
    let mut s = dealt(Rules::default());
    // P0 builds Red 5-6-7 at F1 while P1 plays elsewhere.
    turn(&mut s, play(t(Colour::Red, 5), 0), t(Colour::Green, 1));
    turn(&mut s, play(t(Colour::Blue, 1), 4), t(Colour::Green, 2));
    turn(&mut s, play(t(Colour::Red, 6), 0), t(Colour::Green, 3));
    turn(&mut s, play(t(Colour::Blue, 2), 4), t(Colour::Green, 4));
    act(&mut s, play(t(Colour::Red, 7), 0));
    // Red 8-9-10 / other Wedges are still possible for P1: no claim yet.
    assert!(!legal(&s).contains(&Action::Claim(flag(0))));
    // A complete formation against a complete weaker one can be claimed.
    let mut s = dealt(Rules::default());
    for (mine, theirs) in [(1, 1), (2, 2)] {
        turn(
            &mut s,
            play(t(Colour::Red, mine), 0),
            t(Colour::Green, mine),
        );
        turn(
            &mut s,
            play(t(Colour::Blue, theirs), 0),
            t(Colour::Yellow, theirs),
        );
    }
    turn(&mut s, play(t(Colour::Red, 3), 0), t(Colour::Green, 3));
    act(&mut s, play(t(Colour::Yellow, 1), 0));
    // P1 completed Blue 1-2 + Green 1 (Host), P0 holds the Wedge 1-2-3: P1
    // cannot claim; P0 can in his turn, before drawing.
    assert!(!legal(&s).contains(&Action::Claim(flag(0))));
    act(&mut s, Action::Draw(Deck::Troop));
    act(&mut s, Action::Deal(t(Colour::Purple, 9)));
    act(&mut s, play(t(Colour::Red, 4), 1));
    assert!(legal(&s).contains(&Action::Claim(flag(0))));
    act(&mut s, Action::Claim(flag(0)));
    assert_eq!(s.table().flags()[0].claimed(), Some(P0));
}

#[test]
fn rule_variant_claims_only_at_the_start_of_the_turn() {
    let mut s = dealt(Rules::claims_at_start_of_turn());
    for (mine, theirs) in [(1, 1), (2, 2)] {
        turn(
            &mut s,
            play(t(Colour::Red, mine), 0),
            t(Colour::Green, mine),
        );
        turn(
            &mut s,
            play(t(Colour::Blue, theirs), 0),
            t(Colour::Yellow, theirs),
        );
    }
    act(&mut s, play(t(Colour::Red, 3), 0));
    // Complete, but claims wait for the start of the next turn.
    assert_eq!(
        legal(&s),
        vec![Action::Draw(Deck::Troop), Action::Draw(Deck::Tactics)]
    );
    act(&mut s, Action::Draw(Deck::Troop));
    act(&mut s, Action::Deal(t(Colour::Green, 3)));
    act(&mut s, play(t(Colour::Yellow, 1), 0));
    act(&mut s, Action::Draw(Deck::Troop));
    act(&mut s, Action::Deal(t(Colour::Purple, 9)));
    assert!(legal(&s).contains(&Action::Claim(flag(0))));
    act(&mut s, Action::Claim(flag(0)));
    assert_eq!(s.table().phase(), Phase::Play);
}

#[test]
fn rule_claimed_flag_is_closed_to_cards_and_tactics() {
    let mut s = dealt(Rules::default());
    for (mine, theirs) in [(1, 1), (2, 2)] {
        turn(
            &mut s,
            play(t(Colour::Red, mine), 0),
            t(Colour::Green, mine),
        );
        turn(
            &mut s,
            play(t(Colour::Blue, theirs), 0),
            t(Colour::Yellow, theirs),
        );
    }
    act(&mut s, play(t(Colour::Red, 3), 0));
    act(&mut s, Action::Draw(Deck::Tactics));
    act(&mut s, Action::Deal(tac(Tactic::Fog)));
    act(&mut s, play(t(Colour::Yellow, 1), 0));
    act(&mut s, Action::Draw(Deck::Tactics));
    act(&mut s, Action::Deal(tac(Tactic::Mud)));
    act(&mut s, play(t(Colour::Red, 4), 1));
    act(&mut s, Action::Claim(flag(0)));
    act(&mut s, Action::Draw(Deck::Troop));
    act(&mut s, Action::Deal(t(Colour::Green, 9)));
    let l = legal(&s);
    assert!(!l
        .iter()
        .any(|a| matches!(a, Action::Play { flag: f, .. } if f.index() == 0)));
    assert!(l.contains(&play(tac(Tactic::Mud), 1)));
    assert!(s.apply(play(tac(Tactic::Mud), 0)).is_err());
}

/// P0 plays Red 1 and draws `a`; P1 plays Blue 1 and draws `b`; P0 plays
/// Red 2 and draws `c`; P1 plays Blue 2 and draws `d`.
fn two_rounds(rules: Rules, a: Card, b: Card, c: Card, d: Card) -> BattleLine {
    let mut s = dealt(rules);
    turn(&mut s, play(t(Colour::Red, 1), 0), a);
    turn(&mut s, play(t(Colour::Blue, 1), 0), b);
    turn(&mut s, play(t(Colour::Red, 2), 1), c);
    turn(&mut s, play(t(Colour::Blue, 2), 1), d);
    s
}

#[test]
fn rule_one_leader_per_player_the_second_stays_in_hand() {
    for limit in [LeaderLimit::OncePerGame, LeaderLimit::OneOnTable] {
        let rules = Rules {
            leader_limit: limit,
            ..Rules::default()
        };
        let mut s = two_rounds(
            rules,
            tac(Tactic::Alexander),
            tac(Tactic::Deserter),
            tac(Tactic::Darius),
            t(Colour::Green, 5),
        );
        turn(&mut s, play(tac(Tactic::Alexander), 2), t(Colour::Green, 6));
        // P1 discards the Leader with Deserter (also lifting the tactics limit).
        turn(
            &mut s,
            Action::Deserter {
                card: tac(Tactic::Alexander),
            },
            t(Colour::Green, 7),
        );
        let darius = legal(&s)
            .iter()
            .any(|a| matches!(a, Action::Play { card, .. } if *card == tac(Tactic::Darius)));
        assert_eq!(darius, limit == LeaderLimit::OneOnTable, "{limit:?}");
    }
    // With the Leader on the table the second is never playable.
    let rules = Rules {
        leader_limit: LeaderLimit::OneOnTable,
        ..Rules::default()
    };
    let mut s = two_rounds(
        rules,
        tac(Tactic::Alexander),
        tac(Tactic::Fog),
        tac(Tactic::Darius),
        t(Colour::Green, 5),
    );
    turn(&mut s, play(tac(Tactic::Alexander), 2), t(Colour::Green, 6));
    turn(&mut s, play(tac(Tactic::Fog), 3), t(Colour::Green, 7));
    assert!(!legal(&s)
        .iter()
        .any(|a| matches!(a, Action::Play { card, .. } if *card == tac(Tactic::Darius))));
}

#[test]
fn rule_tactics_limit_one_more_than_the_opponent() {
    let mut s = two_rounds(
        Rules::default(),
        tac(Tactic::Fog),
        t(Colour::Green, 1),
        tac(Tactic::Mud),
        t(Colour::Green, 2),
    );
    turn(&mut s, play(tac(Tactic::Fog), 3), t(Colour::Green, 3));
    turn(&mut s, play(t(Colour::Blue, 3), 2), t(Colour::Green, 4));
    // P0 has played one tactic more than P1: Mud is not playable.
    assert!(!legal(&s)
        .iter()
        .any(|a| matches!(a, Action::Play { card, .. } if !card.is_troop())));
    assert!(s.apply(play(tac(Tactic::Mud), 4)).is_err());
}

#[test]
fn rule_pass_only_when_no_troop_card_can_be_played() {
    let s = dealt(Rules::default());
    assert!(!legal(&s).contains(&Action::Pass));
    // A hand of tactics only may pass: P0 trades all troops for tactics.
    let mut s = dealt(Rules::default());
    let tactics = [
        Tactic::Fog,
        Tactic::Mud,
        Tactic::Scout,
        Tactic::Redeploy,
        Tactic::Deserter,
        Tactic::Traitor,
        Tactic::Alexander,
    ];
    for (i, x) in tactics.iter().enumerate() {
        turn(&mut s, play(t(Colour::Red, i as u8 + 1), i), tac(*x));
        turn(
            &mut s,
            play(t(Colour::Blue, i as u8 + 1), i),
            t(Colour::Green, i as u8 + 1),
        );
    }
    assert!(s.hand(P0).intersection(CardSet::ALL_TROOPS).is_empty());
    assert!(legal(&s).contains(&Action::Pass));
    act(&mut s, Action::Pass);
    // No draw after a pass: the hand stays at seven.
    assert_eq!(legal(&s), vec![Action::EndTurn]);
    act(&mut s, Action::EndTurn);
    assert_eq!(s.hand(P0).len(), 7);
}

#[test]
fn rule_scout_draws_three_and_returns_two_on_top_of_their_decks() {
    let mut s = two_rounds(
        Rules::default(),
        tac(Tactic::Scout),
        t(Colour::Green, 1),
        t(Colour::Green, 2),
        t(Colour::Green, 3),
    );
    act(&mut s, Action::Scout);
    for c in [t(Colour::Yellow, 1), tac(Tactic::Fog), t(Colour::Yellow, 2)] {
        act(&mut s, Action::Draw(c.deck()));
        act(&mut s, Action::Deal(c));
    }
    assert_eq!(s.hand(P0).len(), 9);
    assert_eq!(s.table().phase(), Phase::Return);
    act(&mut s, Action::Return(t(Colour::Red, 3)));
    act(&mut s, Action::Return(tac(Tactic::Fog)));
    assert_eq!(s.hand(P0).len(), 7);
    assert_eq!(s.turn(), Turn::Player(P1));
    // P0 knows what lies on top; P1 does not.
    let o0 = s.observation(P0).to_string();
    let o1 = s.observation(P1).to_string();
    assert!(o0.contains("returned on top of the decks by you: R3 FOG"));
    assert!(!o1.contains("R3 FOG"));
    // P1 draws the returned troop without a chance event; P0 now knows it.
    act(&mut s, play(t(Colour::Blue, 3), 2));
    act(&mut s, Action::Draw(Deck::Troop));
    assert!(s.hand(P1).contains(t(Colour::Red, 3)));
    assert_eq!(
        s.observation(P0).known_opponent_cards(),
        [t(Colour::Red, 3)].into_iter().collect()
    );
}

#[test]
fn rule_redeploy_moves_or_discards_your_own_card() {
    let mut s = two_rounds(
        Rules::default(),
        tac(Tactic::Redeploy),
        t(Colour::Green, 1),
        t(Colour::Green, 2),
        t(Colour::Green, 3),
    );
    let l = legal(&s);
    assert!(l.contains(&Action::Redeploy {
        card: t(Colour::Red, 1),
        to: Some(flag(5))
    }));
    assert!(l.contains(&Action::Redeploy {
        card: t(Colour::Red, 1),
        to: None
    }));
    assert!(!l.contains(&Action::Redeploy {
        card: t(Colour::Red, 1),
        to: Some(flag(0))
    }));
    assert!(!l
        .iter()
        .any(|a| matches!(a, Action::Redeploy { card, .. } if *card == t(Colour::Blue, 1))));
    let mut moved = s;
    act(
        &mut moved,
        Action::Redeploy {
            card: t(Colour::Red, 1),
            to: Some(flag(5)),
        },
    );
    assert!(moved.table().flags()[5]
        .side(P0)
        .contains(t(Colour::Red, 1)));
    assert!(moved.table().flags()[0].side(P0).is_empty());
    act(
        &mut s,
        Action::Redeploy {
            card: t(Colour::Red, 1),
            to: None,
        },
    );
    assert!(s.table().discards(P0).contains(t(Colour::Red, 1)));
    assert!(s.table().discards(P0).contains(tac(Tactic::Redeploy)));
}

#[test]
fn rule_deserter_discards_an_opponent_card() {
    let mut s = two_rounds(
        Rules::default(),
        tac(Tactic::Deserter),
        t(Colour::Green, 1),
        t(Colour::Green, 2),
        t(Colour::Green, 3),
    );
    act(
        &mut s,
        Action::Deserter {
            card: t(Colour::Blue, 2),
        },
    );
    assert!(s.table().flags()[1].side(P1).is_empty());
    assert!(s.table().discards(P1).contains(t(Colour::Blue, 2)));
}

#[test]
fn rule_traitor_takes_an_opponent_troop_card_only() {
    let mut s = two_rounds(
        Rules::default(),
        tac(Tactic::Fog),
        tac(Tactic::Alexander),
        tac(Tactic::Traitor),
        t(Colour::Green, 3),
    );
    turn(&mut s, play(tac(Tactic::Fog), 8), t(Colour::Green, 4));
    turn(&mut s, play(tac(Tactic::Alexander), 0), t(Colour::Green, 5));
    let l = legal(&s);
    assert!(l.contains(&Action::Traitor {
        card: t(Colour::Blue, 2),
        to: flag(1)
    }));
    assert!(!l
        .iter()
        .any(|a| matches!(a, Action::Traitor { card, .. } if !card.is_troop())));
    act(
        &mut s,
        Action::Traitor {
            card: t(Colour::Blue, 2),
            to: flag(1),
        },
    );
    assert!(s.table().flags()[1].side(P0).contains(t(Colour::Blue, 2)));
    assert!(s.table().flags()[1].side(P1).is_empty());
}

#[test]
fn rule_fog_and_mud_stay_beside_the_flag() {
    let mut s = two_rounds(
        Rules::default(),
        tac(Tactic::Mud),
        tac(Tactic::Redeploy),
        t(Colour::Green, 9),
        t(Colour::Green, 3),
    );
    turn(&mut s, play(tac(Tactic::Mud), 0), t(Colour::Green, 4));
    // Mud opens a fourth slot; Redeploy offers no way to move Mud.
    assert!(s.table().flags()[0].env().mud);
    act(
        &mut s,
        Action::Redeploy {
            card: t(Colour::Blue, 1),
            to: Some(flag(4)),
        },
    );
    assert!(s.table().flags()[0].env().mud);
    act(&mut s, Action::Draw(Deck::Troop));
    act(&mut s, Action::Deal(t(Colour::Green, 5)));
    for v in [3, 4, 5] {
        turn(&mut s, play(t(Colour::Red, v), 0), t(Colour::Yellow, v));
        turn(&mut s, play(t(Colour::Blue, v), 5), t(Colour::Purple, v));
    }
    // Four cards on P0's side of the Mud flag: Red 1, 3, 4, 5.
    assert!(s.table().flags()[0].is_complete(P0));
    assert_eq!(s.table().flags()[0].side(P0).len(), 4);
}

#[test]
fn rule_victory_three_adjacent_flags_or_any_five() {
    let set = |flags: &[usize]| -> FlagSet { flags.iter().map(|&i| flag(i)).collect() };
    assert!(set(&[0, 1, 2]).is_victory());
    assert!(set(&[6, 7, 8]).is_victory());
    assert!(!set(&[0, 3, 5, 6]).is_victory());
    assert!(!set(&[0, 1, 3, 5]).is_victory());
    assert!(set(&[0, 2, 4, 6, 8]).is_victory());
    assert!(!set(&[0, 1, 3, 4]).is_victory());
    assert!(set(&[0, 1, 3, 4, 5]).is_victory());
}

#[test]
fn rule_every_game_ends_within_the_bound() {
    let mut settled = 0;
    for seed in 0..300 {
        let (mut a, mut b) = (RandomAgent, RandomAgent);
        let (s, record) =
            play_match::<BattleLine>(&Rules::default(), seed, &mut [&mut a, &mut b]).unwrap();
        assert!(record.actions().len() <= Rules::default().max_game_length() as usize);
        let table = s.table();
        match s.outcome().unwrap() {
            game_traits::Outcome::Win(w) if !table.settled() => {
                assert!(table.claimed(w).is_victory())
            }
            _ => assert!(table.settled()),
        }
        settled += table.settled() as u32;
    }
    assert!(settled > 0, "the end rule never fired");
}

#[test]
fn rule_end_rule_settles_flags_after_two_passes_in_a_row() {
    // Find a game that ended by the end rule and check the settlement.
    for seed in 0..300 {
        let (mut a, mut b) = (RandomAgent, RandomAgent);
        let (s, record) =
            play_match::<BattleLine>(&Rules::default(), seed, &mut [&mut a, &mut b]).unwrap();
        if !s.table().settled() {
            continue;
        }
        let acts = record.actions();
        let decisions: Vec<&Action> = acts
            .iter()
            .filter(|a| !matches!(a, Action::Deal(_)))
            .collect();
        // The last two turns were passes: the second passer's claim step
        // (claims, then the end of the turn) comes before the settlement.
        let mut rev = decisions.iter().rev();
        assert_eq!(**rev.next().unwrap(), Action::EndTurn);
        let mut rev = rev.skip_while(|a| matches!(a, Action::Claim(_)));
        assert_eq!(**rev.next().unwrap(), Action::Pass);
        assert!(rev
            .take_while(|a| !matches!(a, Action::Pass))
            .all(|a| matches!(a, Action::Claim(_) | Action::EndTurn)));
        for f in s.table().flags() {
            match f.claimed() {
                Some(p) => assert!(f.is_complete(p)),
                None => assert!(!f.is_complete(P0) && !f.is_complete(P1)),
            }
        }
        return;
    }
    panic!("no game ended by the end rule");
}

/// Claims after the pass that ends the game (`Rules::last_pass`), and the
/// hand limit.
mod last_pass {
    use super::*;
    use battleline_core::{LastPass, PositionBuilder};
    use game_traits::Outcome;

    /// P1 has passed (a hand of tactics only); P0 holds troop cards but
    /// every side of his is full, so he may only pass. His Wedges 8-9-10 at
    /// F1..F4 can be claimed (the best reply only ties); P1 has a Wedge at
    /// F5 against P0's Host.
    fn both_stuck(rules: Rules) -> BattleLine {
        use Colour::*;
        let mut b = PositionBuilder::new(rules);
        let p0: [[Card; 3]; 9] = [
            [t(Red, 8), t(Red, 9), t(Red, 10)],
            [t(Orange, 8), t(Orange, 9), t(Orange, 10)],
            [t(Yellow, 8), t(Yellow, 9), t(Yellow, 10)],
            [t(Green, 8), t(Green, 9), t(Green, 10)],
            [t(Red, 1), t(Orange, 2), t(Yellow, 4)],
            [t(Red, 2), t(Orange, 4), t(Yellow, 6)],
            [t(Red, 3), t(Orange, 5), t(Yellow, 7)],
            [t(Red, 4), t(Orange, 6), t(Green, 1)],
            [t(Red, 5), t(Orange, 7), t(Green, 2)],
        ];
        for (i, cards) in p0.iter().enumerate() {
            for &c in cards {
                b = b.place(flag(i), P0, c);
            }
        }
        for v in 1..=3 {
            b = b.place(flag(4), P1, t(Blue, v));
        }
        b = b.place(flag(5), P1, t(Blue, 4));
        let tactics = [
            Tactic::Alexander,
            Tactic::Darius,
            Tactic::CompanionCavalry,
            Tactic::ShieldBearers,
            Tactic::Fog,
            Tactic::Mud,
            Tactic::Scout,
        ];
        b.hand(P0, [t(Purple, 9), t(Purple, 10)].into_iter().collect())
            .hand(P1, tactics.into_iter().map(tac).collect())
            .turn(P0, Phase::Play)
            .passes(1)
            .moves(60)
            .build()
            .unwrap()
    }

    #[test]
    fn rule_last_pass_claim_first_the_passer_claims_before_the_end_rule() {
        let mut s = both_stuck(Rules::default());
        assert_eq!(legal(&s), vec![Action::Pass]);
        act(&mut s, Action::Pass);
        // The claim step: the provable flags and the end of the turn (no draw
        // after a pass).
        let mut expected: Vec<Action> = (0..4).map(|i| Action::Claim(flag(i))).collect();
        expected.push(Action::EndTurn);
        assert_eq!(legal(&s), expected);
        assert_eq!(s.table().passes(), 2);
        // The state round-trips through the notation in this step too.
        assert_eq!(BattleLine::from_notation(&s.to_notation()).unwrap(), s);
        act(&mut s, Action::Claim(flag(3)));
        assert!(!s.is_terminal());
        act(&mut s, Action::EndTurn);
        // Ending the step settles the rest: F1..F3 to P0's complete sides,
        // F5 to P1's Wedge, F6..F9 to P0 (complete against incomplete).
        assert!(s.is_terminal());
        assert!(s.table().settled());
        assert_eq!(s.outcome(), Some(Outcome::Win(P0)));
        assert_eq!(s.table().flag(flag(3)).claimed(), Some(P0));
        assert_eq!(s.table().flag(flag(4)).claimed(), Some(P1));
        assert_eq!(BattleLine::from_notation(&s.to_notation()).unwrap(), s);
    }

    #[test]
    fn rule_last_pass_claim_first_a_winning_claim_ends_the_game_at_once() {
        let mut s = both_stuck(Rules::default());
        act(&mut s, Action::Pass);
        for i in 0..3 {
            act(&mut s, Action::Claim(flag(i)));
        }
        // Three adjacent flags: the claim wins, the end rule never runs.
        assert!(s.is_terminal());
        assert!(!s.table().settled());
        assert_eq!(s.outcome(), Some(Outcome::Win(P0)));
        assert_eq!(s.table().flag(flag(4)).claimed(), None);
        let line = s.to_notation();
        assert!(line.contains(" end=claim"), "{line}");
        assert_eq!(BattleLine::from_notation(&line).unwrap(), s);
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<BattleLine>(&json).unwrap(), s);
    }

    #[test]
    fn rule_last_pass_settle_at_once_the_second_pass_ends_the_game() {
        let rules = Rules {
            last_pass: LastPass::SettleAtOnce,
            ..Rules::default()
        };
        let mut s = both_stuck(rules);
        act(&mut s, Action::Pass);
        assert!(s.is_terminal());
        assert!(s.table().settled());
        assert_eq!(s.outcome(), Some(Outcome::Win(P0)));
        assert!(s.to_notation().contains("rules=last-pass-settles"));
        // Under StartOfTurn the passer claimed before passing: at once too.
        let mut s = both_stuck(Rules::claims_at_start_of_turn());
        assert!(legal(&s).contains(&Action::Claim(flag(0))));
        act(&mut s, Action::Pass);
        assert!(s.is_terminal());
        assert!(s.table().settled());
    }

    #[test]
    fn last_pass_states_that_no_game_reaches_are_refused() {
        let s = both_stuck(Rules::default());
        // Two passes, not over, in the play phase: no such state.
        let bad = PositionBuilder::from_state(&s).passes(2).build();
        assert!(bad.is_err());
        // A claim step after two passes under SettleAtOnce: none either.
        let mut s = both_stuck(Rules::default());
        act(&mut s, Action::Pass);
        let line = s.to_notation() + " rules=last-pass-settles";
        assert!(BattleLine::from_notation(&line).is_err());
        // `end=claim` names a finished game only, and nothing else.
        assert!(BattleLine::from_notation(&(s.to_notation() + " end=claim")).is_err());
        act(&mut s, Action::EndTurn);
        assert!(BattleLine::from_notation(&(s.to_notation() + " end=rule")).is_err());
    }

    #[test]
    fn rule_last_pass_claims_after_the_last_pass_occur_in_random_play() {
        // Random games reach the claim step after the second pass, and the
        // game then ends only by a claim or by the end rule.
        let mut steps = 0;
        random_states(Rules::default(), 300, |s, l| {
            if s.table().passes() == 2 {
                steps += 1;
                assert_eq!(s.table().phase(), Phase::Claim);
                assert_eq!(l.last(), Some(&Action::EndTurn));
                assert!(l[..l.len() - 1]
                    .iter()
                    .all(|a| matches!(a, Action::Claim(_))));
            }
        });
        assert!(steps > 0, "no game reached the claim step after two passes");
    }

    #[test]
    fn rule_hand_limit_of_seven() {
        // "кількість карт в руці обмежено 7": a hand holds at most seven
        // cards whenever a player is to play; only Scout's three draws lift
        // the hand of the player who played it above seven (to nine at
        // most), and his two returns bring it back before the turn ends.
        for rules in [
            Rules::default(),
            Rules::troops_only(),
            Rules::claims_at_start_of_turn(),
            Rules::movable_environment(),
        ] {
            let (mut full, mut above) = (0, 0);
            random_states(rules, 40, |s, _| {
                let table = s.table();
                for p in [P0, P1] {
                    let n = s.hand(p).len();
                    if n > 7 {
                        above += 1;
                        assert!(n <= 9, "{s}");
                        assert_eq!(table.player(), p, "{s}");
                        assert_eq!(table.scout_by(), Some(p), "{s}");
                        assert!(matches!(table.phase(), Phase::Draw | Phase::Return), "{s}");
                    }
                    if table.phase() == Phase::Play {
                        assert!(n <= 7, "{s}");
                        full += (n == 7) as u32;
                    }
                }
            });
            assert!(full > 0);
            assert_eq!(above > 0, rules.tactics, "{rules:?}");
        }
    }
}

#[test]
fn rule_hidden_information_never_reaches_the_observation() {
    let mut rng = GameRng::seed_from_u64(3);
    let (mut a, mut b) = (RandomAgent, RandomAgent);
    let (_, record) =
        play_match::<BattleLine>(&Rules::default(), 11, &mut [&mut a, &mut b]).unwrap();
    let mut steps = 0;
    record
        .replay_with(|s, _| {
            for p in [P0, P1] {
                let obs = s.observation(p);
                // Two states differing only in what p cannot see.
                let x = BattleLine::determinize(&obs, &mut rng).unwrap();
                let y = BattleLine::determinize(&obs, &mut rng).unwrap();
                assert_eq!(x.observation(p), obs);
                assert_eq!(y.observation(p), obs);
                assert_eq!(x.hand(p), s.hand(p));
                if x.hand(p.other()) != y.hand(p.other()) {
                    steps += 1;
                }
            }
        })
        .unwrap();
    assert!(steps > 0, "determinisation never resampled the other hand");
}

#[test]
fn illegal_actions_are_refused_and_leave_the_state_unchanged() {
    let mut s = dealt(Rules::default());
    let before = s;
    for a in [
        Action::Pass,
        Action::Claim(flag(0)),
        Action::Draw(Deck::Troop),
        play(t(Colour::Blue, 1), 0),
        Action::Scout,
        Action::Deal(t(Colour::Green, 1)),
        Action::Return(t(Colour::Red, 1)),
    ] {
        assert!(s.apply(a).is_err(), "{a}");
        assert_eq!(s, before);
    }
}

#[test]
fn tampered_states_are_refused() {
    let s = dealt(Rules::default());
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(serde_json::from_str::<BattleLine>(&json).unwrap(), s);
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    // A card in both hands.
    v["hands"][1] = v["hands"][0].clone();
    assert!(serde_json::from_str::<BattleLine>(&v.to_string()).is_err());
}

fn deal(rules: Rules, first: [Card; 7], second: [Card; 7]) -> BattleLine {
    let mut s = BattleLine::new(&rules).unwrap();
    for (a, b) in first.into_iter().zip(second) {
        act(&mut s, Action::Deal(a));
        act(&mut s, Action::Deal(b));
    }
    s
}

#[test]
fn rule_deserter_reopens_a_completed_side_and_its_completion_counts_anew() {
    use Colour::*;
    let mut s = deal(
        Rules::default(),
        [
            t(Red, 1),
            t(Green, 3),
            t(Yellow, 5),
            t(Orange, 1),
            t(Red, 7),
            t(Red, 8),
            t(Red, 9),
        ],
        [
            t(Blue, 1),
            t(Purple, 3),
            t(Green, 5),
            t(Blue, 7),
            t(Blue, 8),
            t(Blue, 9),
            t(Purple, 9),
        ],
    );
    turn(&mut s, play(t(Red, 1), 0), t(Yellow, 1));
    turn(&mut s, play(t(Blue, 1), 0), tac(Tactic::Deserter));
    turn(&mut s, play(t(Green, 3), 0), t(Yellow, 2));
    turn(&mut s, play(t(Purple, 3), 0), t(Orange, 2));
    // P0 completes a Host of 9 first; P1 completes an equal Host later.
    turn(&mut s, play(t(Yellow, 5), 0), t(Yellow, 3));
    act(&mut s, play(t(Green, 5), 0));
    assert_eq!(s.table().flags()[0].first_complete(), Some(P0));
    assert!(!legal(&s).contains(&Action::Claim(flag(0))));
    act(&mut s, Action::Draw(Deck::Troop));
    act(&mut s, Action::Deal(t(Orange, 3)));
    act(&mut s, play(t(Red, 7), 1));
    assert!(
        legal(&s).contains(&Action::Claim(flag(0))),
        "P0 completed first and wins the tie"
    );
    act(&mut s, Action::Draw(Deck::Troop));
    act(&mut s, Action::Deal(t(Yellow, 4)));
    // P1's Deserter reopens P0's side; P0 completes the same Host again, now last.
    turn(&mut s, Action::Deserter { card: t(Red, 1) }, t(Orange, 4));
    assert_eq!(s.table().flags()[0].first_complete(), Some(P1));
    act(&mut s, play(t(Orange, 1), 0));
    assert!(!legal(&s).contains(&Action::Claim(flag(0))));
    act(&mut s, Action::Draw(Deck::Troop));
    act(&mut s, Action::Deal(t(Purple, 1)));
    act(&mut s, play(t(Blue, 7), 2));
    assert!(
        legal(&s).contains(&Action::Claim(flag(0))),
        "now P1 wins the tie"
    );
}

/// Plays `games` seeded random games under `rules`, calling `visit` on
/// every state where a player decides, with the action about to be played.
fn random_states(rules: Rules, games: u64, visit: impl FnMut(&BattleLine, &[Action])) {
    random_states_drawing(rules, games, None, visit)
}

/// [`random_states`], always drawing from `prefer` when it has cards.
fn random_states_drawing(
    rules: Rules,
    games: u64,
    prefer: Option<Deck>,
    mut visit: impl FnMut(&BattleLine, &[Action]),
) {
    for seed in 0..games {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut s = BattleLine::new(&rules).unwrap();
        while !s.is_terminal() {
            let a = match s.turn() {
                Turn::Chance => s.sample_chance(&mut rng).unwrap(),
                _ => {
                    let l = legal(&s);
                    visit(&s, &l);
                    match prefer.map(Action::Draw) {
                        Some(d) if l.contains(&d) => d,
                        _ => l[rng.random_range(0..l.len())],
                    }
                }
            };
            act(&mut s, a);
        }
    }
}

#[test]
fn rule_draw_from_the_other_deck_when_one_is_empty() {
    let mut seen = [0; 2];
    let mut visit = |s: &BattleLine, l: &[Action]| {
        let draws: Vec<Action> = l
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Draw(_)))
            .collect();
        for d in Deck::ALL {
            let other = Deck::ALL[1 - d.index()];
            if !draws.is_empty() && s.deck_len(d) == 0 && s.deck_len(other) > 0 {
                seen[d.index()] += 1;
                assert_eq!(draws, vec![Action::Draw(other)]);
                assert!(s.clone().apply(Action::Draw(d)).is_err());
            }
        }
    };
    for d in Deck::ALL {
        random_states_drawing(Rules::default(), 30, Some(d), &mut visit);
    }
    assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
}

#[test]
fn rule_victory_comes_at_once_with_the_claim() {
    let mut wins = 0;
    random_states(Rules::default(), 60, |s, l| {
        let p = s.table().player();
        for &a in l {
            if let Action::Claim(f) = a {
                let mut next = *s;
                act(&mut next, a);
                let claimed = next.table().claimed(p);
                let mut expected = s.table().claimed(p);
                expected.insert(f);
                assert_eq!(claimed, expected);
                if claimed.is_victory() {
                    wins += 1;
                    // No further claim, draw or turn: the game is over.
                    assert!(next.is_terminal());
                    assert_eq!(next.outcome(), Some(game_traits::Outcome::Win(p)));
                } else {
                    assert!(!next.is_terminal());
                }
            }
        }
    });
    assert!(wins > 0);
}

#[test]
fn rule_redeploy_deserter_and_traitor_reopen_a_completed_side() {
    let mut checked = [0; 3];
    random_states(Rules::default(), 150, |s, l| {
        let p = s.table().player();
        for &a in l {
            let (owner, card, kind) = match a {
                Action::Redeploy { card, .. } => (p, card, 0),
                Action::Deserter { card } => (p.other(), card, 1),
                Action::Traitor { card, .. } => (p.other(), card, 2),
                _ => continue,
            };
            let src = s
                .table()
                .flags()
                .iter()
                .position(|f| f.side(owner).contains(card))
                .unwrap();
            let before = s.table().flags()[src];
            if !before.is_complete(owner) {
                continue;
            }
            let mut next = *s;
            act(&mut next, a);
            let after = next.table().flags()[src];
            let other = owner.other();
            // Traitor may put the card back on the same flag, on the other side.
            let refilled = after.side(other).len() > before.side(other).len();
            if refilled {
                continue;
            }
            checked[kind] += 1;
            assert!(!after.is_complete(owner));
            let want = if before.first_complete() == Some(owner) {
                after.is_complete(other).then_some(other)
            } else {
                before.first_complete()
            };
            assert_eq!(after.first_complete(), want, "{a} at {before:?}");
        }
    });
    assert!(checked.iter().all(|&n| n > 0), "{checked:?}");
}

#[test]
fn rule_scout_returns_as_many_as_it_drew_when_the_decks_run_out() {
    let mut seen = 0;
    random_states(Rules::default(), 400, |s, l| {
        let left = s.deck_len(Deck::Troop) + s.deck_len(Deck::Tactics);
        if !l.contains(&Action::Scout) || left >= 3 {
            return;
        }
        seen += 1;
        let p = s.table().player();
        let mut next = *s;
        act(&mut next, Action::Scout);
        while next.table().phase() != Phase::Return && next.table().player() == p {
            let a = if next.turn() == Turn::Chance {
                next.sample_chance(&mut GameRng::seed_from_u64(0)).unwrap()
            } else {
                *legal(&next)
                    .iter()
                    .find(|a| matches!(a, Action::Draw(_) | Action::EndTurn))
                    .unwrap()
            };
            act(&mut next, a);
        }
        let returns = 2.min(left);
        if returns == 0 {
            assert_eq!(next.table().player(), p.other());
        }
        for _ in 0..returns {
            let a = legal(&next)[0];
            assert!(matches!(a, Action::Return(_)));
            act(&mut next, a);
        }
        assert_eq!(next.table().player(), p.other());
        assert_eq!(next.hand(p).len(), s.hand(p).len() - 1 + left - returns);
    });
    assert!(seen > 0);
}

/// Rule tests of [`EnvironmentTactics::Movable`] (the published reading of
/// Fog and Mud under Redeploy and Deserter).
mod movable_environment {
    use super::*;
    use battleline_core::EnvironmentTactics;

    /// P0 lays Fog at F5, P1 lays Mud at F6, after [`two_rounds`]; P0 then
    /// holds Redeploy.
    fn fog_and_mud_laid(rules: Rules) -> BattleLine {
        let mut s = two_rounds(
            rules,
            tac(Tactic::Fog),
            tac(Tactic::Mud),
            tac(Tactic::Redeploy),
            t(Colour::Green, 1),
        );
        turn(&mut s, play(tac(Tactic::Fog), 4), t(Colour::Green, 2));
        turn(&mut s, play(tac(Tactic::Mud), 5), t(Colour::Green, 3));
        s
    }

    #[test]
    fn rule_movable_environment_redeploy_moves_or_discards_own_fog_only() {
        let fixed = fog_and_mud_laid(Rules::default());
        assert!(!legal(&fixed)
            .iter()
            .any(|a| matches!(a, Action::Redeploy { card, .. } if !card.is_slot_card())));
        assert_eq!(fixed.table().flags()[4].fog_owner(), None);

        let s = fog_and_mud_laid(Rules::movable_environment());
        assert_eq!(s.table().flags()[4].fog_owner(), Some(P0));
        assert_eq!(s.table().flags()[5].mud_owner(), Some(P1));
        let l = legal(&s);
        let fog_moves: Vec<Option<FlagId>> = l
            .iter()
            .filter_map(|a| match a {
                Action::Redeploy { card, to } if *card == tac(Tactic::Fog) => Some(*to),
                _ => None,
            })
            .collect();
        // Beside any other unclaimed flag (whatever its slots), or discarded.
        let mut expected: Vec<Option<FlagId>> =
            (0..9).filter(|&i| i != 4).map(|i| Some(flag(i))).collect();
        expected.push(None);
        assert_eq!(fog_moves, expected);
        // The opponent's Mud is not P0's to redeploy.
        assert!(!l
            .iter()
            .any(|a| matches!(a, Action::Redeploy { card, .. } if *card == tac(Tactic::Mud))));

        let mut moved = s;
        act(
            &mut moved,
            Action::Redeploy {
                card: tac(Tactic::Fog),
                to: Some(flag(0)),
            },
        );
        let f = moved.table().flags();
        assert!(!f[4].env().fog && f[4].fog_owner().is_none());
        assert!(f[0].env().fog);
        assert_eq!(f[0].fog_owner(), Some(P0));

        let mut gone = s;
        act(
            &mut gone,
            Action::Redeploy {
                card: tac(Tactic::Fog),
                to: None,
            },
        );
        assert!(gone.table().flags().iter().all(|f| !f.env().fog));
        assert!(gone.table().discards(P0).contains(tac(Tactic::Fog)));
    }

    #[test]
    fn rule_movable_environment_deserter_discards_the_opponents_fog_or_mud() {
        let mut s = two_rounds(
            Rules::movable_environment(),
            tac(Tactic::Mud),
            tac(Tactic::Fog),
            tac(Tactic::Deserter),
            t(Colour::Green, 1),
        );
        turn(&mut s, play(tac(Tactic::Mud), 0), t(Colour::Green, 2));
        turn(&mut s, play(tac(Tactic::Fog), 1), t(Colour::Green, 3));
        let l = legal(&s);
        assert!(l.contains(&Action::Deserter {
            card: tac(Tactic::Fog)
        }));
        assert!(!l.contains(&Action::Deserter {
            card: tac(Tactic::Mud)
        }));
        act(
            &mut s,
            Action::Deserter {
                card: tac(Tactic::Fog),
            },
        );
        assert!(!s.table().flags()[1].env().fog);
        assert!(s.table().discards(P1).contains(tac(Tactic::Fog)));
        assert!(s.table().flags()[0].env().mud);
    }

    /// P0 lays Mud at F1 and builds Red 1-2-3 there, P1 Blue 1-2-3; P1
    /// then holds Deserter. With `fourth`, P0 adds Red 4 at F1 last.
    fn mud_flag(fourth: bool) -> BattleLine {
        let mut s = dealt(Rules::movable_environment());
        turn(&mut s, play(t(Colour::Red, 1), 0), tac(Tactic::Mud));
        turn(&mut s, play(t(Colour::Blue, 1), 0), tac(Tactic::Deserter));
        turn(&mut s, play(tac(Tactic::Mud), 0), t(Colour::Yellow, 1));
        turn(&mut s, play(t(Colour::Blue, 2), 0), t(Colour::Yellow, 2));
        turn(&mut s, play(t(Colour::Red, 2), 0), t(Colour::Yellow, 3));
        turn(&mut s, play(t(Colour::Blue, 3), 0), t(Colour::Yellow, 4));
        turn(&mut s, play(t(Colour::Red, 3), 0), t(Colour::Yellow, 5));
        turn(&mut s, play(t(Colour::Blue, 4), 3), t(Colour::Yellow, 6));
        let f4 = if fourth { 0 } else { 5 };
        turn(&mut s, play(t(Colour::Red, 4), f4), t(Colour::Yellow, 7));
        s
    }

    #[test]
    fn rule_movable_environment_mud_leaving_discards_the_most_recent_fourth_card() {
        let mut s = mud_flag(true);
        let f = &s.table().flags()[0];
        assert_eq!(f.side(P0).len(), 4);
        assert_eq!(f.first_complete(), Some(P0));
        act(
            &mut s,
            Action::Deserter {
                card: tac(Tactic::Mud),
            },
        );
        let f = &s.table().flags()[0];
        assert!(!f.env().mud);
        // Red 4 was placed last: it goes to P0's discards with the Mud.
        assert_eq!(
            f.side(P0).iter().collect::<Vec<_>>(),
            vec![t(Colour::Red, 1), t(Colour::Red, 2), t(Colour::Red, 3)]
        );
        assert!(s.table().discards(P0).contains(t(Colour::Red, 4)));
        assert!(s.table().discards(P0).contains(tac(Tactic::Mud)));
        // P0 was complete before and stays first; P1's three cards are
        // complete now, by the removal.
        assert!(f.is_complete(P1));
        assert_eq!(f.first_complete(), Some(P0));
    }

    #[test]
    fn rule_movable_environment_mud_leaving_completes_sides_now_the_remover_last() {
        let mut s = mud_flag(false);
        assert_eq!(s.table().flags()[0].first_complete(), None);
        // P1's Deserter completes both three-card sides at once: P1, whose
        // play did it, completes last and loses the tie of equal Wedges.
        turn(
            &mut s,
            Action::Deserter {
                card: tac(Tactic::Mud),
            },
            t(Colour::Green, 1),
        );
        let f = &s.table().flags()[0];
        assert!(f.is_complete(P0) && f.is_complete(P1));
        assert_eq!(f.first_complete(), Some(P0));
        act(&mut s, play(t(Colour::Red, 5), 8));
        assert!(legal(&s).contains(&Action::Claim(flag(0))));
    }

    #[test]
    fn rule_movable_environment_a_side_alone_completed_by_mud_leaving_is_first() {
        let mut s = two_rounds(
            Rules::movable_environment(),
            tac(Tactic::Mud),
            tac(Tactic::Deserter),
            t(Colour::Green, 1),
            t(Colour::Green, 2),
        );
        // P0: Red 2 at F2 and Mud there; P1 fills Blue 2-3-4 at F2.
        turn(&mut s, play(tac(Tactic::Mud), 1), t(Colour::Green, 3));
        turn(&mut s, play(t(Colour::Blue, 3), 1), t(Colour::Green, 4));
        turn(&mut s, play(t(Colour::Red, 3), 1), t(Colour::Green, 5));
        turn(&mut s, play(t(Colour::Blue, 4), 1), t(Colour::Green, 6));
        turn(&mut s, play(t(Colour::Red, 4), 2), t(Colour::Green, 7));
        assert_eq!(s.table().flags()[1].first_complete(), None);
        act(
            &mut s,
            Action::Deserter {
                card: tac(Tactic::Mud),
            },
        );
        let f = &s.table().flags()[1];
        assert!(!f.is_complete(P0) && f.is_complete(P1));
        assert_eq!(f.first_complete(), Some(P1));
    }

    #[test]
    fn rule_movable_environment_redeploy_moves_mud_and_both_flags_change() {
        use Colour::*;
        let mut s = dealt(Rules::movable_environment());
        turn(&mut s, play(t(Red, 1), 0), tac(Tactic::Mud));
        turn(&mut s, play(t(Blue, 1), 0), tac(Tactic::Fog));
        turn(&mut s, play(tac(Tactic::Mud), 0), tac(Tactic::Redeploy));
        turn(&mut s, play(tac(Tactic::Fog), 8), t(Yellow, 1));
        let plays = [
            (t(Red, 2), 0),
            (t(Blue, 2), 0),
            (t(Red, 3), 0),
            (t(Blue, 3), 0),
            (t(Red, 4), 0),
            (t(Blue, 4), 0),
            (t(Red, 5), 3),
            (t(Blue, 5), 2),
            (t(Red, 6), 3),
            (t(Blue, 6), 2),
            (t(Red, 7), 4),
            (t(Blue, 7), 2),
        ];
        for (i, (card, f)) in plays.into_iter().enumerate() {
            let i = i as u8;
            let draw = if i < 10 {
                t(Green, i + 1)
            } else {
                t(Purple, i - 9)
            };
            turn(&mut s, play(card, f), draw);
        }
        let f = s.table().flags();
        assert_eq!(f[0].first_complete(), Some(P0));
        assert_eq!(f[2].first_complete(), Some(P1));
        act(
            &mut s,
            Action::Redeploy {
                card: tac(Tactic::Mud),
                to: Some(flag(2)),
            },
        );
        let f = s.table().flags();
        // F1 loses Mud: each four-card side drops its last card to its
        // owner's discards; P0 completed first and still did.
        assert!(!f[0].env().mud);
        assert!(s.table().discards(P0).contains(t(Red, 4)));
        assert!(s.table().discards(P1).contains(t(Blue, 4)));
        assert_eq!(f[0].first_complete(), Some(P0));
        // F3 gains it, laid by P0: P1's three cards are incomplete again.
        assert!(f[2].env().mud);
        assert_eq!(f[2].mud_owner(), Some(P0));
        assert!(!f[2].is_complete(P1));
        assert_eq!(f[2].first_complete(), None);
    }

    #[test]
    fn movable_environment_owner_records_must_fit_the_rules() {
        let s = fog_and_mud_laid(Rules::movable_environment());
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<BattleLine>(&json).unwrap(), s);
        let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
        // The same table under the fixed rules: owners that cannot exist.
        v["rules"]
            .as_object_mut()
            .unwrap()
            .remove("environment_tactics");
        assert!(serde_json::from_str::<BattleLine>(&v.to_string()).is_err());
        // An owner missing under the movable rules.
        let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
        v["table"]["flags"][4]
            .as_object_mut()
            .unwrap()
            .remove("fog_by");
        assert!(serde_json::from_str::<BattleLine>(&v.to_string()).is_err());
        // Default states serialise without owners or the new rules field.
        let d = fog_and_mud_laid(Rules::default());
        let json = serde_json::to_string(&d).unwrap();
        assert!(
            !json.contains("fog_by")
                && !json.contains("mud_by")
                && !json.contains("environment_tactics")
        );
        assert_eq!(
            Rules::movable_environment().environment_tactics,
            EnvironmentTactics::Movable
        );
    }

    #[test]
    fn movable_environment_moves_occur_in_random_play() {
        let (mut redeploys, mut deserters, mut fourth_dropped) = (0, 0, 0);
        random_states(Rules::movable_environment(), 300, |s, l| {
            for a in l {
                match a {
                    Action::Redeploy { card, .. } if !card.is_slot_card() => redeploys += 1,
                    Action::Deserter { card } if !card.is_slot_card() => deserters += 1,
                    _ => {}
                }
            }
            if l.contains(&Action::Deserter {
                card: tac(Tactic::Mud),
            }) && s
                .table()
                .flags()
                .iter()
                .any(|f| f.env().mud && f.side(PlayerId::P0).len() + f.side(PlayerId::P1).len() > 6)
            {
                fourth_dropped += 1;
            }
        });
        assert!(redeploys > 0 && deserters > 0 && fourth_dropped > 0);
    }
}

mod troops_only {
    use super::*;
    use battleline_core::PositionBuilder;

    #[test]
    fn rule_troops_only_the_game_has_no_tactics_cards() {
        let rules = Rules::troops_only();
        assert_eq!(rules.cards(), CardSet::ALL_TROOPS);
        let s = dealt(rules);
        assert_eq!(s.deck_len(Deck::Troop), 46);
        assert_eq!(s.deck_len(Deck::Tactics), 0);
        // Every draw comes from the troop deck.
        let mut s2 = s;
        act(&mut s2, play(t(Colour::Red, 1), 0));
        assert!(!legal(&s2).contains(&Action::Draw(Deck::Tactics)));
        assert!(s2.clone().apply(Action::Draw(Deck::Tactics)).is_err());
        let line = s.to_notation();
        assert!(
            line.contains("d=46/0") && line.contains("rules=troops-only"),
            "{line}"
        );
        assert_eq!(BattleLine::from_notation(&line).unwrap(), s);
        let json = serde_json::to_value(rules).unwrap();
        assert_eq!(json["tactics"], serde_json::Value::Bool(false));
        assert_eq!(serde_json::from_value::<Rules>(json).unwrap(), rules);
        // The default rules leave the field out: records read as before.
        assert!(serde_json::to_value(Rules::default()).unwrap()["tactics"].is_null());
    }

    #[test]
    fn rule_troops_only_random_games_never_see_a_tactics_card() {
        let mut passes = 0;
        random_states(Rules::troops_only(), 100, |s, l| {
            for p in [P0, P1] {
                assert!(s.hand(p).difference(CardSet::ALL_TROOPS).is_empty());
            }
            for a in l {
                match a {
                    Action::Play { card, .. } => assert!(card.as_tactic().is_none()),
                    Action::Pass => passes += 1,
                    Action::Scout
                    | Action::Redeploy { .. }
                    | Action::Deserter { .. }
                    | Action::Traitor { .. }
                    | Action::Draw(Deck::Tactics) => panic!("{a} under troops only"),
                    _ => {}
                }
            }
        });
        // Passing (no free slot) and the end rule still happen.
        assert!(passes > 0);
    }

    #[test]
    fn troops_only_states_holding_a_tactics_card_are_refused() {
        let with_leader = PositionBuilder::new(Rules::troops_only())
            .hand(P0, [tac(Tactic::Alexander)].into_iter().collect())
            .build();
        assert!(with_leader.is_err());
        let played = PositionBuilder::new(Rules::troops_only())
            .tactics_played(P0, 1, false)
            .build();
        assert!(played.is_err());
        // And a default state cannot lose its tactics cards either.
        let line = dealt(Rules::default())
            .to_notation()
            .replace("46/10", "46/0");
        assert!(BattleLine::from_notation(&line).is_err());
    }
}
