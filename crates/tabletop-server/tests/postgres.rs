//! Two server processes on one PostgreSQL database: PostgreSQL is started
//! from Debian's package (`initdb`, `pg_ctl` of
//! `/usr/lib/postgresql/*/bin`; the test FAILS when they are missing), on
//! a free port of 127.0.0.1 with a data directory of its own, and stopped
//! at the end even when the test fails. The database is first made as an
//! older server left it (two steps of the schema, one match), then two
//! server binaries serve it on loopback. Matches of every game (people
//! against each other and against bots) are played with each move sent to
//! either process; a WebSocket client of one process sees a move made on
//! the other; one process is killed (SIGKILL) mid-play and the other
//! finishes every match, taking over its bot turns. Every record is then
//! checked: each acknowledged move stored at its step, in order, and the
//! record replays to the state the surviving process serves.

mod common;
mod pg_cluster;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{pick, specs, two_people_over_http, view_over_http};
use futures_util::StreamExt;
use pg_cluster::{Postgres, Process};
use serde_json::{json, Value};
use tabletop_server::room::Room;
use tabletop_server::seat::{self, Seat};
use tabletop_server::store::{migrate_postgres, Store, MIGRATIONS};
use tabletop_server::token::{Seal, Token};
use tabletop_server::{registry, views};

/// An older server's database: the first two schema steps and one
/// unfinished match of two people (its first chance events played);
/// returns the match's id and tokens.
fn older_database(url: &str) -> (i64, [String; 2]) {
    let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
    migrate_postgres(&mut client, 2).unwrap();
    let game = registry().load("kuhn_poker").unwrap();
    let tokens = [Token::new().unwrap(), Token::new().unwrap()];
    let seats = [Seat::Human, Seat::Human];
    let mut room = Room::new(0, game.clone(), 77, seats, tokens.map(|t| Some(t.seal())));
    room.run_chance();
    let id: i64 = client
        .query_one(
            "INSERT INTO matches (spec, seed, seat0, seat1, token0, token1) \
             VALUES ($1, 77, 'human', 'human', $2, $3) RETURNING id",
            &[&game.name(), &tokens[0].to_string(), &tokens[1].to_string()],
        )
        .unwrap()
        .get(0);
    for (step, &a) in room.actions().iter().enumerate() {
        client
            .execute(
                "INSERT INTO actions (match_id, step, action) VALUES ($1, $2, $3)",
                &[&id, &(step as i64), &(a as i64)],
            )
            .unwrap();
    }
    (id, tokens.map(|t| t.to_string()))
}

/// What the clients saw.
#[derive(Default)]
struct Seen {
    /// Acknowledged moves: (match, step, action id).
    acked: Mutex<Vec<(i64, usize, usize)>>,
    /// 5xx answers of a process that was alive.
    server_errors: AtomicU64,
    moves: AtomicU64,
}

/// The two processes' addresses and whether the first still runs.
struct Pair {
    bases: [String; 2],
    first_alive: AtomicBool,
}

impl Pair {
    /// The process for request number `n` of a match with `seed`: either
    /// while both run, else the second.
    fn base(&self, seed: u64, n: u64) -> &str {
        if self.first_alive.load(Ordering::SeqCst) {
            &self.bases[pick(seed, n, 2)]
        } else {
            &self.bases[1]
        }
    }
}

