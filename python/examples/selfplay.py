"""A reference trainer: a masked actor-critic learns a game by self-play.

    python python/examples/selfplay.py --game cardwar --minutes 5 --out policy.pt

One torch network plays both seats of every game of a
``tabletop.vector.MultiAgentVecEnv`` (self-play from one object). Each
decision is scored by the return its seat got at the end of the episode
(Monte Carlo), less the network's value estimate (the baseline); illegal
actions never get probability (the int8 mask sets their logits to the
lowest float). Every ``--eval-every`` updates the greedy policy plays
``--eval-games`` games on each seat against the built-in ``random`` and
``heuristic`` bots (a ``MultiAgentVecEnv`` with the bot as opponent) and a
line of the learning curve is printed: ``update, decisions, seconds,
score against each bot, CPU seconds`` (``--cpu-minutes`` bounds the run by
the process's CPU time, what a loaded machine leaves comparable).
``--keep-best BOT`` keeps the network of the evaluation with the best
score against ``BOT`` (one of ``--bots``) instead of the last: self-play's
strength against a fixed bot rises and falls from one evaluation to the
next.

The stack is numpy and torch (well kept, CPU wheels on PyPI for every
platform), and onnx to write the exported file; nothing here is specific
to a game.

``--onnx FILE`` exports the trained network as an ONNX graph from the
observation tensor to the logits over the action ids, with the game, its
rules and its observation layout in the file's metadata
(``tabletop.*`` keys, see ``FORMAT``): the arena and the server play it
as ``policy:FILE``, run in Rust (crates/game-policy), masked there.
"""

from __future__ import annotations

import argparse
import time
from typing import Dict, List, Optional

import numpy as np
import torch

import tabletop
from tabletop.vector import MultiAgentVecEnv

# The version of the exported file's metadata, what crates/game-policy reads.
FORMAT = "tabletop-policy/1"


class MaskedPolicy(torch.nn.Module):
    """What the trainers, ``win_rate`` and ``export`` ask of a network: a
    subclass gives ``heads(obs)``, the unmasked logits over the action ids
    and the value of a batch of flat observations."""

    def heads(self, obs: torch.Tensor):
        raise NotImplementedError

    def forward(self, obs: torch.Tensor, masks: torch.Tensor):
        logits, value = self.heads(obs)
        logits = logits.masked_fill(masks == 0, torch.finfo(torch.float32).min)
        return torch.distributions.Categorical(logits=logits), value

    def logits_of(self, obs: torch.Tensor) -> torch.Tensor:
        """The unmasked logits of a batch of flat observations: the graph
        the exported file holds (the player masks them)."""
        return self.heads(obs)[0]

    def act(self, obs: np.ndarray, masks: np.ndarray, greedy: bool = False) -> np.ndarray:
        """Legal action ids for a batch (the opponents' callable form)."""
        with torch.no_grad():
            dist, _ = self(torch.as_tensor(obs).flatten(1), torch.as_tensor(masks))
            chosen = dist.probs.argmax(-1) if greedy else dist.sample()
        return chosen.numpy()


