"""Random playouts through ``tabletop``: moves/s and games/s.

    python python/bench/bench_playouts.py                      # every registered preset
    python python/bench/bench_playouts.py --game "stratego(variant=classic)" --seconds 5

What it counts: a *move* is one player decision applied (chance events, such
as deals, are played but not counted); a *game* is one finished game. Each
figure is the best of ``--repeats`` runs of about ``--seconds`` each.

1. ``single-state``: one game at a time from Python: per move
   ``state.legal_actions()``, a choice with ``random.Random``, and
   ``state.apply_action(a)``; chance through ``state.play_chance(seed)``.
   Beside it, the cost of a bare Python method call (``obj.f(x)`` on a
   trivial Python method) and the ratio of the cost per move to it.
   Per-call costs by ``timeit``: a bare Python method call beside
   ``current_player()``, ``legal_actions()``, ``illegal_reason(a)`` and
   ``clone()``.
2. ``single-state, engine sampling``: the same with
   ``state.random_legal_action(seed)`` choosing the move in Rust.
3. ``vectorised``: ``tabletop.VecEnv`` with ``--envs`` games (1,024 by
   default) on ``--threads`` threads (0: every core), masks written into
   numpy each step, a uniformly random legal action per game drawn from the
   masks by ``env.random_actions()``; every step is one move in every game.
   Run once without observation tensors and once with them.

``--vectorised-only`` runs 3. alone and prints the ratio of the two rates
(observations against masks only); ``--cpu`` counts per CPU-second of the
process instead of per second, for a machine that other work loads.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Callable, List, Optional, Sequence, Tuple

import tabletop


def best_of(repeats: int, run: Callable[[], Tuple[int, int, float]]) -> Tuple[float, float]:
    """The best moves/s and games/s of ``repeats`` runs of ``run``, which
    returns (moves, games, seconds)."""
    best = (0.0, 0.0)
    for _ in range(repeats):
        moves, games, seconds = run()
        if moves / seconds > best[0]:
            best = (moves / seconds, games / seconds)
    return best


def single_state(spec: str, seconds: float, engine_sampling: bool) -> Tuple[int, int, float]:
    """Random playouts one state at a time for about ``seconds``."""
    game = tabletop.load_game(spec)
    rng = random.Random(1)
    moves = games = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                seed += 1
                state.play_chance(seed)
                continue
            if engine_sampling:
                seed += 1
                state.apply_action(state.random_legal_action(seed))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            moves += 1
        games += 1
    return moves, games, time.perf_counter() - start


class _Bare:
    def f(self, x: int) -> int:
        return x


def bare_call_ns(calls: int = 2_000_000) -> float:
    """Nanoseconds of one call of a trivial Python method, loop included."""
    obj = _Bare()
    start = time.perf_counter()
    for i in range(calls):
        obj.f(i)
    return (time.perf_counter() - start) / calls * 1e9


def call_costs(spec: str) -> List[Tuple[str, float]]:
    """Nanoseconds of single-state calls at a player's decision, each the
    best of three timeit runs: what one action costs from Python."""
    import timeit

    game = tabletop.load_game(spec)
    state = game.new_initial_state()
    state.play_chance(1)
    legal = state.legal_actions()[0] if not state.is_terminal() else 0
    bare = _Bare()
    calls = {
        "bare Python method call obj.f(x)": lambda: bare.f(1),
        "state.current_player()": state.current_player,
        "state.legal_actions()": state.legal_actions,
        "state.illegal_reason(a) (the legality check of apply_action)": lambda: state.illegal_reason(legal),
        "state.clone()": state.clone,
    }
    out = []
    for name, fn in calls.items():
        t = min(timeit.repeat(fn, number=200_000, repeat=3)) / 200_000 * 1e9
        out.append((name, t))
    return out


def vectorised(spec: str, seconds: float, envs: int, threads: int, tensors: bool,
               clock: Callable[[], float] = time.perf_counter) -> Tuple[int, int, float]:
    """Steps a ``VecEnv`` with random masked actions for about ``seconds``
    (of wall time); the time returned is ``clock``'s (``time.process_time``:
    the CPU time of every thread, which other processes on a loaded machine
    do not inflate)."""
    env = tabletop.VecEnv(spec, envs, seed=1, threads=threads, observations=tensors, masks=True)
    env.reset()
    for _ in range(3):  # warm-up
        env.step(env.random_actions())
    steps = games = 0
    start, started = time.perf_counter(), clock()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        _, _, _, terminated, truncated, _ = env.step(env.random_actions())
        games += int(terminated.sum())
        steps += 1
    return steps * envs, games, clock() - started


def main(argv: Optional[Sequence[str]] = None) -> List[str]:
    """Runs the benchmark, prints one line per measurement and returns them."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a specification (repeatable; default: every registered preset)")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure, best kept (default: %(default)s)")
    parser.add_argument("--envs", type=int, default=1024, help="games of the vectorised env (default: %(default)s)")
    parser.add_argument("--threads", type=int, default=0, help="threads of the vectorised env, 0 = every core (default: %(default)s)")
    parser.add_argument("--vectorised-only", action="store_true", help="only the vectorised runs (3.), with their ratio")
    parser.add_argument("--cpu", action="store_true", help="vectorised rates per CPU-second of the process (all threads) instead of per second")
    args = parser.parse_args(argv)
    specs = args.game or tabletop.registered_specs()
    lines = []

    def out(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    bare = bare_call_ns()
    out(f"tabletop {tabletop.__version__}, {os.cpu_count()} cores; a move = one player decision applied, chance not counted")
    out(f"bare Python method call: {bare:.1f} ns")
    clock = time.process_time if args.cpu else time.perf_counter
    for spec in specs:
        if args.vectorised_only:
            rates = []
            for tensors in (False, True):
                m, g = best_of(args.repeats, lambda: vectorised(spec, args.seconds, args.envs, args.threads, tensors, clock))
                rates.append(m)
            unit = "steps per CPU-second" if args.cpu else "steps/s"
            out(f"{spec}  vectorised x{args.envs}, threads={args.threads or 'all'}: masks {rates[0]:,.0f} {unit}, "
                f"masks + observations {rates[1]:,.0f} {unit}, ratio {rates[1] / rates[0]:.2f}")
            continue
        costs = call_costs(spec)
        base = costs[0][1]
        for name, t in costs:
            out(f"{spec}  per call: {name}: {t:.0f} ns = {t / base:.1f} bare calls (timeit, lambda included)")
        m, g = best_of(args.repeats, lambda: single_state(spec, args.seconds, False))
        out(f"{spec}  single-state (legal_actions + random.choice + apply_action): "
            f"{m:,.0f} moves/s, {g:,.0f} games/s, {1e9 / m:.0f} ns/move = {1e9 / m / bare:.1f} bare calls")
        m, g = best_of(args.repeats, lambda: single_state(spec, args.seconds, True))
        out(f"{spec}  single-state, engine sampling (random_legal_action + apply_action): "
            f"{m:,.0f} moves/s, {g:,.0f} games/s, {1e9 / m:.0f} ns/move = {1e9 / m / bare:.1f} bare calls")
        for tensors in (False, True):
            m, g = best_of(args.repeats, lambda: vectorised(spec, args.seconds, args.envs, args.threads, tensors))
            what = "masks + observation tensors" if tensors else "masks"
            out(f"{spec}  vectorised x{args.envs}, threads={args.threads or 'all'}, {what}, random_actions: "
                f"{m:,.0f} moves/s, {g:,.0f} games/s")
    return lines


if __name__ == "__main__":
    main()