/// GET (with `token`) through the process for `n`, through the kill:
/// a failure on the killed process is tried again on the other.
async fn get(
    http: &reqwest::Client,
    pair: &Pair,
    seen: &Seen,
    uri: &str,
    token: Option<&str>,
    seed: u64,
    n: u64,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let base = pair.base(seed, n);
        let mut req = http.get(format!("{base}{uri}"));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        match req.send().await {
            Ok(r) if r.status() == 200 => {
                if let Ok(v) = r.json::<Value>().await {
                    return v;
                }
            }
            Ok(r) => {
                if r.status().is_server_error() && base == pair.bases[1] {
                    seen.server_errors.fetch_add(1, Ordering::Relaxed);
                }
                panic!(
                    "GET {uri}: {} {}",
                    r.status(),
                    r.text().await.unwrap_or_default()
                );
            }
            Err(_) => {}
        }
        assert!(Instant::now() < deadline, "GET {uri} failed for a minute");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Plays the human seats of match `id` to the end, each request sent to
/// either process; after a failed move the view is read again before
/// deciding, so a move is never sent twice.
async fn play(
    http: reqwest::Client,
    pair: Arc<Pair>,
    seen: Arc<Seen>,
    id: i64,
    tokens: Vec<(u64, String)>,
    seed: u64,
) -> Value {
    let uri = format!("/api/matches/{id}");
    let deadline = Instant::now() + Duration::from_secs(120);
    for n in 0.. {
        assert!(
            Instant::now() < deadline,
            "match {id} did not end in 2 minutes"
        );
        let public = get(&http, &pair, &seen, &uri, None, seed, n).await;
        if !public["outcome"].is_null() {
            return public;
        }
        let mover = public["to_move"].as_u64();
        let Some((_, token)) = tokens.iter().find(|(s, _)| Some(*s) == mover) else {
            // A bot decides (here or, after the kill, taken over).
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        };
        let view = get(&http, &pair, &seen, &uri, Some(token), seed, n + 1).await;
        let legal = view["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            continue;
        }
        let step = view["steps"].as_u64().unwrap() as usize;
        let action = legal[pick(seed, step as u64, legal.len())]["id"]
            .as_u64()
            .unwrap() as usize;
        let base = pair.base(seed, n + 2).to_owned();
        let res = http
            .post(format!("{base}{uri}/actions"))
            .bearer_auth(token)
            .json(&json!({ "action": action }))
            .send()
            .await;
        match res {
            Ok(r) if r.status() == 200 => {
                // Acknowledged once the answer is read whole.
                if r.bytes().await.is_ok() {
                    seen.acked.lock().unwrap().push((id, step, action));
                    seen.moves.fetch_add(1, Ordering::Relaxed);
                }
            }
            Ok(r) => {
                let status = r.status();
                assert!(
                    status.is_server_error(),
                    "match {id}: move refused: {status} {}",
                    r.text().await.unwrap_or_default()
                );
                if base == pair.bases[1] {
                    seen.server_errors.fetch_add(1, Ordering::Relaxed);
                }
            }
            // The killed process.
            Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
    unreachable!("the loop above ends by returning or failing")
}

/// The same move sent at once through both processes, for the first
/// decision of `rounds` matches of two people: exactly one is played,
/// the other finds after catching up that the turn has passed (409),
/// never a second step N (which the database would refuse: a 503).
async fn racing_moves_play_once(
    http: &reqwest::Client,
    bases: &[String; 2],
    seen: &Seen,
    rounds: u64,
) {
    for round in 0..rounds {
        let (id, tokens) = create(
            http,
            &bases[0],
            "kuhn_poker",
            ["human", "human"],
            500 + round,
        )
        .await;
        let view: Value = http
            .get(format!("{}/api/matches/{id}", bases[1]))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let mover = view["to_move"].as_u64().unwrap();
        let step = view["steps"].as_u64().unwrap() as usize;
        let token = &tokens.iter().find(|(s, _)| *s == mover).unwrap().1;
        let seat: Value = http
            .get(format!("{}/api/matches/{id}", bases[0]))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let action = seat["legal"][0]["id"].as_u64().unwrap() as usize;
        let post = |base: &str| {
            http.post(format!("{base}/api/matches/{id}/actions"))
                .bearer_auth(token)
                .json(&json!({ "action": action }))
                .send()
        };
        let (a, b) = tokio::join!(post(&bases[0]), post(&bases[1]));
        let mut statuses = [a.unwrap().status().as_u16(), b.unwrap().status().as_u16()];
        statuses.sort();
        assert_eq!(
            statuses,
            [200, 409],
            "match {id}: one move played, one refused"
        );
        seen.acked.lock().unwrap().push((id, step, action));
        seen.moves.fetch_add(1, Ordering::Relaxed);
    }
}

/// Creates a match on `base`; returns its id and the human seats' tokens.
async fn create(
    http: &reqwest::Client,
    base: &str,
    game: &str,
    seats: [&str; 2],
    seed: u64,
) -> (i64, Vec<(u64, String)>) {
    let r = http
        .post(format!("{base}/api/matches"))
        .json(&json!({ "game": game, "seats": seats, "seed": seed }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let v: Value = r.json().await.unwrap();
    let tokens = v["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["seat"].as_u64().unwrap(),
                t["token"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (v["id"].as_i64().unwrap(), tokens)
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next view the WebSocket sends, within 10 s.
async fn next_view(ws: &mut Socket) -> Value {
    let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
        .await
        .expect("a view within 10 s")
        .unwrap()
        .unwrap();
    serde_json::from_str(m.to_text().unwrap()).unwrap()
}

/// A WebSocket client of `ws_base` sees a move made on `move_base`.
async fn websocket_sees_the_other_process(http: &reqwest::Client, ws_base: &str, move_base: &str) {
    let (id, tokens) = create(http, move_base, "kuhn_poker", ["human", "human"], 11).await;
    let host = ws_base.trim_start_matches("http://");
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{host}/api/matches/{id}/ws"))
        .await
        .unwrap();
    let first = next_view(&mut ws).await;
    let steps = first["steps"].as_u64().unwrap();
    let mover = first["to_move"].as_u64().unwrap();
    let token = &tokens.iter().find(|(s, _)| *s == mover).unwrap().1;
    let view: Value = http
        .get(format!("{move_base}/api/matches/{id}"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let action = &view["legal"][0]["id"];
    let r = http
        .post(format!("{move_base}/api/matches/{id}/actions"))
        .bearer_auth(token)
        .json(&json!({ "action": action }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let pushed = next_view(&mut ws).await;
    assert!(
        pushed["steps"].as_u64().unwrap() > steps,
        "the push after the move on the other process: {pushed}"
    );
}

#[test]
fn two_processes_share_one_postgres_database_through_a_kill() {
    let began = Instant::now();
    let pg = Postgres::start();
    let url = pg.url();
    let (old, old_tokens) = older_database(&url);
    let mut first = Process::start(&url);
    // The older server stored the tokens as given; the first start keeps
    // only their seals (the moves below still open the seats with them).
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let row = client
        .query_one("SELECT token0, token1 FROM matches WHERE id = $1", &[&old])
        .unwrap();
    for (i, given) in old_tokens.iter().enumerate() {
        let stored: String = row.get(i);
        assert_eq!(stored.len(), 64, "a seal, not the token");
        assert!(!stored.contains(given.as_str()));
    }
    drop(client);
    let mut second = Process::start(&url);
    let pair = Arc::new(Pair {
        bases: [first.base.clone(), second.base.clone()],
        first_alive: AtomicBool::new(true),
    });
    let seen = Arc::new(Seen::default());
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (mut finals, acked_total, bots, bots_at_kill) = runtime.block_on(async {
        let http = reqwest::Client::new();
        websocket_sees_the_other_process(&http, &pair.bases[1], &pair.bases[0]).await;
        websocket_sees_the_other_process(&http, &pair.bases[0], &pair.bases[1]).await;
        racing_moves_play_once(&http, &pair.bases, &seen, 20).await;
        // Every game, seats in turn: two people, a person against a
        // quick bot, a slower bot against a person (a bot deciding when
        // the kill comes is taken over).
        let seatings = [
            ["human", "human"],
            ["human", "bot:random"],
            ["bot:ismcts:20", "human"],
        ];
        let mut matches = vec![(
            old,
            vec![(0, old_tokens[0].clone()), (1, old_tokens[1].clone())],
            77,
        )];
        for (i, spec) in specs().iter().enumerate() {
            let seed = 1000 + i as u64;
            let base = &pair.bases[i % 2];
            let (id, tokens) = create(&http, base, spec, seatings[i % 3], seed).await;
            matches.push((id, tokens, seed));
        }
        let clients: Vec<_> = matches
            .iter()
            .map(|(id, tokens, seed)| {
                tokio::spawn(play(
                    http.clone(),
                    pair.clone(),
                    seen.clone(),
                    *id,
                    tokens.clone(),
                    *seed,
                ))
            })
            .collect();
        // Two bots, driven by the first process, and never asked for
        // from the second: after the kill only the second's search for
        // bot turns nobody plays can finish it.
        let battle = specs().into_iter().find(|s| s.contains("battle")).unwrap();
        let (bots, _) = create(&http, &pair.bases[0], &battle, ["bot:ismcts:25ms"; 2], 5).await;
        // The kill, mid-play: after 400 moves of people, with the bots'
        // match under way.
        let bots_at_kill = loop {
            let v: Value = http
                .get(format!("{}/api/matches/{bots}", pair.bases[0]))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            assert!(
                v["outcome"].is_null(),
                "the bots' match ended before the kill"
            );
            let steps = v["steps"].as_u64().unwrap();
            if seen.moves.load(Ordering::Relaxed) >= 400 && steps >= 10 {
                break steps as usize;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        pair.first_alive.store(false, Ordering::SeqCst);
        first.kill();
        let mut finals = Vec::new();
        for (c, (id, _, _)) in clients.into_iter().zip(&matches) {
            finals.push((*id, c.await.expect("every match ends")));
        }
        (
            finals,
            seen.moves.load(Ordering::Relaxed),
            bots,
            bots_at_kill,
        )
    });
    let store = Store::connect(&url, None).unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while store.get(bots).unwrap().unwrap().actions.len() <= bots_at_kill
        || store.unfinished().unwrap().contains(&bots)
    {
        assert!(
            Instant::now() < deadline,
            "the bots' match was not taken over"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Its served view, rebuilt from the record by the second process.
    let bots_view = runtime.block_on(async {
        let r = reqwest::get(format!("{}/api/matches/{bots}", pair.bases[1]))
            .await
            .unwrap();
        r.json::<Value>().await.unwrap()
    });
    finals.push((bots, bots_view));
    drop(runtime);
    assert_eq!(
        seen.server_errors.load(Ordering::Relaxed),
        0,
        "no 5xx from the live process"
    );
    // The records, read after the play.
    let acked = seen.acked.lock().unwrap().clone();
    assert_eq!(acked.len() as u64, acked_total);
    for (id, step, action) in &acked {
        let m = store.get(*id).unwrap().unwrap();
        assert_eq!(
            m.actions.get(*step),
            Some(action),
            "match {id}: acknowledged step {step}"
        );
    }
    for (id, public) in &finals {
        let m = store.get(*id).unwrap().unwrap();
        let game = registry().load(&m.spec).unwrap();
        let seats = m.seats.clone().map(|s| seat::parse(&s, true).unwrap());
        let tokens = m.tokens.clone().map(|t| t.as_deref().and_then(Seal::parse));
        let forfeit = m
            .forfeit
            .clone()
            .and_then(|(s, r)| game_traits::PlayerId::from_index(s as usize).map(|p| (p, r)));
        let room = Room::replay(*id, game, m.seed, seats, tokens, &m.actions, forfeit).unwrap();
        assert!(room.finished(), "match {id} is over in its record");
        let replayed: Value =
            serde_json::from_slice(&views::view(&room, None, views::Extra::default()).unwrap())
                .unwrap();
        assert_eq!(
            &replayed, public,
            "match {id}: the record replays to the served state"
        );
    }
    let version: i64 = postgres::Client::connect(&url, postgres::NoTls)
        .unwrap()
        .query_one("SELECT version FROM schema_version", &[])
        .unwrap()
        .get(0);
    assert_eq!(
        version,
        MIGRATIONS.len() as i64,
        "the older database is migrated"
    );
    drop(store);
    assert!(second.stop(), "the survivor stops gracefully on SIGTERM");
    drop(pg);
    println!(
        "{} matches, {} acknowledged moves through two processes, one killed; {:.1} s",
        finals.len(),
        acked.len(),
        began.elapsed().as_secs_f64()
    );
}

/// docs/server.md, "Backup and restore": `pg_dump` of a served database,
/// restored with `pg_restore` into a new database, is served by a new
/// process with the same matches, the seats' tokens still opening them.
#[test]
fn a_dump_restored_into_a_new_database_serves_the_same_matches() {
    let pg = Postgres::start();
    let live = Process::start(&pg.url());
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let http = reqwest::Client::new();
    let kuhn = specs().into_iter().find(|s| s.starts_with("kuhn")).unwrap();
    let (id, token, before) = runtime.block_on(two_people_over_http(&http, &live.base, &kuhn));
    pg.client(
        "pg_dump",
        &["--format=custom", "--file=backup.dump", "postgres"],
    );
    pg.client("createdb", &["restored"]);
    pg.client("pg_restore", &["--dbname=restored", "backup.dump"]);
    drop(live);
    let restored = Process::start(&pg.url_of("restored"));
    runtime.block_on(async {
        let (_, view) = view_over_http(&http, &restored.base, id, None).await;
        assert_eq!(view, before, "the public view of the match");
        let (status, seat) = view_over_http(&http, &restored.base, id, Some(&token)).await;
        assert_eq!(status, 200, "the token opens its seat");
        assert_ne!(seat, before, "the seat sees its card");
    });
}

/// The retention's statements on PostgreSQL (the SQLite backend's unit
/// test has the same steps): a sweep stamps what it sees over, the next
/// deletes the unrated ones stamped before the cut, actions first.
#[test]
fn the_retention_deletes_finished_unrated_matches_and_their_views_in_postgresql_too() {
    use tabletop_server::store::Progress;
    let pg = Postgres::start();
    let store = Store::connect(&pg.url(), None).unwrap();
    let seats = ["human".to_owned(), "human".to_owned()];
    let make = |progress| {
        store
            .create(
                "kuhn_poker",
                1,
                &seats,
                &[None, None],
                &[0, 1],
                progress,
                None,
            )
            .unwrap()
    };
    let (over, rated, running) = (
        make(Progress::Over),
        make(Progress::Over),
        make(Progress::PersonDue),
    );
    let mut client = postgres::Client::connect(&pg.url(), postgres::NoTls).unwrap();
    client
        .execute(
            "INSERT INTO rated_matches (match_id) VALUES ($1)",
            &[&rated],
        )
        .unwrap();
    // Final views are kept once (a second write changes nothing) and go
    // with the match.
    let views = |b: u8| tabletop_server::store::FinalViews {
        spectator: vec![b],
        seats: [vec![b, 0], vec![b, 1]],
    };
    store.keep_views(over, &views(1)).unwrap();
    store.keep_views(over, &views(2)).unwrap();
    let kept = store.kept(over).unwrap().unwrap();
    assert!(kept.finished && kept.spec == "kuhn_poker");
    assert_eq!(kept.views, Some(views(1)));
    assert!(!store.kept(running).unwrap().unwrap().finished);
    assert_eq!(store.kept(running).unwrap().unwrap().views, None);
    assert_eq!(store.expire(1_000, 0).unwrap(), Vec::<i64>::new());
    assert_eq!(store.expire(2_000, 1_500).unwrap(), vec![over]);
    assert!(store.get(over).unwrap().is_none());
    assert_eq!(store.kept(over).unwrap(), None);
    let left: i64 = client
        .query_one("SELECT count(*) FROM actions WHERE match_id = $1", &[&over])
        .unwrap()
        .get(0);
    assert_eq!(left, 0);
    assert!(store.get(rated).unwrap().is_some() && store.get(running).unwrap().is_some());
}

/// docs/server.md: a database that refuses the server is named with
/// PostgreSQL's own reason, never with the password of the URL.
#[test]
fn a_refused_connection_says_postgresqls_reason_without_the_password() {
    let pg = Postgres::start();
    let url = pg.url().replace("tabletop@", "nobody:s3cret@");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tabletop-server"))
        .args(["--port", "0"])
        .env("TABLETOP_DATABASE", &url)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("role \"nobody\" does not exist"), "{said}");
    assert!(!said.contains("s3cret"), "{said}");
}
