//! The flag-proof solver: may a player claim a flag now?
//!
//! A claim against an incomplete opposing formation must be proved from the
//! cards visible on the table: no completion of the opponent's side with
//! troop cards still available (in the hands or the decks, the claimant's
//! own hand included) may beat the claimant. Unplayed tactics are ignored.
//! The solver decides this by reasoning about what the available cards can
//! still form, class by class, per colour and per value (see
//! [`crate::completion`]), never by enumerating completions; when the claim
//! fails it names one opponent completion that wins.

use std::fmt;

use game_traits::PlayerId;

use crate::card::CardSet;
use crate::completion::{best_completion, pattern_cards};
use crate::flag::Flag;
use crate::formation::{
    part_strength, part_strength_unseen, Environment, FormationClass, FormationOrder, Strength,
};
use crate::rules::{ProofTie, Rules, WildCards};

/// Troop cards the opponent would add to his side: a witness against a claim.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Completion {
    cards: CardSet,
}

impl Completion {
    /// The cards, in index order; empty when the opponent's formation is
    /// already complete and wins as it stands.
    pub fn cards(&self) -> CardSet {
        self.cards
    }
}

impl fmt::Debug for Completion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Completion[{}]", self.cards)
    }
}

/// The answer of [`check_claim`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClaimCheck {
    /// The claim is proved.
    Holds,
    /// The flag is already claimed.
    AlreadyClaimed,
    /// The claimant's formation is not complete.
    Incomplete,
    /// The opponent can still win the flag, for instance with this completion.
    Refuted(Completion),
}

impl ClaimCheck {
    /// Whether the claim may be made.
    pub fn holds(self) -> bool {
        self == ClaimCheck::Holds
    }
}

/// Decides whether `claimant` may claim `flag` now, given the troop cards
/// still `available` (every troop card not visible on the table: the hands
/// and the decks). Cards of `available` that are at the flag are ignored.
///
/// ```
/// use battleline_core::{check_claim, Card, CardSet, ClaimCheck, Colour, Flag, Rules};
/// use game_traits::PlayerId;
/// let t = |c, v| Card::troop(c, v).unwrap();
/// let mut flag = Flag::new();
/// for v in [3, 4, 5] {
///     flag.place(PlayerId::P0, t(Colour::Red, v)).unwrap();
/// }
/// flag.place(PlayerId::P1, t(Colour::Blue, 8)).unwrap();
/// let mut available = CardSet::ALL_TROOPS.difference([t(Colour::Red, 3), t(Colour::Red, 4), t(Colour::Red, 5), t(Colour::Blue, 8)].into_iter().collect());
/// // Blue 7 and 10 are still available: Blue 7-8-9 would beat Red 3-4-5.
/// assert!(matches!(check_claim(&flag, PlayerId::P0, available, &Rules::default()), ClaimCheck::Refuted(_)));
/// available.remove(t(Colour::Blue, 7));
/// available.remove(t(Colour::Blue, 10));
/// // Blue 6-7-8 (sum 21) is still a Wedge beating Red 3-4-5 (12)...
/// available.remove(t(Colour::Blue, 6));
/// // ...but with Blue 6, 7 and 10 gone no Wedge is left.
/// assert_eq!(check_claim(&flag, PlayerId::P0, available, &Rules::default()), ClaimCheck::Holds);
/// ```
#[inline]
pub fn check_claim(
    flag: &Flag,
    claimant: PlayerId,
    available: CardSet,
    rules: &Rules,
) -> ClaimCheck {
    decide(flag, claimant, available, rules, true)
}

/// Whether the claim holds: [`check_claim`] without building a witness.
#[inline]
pub fn claim_holds(flag: &Flag, claimant: PlayerId, available: CardSet, rules: &Rules) -> bool {
    decide(flag, claimant, available, rules, false) == ClaimCheck::Holds
}

#[inline]
fn decide(
    flag: &Flag,
    claimant: PlayerId,
    available: CardSet,
    rules: &Rules,
    witness: bool,
) -> ClaimCheck {
    if flag.claimed().is_some() {
        return ClaimCheck::AlreadyClaimed;
    }
    let order = rules.formation_order;
    let env = flag.env();
    let me = flag.side(claimant).part();
    let opponent = claimant.other();
    let theirs = flag.side(opponent).part();
    let on_flag = me.troops | theirs.troops;
    let avail = available.troop_bits() & !on_flag;
    let unseen = rules.wild_cards == WildCards::UnseenOnly;
    // Under UnseenOnly the wilds become cards of `avail` (the cards not
    // visible now): the claimant's as the table stands at the claim, the
    // opponent's besides the troops of his completion.
    let strength = |part| {
        if unseen {
            part_strength_unseen(part, env, order, avail)
        } else {
            part_strength(part, env, order)
        }
    };
    let Some(mine) = strength(&me) else {
        return ClaimCheck::Incomplete;
    };
    if theirs.len() == env.slots() {
        // A complete side whose wilds can become nothing is no formation.
        let Some(s) = strength(&theirs) else {
            return ClaimCheck::Holds;
        };
        let wins = mine > s || (mine == s && flag.first_complete() == Some(claimant));
        return if wins {
            ClaimCheck::Holds
        } else {
            ClaimCheck::Refuted(Completion {
                cards: CardSet::EMPTY,
            })
        };
    }
    // The top-strength shortcut: nothing beats the best strength there is
    // (a Wedge 8-9-10, 7-8-9-10 under Mud, or the highest sum under Fog),
    // and a completion could at most tie, which the claimant wins.
    if rules.proof_tie == ProofTie::ClaimantWins && mine == top_strength(env, order) {
        return ClaimCheck::Holds;
    }
    let floor = mine.rank();
    let best = if unseen {
        best_completion::<true>(&theirs, env, avail, order, floor)
    } else {
        best_completion::<false>(&theirs, env, avail, order, floor)
    };
    match best {
        Some((best, pattern)) if beats(best, mine, rules.proof_tie) => {
            let n = env.slots() as u8;
            let cards = if witness {
                CardSet::from_troop_bits(pattern_cards(&theirs, n, avail, pattern))
            } else {
                CardSet::EMPTY
            };
            ClaimCheck::Refuted(Completion { cards })
        }
        _ => ClaimCheck::Holds,
    }
}

/// The best strength any formation of `env` can have under `order`.
#[inline]
fn top_strength(env: Environment, order: FormationOrder) -> Strength {
    match (env.fog, env.mud) {
        (true, false) => Strength::sum_only(30),
        (true, true) => Strength::sum_only(40),
        (false, false) => Strength::of(FormationClass::Wedge, 8 + 9 + 10, order),
        (false, true) => Strength::of(FormationClass::Wedge, 7 + 8 + 9 + 10, order),
    }
}

fn beats(best: Strength, mine: Strength, tie: ProofTie) -> bool {
    best > mine || (best == mine && tie == ProofTie::Blocks)
}

/// Every troop card not visible on the table of `flags` nor in `visible`
/// (discard piles): what a claim proof must assume the opponent may still get.
pub fn available_troops(flags: &[Flag], visible: CardSet) -> CardSet {
    let mut seen = visible;
    for f in flags {
        for s in f.sides() {
            seen = seen.union(s.cards());
        }
    }
    CardSet::ALL_TROOPS.difference(seen)
}
