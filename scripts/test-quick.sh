#!/usr/bin/env bash
# The quick tier, for a change in progress: every crate's tests (but the
# trained policies' runtime and the server's opt-in features) and the
# conformance kit at small counts, then the Python smoke tests (the ones
# that need only numpy and pytest: no OpenSpiel, PettingZoo, Gymnasium or
# Ray). About 4 minutes of CPU once built (docs/performance.md, "Build
# times").
# The full tier, CI's, is scripts/test-all.sh.
#
# Needs cargo and python3 (with venv); the first run installs numpy, pytest
# and maturin into the virtual environment ($TABLETOP_VENV, default .venv)
# from the Python package index, later runs need no network. A count set in
# the environment wins over the small one below.
set -euo pipefail
cd "$(dirname "$0")/.."

# The counts the tests read (each test file names its own).
export CONFORMANCE_GAMES="${CONFORMANCE_GAMES:-4}" # games per rule set, conformance kit
export PROPTEST_CASES="${PROPTEST_CASES:-32}"      # property tests without their own count
export HOSTILE_INPUTS="${HOSTILE_INPUTS:-40}"      # tampered inputs per preset
export FINAL_GAMES="${FINAL_GAMES:-4}"             # games whose final positions are determinised
export WIRE_GAMES="${WIRE_GAMES:-4}"               # games checked against the wire schema
export TABLETOP_LOAD_MATCHES="${TABLETOP_LOAD_MATCHES:-8}" # the server's load test
export LEAK_RECORDS="${LEAK_RECORDS:-2}"           # records per preset, the server's leak test

echo "== Module circles and crate imports: each one as docs/architecture.md says"
python3 scripts/modgraph.py --check docs/architecture.md

echo "== Rust: cargo test --workspace (small counts), but game-policy's"
# game-policy's tests need tract's ONNX stack, a third of a cold test
# build; they, the server's policy seats and its PostgreSQL store (both
# opt-in features) are the full tier's (scripts/test-all.sh).
cargo test --workspace --exclude game-policy

echo "== Python smoke tests: build and install ./python, then pytest (numpy only)"
venv="${TABLETOP_VENV:-.venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
venv="$(cd "$venv" && pwd)"
if ! "$venv/bin/python" -c 'import numpy, pytest, maturin' 2>/dev/null; then
    "$venv/bin/python" -m pip install --quiet numpy pytest 'maturin>=1.9.4,<2'
fi
# No build isolation: maturin comes from the environment (its bin/ on PATH,
# where pip's build hook looks for it), so a rebuild needs no network.
# maturin builds into the workspace's target/.
PATH="$venv/bin:$PATH" "$venv/bin/python" -m pip install --quiet --no-build-isolation ./python
"$venv/bin/python" -m pytest -q python/tests/test_api.py python/tests/test_vec_env.py \
    python/tests/test_games_come_from_the_registry.py
