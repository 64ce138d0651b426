//! What an action showed one player, as events ([`Wire::events`]): who
//! did what, for a claim the proof on the table (both sides, their
//! formations, why it held), and why the game ended when it did; read
//! from his observations either side of it only. Worded by
//! [`BattleLineEvent`]'s [`Event::tell`](game_traits::Event::tell)
//! (`P1: claim F3: Wedge 24 (R7 R8 R9) beats your Phalanx 15 (B5 G5
//! Y5)`). A refused claim is told with the cards still to come that would
//! beat it ([`Wire::refusal`]).
//!
//! [`Wire::events`]: game_traits::Wire::events
//! [`Wire::refusal`]: game_traits::Wire::refusal

use game_traits::{PlayerId, Wire};

use super::{
    flag_number, BattleLineEvent, CardCode, ClaimProof, EndingName, SideStruct, ViewStruct,
};
use crate::action::Action;
use crate::card::CardSet;
use crate::flag::{Flag, FlagId};
use crate::flag_set::FlagSet;
use crate::formation::FormationOrder;
use crate::observation::Observation;
use crate::proof::{check_claim, ClaimCheck};
use crate::state::BattleLine;
use crate::view::ActionView;

/// `player`'s side of `f` as an event shows it.
fn side(f: &Flag, player: PlayerId, order: FormationOrder) -> SideStruct {
    SideStruct {
        cards: f.side(player).iter().map(CardCode).collect(),
        strength: f.strength(player, order).map(Into::into),
    }
}

/// Why `claimant` won `flag`, from the table after the claim.
fn claim(o: &Observation, flag: FlagId, claimant: PlayerId) -> BattleLineEvent {
    let f = o.table.flag(flag);
    let other = claimant.other();
    let order = o.rules.formation_order;
    let proof = if f.claimed() != Some(claimant) {
        ClaimProof::NotWon
    } else {
        match (f.strength(claimant, order), f.strength(other, order)) {
            (Some(a), Some(b)) if a == b => ClaimProof::TiesAndFirst,
            (_, Some(_)) => ClaimProof::Beats,
            _ if f.side(other).iter().next().is_none() => ClaimProof::NothingCanBeat,
            _ => ClaimProof::NothingCanMakeItBeat,
        }
    };
    BattleLineEvent::Claim {
        player: claimant,
        flag: flag_number(flag),
        claimant: side(f, claimant, order),
        opponent: side(f, other, order),
        proof,
    }
}

/// The flags of a set by number.
fn numbers(flags: FlagSet) -> Vec<u8> {
    flags.iter().map(flag_number).collect()
}

/// Why the game ended with the action that took the table from `before`
/// to `after`, when it did: the winner's flags, or the settlement after
/// two passes.
fn ending(before: &Observation, after: &Observation) -> Option<BattleLineEvent> {
    if before.table.outcome().is_some() {
        return None;
    }
    let outcome = after.table.outcome()?;
    let held = |p: PlayerId| after.table.claimed(p);
    let (winner, ending, adjacent) = match outcome {
        game_traits::Outcome::Win(p) => match breakthrough(held(p)) {
            Some(three) => (Some(p), EndingName::ThreeAdjacent, numbers(three)),
            None if held(p).len() >= 5 => (Some(p), EndingName::FiveFlags, Vec::new()),
            None => (Some(p), EndingName::MoreFlags, Vec::new()),
        },
        game_traits::Outcome::Draw => (None, EndingName::Draw, Vec::new()),
    };
    Some(BattleLineEvent::GameOver {
        winner,
        ending,
        flags: PlayerId::BOTH.map(|p| numbers(held(p))),
        adjacent,
        settled: after.table.settled(),
    })
}

/// The first three adjacent flags of `flags`, if any.
fn breakthrough(flags: FlagSet) -> Option<FlagSet> {
    let all: Vec<FlagId> = flags.iter().collect();
    all.windows(3)
        .find(|w| w[2].index() == w[0].index() + 2)
        .map(|w| w.iter().copied().collect())
}

/// Why `viewer`'s claim of `flag` is refused, from his observation `o`:
/// the completion of the opponent's side that the cards still to come
/// allow and that beats his formation (or the complete side that already
/// does). `None` when the claim holds or the flag is claimed or his side
/// is incomplete (the engine's reason says so).
pub(super) fn refused_claim(o: &Observation, flag: FlagId) -> Option<BattleLineEvent> {
    let f = o.table.flag(flag);
    let me = o.viewer;
    let other = me.other();
    let order = o.rules.formation_order;
    let ClaimCheck::Refuted(completion) = check_claim(f, me, o.table.available_troops(), &o.rules)
    else {
        return None;
    };
    let to_come: CardSet = completion.cards();
    let mut completed = *f;
    for card in to_come.iter() {
        completed.place(other, card).ok()?;
    }
    Some(BattleLineEvent::ClaimRefused {
        player: me,
        flag: flag_number(flag),
        claimant: side(f, me, order),
        counterexample: side(&completed, other, order),
        to_come: to_come.iter().map(CardCode).collect(),
    })
}

