//! The processes of the two-process test (`tests/postgres.rs`): a
//! PostgreSQL server of Debian's package on a free port of 127.0.0.1, and
//! server binaries on it; each stopped when dropped, a failing test
//! included.

use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// Whether this test runs as root (PostgreSQL then runs as `postgres`).
fn is_root() -> bool {
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// The directory of Debian's PostgreSQL server binaries, the newest.
fn postgres_bin() -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|b| b.join("initdb").exists() && b.join("pg_ctl").exists())
        .collect();
    found.sort();
    found.pop().unwrap_or_else(|| {
        panic!(
            "PostgreSQL's server binaries are missing (no /usr/lib/postgresql/*/bin/initdb and \
             pg_ctl): install them with `apt-get install -y postgresql`"
        )
    })
}

/// A port free on 127.0.0.1 now.
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// A PostgreSQL server of its own, stopped (and its directory removed)
/// when dropped, a failing test included.
pub struct Postgres {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
}

impl Postgres {
    pub fn start() -> Postgres {
        let bin = postgres_bin();
        // One directory per server: the tests of a binary run at once.
        static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("tabletop-pg-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if is_root() {
            let chown = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&dir)
                .status()
                .unwrap();
            assert!(chown.success(), "chown of {}", dir.display());
        }
        let pg = Postgres {
            bin,
            dir,
            port: free_port(),
        };
        pg.run(
            "initdb",
            &[
                "-D",
                &pg.data(),
                "-U",
                "tabletop",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            pg.port,
            pg.dir.display()
        );
        let log = pg.dir.join("log").display().to_string();
        pg.run(
            "pg_ctl",
            &["-D", &pg.data(), "-l", &log, "-o", &options, "-w", "start"],
        );
        pg
    }

    fn data(&self) -> String {
        self.dir.join("data").display().to_string()
    }

    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    fn run(&self, program: &str, args: &[&str]) {
        let out = self
            .command(program)
            .args(args)
            .current_dir(&self.dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{program} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    pub fn url(&self) -> String {
        self.url_of("postgres")
    }

    /// The URL of its database `name`.
    pub fn url_of(&self, name: &str) -> String {
        format!("postgres://tabletop@127.0.0.1:{}/{name}", self.port)
    }

    /// Runs PostgreSQL's client `program` (`pg_dump`, `createdb`,
    /// `pg_restore`) on this server as `tabletop`, in its directory.
    pub fn client(&self, program: &str, args: &[&str]) {
        let port = self.port.to_string();
        let mut all = vec!["-h", "127.0.0.1", "-p", &port, "-U", "tabletop"];
        all.extend_from_slice(args);
        self.run(program, &all);
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = self
            .command("pg_ctl")
            .args(["-D", &self.data(), "-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A server process, killed when dropped.
pub struct Process {
    child: Child,
    /// `http://ADDRESS:PORT`.
    pub base: String,
}

impl Process {
    pub fn start(url: &str) -> Process {
        let (child, base) = crate::common::spawn_server(0, |c| c.env("TABLETOP_DATABASE", url));
        Process { child, base }
    }

    /// SIGKILL.
    pub fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM, then whether the process exited with success in 30 s.
    pub fn stop(&mut self) -> bool {
        let term = Command::new("kill")
            .arg(self.child.id().to_string())
            .status()
            .unwrap();
        assert!(term.success());
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
