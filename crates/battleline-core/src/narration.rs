//! An action told to one player in words ([`Game::narrate`]): who did
//! what, tactics cards by name (`Darius`, never the table's `DA`), for a
//! claim the proof on the table (`P1: claim F3: Wedge 24 (R7 R8 R9) beats
//! your Phalanx 15 (B5 G5 Y5)`), and why the game ended when it did; read
//! from his observations either side of it only. A refused claim is told
//! with the cards still to come that would beat it
//! ([`Game::explain_refusal`]).
//!
//! [`Game::narrate`]: game_traits::Game::narrate
//! [`Game::explain_refusal`]: game_traits::Game::explain_refusal

use game_traits::PlayerId;

use crate::action::Action;
use crate::card::{Card, Deck};
use crate::flag::{Flag, FlagId};
use crate::flag_set::FlagSet;
use crate::formation::{FormationClass, FormationOrder, Strength};
use crate::observation::Observation;
use crate::proof::{check_claim, ClaimCheck};
use crate::view::ActionView;

/// `player` as `viewer` calls him, as the subject of a sentence.
fn who(player: PlayerId, viewer: PlayerId) -> String {
    if player == viewer {
        "you".to_owned()
    } else {
        player.to_string()
    }
}

fn deck_card(deck: Deck) -> &'static str {
    match deck {
        Deck::Troop => "a troop card",
        Deck::Tactics => "a tactics card",
    }
}

/// A formation's strength in words: `Skirmish Line 15`, `sum 24` under
/// Fog.
fn strength_text(s: Strength) -> String {
    let class = match s.class() {
        Some(FormationClass::Host) => "Host",
        Some(FormationClass::Battalion) => "Battalion",
        Some(FormationClass::SkirmishLine) => "Skirmish Line",
        Some(FormationClass::Phalanx) => "Phalanx",
        Some(FormationClass::Wedge) => "Wedge",
        None => "sum",
    };
    format!("{class} {}", s.sum())
}

/// A side of `flag` in words: its formation when complete, its cards.
fn side_text(o: &Observation, flag: FlagId, player: PlayerId) -> String {
    let f = o.table.flag(flag);
    formation_text(f, player, o.rules.formation_order)
}

/// `player`'s cards at `f` by name, with their formation when complete;
/// `no card` for an empty side.
fn formation_text(f: &Flag, player: PlayerId, order: FormationOrder) -> String {
    let cards = names(f.side(player).iter());
    let cards = if cards.is_empty() {
        "no card".to_owned()
    } else {
        cards
    };
    match f.strength(player, order) {
        Some(s) => format!("{} ({cards})", strength_text(s)),
        None => cards,
    }
}

/// Cards by name ([`Card::name`]), separated by spaces.
fn names(cards: impl Iterator<Item = Card>) -> String {
    cards.map(Card::name).collect::<Vec<_>>().join(" ")
}

/// Why `claimant` won `flag`, in words, from the table after the claim.
fn proof(o: &Observation, flag: FlagId, claimant: PlayerId) -> String {
    let viewer = o.viewer;
    let f = o.table.flag(flag);
    let other = claimant.other();
    let theirs = if other == viewer { "your " } else { "" };
    let mine = side_text(o, flag, claimant);
    let against = side_text(o, flag, other);
    if f.claimed() != Some(claimant) {
        return format!("not won: {mine} against {theirs}{against}");
    }
    let order = o.rules.formation_order;
    match (f.strength(claimant, order), f.strength(other, order)) {
        (Some(a), Some(b)) if a == b => {
            format!("{mine} ties {theirs}{against} and was complete first")
        }
        (_, Some(_)) => format!("{mine} beats {theirs}{against}"),
        _ if f.side(other).iter().next().is_none() => {
            format!("{mine}; no cards still to come can beat it")
        }
        _ => format!("{mine}; no cards still to come can make {theirs}{against} beat it"),
    }
}

/// Why the game ended with the action that took the table from `before`
/// to `after`, when it did: the winner's flags, or the settlement after
/// two passes.
fn ending(before: &Observation, after: &Observation) -> Option<String> {
    if before.table.outcome().is_some() {
        return None;
    }
    let outcome = after.table.outcome()?;
    let viewer = after.viewer;
    let held = |p: PlayerId| after.table.claimed(p);
    let why = |p: PlayerId| {
        let flags = held(p);
        match breakthrough(flags) {
            Some(three) => format!("three adjacent flags ({three})"),
            None if flags.len() >= 5 => format!("five flags ({flags})"),
            None => format!("{} flags to {}", flags.len(), held(p.other()).len()),
        }
    };
    let winner = |p: PlayerId| {
        if p == viewer {
            "you win".to_owned()
        } else {
            format!("{p} wins")
        }
    };
    let result = match outcome {
        game_traits::Outcome::Win(p) => format!("{} with {}", winner(p), why(p)),
        game_traits::Outcome::Draw => format!("a draw, {} flags each", held(PlayerId::P0).len()),
    };
    Some(if after.table.settled() {
        format!(
            "both passed, so each unclaimed flag went to the stronger complete formation: {result}"
        )
    } else {
        result
    })
}

