//! Setups: the value type, its text forms, the generators, the setup phase
//! of a game, and the Gravon archive.

mod common;

use common::Pieces;

use std::path::PathBuf;

use game_traits::PlayerId::{self, P0, P1};
use game_traits::{Game, GameRng, Turn};
use proptest::prelude::*;
use rand::SeedableRng;
use stratego_core::{
    Action, Kind, KindSet, ObsCell, Rules, Setup, SetupSquare, Square, Stratego, Variant,
};

const GRAVON_LINE: &str = "BDGFDFDDDBHFLJGKDIFGEHEMCEHBDDIBJEIBHEBG";

fn ss(row: u8, col: u8) -> SetupSquare {
    SetupSquare { row, col }
}

#[test]
fn rule_setup_validates_counts() {
    let mut kinds = *Setup::shuffle(Variant::Classic, &mut GameRng::seed_from_u64(1)).kinds();
    assert!(Setup::new(Variant::Classic, kinds).is_ok());
    let i = kinds.iter().position(|&k| k == Kind::MINE).unwrap();
    kinds[i] = Kind::R0;
    assert!(
        Setup::new(Variant::Classic, kinds).is_err(),
        "two Marshals, five bombs"
    );
    let czech = *Setup::shuffle(Variant::Czech, &mut GameRng::seed_from_u64(1)).kinds();
    assert!(
        Setup::new(Variant::Classic, czech).is_err(),
        "a Czech army is no classic army"
    );
}

#[test]
fn rule_setup_fills_the_four_home_rows() {
    // Setup squares map onto each player's own four rows, the second
    // player's turned round.
    assert_eq!(ss(0, 0).board_square(P0).unwrap().to_string(), "a4");
    assert_eq!(ss(3, 9).board_square(P0).unwrap().to_string(), "j1");
    assert_eq!(ss(0, 0).board_square(P1).unwrap().to_string(), "j7");
    assert_eq!(ss(3, 0).board_square(P1).unwrap().to_string(), "j10");
    assert_eq!(ss(4, 0).board_square(P0), None);
    let mut rows = Vec::new();
    for p in PlayerId::BOTH {
        for i in 0..40 {
            rows.push((
                p,
                SetupSquare::from_index(i)
                    .unwrap()
                    .board_square(p)
                    .unwrap()
                    .row(),
            ));
        }
    }
    assert!(rows
        .iter()
        .all(|&(p, r)| if p == P0 { r >= 6 } else { r <= 3 }));
    assert_eq!(ss(4, 0).index(), None);
}

#[test]
fn rule_setup_swaps_two_pieces() {
    let mut s = Setup::from_gravon(GRAVON_LINE).unwrap();
    let (a, b) = (ss(0, 0), ss(2, 3));
    let (ka, kb) = (s.get(a).unwrap(), s.get(b).unwrap());
    s.swap(a, b).unwrap();
    assert_eq!((s.get(a), s.get(b)), (Some(kb), Some(ka)));
    assert!(s.swap(a, ss(7, 0)).is_err());
    assert!(Setup::new(Variant::Classic, *s.kinds()).is_ok());
}

#[test]
fn rule_setup_compact_text_round_trips_in_every_rule_set() {
    let mut rng = GameRng::seed_from_u64(5);
    for v in Variant::ALL {
        let s = Setup::shuffle(v, &mut rng);
        let text = s.to_text();
        assert_eq!(text.len(), 40);
        assert_eq!(Setup::from_text(v, &text).unwrap(), s);
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Setup>(&json).unwrap(), s);
    }
    assert!(Setup::from_text(Variant::Classic, &GRAVON_LINE[..39]).is_err());
    assert!(Setup::from_text(Variant::Classic, &format!("{GRAVON_LINE}B")).is_err());
    assert!(Setup::from_text(Variant::Classic, &GRAVON_LINE.replace('L', "Z")).is_err());
    assert!(
        Setup::from_text(Variant::Czech, GRAVON_LINE).is_err(),
        "L is no Czech letter"
    );
}

#[test]
fn rule_classic_setup_reads_and_writes_gravon_letters() {
    let s = Setup::from_gravon(GRAVON_LINE).unwrap();
    assert_eq!(s.to_gravon().as_deref(), Some(GRAVON_LINE));
    assert_eq!(s.get(ss(0, 0)), Some(Kind::MINE));
    assert_eq!(s.get(ss(1, 2)), Some(Kind::R0), "L, the Marshal");
    assert_eq!(s.get(ss(2, 3)), Some(Kind::FLAG), "M, the flag");
    assert_eq!(s.get(ss(2, 4)), Some(Kind::R9), "C, the Spy");
    let other = Setup::shuffle(Variant::Srazhenie, &mut GameRng::seed_from_u64(3));
    assert_eq!(other.to_gravon(), None);
}

