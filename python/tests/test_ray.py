"""The Ray arena example, run on a local Ray instance."""

from __future__ import annotations

import subprocess
import sys

import tabletop
from conftest import EXAMPLES, load_example

EXAMPLE = EXAMPLES / "ray_arena.py"


def test_the_arena_runs_on_local_ray_and_matches_a_serial_run() -> None:
    arena = load_example("ray_arena")
    rounds, bots, seed = 4, ["random", "ismcts:20"], 5
    # Run as a user runs it: a script, whose functions Ray ships to its
    # workers by value.
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), "--num-cpus", "2", "--rounds", str(rounds),
         "--bots", ",".join(bots), "--seed", str(seed)],
        capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stderr
    text = run.stdout.strip()
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["game", "bot", "A"]
    specs = tabletop.registered_specs()
    rows = [line for line in lines[1:-1] if not line.startswith("    ")]
    assert len(rows) == len(specs), text
    for spec, row in zip(specs, rows):
        assert row.startswith(spec) and f" {rounds} " in row
    assert lines[-1].startswith(f"{rounds * len(specs)} games in ")
    assert "failed" not in text

    # The same games played here, one after another, give the same table.
    table = arena.pairings(specs, bots)
    index = 0
    for pairing in table:
        wins = [0, 0]
        for g in range(rounds):
            a, b = pairing.bots
            seats = (a, b) if g % 2 == 0 else (b, a)
            winner = arena.play(pairing.game, seats, arena.game_seed(seed, index))["winner"]
            index += 1
            if winner is not None:
                wins[0 if (winner == 0) == (g % 2 == 0) else 1] += 1
        expected = arena.rate(wins[0], rounds)
        row = next(r for r in rows if r.startswith(pairing.game))
        assert expected in row, (expected, row)


def test_wilson_intervals_match_the_rust_arena() -> None:
    arena = load_example("ray_arena")
    # The published values the Rust arena checks (src/stats.rs): Wilson
    # (1927) / Newcombe (1998), 81 of 263 -> [0.2553, 0.3662]; 0 of 10 ->
    # [0, 0.2775].
    lo, hi = arena.wilson(81, 263)
    assert abs(lo - 0.2553) < 5e-4 and abs(hi - 0.3662) < 5e-4
    lo, hi = arena.wilson(0, 10)
    assert lo == 0.0 and abs(hi - 0.2775) < 5e-4
    assert arena.wilson(0, 0) == (0.0, 1.0)
