"""The reference trainer (python/examples/selfplay.py) updates its network
by self-play, prints its learning curve and saves a network that plays
legal moves (its curves over longer runs are in docs/learning.md), and
exports a policy that the Rust arena plays (`policy:FILE`)."""

from __future__ import annotations

import json
import pathlib

import pytest
import torch

import tabletop
from conftest import arena, load_example


def test_the_reference_trainer_trains_saves_and_plays(tmp_path: pathlib.Path, capsys) -> None:
    selfplay = load_example("selfplay")
    out = tmp_path / "kuhn.pt"
    args = ["--game", "kuhn_poker", "--minutes", "0.1", "--envs", "64", "--batch", "512",
            "--eval-every", "1000", "--eval-games", "50", "--bots", "random", "--out", str(out)]
    policy = selfplay.main(args)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("update decisions seconds vs_random")
    assert len(lines) >= 2
    saved = selfplay.Policy(14, 5)
    saved.load_state_dict(torch.load(out))
    state = tabletop.load_game("kuhn_poker").new_initial_state()
    state.play_chance(3)
    action = saved.act(state.observation_tensor(0)[None], state.legal_actions_mask()[None], greedy=True)
    assert int(action[0]) in state.legal_actions()
    torch.manual_seed(0)
    untrained = selfplay.Policy(14, 5)
    assert any(not torch.equal(a, b) for a, b in zip(untrained.parameters(), policy.parameters()))
    assert 0.0 <= selfplay.win_rate(policy, "kuhn_poker", "random", 50, seed=5) <= 1.0


def test_keep_best_keeps_the_network_of_the_best_evaluation(tmp_path: pathlib.Path, monkeypatch, capsys) -> None:
    selfplay = load_example("selfplay")
    # The second evaluation scores best; the later ones worse.
    scores = iter([0.5, 0.9])
    seen = []

    def scripted(policy, game, bot, games, seed):
        seen.append({k: v.clone() for k, v in policy.state_dict().items()})
        return next(scores, 0.1)

    monkeypatch.setattr(selfplay, "win_rate", scripted)
    out = tmp_path / "kuhn.pt"
    args = ["--game", "kuhn_poker", "--minutes", "0.05", "--envs", "64", "--batch", "512",
            "--eval-every", "1", "--bots", "heuristic", "--keep-best", "heuristic", "--out", str(out)]
    policy = selfplay.main(args)
    assert len(seen) >= 3
    kept = torch.load(out)
    assert all(torch.equal(kept[k], seen[1][k]) for k in kept)
    assert all(torch.equal(v, seen[1][k]) for k, v in policy.state_dict().items())
    assert any(not torch.equal(kept[k], seen[-1][k]) for k in kept)
    assert capsys.readouterr().out.splitlines()[-1] == "kept update 2 vs_heuristic 0.900"


def test_keep_best_names_one_of_the_bots() -> None:
    selfplay = load_example("selfplay")
    with pytest.raises(SystemExit):
        selfplay.main(["--game", "kuhn_poker", "--bots", "random", "--keep-best", "heuristic"])


def test_an_exported_policy_plays_in_the_rustarena(tmp_path: pathlib.Path) -> None:
    selfplay = load_example("selfplay")
    policy = tmp_path / "cardwar.onnx"
    args = ["--game", "cardwar", "--minutes", "0.02", "--hidden", "8", "--envs", "16", "--batch", "256",
            "--eval-every", "1000", "--eval-games", "4", "--bots", "random", "--onnx", str(policy)]
    selfplay.main(args)
    records = tmp_path / "games.jsonl"
    run = arena("--game", "cardwar", "--bots", f"policy:{policy},random", "--rounds", "4", "--seed", "5",
                 "--records", str(records))
    assert run.returncode == 0, run.stderr
    games = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(games) == 4
    # The arena fails (exit 1) on any illegal move; these are whole games.
    assert all(record["game"] == "cardwar" and record["actions"] for record in games)
    # Trained on card war, it has no seat at a Battle Line table.
    assert arena("--game", "battleline", "--bots", f"policy:{policy},random", "--rounds", "2").returncode == 2
