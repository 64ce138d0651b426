//! Kuhn poker: the smallest game with chance, hidden information and two
//! players, used to prove the trait, the test-kit and generic agents.
//!
//! Three cards (Jack < Queen < King); each player antes one chip and is dealt
//! one card (two chance events). Player 0 checks or bets one chip; after a
//! check player 1 checks (showdown for the antes) or bets, and player 0 then
//! folds or calls; after a bet the other player folds or calls. The higher
//! card wins the pot at showdown; cards are shown only at a showdown.

use std::fmt;

use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Encode, Game, Outcome, PlayerId, RuleSet, TensorLayout, Turn};

/// A card of the three-card deck (on the wire, its name: `"Jack"`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum Card {
    /// The lowest card.
    Jack,
    /// The middle card.
    Queen,
    /// The highest card.
    King,
}

const CARDS: [Card; 3] = [Card::Jack, Card::Queen, Card::King];

/// A deal (chance) or a player's decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum KuhnAction {
    /// Chance: the next player is dealt this card.
    Deal(Card),
    /// Check, or fold when facing a bet.
    Pass,
    /// Bet, or call when facing a bet.
    Bet,
}

impl fmt::Display for KuhnAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KuhnAction::Deal(c) => write!(f, "deal {}", card_letter(*c)),
            KuhnAction::Pass => f.write_str("pass"),
            KuhnAction::Bet => f.write_str("bet"),
        }
    }
}

/// Why a text names no Kuhn poker action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a Kuhn poker action: expected pass, bet or deal J, Q or K")]
pub struct KuhnParseError(pub String);

/// Reads what [`Display`](fmt::Display) writes (`deal K`, `pass`, `bet`),
/// in any case, and the poker words for the same decisions: check or fold
/// for a pass, call for a bet.
impl std::str::FromStr for KuhnAction {
    type Err = KuhnParseError;

    fn from_str(s: &str) -> Result<KuhnAction, KuhnParseError> {
        let lower = s.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        match words.as_slice() {
            ["pass" | "check" | "fold"] => Ok(KuhnAction::Pass),
            ["bet" | "call"] => Ok(KuhnAction::Bet),
            ["deal", card] => CARDS
                .into_iter()
                .find(|&c| card.eq_ignore_ascii_case(&card_letter(c).to_string()))
                .map(KuhnAction::Deal)
                .ok_or_else(|| KuhnParseError(s.to_owned())),
            _ => Err(KuhnParseError(s.to_owned())),
        }
    }
}

fn card_letter(c: Card) -> char {
    match c {
        Card::Jack => 'J',
        Card::Queen => 'Q',
        Card::King => 'K',
    }
}

/// A deal or a decision as one player sees it: the card dealt to the
/// other player stays hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum KuhnView {
    /// `to` was dealt a card, shown only to him.
    Deal {
        /// Who received the card.
        to: PlayerId,
        /// The card, when the viewer is the one who received it.
        card: Option<Card>,
    },
    /// A check or fold.
    Pass,
    /// A bet or call.
    Bet,
}

impl fmt::Display for KuhnView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KuhnView::Deal { to, card: Some(c) } => write!(f, "{to} is dealt {}", card_letter(*c)),
            KuhnView::Deal { to, card: None } => write!(f, "{to} is dealt a card"),
            KuhnView::Pass => f.write_str("pass"),
            KuhnView::Bet => f.write_str("bet"),
        }
    }
}

/// Why a Kuhn poker action or state was refused: the workspace's error
/// vocabulary.
pub type KuhnError = crate::GameError<KuhnAction>;

/// A game of Kuhn poker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawKuhn", into = "RawKuhn")]
pub struct KuhnPoker {
    rules: KuhnRules,
    cards: [Option<Card>; 2],
    /// Decisions so far (`Pass`/`Bet`), at most three.
    history: Vec<KuhnAction>,
}

#[derive(Serialize, Deserialize)]
struct RawKuhn {
    rules: KuhnRules,
    cards: [Option<Card>; 2],
    history: Vec<KuhnAction>,
}

impl From<KuhnPoker> for RawKuhn {
    fn from(k: KuhnPoker) -> Self {
        RawKuhn {
            rules: k.rules,
            cards: k.cards,
            history: k.history,
        }
    }
}

impl TryFrom<RawKuhn> for KuhnPoker {
    type Error = KuhnError;
    fn try_from(raw: RawKuhn) -> Result<Self, KuhnError> {
        // Rebuild by replaying, so every reachable-state invariant holds.
        let mut k = KuhnPoker::new(&raw.rules)?;
        if raw.cards[0].is_none() && raw.cards[1].is_some() {
            return Err(KuhnError::InvalidState(
                "second card dealt before the first",
            ));
        }
        for c in raw.cards {
            match c {
                Some(c) => k
                    .apply(KuhnAction::Deal(c))
                    .map_err(|_| KuhnError::InvalidState("deal"))?,
                None if raw.history.is_empty() => {}
                None => return Err(KuhnError::InvalidState("decision before the deal")),
            }
        }
        for &a in &raw.history {
            if matches!(a, KuhnAction::Deal(_)) {
                return Err(KuhnError::InvalidState("deal in the betting history"));
            }
            k.apply(a)
                .map_err(|_| KuhnError::InvalidState("betting history"))?;
        }
        Ok(k)
    }
}

