"""The playout benchmark runs and reports what it counts."""

from __future__ import annotations

import importlib.util
import pathlib
import re
import sys
import types

import tabletop

BENCH = pathlib.Path(__file__).resolve().parents[1] / "bench"


def load(name: str) -> types.ModuleType:
    """The benchmark script python/bench/NAME.py, imported as a module."""
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    bench = importlib.util.module_from_spec(spec)
    sys.modules[name] = bench
    spec.loader.exec_module(bench)
    return bench


def test_the_benchmark_prints_moves_and_games_per_second_for_every_game() -> None:
    bench = load("bench_playouts")
    lines = bench.main(["--seconds", "0.05", "--repeats", "1", "--envs", "64"])
    assert "a move = one player decision" in lines[0]
    for s in tabletop.registered_specs():
        rates = [l for l in lines if l.startswith(s) and "moves/s" in l]
        assert len(rates) == 4, lines
        for line in rates:
            moves, games = re.search(r"([\d,]+) moves/s, ([\d,]+) games/s", line).groups()
            # A long game may not end within 0.05 s: its moves still count.
            assert int(moves.replace(",", "")) > 0 and int(games.replace(",", "")) >= 0
    # The counters agree with the games: a random run of 64 Kuhn poker
    # games for a few steps finishes games.
    moves, games, seconds = bench.vectorised("kuhn_poker", 0.05, 64, 1, False)
    assert moves % 64 == 0 and games > 0 and seconds > 0


def test_the_framework_benchmark_reports_each_path_against_vecenv() -> None:
    bench = load("bench_frameworks")
    paths = ["VecEnv", "gymnasium", "pufferlib", "rllib"]
    argv = ["--game", "kuhn_poker", "--envs", "16", "--seconds", "0.05", "--repeats", "1"]
    lines = bench.main(argv + [a for p in paths for a in ("--path", p)])
    assert len(lines) == len(paths)
    for name, line in zip(paths, lines):
        rate, ratio = re.search(rf" {name}: ([\d,]+) steps per CPU-second, ([\d.]+) of VecEnv", line).groups()
        assert int(rate.replace(",", "")) > 0 and float(ratio) > 0


def test_the_opponent_call_benchmark_counts_calls_and_batches_per_mode() -> None:
    bench = load("bench_opponent_calls")
    synced = bench.measure("cardwar", 32, 40, True)
    unsynced = bench.measure("cardwar", 32, 40, False)
    assert unsynced["calls_per_step"] <= 1 < synced["calls_per_step"]
    assert unsynced["median_batch"] > synced["median_batch"] > 0
    assert synced["decisions_per_cpu_second"] > 0 and unsynced["decisions_per_cpu_second"] > 0


def test_the_sb3_layer_benchmark_reports_each_layer_and_the_threads() -> None:
    bench = load("bench_sb3_layers")
    lines = bench.main(["--game", "kuhn_poker", "--envs", "16", "--every", "5", "--steps", "3", "--rounds", "2"])
    layers = ["MultiAgentVecEnv.step", "LearnerBatch.step", "TabletopVecEnv.step", "get_action_masks", "SB3 step"]
    assert len(lines) == len(layers) + 2
    for name, line in zip(layers, lines):
        assert re.search(rf"no-op: {re.escape(name)}: \d+ us of main-thread CPU per step", line), line
    for name, line in zip(["VecEnv", "SB3 step"], lines[len(layers):]):
        process, main = map(int, re.search(rf"{name}: (\d+) us of process CPU per step, (\d+) us", line).groups())
        assert process + 1 >= main >= 0, line  # the main thread is one of the process's