/// See the module documentation.
pub(crate) fn events(
    before: &Observation,
    view: &ActionView,
    after: &Observation,
) -> Vec<BattleLineEvent> {
    let action = match (*view, BattleLine::view_struct(view)) {
        (
            ActionView::Public {
                player,
                action: Action::Claim(flag),
            },
            _,
        ) => claim(after, flag, player),
        (_, ViewStruct::Public { player, action }) => BattleLineEvent::Acted { player, action },
        (_, ViewStruct::Dealt(dealt)) => BattleLineEvent::Dealt(dealt),
        (_, ViewStruct::Drew(drew)) => BattleLineEvent::Drew(drew),
        (_, ViewStruct::Returned(returned)) => BattleLineEvent::Returned(returned),
    };
    let mut events = vec![action];
    events.extend(ending(before, after));
    events
}

#[cfg(test)]
mod tests {
    use game_traits::{Event, Game};

    use super::*;
    use crate::card::{Card, Colour, Tactic};
    use crate::position::PositionBuilder;
    use crate::rules::Rules;
    use crate::state::{BattleLine, Phase};

    fn card(colour: Colour, v: u8) -> Card {
        Card::troop(colour, v).unwrap()
    }

    fn flag(n: usize) -> FlagId {
        FlagId::new(n - 1).unwrap()
    }

    /// `action` in `state` told to `viewer`.
    fn told_to(state: &BattleLine, viewer: PlayerId, action: Action) -> String {
        let before = state.observation(viewer);
        let view = state.action_view(viewer, action);
        let mut after = *state;
        after.apply(action).unwrap();
        BattleLine::narrate(viewer, &before, &view, &after.observation(viewer))
    }

    /// Why `action` is refused, told to the viewer of `o`.
    fn refusal_text(o: &Observation, action: Action) -> Option<String> {
        let events = BattleLine::refusal(o, action);
        (!events.is_empty()).then(|| game_traits::tell_all(&events, Some(o.viewer)))
    }

    /// A public decision of P0 told to P0.
    fn action_text(action: Action) -> String {
        let told = BattleLineEvent::Acted {
            player: PlayerId::P0,
            action: BattleLine::action_struct(action),
        }
        .tell(Some(PlayerId::P0));
        told.strip_prefix("you: ").unwrap_or(&told).to_owned()
    }

    /// P0 holds Red 8-9-10 at F1 and may claim; `p1_at_f1` are P1's cards
    /// there, `claimed` the flags P0 already holds.
    fn claim_position(p1_at_f1: &[Card], claimed: &[usize]) -> BattleLine {
        position(p1_at_f1, claimed).build().unwrap()
    }

    /// [`claim_position`] before it is built.
    fn position(p1_at_f1: &[Card], claimed: &[usize]) -> PositionBuilder {
        let mut b = PositionBuilder::new(Rules::default())
            .place(flag(1), PlayerId::P0, card(Colour::Red, 8))
            .place(flag(1), PlayerId::P0, card(Colour::Red, 9))
            .place(flag(1), PlayerId::P0, card(Colour::Red, 10));
        for &c in p1_at_f1 {
            b = b.place(flag(1), PlayerId::P1, c);
        }
        for (i, &f) in claimed.iter().enumerate() {
            b = complete(b, flag(f), PlayerId::P0, Colour::ALL[i + 1]).claim(flag(f), PlayerId::P0);
        }
        b.hand(PlayerId::P0, [card(Colour::Red, 4)].into_iter().collect())
            .hand(PlayerId::P1, [card(Colour::Blue, 6)].into_iter().collect())
            .turn(PlayerId::P0, Phase::Claim)
            .draws_due(1)
    }

    /// `b` with `player`'s `colour` 1-2-3 at `f`.
    fn complete(
        b: PositionBuilder,
        f: FlagId,
        player: PlayerId,
        colour: Colour,
    ) -> PositionBuilder {
        (1..=3).fold(b, |b, v| b.place(f, player, card(colour, v)))
    }

    #[test]
    fn a_claim_against_an_empty_side_says_nothing_can_beat_it() {
        let game = claim_position(&[], &[]);
        assert_eq!(
            told_to(&game, PlayerId::P1, Action::Claim(flag(1))),
            "P0: claim F1: Wedge 27 (R8 R9 R10); no cards still to come can beat it"
        );
    }

    #[test]
    fn tactics_cards_are_told_by_name() {
        let darius = Card::tactic(Tactic::Darius);
        let r7 = card(Colour::Red, 7);
        let game = PositionBuilder::new(Rules::default())
            .place(flag(2), PlayerId::P1, r7)
            .hand(PlayerId::P0, [darius].into_iter().collect())
            .turn(PlayerId::P0, Phase::Play)
            .build()
            .unwrap();
        let play = Action::Play {
            card: darius,
            flag: flag(1),
        };
        assert_eq!(told_to(&game, PlayerId::P0, play), "you: play Darius at F1");
        assert_eq!(told_to(&game, PlayerId::P1, play), "P0: play Darius at F1");
        assert_eq!(
            action_text(Action::Traitor {
                card: r7,
                to: flag(3)
            }),
            "Traitor takes R7 to F3"
        );
        assert_eq!(
            action_text(Action::Deserter {
                card: Card::tactic(Tactic::CompanionCavalry)
            }),
            "Deserter discards Companion Cavalry"
        );
        assert_eq!(
            action_text(Action::Return(Card::tactic(Tactic::Fog))),
            "return Fog"
        );
    }

