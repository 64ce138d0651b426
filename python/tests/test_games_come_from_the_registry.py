"""A game is added in one place: the package names no game of its own.

Every game the package offers comes from the workspace's registry
(``game_registry::registry()``, which ``python/src/registry.rs`` returns as
it is), and every test runs over ``tabletop.registered_specs()``; so a game
registered there is offered and tested here with no file of the package
changed, as long as no module keeps a case or a table for a game by name.
These tests hold the package's code to that. Kuhn poker is the one game
code may name: the adapters' default game and the examples' reference
game, which every build registers.
"""

from __future__ import annotations

import ast
import pathlib
import re
from typing import Iterator, List, Tuple

import tabletop
from conftest import SPECS

PACKAGE = pathlib.Path(__file__).resolve().parents[1]
REFERENCE = "kuhn_poker"
# A Rust string literal, escapes included.
RUST_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _other_games() -> List[str]:
    names = [g.name for g in tabletop.registered_games() if g.name != REFERENCE]
    assert names, "no registered game besides the reference game"
    return names


def _names_a_game(text: str, games: List[str]) -> List[str]:
    return [g for g in games if re.search(rf"(?<![A-Za-z0-9]){re.escape(g)}(?![A-Za-z0-9])", text)]


def _python_strings(path: pathlib.Path) -> Iterator[Tuple[int, str]]:
    """The string constants of a module's code (f-strings' parts included),
    its docstrings left out: they may show a game as an example."""
    tree = ast.parse(path.read_text(), filename=str(path))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def _rust_strings(path: pathlib.Path) -> Iterator[Tuple[int, str]]:
    """The string literals of a Rust file's code, its comments (and so its
    doc comments, which may show a game as an example) left out."""
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.lstrip().startswith("//"):
            continue
        for literal in RUST_STRING.findall(line):
            yield number, literal


def _naming(paths, strings, games) -> List[str]:
    """Each string of `paths` (as `strings` reads a file) that names a game."""
    return [
        f"{path.name}:{line}: {text!r} names {named}"
        for path in paths
        for line, text in strings(path)
        for named in [_names_a_game(text, games)]
        if named
    ]


def test_no_python_module_of_the_package_names_a_game() -> None:
    games = _other_games()
    modules = sorted((PACKAGE / "tabletop").glob("*.py"))
    assert len(modules) > 5, modules
    found = _naming(modules, _python_strings, games)
    assert not found, "\n".join(found)


def test_the_extension_names_no_game() -> None:
    games = _other_games()
    sources = sorted((PACKAGE / "src").glob("*.rs"))
    assert any(p.name == "registry.rs" for p in sources), sources
    found = _naming(sources, _rust_strings, games)
    assert not found, "\n".join(found)


def test_the_tests_run_over_every_registered_preset() -> None:
    games = tabletop.registered_games()
    expected = [p.spec for g in games for p in g.presets] + [g.name for g in games if not g.presets]
    assert sorted(SPECS) == sorted(expected)
    for spec in SPECS:
        assert tabletop.load_game(spec).name == spec


def test_the_checks_see_a_game_named_in_code() -> None:
    games = _other_games()
    game = games[0]
    assert _names_a_game(f'if spec.startswith("{game}("):', games) == [game]
    assert _names_a_game(f"tabletop/{game}_x-v0", games) == [game]
    assert _names_a_game(f"{game}core", games) == []
