//! Helpers of the rule tests: hand-built positions (through the public
//! [`PositionBuilder`]) driven with chosen dice, every state checked.
#![allow(dead_code)]

use cardwar_core::{
    Action, CardSet, CardWar, FirstAttacker, Game, LineCard, Phase, PlayerId, PositionBuilder,
    Rules, Soldier, Turn,
};
use game_traits::RuleSet;

/// Every switch of the rules the other way from the default, with empty
/// piles and a short game: states the presets rarely reach.
pub fn every_switch_flipped() -> Rules {
    Rules {
        aside: 0,
        keep_in_pile: 0,
        max_rounds: 8,
        cap_winner_health: false,
        bonus_every_three_kills: true,
        guards_earn_bonus: false,
        donor_returns: true,
        first_attacker: FirstAttacker::Alternate,
        one_prayer_per_fight: true,
        reserve_in_first_round: true,
        reserve_all_or_nothing: true,
        grenade_rounds_up: false,
        gangrene_hits_guards: false,
        sniper_targets_guards: true,
        sniper_by_health: true,
        bomb_hits_hand: true,
    }
}

pub const A: PlayerId = PlayerId::P0;
pub const D: PlayerId = PlayerId::P1;

/// The free soldier of `rank` in `free` (suit a first).
pub fn take(rank: u8, free: &mut CardSet) -> Soldier {
    let card = [0, 1]
        .into_iter()
        .filter_map(|s| Soldier::of_rank(rank, s))
        .find(|c| free.contains(*c))
        .expect("both soldiers of this rank are used");
    free.remove(card);
    card
}

/// The soldier of `rank`, suit a or b.
pub fn soldier(rank: u8, suit: u8) -> Soldier {
    Soldier::of_rank(rank, suit).unwrap()
}

/// A position being built: the builder and, per side, the soldiers not
/// yet placed (which end in the hand).
pub struct Position {
    pub builder: PositionBuilder,
    free: [CardSet; 2],
}

/// `round`'s first battle where `A` (P0, the first attacker) has laid the
/// ranks `att` and `D` (P1) the ranks `def`, face down; every other
/// soldier is in its owner's hand.
pub fn position(rules: Rules, round: u16, att: &[u8], def: &[u8]) -> Position {
    let mut builder = PositionBuilder::new(rules)
        .round(round)
        .first(A)
        .attacker(A)
        .battle_no(1);
    let mut free = [CardSet::ALL; 2];
    for (p, ranks) in [(A, att), (D, def)] {
        let line: Vec<LineCard> = ranks
            .iter()
            .map(|&r| LineCard::down(take(r, &mut free[p.index()])))
            .collect();
        builder = builder.line(p, &line);
    }
    Position { builder, free }
}

impl Position {
    /// Puts the soldiers of `ranks` of `p`'s hand into his pile, unseen by
    /// the opponent.
    pub fn pile(mut self, p: PlayerId, ranks: &[u8]) -> Self {
        let cards = self.cards(p, ranks);
        self.builder = self.builder.pile(p, cards);
        self
    }

    /// Sets the soldiers of `ranks` of `p`'s hand aside.
    pub fn aside(mut self, p: PlayerId, ranks: &[u8]) -> Self {
        let cards = self.cards(p, ranks);
        self.builder = self.builder.aside(p, cards);
        self
    }

    fn cards(&mut self, p: PlayerId, ranks: &[u8]) -> CardSet {
        ranks
            .iter()
            .map(|&r| take(r, &mut self.free[p.index()]))
            .collect()
    }

    /// Changes anything else.
    pub fn with(mut self, f: impl FnOnce(PositionBuilder) -> PositionBuilder) -> Self {
        self.builder = f(self.builder);
        self
    }

    /// The lines are laid: the fights begin.
    pub fn fights(self) -> CardWar {
        let g = self.builder.begin_fights().build().unwrap();
        check(&g);
        g
    }

    /// The position as built, in the phase given.
    pub fn at(self, phase: Phase) -> CardWar {
        let g = self.builder.phase(phase).build().unwrap();
        check(&g);
        g
    }
}

/// A battle of `round` where `A` attacks with the ranks `att` and `D`
/// defends with `def`, the fights begun; every other soldier is in its
/// owner's hand.
pub fn battle(rules: Rules, round: u16, att: &[u8], def: &[u8]) -> CardWar {
    position(rules, round, att, def).fights()
}

/// Every invariant holds: the state survives its notation and its JSON,
/// which validate it as a built or loaded state.
pub fn check(g: &CardWar) {
    let text = g.to_notation();
    match CardWar::from_notation(&text) {
        Ok(back) => assert_eq!(&back, g, "notation round trip of\n{text}"),
        Err(e) => panic!("{e}: {text}\n{g}"),
    }
    let json = serde_json::to_string(g).unwrap();
    assert_eq!(&serde_json::from_str::<CardWar>(&json).unwrap(), g);
}

/// Applies a legal action and checks every invariant.
pub fn act(g: &mut CardWar, a: Action) {
    assert!(g.is_legal(a), "{a} is illegal in\n{g}");
    g.apply(a).unwrap();
    check(g);
}

/// Declines every prayer question, then rolls the two dice of a fight.
pub fn fight(g: &mut CardWar, attack_die: u8, defence_die: u8) {
    decline(g);
    assert_eq!(g.phase(), Phase::AttackDie, "{g}");
    act(g, Action::Die(attack_die));
    act(g, Action::Die(defence_die));
}

/// Declines the prayer questions now due.
pub fn decline(g: &mut CardWar) {
    while let Phase::Pray { .. } = g.phase() {
        act(g, Action::Decline);
    }
}

/// Plays to the end, each action chosen by `choose` among the legal ones.
pub fn play_out(g: &mut CardWar, mut choose: impl FnMut(&CardWar, &[Action]) -> Action) {
    let mut legal = Vec::new();
    let max = g.rules().max_game_length() as usize;
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

/// Asserts the heuristic's promise for one decision: among the cards it
/// may lay, the strongest; never a reserve while a card can be laid; a
/// prayer at the first chance.
pub fn assert_plays_as_the_heuristic(legal: &[Action], choice: Action) {
    let strongest = legal
        .iter()
        .filter_map(|a| match a {
            Action::Place(s) => Some(s.strength()),
            _ => None,
        })
        .max();
    match (strongest, choice) {
        (Some(best), Action::Place(s)) => assert_eq!(s.strength(), best, "weaker card first"),
        (Some(_), Action::EndLine) => panic!("kept a reserve"),
        _ => {}
    }
    if legal.contains(&Action::Pray) {
        assert_eq!(choice, Action::Pray, "did not pray at the first chance");
    }
}
