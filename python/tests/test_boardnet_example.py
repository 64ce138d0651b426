"""The Stratego network of convolutions over the board
(python/examples/boardnet.py): each move id reads its own square on the
viewer's board, for both seats, the expert-iteration example trains it,
and the Rust arena plays its exported graph (`policy:FILE`)."""

from __future__ import annotations

import pathlib
import random
import re

import numpy as np
import torch

import tabletop
from conftest import load_example, policy_plays_in_the_arena

SHORT = "stratego(variant=classic,max_moves=40)"


def test_every_move_reads_its_from_square_on_the_viewers_board_for_both_seats() -> None:
    boardnet = load_example("boardnet")
    game = tabletop.load_game("stratego(variant=classic)")
    structure = boardnet.board_structure(game)
    squares = structure["rows"] * structure["cols"]
    own = [p for p in game.observation_tensor_planes() if re.fullmatch(r"own_(r\d|mine|flag)", p["name"])]
    assert len(own) == 12
    rng = random.Random(5)
    state, checked = game.new_initial_state(), {0: 0, 1: 0}
    while not state.is_terminal() and state.move_number() < 200:
        if state.is_chance_node():
            state.play_chance(rng.randrange(1 << 30))
            continue
        player = state.current_player()
        obs = np.asarray(state.observation_tensor(player))
        mine = sum(obs[p["offset"] : p["offset"] + p["length"]] for p in own)
        assert obs[structure["seat"]] == player
        for action in state.legal_actions():
            if state.action_struct(action)["type"] != "move":
                continue
            square = structure["orders"][player][action] % squares
            assert mine[square] == 1, (player, state.action_struct(action))
            checked[player] += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked[0] > 100 and checked[1] > 100


def test_the_graph_maps_the_board_onto_the_ids_by_the_seat() -> None:
    # The same observation read as the first or the second seat gives the
    # same logits at the two seats' ids of one move on the viewer's board.
    boardnet = load_example("boardnet")
    game = tabletop.load_game("stratego(variant=classic)")
    torch.manual_seed(2)
    policy = boardnet.BoardPolicy(game, channels=8, layers=2)
    with torch.no_grad():  # the seat then changes nothing but the mapping
        policy.values_in.weight[:, (policy.rest == policy.seat).nonzero()[0, 0]] = 0.0
    first = torch.rand(1, game.observation_tensor_size())
    first[0, policy.seat] = 0.0
    second = first.clone()
    second[0, policy.seat] = 1.0
    a, b = policy.logits_of(first)[0], policy.logits_of(second)[0]
    # a move and its turned twin: the first seat's a4-a5 is the second's j7-j6
    state = game.new_initial_state()
    ids = {(f["from"], f["to"]): i for i in range(game.num_distinct_actions()) if "from" in (f := state.action_struct(i))}
    assert a[ids[("a4", "a5")]] == b[ids[("j7", "j6")]]
    assert a[ids[("a4", "a5")]] != b[ids[("a4", "a5")]]


def test_expert_iteration_trains_the_board_network_and_the_rust_arena_plays_it(tmp_path: pathlib.Path) -> None:
    example = load_example("expert_iteration")
    exported = tmp_path / "board.onnx"
    args = ["--game", SHORT, "--teacher", "expert:1", "--net", "board", "--iterations", "2",
            "--games-per-iteration", "2", "--hidden", "64", "--eval-games", "2", "--bots", "random",
            "--onnx", str(exported)]
    policy = example.main(args)
    assert type(policy).__name__ == "BoardPolicy"
    policy_plays_in_the_arena(SHORT, exported)
