"""Environment throughput through each framework's vector interface,
against ``tabletop.VecEnv``'s own rate with the same opponent.

    python python/bench/bench_frameworks.py                          # card war, 256 games, "random"
    python python/bench/bench_frameworks.py --game kuhn_poker --envs 1024 --seconds 3

Every path steps ``--envs`` games of ``--game`` against the built-in bot
``--opponent`` with the same policy, the first legal action of each row's
mask (``masks.argmax(axis=1)``: cheap, so that the environment's cost is
what is measured), and counts learner steps (one per game per step) per
CPU-second of the process (all threads: ``time.process_time``), so that
other work on the machine does not inflate the figures. Each figure is
the best of ``--repeats`` runs of about ``--seconds``, the paths taking
turns (one run of each per round).

- ``VecEnv``: ``tabletop.VecEnv(opponent=...)`` stepped directly.
- ``gymnasium``: ``gymnasium.make_vec`` (the ``vector_entry_point``,
  :class:`tabletop.gymnasium_vector.TabletopVectorEnv`, next-step autoreset,
  copies), masks from ``info["action_mask"]``.
- ``sb3``: :class:`tabletop.sb3.TabletopVecEnv` through ``VecMonitor``, as
  ``MaskablePPO`` drives it: ``get_action_masks`` then ``step``.
- ``pufferlib``: :class:`tabletop.pufferlib.TabletopPufferEnv` made by
  ``pufferlib.vector.make`` (native backend), masks from the observations.
- ``rllib``: what RLlib's new stack steps: ``DictInfoToList`` over
  ``make_vec``'s environment with the mask in the observation (under
  ``observations``/``action_mask``, as its action-masking module reads).
- ``gymnasium-sync``: for scale, Gymnasium's ``SyncVectorEnv`` over
  ``--envs`` single-game ``TabletopEnv`` (``--sync-envs`` of them).
"""

from __future__ import annotations

import argparse
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

import tabletop


def _first_legal(masks: np.ndarray) -> np.ndarray:
    return masks.argmax(axis=1)


def _timed(step: Callable[[], None], envs: int, seconds: float) -> Tuple[int, float]:
    for _ in range(3):  # warm-up
        step()
    steps = 0
    started, deadline = time.process_time(), time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        step()
        steps += envs
    return steps, time.process_time() - started


def vec_env(game: str, envs: int, opponent: str, threads: int, seconds: float) -> Tuple[int, float]:
    env = tabletop.VecEnv(game, envs, seed=1, threads=threads, opponent=opponent)
    env.reset()

    def step() -> None:
        env.step(_first_legal(env.masks))

    return _timed(step, envs, seconds)


def gymnasium_vector(game: str, envs: int, opponent: str, threads: int, seconds: float) -> Tuple[int, float]:
    import gymnasium

    vec = gymnasium.make_vec(env_id_of(game), num_envs=envs, opponent=opponent, threads=threads)
    _, info = vec.reset(seed=1)
    state = {"info": info}

    def step() -> None:
        _, _, _, _, state["info"] = vec.step(_first_legal(state["info"]["action_mask"]))

    return _timed(step, envs, seconds)


def env_id_of(game: str) -> str:
    """The Gymnasium id of a specification (its preset's, or the game's)."""
    from tabletop.registration import gymnasium_ids

    canonical = tabletop.load_game(game).name
    for gid, spec in gymnasium_ids():
        if tabletop.load_game(spec).name == canonical:
            return gid
    raise SystemExit(f"no Gymnasium id for {game}")


def rllib_view(game: str, envs: int, opponent: str, threads: int, seconds: float) -> Tuple[int, float]:
    import gymnasium
    from gymnasium.wrappers.vector import DictInfoToList

    vec = DictInfoToList(
        gymnasium.make_vec(env_id_of(game), num_envs=envs, opponent=opponent, threads=threads,
                           mask_in_observation=True, observation_key="observations")
    )
    obs, _ = vec.reset(seed=1)
    state = {"obs": obs}

    def step() -> None:
        state["obs"], _, _, _, _ = vec.step(_first_legal(state["obs"]["action_mask"]))

    return _timed(step, envs, seconds)


