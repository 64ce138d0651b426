#!/usr/bin/env bash
# The full tier: every test of the project (CI's, through .ci/run). The
# quick tier, for a change in progress, is scripts/test-quick.sh.
#
# 1. Rust: cargo test --workspace, at the documented counts.
# 2. Python: builds the abi3 wheel of ./python once (maturin) and installs
#    it into a virtual environment ($TABLETOP_VENV, default .venv) with the
#    frameworks its tests run (OpenSpiel, PettingZoo, Gymnasium, Ray and
#    RLlib, torch, sb3-contrib, PufferLib), then pytest python/tests, then
#    every command and snippet of the docs (scripts/run_docs.py).
# 3. Browser: builds the server and plays every game in Debian's Chromium
#    (Playwright, npm).
#
# What it needs, checked before anything starts:
# - cargo, python3 with its venv module, node and npm;
# - network to the Python package index (pip) and to the npm registry;
# - Debian's Chromium at /usr/bin/chromium and Debian's PostgreSQL server,
#   or root and apt-get to install them (the only steps that need root).
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

if ! have_postgres; then
    # The server's two-process test (crates/tabletop-server/tests/postgres.rs)
    # starts its own PostgreSQL from Debian's binaries.
    apt-get update -qq
    apt-get install -y -qq postgresql
fi

echo "== Rust: cargo test --workspace"
cargo test --workspace

if [ -n "${TABLETOP_FREE_DEBUG_BUILD:-}" ]; then
    # Set by .ci/run: nothing below reads the debug build (the docs run
    # `cargo run --release`), and torch's CUDA wheels need its disk.
    rm -rf target/debug
fi

echo "== Python: build and install ./python, then pytest"
echo "-- disk free: $(df -h . | awk 'NR==2 {print $4}') (the framework stack needs about 8 GB)"
venv="${TABLETOP_VENV:-.venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
# The frameworks the tests train with (torch, sb3-contrib, PufferLib) are
# installed once, beside the adapters' frameworks.
"$venv/bin/python" -m pip install --quiet -r python/requirements-test.txt -r python/requirements-frameworks.txt
# The abi3 wheel, built once by maturin and installed: the tests run what a
# user installs.
"$venv/bin/python" -m pip install --quiet "maturin>=1.9.4,<2"
wheels="target/python-wheels"
rm -rf "$wheels"
(cd python && "../$venv/bin/maturin" build --release --out "../$wheels")
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheels"/tabletop-*.whl
"$venv/bin/python" -m pytest -q python/tests

echo "== Docs: every command and snippet of README.md, docs/ and the crates' READMEs, at small counts"
"$venv/bin/python" scripts/run_docs.py    # the rule: docs/architecture.md, "Docs that run"

echo "== Browser: a person plays every game in Debian's Chromium (Playwright)"
if [ ! -x /usr/bin/chromium ]; then
    apt-get update -qq
    apt-get install -y -qq chromium
fi
cargo build --release -p tabletop-server
(cd crates/tabletop-server/web && npm ci --no-audit --no-fund --loglevel=error && npm test)
