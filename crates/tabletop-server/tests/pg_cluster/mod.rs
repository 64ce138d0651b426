//! The processes of the two-process test (`tests/postgres.rs`): a
//! PostgreSQL server of Debian's package on a free port of 127.0.0.1, and
//! server binaries on it; each stopped when dropped, a failing test
//! included.

// Each test binary that includes this module uses a part of it.
#![allow(dead_code)]

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
        Postgres::start_with(None)
    }

    /// A server that also speaks TLS, with a certificate for 127.0.0.1
    /// signed by a new authority; returns it and that authority's PEM
    /// file (in the server's directory). OpenSSL's command line comes with
    /// Debian's PostgreSQL (through `ssl-cert`).
    pub fn start_tls() -> (Postgres, PathBuf) {
        let dir = std::env::temp_dir().join(format!(
            "tabletop-pg-tls-{}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let ca = authority(&dir, "ca");
        let (cert, key) = (dir.join("server.crt"), dir.join("server.key"));
        request(
            &dir,
            "-new",
            "server.key",
            "server.csr",
            "/CN=127.0.0.1",
            &[],
        );
        std::fs::write(
            dir.join("ext"),
            "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n",
        )
        .unwrap();
        openssl(
            &dir,
            &[
                "x509",
                "-req",
                "-in",
                "server.csr",
                "-CA",
                "ca.crt",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-out",
                "server.crt",
                "-days",
                "2",
                "-extfile",
                "ext",
            ],
        );
        let pg = Postgres::start_with(Some((&cert, &key)));
        let kept = pg.dir.join("ca.crt");
        std::fs::copy(&ca, &kept).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        (pg, kept)
    }

    /// A certificate authority of its own, `NAME.crt` in `dir`: the one
    /// that signs nothing here, for a refusal.
    pub fn other_authority(&self) -> PathBuf {
        authority(&self.dir, "other")
    }

    fn start_with(tls: Option<(&PathBuf, &PathBuf)>) -> Postgres {
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
        let mut options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            pg.port,
            pg.dir.display()
        );
        if let Some((cert, key)) = tls {
            // Kept in the server's directory, its owner's, the key private
            // (PostgreSQL refuses a key others may read).
            for (from, name) in [(cert, "server.crt"), (key, "server.key")] {
                std::fs::copy(from, pg.dir.join(name)).unwrap();
            }
            std::fs::set_permissions(
                pg.dir.join("server.key"),
                std::os::unix::fs::PermissionsExt::from_mode(0o600),
            )
            .unwrap();
            if is_root() {
                for name in ["server.crt", "server.key"] {
                    let chown = Command::new("chown")
                        .arg("postgres:postgres")
                        .arg(pg.dir.join(name))
                        .status()
                        .unwrap();
                    assert!(chown.success());
                }
            }
            options.push_str(&format!(
                " -c ssl=on -c ssl_cert_file={0}/server.crt -c ssl_key_file={0}/server.key",
                pg.dir.display()
            ));
        }
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

/// Runs OpenSSL's command line in `dir`.
fn openssl(dir: &std::path::Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("openssl runs");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `openssl req` with a new P-256 key (quick to make) in `key`: a
/// certificate request (`mode` `-new`) or a self-signed certificate
/// (`-x509`) in `out`, for `subject`, with `extra` arguments.
fn request(dir: &std::path::Path, mode: &str, key: &str, out: &str, subject: &str, extra: &[&str]) {
    let mut args = vec![
        "req",
        mode,
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        key,
        "-out",
        out,
        "-subj",
        subject,
    ];
    args.extend_from_slice(extra);
    openssl(dir, &args);
}

/// A new certificate authority, `NAME.crt` and `NAME.key` in `dir`.
fn authority(dir: &std::path::Path, name: &str) -> PathBuf {
    let (crt, key) = (format!("{name}.crt"), format!("{name}.key"));
    let subject = format!("/CN=tabletop test {name}");
    let ca = [
        "-days",
        "2",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
    ];
    request(dir, "-x509", &key, &crt, &subject, &ca);
    dir.join(crt)
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
