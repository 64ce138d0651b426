//! The three rule sets: their pieces, counts, names and combat tables.

use std::fmt;

use serde::{Deserialize, Serialize};

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
        COUNTS[self.index()][kind.0 as usize]
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
        NAMES[self.index()][kind.0 as usize]
    }

    /// A two-character symbol of `kind` for board renderings.
    pub fn symbol(self, kind: Kind) -> &'static str {
        SYMBOLS[self.index()][kind.0 as usize]
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
            k => (b'C' + self.spy().0.checked_sub(k.0)?) as char,
        })
    }

    /// The kind written by `letter` in the compact setup form.
    pub fn kind_of_letter(self, letter: char) -> Option<Kind> {
        self.kinds().find(|&k| self.letter(k) == Some(letter))
    }

    /// The result of `attacker` attacking `defender`.
    pub const fn fight(self, attacker: Kind, defender: Kind) -> Fight {
        FIGHTS[self.index()][attacker.0 as usize][defender.0 as usize]
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

/// A kind of piece, the same index in every rule set: ranks from the
/// strongest (`R0`, the Marshal) down, then [`Kind::MINE`] and
/// [`Kind::FLAG`]. The Czech army has nine ranks, so it does not use `R9`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Kind(u8);

impl Kind {
    /// The Marshal (Srazhenie 1, Czech Maršál, Classic 10).
    pub const R0: Kind = Kind(0);
    /// The General.
    pub const R1: Kind = Kind(1);
    /// Srazhenie Colonel, Czech Kapitán, Classic Colonel.
    pub const R2: Kind = Kind(2);
    /// Srazhenie Major, Czech Kadet, Classic Major.
    pub const R3: Kind = Kind(3);
    /// Srazhenie Captain, Czech Kaprál, Classic Captain.
    pub const R4: Kind = Kind(4);
    /// Srazhenie Lieutenant, Czech Střelec, Classic Lieutenant.
    pub const R5: Kind = Kind(5);
    /// Srazhenie Sergeant, Czech Průzkumník, Classic Sergeant.
    pub const R6: Kind = Kind(6);
    /// The mine clearer: Srazhenie Sapper, Czech Minér, Classic Miner.
    pub const R7: Kind = Kind(7);
    /// Srazhenie Soldier, Czech Špión, Classic Scout.
    pub const R8: Kind = Kind(8);
    /// Srazhenie Scout, Classic Spy (unused in Czech).
    pub const R9: Kind = Kind(9);
    /// The mine (bomb, minové pole): never moves.
    pub const MINE: Kind = Kind(10);
    /// The flag (знамя, prapor): never moves; capturing it wins.
    pub const FLAG: Kind = Kind(11);
    /// The kind that clears mines in every rule set.
    pub const MINER: Kind = Kind(7);
    /// Every kind index.
    pub const ALL: [Kind; 12] = [
        Kind(0),
        Kind(1),
        Kind(2),
        Kind(3),
        Kind(4),
        Kind(5),
        Kind(6),
        Kind(7),
        Kind(8),
        Kind(9),
        Kind(10),
        Kind(11),
    ];
    /// Number of kind indices.
    pub const COUNT: usize = 12;

    /// The kind with index `index` (0..12).
    pub const fn new(index: u8) -> Option<Kind> {
        if index < 12 {
            Some(Kind(index))
        } else {
            None
        }
    }

    /// The index (0..12).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether the kind can ever move (not a mine or flag).
    pub const fn is_mobile(self) -> bool {
        self.0 < 10
    }
}

impl TryFrom<u8> for Kind {
    type Error = String;
    fn try_from(v: u8) -> Result<Self, Self::Error> {
        Kind::new(v).ok_or_else(|| format!("no piece kind {v}"))
    }
}

impl From<Kind> for u8 {
    fn from(k: Kind) -> u8 {
        k.0
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
                if a == Kind::MINER.0 as usize {
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

/// A set of piece kinds, one bit per kind index: what an unrevealed piece
/// is known not to be (see [`ObsCell::Foe`](crate::ObsCell::Foe)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u16", into = "u16")]
pub struct KindSet(u16);

impl KindSet {
    /// No kind.
    pub const EMPTY: KindSet = KindSet(0);
    /// Every kind that can ever move (all but mine and flag).
    pub const MOBILE: KindSet = KindSet((1 << 10) - 1);
    const ALL_BITS: u16 = (1 << Kind::COUNT) - 1;

    /// The set holding only `kind`.
    pub const fn of(kind: Kind) -> KindSet {
        KindSet(1 << kind.0)
    }

    /// The kinds `variant` uses.
    pub const fn of_variant(variant: Variant) -> KindSet {
        let mut bits = 0;
        let mut k = 0;
        while k < Kind::COUNT {
            if COUNTS[variant.index()][k] > 0 {
                bits |= 1 << k;
            }
            k += 1;
        }
        KindSet(bits)
    }

    /// Whether `kind` is in the set.
    pub const fn contains(self, kind: Kind) -> bool {
        self.0 & (1 << kind.0) != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of kinds in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The kinds in both sets.
    pub const fn and(self, other: KindSet) -> KindSet {
        KindSet(self.0 & other.0)
    }

    /// The kinds in either set.
    pub const fn or(self, other: KindSet) -> KindSet {
        KindSet(self.0 | other.0)
    }

    /// The kinds of `self` not in `other`.
    pub const fn minus(self, other: KindSet) -> KindSet {
        KindSet(self.0 & !other.0)
    }

    /// Whether every kind of `self` is in `other`.
    pub const fn is_subset(self, other: KindSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The kinds in ascending index order.
    pub fn iter(self) -> impl Iterator<Item = Kind> {
        Kind::ALL.into_iter().filter(move |&k| self.contains(k))
    }

    /// The bits, kind index `i` at bit `i`.
    pub const fn bits(self) -> u16 {
        self.0
    }
}

impl TryFrom<u16> for KindSet {
    type Error = String;
    fn try_from(v: u16) -> Result<Self, Self::Error> {
        if v & !KindSet::ALL_BITS == 0 {
            Ok(KindSet(v))
        } else {
            Err(format!("no kind set {v:#x}"))
        }
    }
}

impl From<KindSet> for u16 {
    fn from(s: KindSet) -> u16 {
        s.0
    }
}

impl Variant {
    /// The kinds an attacker of `variant` beats `defender` with: what a
    /// hidden attacker that took the square of `defender` may be.
    pub const fn winners_against(self, defender: Kind) -> KindSet {
        let mut bits = 0;
        let mut a = 0;
        while a < Kind::COUNT {
            if matches!(
                FIGHTS[self.index()][a][defender.0 as usize],
                Fight::AttackerWins
            ) {
                bits |= 1 << a;
            }
            a += 1;
        }
        KindSet(bits & KindSet::of_variant(self).0 & KindSet::MOBILE.0)
    }
}
