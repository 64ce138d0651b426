//! Invariants of states and observations, checked whenever one is
//! deserialised or built by determinisation, so that a tampered input gives
//! an error instead of a panic or an inconsistent game.

use game_traits::{Outcome, PerPlayer, PlayerId};
use serde::Deserialize;

use crate::card::{CardSet, Guard};
use crate::error::CardWarError;
use crate::line::SlotView;
use crate::prayer::Prayer;
use crate::rules::Rules;
use crate::state::{CardWar, LayKind, Open, Phase, Public, SideHidden, SidePublic};
use game_traits::RuleSet;

/// A check's verdict: the broken invariant, which the caller files as an
/// invalid state, observation or position.
pub(crate) type Check = Result<(), &'static str>;

fn ensure(ok: bool, why: &'static str) -> Check {
    if ok {
        Ok(())
    } else {
        Err(why)
    }
}

/// The cards of the face-down slots of a line.
pub(crate) fn face_down_cards(side: &SidePublic, hidden: &SideHidden) -> CardSet {
    side.line
        .slots()
        .iter()
        .zip(hidden.line.iter())
        .filter(|(v, _)| v.card.is_none())
        .map(|(_, &c)| c)
        .collect()
}

/// Cards revealed on the field of a side.
pub(crate) fn revealed_cards(side: &SidePublic) -> Result<CardSet, &'static str> {
    let mut set = CardSet::EMPTY;
    for card in side.line.slots().iter().filter_map(|v| v.card) {
        ensure(!set.contains(card), "a card is twice in a line")?;
        set.insert(card);
    }
    Ok(set)
}

fn check_side(side: &SidePublic) -> Check {
    ensure(side.line.is_well_formed(), "malformed line")?;
    let donors = side.donors;
    ensure(donors.is_valid(), "bad card set")?;
    ensure(
        side.hand as usize
            + side.aside as usize
            + side.pile as usize
            + side.line.len()
            + donors.len()
            == 24,
        "a colour must hold 24 soldiers",
    )?;
    // Donors lie under the front card of the line.
    ensure(
        donors.is_empty() || !side.line.is_empty(),
        "donors without a card to lie under",
    )?;
    ensure(
        side.draw_roll == 0 || (2..=12).contains(&side.draw_roll),
        "a draw roll is 2d6",
    )?;
    ensure(side.paratroopers <= 6, "bad paratroopers die")?;
    let (alive, pile, aside, maybe) = (
        side.known_alive,
        side.known_pile,
        side.known_aside,
        side.pile_or_drawn,
    );
    ensure(
        alive.is_valid() && pile.is_valid() && aside.is_valid() && maybe.is_valid(),
        "bad card set",
    )?;
    ensure(
        alive.intersection(pile).is_empty()
            && aside.intersection(alive.union(pile)).is_empty()
            && maybe
                .intersection(alive.union(pile).union(aside))
                .is_empty(),
        "knowledge overlaps",
    )?;
    ensure(
        side.unseen_in_pile as usize + pile.len()
            <= side.pile as usize + side.line.brought_from_pile(),
        "more unseen cards in a pile than it holds",
    )?;
    ensure(
        pile.len() <= side.pile as usize && aside.len() <= side.aside as usize,
        "too many cards known in a pile",
    )?;
    let revealed = revealed_cards(side)?;
    ensure(
        revealed
            .union(donors)
            .intersection(alive.union(pile).union(aside).union(maybe))
            .is_empty()
            && revealed.intersection(donors).is_empty(),
        "a revealed card is also known elsewhere",
    )?;
    let face_down = side.line.len() - revealed.len();
    ensure(
        alive.len() + aside.len() <= side.hand as usize + side.aside as usize + face_down,
        "too many cards known alive",
    )
}

/// Which kind of phase a state is in: what the rest of the position must
/// look like follows from it (each case is what the phases before it leave,
/// so that every state play reaches from an accepted one is accepted too).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Round 0: putting cards aside, the initiative dice.
    Setup,
    /// The draws that open a round from round 2 on.
    Draws,
    /// A line being laid.
    Lay,
    /// The open cards fighting: prayers and the dice of a fight.
    Fight,
    /// The game is over.
    Over,
}

fn stage(phase: Phase) -> Stage {
    match phase {
        Phase::Aside { .. } | Phase::Initiative { .. } => Stage::Setup,
        Phase::DrawRoll { .. } | Phase::Draw { .. } => Stage::Draws,
        Phase::Lay { .. } => Stage::Lay,
        Phase::Pray { .. }
        | Phase::PrayerRoll { .. }
        | Phase::Reinforce { .. }
        | Phase::ParatrooperRoll { .. }
        | Phase::AttackDie
        | Phase::DefenceDie => Stage::Fight,
        Phase::Over => Stage::Over,
    }
}

