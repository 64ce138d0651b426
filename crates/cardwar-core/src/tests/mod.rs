//! One test per rule of `docs/cardwar.md`, on hand-built positions driven
//! with chosen dice, plus whole random games checked at every step.

mod combat;
mod prayers;
mod properties;
mod rounds;

use game_traits::{Game, PlayerId, Turn};

use crate::card::{CardSet, Soldier};
use crate::rules::Rules;
use crate::state::{Battle, CardWar, Phase};
use crate::Action;

pub(crate) const A: PlayerId = PlayerId::P0;
pub(crate) const D: PlayerId = PlayerId::P1;

/// The free soldier of `rank` in `free` (suit a first).
pub(crate) fn take(rank: u8, free: &mut CardSet) -> Soldier {
    let card = [0, 1]
        .into_iter()
        .filter_map(|s| Soldier::of_rank(rank, s))
        .find(|c| free.contains(*c))
        .expect("both soldiers of this rank are used");
    free.remove(card);
    card
}

/// The soldier of `rank`, suit a or b.
pub(crate) fn soldier(rank: u8, suit: u8) -> Soldier {
    Soldier::of_rank(rank, suit).unwrap()
}

/// A battle of `round` where `A` (P0) attacks with the ranks `att` and `D`
/// (P1) defends with `def`; every other soldier is in its owner's hand.
pub(crate) fn battle(rules: Rules, round: u16, att: &[u8], def: &[u8]) -> CardWar {
    let mut g = CardWar::start(rules);
    g.public.round = round;
    g.public.first = A;
    g.public.battle_no = 1;
    g.public.battle = Battle::new(A);
    for (p, ranks) in [(A, att), (D, def)] {
        let s = p.index();
        let mut free = CardSet::ALL;
        for &r in ranks {
            let c = take(r, &mut free);
            let len = g.public.sides[s].line.len();
            assert!(g.public.sides[s].line.push());
            g.hidden[s].line[len] = c;
        }
        g.hidden[s].hand = free;
        g.public.sides[s].hand = free.len() as u8;
    }
    g.public.phase = Phase::AttackDie;
    g.start_fights();
    g.check().unwrap();
    g
}

/// Moves the soldiers of `ranks` from `p`'s hand to his pile.
pub(crate) fn to_pile(g: &mut CardWar, p: PlayerId, ranks: &[u8]) {
    for &r in ranks {
        let mut hand = g.hidden[p.index()].hand;
        let c = take(r, &mut hand);
        g.hand_to_pile(p, c);
    }
}

/// Applies a legal action and checks every invariant.
pub(crate) fn act(g: &mut CardWar, a: Action) {
    assert!(g.is_legal(a), "{a} is illegal in\n{g}");
    g.apply(a).unwrap();
    g.check().unwrap_or_else(|e| panic!("{e} after {a}:\n{g}"));
}

/// Declines every prayer question, then rolls the two dice of a fight.
pub(crate) fn fight(g: &mut CardWar, attack_die: u8, defence_die: u8) {
    decline(g);
    assert_eq!(g.phase(), Phase::AttackDie, "{g}");
    act(g, Action::Die(attack_die));
    act(g, Action::Die(defence_die));
}

/// Declines the prayer questions now due.
pub(crate) fn decline(g: &mut CardWar) {
    while let Phase::Pray { .. } = g.phase() {
        act(g, Action::Decline);
    }
}

/// Plays to the end: decisions take the first legal action, chance takes
/// `die` (or its nearest legal outcome).
pub(crate) fn play_out(g: &mut CardWar, mut choose: impl FnMut(&CardWar, &[Action]) -> Action) {
    let mut legal = Vec::new();
    let max = CardWar::max_game_length(&g.rules) as usize;
    for _ in 0..max {
        if g.turn() == Turn::Terminal {
            return;
        }
        g.legal_actions(&mut legal);
        let a = choose(g, &legal);
        act(g, a);
    }
    panic!("game did not end");
}
