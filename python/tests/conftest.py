"""Shared helpers: every test runs over every registered game and preset
(``tabletop.registered_specs()``), so games joining the registry are
covered without touching the tests."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import random
import subprocess
import sys
from types import ModuleType
from typing import Iterator, List

# torch's OpenMP workers spin while the batch's rayon workers want the same
# cores: on the 2 shared cores of CI, a 256 x 14 linear layer took 8.7 ms
# with torch's 2 threads against 14 us with one. Read by torch at import.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import pytest

import tabletop

SPECS: List[str] = tabletop.registered_specs()

# The one small game the game-theory tests need (CFR, exploitability):
# Kuhn poker, which OpenSpiel users know.
KUHN = "kuhn_poker"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "spec" in metafunc.fixturenames:
        metafunc.parametrize("spec", SPECS)


def random_states(spec: str, seed: int, games: int = 3) -> Iterator[tabletop.State]:
    """Every state (chance nodes included) of ``games`` random games of ``spec``."""
    rng = random.Random(seed)
    game = tabletop.load_game(spec)
    for _ in range(games):
        state = game.new_initial_state()
        yield state.clone()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            yield state.clone()


EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_example(name: str) -> ModuleType:
    """A fresh copy of ``python/examples/NAME.py``, registered under its
    name (the examples import their siblings: the directory goes on the
    path)."""
    if str(EXAMPLES) not in sys.path:
        sys.path.insert(0, str(EXAMPLES))
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def arena(*args: str) -> subprocess.CompletedProcess:
    """The Rust arena built with policy seats (`policy:FILE`), run with
    ``args``."""
    command = ["cargo", "run", "--release", "--quiet", "--features", "policy", "--example", "arena", "--", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=3600)


def policy_plays_in_the_arena(game: str, policy: pathlib.Path) -> None:
    """Two arena games of ``policy:FILE`` against random: the arena exits
    1 on a network it cannot run or an illegal move, and names a pairing
    that finished no game."""
    run = arena("--game", game, "--bots", f"policy:{policy},random", "--rounds", "2", "--threads", "1")
    assert run.returncode == 0, run.stderr
    assert "no game finished" not in run.stdout
