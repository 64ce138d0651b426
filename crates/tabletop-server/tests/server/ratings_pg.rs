//! The players and ratings in PostgreSQL (Debian's server, started for
//! the test as in `tests/postgres.rs`): the same statements as SQLite's,
//! and a rated match applied once when two processes' connections race to
//! apply it.
use crate::pg_cluster;

use pg_cluster::Postgres;
use tabletop_server::rating::{after_game, Rating};
use tabletop_server::store::{Kind, Progress, Store};

#[test]
fn players_and_ratings_in_postgres_apply_once_under_a_race() {
    let pg = Postgres::start();
    let store = std::sync::Arc::new(Store::connect(&pg.url(), None).unwrap());
    let ann = store
        .add_person("Ann", "ann", &"a".repeat(32))
        .unwrap()
        .unwrap();
    assert_eq!(
        store.add_person("ANN", "ann", &"b".repeat(32)).unwrap(),
        None
    );
    assert_eq!(
        store.player_by_key(&"a".repeat(32)).unwrap().unwrap().id,
        ann
    );
    let bot = store.bot_player("bot:random").unwrap();
    assert_eq!(store.bot_player("bot:random").unwrap(), bot);
    let seats = ["human".to_owned(), "bot:random".to_owned()];
    let id = store
        .create("kuhn", 1, &seats, &[None, None], &[], Progress::Over, None)
        .unwrap();
    store.mark_rated(id, [Some(ann), None]).unwrap();
    store.seat_player(id, 1, bot).unwrap();
    assert_eq!(store.seated(id).unwrap(), Some([Some(ann), Some(bot)]));
    assert_eq!(store.rated_among(&[id, id + 1]).unwrap(), vec![id]);
    assert_eq!(store.pending_ratings().unwrap(), vec![id]);
    // Two connections apply the same match at once: one moves the ratings.
    let applied: Vec<_> = (0..2)
        .map(|_| {
            let s = store.clone();
            std::thread::spawn(move || s.apply_rating(id, "kuhn", 1.0).unwrap())
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .collect();
    let want = after_game([Rating::default(); 2], 1.0);
    assert_eq!(
        applied.iter().filter(|a| a.is_some()).count(),
        1,
        "{applied:?}"
    );
    assert!(applied.contains(&Some(want)));
    assert!(store.pending_ratings().unwrap().is_empty());
    let board = store.leaderboard("kuhn", 10).unwrap();
    assert_eq!(board.len(), 2);
    assert_eq!(
        (board[0].name.as_str(), board[0].kind),
        ("Ann", Kind::Person)
    );
    assert!((board[0].rating - want[0].rating).abs() < 1e-9);
    assert_eq!(board[0].games, 1);
    let seats = store.rated_seats(id, "kuhn").unwrap().unwrap();
    assert_eq!(seats[1].as_ref().unwrap().name, "bot:random");
    drop(store);
}