def sb3(game: str, envs: int, opponent: str, threads: int, seconds: float) -> Tuple[int, float]:
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import VecMonitor

    from tabletop.sb3 import TabletopVecEnv

    vec = VecMonitor(TabletopVecEnv(game, envs, opponent=opponent, seed=1, threads=threads))
    vec.reset()

    def step() -> None:
        vec.step(_first_legal(get_action_masks(vec)))

    return _timed(step, envs, seconds)


def pufferlib_native(game: str, envs: int, opponent: str, threads: int, seconds: float) -> Tuple[int, float]:
    import pufferlib
    import pufferlib.vector

    from tabletop.pufferlib import TabletopPufferEnv

    vec = pufferlib.vector.make(
        TabletopPufferEnv, backend=pufferlib.PufferEnv,
        env_kwargs=dict(game=game, num_envs=envs, opponent=opponent, seed=1, threads=threads),
    )
    obs, _ = vec.reset(seed=1)
    space = vec.single_action_space.n
    state = {"obs": obs}

    def step() -> None:
        state["obs"], _, _, _, _ = vec.step(_first_legal(state["obs"][:, -space:]))

    return _timed(step, envs, seconds)


def gymnasium_sync(game: str, envs: int, opponent: str, threads: int, seconds: float) -> Tuple[int, float]:
    import gymnasium

    vec = gymnasium.make_vec(env_id_of(game), num_envs=envs, vectorization_mode="sync", opponent=opponent)
    _, info = vec.reset(seed=1)
    state = {"info": info}

    def step() -> None:
        _, _, _, _, state["info"] = vec.step(_first_legal(state["info"]["action_mask"]))

    return _timed(step, envs, seconds)


PATHS: Dict[str, Callable[..., Tuple[int, float]]] = {
    "VecEnv": vec_env,
    "gymnasium": gymnasium_vector,
    "sb3": sb3,
    "pufferlib": pufferlib_native,
    "rllib": rllib_view,
    "gymnasium-sync": gymnasium_sync,
}


def main(argv: Optional[Sequence[str]] = None) -> List[str]:
    """Runs the benchmark, prints one line per path and returns them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="cardwar", help="a specification (default: %(default)s)")
    parser.add_argument("--envs", type=int, default=256, help="games stepped together (default: %(default)s)")
    parser.add_argument("--sync-envs", type=int, default=64, help="single-game envs of gymnasium-sync (default: %(default)s)")
    parser.add_argument("--opponent", default="random", help="the built-in bot (default: %(default)s)")
    parser.add_argument("--threads", type=int, default=0, help="threads of the batch, 0 = every core (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure, best kept (default: %(default)s)")
    parser.add_argument("--path", action="append", choices=list(PATHS), help="paths to run (repeatable; default: all)")
    args = parser.parse_args(argv)
    names = args.path or list(PATHS)
    envs_of = {n: args.sync_envs if n == "gymnasium-sync" else args.envs for n in names}
    # Round robin, every path once per round: on a machine that other work
    # loads unevenly, each path's best run comes from the same stretch of
    # time as VecEnv's, which keeps the ratios steadier than one path's
    # runs after the other's.
    best = {n: 0.0 for n in names}
    for _ in range(args.repeats):
        for name in names:
            steps, cpu = PATHS[name](args.game, envs_of[name], args.opponent, args.threads, args.seconds)
            best[name] = max(best[name], steps / cpu)
    lines: List[str] = []
    base = best.get("VecEnv")
    for name in names:
        ratio = f", {best[name] / base:.2f} of VecEnv" if base else ""
        line = f"{args.game} x{envs_of[name]} vs {args.opponent}  {name}: {best[name]:,.0f} steps per CPU-second{ratio}"
        print(line, flush=True)
        lines.append(line)
    return lines


if __name__ == "__main__":
    main()