    #[test]
    fn a_refused_claim_names_the_completion_that_beats_it() {
        // Red 1-2-3 against Blue 8 and 9: Blue 7 or 10 is still to come.
        let b = |v| card(Colour::Blue, v);
        let game = PositionBuilder::new(Rules::default())
            .place(flag(1), PlayerId::P0, card(Colour::Red, 1))
            .place(flag(1), PlayerId::P0, card(Colour::Red, 2))
            .place(flag(1), PlayerId::P0, card(Colour::Red, 3))
            .place(flag(1), PlayerId::P1, b(8))
            .place(flag(1), PlayerId::P1, b(9))
            .hand(PlayerId::P0, [card(Colour::Red, 4)].into_iter().collect())
            .hand(PlayerId::P1, [b(6)].into_iter().collect())
            .turn(PlayerId::P0, Phase::Claim)
            .draws_due(1)
            .build()
            .unwrap();
        let claim = Action::Claim(flag(1));
        assert!(game.check_action(claim).is_err());
        let why = refusal_text(&game.observation(PlayerId::P0), claim).unwrap();
        assert!(
            why.starts_with("P1 could still complete Wedge ")
                && why.ends_with("which beats your Wedge 6 (R1 R2 R3)"),
            "{why}"
        );
        assert!(why.contains("(B8 B9 B"), "{why}");
        // A claim that holds has nothing to explain.
        let holds = claim_position(&[], &[]);
        assert_eq!(refusal_text(&holds.observation(PlayerId::P0), claim), None);
    }

    #[test]
    fn a_refused_claim_against_a_complete_side_says_it_beats_or_ties() {
        let b = |v| card(Colour::Blue, v);
        let game = PositionBuilder::new(Rules::default())
            .place(flag(1), PlayerId::P0, card(Colour::Red, 1))
            .place(flag(1), PlayerId::P0, card(Colour::Green, 2))
            .place(flag(1), PlayerId::P0, card(Colour::Red, 3))
            .place(flag(1), PlayerId::P1, b(8))
            .place(flag(1), PlayerId::P1, b(9))
            .place(flag(1), PlayerId::P1, b(10))
            .first_complete(flag(1), Some(PlayerId::P1))
            .hand(PlayerId::P0, [card(Colour::Red, 4)].into_iter().collect())
            .hand(PlayerId::P1, [b(6)].into_iter().collect())
            .turn(PlayerId::P0, Phase::Claim)
            .draws_due(1)
            .build()
            .unwrap();
        let why = refusal_text(&game.observation(PlayerId::P0), Action::Claim(flag(1)));
        assert_eq!(
            why.as_deref(),
            Some("P1's Wedge 27 (B8 B9 B10) beats or ties your Skirmish Line 6 (R1 G2 R3)")
        );
    }

    #[test]
    fn the_claim_that_ends_the_game_says_why() {
        let three = claim_position(&[], &[2, 3]);
        assert_eq!(
            told_to(&three, PlayerId::P0, Action::Claim(flag(1))),
            "you: claim F1: Wedge 27 (R8 R9 R10); no cards still to come can beat it. \
             Game over: you win with three adjacent flags (F1 F2 F3)"
        );
        let five = claim_position(&[], &[3, 5, 7, 9]);
        assert_eq!(
            told_to(&five, PlayerId::P1, Action::Claim(flag(1))),
            "P0: claim F1: Wedge 27 (R8 R9 R10); no cards still to come can beat it. \
             Game over: P0 wins with five flags (F1 F3 F5 F7 F9)"
        );
        let not_yet = claim_position(&[], &[3]);
        assert!(!told_to(&not_yet, PlayerId::P0, Action::Claim(flag(1))).contains("Game over"));
    }

    #[test]
    fn a_settled_game_says_the_flags_went_to_the_stronger_formations() {
        let before = claim_position(&[], &[4]);
        let settled = complete(position(&[], &[4]), flag(6), PlayerId::P1, Colour::Red)
            .claim(flag(6), PlayerId::P1)
            .claim(flag(1), PlayerId::P0)
            .outcome(Some(game_traits::Outcome::Win(PlayerId::P0)))
            .settled(true)
            .turn(PlayerId::P0, Phase::Over)
            .draws_due(0)
            .passes(2)
            .build()
            .unwrap();
        let end = ending(
            &before.observation(PlayerId::P1),
            &settled.observation(PlayerId::P1),
        );
        assert_eq!(
            end.map(|e| e.tell(Some(PlayerId::P1))).as_deref(),
            Some(
                "Game over: \
                 both passed, so each unclaimed flag went to the stronger complete \
                 formation: P0 wins with 2 flags to 1"
            )
        );
    }
}
