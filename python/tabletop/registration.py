"""Gymnasium ids for every game and preset, registered as Gymnasium
packages do: on ``import tabletop`` (where Gymnasium is installed), through
the ``gymnasium.envs`` entry point for Gymnasium versions that load
plugins (0.26-0.29), and by ``gymnasium.make("tabletop:ID")``, which
imports this package first (Gymnasium 1.x).

>>> import gymnasium, tabletop
>>> env = gymnasium.make("tabletop/kuhn_poker_classic-v0", opponent="random")
>>> envs = gymnasium.make_vec("tabletop/kuhn_poker_classic-v0", num_envs=64)

Kept apart from :mod:`tabletop.gymnasium` so that registering imports no
adapter: each id names its environment class by path, and Gymnasium
imports it at ``make``.
"""

from __future__ import annotations

from importlib import metadata
from typing import List, Optional, Tuple

import tabletop

__all__ = ["env_id", "gymnasium_ids", "register_gymnasium", "spec_of"]

# What `gymnasium.make` and `gymnasium.make_vec` build for each id
# (imported by Gymnasium then).
ENTRY_POINT = "tabletop.gymnasium:TabletopEnv"
VECTOR_ENTRY_POINT = "tabletop.gymnasium_vector:TabletopVectorEnv"


def env_id(game: str, preset: Optional[str] = None) -> str:
    """The Gymnasium id of ``game``'s ``preset``: ``tabletop/<game>_<preset>-v0``
    (``tabletop/<game>-v0`` for a game without presets)."""
    name = game + (f"_{preset}" if preset else "")
    return "tabletop/" + "".join(c if c.isalnum() or c == "_" else "_" for c in name) + "-v0"


def gymnasium_ids() -> List[Tuple[str, str]]:
    """``(id, specification)`` of every game's presets, games in the
    registry's order and each game's default preset first."""
    ids = []
    for listing in tabletop.registered_games():
        presets = [(p.name, p.spec) for p in listing.presets] or [(None, listing.name)]
        ids.extend((env_id(listing.name, preset), spec) for preset, spec in presets)
    return ids


def spec_of(name: str) -> str:
    """The specification an id of :func:`gymnasium_ids` names (PettingZoo,
    which has no registry, takes the same ids); any other name unchanged,
    for ``tabletop.load_game`` to read or refuse."""
    if name.startswith("tabletop/"):
        for gid, spec in gymnasium_ids():
            if gid == name:
                return spec
    return name


def register_gymnasium() -> List[str]:
    """Registers every id of :func:`gymnasium_ids` with ``gymnasium.make``
    (keyword arguments of ``make`` go to ``TabletopEnv``, those of
    ``make_vec`` to ``TabletopVectorEnv``, the same environment over the
    Rust batch) and returns them; calling it again changes nothing."""
    # From the registration module, not the package: Gymnasium's plugin
    # loader calls this while `gymnasium` itself is still importing.
    from gymnasium.envs.registration import register, registry

    # The vector environment is Gymnasium 1.x's (its autoreset modes).
    vector = int(metadata.version("gymnasium").split(".")[0]) >= 1
    extra = {"vector_entry_point": VECTOR_ENTRY_POINT} if vector else {}
    ids = []
    for gid, spec in gymnasium_ids():
        if gid not in registry:
            register(id=gid, entry_point=ENTRY_POINT, kwargs={"game": spec}, **extra)
        ids.append(gid)
    return ids