/// The first three adjacent flags of `flags`, if any.
fn breakthrough(flags: FlagSet) -> Option<FlagSet> {
    let all: Vec<FlagId> = flags.iter().collect();
    all.windows(3)
        .find(|w| w[2].index() == w[0].index() + 2)
        .map(|w| w.iter().copied().collect())
}

/// An action in words, tactics cards by name.
fn action_text(action: Action) -> String {
    match action {
        Action::Play { card, flag } => format!("play {} at {flag}", card.name()),
        Action::Redeploy { card, to: Some(to) } => format!("Redeploy {} to {to}", card.name()),
        Action::Redeploy { card, to: None } => {
            format!("Redeploy {} to the discards", card.name())
        }
        Action::Deserter { card } => format!("Deserter discards {}", card.name()),
        Action::Traitor { card, to } => format!("Traitor takes {} to {to}", card.name()),
        Action::Return(c) => format!("return {}", c.name()),
        Action::Deal(c) => format!("deal {}", c.name()),
        Action::Scout | Action::Pass | Action::Claim(_) | Action::Draw(_) | Action::EndTurn => {
            action.to_string()
        }
    }
}

/// Why `viewer`'s claim of `flag` is refused, from his observation `o`:
/// the completion of the opponent's side that the cards still to come
/// allow and that beats his formation (or the complete side that already
/// does). `None` when the claim holds or the flag is claimed or his side
/// is incomplete (the engine's reason says so).
pub(crate) fn refused_claim(o: &Observation, flag: FlagId) -> Option<String> {
    let f = o.table.flag(flag);
    let me = o.viewer;
    let other = me.other();
    let order = o.rules.formation_order;
    let ClaimCheck::Refuted(completion) = check_claim(f, me, o.table.available_troops(), &o.rules)
    else {
        return None;
    };
    let mine = formation_text(f, me, order);
    let extra = completion.cards();
    if extra.is_empty() {
        return Some(format!(
            "{other}'s {} beats or ties your {mine}",
            formation_text(f, other, order)
        ));
    }
    let mut completed = *f;
    for card in extra.iter() {
        completed.place(other, card).ok()?;
    }
    Some(format!(
        "{other} could still complete {} with {} still to come, which beats your {mine}",
        formation_text(&completed, other, order),
        names(extra.iter())
    ))
}

/// See the module documentation.
pub(crate) fn narrate(
    viewer: PlayerId,
    before: &Observation,
    view: &ActionView,
    after: &Observation,
) -> String {
    let told = told(viewer, view, after);
    match ending(before, after) {
        Some(end) => format!("{told}. Game over: {end}"),
        None => told,
    }
}

/// The action itself in words.
fn told(viewer: PlayerId, view: &ActionView, after: &Observation) -> String {
    match *view {
        ActionView::Public {
            player,
            action: Action::Claim(flag),
        } => format!(
            "{}: claim {flag}: {}",
            who(player, viewer),
            proof(after, flag, player)
        ),
        // The opponent's card a guile tactic takes is the viewer's own.
        ActionView::Public {
            player,
            action: Action::Deserter { card },
        } if player != viewer => format!("{player}: Deserter discards your {}", card.name()),
        ActionView::Public {
            player,
            action: Action::Traitor { card, to },
        } if player != viewer => {
            format!("{player}: Traitor takes your {} to {to}", card.name())
        }
        ActionView::Public { player, action } => {
            format!("{}: {}", who(player, viewer), action_text(action))
        }
        ActionView::Dealt { to, card: Some(c) } if to == viewer => {
            format!("you are dealt {}", c.name())
        }
        ActionView::Dealt { to, .. } => format!("{to} is dealt a troop card"),
        ActionView::Drew {
            player,
            card: Some(c),
            ..
        } => format!("{} drew {}", who(player, viewer), c.name()),
        ActionView::Drew { player, deck, .. } => format!("{player} drew {}", deck_card(deck)),
        ActionView::Returned {
            player,
            deck,
            card: Some(c),
        } => format!(
            "{} returned {} on top of the {deck}",
            who(player, viewer),
            c.name()
        ),
        ActionView::Returned { player, deck, .. } => {
            format!("{player} returned a card on top of the {deck}")
        }
    }
}

#[cfg(test)]
mod tests {
    use game_traits::Game;

    use super::*;
    use crate::card::{Colour, Tactic};
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
        narrate(viewer, &before, &view, &after.observation(viewer))
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
        let why = BattleLine::explain_refusal(&game.observation(PlayerId::P0), claim).unwrap();
        assert!(
            why.starts_with("P1 could still complete Wedge ")
                && why.ends_with("which beats your Wedge 6 (R1 R2 R3)"),
            "{why}"
        );
        assert!(why.contains("(B8 B9 B"), "{why}");
        // A claim that holds has nothing to explain.
        let holds = claim_position(&[], &[]);
        assert_eq!(
            BattleLine::explain_refusal(&holds.observation(PlayerId::P0), claim),
            None
        );
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
        let why =
            BattleLine::explain_refusal(&game.observation(PlayerId::P0), Action::Claim(flag(1)));
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
            end.as_deref(),
            Some(
                "both passed, so each unclaimed flag went to the stronger complete \
                 formation: P0 wins with 2 flags to 1"
            )
        );
    }
}
