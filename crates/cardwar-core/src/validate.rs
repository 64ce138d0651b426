//! Invariants of states and observations, checked whenever one is
//! deserialised or built by determinisation, so that a tampered input gives
//! an error instead of a panic or an inconsistent game.

use game_traits::{PerPlayer, PlayerId};
use serde::Deserialize;

use crate::card::{CardSet, Guard};
use crate::error::CardWarError;
use crate::rules::Rules;
use crate::state::{CardWar, LayKind, Open, Phase, Public, SideHidden, SidePublic};

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

fn check_phase(rules: &Rules, p: &Public) -> Check {
    let side = |pl: PlayerId| &p.sides[pl];
    let b = &p.battle;
    let in_fight = |ok: bool| {
        ensure(
            ok && b.open.values().all(|o| *o != Open::None),
            "a fight needs two open cards",
        )
    };
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
                p.round == 0
                    && left >= 1
                    && left <= side(colour).hand
                    && p0_pile == Some(side(PlayerId::P0).pile)
                    && p1_pile == Some(side(PlayerId::P1).pile),
                "bad aside phase",
            )
        }
        Phase::Initiative { first_die } => ensure(
            p.round == 0
                && first_die <= 6
                && p.initiative[PlayerId::P0] == first_die
                && p.initiative[PlayerId::P1] == 0
                && p.sides.values().all(|s| s.pile == rules.aside),
            "bad initiative",
        ),
        Phase::DrawRoll { .. } => ensure(p.round >= 2, "draws start in round 2"),
        Phase::Draw { player, left } => ensure(
            p.round >= 2 && left >= 1 && left <= side(player).pile,
            "bad draw phase",
        ),
        Phase::Lay { player, kind, left } => {
            let attacker = player == b.attacker;
            ensure(
                left <= side(player).hand
                    && (kind == LayKind::FreeAttack || left >= 1)
                    && (kind == LayKind::Defence) != attacker
                    && p.round >= 1,
                "bad lay phase",
            )
        }
        Phase::Pray { player } => in_fight(p.round >= 2 && !side(player).prayed),
        Phase::PrayerRoll { player } | Phase::ParatrooperRoll { player } => {
            in_fight(p.round >= 2 && side(player).prayed)
        }
        Phase::Reinforce { player, left } => {
            in_fight(side(player).prayed && left >= 1 && left <= side(player).pile)
        }
        Phase::AttackDie => in_fight(b.attack_die == 0),
        Phase::DefenceDie => in_fight((1..=6).contains(&b.attack_die)),
        Phase::Over => ensure(p.outcome.is_some(), "over without a result"),
    }?;
    ensure(
        (p.phase == Phase::Over) == p.outcome.is_some(),
        "result before the end",
    )?;
    ensure(p.round <= rules.max_rounds, "round past the limit")
}

/// Checks everything both players see (the rules are checked apart, as
/// rules).
pub(crate) fn check_public(rules: &Rules, p: &Public) -> Check {
    ensure(p.battle_no == 1 || p.battle_no == 2, "bad battle number")?;
    // Decisions are actions, so no game makes more; a larger count would
    // overflow at the next decision.
    ensure(
        p.moves < rules.max_actions(),
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
