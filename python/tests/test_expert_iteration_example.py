"""The search-and-learn example (python/examples/expert_iteration.py)
records the teacher's labels, trains its network on them, prints its
learning curve, and saves and exports the policy it keeps (its curve over
a longer run is in docs/learning.md)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import onnx
import pytest
import torch

import tabletop
from conftest import load_example


def test_expert_iteration_learns_the_teachers_labels_saves_and_exports(tmp_path: pathlib.Path, capsys) -> None:
    example = load_example("expert_iteration")
    out, exported = tmp_path / "bl.pt", tmp_path / "bl.onnx"
    args = ["--game", "battleline", "--teacher", "expert:2", "--iterations", "1", "--games-per-iteration", "2",
            "--hidden", "32", "--eval-games", "2", "--bots", "random", "--out", str(out), "--onnx", str(exported)]
    policy = example.main(args)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "iteration decisions seconds agreement loss vs_random cpu_seconds"
    assert len(lines) == 2
    # Two whole games against the heuristic (the first opponent), one on each seat.
    assert int(lines[1].split()[1]) > 50
    game = tabletop.load_game("battleline")
    saved = example.Policy(game.observation_tensor_size(), game.num_distinct_actions(), hidden=32)
    saved.load_state_dict(torch.load(out))
    assert all(torch.equal(saved.state_dict()[k], v) for k, v in policy.state_dict().items())
    torch.manual_seed(0)
    untrained = example.Policy(game.observation_tensor_size(), game.num_distinct_actions(), hidden=32)
    assert any(not torch.equal(a, b) for a, b in zip(untrained.parameters(), policy.parameters()))
    model = onnx.load(str(exported))
    props = {p.key: p.value for p in model.metadata_props}
    assert props["tabletop.format"] == "tabletop-policy/1"
    assert props["tabletop.spec"] == game.name
    assert json.loads(props["tabletop.observation"])["size"] == game.observation_tensor_size()


def test_the_numpy_apprentice_plays_the_networks_greedy_legal_action() -> None:
    example = load_example("expert_iteration")
    game = tabletop.load_game("battleline")
    torch.manual_seed(3)
    policy = example.Policy(game.observation_tensor_size(), game.num_distinct_actions(), hidden=16)
    apprentice = example.Apprentice(policy)
    state = game.new_initial_state()
    k = 0
    while not state.is_player_node():
        state.play_chance(k)
        k += 1
    obs, mask = state.observation_tensor(), state.legal_actions_mask()
    action = apprentice.act(obs, mask)
    assert action in state.legal_actions()
    assert action == int(policy.act(obs[None], mask[None], greedy=True)[0])


def test_labels_are_the_teachers_actions_at_the_recorded_states() -> None:
    example = load_example("expert_iteration")
    game = tabletop.load_game("battleline")
    data = example.Data(game.num_distinct_actions())
    teacher = game.make_bot("expert:2", 0)
    # The teacher against random: only the teacher's seat is labelled.
    example.play(game, [teacher, game.make_bot("random", 1)], teacher, [True, False], 9, data)
    obs, masks, labels, returns = next(data.batches(len(data), len(data), np.random.default_rng(0)))
    assert len(labels) == len(data) > 0
    assert torch.all(masks.gather(1, labels[:, None]) == 1)  # every label legal where it was recorded
    seat = torch.as_tensor(game.observation_tensor_layout()[-1][1])
    assert torch.all(obs[:, seat] == obs[0, seat])  # one seat's tensors only
    assert set(returns.tolist()) <= {-1.0, 0.0, 1.0} and len(set(returns.tolist())) == 1


def test_an_unknown_teacher_fails_before_any_work() -> None:
    example = load_example("expert_iteration")
    with pytest.raises(tabletop.GameError):
        example.main(["--game", "battleline", "--teacher", "nobody"])
