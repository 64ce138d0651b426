#!/usr/bin/env bash
# The full tier: every test of the project (CI's, through .ci/run). The
# quick tier, for a change in progress, is scripts/test-quick.sh.
#
# 1. Rust: one build of every target of the workspace, in release with
#    overflow checks on, that every later step reuses; then cargo test
#    --workspace --release at the documented counts, while step 2 runs.
# 2. Python: builds the abi3 wheel of ./python once (maturin) and installs
#    it into a virtual environment ($TABLETOP_VENV, default .venv) with the
#    frameworks its tests run (OpenSpiel, PettingZoo, Gymnasium, Ray and
#    RLlib, torch, sb3-contrib, PufferLib), then pytest python/tests, then
#    every command and snippet of the docs (scripts/run_docs.py).
# 3. Browser: builds the server and plays every game in Debian's Chromium
#    (Playwright, npm); with $TABLETOP_BESIDE_BROWSER set to a command
#    (.ci/run sets .ci/builds), runs it meanwhile at the lowest priority.
#
# What it needs, checked before anything starts:
# - cargo, python3 with its venv module, node and npm;
# - network to the Python package index (pip) and to the npm registry;
# - Debian's Chromium at /usr/bin/chromium and Debian's PostgreSQL server,
#   or apt-get to install them; root (for apt-get, and for the docs test,
#   which runs docs/server.md's PostgreSQL setup on a cluster of Debian's
#   tools as the postgres user).
# A missing need stops the run at once with what to do, not half-way.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
need() { command -v "$1" >/dev/null 2>&1 || missing+=("$1 ($2)"); }
need cargo "the Rust toolchain: https://rustup.rs"
need python3 "Python 3.9 or later"
need node "Node.js, for the browser tests"
need npm "npm, for the browser tests"
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    missing+=("python3's venv module (Debian: apt-get install python3-venv)")
fi
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        missing+=("Debian's Chromium at /usr/bin/chromium: run 'apt-get install chromium' as root, or run this script as root on Debian")
    fi
fi
have_postgres() { ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; }
if ! have_postgres; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        missing+=("Debian's PostgreSQL server (the two-process server test starts one): run 'apt-get install postgresql' as root, or run this script as root on Debian")
    fi
fi
if [ "$(id -u)" != 0 ]; then
    # The docs stage runs docs/server.md's PostgreSQL setup as an operator
    # does: on a cluster of Debian's tools, as the postgres user.
    missing+=("root, for docs/server.md's PostgreSQL setup (pg_createcluster, runuser -u postgres); scripts/run_docs.py --without-postgres runs the other docs")
fi
if command -v python3 >/dev/null 2>&1 \
    && ! timeout 60 python3 -m pip index versions pip >/dev/null 2>&1; then
    missing+=("network to the Python package index (pip could not reach it; set PIP_INDEX_URL for a mirror)")
fi
if command -v npm >/dev/null 2>&1 && ! timeout 60 npm ping >/dev/null 2>&1; then
    missing+=("network to the npm registry (npm ping failed; 'npm config set registry URL' for a mirror)")
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "scripts/test-all.sh cannot run on this machine; it needs:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    echo "(scripts/test-quick.sh needs only cargo, python3 and, once, PyPI for numpy, pytest and maturin)" >&2
    exit 2
fi

# Each section's wall time, printed as the next one starts.
section() {
    if [ -n "${section_name:-}" ]; then
        echo "-- $section_name: $((SECONDS - section_start)) s"
    fi
    section_name="$1"
    section_start=$SECONDS
    [ -n "$1" ] && echo "== $1"
    return 0
}

# The features every test needs on top of the defaults (policy seats in
# the arena and the server, the server's PostgreSQL store), one list for
# this script and .ci/run's clippy: scripts/full-features.
FULL_FEATURES="$(cat scripts/full-features)"
logs="$(mktemp -d)"

# What only waits on the network and the disk (Debian's packages, the
# Python stack with torch's 2.8 GB of wheels) is installed in the
# background while cargo compiles, and waited for where it is first used.
if [ "$(id -u)" = 0 ] && { ! have_postgres || [ ! -x /usr/bin/chromium ]; }; then
    # The server's two-process test (crates/tabletop-server/tests/postgres.rs)
    # starts its own PostgreSQL from Debian's binaries; its TLS test makes
    # certificates with OpenSSL's command line (which postgresql pulls in
    # through ssl-cert, named here all the same); the browser tests drive
    # Debian's Chromium.
    (apt-get update -qq && apt-get install -y -qq postgresql openssl chromium) >"$logs/apt.log" 2>&1 &
    apt_job=$!
fi
# Absolute, as the maturin step runs from python/.
venv="$(realpath -m "${TABLETOP_VENV:-.venv}")"
(
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    # The frameworks the tests train with (torch, sb3-contrib, PufferLib)
    # beside the adapters' frameworks, under one constraints file so that
    # the resolver takes torch once (python/constraints.txt).
    "$venv/bin/python" -m pip install --quiet -c python/constraints.txt \
        -r python/requirements-test.txt -r python/requirements-frameworks.txt "maturin>=1.9.4,<2"
) >"$logs/pip.log" 2>&1 &
pip_job=$!
wait_for() { # JOB NAME LOG
    if ! wait "$1"; then
        echo "installing $2 failed:" >&2
        cat "$3" >&2
        exit 1
    fi
}

