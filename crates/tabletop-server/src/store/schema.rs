//! The schema of the records database: its steps ([`MIGRATIONS`]), the
//! same in both backends, and the dialect each reads them in.

/// The schema, one step per version (SQLite's `PRAGMA user_version`,
/// PostgreSQL's `schema_version` table count the steps applied): a
/// database written by an older server is brought up to date when opened,
/// and a step is never edited once released. Written in SQLite's dialect;
/// [`Dialect::render`] gives PostgreSQL's.
pub const MIGRATIONS: &[&str] = &[
    // 1: matches and their actions.
    "CREATE TABLE IF NOT EXISTS matches (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         spec TEXT NOT NULL,
         seed INTEGER NOT NULL,
         seat0 TEXT NOT NULL,
         seat1 TEXT NOT NULL,
         token0 TEXT,
         token1 TEXT,
         forfeit_seat INTEGER,
         forfeit_reason TEXT
     );
     CREATE TABLE IF NOT EXISTS actions (
         match_id INTEGER NOT NULL REFERENCES matches(id),
         step INTEGER NOT NULL,
         action INTEGER NOT NULL,
         PRIMARY KEY (match_id, step)
     );",
    // 2: whether a match is over, so that a start replays only the others
    // (records of older servers are 0 until replayed once).
    "ALTER TABLE matches ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;
     CREATE INDEX matches_unfinished ON matches(id) WHERE finished = 0;",
    // 3: whether a bot is to decide, so that a process finds the bot turns
    // a dead process left (records of older servers are 0: a start of the
    // SQLite server replays them all anyway).
    "ALTER TABLE matches ADD COLUMN bot_due INTEGER NOT NULL DEFAULT 0;
     CREATE INDEX matches_bot_due ON matches(id) WHERE finished = 0 AND bot_due = 1;",
    // 4: the clocks (JSON, `crate::clock`, written with every move)
    // and a draw the seats agreed (an ending beside the forfeit).
    "ALTER TABLE matches ADD COLUMN clock TEXT;
     ALTER TABLE matches ADD COLUMN agreed_draw INTEGER NOT NULL DEFAULT 0;",
    // 5: players (people by name and key, bots by seat description),
    // their Glicko-2 ratings per game specification, and the rated
    // matches with each seat's player and whether their result is applied
    // (keyed by match, so that it is applied once).
    "CREATE TABLE players (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         name TEXT NOT NULL,
         folded TEXT NOT NULL UNIQUE,
         kind TEXT NOT NULL,
         key TEXT UNIQUE
     );
     CREATE TABLE ratings (
         player_id INTEGER NOT NULL REFERENCES players(id),
         spec TEXT NOT NULL,
         rating DOUBLE PRECISION NOT NULL,
         rd DOUBLE PRECISION NOT NULL,
         volatility DOUBLE PRECISION NOT NULL,
         games INTEGER NOT NULL,
         PRIMARY KEY (player_id, spec)
     );
     CREATE INDEX ratings_board ON ratings(spec, rating);
     CREATE TABLE rated_matches (
         match_id INTEGER PRIMARY KEY REFERENCES matches(id),
         player0 INTEGER REFERENCES players(id),
         player1 INTEGER REFERENCES players(id),
         applied INTEGER NOT NULL DEFAULT 0
     );",
    // 6: when a retention sweep first saw a match finished (Unix ms),
    // from which `--retain-finished-days` counts.
    "ALTER TABLE matches ADD COLUMN finished_ms INTEGER;",
    // 7: Battle Line's presets are snake_case now (`troops_only`, as every
    // other game's): the specifications stored under their kebab-case names
    // are rewritten, so that a player keeps one rating and a game one
    // leaderboard (the registry reads the old names too, so the matches
    // would replay either way).
    "UPDATE matches SET spec =
         replace(replace(replace(replace(replace(spec,
             'variant=published-order', 'variant=published_order'),
             'variant=troops-only', 'variant=troops_only'),
             'variant=claims-at-start', 'variant=claims_at_start'),
             'variant=movable-environment', 'variant=movable_environment'),
             'variant=unseen-wilds', 'variant=unseen_wilds');
     UPDATE ratings SET spec =
         replace(replace(replace(replace(replace(spec,
             'variant=published-order', 'variant=published_order'),
             'variant=troops-only', 'variant=troops_only'),
             'variant=claims-at-start', 'variant=claims_at_start'),
             'variant=movable-environment', 'variant=movable_environment'),
             'variant=unseen-wilds', 'variant=unseen_wilds');",
    // 8: a finished match's views as it ended (gzip-compressed JSON: the
    // spectator's and each seat's), served without a replay.
    "CREATE TABLE final_views (
         match_id INTEGER PRIMARY KEY REFERENCES matches(id),
         spectator BLOB NOT NULL,
         seat0 BLOB NOT NULL,
         seat1 BLOB NOT NULL
     );",
    // 9: the lobby, shared by the processes on one database and kept over
    // a restart: the seats waiting for a person (a place reserved by a
    // client, then its match's seat; the invitation as its seal, the
    // client as a digest of its address), each finished match's rematch
    // (claimed, then made), and the seat whose draw offer is open.
    "CREATE TABLE open_seats (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         match_id INTEGER UNIQUE REFERENCES matches(id),
         seat INTEGER,
         invite TEXT,
         listed INTEGER NOT NULL DEFAULT 0,
         owner TEXT NOT NULL,
         since INTEGER NOT NULL
     );
     CREATE TABLE rematches (
         match_id INTEGER PRIMARY KEY REFERENCES matches(id),
         rematch_id INTEGER REFERENCES matches(id)
     );
     ALTER TABLE matches ADD COLUMN draw_offer INTEGER;",
];

/// An SQL dialect of the schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite: [`MIGRATIONS`] as written.
    Sqlite,
    /// PostgreSQL: 64-bit integers and an identity column.
    Postgres,
}

impl Dialect {
    /// Migration `step` in this dialect. The only differences: SQLite's
    /// `INTEGER` is 64 bits and its `INTEGER PRIMARY KEY AUTOINCREMENT`
    /// numbers rows; PostgreSQL's `INTEGER` is 32 bits (seeds need 64) and
    /// an identity column numbers rows.
    pub fn render(self, step: &str) -> String {
        match self {
            Dialect::Sqlite => step.to_owned(),
            Dialect::Postgres => step
                .replace(
                    "INTEGER PRIMARY KEY AUTOINCREMENT",
                    "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
                )
                .replace("INTEGER", "BIGINT")
                .replace("BLOB", "BYTEA"),
        }
    }
}
