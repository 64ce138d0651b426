"""Where the SB3 path's step goes: the CPU time of each Python layer around
the Rust batch, and of the main thread against the batch's threads.

    python python/bench/bench_sb3_layers.py            # card war, 256 games, "random"

``layers``: each layer's step with the Rust step replaced by a no-op (the
batch's arrays kept; every ``--every``-th row ends its episode each step,
card war's rate against ``random`` being about 5 of 256), in CPU time of
the main thread, the least over ``--rounds`` rounds of ``--steps`` steps:
``MultiAgentVecEnv.step``; ``LearnerBatch.step`` (that one included);
``TabletopVecEnv.step``; ``get_action_masks``; and the whole SB3 step
(``VecMonitor``, ``get_action_masks`` then ``step``, as ``MaskablePPO`` does).
``threads``: with the real Rust step, the process's and the main thread's
CPU time per step, for ``VecEnv`` stepped directly and for that SB3 step
(medians over the rounds).
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

import tabletop


class _NoStep:
    """The batch with a step that plays nothing: ended rows flagged, every
    other array as it was."""

    def __init__(self, env: tabletop.VecEnv, every: int) -> None:
        self._env = env
        self._every = every

    def __getattr__(self, name: str) -> Any:
        return getattr(self._env, name)

    def step(self, actions: Any, rows: Any = None) -> None:
        ended = self._env.terminated
        ended[:] = False
        ended[:: self._every] = True


def _sb3_env(game: str, envs: int, threads: int, every: Optional[int]) -> Any:
    from tabletop.sb3 import TabletopVecEnv

    env = TabletopVecEnv(game, envs, opponent="random", seed=1, threads=threads)
    env.reset()
    if every is not None:
        batch = env.batch
        batch.multi.env = batch.env = _NoStep(batch.multi.env, every)  # type: ignore[assignment]
    return env


def layers(game: str, envs: int, every: int, steps: int, rounds: int) -> Dict[str, float]:
    """Microseconds of main-thread CPU per step of each layer, the Rust step a no-op."""
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import VecMonitor

    multi = _sb3_env(game, envs, 1, every).batch.multi
    batch = _sb3_env(game, envs, 1, every).batch
    env = _sb3_env(game, envs, 1, every)
    vec = VecMonitor(_sb3_env(game, envs, 1, every))
    paths: Dict[str, Callable[[], Any]] = {
        "MultiAgentVecEnv.step": lambda: multi.step(multi.env.masks.argmax(axis=1)),
        "LearnerBatch.step": lambda: batch.step(batch.masks.argmax(axis=1)),
        "TabletopVecEnv.step": lambda: env.step(env.batch.masks.argmax(axis=1)),
        "get_action_masks": lambda: get_action_masks(vec),
        "SB3 step": lambda: vec.step(get_action_masks(vec).argmax(axis=1)),
    }
    best = {name: float("inf") for name in paths}
    for _ in range(rounds):
        for name, step in paths.items():
            started = time.thread_time()
            for _ in range(steps):
                step()
            best[name] = min(best[name], (time.thread_time() - started) / steps * 1e6)
    return best


def threads(game: str, envs: int, steps: int, rounds: int) -> Dict[str, List[float]]:
    """Microseconds of the process's and the main thread's CPU per step."""
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import VecMonitor

    raw = tabletop.VecEnv(game, envs, seed=1, threads=0, opponent="random")
    raw.reset()
    vec = VecMonitor(_sb3_env(game, envs, 0, None))
    paths: Dict[str, Callable[[], Any]] = {
        "VecEnv": lambda: raw.step(raw.masks.argmax(axis=1)),
        "SB3 step": lambda: vec.step(get_action_masks(vec).argmax(axis=1)),
    }
    seen: Dict[str, List[List[float]]] = {name: [] for name in paths}
    for _ in range(rounds):
        for name, step in paths.items():
            process, main = time.process_time(), time.thread_time()
            for _ in range(steps):
                step()
            seen[name].append(
                [(time.process_time() - process) / steps * 1e6, (time.thread_time() - main) / steps * 1e6]
            )
    return {name: list(np.median(np.array(v), axis=0)) for name, v in seen.items()}


def main(argv: Optional[Sequence[str]] = None) -> List[str]:
    """Runs both measures, prints one line per figure and returns them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="cardwar", help="a specification (default: %(default)s)")
    parser.add_argument("--envs", type=int, default=256, help="games stepped together (default: %(default)s)")
    parser.add_argument("--every", type=int, default=51, help="one row in this many ends each no-op step (default: %(default)s)")
    parser.add_argument("--steps", type=int, default=300, help="steps per round (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=20, help="rounds (default: %(default)s)")
    args = parser.parse_args(argv)
    lines = [
        f"layers, Rust step a no-op: {name}: {us:.0f} us of main-thread CPU per step"
        for name, us in layers(args.game, args.envs, args.every, args.steps, args.rounds).items()
    ]
    lines += [
        f"threads: {name}: {process:.0f} us of process CPU per step, {main:.0f} us of it the main thread's"
        for name, (process, main) in threads(args.game, args.envs, args.steps, args.rounds).items()
    ]
    for line in lines:
        print(line, flush=True)
    return lines


if __name__ == "__main__":
    main()