impl KuhnPoker {
    fn dealt(&self) -> usize {
        self.cards.iter().flatten().count()
    }

    fn ended(&self) -> bool {
        use KuhnAction::*;
        matches!(
            self.history.as_slice(),
            [Pass, Pass] | [Bet, _] | [Pass, Bet, _]
        )
    }

    fn showdown(&self) -> bool {
        use KuhnAction::*;
        matches!(
            self.history.as_slice(),
            [Pass, Pass] | [Bet, Bet] | [Pass, Bet, Bet]
        )
    }

    /// Chips player `p` has put in, ante included.
    fn stake(&self, p: usize) -> f64 {
        let bets = self
            .history
            .iter()
            .enumerate()
            .filter(|(i, a)| i % 2 == p && **a == KuhnAction::Bet)
            .count();
        f64::from(self.rules.ante) + bets as f64
    }
}

impl fmt::Display for KuhnPoker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |c: Option<Card>| c.map_or('-', card_letter);
        write!(
            f,
            "cards {}{} history",
            show(self.cards[0]),
            show(self.cards[1])
        )?;
        for a in &self.history {
            write!(f, " {a}")?;
        }
        Ok(())
    }
}

/// What one player of Kuhn poker knows: his card, the betting, and the
/// other card once shown down.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KuhnObservation {
    rules: KuhnRules,
    player: PlayerId,
    own: Option<Card>,
    dealt: u8,
    history: Vec<KuhnAction>,
    shown: Option<Card>,
}

impl fmt::Display for KuhnObservation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |c: Option<Card>| c.map_or('?', card_letter);
        write!(f, "{} holds {}", self.player, show(self.own))?;
        if let Some(c) = self.shown {
            write!(f, ", other shows {}", card_letter(c))?;
        }
        f.write_str(", history")?;
        for a in &self.history {
            write!(f, " {a}")?;
        }
        Ok(())
    }
}

impl Game for KuhnPoker {
    type Rules = KuhnRules;
    type Action = KuhnAction;
    type Observation = KuhnObservation;
    type Error = KuhnError;
    type ActionView = KuhnView;

    const NAME: &'static str = "kuhn-poker";
    const TITLE: &'static str = "Kuhn Poker";

    fn new(rules: &KuhnRules) -> Result<Self, KuhnError> {
        rules.validate()?;
        Ok(KuhnPoker {
            rules: *rules,
            cards: [None; 2],
            history: Vec::new(),
        })
    }

    fn rules(&self) -> &KuhnRules {
        &self.rules
    }

    fn turn(&self) -> Turn {
        if self.dealt() < 2 {
            Turn::Chance
        } else if self.ended() {
            Turn::Terminal
        } else {
            Turn::Player(PlayerId::BOTH[self.history.len() % 2])
        }
    }

    fn legal_actions(&self, out: &mut Vec<KuhnAction>) {
        out.clear();
        match self.turn() {
            Turn::Chance => out.extend(
                CARDS
                    .iter()
                    .filter(|c| !self.cards.contains(&Some(**c)))
                    .map(|&c| KuhnAction::Deal(c)),
            ),
            Turn::Player(_) => out.extend([KuhnAction::Pass, KuhnAction::Bet]),
            Turn::Terminal => {}
        }
    }

    fn check_action(&self, action: KuhnAction) -> Result<(), KuhnError> {
        let reason = match (self.turn(), action) {
            (Turn::Chance, KuhnAction::Deal(c)) if self.cards.contains(&Some(c)) => {
                "that card is already dealt"
            }
            (Turn::Chance, KuhnAction::Deal(_)) => return Ok(()),
            (Turn::Player(_), KuhnAction::Pass | KuhnAction::Bet) => return Ok(()),
            (Turn::Terminal, _) => "the game is over",
            (Turn::Chance, _) => "a card is due",
            (Turn::Player(_), KuhnAction::Deal(_)) => "a player decides now",
        };
        Err(KuhnError::IllegalAction { action, reason })
    }

    fn apply_unchecked(&mut self, action: KuhnAction) {
        match action {
            KuhnAction::Deal(c) => {
                if let Some(slot) = self.cards.iter_mut().find(|c| c.is_none()) {
                    *slot = Some(c);
                }
            }
            a if self.history.len() < 3 => self.history.push(a),
            _ => {}
        }
    }

