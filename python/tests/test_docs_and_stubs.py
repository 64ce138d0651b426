"""Every public name has a docstring and a type stub."""

from __future__ import annotations

import ast
import importlib
import inspect
import pathlib

import tabletop

STUB = pathlib.Path(tabletop.__file__).with_name("_tabletop.pyi")
ADAPTERS = [
    "tabletop.openspiel",
    "tabletop.pettingzoo",
    "tabletop.gymnasium",
    "tabletop.gymnasium_vector",
    "tabletop.sb3",
    "tabletop.pufferlib",
    "tabletop.learner_batch",
]


def _stubbed() -> dict:
    tree = ast.parse(STUB.read_text())
    names: dict = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)
            }
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = set()
        elif isinstance(node, ast.AnnAssign):
            names[node.target.id] = set()
    return names


def test_the_package_is_typed() -> None:
    assert STUB.with_name("py.typed").exists()


def test_every_public_name_of_the_core_is_in_the_stub() -> None:
    stubbed = _stubbed()
    for name in tabletop.__all__:
        assert name in stubbed, name
        obj = getattr(tabletop, name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            public = {m for m in vars(obj) if not m.startswith("_")}
            missing = public - stubbed[name]
            assert not missing, f"{name}: {sorted(missing)} not in the stub"


def test_every_public_name_has_a_docstring() -> None:
    for name in tabletop.__all__:
        obj = getattr(tabletop, name)
        if callable(obj):
            assert (obj.__doc__ or "").strip(), name
        if inspect.isclass(obj):
            for member, value in vars(obj).items():
                if not member.startswith("_") and callable(getattr(obj, member)):
                    assert (getattr(obj, member).__doc__ or "").strip(), f"{name}.{member}"
    for module_name in ADAPTERS:
        module = importlib.import_module(module_name)
        assert (module.__doc__ or "").strip(), module_name
        for name in module.__all__:
            obj = getattr(module, name)
            assert (obj.__doc__ or "").strip(), f"{module_name}.{name}"
            if inspect.isclass(obj):
                for member, value in vars(obj).items():
                    if not member.startswith("_") and inspect.isfunction(value):
                        assert (value.__doc__ or "").strip(), f"{module_name}.{name}.{member}"
