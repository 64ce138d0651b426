//! Kuhn poker's rule set: one option, the ante.

use serde::{Deserialize, Serialize};

use super::{KuhnAction, KuhnError, CARDS};
use crate::{ChanceMode, Preset, RuleSet};

/// The only option: the ante each player puts in (the bet is one chip).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KuhnRules {
    /// Chips each player puts in before the deal (1 in the classic game),
    /// 1..=100.
    pub ante: u8,
}

impl Default for KuhnRules {
    fn default() -> Self {
        KuhnRules { ante: 1 }
    }
}

impl RuleSet for KuhnRules {
    type Action = KuhnAction;
    type Error = KuhnError;

    fn validate(&self) -> Result<(), KuhnError> {
        if !(1..=100).contains(&self.ante) {
            return Err(KuhnError::InvalidRules("ante must be 1..=100"));
        }
        Ok(())
    }

    fn action_space(&self) -> usize {
        5
    }

    fn action_id(&self, action: KuhnAction) -> usize {
        match action {
            KuhnAction::Deal(c) => c as usize,
            KuhnAction::Pass => 3,
            KuhnAction::Bet => 4,
        }
    }

    fn action_from_id(&self, id: usize) -> Option<KuhnAction> {
        match id {
            0..=2 => Some(KuhnAction::Deal(CARDS[id])),
            3 => Some(KuhnAction::Pass),
            4 => Some(KuhnAction::Bet),
            _ => None,
        }
    }

    fn is_chance_outcome(&self, action: KuhnAction) -> bool {
        matches!(action, KuhnAction::Deal(_))
    }

    fn max_game_length(&self) -> u32 {
        5
    }

    fn chance_mode(&self) -> ChanceMode {
        ChanceMode::ExplicitStochastic
    }

    fn return_bounds(&self) -> (f64, f64) {
        let max = f64::from(self.ante) + 1.0;
        (-max, max)
    }

    fn presets() -> Vec<Preset<Self>> {
        vec![
            Preset::new(
                "classic",
                "Classic",
                "Ante 1, bet 1: the textbook game.",
                "ante 1, bet 1 (the textbook game)",
                KuhnRules { ante: 1 },
            ),
            Preset::new(
                "high",
                "High ante",
                "Ante 3, bet 1: calling is cheaper.",
                "ante 3, bet 1",
                KuhnRules { ante: 3 },
            ),
        ]
    }

    crate::parameter_table! {
        ante: Int { min: 1, max: 100 }, "chips each player puts in before the deal (1..=100)";
    }
}
