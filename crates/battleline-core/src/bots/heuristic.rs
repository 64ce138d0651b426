//! The heuristic bot: claims whenever the proof holds and plays each troop
//! card where it keeps the strongest formation possible.

use game_traits::{best_scored, Agent, GameRng, PlayerId};

use crate::action::Action;
use crate::card::{Card, CardKind, CardSet, Colour, Deck};
use crate::flag::Flag;
use crate::formation::{formation_strength, Environment, FormationOrder, Strength};
use crate::observation::Observation;
use crate::proof::available_troops;
use crate::state::BattleLine;

/// A formation strength as one number: class rank first, then the sum.
fn points(strength: Strength) -> f64 {
    f64::from(strength.rank()) * 64.0 + f64::from(strength.sum())
}

/// The strongest formation `cards` can still become at a flag of `env`
/// with cards from `available`, in [`points`]; `None` when it cannot be
/// completed at all. Formations missing three or more cards count as the
/// strongest there is (nearly anything is still possible).
fn potential(
    cards: &[Card],
    env: Environment,
    order: FormationOrder,
    available: CardSet,
) -> Option<f64> {
    let slots = env.slots();
    let best_possible = || {
        let red = |v| Card::troop(Colour::Red, v);
        let wedge: Option<Vec<Card>> = (11 - slots as u8..=10).map(red).collect();
        wedge
            .and_then(|w| formation_strength(&w, env, order))
            .map(points)
    };
    let mut buffer = cards.to_vec();
    match slots.checked_sub(cards.len())? {
        0 => formation_strength(cards, env, order).map(points),
        1 => available
            .iter()
            .filter_map(|a| {
                buffer.truncate(cards.len());
                buffer.push(a);
                formation_strength(&buffer, env, order).map(points)
            })
            .reduce(f64::max),
        2 => {
            let pool: Vec<Card> = available.iter().collect();
            let mut best: Option<f64> = None;
            for (i, &a) in pool.iter().enumerate() {
                for &b in &pool[i + 1..] {
                    buffer.truncate(cards.len());
                    buffer.extend([a, b]);
                    if let Some(p) = formation_strength(&buffer, env, order).map(points) {
                        best = Some(best.map_or(p, |q| q.max(p)));
                    }
                }
            }
            best
        }
        _ => best_possible(),
    }
}

/// A bot with a few lines of Battle Line knowledge, much stronger than
/// random play and fast enough for playouts.
///
/// It claims every flag it can prove (the engine lists a claim only when
/// the proof holds); otherwise plays the troop card and flag that lose
/// the least of the strongest formation still possible there, preferring
/// high cards; draws troops, returns its weakest cards after a Scout, and
/// plays tactics only when no troop card can be played. Equal-looking
/// choices are broken by a little noise from the seat's generator.
///
/// ```
/// use battleline_core::{BattleLine, Heuristic, Rules};
/// use battleline_core::game_traits::{play_match, RandomAgent};
/// let (mut bot, mut random) = (Heuristic, RandomAgent);
/// let (game, _) = play_match::<BattleLine>(&Rules::default(), 3, &mut [&mut bot, &mut random]).unwrap();
/// # use battleline_core::Game;
/// assert!(game.outcome().is_some());
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

impl Heuristic {
    fn scores(obs: &Observation, legal: &[Action]) -> Vec<f64> {
        let me: PlayerId = obs.viewer();
        let table = obs.table();
        let order = obs.rules().formation_order;
        let visible = table
            .discards(PlayerId::P0)
            .union(table.discards(PlayerId::P1))
            .union(obs.known_opponent_cards());
        // Cards that may still come to us: unseen ones and our hand.
        let available = available_troops(table.flags(), visible);
        let side = |flag: &Flag| -> Vec<Card> { flag.side(me).iter().collect() };
        let before: Vec<Option<f64>> = table
            .flags()
            .iter()
            .map(|f| potential(&side(f), f.env(), order, available))
            .collect();
        legal
            .iter()
            .map(|&action| match action {
                Action::Claim(_) => 1000.0,
                Action::Play { card, flag } => match card.kind() {
                    CardKind::Troop(_, value) => {
                        let f = &table.flags()[flag.index()];
                        let mut cards = side(f);
                        cards.push(card);
                        let mut rest = available;
                        rest.remove(card);
                        let after = potential(&cards, f.env(), order, rest);
                        let lost = match (before[flag.index()], after) {
                            (Some(b), Some(a)) => b - a,
                            (None, Some(_)) => 0.0,
                            // A formation that can no longer be completed
                            // wins nothing.
                            (_, None) => 500.0,
                        };
                        // Finishing a formation, and high cards, break ties.
                        let done = if cards.len() == f.env().slots() {
                            5.0
                        } else {
                            0.0
                        };
                        100.0 - lost + done + f64::from(value) * 0.2
                    }
                    CardKind::Tactic(_) => -10.0,
                },
                Action::Draw(Deck::Troop) => 2.0,
                Action::Draw(Deck::Tactics) => 1.0,
                Action::Return(card) => match card.kind() {
                    CardKind::Troop(_, value) => 20.0 - f64::from(value),
                    CardKind::Tactic(_) => 15.0,
                },
                Action::Pass | Action::EndTurn => 0.0,
                Action::Scout
                | Action::Redeploy { .. }
                | Action::Deserter { .. }
                | Action::Traitor { .. } => -10.0,
                Action::Deal(_) => -100.0,
            })
            .collect()
    }
}

impl Agent<BattleLine> for Heuristic {
    fn name(&self) -> String {
        "heuristic".to_owned()
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        let scores = Self::scores(obs, legal);
        let index: Vec<usize> = (0..legal.len()).collect();
        let best = best_scored(&index, rng, |i| scores[i]);
        legal[best]
    }
}
