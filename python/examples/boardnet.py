"""A policy network shaped like the Stratego board: convolutions over the
viewer's board and a move head per square.

    from boardnet import BoardPolicy
    policy = BoardPolicy(tabletop.load_game("stratego(variant=classic)"))

An MLP over Stratego's 5,454 values learns each square's moves apart, and
the board it reads is the viewer's (the second seat's turned by 180
degrees) while the action ids name the board's own squares: the same
move on the viewer's board is a different id for each seat. Here:

- the board planes (the tensor's ``board`` stack, as
  ``observation_tensor_planes`` declares it) go through a few 3x3
  convolutions, with the other values (counts, phase, the result, the
  seat) projected into the first layer as a bias;
- a 1x1 convolution gives, on every square of the viewer's board, a logit
  for each step the rules allow a piece there (one square in each
  direction, and the longer runs of the long movers);
- each move id reads the logit of its from-square and step on the
  viewer's board: for the first seat the square as the id names it, for
  the second the same turned by 180 degrees, chosen inside the graph by
  the tensor's ``viewer_second``;
- a global head gives the setup's placements, a value head the return.

Which id is which square and step is read from the game (``action_struct``
names each move's ``from`` and ``to`` in the notation's algebraic squares,
files ``a``.. and ranks 1.. from the first seat's home row), so the only
rule restated here is the one of the rules document, "Encodings": a board
plane shows the viewer's home rows at the bottom. ``BoardPolicy`` is a
selfplay.py ``MaskedPolicy`` (``forward``, ``logits_of``, ``act``), so
its trainers, ``win_rate`` and ``export`` take it as it is.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np
import torch

from selfplay import MaskedPolicy
from tabletop.spaces import observation_groups


def _square(name: str, rows: int) -> Tuple[int, int]:
    """Row and column of an algebraic square on the first seat's board
    (rank 1, its home row, at the bottom)."""
    return rows - int(name[1:]), ord(name[0]) - ord("a")


def board_structure(game) -> Dict[str, object]:
    """The tensor's board planes and other values, the steps a move can
    take, and for each seat every action id's place in the concatenation
    of the move head (step-major, then the viewer's square) and the
    global head."""
    groups = observation_groups(game)
    board = next(g for g in groups if g.name == "board")
    channels, rows, cols = board.shape
    rest = np.sort(np.concatenate([g.indices for g in groups if g is not board]))
    seat = next((p["offset"] for p in game.observation_tensor_planes() if p["name"] == "viewer_second"), None)
    if seat is None:
        raise ValueError("the observation tensor does not name the viewer's seat (viewer_second)")

    state = game.new_initial_state()
    moves: List[Tuple[int, int, int, int]] = []  # (from row, from col, step rows, step cols) per id
    global_slots: Dict[tuple, int] = {}
    for action in range(game.num_distinct_actions()):
        fields = state.action_struct(action)
        if "from" in fields and "to" in fields:
            (fr, fc), (tr, tc) = _square(fields["from"], rows), _square(fields["to"], rows)
            moves.append((fr, fc, tr - fr, tc - fc))
        else:
            key = tuple(sorted((k, str(v)) for k, v in fields.items()))
            moves.append((-1, -1, 0, global_slots.setdefault(key, len(global_slots))))
    steps = sorted({(dr, dc) for fr, _, dr, dc in moves if fr >= 0} | {(-dr, -dc) for fr, _, dr, dc in moves if fr >= 0})
    step_index = {s: i for i, s in enumerate(steps)}
    squares = rows * cols
    orders = []
    for turned in (False, True):
        order = []
        for fr, fc, dr, dc in moves:
            if fr < 0:
                order.append(len(steps) * squares + dc)
            elif turned:  # the second seat's board: every square and step turned by 180 degrees
                order.append(step_index[(-dr, -dc)] * squares + (rows - 1 - fr) * cols + (cols - 1 - fc))
            else:
                order.append(step_index[(dr, dc)] * squares + fr * cols + fc)
        orders.append(np.array(order, dtype=np.int64))
    return {
        "rows": rows,
        "cols": cols,
        "board": board.indices.astype(np.int64),
        "channels": channels,
        "rest": rest.astype(np.int64),
        "seat": seat,
        "steps": steps,
        "orders": orders,
        "global_size": len(global_slots),
    }


class BoardPolicy(MaskedPolicy):
    """3x3 convolutions over the viewer's board, a move head per square
    and step, a global head and a value head."""

    def __init__(self, game, channels: int = 32, layers: int = 3) -> None:
        super().__init__()
        s = board_structure(game)
        self.rows, self.cols, self.planes = s["rows"], s["cols"], s["channels"]
        self.register_buffer("board", torch.as_tensor(s["board"]))
        self.register_buffer("rest", torch.as_tensor(s["rest"]))
        self.register_buffer("order_first", torch.as_tensor(s["orders"][0]))
        self.register_buffer("order_second", torch.as_tensor(s["orders"][1]))
        self.seat = int(s["seat"])
        self.inp = torch.nn.Conv2d(self.planes, channels, 3, padding=1)
        self.values_in = torch.nn.Linear(len(s["rest"]), channels)
        self.convs = torch.nn.ModuleList(
            torch.nn.Conv2d(channels, channels, 3, padding=1) for _ in range(layers - 1)
        )
        self.moves = torch.nn.Conv2d(channels, len(s["steps"]), 1)
        squares = self.rows * self.cols
        self.pooled = torch.nn.Linear(channels * squares, 128)
        self.global_head = torch.nn.Linear(128, s["global_size"])
        self.value = torch.nn.Linear(128, 1)

    def heads(self, obs: torch.Tensor):
        x = obs[:, self.board].reshape(-1, self.planes, self.rows, self.cols)
        bias = self.values_in(obs[:, self.rest]).unsqueeze(-1).unsqueeze(-1)
        h = torch.relu(self.inp(x) + bias)
        for conv in self.convs:
            h = torch.relu(conv(h)) + h
        moves = self.moves(h).flatten(1)
        g = torch.relu(self.pooled(h.flatten(1)))
        raw = torch.cat([moves, self.global_head(g)], dim=1)
        second = obs[:, self.seat : self.seat + 1]
        logits = raw[:, self.order_first] * (1.0 - second) + raw[:, self.order_second] * second
        return logits, self.value(g).squeeze(-1)