/// Round 0 is the position `Game::new` deals with the cards put aside so
/// far and the initiative die rolled so far: nothing else has happened, so
/// nothing else may differ (a card known alive there would be put aside
/// into the pile, where nobody could know it alive).
fn check_setup(rules: &Rules, p: &Public) -> Check {
    let mut fresh = CardWar::start(*rules).public;
    fresh.phase = p.phase;
    fresh.initiative = p.initiative;
    for pl in PlayerId::BOTH {
        let (side, fresh) = (&p.sides[pl], &mut fresh.sides[pl]);
        fresh.hand = side.hand;
        fresh.pile = side.pile;
        // Every card of a pile at setup went there unseen.
        fresh.unseen_in_pile = side.pile;
    }
    ensure(*p == fresh, "setup holds what only play makes")?;
    match p.phase {
        Phase::Aside { colour, left } => {
            // P0 puts aside first, then P1 all of his: the piles say how far
            // setup is, so the cards still to put aside are all there.
            let (p0_pile, p1_pile) = if colour == PlayerId::P0 {
                (rules.aside.checked_sub(left), Some(0))
            } else {
                (Some(rules.aside), rules.aside.checked_sub(left))
            };
            ensure(
                left >= 1
                    && left <= p.sides[colour].hand
                    && p0_pile == Some(p.sides[PlayerId::P0].pile)
                    && p1_pile == Some(p.sides[PlayerId::P1].pile)
                    && p.initiative == PerPlayer::default(),
                "bad aside phase",
            )
        }
        Phase::Initiative { first_die } => ensure(
            first_die <= 6
                && p.initiative[PlayerId::P0] == first_die
                && p.initiative[PlayerId::P1] == 0
                && p.sides.values().all(|s| s.pile == rules.aside),
            "bad initiative",
        ),
        _ => Ok(()),
    }
}

/// A fight: both cards open in a round of battles, and `ok`, the phase's
/// own conditions.
fn in_fight(p: &Public, ok: bool) -> Check {
    ensure(
        ok && p.round >= 1 && p.battle.open.values().all(|o| *o != Open::None),
        "a fight needs two open cards",
    )
}

