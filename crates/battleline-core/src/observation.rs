//! What one player may know, and determinisation.

use game_traits::{GameRng, PerPlayer, PlayerId};
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::card::{Card, CardSet, Deck, Tactic};
use crate::error::BattleLineError;
use crate::flag_bits::FlagBits;
use crate::proof_cache::ProofCache;
use crate::rules::Rules;
use crate::state::{BattleLine, Table, Top};

/// One player's view: the table, his hand, the sizes of the hidden parts,
/// the cards he returned with Scout that are still on the decks, and which
/// cards of the other hand each player knows (cards one drew from the
/// other's Scout returns).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawObservation")]
pub struct Observation {
    /// The rules in force.
    pub(crate) rules: Rules,
    /// Whose view this is.
    pub(crate) viewer: PlayerId,
    /// The public table.
    pub(crate) table: Table,
    /// The viewer's hand.
    pub(crate) hand: CardSet,
    /// The number of cards in the other hand.
    pub(crate) opponent_hand: u8,
    /// Per deck, the number of unseen cards below the Scout returns.
    pub(crate) pools: [u8; 2],
    /// Per deck, the number of Scout returns on top.
    pub(crate) top_lens: [u8; 2],
    /// Per deck, the Scout returns on top when the viewer returned them
    /// (he knows them); empty otherwise.
    pub(crate) tops: [Top; 2],
    /// Per player, the cards of the other hand he knows (public: both saw
    /// the returns and who drew them).
    pub(crate) revealed: PerPlayer<CardSet>,
}

#[derive(Deserialize)]
struct RawObservation {
    rules: Rules,
    viewer: PlayerId,
    table: Table,
    hand: CardSet,
    opponent_hand: u8,
    pools: [u8; 2],
    top_lens: [u8; 2],
    tops: [Top; 2],
    revealed: PerPlayer<CardSet>,
}

impl TryFrom<RawObservation> for Observation {
    type Error = BattleLineError;
    /// An observation is consistent exactly when some full state gives it,
    /// which is what determinisation builds and checks.
    fn try_from(r: RawObservation) -> Result<Self, BattleLineError> {
        let o = Observation {
            rules: r.rules,
            viewer: r.viewer,
            table: r.table,
            hand: r.hand,
            opponent_hand: r.opponent_hand,
            pools: r.pools,
            top_lens: r.top_lens,
            tops: r.tops,
            revealed: r.revealed,
        };
        BattleLine::complete(&o, &mut GameRng::seed_from_u64(0))?;
        Ok(o)
    }
}

impl BattleLine {
    /// What `viewer` may know now.
    pub(crate) fn observe(&self, viewer: PlayerId) -> Observation {
        let s = self;
        let own_tops = s.table.scout_by == Some(viewer);
        Observation {
            rules: s.rules,
            viewer,
            table: s.table,
            hand: s.hands[viewer],
            opponent_hand: s.hands[viewer.other()].len() as u8,
            pools: [s.pools[0].len() as u8, s.pools[1].len() as u8],
            top_lens: [s.tops[0].len() as u8, s.tops[1].len() as u8],
            tops: if own_tops {
                s.tops
            } else {
                [Top::default(); 2]
            },
            revealed: s.revealed,
        }
    }

