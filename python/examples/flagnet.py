"""A policy network shaped like Battle Line's board: one trunk per flag.

    from flagnet import FlagPolicy
    policy = FlagPolicy(tabletop.load_game("battleline"))

selfplay.py's ``Policy`` is an MLP over the whole observation tensor and
the whole action space: what it learns about a card on flag 3 it has to
learn again for flag 7, and its Battle Line apprentice stopped at 55 %
agreement with its teacher however much data it got (docs/learning.md).
Here the nine flags share one set of weights:

- each flag's features (the planes whose leading dimension runs over the
  flags, as ``observation_tensor_planes`` declares them: both sides' cards
  there, Fog, Mud, claims, ...) go through one shared MLP, together with
  a learned embedding of the flag's place (an end flag has one neighbour)
  and a projection of the rest of the observation (hands, discards,
  unseen cards, the scalars), which every flag sees;
- a context layer reads the nine flag embeddings together: the game is
  won by five flags or three adjacent ones, so no flag is valued alone;
- a flag head, shared by the nine flags, gives the logits of every action
  that names that flag (a card played there, a Redeploy or a Traitor to
  it, its claim), and a global head the rest (Scout, a Redeploy to the
  discard, Deserter, draws, returns, ...).

Which action id is which (flag, slot) is read from the game itself
(``State.action_struct``: the actions naming a flag carry it as ``flag``
or ``to``), and which features belong to a flag from its declared planes,
so nothing here restates the rules document. The class is a
selfplay.py ``MaskedPolicy`` (``forward``, ``logits_of``, ``act``), so
its trainers, ``win_rate`` and ``export`` take it as it is: the
exported ONNX graph is observations in, logits out, and the Rust
``policy:FILE`` player runs it like any other.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

import numpy as np
import torch

from selfplay import MaskedPolicy
from tabletop.spaces import observation_groups


def flag_structure(game) -> Tuple[int, np.ndarray, np.ndarray, np.ndarray, List[tuple], int]:
    """The game's declared structure: the number of flags; the tensor
    indices of each flag's features (flags x features); the indices of the
    other features; for every action id, its place in the concatenation of
    the flag head's logits (flag-major) and the global head's; the flag
    head's slots (action keys without the flag); the global head's size."""
    groups = observation_groups(game)
    flags = next(g.shape[1] for g in groups if g.name == "flags")
    # The stacks whose planes run over the flags first (both sides' cards
    # there, Fog, Mud, claims, ...): each flag's slice of each.
    by_flag = [g for g in groups if len(g.shape) > 1 and g.shape[1] == flags]
    per_flag = [np.concatenate([g.indices.reshape(g.shape)[:, f].ravel() for g in by_flag]) for f in range(flags)]
    rest = np.sort(np.concatenate([g.indices for g in groups if all(g.name != b.name for b in by_flag)]))

    state = game.new_initial_state()
    flag_slots: Dict[tuple, int] = {}
    global_slots: Dict[tuple, int] = {}
    placed: List[Tuple[str, int, int]] = []  # (head, flag, slot) of each id
    for action in range(game.num_distinct_actions()):
        fields = dict(state.action_struct(action))
        flag = next((fields.pop(k) for k in ("flag", "to") if isinstance(fields.get(k), int)), None)
        key = tuple(sorted((k, str(v)) for k, v in fields.items()))
        if flag is None:
            placed.append(("global", 0, global_slots.setdefault(key, len(global_slots))))
        else:
            placed.append(("flag", flag - 1, flag_slots.setdefault(key, len(flag_slots))))
    width = len(flag_slots)
    order = np.array(
        [f * width + s if head == "flag" else flags * width + s for head, f, s in placed], dtype=np.int64
    )
    if sorted(order.tolist()) != list(range(len(order))):
        raise ValueError("the action ids do not split into flag and global slots one to one")
    return flags, np.array(per_flag, dtype=np.int64), rest.astype(np.int64), order, list(flag_slots), len(global_slots)


class FlagPolicy(MaskedPolicy):
    """Per-flag trunk with shared weights, a context over the nine flags,
    a flag head and a global head; a value head on the context."""

    def __init__(self, game, hidden: int = 128, context: int = 256) -> None:
        super().__init__()
        flags, per_flag, rest, order, slots, global_size = flag_structure(game)
        self.flags = flags
        self.register_buffer("per_flag", torch.as_tensor(per_flag))
        self.register_buffer("rest", torch.as_tensor(rest))
        self.register_buffer("order", torch.as_tensor(order))
        self.glob = torch.nn.Linear(len(rest), context)
        self.flag_in = torch.nn.Linear(per_flag.shape[1], hidden)
        self.glob_to_flag = torch.nn.Linear(context, hidden, bias=False)
        self.place = torch.nn.Parameter(torch.zeros(flags, hidden))
        self.flag_mid = torch.nn.Linear(hidden, hidden)
        self.context = torch.nn.Linear(flags * hidden, context)
        self.flag_head = torch.nn.Linear(hidden, len(slots))
        self.context_to_flag = torch.nn.Linear(context, len(slots), bias=False)
        self.global_head = torch.nn.Linear(2 * context, global_size)
        self.value = torch.nn.Linear(2 * context, 1)

    def heads(self, obs: torch.Tensor):
        g = torch.relu(self.glob(obs[:, self.rest]))
        x = obs[:, self.per_flag]  # batch x flags x features
        e = torch.relu(self.flag_in(x) + self.glob_to_flag(g).unsqueeze(1) + self.place)
        e = torch.relu(self.flag_mid(e))
        c = torch.relu(self.context(e.reshape(e.shape[0], -1)))
        both = torch.cat([g, c], dim=1)
        per_flag = self.flag_head(e) + self.context_to_flag(c).unsqueeze(1)
        raw = torch.cat([per_flag.reshape(per_flag.shape[0], -1), self.global_head(both)], dim=1)
        return raw[:, self.order], self.value(both).squeeze(-1)