class Policy(MaskedPolicy):
    """An MLP with a policy head over the action ids and a value head."""

    def __init__(self, inputs: int, actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.body = torch.nn.Sequential(
            torch.nn.Linear(inputs, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, hidden), torch.nn.ReLU()
        )
        self.logits = torch.nn.Linear(hidden, actions)
        self.value = torch.nn.Linear(hidden, 1)

    def heads(self, obs: torch.Tensor):
        h = self.body(obs)
        return self.logits(h), self.value(h).squeeze(-1)


class _Logits(torch.nn.Module):
    """The exported graph: observations in, logits out (no value head)."""

    def __init__(self, policy: Policy) -> None:
        super().__init__()
        self.policy = policy

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        return self.policy.logits_of(observation)


def export(policy: Policy, spec: str, path: str) -> None:
    """Writes ``policy`` as an ONNX file that names the game, the rule set
    and the observation layout it was trained on, so that a player of
    another game or rule set refuses it instead of reading its tensors
    wrongly. Input ``observation`` (batch x tensor size, float32), output
    ``logits`` (batch x action space)."""
    import json
    import warnings

    import onnx

    game = tabletop.load_game(spec)
    size = game.observation_tensor_size()
    # The TorchScript exporter: an MLP traces exactly, and the torch.export
    # one would add onnxscript to the stack for nothing.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the exporter's notice of its successor
        torch.onnx.export(
            _Logits(policy).eval(),
            (torch.zeros(1, size),),
            path,
            dynamo=False,
            opset_version=18,  # the newest that tract, the Rust player, is tested against
            input_names=["observation"],
            output_names=["logits"],
            dynamic_axes={"observation": {0: "batch"}, "logits": {0: "batch"}},
        )
    model = onnx.load(path)
    layout = [{"name": n, "offset": o, "length": k} for n, o, k in game.observation_tensor_layout()]
    onnx.helper.set_model_props(
        model,
        {
            "tabletop.format": FORMAT,
            "tabletop.game": game.short_name,
            "tabletop.spec": game.name,
            "tabletop.rules": game.rules_json(),
            "tabletop.observation": json.dumps({"size": size, "planes": layout}, separators=(",", ":")),
            "tabletop.actions": str(game.num_distinct_actions()),
        },
    )
    onnx.save(model, path)


def win_rate(policy: Policy, game: str, bot: str, games: int, seed: int) -> float:
    """The greedy policy's score against ``bot`` over ``games`` games on
    each seat: 1 a win, 0.5 a draw, 0 a loss."""
    score, played = 0.0, 0
    for seat in (0, 1):
        env = MultiAgentVecEnv(game, min(games, 64), seed=seed + seat, opponents={1 - seat: bot})
        obs, masks, *_ = env.reset()
        while played < games * (seat + 1):
            obs, masks, rewards, terminated, truncated, _, _ = env.step(policy.act(obs, masks, greedy=True))
            for i in np.flatnonzero(terminated | truncated):
                mine, theirs = rewards[i, seat], rewards[i, 1 - seat]
                score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                played += 1
    return score / played


def train(args: argparse.Namespace) -> Policy:
    torch.manual_seed(args.seed)
    env = MultiAgentVecEnv(args.game, args.envs, seed=args.seed, max_steps=args.max_steps)
    size = int(np.prod(env.env.observation_shape))
    policy = Policy(size, env.env.action_space, hidden=args.hidden)
    optimiser = torch.optim.Adam(policy.parameters(), lr=args.lr)
    obs, masks, *_ = env.reset()
    # Decisions waiting for their episode's end, per game: (seat, obs, mask, action).
    pending: List[List[tuple]] = [[] for _ in range(args.envs)]
    done: Dict[str, List] = {"obs": [], "masks": [], "actions": [], "returns": []}
    start, update, decisions = time.monotonic(), 0, 0
    # --keep-best: the best evaluation's score, update and network so far.
    best_score, best_update, best_state = -1.0, 0, None
    print("update decisions seconds " + " ".join(f"vs_{b}" for b in args.bots) + " cpu_seconds", flush=True)
    cpu_start = time.process_time()

    def spent() -> bool:
        if args.cpu_minutes is not None:
            return time.process_time() - cpu_start >= args.cpu_minutes * 60
        return time.monotonic() - start >= args.minutes * 60

    while not spent():
        to_move = env.env.to_move.copy()
        actions = policy.act(obs, masks)
        for i in range(args.envs):
            pending[i].append((int(to_move[i]), obs[i].copy(), masks[i].copy(), int(actions[i])))
        obs, masks, rewards, terminated, truncated, _, info = env.step(actions)
        decisions += args.envs
        for i in np.flatnonzero(terminated | truncated):
            returns = info["episode_return"][i]
            for seat, o, m, a in pending[i]:
                done["obs"].append(o)
                done["masks"].append(m)
                done["actions"].append(a)
                done["returns"].append(float(returns[seat]))
            pending[i] = []
        if len(done["actions"]) < args.batch:
            continue
        o = torch.as_tensor(np.stack(done["obs"])).flatten(1)
        m = torch.as_tensor(np.stack(done["masks"]))
        a = torch.as_tensor(done["actions"])
        g = torch.as_tensor(done["returns"], dtype=torch.float32)
        for key in done:
            done[key] = []
        dist, value = policy(o, m)
        advantage = (g - value).detach()
        loss = (
            -(dist.log_prob(a) * advantage).mean()
            + 0.5 * ((g - value) ** 2).mean()
            - args.entropy * dist.entropy().mean()
        )
        optimiser.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
        optimiser.step()
        update += 1
        if update % args.eval_every == 0 or update == 1:
            curve = [win_rate(policy, args.game, bot, args.eval_games, args.seed + 1000) for bot in args.bots]
            cells = " ".join(f"{c:.3f}" for c in curve)
            cpu = time.process_time() - cpu_start
            print(f"{update} {decisions} {time.monotonic() - start:.0f} {cells} {cpu:.0f}", flush=True)
            improved = args.keep_best is not None and curve[args.bots.index(args.keep_best)] > best_score
            if improved:
                best_score, best_update = curve[args.bots.index(args.keep_best)], update
                best_state = {k: v.detach().clone() for k, v in policy.state_dict().items()}
            if args.onnx and (args.keep_best is None or improved):  # a run cut short still leaves a policy
                export(policy, args.game, args.onnx)
    if best_state is not None:
        policy.load_state_dict(best_state)
        print(f"kept update {best_update} vs_{args.keep_best} {best_score:.3f}", flush=True)
    return policy


def main(argv: Optional[List[str]] = None) -> Policy:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="cardwar")
    parser.add_argument("--envs", type=int, default=128)
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument(
        "--cpu-minutes", type=float, help="stop after this much CPU time of the process instead of --minutes of wall time"
    )
    parser.add_argument("--batch", type=int, default=4096, help="decisions per update")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--max-steps", type=int, default=400)
    parser.add_argument("--eval-every", type=int, default=10)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--bots", default="random,heuristic", help="the opponents of the learning curve")
    parser.add_argument("--hidden", type=int, default=256, help="units of each hidden layer")
    parser.add_argument(
        "--keep-best",
        metavar="BOT",
        help="keep (--out, --onnx) the network of the evaluation with the best score against BOT, one of --bots",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="saves the trained network's state_dict here (torch.save)")
    parser.add_argument("--onnx", help="exports the trained policy here, for policy:FILE bots")
    args = parser.parse_args(argv)
    args.bots = args.bots.split(",")
    if args.keep_best is not None and args.keep_best not in args.bots:
        parser.error(f"--keep-best {args.keep_best}: not one of --bots ({','.join(args.bots)})")
    tabletop.load_game(args.game)  # a bad name fails before any work
    policy = train(args)
    if args.out:
        torch.save(policy.state_dict(), args.out)
    if args.onnx:
        export(policy, args.game, args.onnx)
    return policy


if __name__ == "__main__":
    main()
