"""The Gymnasium single-seat environment against a built-in bot."""

from __future__ import annotations

import importlib.metadata
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import gymnasium

from gymnasium.utils.env_checker import check_env

import tabletop
import tabletop.gymnasium as tg
import tabletop.registration
from conftest import SPECS

IDS = tg.register()


def test_every_game_and_preset_has_a_gymnasium_id() -> None:
    assert len(IDS) == len(SPECS)
    assert tg.register() == IDS
    assert [spec for _, spec in tabletop.registration.gymnasium_ids()] == list(SPECS)


def test_each_games_default_preset_comes_first() -> None:
    ids = [gid for gid, _ in tabletop.registration.gymnasium_ids()]
    for listing in tabletop.registered_games():
        own = [i for i in ids if i.startswith(f"tabletop/{listing.name}_") or i == f"tabletop/{listing.name}-v0"]
        default = listing.presets[0].name if listing.presets else None
        assert own[0] == tabletop.registration.env_id(listing.name, default)


def _fresh(code: str) -> subprocess.CompletedProcess:
    """Runs `code` in a new interpreter: nothing imported or registered yet."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_import_tabletop_registers_every_id_without_a_call() -> None:
    run = _fresh(
        "import gymnasium, tabletop\n"
        "ids = [k for k in gymnasium.registry if k.startswith('tabletop/')]\n"
        "print(len(ids))\n"
        "env = gymnasium.make('tabletop/kuhn_poker_classic-v0', opponent='random')\n"
        "env.reset(seed=1)\n"
    )
    assert run.returncode == 0, run.stderr
    assert int(run.stdout.split()[0]) == len(IDS)


def test_make_with_the_module_prefix_imports_tabletop_first() -> None:
    run = _fresh(
        "import gymnasium, sys\n"
        "assert 'tabletop' not in sys.modules\n"
        "env = gymnasium.make('tabletop:tabletop/cardwar_default-v0', opponent='heuristic')\n"
        "env.reset(seed=2)\n"
    )
    assert run.returncode == 0, run.stderr


def test_the_gymnasium_plugin_entry_point_names_the_registration() -> None:
    points = [p for p in importlib.metadata.entry_points(group="gymnasium.envs") if p.name == "tabletop"]
    assert len(points) == 1
    assert points[0].load() is tabletop.registration.register_gymnasium


@pytest.mark.parametrize("gid", IDS)
@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("opponent", ["random", "ismcts:16"])
def test_gymnasium_check_env_passes(gid: str, seat: int, opponent: str) -> None:
    env = gymnasium.make(gid, seat=seat, opponent=opponent, disable_env_checker=True)
    check_env(env.unwrapped)


def test_episodes_show_only_the_learners_decisions(spec: str) -> None:
    for seat in (0, 1):
        env = tg.TabletopEnv(spec, seat=seat, opponent="random")
        obs, info = env.reset(seed=5)
        rng = np.random.default_rng(1)
        total, episodes = 0.0, 0
        for _ in range(300):
            assert env.state.current_player() == seat
            assert np.array_equal(obs, env.state.observation_tensor(seat))
            legal = np.flatnonzero(info["action_mask"])
            assert list(legal) == env.state.legal_actions()
            assert np.array_equal(env.action_masks(), info["action_mask"])
            assert info["action_mask"].dtype == np.int8
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            assert env.observation_space.contains(obs)
            if terminated or truncated:
                assert reward == env.state.returns()[seat]
                total += reward
                episodes += 1
                obs, info = env.reset()
            else:
                assert reward == 0.0
        assert episodes > 0


def test_illegal_actions_lose_or_raise(spec: str) -> None:
    env = tg.TabletopEnv(spec)
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.state.serialize()
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and info["illegal_action"] and reward == env.game.min_utility()
    assert env.state.serialize() == before
    strict = tg.TabletopEnv(spec, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(tabletop.IllegalActionError):
        strict.step(illegal)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(tabletop.GameSpecError):
        tg.TabletopEnv(SPECS[0], opponent="no_such_bot")
    with pytest.raises(tabletop.GameError):
        tg.TabletopEnv(SPECS[0], seat=2)


def test_a_seed_replays_the_same_episode(spec: str) -> None:
    def run() -> list:
        env = tg.TabletopEnv(spec, seat=1, opponent="ismcts:16")
        obs, info = env.reset(seed=42)
        seen = [obs.tolist()]
        for _ in range(50):
            action = int(np.flatnonzero(info["action_mask"])[-1])
            obs, reward, terminated, truncated, info = env.step(action)
            seen.append((obs.tolist(), reward, terminated))
            if terminated or truncated:
                obs, info = env.reset()
                seen.append(obs.tolist())
        return seen

    assert run() == run()


def test_the_docs_table_lists_every_id_in_order() -> None:
    docs = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"
    after = docs.read_text().split("<!-- gymnasium-ids:", 1)[1].split("\n", 1)[1]
    table = after.split("\n\n", 1)[0].splitlines()[2:]
    rows = [tuple(cell.strip().strip("`") for cell in line.strip("|").split("|")) for line in table]
    assert rows == tabletop.registration.gymnasium_ids()
