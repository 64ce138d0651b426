//! The three rule sets: their pieces, counts, names and combat tables.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::kind::{Kind, KindSet};

/// Which of the three rule sets is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Variant {
    /// The Soviet "Сражение": rank 1 Marshal strongest, 10 Scout weakest.
    Srazhenie,
    /// The Czech variant: eight-direction steps, orthogonal attacks.
    Czech,
    /// The international (ISF) classic rules: 10 Marshal ... 2 Scout, 1 Spy.
    Classic,
}

// Beside the variants rather than in `kind.rs`: which kinds an army has is
// the variant's to say, and the piece types stay free of the rule sets.
impl KindSet {
    /// The kinds `variant` uses.
    pub const fn of_variant(variant: Variant) -> KindSet {
        let mut bits = 0;
        let mut k = 0;
        while k < Kind::COUNT {
            if variant.count(Kind::ALL[k]) > 0 {
                bits |= 1 << k;
            }
            k += 1;
        }
        KindSet::from_bits(bits)
    }
}

impl Variant {
    /// All three rule sets.
    pub const ALL: [Variant; 3] = [Variant::Srazhenie, Variant::Czech, Variant::Classic];

    pub(crate) const fn index(self) -> usize {
        match self {
            Variant::Srazhenie => 0,
            Variant::Czech => 1,
            Variant::Classic => 2,
        }
    }

    /// How many pieces of `kind` each army has.
    pub const fn count(self, kind: Kind) -> u8 {
        COUNTS[self.index()][kind.index()]
    }

    /// The kinds this rule set uses, strongest rank first, then mine, flag.
    pub fn kinds(self) -> impl Iterator<Item = Kind> {
        Kind::ALL.into_iter().filter(move |&k| self.count(k) > 0)
    }

    /// The kind that moves any distance in a straight line, if any
    /// (`runner` is the Srazhenie "runner soldiers" option).
    pub const fn long_mover(self, runner: bool) -> Option<Kind> {
        match self {
            Variant::Srazhenie if runner => Some(Kind::R8),
            Variant::Srazhenie => None,
            Variant::Czech => Some(Kind::R6),
            Variant::Classic => Some(Kind::R8),
        }
    }

    /// The weak special piece that beats the Marshal (Srazhenie Scout,
    /// Czech Špión, classic Spy).
    pub const fn spy(self) -> Kind {
        match self {
            Variant::Czech => Kind::R8,
            _ => Kind::R9,
        }
    }

    /// The kind "Smart" setups put in the front row: the Soldier
    /// (Srazhenie), the Střelec (Czech), the Scout (Classic).
    pub const fn front_kind(self) -> Kind {
        match self {
            Variant::Czech => Kind::R5,
            _ => Kind::R8,
        }
    }

    /// The full name of `kind` in this rule set.
    pub fn name(self, kind: Kind) -> &'static str {
        NAMES[self.index()][kind.index()]
    }

    /// A two-character symbol of `kind` for board renderings.
    pub fn symbol(self, kind: Kind) -> &'static str {
        SYMBOLS[self.index()][kind.index()]
    }

    /// The letter of `kind` in the compact setup form (the Gravon letters
    /// for Classic: B mine/bomb, C the spy-like piece, then ascending
    /// strength, M flag).
    /// `None` for a kind the rule set does not have.
    pub fn letter(self, kind: Kind) -> Option<char> {
        if self.count(kind) == 0 {
            return None;
        }
        Some(match kind {
            Kind::MINE => 'B',
            Kind::FLAG => 'M',
            k => (b'C' + (self.spy().index() as u8).checked_sub(k.index() as u8)?) as char,
        })
    }

    /// The kind written by `letter` in the compact setup form.
    pub fn kind_of_letter(self, letter: char) -> Option<Kind> {
        self.kinds().find(|&k| self.letter(k) == Some(letter))
    }

    /// The result of `attacker` attacking `defender`.
    pub const fn fight(self, attacker: Kind, defender: Kind) -> Fight {
        FIGHTS[self.index()][attacker.index()][defender.index()]
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Srazhenie => "Srazhenie",
            Variant::Czech => "Czech",
            Variant::Classic => "Classic",
        })
    }
}

