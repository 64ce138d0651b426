"""Shared helpers: every test runs over every registered game and preset
(``tabletop.registered_specs()``), so games joining the registry are
covered without touching the tests."""

from __future__ import annotations

import os
import random
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
