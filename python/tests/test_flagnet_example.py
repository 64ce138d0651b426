"""The network with one trunk a flag (python/examples/flagnet.py): its
split of the tensor and of the action ids is the game's own, its flags
share their weights, the expert-iteration example trains it, and the Rust
arena plays its exported graph (`policy:FILE`)."""

from __future__ import annotations

import itertools
import pathlib

import numpy as np
import torch

import tabletop
from conftest import load_example, policy_plays_in_the_arena, random_states


def test_every_action_naming_a_flag_reads_that_flags_head_and_the_rest_the_global_head() -> None:
    flagnet = load_example("flagnet")
    game = tabletop.load_game("battleline")
    flags, per_flag, rest, order, slots, global_size = flagnet.flag_structure(game)
    assert flags == 9
    width = len(slots)
    assert sorted(order.tolist()) == list(range(game.num_distinct_actions()))
    state = game.new_initial_state()
    kinds = set()
    for action in range(game.num_distinct_actions()):
        fields = state.action_struct(action)
        flag = fields.get("flag", fields.get("to"))
        if isinstance(flag, int):
            assert order[action] // width == flag - 1, fields
        else:
            assert order[action] >= flags * width, fields
        kinds.add(fields["type"])
    assert {"play", "traitor", "redeploy", "claim", "scout", "pass", "deal"} <= kinds
    assert flags * width + global_size == game.num_distinct_actions()
    # The tensor splits into the flags' features and the rest, each index once.
    used = np.concatenate([per_flag.ravel(), rest])
    assert sorted(used.tolist()) == list(range(game.observation_tensor_size()))
    own = next(p for p in game.observation_tensor_planes() if p["name"] == "own_side_cards")
    cards = own["dims"][1]
    for f in range(flags):
        assert set(range(own["offset"] + f * cards, own["offset"] + (f + 1) * cards)) <= set(per_flag[f].tolist())


def test_the_flags_share_their_weights() -> None:
    # With the flags' places and the context taken out, swapping two flags'
    # features swaps their logits and nothing else: one trunk serves all.
    flagnet = load_example("flagnet")
    game = tabletop.load_game("battleline")
    torch.manual_seed(1)
    policy = flagnet.FlagPolicy(game, hidden=16, context=32)
    with torch.no_grad():
        policy.context.weight.zero_()
        policy.place.zero_()
    state = game.new_initial_state()
    k = 0
    while not state.is_terminal() and state.move_number() < 40:
        if state.is_chance_node():
            state.play_chance(k)
        else:
            state.apply_action(state.legal_actions()[k % len(state.legal_actions())])
        k += 1
    obs = torch.as_tensor(np.asarray(state.observation_tensor(0), dtype=np.float32))[None]
    swapped = obs.clone()
    a, b = policy.per_flag[0], policy.per_flag[4]
    swapped[0, a], swapped[0, b] = obs[0, b], obs[0, a]
    assert not torch.equal(obs, swapped)
    width = policy.flag_head.out_features
    before = policy.logits_of(obs)[0, policy.order.argsort()][: 9 * width].reshape(9, width)
    after = policy.logits_of(swapped)[0, policy.order.argsort()][: 9 * width].reshape(9, width)
    assert torch.allclose(before[[4, 1, 2, 3, 0, 5, 6, 7, 8]], after, atol=1e-5)


def test_expert_iteration_trains_the_flag_network_and_the_rust_arena_plays_it(tmp_path: pathlib.Path, capsys) -> None:
    example = load_example("expert_iteration")
    exported = tmp_path / "flags.onnx"
    args = ["--game", "battleline", "--teacher", "expert:2", "--net", "flags", "--iterations", "2",
            "--games-per-iteration", "2", "--hidden", "32", "--eval-games", "2", "--bots", "random",
            "--by-type", "--onnx", str(exported)]
    policy = example.main(args)
    lines = capsys.readouterr().out.splitlines()
    # Iteration 0 is the teacher's own play; iteration 1's agreement is
    # split by the type of the teacher's action, plays among them.
    assert [line[0] for line in lines] == ["i", "0", "1", "#"]
    assert lines[3].startswith("# agreement by the teacher's action: ") and "play " in lines[3]
    assert type(policy).__name__ == "FlagPolicy"
    # The apprentice plays the network's greedy legal action, through the
    # network's own act (not the MLP's numpy path).
    apprentice = example.Apprentice(policy)
    for state in itertools.islice((s for s in random_states("battleline", 4, 1) if s.is_player_node()), 0, 60, 10):
        obs, mask = state.observation_tensor(), state.legal_actions_mask()
        action = apprentice.act(obs, mask)
        assert action in state.legal_actions()
        assert action == int(policy.act(obs[None], mask[None], greedy=True)[0])
    policy_plays_in_the_arena("battleline", exported)
