//! The opponent's answer in each imagined future: the one tactics card he
//! plays next, where it takes most from the viewer: a wild card (a Leader,
//! Companion Cavalry, Shield Bearers) on his side of a flag, or a Traitor or
//! Deserter on the viewer's best card there. The flags are otherwise judged
//! one by one; this is the ply that lets one card turn a flag the sampled
//! troops alone would have settled.

use game_traits::PlayerId;

use crate::card::{Card, CardSet, Tactic};
use crate::flag::{Flag, FLAGS};
use crate::formation::Strength;
use crate::rules::{LeaderLimit, Rules};
use crate::state::Table;

use super::memo::Solver;
use super::odds::{self, Standing};
use super::Weights;

/// The tactics a player may play next: his strongest wild card and
/// whether he holds a Traitor or Deserter (and which).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Arsenal {
    wild: Option<Card>,
    steal: Option<Tactic>,
}

impl Arsenal {
    /// The tactics of `cards` that `player` may play next on `table`, the
    /// tactics limit counted with `extra` more tactics played by the other
    /// than the table shows (1 when the other's play being judged is a
    /// tactic).
    pub(super) fn new(
        cards: CardSet,
        table: &Table,
        player: PlayerId,
        rules: &Rules,
        extra: i16,
    ) -> Arsenal {
        let played = i16::from(table.tactics_played(player));
        let limit = i16::from(table.tactics_played(player.other())) + extra;
        if cards.is_empty() || played > limit {
            return Arsenal::default();
        }
        let leader = match rules.leader_limit {
            LeaderLimit::OncePerGame => !table.leader_played(player),
            LeaderLimit::OneOnTable => !table.flags().iter().any(|f| {
                f.side(player)
                    .iter()
                    .any(|c| c.as_tactic().is_some_and(Tactic::is_leader))
            }),
        };
        let has = |t| cards.contains(Card::tactic(t));
        let wild = [Tactic::Alexander, Tactic::Darius]
            .into_iter()
            .filter(|_| leader)
            .chain([Tactic::CompanionCavalry, Tactic::ShieldBearers])
            .find(|&t| has(t))
            .map(Card::tactic);
        let steal = [Tactic::Traitor, Tactic::Deserter]
            .into_iter()
            .find(|&t| has(t));
        Arsenal { wild, steal }
    }

    /// Whether there is nothing to play.
    pub(super) fn is_empty(&self) -> bool {
        self.wild.is_none() && self.steal.is_none()
    }
}

/// One flag as an answer would leave it: its standing and the strength
/// the changed side can still reach.
type Changed = Option<(Standing, Option<Strength>)>;

/// Per flag, what each answer of `player` would make of it: his wild card
/// on his side, his steal of the other's card that hurts most.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Answers {
    wild: [Changed; FLAGS],
    steal: [Changed; FLAGS],
}

/// What `player`'s answers can do on `flags`, his side completed from
/// `pool` and the other's from `other_pool` (troop bits).
pub(super) struct Board<'a> {
    pub solver: &'a Solver<'a>,
    pub player: PlayerId,
    pub arsenal: Arsenal,
    pub pool: u64,
    pub other_pool: u64,
}

impl Board<'_> {
    /// The answers at every flag of `flags`.
    pub(super) fn answers(&self, flags: &[Flag; FLAGS]) -> Answers {
        let mut a = Answers {
            wild: [None; FLAGS],
            steal: [None; FLAGS],
        };
        self.refresh(&mut a, flags, u16::MAX);
        a
    }

    /// Recomputes the answers at the flags of `changed` (a bit a flag).
    pub(super) fn refresh(&self, a: &mut Answers, flags: &[Flag; FLAGS], changed: u16) {
        for (g, f) in flags.iter().enumerate() {
            if changed >> g & 1 == 0 {
                continue;
            }
            a.wild[g] = self.wild_at(f);
            a.steal[g] = self.steal_at(f);
        }
    }

    fn wild_at(&self, f: &Flag) -> Changed {
        let wild = self.arsenal.wild?;
        if f.claimed().is_some() {
            return None;
        }
        let mut f2 = *f;
        f2.place(self.player, wild).ok()?;
        let s = self.solver.best_strength(&f2, self.player, self.pool);
        Some((Standing::of(&f2), s))
    }

    /// The other's card whose loss leaves his side weakest (completed from
    /// his pool).
    fn steal_at(&self, f: &Flag) -> Changed {
        let steal = self.arsenal.steal?;
        let victim = self.player.other();
        if f.claimed().is_some() {
            return None;
        }
        let side = f.side(victim);
        side.iter()
            .filter(|c| c.is_troop() || steal == Tactic::Deserter)
            .filter_map(|c| {
                let mut f2 = *f;
                f2.take(victim, c).ok()?;
                let s = self.solver.best_strength(&f2, victim, self.other_pool);
                Some((Standing::of(&f2), s))
            })
            .min_by(|a, b| a.1.cmp(&b.1))
    }
}

