//! The prayer to the gods: the eleven results of 2d6.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The result of a prayer, one per sum of 2d6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Prayer {
    /// 2: +2 to the praying side's total in this fight.
    Grin,
    /// 3: +3 to the total.
    Pity,
    /// 4: +4 to the total.
    Condescension,
    /// 5: +5 health to the praying side's open card.
    Doctors,
    /// 6: the praying side's die is doubled.
    Hellfire,
    /// 7: one card from the pile joins the end of the line.
    Reinforcement,
    /// 8: the opponent's open card loses half its health and its next die
    /// is halved.
    Grenade,
    /// 9: the opponent's open card dies if wounded.
    Gangrene,
    /// 10: the opponent's soldiers on the field are revealed and the
    /// strongest is removed.
    Sniper,
    /// 11: a die's worth of cards from the pile join the end of the line.
    Paratroopers,
    /// 12: every opponent soldier on the field dies.
    AtomicBomb,
}

impl Prayer {
    /// The result of a 2d6 sum (2..=12).
    pub const fn from_sum(sum: u8) -> Option<Prayer> {
        Some(match sum {
            2 => Prayer::Grin,
            3 => Prayer::Pity,
            4 => Prayer::Condescension,
            5 => Prayer::Doctors,
            6 => Prayer::Hellfire,
            7 => Prayer::Reinforcement,
            8 => Prayer::Grenade,
            9 => Prayer::Gangrene,
            10 => Prayer::Sniper,
            11 => Prayer::Paratroopers,
            12 => Prayer::AtomicBomb,
            _ => return None,
        })
    }

    /// The name in the text, in English.
    pub const fn name(self) -> &'static str {
        match self {
            Prayer::Grin => "grin of the gods (+2)",
            Prayer::Pity => "pity of the gods (+3)",
            Prayer::Condescension => "condescension of the gods (+4)",
            Prayer::Doctors => "doctors (+5 health)",
            Prayer::Hellfire => "hellfire (die x2)",
            Prayer::Reinforcement => "reinforcement (1 card)",
            Prayer::Grenade => "grenade (half health, half die)",
            Prayer::Gangrene => "gangrene (wounded card dies)",
            Prayer::Sniper => "sniper-scout (strongest removed)",
            Prayer::Paratroopers => "paratroopers (a die's worth of cards)",
            Prayer::AtomicBomb => "atomic bomb (all soldiers die)",
        }
    }
}

impl fmt::Display for Prayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