/// The phase against the rest of the position and the rules: each phase
/// holds exactly what the phases before it can leave.
fn check_phase(rules: &Rules, p: &Public) -> Check {
    let side = |pl: PlayerId| &p.sides[pl];
    let b = &p.battle;
    let stage = stage(p.phase);
    ensure(
        (stage == Stage::Setup) == (p.round == 0),
        "round 0 is setup and only setup",
    )?;
    ensure(p.round <= rules.max_rounds, "round past the limit")?;
    ensure(
        (p.phase == Phase::Over) == p.outcome.is_some(),
        "result before the end",
    )?;
    if stage == Stage::Setup {
        return check_setup(rules, p);
    }
    // The attacker's die is rolled only just before the defender's.
    ensure(
        (p.phase == Phase::DefenceDie) == (b.attack_die != 0),
        "an attack die outside a fight's dice",
    )?;
    ensure(
        !p.swapped || p.battle_no == 1,
        "swapped roles make a round of one battle",
    )?;
    ensure(
        !rules.donor_returns || p.sides.values().all(|s| s.donors.is_empty()),
        "donors under a card though every donor returns",
    )?;
    ensure(
        p.round >= 2 || p.sides.values().all(|s| s.draw_roll == 0),
        "a draw roll before round 2",
    )?;
    // Each side prays once: the last prayer is its only one, and only a
    // paratroopers prayer rolls its die.
    if let Some((q, prayer)) = b.last_prayer {
        let rolled = side(q).paratroopers != 0;
        let due = p.phase == Phase::ParatrooperRoll { player: q };
        ensure(
            side(q).prayed && rolled == (prayer == Prayer::Paratroopers && !due),
            "the last prayer contradicts the prayers made",
        )?;
    }
    ensure(
        p.sides.values().all(|s| s.prayed || s.paratroopers == 0),
        "paratroopers without a prayer",
    )?;
    if matches!(stage, Stage::Draws | Stage::Lay) {
        // Between fights: each battle starts afresh, and donors only lie
        // under a card that fights.
        ensure(
            b.open.values().all(|o| *o == Open::None)
                && b.fighter == PerPlayer::default()
                && b.pending == PerPlayer::default()
                && b.asked == PerPlayer::default()
                && p.sides.values().all(|s| s.donors.is_empty()),
            "a battle's fight state outside its fights",
        )?;
    }
    match p.phase {
        Phase::Aside { .. } | Phase::Initiative { .. } => Ok(()),
        Phase::DrawRoll { player } | Phase::Draw { player, .. } => {
            // A round begins with the lines cleared, the cards set aside
            // back in hand and both piles shuffled (nothing is known to lie
            // in one, so no draw can take a card known there).
            ensure(
                p.round >= 2
                    && p.battle_no == 1
                    && !p.swapped
                    && p.last_attacker.is_none()
                    && p.sides.values().all(|s| {
                        s.line.is_empty()
                            && s.aside == 0
                            && s.known_aside.is_empty()
                            && s.known_pile.is_empty()
                    }),
                "bad draw phase",
            )?;
            if let Phase::Draw { left, .. } = p.phase {
                // The roll and the cards the pile must keep bound the draw.
                let s = side(player);
                ensure(
                    left >= 1
                        && left <= s.pile.saturating_sub(rules.keep_in_pile)
                        && left <= s.draw_roll,
                    "bad draw phase",
                )?;
            }
            Ok(())
        }
        Phase::Lay { player, kind, left } => {
            let attacker = player == b.attacker;
            // Lines are laid face down, the defender's after the attacker's.
            let face_down = PlayerId::BOTH.into_iter().all(|pl| {
                side(pl)
                    .line
                    .slots()
                    .iter()
                    .all(|v| *v == SlotView::default())
            });
            let lines = if attacker {
                side(player.other()).line.is_empty()
            } else {
                !side(b.attacker).line.is_empty()
            };
            // The kind of an attack line follows from the battle and the
            // rules: the first battle's is half the hand; the second's may
            // keep a reserve unless it is round 1's (ruling 12), and an
            // all-or-nothing reserve (ruling 29) becomes a fixed line at
            // its first card.
            let free = p.battle_no == 2 && (p.round >= 2 || rules.reserve_in_first_round);
            let fixed_by_reserve = rules.reserve_all_or_nothing && !side(player).line.is_empty();
            let kind_ok = match kind {
                LayKind::Defence => true,
                LayKind::FreeAttack => free && !fixed_by_reserve,
                LayKind::Attack => !free || fixed_by_reserve,
            };
            ensure(
                left >= 1
                    && left <= side(player).hand
                    && (kind == LayKind::Defence) != attacker
                    && face_down
                    && lines
                    && kind_ok,
                "bad lay phase",
            )
        }
        Phase::Pray { player } => {
            in_fight(p, p.round >= 2 && !side(player).prayed && !b.asked[player])
        }
        Phase::PrayerRoll { player } => in_fight(
            p,
            p.round >= 2
                && side(player).prayed
                && b.asked[player]
                && (!rules.one_prayer_per_fight || b.asked.values().all(|a| *a))
                && b.last_prayer.is_none_or(|(q, _)| q != player),
        ),
        Phase::ParatrooperRoll { player } => in_fight(
            p,
            p.round >= 2
                && b.last_prayer == Some((player, Prayer::Paratroopers))
                && side(player).known_pile.is_empty(),
        ),
        Phase::Reinforce { player, left } => {
            // The pile was shuffled before the pick: nothing is known to
            // lie in it, so no pick can take a card known there.
            let most = match b.last_prayer {
                Some((q, Prayer::Reinforcement)) if q == player => 1,
                Some((q, Prayer::Paratroopers)) if q == player => side(player).paratroopers,
                _ => 0,
            };
            in_fight(
                p,
                p.round >= 2
                    && left >= 1
                    && left <= most
                    && left <= side(player).pile
                    && side(player).known_pile.is_empty(),
            )
        }
        Phase::AttackDie => in_fight(p, true),
        Phase::DefenceDie => in_fight(p, (1..=6).contains(&b.attack_die)),
        Phase::Over => {
            // A game ends when a joker dies, or as a draw after the last
            // round.
            let joker_dead = |pl: PlayerId| side(pl).guards[Guard::Joker.index()] == 0;
            let ok = match p.outcome {
                Some(Outcome::Win(w)) => joker_dead(w.other()) && !joker_dead(w),
                Some(Outcome::Draw) => {
                    p.round == rules.max_rounds
                        && !joker_dead(PlayerId::P0)
                        && !joker_dead(PlayerId::P1)
                }
                _ => false,
            };
            ensure(ok, "the result does not fit the end")
        }
    }
}

