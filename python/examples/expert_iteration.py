"""Expert iteration: a masked network learns a game from a search teacher.

    python python/examples/expert_iteration.py --game battleline --teacher expert:16 --cpu-minutes 30 --onnx bl.onnx

Self-play scored by the episode's return (python/examples/selfplay.py)
gives each decision of a long game one noisy bit at its end; here every
decision gets a label of its own: the action a searching bot, the teacher
(a built-in bot such as ``expert:16``), chooses in that state. This is
expert iteration (Anthony, Tian and Barber 2017) in the form of DAgger
(Ross, Gordon and Bagnell 2011), so that the apprentice learns the
teacher's answer in the states its own play reaches, not only in the
teacher's:

1. Play ``--games-per-iteration`` games. One seat, the apprentice's, is
   played by the current network (by the teacher itself in iteration 0,
   when there is no network yet), the other by each of ``--opponents`` in
   turn (``teacher`` is the teacher, any other name a built-in bot), seats
   alternating. At every decision of the apprentice's seat the teacher is
   asked too, and the state's observation tensor, legal mask and the
   teacher's action are recorded; where the teacher plays the other seat,
   its decisions are labels at no extra cost and are recorded as well.
2. Train the network (selfplay.py's ``Policy``, imported, not copied) on
   ``--epochs`` times as many samples as the iteration recorded, drawn
   from every decision recorded so far (DAgger aggregates): cross-entropy
   of its masked softmax against the teacher's action, plus the value
   head on the seat's return at the end of the game (``--value-weight``).
3. Evaluate the greedy network against ``--bots`` on ``--eval-games``
   games on each seat (selfplay.py's ``win_rate``) and print a line:
   ``iteration, decisions recorded, seconds, agreement (how often the
   network's own choice in step 1 was the teacher's, where it had a
   choice; ``--by-type`` splits it by the kind of the teacher's action),
   the training loss,
   the score against each bot, CPU seconds``.

``--cpu-minutes`` stops the loop when the process has used that much CPU
time (the loop's three steps included; ``--minutes`` of wall time). ``--out`` and ``--onnx`` keep the
network of the iteration that scored best against the first of ``--bots``
(DAgger's guarantee is for the best policy of the sequence, and one
evaluation's score is noisy), written as selfplay.py's ``export`` writes
it: the arena and the server play it as ``policy:FILE``.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from typing import Dict, List, Optional

import numpy as np
import torch

import tabletop

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from boardnet import BoardPolicy  # noqa: E402  (the sibling examples)
from flagnet import FlagPolicy  # noqa: E402
from selfplay import Policy, export, win_rate  # noqa: E402


class Data:
    """The aggregated decisions: observations as float16 (half the memory;
    the tensors' values are small fractions that float16 keeps to 3
    digits), legal masks packed to bits (the action space of Battle Line
    is 2184 ids), the teacher's action and the seat's return."""

    def __init__(self, actions: int) -> None:
        self.actions = actions
        self.chunks: Dict[str, List[np.ndarray]] = {"obs": [], "masks": [], "labels": [], "returns": []}

    def add(self, obs: List[np.ndarray], masks: List[np.ndarray], labels: List[int], returns: List[float]) -> None:
        if not labels:
            return
        self.chunks["obs"].append(np.stack(obs).astype(np.float16))
        self.chunks["masks"].append(np.packbits(np.stack(masks) != 0, axis=1))
        self.chunks["labels"].append(np.asarray(labels, dtype=np.int64))
        self.chunks["returns"].append(np.asarray(returns, dtype=np.float32))

    def __len__(self) -> int:
        return sum(len(c) for c in self.chunks["labels"])

    def batches(self, samples: int, size: int, rng: np.random.Generator):
        """``samples`` recorded decisions drawn uniformly from all of them
        (each once before any twice), in minibatches of torch tensors."""
        for key, chunks in self.chunks.items():  # one array each from now on
            self.chunks[key] = [np.concatenate(chunks)]
        obs, masks, labels, returns = (self.chunks[k][0] for k in ("obs", "masks", "labels", "returns"))
        order = np.concatenate([rng.permutation(len(labels)) for _ in range(-(-samples // len(labels)))])[:samples]
        for start in range(0, samples, size):
            rows = np.sort(order[start : start + size])
            mask = np.unpackbits(masks[rows], axis=1, count=self.actions)
            yield (
                torch.as_tensor(obs[rows].astype(np.float32)),
                torch.as_tensor(mask),
                torch.as_tensor(labels[rows]),
                torch.as_tensor(returns[rows]),
            )


class Apprentice:
    """The greedy network for one state at a time, the MLP in numpy (a
    torch call per decision costs more than its arithmetic), any other
    network through its own ``act``."""

    def __init__(self, policy: torch.nn.Module) -> None:
        self.policy = None if isinstance(policy, Policy) else policy
        if self.policy is None:
            layers = [policy.body[0], policy.body[2], policy.logits]
            self.weights = [(l.weight.detach().numpy().T.copy(), l.bias.detach().numpy().copy()) for l in layers]

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        if self.policy is not None:
            return int(self.policy.act(np.asarray(obs, dtype=np.float32)[None], np.asarray(mask)[None], greedy=True)[0])
        h = obs
        for i, (w, b) in enumerate(self.weights):
            h = h @ w + b
            if i < len(self.weights) - 1:
                h = np.maximum(h, 0.0)
        return int(np.where(mask != 0, h, -np.inf).argmax())


def play(game, seats: list, teacher, labelled: List[bool], chance_seed: int, data: Data) -> List[int]:
    """One game. ``seats[p]`` is a bot (``step(state)``) or an
    :class:`Apprentice`; the teacher labels every decision of a seat
    flagged in ``labelled``. Returns, for each type of the teacher's
    action (``action_struct``'s ``type``), [agreements, apprentice
    decisions], counting only decisions with more than one legal action."""
    state = game.new_initial_state()
    rows: List[tuple] = []
    agree: Dict[str, List[int]] = {}
    chance = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.play_chance(chance_seed * 100_003 + chance)
            chance += 1
            continue
        player = state.current_player()
        seat = seats[player]
        label = teacher.step(state) if labelled[player] else None
        if label is not None or isinstance(seat, Apprentice):
            obs, mask = state.observation_tensor(player), state.legal_actions_mask(player)
        if isinstance(seat, Apprentice):
            action = seat.act(obs, mask)
            if np.count_nonzero(mask) > 1:
                counts = agree.setdefault(state.action_struct(label)["type"], [0, 0])
                counts[0] += action == label
                counts[1] += 1
        else:
            action = label if seat is teacher else seat.step(state)
        if label is not None:
            rows.append((player, obs, mask, label))
        state.apply_action(action)
    returns = state.returns()
    data.add([r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows], [returns[r[0]] for r in rows])
    return agree


def collect(args, game, teacher, apprentice: Optional[Apprentice], iteration: int, data: Data) -> Dict[str, List[int]]:
    """Step 1 of an iteration; returns the network's agreement with the
    teacher on its own decisions with a choice, by the type of the
    teacher's action (empty in iteration 0, played by the teacher)."""
    bots = {name: teacher if name == "teacher" else game.make_bot(name, args.seed) for name in args.opponents}
    agree: Dict[str, List[int]] = {}
    for g in range(args.games_per_iteration):
        me = g % 2
        other = bots[args.opponents[(g // 2) % len(args.opponents)]]
        seats = [None, None]
        seats[me] = apprentice if apprentice is not None else teacher
        seats[1 - me] = other
        labelled = [True, True] if other is teacher else [p == me for p in (0, 1)]
        chance_seed = args.seed * 1_000_003 + iteration * args.games_per_iteration + g
        for kind, (a, n) in play(game, seats, teacher, labelled, chance_seed, data).items():
            counts = agree.setdefault(kind, [0, 0])
            counts[0] += a
            counts[1] += n
    return agree


def fit(args, policy: Policy, optimiser, data: Data, new: int, rng: np.random.Generator) -> float:
    """Step 2: ``--epochs`` times as many samples as the iteration recorded
    (``new``), drawn from everything recorded so far: each iteration's
    training costs the same, where passes over the growing aggregate
    would cost more each time. Returns the mean loss (nan with no data)."""
    if len(data) == 0:
        return float("nan")
    policy.train()
    total, count = 0.0, 0
    for obs, masks, labels, returns in data.batches(max(int(args.epochs * new), 1), args.batch, rng):
        dist, value = policy(obs, masks)
        loss = -dist.log_prob(labels).mean() + args.value_weight * ((returns - value) ** 2).mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        total += loss.item() * len(labels)
        count += len(labels)
    policy.eval()
    return total / max(count, 1)


def network(args: argparse.Namespace, game) -> torch.nn.Module:
    """``--net``: selfplay.py's MLP, flagnet.py's network with one trunk
    a flag (Battle Line) or boardnet.py's convolutions (Stratego)."""
    if args.net == "flags":
        return FlagPolicy(game, hidden=args.hidden // 2, context=args.hidden)
    if args.net == "board":
        return BoardPolicy(game, channels=args.hidden // 8)
    return Policy(game.observation_tensor_size(), game.num_distinct_actions(), hidden=args.hidden)


def train(args: argparse.Namespace) -> torch.nn.Module:
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    game = tabletop.load_game(args.game)
    teacher = game.make_bot(args.teacher, args.seed)
    policy = network(args, game)
    optimiser = torch.optim.Adam(policy.parameters(), lr=args.lr)
    data = Data(game.num_distinct_actions())
    start, cpu_start = time.monotonic(), time.process_time()
    best_score, best_state = -1.0, None
    header = "iteration decisions seconds agreement loss " + " ".join(f"vs_{b}" for b in args.bots)
    print(header + " cpu_seconds", flush=True)
    for iteration in range(args.iterations):
        if args.cpu_minutes is not None and time.process_time() - cpu_start >= args.cpu_minutes * 60:
            break
        if args.minutes is not None and time.monotonic() - start >= args.minutes * 60:
            break
        apprentice = Apprentice(policy) if iteration > 0 else None
        before = len(data)
        by_type = collect(args, game, teacher, apprentice, iteration, data)
        decided = sum(n for _, n in by_type.values())
        agreement = sum(a for a, _ in by_type.values()) / decided if decided else float("nan")
        loss = fit(args, policy, optimiser, data, len(data) - before, rng)
        curve = [win_rate(policy, args.game, bot, args.eval_games, args.seed + 1000) for bot in args.bots]
        cells = " ".join(f"{c:.3f}" for c in curve)
        cpu = time.process_time() - cpu_start
        line = f"{iteration} {len(data)} {time.monotonic() - start:.0f} {agreement:.3f} {loss:.3f} {cells} {cpu:.0f}"
        print(line, flush=True)
        if args.by_type and decided:
            parts = (f"{k} {a / n:.3f} ({n})" for k, (a, n) in sorted(by_type.items(), key=lambda kv: -kv[1][1]))
            print("# agreement by the teacher's action: " + ", ".join(parts), flush=True)
        if curve[0] > best_score:
            best_score, best_state = curve[0], {k: v.detach().clone() for k, v in policy.state_dict().items()}
            if args.onnx:  # a run cut short still leaves its best policy
                export(policy, args.game, args.onnx)
    if best_state is not None:
        policy.load_state_dict(best_state)
    return policy


def main(argv: Optional[List[str]] = None) -> torch.nn.Module:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="battleline")
    parser.add_argument("--teacher", default="expert:16", help="the built-in bot whose actions are the labels")
    parser.add_argument("--opponents", default="heuristic,teacher", help="the other seat's players, in turn")
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--games-per-iteration", type=int, default=500)
    parser.add_argument("--cpu-minutes", type=float, help="start no iteration after this much CPU time of the process")
    parser.add_argument("--minutes", type=float, help="start no iteration after this much wall time")
    parser.add_argument(
        "--epochs", type=float, default=2.0, help="samples trained on per iteration, in multiples of its new decisions"
    )
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--value-weight", type=float, default=0.25, help="weight of the value head's loss")
    parser.add_argument(
        "--hidden", type=int, default=256, help="units of each hidden layer (flags: of the context; board: 8 per channel)"
    )
    parser.add_argument(
        "--net",
        choices=("mlp", "flags", "board"),
        default="mlp",
        help="mlp: one MLP over the whole tensor; flags: one trunk a flag, shared (flagnet.py, Battle Line); "
        "board: convolutions over the board (boardnet.py, Stratego)",
    )
    parser.add_argument("--eval-games", type=int, default=100, help="games on each seat against each of --bots")
    parser.add_argument(
        "--bots",
        default="heuristic,random",
        help="the opponents of the learning curve; the first picks the kept network",
    )
    parser.add_argument(
        "--by-type",
        action="store_true",
        help="after each line, a '#' line of the agreement by the type of the teacher's action",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="saves the kept network's state_dict here (torch.save)")
    parser.add_argument("--onnx", help="exports the kept policy here, for policy:FILE bots")
    args = parser.parse_args(argv)
    args.bots = args.bots.split(",")
    args.opponents = args.opponents.split(",")
    game = tabletop.load_game(args.game)  # a bad name or bot fails before any work
    for name in [args.teacher] + [o for o in args.opponents if o != "teacher"] + args.bots:
        game.make_bot(name, 0)
    policy = train(args)
    if args.out:
        torch.save(policy.state_dict(), args.out)
    if args.onnx:
        export(policy, args.game, args.onnx)
    return policy


if __name__ == "__main__":
    main()