#[test]
fn rule_shuffle_is_seeded() {
    for v in Variant::ALL {
        let a = Setup::shuffle(v, &mut GameRng::seed_from_u64(9));
        let b = Setup::shuffle(v, &mut GameRng::seed_from_u64(9));
        let c = Setup::shuffle(v, &mut GameRng::seed_from_u64(10));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}

proptest! {
    #[test]
    fn rule_smart_setup_flag_back_under_mines_soldiers_in_front(seed in any::<u64>(), vi in 0usize..3) {
        let v = Variant::ALL[vi];
        let s = Setup::smart(v, &mut GameRng::seed_from_u64(seed));
        prop_assert!(Setup::new(v, *s.kinds()).is_ok());
        let flag = (0..40).find(|&i| s.kinds()[i] == Kind::FLAG).unwrap();
        prop_assert_eq!(flag / 10, 3, "flag in the back row");
        let col = flag % 10;
        prop_assert_eq!(s.kinds()[20 + col], Kind::MINE);
        if col > 0 { prop_assert_eq!(s.kinds()[30 + col - 1], Kind::MINE); }
        if col < 9 { prop_assert_eq!(s.kinds()[30 + col + 1], Kind::MINE); }
        let front = (0..10).filter(|&i| s.kinds()[i] == v.front_kind()).count();
        prop_assert_eq!(front, v.count(v.front_kind()) as usize);
        prop_assert!(s.kinds()[..10].iter().all(|&k| k != Kind::MINE));
    }

    #[test]
    fn setup_text_never_panics(text in "[A-Z]{0,45}", vi in 0usize..3) {
        let _ = Setup::from_text(Variant::ALL[vi], &text);
    }
}

#[test]
fn rule_setup_phase_places_piece_by_piece_then_play_starts() {
    let rules = Rules::classic();
    let mut g = Stratego::new(&rules).unwrap();
    assert_eq!(g.turn(), Turn::Player(PlayerId::P0));
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert_eq!(legal.len(), 12, "any kind may go first");
    let setup = Setup::from_gravon(GRAVON_LINE).unwrap();
    for (i, &k) in setup.kinds().iter().enumerate() {
        assert_eq!(g.turn(), Turn::Player(PlayerId::P0));
        g.apply(Action::Place(k)).unwrap();
        assert_eq!(
            g.piece_of(
                SetupSquare::from_index(i)
                    .unwrap()
                    .board_square(P0)
                    .unwrap()
            ),
            Some((P0, k))
        );
    }
    assert!(
        g.apply(Action::Place(Kind::R0)).is_ok(),
        "now the second player places"
    );
    assert_eq!(g.turn(), Turn::Player(PlayerId::P1));
    g.legal_actions(&mut legal);
    assert!(
        !legal.contains(&Action::Place(Kind::R0)),
        "his only Marshal is placed"
    );
    let rest: Vec<Kind> = {
        let mut s = setup;
        let m = s.kinds().iter().position(|&k| k == Kind::R0).unwrap();
        s.swap(
            SetupSquare::from_index(0).unwrap(),
            SetupSquare::from_index(m).unwrap(),
        )
        .unwrap();
        s.kinds()[1..].to_vec()
    };
    for k in rest {
        g.apply(Action::Place(k)).unwrap();
    }
    assert!(g.in_play());
    assert_eq!(g.turn(), Turn::Player(PlayerId::P0));
    assert_eq!(g.setup_of(P0), Some(setup));
}

#[test]
fn rule_setup_is_secret() {
    let rules = Rules::srazhenie();
    let mut rng = GameRng::seed_from_u64(4);
    let (a, b) = (
        Setup::shuffle(rules.variant, &mut rng),
        Setup::shuffle(rules.variant, &mut rng),
    );
    let mut b2 = b;
    b2.swap(
        SetupSquare::from_index(3).unwrap(),
        SetupSquare::from_index(30).unwrap(),
    )
    .unwrap();
    assert_ne!(b, b2);
    let g1 = Stratego::new_with_setups(&rules, &a, &b).unwrap();
    let g2 = Stratego::new_with_setups(&rules, &a, &b2).unwrap();
    assert_ne!(g1, g2);
    assert_eq!(g1.observation(PlayerId::P0), g2.observation(PlayerId::P0));
    let obs = g1.observation(P0);
    let foe = obs
        .cells
        .iter()
        .filter(|c| {
            matches!(
                c,
                ObsCell::Foe {
                    kind: None,
                    moved: false,
                    ruled_out: KindSet::EMPTY,
                }
            )
        })
        .count();
    assert_eq!(foe, 40);
    // Halfway through the first player's setup, the second sees only how
    // many pieces stand where.
    let mut h1 = Stratego::new(&rules).unwrap();
    let mut h2 = Stratego::new(&rules).unwrap();
    for i in 0..20 {
        h1.apply(Action::Place(a.kinds()[i])).unwrap();
        h2.apply(Action::Place(a.kinds()[39 - i])).unwrap();
    }
    assert_eq!(h1.observation(P1), h2.observation(P1));
    assert_ne!(h1.observation(P0), h2.observation(P0));
    let _ = Square::all();
}

/// The archive, read in place: `STRATEGO_SETUPS`, or
/// `shared/data/stratego/` beside any folder above the crate (the
/// workspace, or a worktree of it).
fn gravon_file() -> Option<PathBuf> {
    let beside = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("shared/data/stratego/classic-human-setups.txt"));
    std::env::var_os("STRATEGO_SETUPS")
        .map(PathBuf::from)
        .into_iter()
        .chain(beside)
        .find(|p| p.is_file())
}

