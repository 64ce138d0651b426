"""How often a Python opponent is called, and on how many games, per
learner step of :class:`tabletop.vector.MultiAgentVecEnv`: synchronised
(every game back at a learner's decision after each step) against
unsynchronised (``sync=False``: one call a step, on every game then
waiting on it).

    python python/bench/bench_opponent_calls.py                    # card war, 256 games
    python python/bench/bench_opponent_calls.py --game battleline --envs 64 --steps 200

Both seats play the first legal action of each row's mask, the learner
through ``step`` and the opponent as a Python callable on seat 1, so
that the schedule, not a policy, is what is measured. Prints per mode
the opponent's calls per learner step, the median and mean number of
games in a call, and learner decisions per CPU-second of the process.
"""

from __future__ import annotations

import argparse
import time
from typing import Dict, List

import numpy as np

from tabletop.vector import MultiAgentVecEnv


def measure(game: str, envs: int, steps: int, sync: bool) -> Dict[str, float]:
    """One mode's figures over ``steps`` learner steps."""
    calls: List[int] = []

    def opponent(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append(len(masks))
        return masks.argmax(axis=1)

    env = MultiAgentVecEnv(game, envs, seed=1, opponents={1: opponent}, sync=sync)
    obs, masks, *_, info = env.reset()
    calls.clear()
    decisions = 0
    start = time.process_time()
    for _ in range(steps):
        decisions += int(info["ready"].sum())
        obs, masks, *_, info = env.step(masks.argmax(axis=1))
    seconds = time.process_time() - start
    return {
        "calls_per_step": len(calls) / steps,
        "median_batch": float(np.median(calls)),
        "mean_batch": float(np.mean(calls)),
        "decisions_per_cpu_second": decisions / seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="cardwar")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--steps", type=int, default=2000)
    args = parser.parse_args()
    print("mode calls_per_step median_batch mean_batch decisions_per_cpu_second")
    for sync in (True, False):
        m = measure(args.game, args.envs, args.steps, sync)
        print(
            f"{'sync' if sync else 'unsync'} {m['calls_per_step']:.2f} {m['median_batch']:.0f} "
            f"{m['mean_batch']:.1f} {m['decisions_per_cpu_second']:.0f}"
        )


if __name__ == "__main__":
    main()
