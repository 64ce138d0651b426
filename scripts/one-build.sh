#!/usr/bin/env bash
# One build of each workspace crate for the README's programs: the arena
# (the README's first command), then the server, each at its default
# features and the release profile. Fails if the server's build compiles a
# workspace crate that the arena's build compiled already: a feature or a
# dependency that differs between the two would make every user who runs
# both pay for the game crates twice (docs/performance.md, "Light builds").
#
#   scripts/one-build.sh                         # the arena, then the server
#   scripts/one-build.sh --check-log LOG CRATE.. # LOG (cargo's output) compiled
#                                                # no workspace crate but CRATEs
set -euo pipefail
cd "$(dirname "$0")/.."

# The workspace crates a cargo log compiled: cargo names a path package's
# directory beside its version ("Compiling game-traits v0.1.0 (/x/y)"), a
# registry crate's never.
compiled_here() {
    sed -nE 's/^ *Compiling ([A-Za-z0-9_-]+) v[^ ]+ \(\/.*\)$/\1/p' "$1" | sort -u
}

check_log() { # LOG ALLOWED...
    local log="$1"
    shift
    local again=()
    for krate in $(compiled_here "$log"); do
        local allowed=0
        for a in "$@"; do [ "$krate" = "$a" ] && allowed=1; done
        [ "$allowed" = 1 ] || again+=("$krate")
    done
    if [ ${#again[@]} -gt 0 ]; then
        echo "one build: compiled again: ${again[*]}" >&2
        echo "(a feature or a dependency differs from the build before; docs/performance.md, \"Light builds\")" >&2
        exit 1
    fi
    echo "one build: no workspace crate compiled twice (only: $(compiled_here "$log" | tr '\n' ' '))"
}

if [ "${1:-}" = "--check-log" ]; then
    shift
    check_log "$@"
    exit 0
fi

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
cargo build --release --example arena 2>&1 | tee "$logs/arena.log"
cargo build --release -p tabletop-server 2>&1 | tee "$logs/server.log"
check_log "$logs/server.log" tabletop-server
