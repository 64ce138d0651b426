//! What the observation tensor and the information-state string hold, on
//! positions whose contents are known (the kit checks the general
//! contract: shape, finiteness, no leak, distinct strings).

use battleline_core::{
    Action, BattleLine, Card, CardSet, Colour, Deck, Encode, FlagId, Game, PlayerId,
    PositionBuilder, Rules, Tactic, TENSOR_SIZE,
};

const P0: PlayerId = PlayerId::P0;
const P1: PlayerId = PlayerId::P1;

fn t(c: Colour, v: u8) -> Card {
    Card::troop(c, v).unwrap()
}

fn flag(i: usize) -> FlagId {
    FlagId::new(i).unwrap()
}

fn tensor(s: &BattleLine, p: PlayerId) -> (Vec<f32>, game_traits::TensorLayout) {
    let layout = BattleLine::tensor_layout(s.rules());
    let mut out = vec![f32::NAN; layout.size()];
    BattleLine::encode(&s.observation(p), &mut out);
    (out, layout)
}

fn part<'a>(v: &'a [f32], layout: &game_traits::TensorLayout, name: &str) -> &'a [f32] {
    let p = layout
        .plane(name)
        .unwrap_or_else(|| panic!("no plane {name}"));
    &v[p.offset..p.offset + p.len]
}

/// P0 has Red 8-9-10 at F1 (completed first) against Blue 2 and claimed
/// F2; Fog lies at F4; P1 has played Deserter (on his discards) and holds
/// Blue 5, P0 holds Red 1 and Red 2.
fn position() -> BattleLine {
    use Colour::*;
    PositionBuilder::new(Rules::default())
        .place(flag(0), P0, t(Red, 8))
        .place(flag(0), P0, t(Red, 9))
        .place(flag(0), P0, t(Red, 10))
        .place(flag(0), P1, t(Blue, 2))
        .place(flag(1), P0, t(Green, 7))
        .place(flag(1), P0, t(Green, 8))
        .place(flag(1), P0, t(Green, 9))
        .claim(flag(1), P0)
        .fog(flag(3), None)
        .hand(P0, [t(Red, 1), t(Red, 2)].into_iter().collect())
        .hand(P1, [t(Blue, 5)].into_iter().collect())
        .discards(P1, [Card::tactic(Tactic::Deserter)].into_iter().collect())
        .tactics_played(P0, 1, false)
        .tactics_played(P1, 1, false)
        .turn(P0, battleline_core::Phase::Claim)
        .draws_due(1)
        .moves(8)
        .build()
        .unwrap()
}

#[test]
fn the_tensor_holds_the_viewers_table_hand_and_counts() {
    let s = position();
    let (v, l) = tensor(&s, P0);
    assert_eq!(v.len(), TENSOR_SIZE);
    let own = part(&v, &l, "own_side_cards");
    let card = |f: usize, c: Card| f * 70 + c.index();
    assert_eq!(own[card(0, t(Colour::Red, 9))], 1.0);
    assert_eq!(own.iter().sum::<f32>(), 6.0);
    assert_eq!(
        part(&v, &l, "opp_side_cards")[card(0, t(Colour::Blue, 2))],
        1.0
    );
    assert_eq!(part(&v, &l, "own_completed_first")[0], 1.0);
    assert_eq!(part(&v, &l, "own_claimed")[1], 1.0);
    assert_eq!(part(&v, &l, "opp_claimed").iter().sum::<f32>(), 0.0);
    assert_eq!(part(&v, &l, "fog")[3], 1.0);
    assert_eq!(part(&v, &l, "own_hand").iter().sum::<f32>(), 2.0);
    assert_eq!(
        part(&v, &l, "opp_discards")[Card::tactic(Tactic::Deserter).index()],
        1.0
    );
    // 70 cards less 7 on the table, 2 in the hand, Fog and Deserter.
    assert_eq!(part(&v, &l, "unseen").iter().sum::<f32>(), 59.0);
    assert_eq!(part(&v, &l, "opp_hand_size"), &[1.0 / 9.0]);
    assert_eq!(part(&v, &l, "own_tactics_allowed"), &[1.0]);
    assert_eq!(part(&v, &l, "phase"), &[0., 0., 1., 0., 0., 0., 0., 0.]);
    assert_eq!(part(&v, &l, "own_turn"), &[1.0]);
    assert_eq!(part(&v, &l, "draws_due"), &[1.0 / 3.0]);
    assert_eq!(part(&v, &l, "seat"), &[1.0, 0.0]);
    // The other seat sees the same table from his side.
    let (w, _) = tensor(&s, P1);
    assert_eq!(part(&w, &l, "opp_claimed")[1], 1.0);
    assert_eq!(
        part(&w, &l, "own_side_cards")[card(0, t(Colour::Blue, 2))],
        1.0
    );
    assert_eq!(part(&w, &l, "own_turn"), &[0.0]);
    assert_eq!(part(&w, &l, "seat"), &[0.0, 1.0]);
    assert_eq!(part(&w, &l, "opp_hand_size"), &[2.0 / 9.0]);
}