section "Module circles and crate imports: each one as docs/architecture.md says"
python3 scripts/modgraph.py --check docs/architecture.md

section "Rust and Python: one build of every target, then cargo test beside the Python stage"
# Every build of this tier is one build: the release profile with overflow
# checks on (the crates hold no debug_assert!, so they are what a debug
# build would add), every feature the tests use, and crates whose features
# are pinned so that a build of the whole workspace and each package's own
# build (the arena's, the server's, the wheel's: what the Python tests and
# the docs' commands run) agree on every dependency's features: each
# crate compiles once (docs/performance.md, "CI's stage times"). The
# release profile builds the tests as fast as opt-level 1 did and runs
# them faster.
export CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true
if [ -n "${TABLETOP_BUILD_GUARD:-}" ]; then
    # Set by .ci/run: the README's programs (the arena, then the server, at
    # their default features) compile no workspace crate twice. First, so
    # that its check sees their own builds, and so that the build below
    # leaves the binaries with every feature in target/release.
    scripts/one-build.sh
fi
cargo build --release --workspace --all-targets --features "$FULL_FEATURES"
# The docs runner reads the server's options from this build's binary
# (scripts/run_docs.py, server_options): its own `cargo run -p
# tabletop-server`, at the default features, would replace the binary that
# the server's tests start while they run.
TABLETOP_SERVER_BIN="$(realpath "${CARGO_TARGET_DIR:-target}")/release/tabletop-server"
export TABLETOP_SERVER_BIN
echo "-- disk free after the build: $(df -h . | awk 'NR==2 {print $4}')"
if [ -n "${apt_job:-}" ]; then
    # The server's PostgreSQL tests need Debian's server.
    wait_for "$apt_job" "Debian's postgresql and chromium" "$logs/apt.log"
fi
# The tests run while the Python stage builds the wheel and runs pytest
# (one thread): each leaves a core idle much of the time. Nothing that the
# Python stage builds replaces a binary that the tests run.
cargo test --workspace --release --features "$FULL_FEATURES" >"$logs/rust.log" 2>&1 &
rust_job=$!

echo "-- disk free: $(df -h . | awk 'NR==2 {print $4}') (the framework stack needs about 8 GB)"
wait_for "$pip_job" "the Python test stack" "$logs/pip.log"
# The abi3 wheel, built once by maturin and installed: the tests run what a
# user installs.
wheels="target/python-wheels"
rm -rf "$wheels"
(cd python && "$venv/bin/maturin" build --release --out "../$wheels") 2>&1 | tee "$logs/maturin.log"
if [ -n "${TABLETOP_BUILD_GUARD:-}" ]; then
    # The extension reuses the guard's and the workspace's build of every
    # workspace crate.
    scripts/one-build.sh --check-log "$logs/maturin.log" tabletop-python
fi
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheels"/tabletop-*.whl
python_rc=0
"$venv/bin/python" -m pytest -q --durations=15 python/tests || python_rc=$?
echo "-- Python: pytest ended with $python_rc, $((SECONDS - section_start)) s into this section"
rust_rc=0
wait "$rust_job" || rust_rc=$?
echo "== Rust: cargo test --workspace --release (its output)"
cat "$logs/rust.log"
echo "-- Rust: cargo test ended with $rust_rc"
if [ "$rust_rc" != 0 ] || [ "$python_rc" != 0 ]; then
    echo "the Rust tests (exit $rust_rc) or the Python tests (exit $python_rc) failed" >&2
    exit 1
fi

section "Docs: every command and snippet of README.md, docs/ and the crates' READMEs, at small counts"
"$venv/bin/python" scripts/run_docs.py    # the rule: docs/architecture.md, "Docs that run"

section "Browser: a person plays every game in Debian's Chromium (Playwright)"
# With policy seats (web/tests/policy.test.mjs seats a trained policy),
# and PostgreSQL's client: the docs test of docs/server.md and
# docs/learning.md built this same release binary (their doc-run
# directives ask for both), so this build links nothing new.
cargo build --release -p tabletop-server --features policy,postgres
beside_job=""
if [ -n "${TABLETOP_BESIDE_BROWSER:-}" ]; then
    # A command of the caller's to run meanwhile (.ci/run's builds, which
    # need only the CPU): the browser checks mostly wait on the page and
    # the bots (2 min of CPU in 5 of wall, docs/performance.md), so it runs
    # beside them at the lowest priority, and the run fails if it fails.
    nice -n 19 $TABLETOP_BESIDE_BROWSER >"$logs/beside.log" 2>&1 &
    beside_job=$!
fi
(cd crates/tabletop-server/web && npm ci --no-audit --no-fund --loglevel=error && npm test)
if [ -n "$beside_job" ]; then
    section "Beside the browser: $TABLETOP_BESIDE_BROWSER (its output)"
    beside_rc=0
    wait "$beside_job" || beside_rc=$?
    cat "$logs/beside.log"
    if [ "$beside_rc" != 0 ]; then
        echo "$TABLETOP_BESIDE_BROWSER failed (exit $beside_rc)" >&2
        exit 1
    fi
fi
section ""