/// The result of one fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Fight {
    /// The defender leaves the board; the attacker takes its square.
    AttackerWins,
    /// The attacker leaves the board.
    DefenderWins,
    /// Both leave the board.
    BothLeave,
}

const COUNTS: [[u8; 12]; 3] = [
    [1, 1, 2, 3, 4, 4, 4, 5, 8, 1, 6, 1],
    [1, 1, 2, 3, 4, 5, 8, 6, 1, 0, 8, 1],
    [1, 1, 2, 3, 4, 4, 4, 5, 8, 1, 6, 1],
];

const NAMES: [[&str; 12]; 3] = [
    [
        "Marshal (1)",
        "General (2)",
        "Colonel (3)",
        "Major (4)",
        "Captain (5)",
        "Lieutenant (6)",
        "Sergeant (7)",
        "Sapper (8)",
        "Soldier (9)",
        "Scout (10)",
        "Mine",
        "Flag",
    ],
    [
        "Maršál",
        "Generál",
        "Kapitán",
        "Kadet",
        "Kaprál",
        "Střelec",
        "Průzkumník",
        "Minér",
        "Špión",
        "-",
        "Minové pole",
        "Prapor",
    ],
    [
        "Marshal (10)",
        "General (9)",
        "Colonel (8)",
        "Major (7)",
        "Captain (6)",
        "Lieutenant (5)",
        "Sergeant (4)",
        "Miner (3)",
        "Scout (2)",
        "Spy (1)",
        "Bomb",
        "Flag",
    ],
];

const SYMBOLS: [[&str; 12]; 3] = [
    [
        " 1", " 2", " 3", " 4", " 5", " 6", " 7", " 8", " 9", "10", " M", " F",
    ],
    [
        "Ma", "Ge", "Ka", "Kd", "Kp", "St", "Pr", "Mi", "Sp", "--", "MP", "Pp",
    ],
    [
        "10", " 9", " 8", " 7", " 6", " 5", " 4", " 3", " 2", " S", " B", " F",
    ],
];

const fn fight_table(spy: u8, spy_beats_defending_marshal: bool) -> [[Fight; 12]; 12] {
    let mut t = [[Fight::BothLeave; 12]; 12];
    let mut a = 0;
    while a < 12 {
        let mut d = 0;
        while d < 12 {
            t[a][d] = if d == 11 {
                Fight::AttackerWins
            } else if d == 10 {
                if a == Kind::MINER.index() {
                    Fight::AttackerWins
                } else {
                    Fight::DefenderWins
                }
            } else if a == spy as usize && d == 0 {
                Fight::AttackerWins
            } else if d == spy as usize && a == 0 && spy_beats_defending_marshal {
                Fight::DefenderWins
            } else if a < d {
                Fight::AttackerWins
            } else if a > d {
                Fight::DefenderWins
            } else {
                Fight::BothLeave
            };
            d += 1;
        }
        a += 1;
    }
    t
}

const FIGHTS: [[[Fight; 12]; 12]; 3] = [
    fight_table(9, false),
    fight_table(8, true),
    fight_table(9, false),
];

impl Variant {
    /// The kinds an attacker of `variant` beats `defender` with: what a
    /// hidden attacker that took the square of `defender` may be.
    pub const fn winners_against(self, defender: Kind) -> KindSet {
        let mut bits = 0;
        let mut a = 0;
        while a < Kind::COUNT {
            if matches!(
                FIGHTS[self.index()][a][defender.index()],
                Fight::AttackerWins
            ) {
                bits |= 1 << a;
            }
            a += 1;
        }
        KindSet::from_bits(bits)
            .and(KindSet::of_variant(self))
            .and(KindSet::MOBILE)
    }
}

impl Variant {
    /// The kinds an attacker of `variant` loses to `defender` with (the
    /// defender stays): what a hidden attacker that lost to `defender` may
    /// have been.
    pub const fn losers_against(self, defender: Kind) -> KindSet {
        let mut bits = 0;
        let mut a = 0;
        while a < Kind::COUNT {
            if matches!(
                FIGHTS[self.index()][a][defender.index()],
                Fight::DefenderWins
            ) {
                bits |= 1 << a;
            }
            a += 1;
        }
        KindSet::from_bits(bits)
            .and(KindSet::of_variant(self))
            .and(KindSet::MOBILE)
    }
}