    /// A full state consistent with `obs`, unseen cards dealt at random to
    /// the opponent's hand, the decks and the opponent's Scout returns;
    /// refused when no state gives exactly `obs`.
    pub(crate) fn complete<R: Rng + ?Sized>(
        obs: &Observation,
        rng: &mut R,
    ) -> Result<BattleLine, BattleLineError> {
        let bad = BattleLineError::InvalidObservation;
        let v = obs.viewer;
        let o = v.other();
        let mut known = obs
            .hand
            .union(obs.table.discards[PlayerId::P0])
            .union(obs.table.discards[PlayerId::P1]);
        for f in &obs.table.flags {
            for p in PlayerId::all() {
                known = known.union(f.side(p).cards());
            }
            if f.env().fog {
                known.insert(Card::tactic(Tactic::Fog));
            }
            if f.env().mud {
                known.insert(Card::tactic(Tactic::Mud));
            }
        }
        for t in &obs.tops {
            known = known.union(t.set());
        }
        let theirs_known = obs.revealed[v];
        if !known.intersection(theirs_known).is_empty() {
            return Err(bad("known cards overlap"));
        }
        known = known.union(theirs_known);
        // Without tactics the tactics cards are in no place at all, not unseen.
        let unseen = obs.rules.cards().difference(known);
        let owner_tops = obs.table.scout_by == Some(o);
        let mut typed = [0usize; 2];
        for d in Deck::ALL {
            typed[d.index()] = obs.pools[d.index()] as usize
                + if owner_tops {
                    obs.top_lens[d.index()] as usize
                } else {
                    0
                };
        }
        let hidden_hand = (obs.opponent_hand as usize)
            .checked_sub(theirs_known.len())
            .ok_or(bad("opponent hand smaller than the cards known in it"))?;
        let mut pick = |from: CardSet, n: usize| -> Result<(Vec<Card>, CardSet), BattleLineError> {
            let mut cards: Vec<Card> = from.iter().collect();
            if cards.len() < n {
                return Err(bad("too few unseen cards"));
            }
            for i in 0..n {
                let j = rng.random_range(i..cards.len());
                cards.swap(i, j);
            }
            let rest = cards.split_off(n);
            Ok((cards, rest.into_iter().collect()))
        };
        let mut hand_o = theirs_known;
        let mut pools = [CardSet::EMPTY; 2];
        let mut tops = obs.tops;
        for d in Deck::ALL {
            let (chosen, rest) = pick(unseen.intersection(d.cards()), typed[d.index()])?;
            let mut it = chosen.into_iter();
            if owner_tops {
                let mut top = Top::default();
                for _ in 0..obs.top_lens[d.index()] {
                    if let Some(c) = it.next() {
                        top = top.with(c);
                    }
                }
                tops[d.index()] = top;
            }
            pools[d.index()] = it.collect();
            hand_o = hand_o.union(rest);
        }
        if hand_o.len() != hidden_hand + theirs_known.len() {
            return Err(bad("unseen cards do not match the hidden places"));
        }
        let mut hands = PerPlayer::default();
        hands[v] = obs.hand;
        hands[o] = hand_o;
        let mut state = BattleLine {
            rules: obs.rules,
            table: obs.table,
            hands,
            pools,
            tops,
            revealed: obs.revealed,
            proofs: ProofCache::default(),
            bits: FlagBits::default(),
        };
        state.validate().map_err(bad)?;
        if state.observe(obs.viewer) != *obs {
            return Err(bad("observation is not consistent"));
        }
        state.rebuild();
        Ok(state)
    }
}

impl Observation {
    /// Whose view this is.
    pub fn viewer(&self) -> PlayerId {
        self.viewer
    }

    /// The public table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The viewer's hand.
    pub fn hand(&self) -> CardSet {
        self.hand
    }

    /// Cards in the opponent's hand.
    pub fn opponent_hand_len(&self) -> usize {
        self.opponent_hand as usize
    }

    /// Cards of the opponent's hand the viewer knows.
    pub fn known_opponent_cards(&self) -> CardSet {
        self.revealed[self.viewer]
    }

    /// Cards left in `deck`.
    pub fn deck_len(&self, deck: Deck) -> usize {
        self.pools[deck.index()] as usize + self.top_lens[deck.index()] as usize
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The cards the viewer returned with Scout still on top of `deck`,
    /// bottom first (none when the other player played Scout).
    pub fn returned_by_viewer(&self, deck: Deck) -> impl Iterator<Item = Card> + '_ {
        self.tops[deck.index()].cards()
    }

    /// The number of Scout returns on top of `deck`.
    pub fn returned_len(&self, deck: Deck) -> usize {
        self.top_lens[deck.index()] as usize
    }
}

impl std::fmt::Display for Observation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut hands = [None, None];
        hands[self.viewer.index()] = Some(self.hand);
        let mut lens = [self.opponent_hand as usize; 2];
        lens[self.viewer.index()] = self.hand.len();
        crate::render::render(
            f,
            &self.table,
            Some(self.viewer),
            hands,
            lens,
            [self.deck_len(Deck::Troop), self.deck_len(Deck::Tactics)],
        )?;
        let mine: Vec<String> = self
            .tops
            .iter()
            .flat_map(|t| t.cards())
            .map(|c| c.to_string())
            .collect();
        if !mine.is_empty() {
            writeln!(f, "returned on top of the decks by you: {}", mine.join(" "))?;
        }
        let known = self.known_opponent_cards();
        if !known.is_empty() {
            writeln!(f, "known in the opponent's hand: {known}")?;
        }
        Ok(())
    }
}