#[test]
fn the_tensor_shows_own_scout_returns_and_known_opponent_cards() {
    // P0 plays Scout, draws three, returns two; P1 draws one of them.
    let mut s = PositionBuilder::new(Rules::default())
        .hand(
            P0,
            [Card::tactic(Tactic::Scout), t(Colour::Red, 1)]
                .into_iter()
                .collect(),
        )
        .hand(P1, [t(Colour::Blue, 1)].into_iter().collect())
        .build()
        .unwrap();
    let mut rng = <game_traits::GameRng as rand::SeedableRng>::seed_from_u64(1);
    s.apply(Action::Scout).unwrap();
    s.apply(Action::Draw(Deck::Troop)).unwrap();
    while !matches!(s.turn(), game_traits::Turn::Player(_))
        || s.table().phase() != battleline_core::Phase::Return
    {
        let a = match s.turn() {
            game_traits::Turn::Chance => s.sample_chance(&mut rng).unwrap(),
            _ => Action::Draw(Deck::Troop),
        };
        s.apply(a).unwrap();
    }
    let first = s.hand(P0).iter().find(|c| c.is_troop()).unwrap();
    s.apply(Action::Return(first)).unwrap();
    let second = s.hand(P0).iter().find(|c| c.is_troop()).unwrap();
    s.apply(Action::Return(second)).unwrap();
    let (v, l) = tensor(&s, P0);
    let returns = part(&v, &l, "own_returns_on_decks");
    assert_eq!(returns[first.index()], 0.5);
    assert_eq!(returns[second.index()], 1.0);
    assert_eq!(part(&v, &l, "troop_deck_returns"), &[1.0]);
    let (w, _) = tensor(&s, P1);
    assert_eq!(
        part(&w, &l, "own_returns_on_decks").iter().sum::<f32>(),
        0.0
    );
    assert_eq!(part(&w, &l, "troop_deck_returns"), &[1.0]);
    // P1 plays and draws the top card: P0 knows it is in his hand.
    s.apply(Action::Play {
        card: t(Colour::Blue, 1),
        flag: flag(0),
    })
    .unwrap();
    s.apply(Action::Draw(Deck::Troop)).unwrap();
    let (v, _) = tensor(&s, P0);
    assert_eq!(part(&v, &l, "opp_hand_known")[second.index()], 1.0);
    let (w, _) = tensor(&s, P1);
    assert_eq!(part(&w, &l, "own_hand_known_to_opp")[second.index()], 1.0);
    let text = BattleLine::information_state_string(&s.observation(P0));
    assert!(text.contains(&format!("/1+{second}")), "{text}");
    let text = BattleLine::information_state_string(&s.observation(P1));
    assert!(text.contains(&format!("{second}!")), "{text}");
}

#[test]
fn the_string_names_the_public_table_and_only_the_viewers_secrets() {
    let s = position();
    let a = BattleLine::information_state_string(&s.observation(P0));
    assert_eq!(
        a,
        "R8,R9,R10*/B2|G7,G8,G9*#/-|-/-|F:-/-|-/-|-/-|-/-|-/-|-/- P0:claim view=P0 \
         h=R1,R2/1 d=50/8 x=-/DES t=1/1 draws=1 m=8"
    );
    let b = BattleLine::information_state_string(&s.observation(P1));
    assert!(b.contains("view=P1 h=2/B5 "), "{b}");
    assert!(!b.contains("R1,R2"), "{b}");
    // Hand limit of a troops-only game: the string names the option.
    let s = PositionBuilder::new(Rules::troops_only()).build().unwrap();
    let c = BattleLine::information_state_string(&s.observation(P0));
    assert!(
        c.ends_with("rules=troops-only") && c.contains("d=60/0"),
        "{c}"
    );
    assert_eq!(CardSet::ALL_TROOPS, Rules::troops_only().cards());
}

#[test]
fn a_short_or_long_slice_is_filled_as_far_as_it_goes() {
    let s = position();
    let obs = s.observation(P0);
    let mut short = vec![f32::NAN; 10];
    BattleLine::encode(&obs, &mut short);
    assert!(short.iter().all(|x| x.is_finite()));
    let mut long = vec![f32::NAN; TENSOR_SIZE + 5];
    BattleLine::encode(&obs, &mut long);
    assert!(long.iter().all(|x| x.is_finite()));
}

#[test]
fn the_rules_document_lists_every_part_at_its_offset() {
    let doc = include_str!("../docs/battleline.md");
    let layout = BattleLine::tensor_layout(&Rules::default());
    let rows: Vec<(String, usize, usize)> = doc
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let name = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            let offset = cells.get(2)?.parse().ok()?;
            let len = cells.get(3)?.parse().ok()?;
            Some((name.to_owned(), offset, len))
        })
        .collect();
    let actual: Vec<(String, usize, usize)> = layout
        .planes
        .iter()
        .map(|p| (p.name.clone(), p.offset, p.len))
        .collect();
    assert_eq!(rows, actual);
    assert!(doc.contains(&format!("shape `[{TENSOR_SIZE}]`")));
}

#[test]
fn the_documented_example_string_is_the_engines() {
    let line = "R8,R9,R10*/B2|-/-|-/-|F:-/-|M:-/-|-/-|-/-|-/-|-/- P0:claim h=R1,R2/B5 d=53/8 x=-/- t=1/1 draws=1 m=8";
    let s = BattleLine::from_notation(line).unwrap();
    let text = BattleLine::information_state_string(&s.observation(P0));
    assert_eq!(
        text,
        "R8,R9,R10*/B2|-/-|-/-|F:-/-|M:-/-|-/-|-/-|-/-|-/- P0:claim view=P0 h=R1,R2/1 d=53/8 x=-/- t=1/1 draws=1 m=8"
    );
    assert!(include_str!("../docs/battleline.md").contains(&text));
}
