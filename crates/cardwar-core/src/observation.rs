//! What one player may know, and determinisation: a full state dealt from
//! an observation.

use game_traits::RuleSet;
use game_traits::{PerPlayer, PlayerId};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::card::{CardSet, Soldier};
use crate::error::CardWarError;
use crate::line::LINE_CAP;
use crate::rules::Rules;
use crate::state::{CardWar, Phase, Public, SideHidden};
use crate::validate::{check_hidden, check_public, revealed_cards};

/// A player's view: the rules, everything public (including what each side
/// knows of the other's cards) and all of his own cards.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawObservation")]
pub struct Observation {
    pub(crate) rules: Rules,
    pub(crate) viewer: PlayerId,
    pub(crate) public: Public,
    pub(crate) own: SideHidden,
}

impl Observation {
    /// The offer to pray when this seat is asked now, the question card war
    /// asks before every fight: its key (one per battle, so that a person
    /// who declines once is not asked again until the next battle) and the
    /// answer that declines it. `None` when the seat is not asked.
    ///
    /// ```
    /// use cardwar_core::{Action, CardWar, Game, PlayerId, Rules};
    ///
    /// let game = CardWar::new(&Rules::default()).unwrap();
    /// assert_eq!(game.observation(PlayerId::P0).prayer_offer(), None);
    /// # let _ = Action::Decline;
    /// ```
    pub fn prayer_offer(&self) -> Option<(u64, Action)> {
        let public = self.public();
        matches!(public.phase, Phase::Pray { player } if player == self.viewer).then(|| {
            (
                u64::from(public.round) * 4 + u64::from(public.battle_no),
                Action::Decline,
            )
        })
    }

    /// Whose view this is.
    pub fn viewer(&self) -> PlayerId {
        self.viewer
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Everything public.
    pub fn public(&self) -> &Public {
        &self.public
    }

    /// The viewer's own cards.
    pub fn own(&self) -> &SideHidden {
        &self.own
    }
}

#[derive(Deserialize)]
struct RawObservation {
    rules: Rules,
    viewer: PlayerId,
    public: Public,
    own: SideHidden,
}

impl TryFrom<RawObservation> for Observation {
    type Error = CardWarError;
    fn try_from(r: RawObservation) -> Result<Self, CardWarError> {
        r.rules.validate()?;
        check_public(&r.rules, &r.public)
            .and_then(|()| check_hidden(&r.public.sides[r.viewer], &r.own))
            .map_err(CardWarError::InvalidObservation)?;
        Ok(Observation {
            rules: r.rules,
            viewer: r.viewer,
            public: r.public,
            own: r.own,
        })
    }
}

impl CardWar {
    pub(crate) fn observe(&self, viewer: PlayerId) -> Observation {
        Observation {
            rules: self.rules,
            viewer,
            public: self.public,
            own: self.hidden[viewer],
        }
    }

    /// Deals the opponent's unseen cards: cards known set aside or in his
    /// pile go there; cards known alive go to his hand, aside cards or
    /// face-down slots; every other unseen card goes anywhere unseen,
    /// uniformly.
    pub(crate) fn complete<R: Rng + ?Sized>(
        obs: &Observation,
        rng: &mut R,
    ) -> Result<CardWar, CardWarError> {
        let bad = || CardWarError::InvalidObservation("no deal of the unseen cards fits");
        let o = obs.viewer.other();
        let side = &obs.public.sides[o];
        let revealed = revealed_cards(side).map_err(CardWarError::InvalidObservation)?;
        let (known_alive, known_pile, known_aside, maybe) = (
            side.known_alive,
            side.known_pile,
            side.known_aside,
            side.pile_or_drawn,
        );
        let unknown = CardSet::ALL.minus(
            revealed
                .union(side.donors)
                .union(known_alive)
                .union(known_pile)
                .union(known_aside)
                .union(maybe),
        );
        let face_down = side.line.len() - revealed.len();
        let pile_free = (side.pile as usize)
            .checked_sub(known_pile.len())
            .ok_or_else(bad)?;
        let aside_free = (side.aside as usize)
            .checked_sub(known_aside.len())
            .ok_or_else(bad)?;
        let alive_slots = face_down + side.hand as usize + aside_free;
        // The rest of the pile, and the face-down cards a prayer brought
        // from it: cards that were in it at the last shuffle, and at most
        // `unseen_in_pile` cards never seen there.
        let from_pile = side.line.brought_from_pile();
        let unseen = (side.unseen_in_pile as usize).min(unknown.len());
        let candidates = maybe.len() + unknown.len();
        if pile_free + from_pile > maybe.len() + unseen
            || known_alive.len() + candidates < pile_free + alive_slots
            || known_alive.len() + candidates - pile_free != alive_slots
        {
            return Err(bad());
        }
        let mut pool: Vec<Soldier> = maybe.union(unknown).iter().collect();
        shuffle(&mut pool, rng);
        let (mut room, mut unseen_left) = (pile_free + from_pile, unseen);
        let mut of_pile: Vec<Soldier> = Vec::with_capacity(room);
        let mut alive: Vec<Soldier> = Vec::with_capacity(alive_slots);
        for c in pool {
            let seen = maybe.contains(c);
            if room > 0 && (seen || unseen_left > 0) {
                of_pile.push(c);
                room -= 1;
                unseen_left -= usize::from(!seen);
            } else {
                alive.push(c);
            }
        }
        // `of_pile` is in random order: its head goes to the slots.
        let mut brought = of_pile.drain(..from_pile.min(of_pile.len()));
        let mut slot_cards: Vec<Soldier> = Vec::with_capacity(from_pile);
        slot_cards.extend(brought.by_ref());
        drop(brought);
        let mut pile = known_pile;
        for &c in &of_pile {
            pile.insert(c);
        }
        alive.extend(known_alive.iter());
        shuffle(&mut alive, rng);
        let mut hidden = SideHidden {
            hand: CardSet::EMPTY,
            aside: known_aside,
            pile,
            line: [Soldier::default(); LINE_CAP],
        };
        let mut next = alive.into_iter();
        let mut next_brought = slot_cards.into_iter();
        for (i, slot) in side.line.slots().iter().enumerate() {
            hidden.line[i] = match slot.card {
                Some(c) => c,
                None if slot.from_pile => next_brought.next().ok_or_else(bad)?,
                None => next.next().ok_or_else(bad)?,
            };
        }
        hidden.hand = next.by_ref().take(side.hand as usize).collect();
        hidden.aside = hidden.aside.union(next.collect());
        let mut hiddens = PerPlayer::new(obs.own, obs.own);
        hiddens[o] = hidden;
        let game = CardWar {
            rules: obs.rules,
            public: obs.public,
            hidden: hiddens,
        };
        game.validate(CardWarError::InvalidObservation)?;
        Ok(game)
    }
}

/// Fisher-Yates with the caller's generator.
fn shuffle<T, R: Rng + ?Sized>(items: &mut [T], rng: &mut R) {
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i);
        items.swap(i, j);
    }
}
