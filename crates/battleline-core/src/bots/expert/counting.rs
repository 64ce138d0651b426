//! Card counting: the cards each player may still hold, drawn from what
//! the viewer's observation leaves unseen.

use game_traits::GameRng;
use rand::seq::SliceRandom;
use rand::Rng;

use crate::card::{CardSet, Deck};
use crate::flag::FLAGS;
use crate::observation::Observation;
use crate::state::BattleLine;

/// One guess at the future: the troop cards (as troop bits) each player
/// may still put on the table, disjoint from each other.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Futures {
    /// The viewer's hand and his next draws.
    pub mine: u64,
    /// The opponent's hand (what the observation says of it, the rest
    /// dealt from the unseen cards) and his next draws.
    pub theirs: u64,
    /// The order in which equal sides get their future cards (a rank per
    /// flag, [`super::odds::allocation_order`]), drawn afresh each future
    /// so that no flag is favoured by its place on the table.
    pub tie: [u8; FLAGS],
    /// The tactics cards of the opponent's hand in this future, and the
    /// one he draws next when he holds none (when asked for).
    pub their_tactics: CardSet,
}

/// Draws one [`Futures`] consistent with `obs`: the opponent's hidden hand
/// and the deck from the engine's determinisation (which places every
/// unseen card where the observation allows), then `draws` troop cards of
/// the deck for each player, alternately. With `tactic_draw`, an opponent
/// holding no tactics card draws one of the tactics deck (as the expert
/// itself does). `None` only for an observation no state gives, which the
/// engine never hands out.
pub(crate) fn sample(
    obs: &Observation,
    draws: usize,
    tactic_draw: bool,
    rng: &mut GameRng,
) -> Option<Futures> {
    let state = BattleLine::complete(obs, rng).ok()?;
    let me = obs.viewer();
    let deck = Deck::Troop.index();
    let mut pile: Vec<u64> =
        single_bits(state.pools[deck].union(state.tops[deck].set()).troop_bits()).collect();
    let mut mine = obs.hand().troop_bits();
    let mut theirs = state.hands[me.other()].troop_bits();
    let n = (2 * draws).min(pile.len());
    for i in 0..n {
        let j = rng.random_range(i..pile.len());
        pile.swap(i, j);
        if i % 2 == 0 {
            mine |= pile[i];
        } else {
            theirs |= pile[i];
        }
    }
    let mut tie: [u8; FLAGS] = std::array::from_fn(|i| i as u8);
    tie.shuffle(rng);
    let mut their_tactics = state.hands[me.other()].difference(CardSet::ALL_TROOPS);
    let tactics = Deck::Tactics.index();
    if tactic_draw && their_tactics.is_empty() {
        let deck = state.pools[tactics].union(state.tops[tactics].set());
        if let Some(card) = deck.nth(rng.random_range(0..deck.len().max(1))) {
            their_tactics.insert(card);
        }
    }
    Some(Futures {
        mine,
        theirs,
        tie,
        their_tactics,
    })
}

/// The number of troop cards each player should be credited with drawing:
/// half the troop deck, at most `cap` (cards drawn late in the game come
/// too late for most flags).
pub(crate) fn draws(obs: &Observation, cap: usize) -> usize {
    obs.deck_len(Deck::Troop).div_ceil(2).min(cap)
}

/// The troop cards nobody can see on the table or in the discards: those a
/// wild card may still become under [`crate::WildCards::UnseenOnly`].
pub(crate) fn off_table(obs: &Observation) -> u64 {
    let table = obs.table();
    let mut seen = table
        .discards(obs.viewer())
        .union(table.discards(obs.viewer().other()));
    for f in table.flags() {
        for s in f.sides() {
            seen = seen.union(s.cards());
        }
    }
    CardSet::ALL_TROOPS.difference(seen).troop_bits()
}

/// Each set bit of `bits` as a word of its own.
fn single_bits(mut bits: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let b = bits & bits.wrapping_neg();
            bits &= bits - 1;
            b
        })
    })
}