/// Checks everything both players see (the rules are checked apart, as
/// rules).
pub(crate) fn check_public(rules: &Rules, p: &Public) -> Check {
    ensure(p.battle_no == 1 || p.battle_no == 2, "bad battle number")?;
    // Decisions are actions, so no game makes more (the count stops there,
    // see `count_decision`, so the bound holds for every state reached).
    ensure(
        p.moves <= rules.max_actions(),
        "more decisions than any game has",
    )?;
    ensure(p.battle.attack_die <= 6, "bad die")?;
    let [i0, i1] = [p.initiative[PlayerId::P0], p.initiative[PlayerId::P1]];
    ensure(
        i0 <= 6 && i1 <= 6 && (i1 == 0 || (i0 != 0 && i0 != i1)),
        "bad initiative dice",
    )?;
    for side in p.sides.values() {
        check_side(side)?;
        ensure(
            p.outcome.is_some() || side.guards[Guard::Joker.index()] > 0,
            "a dead joker ends the game",
        )?;
    }
    let a = p.battle.attacker;
    for (pl, open) in [(a, p.battle.open[a]), (a.other(), p.battle.open[a.other()])] {
        let side = &p.sides[pl];
        match open {
            Open::None => {}
            Open::Soldier => ensure(
                side.line.slots().first().is_some_and(|v| v.card.is_some()),
                "open soldier not revealed",
            )?,
            Open::Guard(g) => ensure(pl != a && side.guards[g.index()] > 0, "bad open guard")?,
        }
    }
    check_phase(rules, p)
}

/// Checks a side's hidden cards against its public view.
pub(crate) fn check_hidden(side: &SidePublic, h: &SideHidden) -> Check {
    ensure(
        h.hand.is_valid() && h.aside.is_valid() && h.pile.is_valid(),
        "bad card set",
    )?;
    ensure(
        h.hand.len() == side.hand as usize
            && h.aside.len() == side.aside as usize
            && h.pile.len() == side.pile as usize,
        "counts differ from the cards",
    )?;
    let len = side.line.len();
    let mut line = CardSet::EMPTY;
    for (i, &card) in h.line.iter().enumerate() {
        if i < len {
            ensure(!line.contains(card), "a card is twice in a line")?;
            line.insert(card);
            if let Some(shown) = side.line.slots()[i].card {
                ensure(shown == card, "revealed card differs")?;
            }
        } else {
            ensure(card.id() == 0, "blank slot holds a card")?;
        }
    }
    // The face-down cards a prayer brought from the pile.
    let brought: CardSet = side
        .line
        .slots()
        .iter()
        .zip(h.line.iter())
        .filter(|(v, _)| v.from_pile)
        .map(|(_, &c)| c)
        .collect();
    let zones = [h.hand, h.aside, h.pile, line, side.donors];
    let mut all = CardSet::EMPTY;
    for z in zones {
        ensure(all.intersection(z).is_empty(), "a card is in two places")?;
        all = all.union(z);
    }
    ensure(all == CardSet::ALL, "a soldier is missing")?;
    ensure(
        side.known_pile.minus(h.pile).is_empty()
            && side.known_aside.minus(h.aside).is_empty()
            && side
                .known_alive
                .minus(h.hand.union(h.aside).union(face_down_cards(side, h)))
                .is_empty()
            && brought.intersection(side.known_alive).is_empty()
            && h.pile
                .union(brought)
                .minus(side.known_pile.union(side.pile_or_drawn))
                .len()
                <= side.unseen_in_pile as usize,
        "knowledge contradicts the cards",
    )
}

/// The unchecked shape of [`CardWar`].
#[derive(Deserialize)]
pub(crate) struct RawCardWar {
    rules: Rules,
    public: Public,
    hidden: PerPlayer<SideHidden>,
}

impl CardWar {
    /// Checks every invariant: the rules (an error of its own), then the
    /// rest, a broken invariant filed by `invalid` (as an invalid state,
    /// observation or position, after where the data came from).
    pub(crate) fn validate(
        &self,
        invalid: fn(&'static str) -> CardWarError,
    ) -> Result<(), CardWarError> {
        self.rules.validate()?;
        self.check().map_err(invalid)
    }

    /// Checks every invariant but the rules'.
    pub(crate) fn check(&self) -> Check {
        check_public(&self.rules, &self.public)?;
        for s in PlayerId::BOTH {
            check_hidden(&self.public.sides[s], &self.hidden[s])?;
        }
        Ok(())
    }
}

impl TryFrom<RawCardWar> for CardWar {
    type Error = CardWarError;
    fn try_from(raw: RawCardWar) -> Result<Self, CardWarError> {
        let game = CardWar {
            rules: raw.rules,
            public: raw.public,
            hidden: raw.hidden,
        };
        game.validate(CardWarError::InvalidState)?;
        Ok(game)
    }
}
