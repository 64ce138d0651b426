//! The flag-proof solver: may a player claim a flag now?
//!
//! A claim against an incomplete opposing formation must be proved from the
//! cards visible on the table: no completion of the opponent's side with
//! troop cards still available (in the hands or the decks, the claimant's
//! own hand included) may beat the claimant. Unplayed tactics are ignored.
//! The solver decides this by reasoning about what the available cards can
//! still form, class by class, never by enumerating completions: under the
//! default wild cards on whole bit masks of the available troops, all six
//! colours at once, stronger classes than the claimant's first and only
//! the claimant's own class for its best sum (`reach`); under
//! [`WildCards::UnseenOnly`] per colour and per value (see
//! [`crate::completion`]). When the claim fails it names one opponent
//! completion that wins. The claimant's strength is read from the side's
//! summary, computed when its last card was placed.

mod reach;

use std::fmt;

use game_traits::PlayerId;

use crate::card::CardSet;
use crate::completion::{best_completion, pattern_cards, Pattern};
use crate::flag::Flag;
use crate::formation::{
    part_strength, part_strength_unseen, Environment, FormationClass, FormationOrder, Part,
    Strength,
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
    if rules.wild_cards == WildCards::UnseenOnly {
        return decide_unseen(flag, claimant, available, rules, witness);
    }
    let order = rules.formation_order;
    let env = flag.env();
    let me = flag.side(claimant).part();
    let theirs = flag.side(claimant.other()).part();
    let Some(mine) = part_strength(&me, env, order) else {
        return ClaimCheck::Incomplete;
    };
    if theirs.len() == env.slots() {
        return settle(flag, claimant, mine, part_strength(&theirs, env, order));
    }
    // The top-strength shortcut: nothing beats the best strength there is
    // (a Wedge 8-9-10, 7-8-9-10 under Mud, or the highest sum under Fog),
    // and a completion could at most tie, which the claimant wins.
    if rules.proof_tie == ProofTie::ClaimantWins && mine == top_strength(env, order) {
        return ClaimCheck::Holds;
    }
    let avail = available.troop_bits() & !(me.troops() | theirs.troops());
    contest(&theirs, env, avail, mine, rules, witness)
}

/// The search for a completion of the incomplete side `theirs` that beats
/// `mine`. Out of line, so that the early answers above inline into the
/// callers without the search's registers and stack.
#[inline(never)]
fn contest(
    theirs: &Part,
    env: Environment,
    avail: u64,
    mine: Strength,
    rules: &Rules,
    witness: bool,
) -> ClaimCheck {
    let order = rules.formation_order;
    if reach::handles(theirs) {
        let found = reach::refutation(theirs, env, avail, order, mine, rules.proof_tie, witness);
        return match found {
            Some(cards) => ClaimCheck::Refuted(Completion {
                cards: CardSet::from_troop_bits(cards),
            }),
            None => ClaimCheck::Holds,
        };
    }
    let found = best_completion::<false>(theirs, env, avail, order, mine.rank())
        .filter(|&(best, _)| beats(best, mine, rules.proof_tie))
        .map(|(_, pattern)| pattern);
    answer(found, theirs, env, avail, witness)
}

/// [`decide`] under [`WildCards::UnseenOnly`], where the wilds become cards
/// of `avail` (the cards not visible now): the claimant's as the table
/// stands at the claim, the opponent's besides the troops of his
/// completion. Out of line so that the default rules' path stays small.
#[inline(never)]
fn decide_unseen(
    flag: &Flag,
    claimant: PlayerId,
    available: CardSet,
    rules: &Rules,
    witness: bool,
) -> ClaimCheck {
    let order = rules.formation_order;
    let env = flag.env();
    let me = flag.side(claimant).part();
    let theirs = flag.side(claimant.other()).part();
    let avail = available.troop_bits() & !(me.troops() | theirs.troops());
    let Some(mine) = part_strength_unseen(&me, env, order, avail) else {
        return ClaimCheck::Incomplete;
    };
    if theirs.len() == env.slots() {
        let s = part_strength_unseen(&theirs, env, order, avail);
        return settle(flag, claimant, mine, s);
    }
    if rules.proof_tie == ProofTie::ClaimantWins && mine == top_strength(env, order) {
        return ClaimCheck::Holds;
    }
    let found = best_completion::<true>(&theirs, env, avail, order, mine.rank())
        .filter(|&(best, _)| beats(best, mine, rules.proof_tie))
        .map(|(_, pattern)| pattern);
    answer(found, &theirs, env, avail, witness)
}

/// The claim against a complete side of strength `theirs` (`None`: a side
/// whose wilds can become nothing, which is no formation).
#[inline]
fn settle(flag: &Flag, claimant: PlayerId, mine: Strength, theirs: Option<Strength>) -> ClaimCheck {
    let Some(s) = theirs else {
        return ClaimCheck::Holds;
    };
    if mine > s || (mine == s && flag.first_complete() == Some(claimant)) {
        ClaimCheck::Holds
    } else {
        ClaimCheck::Refuted(Completion {
            cards: CardSet::EMPTY,
        })
    }
}

/// The answer once the search `found` a winning completion of `theirs`
/// (or none), with its cards when a `witness` is asked for.
#[inline]
fn answer(
    found: Option<Pattern>,
    theirs: &Part,
    env: Environment,
    avail: u64,
    witness: bool,
) -> ClaimCheck {
    match found {
        Some(pattern) => {
            let cards = if witness {
                let n = env.slots() as u8;
                CardSet::from_troop_bits(pattern_cards(theirs, n, avail, pattern))
            } else {
                CardSet::EMPTY
            };
            ClaimCheck::Refuted(Completion { cards })
        }
        None => ClaimCheck::Holds,
    }
}

/// The best strength any formation of `env` can have under `order`.
#[inline]
fn top_strength(env: Environment, order: FormationOrder) -> Strength {
    TOP[order as usize][env.fog as usize][env.mud as usize]
}

/// [`top_strength`] per order, Fog and Mud: a Wedge 8-9-10 (7-8-9-10 under
/// Mud), the highest sum under Fog.
static TOP: [[[Strength; 2]; 2]; 2] = {
    const fn of(order: FormationOrder) -> [[Strength; 2]; 2] {
        [
            [
                Strength::of(FormationClass::Wedge, 8 + 9 + 10, order),
                Strength::of(FormationClass::Wedge, 7 + 8 + 9 + 10, order),
            ],
            [Strength::sum_only(30), Strength::sum_only(40)],
        ]
    }
    [of(FormationOrder::Text), of(FormationOrder::Published)]
};

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