#[test]
fn gravon_archive_parses_and_writes_back_identically() {
    let Some(path) = gravon_file() else {
        println!("skipped: the Gravon setup file is absent (set STRATEGO_SETUPS or provide ../shared/data/stratego/)");
        return;
    };
    let text = std::fs::read_to_string(&path).expect("readable setup file");
    let mut n = 0;
    let mut flag_back = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let s = Setup::from_gravon(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(s.to_gravon().as_deref(), Some(line));
        n += 1;
        flag_back += (s.kinds()[30..].contains(&Kind::FLAG)) as usize;
    }
    assert_eq!(n, 64_920);
    assert_eq!(flag_back, 57_220, "as the archive's README counts");
}

#[test]
fn gravon_setups_play_to_the_end() {
    let Some(path) = gravon_file() else {
        println!("skipped: the Gravon setup file is absent");
        return;
    };
    let text = std::fs::read_to_string(&path).expect("readable setup file");
    let setups: Vec<Setup> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(20)
        .map(|l| Setup::from_gravon(l).unwrap())
        .collect();
    let rules = Rules::classic();
    let mut rng = GameRng::seed_from_u64(2);
    for pair in setups.chunks(2) {
        let mut g = Stratego::new_with_setups(&rules, &pair[0], &pair[1]).unwrap();
        let mut legal = Vec::new();
        while !g.is_terminal() {
            g.legal_actions(&mut legal);
            let a = legal[game_traits::chance::uniform_index(legal.len(), &mut rng)];
            g.apply(a).unwrap();
        }
        assert!(g.moves_played() <= rules.max_moves);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]
    /// `new_with_setups` places without `apply`'s checks: the state is the
    /// one the eighty `Place` actions through `apply` give.
    #[test]
    fn new_with_setups_is_the_placements_through_apply(seed in any::<u64>(), ri in 0usize..5, drawn in any::<bool>()) {
        let rules = [
            Rules::classic(),
            Rules::czech(),
            Rules::srazhenie(),
            Rules::classic_milton_bradley(),
            Rules::classic_gravon(),
        ][ri];
        let v = rules.variant;
        let mut rng = GameRng::seed_from_u64(seed);
        let a = Setup::shuffle(v, &mut rng);
        let b = Setup::smart(v, &mut rng);
        let starter = if drawn { P1 } else { P0 };
        let fast = Stratego::new_with_setups_drawn(&rules, starter, &a, &b).unwrap();
        let mut slow = Stratego::new(&rules).unwrap();
        if slow.turn() == Turn::Chance {
            slow.apply(Action::Start(starter)).unwrap();
        }
        for &k in a.kinds().iter().chain(b.kinds()) {
            slow.apply(Action::Place(k)).unwrap();
        }
        prop_assert_eq!(&fast, &slow);
        prop_assert_eq!(fast.move_count(), slow.move_count());
    }
}
