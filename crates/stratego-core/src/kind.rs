//! Piece kinds: one index per kind shared by the three rule sets, the
//! names each rule set gives them, and sets of kinds.

use serde::{Deserialize, Serialize};

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
    type Error = &'static str;
    fn try_from(v: u8) -> Result<Self, Self::Error> {
        Kind::new(v).ok_or("no such piece kind")
    }
}

impl From<Kind> for u8 {
    fn from(k: Kind) -> u8 {
        k.0
    }
}

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

    /// The set of bits `bits` (bits past the last kind dropped).
    pub(crate) const fn from_bits(bits: u16) -> KindSet {
        KindSet(bits & KindSet::ALL_BITS)
    }

    /// The set holding only `kind`.
    pub const fn of(kind: Kind) -> KindSet {
        KindSet(1 << kind.0)
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
    type Error = &'static str;
    fn try_from(v: u16) -> Result<Self, Self::Error> {
        if v & !KindSet::ALL_BITS == 0 {
            Ok(KindSet(v))
        } else {
            Err("bits past the last kind")
        }
    }
}

impl From<KindSet> for u16 {
    fn from(s: KindSet) -> u16 {
        s.0
    }
}

/// The pieces of the Soviet "Сражение" ([`Variant::Srazhenie`](crate::Variant::Srazhenie)) by the
/// text's names (Маршал, Генерал, …, Разведчик, мина, знамя) in English,
/// the strongest first: rank 1 is the Marshal, rank 10 the Scout.
pub mod srazhenie {
    use super::Kind;
    /// Маршал, rank 1, the strongest.
    pub const MARSHAL: Kind = Kind::R0;
    /// Генерал, rank 2.
    pub const GENERAL: Kind = Kind::R1;
    /// Полковник, rank 3.
    pub const COLONEL: Kind = Kind::R2;
    /// Майор, rank 4.
    pub const MAJOR: Kind = Kind::R3;
    /// Капитан, rank 5.
    pub const CAPTAIN: Kind = Kind::R4;
    /// Лейтенант, rank 6.
    pub const LIEUTENANT: Kind = Kind::R5;
    /// Сержант, rank 7.
    pub const SERGEANT: Kind = Kind::R6;
    /// Сапёр, rank 8: clears mines.
    pub const SAPPER: Kind = Kind::R7;
    /// Солдат, rank 9: the long mover with "runner soldiers".
    pub const SOLDIER: Kind = Kind::R8;
    /// Разведчик, rank 10: beats the Marshal when it attacks him.
    pub const SCOUT: Kind = Kind::R9;
    /// Мина.
    pub const MINE: Kind = Kind::MINE;
    /// Знамя.
    pub const FLAG: Kind = Kind::FLAG;
}

/// The pieces of the Czech rules ([`Variant::Czech`](crate::Variant::Czech)) by the text's names
/// (without diacritics), the strongest first.
pub mod czech {
    use super::Kind;
    /// Maršál, the strongest.
    pub const MARSAL: Kind = Kind::R0;
    /// Generál.
    pub const GENERAL: Kind = Kind::R1;
    /// Kapitán.
    pub const KAPITAN: Kind = Kind::R2;
    /// Kadet.
    pub const KADET: Kind = Kind::R3;
    /// Kaprál.
    pub const KAPRAL: Kind = Kind::R4;
    /// Střelec.
    pub const STRELEC: Kind = Kind::R5;
    /// Průzkumník: the long mover.
    pub const PRUZKUMNIK: Kind = Kind::R6;
    /// Minér: clears mine fields.
    pub const MINER: Kind = Kind::R7;
    /// Špión: beats the Maršál, whoever attacks.
    pub const SPION: Kind = Kind::R8;
    /// Minové pole (mine field).
    pub const MINOVE_POLE: Kind = Kind::MINE;
    /// Prapor (flag).
    pub const PRAPOR: Kind = Kind::FLAG;
}

/// The pieces of the international classic rules ([`Variant::Classic`](crate::Variant::Classic)),
/// the strongest first: 10 Marshal down to 1 Spy.
pub mod classic {
    use super::Kind;
    /// Marshal (10).
    pub const MARSHAL: Kind = Kind::R0;
    /// General (9).
    pub const GENERAL: Kind = Kind::R1;
    /// Colonel (8).
    pub const COLONEL: Kind = Kind::R2;
    /// Major (7).
    pub const MAJOR: Kind = Kind::R3;
    /// Captain (6).
    pub const CAPTAIN: Kind = Kind::R4;
    /// Lieutenant (5).
    pub const LIEUTENANT: Kind = Kind::R5;
    /// Sergeant (4).
    pub const SERGEANT: Kind = Kind::R6;
    /// Miner (3): defuses bombs.
    pub const MINER: Kind = Kind::R7;
    /// Scout (2): the long mover.
    pub const SCOUT: Kind = Kind::R8;
    /// Spy (1): beats the Marshal when it attacks him.
    pub const SPY: Kind = Kind::R9;
    /// Bomb.
    pub const BOMB: Kind = Kind::MINE;
    /// Flag.
    pub const FLAG: Kind = Kind::FLAG;
}
