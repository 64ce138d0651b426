"""An arena across a Ray cluster: every pairing of bots on every game, each
game a Ray task, the results gathered into the table the Rust arena prints
(win, draw and loss rates with 95% Wilson intervals, mean moves, games/s).

Runs unchanged on a laptop (``ray.init()`` starts a local instance) and on a
cluster (``--address auto`` on a cluster node, ``--address ray://host:10001``
from outside, or ``RAY_ADDRESS``); see docs/python.md.

    python python/examples/ray_arena.py --bots random,ismcts:100 --rounds 50
    python python/examples/ray_arena.py --address auto --games "kuhn_poker(variant=high)"

Every game is seeded from ``--seed`` and its index, so a run's results do
not depend on how many machines play it.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import ray

import tabletop

Z95 = 1.959963984540054


def wilson(k: int, n: int) -> Tuple[float, float]:
    """The 95% Wilson score interval of ``k`` successes in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(k: int, n: int) -> str:
    """``k / n`` as the Rust arena prints it: ``62.5% [55.1- 69.4]``."""
    lo, hi = wilson(k, n)
    value = k / n if n else 0.0
    return f"{100 * value:5.1f}% [{100 * lo:4.1f}-{100 * hi:5.1f}]"


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed``."""
    return (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + 1) % (1 << 63)


def play(spec: str, seats: Tuple[str, str], seed: int) -> Dict[str, object]:
    """Plays one game of ``spec``, ``seats[i]`` (a bot name) in seat ``i``;
    returns the winner's seat (``None`` for a draw), moves and seconds."""
    game = tabletop.load_game(spec)
    bots = [game.make_bot(name, (seed + i) % (1 << 63)) for i, name in enumerate(seats)]
    state = game.new_initial_state()
    start = time.perf_counter()
    chance = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == tabletop.CHANCE_PLAYER:
            state.play_chance((seed ^ (chance * 0x2545F4914F6CDD1D)) % (1 << 63))
            chance += 1
        else:
            state.apply_action(bots[player].step(state))
    return {
        "winner": state.winner(),
        "moves": state.move_number(),
        "seconds": time.perf_counter() - start,
    }


play_task = ray.remote(num_cpus=1)(play)


@dataclass
class Pairing:
    """One game with two bots and its results so far."""

    game: str
    bots: Tuple[str, str]
    games: int = 0
    wins: List[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    moves: int = 0
    seconds: float = 0.0
    errors: List[str] = field(default_factory=list)


def pairings(games: Sequence[str], bots: Sequence[str]) -> List[Pairing]:
    """Every pair of distinct bots on every game (a lone bot meets itself)."""
    pairs = [(a, b) for i, a in enumerate(bots) for b in bots[i + 1 :]] or [(bots[0], bots[0])]
    return [Pairing(g, p) for g in games for p in pairs]


def run_arena(games: Sequence[str], bots: Sequence[str], rounds: int, seed: int) -> Tuple[List[Pairing], float]:
    """Plays ``rounds`` games of every pairing as Ray tasks (seats swapped
    every other game) and gathers the results; returns them with the wall
    time."""
    table = pairings(games, bots)
    start = time.perf_counter()
    jobs = []
    index = 0
    for p, pairing in enumerate(table):
        for g in range(rounds):
            a, b = pairing.bots
            seats = (a, b) if g % 2 == 0 else (b, a)
            jobs.append((p, g, play_task.remote(pairing.game, seats, game_seed(seed, index))))
            index += 1
    for p, g, ref in jobs:
        pairing = table[p]
        try:
            result = ray.get(ref)
        except Exception as e:  # a failed game is reported, not fatal
            pairing.errors.append(f"{pairing.game} game {g}: {e}")
            continue
        pairing.games += 1
        pairing.moves += int(result["moves"])
        pairing.seconds += float(result["seconds"])
        winner = result["winner"]
        if winner is None:
            pairing.draws += 1
        else:
            first_in_seat0 = g % 2 == 0
            winner_is_first = (winner == 0) == first_in_seat0
            pairing.wins[0 if winner_is_first else 1] += 1
    return table, time.perf_counter() - start


def format_results(table: Sequence[Pairing], seconds: float) -> str:
    """The results as the Rust arena's text table."""
    width = max([5] + [len(p.game) for p in table])
    lines = [
        f"{'game':<{width}}  {'bot A':<11} {'bot B':<11} {'games':>5}  "
        f"{'A wins [95% CI]':<21}  {'draws':<21}  {'B wins':<21}  {'moves':>7}  {'games/s':>8}"
    ]
    for p in table:
        n = p.games
        lines.append(
            f"{p.game:<{width}}  {p.bots[0]:<11} {p.bots[1]:<11} {n:>5}  "
            f"{rate(p.wins[0], n):<21}  {rate(p.draws, n):<21}  {rate(p.wins[1], n):<21}  "
            f"{(p.moves / n if n else 0.0):>7.1f}  {(n / p.seconds if p.seconds else 0.0):>8.1f}"
        )
        lines.extend(f"    failed: {e}" for e in p.errors[:3])
    total = sum(p.games for p in table)
    lines.append(
        f"{total} games in {seconds:.1f} s ({total / max(seconds, 1e-9):.1f} games/s overall); "
        "games/s per pairing is one worker's rate"
    )
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> str:
    """Parses the command line, runs the arena on Ray, prints and returns the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--address", default=None, help="Ray cluster address (default: RAY_ADDRESS, else a local instance)")
    parser.add_argument("--num-cpus", type=int, default=None, help="CPUs of a local instance (default: all)")
    parser.add_argument("--games", default=None, help="comma-separated specifications (default: every registered preset)")
    parser.add_argument("--bots", default="random,ismcts:50", help="comma-separated bot names (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=20, help="games per pairing (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default: %(default)s)")
    args = parser.parse_args(argv)
    games = args.games.split(",") if args.games else tabletop.registered_specs()
    # Fails here, before any task, on a bad game or bot name.
    for spec in games:
        for bot in args.bots.split(","):
            tabletop.load_game(spec).make_bot(bot)
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=args.address, num_cpus=args.num_cpus, include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
    try:
        table, seconds = run_arena(games, args.bots.split(","), args.rounds, args.seed)
    finally:
        if started_here:
            ray.shutdown()
    text = format_results(table, seconds)
    print(text)
    return text


if __name__ == "__main__":
    try:
        main()
    except tabletop.GameError as e:
        print(f"ray_arena: {e}", file=sys.stderr)
        sys.exit(2)