    fn action_view(&self, viewer: PlayerId, action: KuhnAction) -> KuhnView {
        match action {
            KuhnAction::Deal(card) => {
                let to = PlayerId::BOTH[self.dealt().min(1)];
                KuhnView::Deal {
                    to,
                    card: (to == viewer).then_some(card),
                }
            }
            KuhnAction::Pass => KuhnView::Pass,
            KuhnAction::Bet => KuhnView::Bet,
        }
    }

    /// Worded from its events ([`KuhnEvent`]): "you: bet", "P1: pass",
    /// "you are dealt K".
    fn narrate(
        viewer: PlayerId,
        before: &KuhnObservation,
        view: &KuhnView,
        after: &KuhnObservation,
    ) -> String {
        crate::narrate_events::<Self>(viewer, before, view, after)
    }

    fn chance_outcomes(&self, out: &mut Vec<(KuhnAction, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            let left = 3 - self.dealt();
            out.extend(
                CARDS
                    .iter()
                    .filter(|c| !self.cards.contains(&Some(**c)))
                    .map(|&c| (KuhnAction::Deal(c), 1.0 / left as f64)),
            );
        }
    }

    fn observation(&self, player: PlayerId) -> KuhnObservation {
        let p = player.index();
        KuhnObservation {
            rules: self.rules,
            player,
            own: self.cards[p],
            dealt: self.dealt() as u8,
            history: self.history.clone(),
            shown: if self.showdown() {
                self.cards[1 - p]
            } else {
                None
            },
        }
    }

    fn determinize<R: Rng + ?Sized>(obs: &KuhnObservation, rng: &mut R) -> Result<Self, KuhnError> {
        let p = obs.player.index();
        if obs.dealt > 2 || (obs.own.is_some() != (obs.dealt as usize > p)) {
            return Err(KuhnError::InvalidObservation("observation"));
        }
        let mut cards = [None; 2];
        cards[p] = obs.own;
        if obs.dealt as usize > 1 - p {
            cards[1 - p] = match obs.shown {
                Some(c) => Some(c),
                None => {
                    let free: Vec<Card> =
                        CARDS.into_iter().filter(|c| Some(*c) != obs.own).collect();
                    Some(free[rng.random_range(0..free.len())])
                }
            };
        }
        let raw = RawKuhn {
            rules: obs.rules,
            cards,
            history: obs.history.clone(),
        };
        let state = KuhnPoker::try_from(raw)?;
        if state.observation(obs.player) != *obs {
            return Err(KuhnError::InvalidObservation("observation"));
        }
        Ok(state)
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.ended() {
            return None;
        }
        let winner = if self.showdown() {
            usize::from(self.cards[1] > self.cards[0])
        } else {
            // The player who folded is the one who passed last.
            1 - (self.history.len() - 1) % 2
        };
        Some(Outcome::Win(PlayerId::BOTH[winner]))
    }

    fn returns(&self, player: PlayerId) -> f64 {
        match self.outcome() {
            Some(Outcome::Win(w)) => {
                let loser = 1 - w.index();
                let won = self.stake(loser);
                if w == player {
                    won
                } else {
                    -won
                }
            }
            _ => 0.0,
        }
    }

    fn move_count(&self) -> u32 {
        self.history.len() as u32
    }
}

/// The tensor: the viewer's seat, his card, the other card once shown, and
/// each of the three betting steps as pass or bet, all one-hot.
impl Encode for KuhnPoker {
    fn tensor_layout(_: &KuhnRules) -> TensorLayout {
        TensorLayout::of_parts(&[
            ("seat", 2),
            ("own_card", 3),
            ("shown_card", 3),
            ("betting", 6),
        ])
    }

    type Written = ();

    fn encode(obs: &KuhnObservation, out: &mut [f32]) {
        let mut values = [0.0f32; 14];
        values[obs.player.index()] = 1.0;
        if let Some(c) = obs.own {
            values[2 + c as usize] = 1.0;
        }
        if let Some(c) = obs.shown {
            values[5 + c as usize] = 1.0;
        }
        for (i, a) in obs.history.iter().take(3).enumerate() {
            values[8 + 2 * i + usize::from(*a == KuhnAction::Bet)] = 1.0;
        }
        for (slot, v) in out.iter_mut().zip(values) {
            *slot = v;
        }
    }

    fn information_state_string(obs: &KuhnObservation) -> String {
        let show = |c: Option<Card>| c.map_or('?', card_letter);
        let history: String = obs
            .history
            .iter()
            .map(|a| if *a == KuhnAction::Bet { 'b' } else { 'p' })
            .collect();
        format!(
            "{} {}{} d{} {}",
            obs.player,
            show(obs.own),
            obs.shown
                .map_or(String::new(), |c| format!("/{}", card_letter(c))),
            obs.dealt,
            history
        )
    }
}

mod rules;
mod wire;
pub use rules::KuhnRules;
pub use wire::{KuhnActionStruct, KuhnEvent, KuhnObservationStruct, KuhnViewStruct};
