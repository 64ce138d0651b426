#!/usr/bin/env bash
# Every test of the project: the Rust workspace, the Python package (built
# and installed into a virtual environment, with the frameworks its tests
# run: OpenSpiel, PettingZoo, Gymnasium, Ray), and the server with its
# browser tests. Installs what it needs from the package registries on a
# fresh machine; any failure fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Rust: cargo test --workspace"
cargo test --workspace

echo "== Python: build and install ./python, then pytest"
venv="${TABLETOP_VENV:-.venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet -r python/requirements-test.txt
"$venv/bin/python" -m pip install --quiet ./python
"$venv/bin/python" -m pytest -q python/tests

echo "== Browser: a person plays every game in Debian's Chromium (Playwright)"
if [ ! -x /usr/bin/chromium ]; then
    apt-get update -qq
    apt-get install -y -qq chromium
fi
cargo build --release -p tabletop-server
(cd crates/tabletop-server/web && npm ci --no-audit --no-fund --loglevel=error && npm test)