/// The viewer's shares of the flags after the opponent's best answer: the
/// one that takes most share from the viewer (among equal ones, the flag
/// with most neighbours already his, which a breakthrough needs). `mine`
/// and `theirs` are the viewer's and the opponent's sides as completed.
pub(super) fn answer(
    shares: &mut [f64; FLAGS],
    answers: &Answers,
    me: PlayerId,
    (mine, theirs): (&[Option<Strength>; FLAGS], &[Option<Strength>; FLAGS]),
    w: &Weights,
) {
    let mut best: Option<(f64, usize, f64)> = None;
    for g in 0..FLAGS {
        let options = [
            answers.wild[g].map(|(f, s)| odds::share_at(f, me, mine[g], s, w)),
            answers.steal[g].map(|(f, s)| odds::share_at(f, me, s, theirs[g], w)),
        ];
        let his = |h: Option<usize>| h.and_then(|h| shares.get(h)).is_some_and(|&s| s < 0.5);
        let neighbours = [g.checked_sub(1), Some(g + 1)]
            .into_iter()
            .filter(|&h| his(h))
            .count() as f64;
        for after in options.into_iter().flatten() {
            let taken = shares[g] - after;
            let gain = taken + 0.01 * neighbours;
            if taken > 1e-9 && best.is_none_or(|(b, ..)| gain > b) {
                best = Some((gain, g, after));
            }
        }
    }
    if let Some((_, g, after)) = best {
        shares[g] = after;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Colour;
    use crate::formation::FormationOrder;
    use crate::state::Table;

    fn troop(colour: Colour, value: u8) -> Card {
        Card::troop(colour, value).unwrap()
    }

    /// The viewer holds a Wedge 7-8-9 at flag 4; the opponent a 9 and a 10
    /// of one colour, and no cards left to complete them but his `hand`.
    fn answered(hand: CardSet) -> f64 {
        let me = PlayerId::P0;
        let him = me.other();
        let mut flags = [Flag::new(); FLAGS];
        for v in [7, 8, 9] {
            flags[4].place(me, troop(Colour::Red, v)).unwrap();
        }
        for v in [9, 10] {
            flags[4].place(him, troop(Colour::Blue, v)).unwrap();
        }
        let rules = Rules::default();
        let table = Table::new(me);
        let arsenal = Arsenal::new(hand, &table, him, &rules, 0);
        let solver = Solver::new(&rules, CardSet::ALL_TROOPS.troop_bits());
        let board = Board {
            solver: &solver,
            player: him,
            arsenal,
            pool: 0,
            other_pool: 0,
        };
        let answers = board.answers(&flags);
        let w = Weights::default();
        let order = FormationOrder::Text;
        let mine: [Option<Strength>; FLAGS] = std::array::from_fn(|g| flags[g].strength(me, order));
        let theirs = [None; FLAGS];
        let mut shares: [f64; FLAGS] =
            std::array::from_fn(|g| odds::share(&flags[g], me, mine[g], theirs[g], &w));
        if !arsenal.is_empty() {
            answer(&mut shares, &answers, me, (&mine, &theirs), &w);
        }
        shares[4]
    }

    #[test]
    fn opponent_answers_with_a_leader_on_the_flag_it_turns() {
        let without = answered(CardSet::EMPTY);
        assert!(without > 0.5, "{without}");
        // A Leader makes his 8-9-10 Wedge, above the viewer's 7-8-9.
        let with = answered([Card::tactic(Tactic::Alexander)].into_iter().collect());
        assert_eq!(with, 0.0);
    }

    #[test]
    fn opponent_answers_with_a_deserter_on_the_viewers_key_card() {
        // Without the red 8 the viewer's side cannot be completed from an
        // empty pool: a side of unforeseen cards, below the Wedge it was.
        let without = answered(CardSet::EMPTY);
        let with = answered([Card::tactic(Tactic::Deserter)].into_iter().collect());
        assert!(with < without, "{with} against {without}");
    }
}
