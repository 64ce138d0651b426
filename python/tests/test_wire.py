"""The wire structs Python reads (docs/wire.md) on every registered game and
preset: observations and legal actions match the published JSON Schema
(crates/tabletop-server/wire-schema.json), action structs read back to
their ids, refusals carry fields, every number stays exact in a JSON
reader, and a seat's observation struct holds nothing that seat cannot
see."""

from __future__ import annotations

import functools
import json
import pathlib
import random
from typing import Any, Dict, Iterator, List, Tuple

import jsonschema
import pytest

import tabletop

SCHEMA_PATH = pathlib.Path(__file__).resolve().parents[2] / "crates" / "tabletop-server" / "wire-schema.json"

# The largest integer every JSON reader (a browser's included) keeps exact.
MAX_SAFE_INTEGER = 2**53 - 1

# Games per preset, and the move cap per game: enough to reach every phase
# of the short games and the opening, middle and (often) end of the long
# ones while validating every state in a few seconds per preset.
GAMES = 2
MAX_STATES = 400


@functools.lru_cache(maxsize=None)
def _document() -> Dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text())


@functools.lru_cache(maxsize=None)
def _validator(game: str, form: str) -> jsonschema.Draft202012Validator:
    """A validator of ``games.<game>.<form>``, the whole document as its root
    so that ``#/games/<game>/$defs/...`` references resolve."""
    document = _document()
    assert game in document["games"], f"{game} has no wire schema"
    root = {**document, "$ref": f"#/games/{game}/{form}"}
    return jsonschema.Draft202012Validator(root)


def _game_name(spec: str) -> str:
    """The registry's name of ``spec``'s game, the key of the schema's ``games``."""
    return next(
        listing.name
        for listing in tabletop.registered_games()
        if spec in [p.spec for p in listing.presets] or spec == listing.name
    )


def _seeded_states(spec: str, seed: int) -> Iterator[tabletop.State]:
    """The states of ``GAMES`` random games of ``spec`` (chance included),
    each cut after ``MAX_STATES`` states."""
    rng = random.Random(seed)
    game = tabletop.load_game(spec)
    for _ in range(GAMES):
        state = game.new_initial_state()
        for _ in range(MAX_STATES):
            yield state
            if state.is_terminal():
                break
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state = state.clone()
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state = state.clone()
                state.apply_action(rng.choice(state.legal_actions()))


def _integers(value: Any) -> Iterator[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _integers(v)
    elif isinstance(value, list):
        for v in value:
            yield from _integers(v)


def _assert_exact_in_json(value: Any) -> None:
    for n in _integers(value):
        assert -MAX_SAFE_INTEGER <= n <= MAX_SAFE_INTEGER, n
    assert not any(isinstance(v, float) for v in _leaves(value)), value


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _errors(validator: jsonschema.Draft202012Validator, instance: Any) -> List[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(instance)]


def test_the_published_schema_is_a_valid_json_schema_naming_every_registered_game() -> None:
    document = _document()
    jsonschema.Draft202012Validator.check_schema(document)
    for listing in tabletop.registered_games():
        assert set(document["games"][listing.name]) >= {"action", "view", "observation"}


def test_the_schema_refuses_what_no_game_writes(spec: str) -> None:
    """The validators resolve to the game's strict definitions, not to an
    empty schema that accepts anything."""
    game = _game_name(spec)
    assert _errors(_validator(game, "observation"), {})
    assert _errors(_validator(game, "action"), {"type": "no_such_action"})
    assert _errors(_validator(game, "action"), 7)


def test_observation_structs_of_both_seats_match_the_schema(spec: str) -> None:
    validator = _validator(_game_name(spec), "observation")
    for index, state in enumerate(_seeded_states(spec, seed=20)):
        # The schema's validation, not the engine, was this test's time
        # (13 to 29 s a preset in a CI run, every state checked): every
        # fifth state and each final one still meet every phase of a game.
        validate = index % 5 == 0 or state.is_terminal()
        for seat in (0, 1):
            obs = state.observation_struct(seat)
            if validate:
                assert not _errors(validator, obs), (seat, _errors(validator, obs))
            _assert_exact_in_json(obs)


def test_legal_action_structs_match_the_schema_and_read_back_to_their_ids(spec: str) -> None:
    validator = _validator(_game_name(spec), "action")
    for state in _seeded_states(spec, seed=21):
        if not state.is_player_node():
            continue
        legal = state.legal_action_structs()
        assert [a["id"] for a in legal] == state.legal_actions()
        for entry in legal:
            assert set(entry) == {"id", "text", "action"}
            assert not _errors(validator, entry["action"]), _errors(validator, entry["action"])
            _assert_exact_in_json(entry)
            assert entry["text"] == state.action_to_string(entry["id"])
            assert state.action_struct(entry["id"]) == entry["action"]
            assert state.action_from_struct(entry["action"]) == entry["id"]


def _illegal_decision(state: tabletop.State) -> int:
    """An id of the action space that the player to move may not play now."""
    legal = set(state.legal_actions())
    space = state.get_game().num_distinct_actions()
    return next(a for a in range(space) if a not in legal)


def test_an_illegal_action_raises_with_the_engines_id_notation_and_reason(spec: str) -> None:
    checked = 0
    for state in _seeded_states(spec, seed=22):
        if not state.is_player_node():
            continue
        action = _illegal_decision(state)
        before = state.serialize()
        with pytest.raises(tabletop.IllegalActionError) as err:
            state.apply_action(action)
        assert err.value.action_id == action
        assert err.value.action == state.action_to_string(action)
        assert err.value.reason and err.value.reason == state.illegal_reason(action)
        assert state.serialize() == before
        checked += 1
        if checked == 20:
            break
    assert checked


def _structs_naming_nothing(example: Dict[str, Any]) -> Iterator[Tuple[str, Any]]:
    yield "unknown type", {"type": "no_such_action"}
    yield "no type", {}
    yield "not an object", [example]
    for field in example:
        if field != "type":
            yield f"garbage {field}", {**example, field: "no-such-value"}


def test_a_struct_naming_no_action_raises_illegal_action_without_an_id(spec: str) -> None:
    state = next(s for s in _seeded_states(spec, seed=23) if s.is_player_node())
    example = state.legal_action_structs()[0]["action"]
    before = state.serialize()
    for case, struct in _structs_naming_nothing(example):
        with pytest.raises(tabletop.IllegalActionError) as err:
            state.action_from_struct(struct)
        assert err.value.action_id is None, case
    assert state.serialize() == before


def test_an_id_outside_the_action_space_raises_illegal_action_without_an_id(spec: str) -> None:
    state = next(s for s in _seeded_states(spec, seed=24) if s.is_player_node())
    space = state.get_game().num_distinct_actions()
    for action in (space, -1):
        with pytest.raises(tabletop.IllegalActionError) as err:
            state.apply_action(action)
        assert (err.value.action_id, err.value.action, err.value.reason) == (None, None, None)


def test_an_observation_struct_is_the_same_on_every_state_its_seat_cannot_tell_apart(
    spec: str,
) -> None:
    """A seat's view resampled (the hidden part redrawn) reads the same."""
    for i, state in enumerate(_seeded_states(spec, seed=25)):
        if i % 5 or state.is_terminal():
            continue
        for seat in (0, 1):
            seen = state.observation_struct(seat)
            for seed in (1, 2):
                other = state.resample_from_infostate(seat, seed)
                assert other.observation_struct(seat) == seen, (seat, seed)


def test_bot_and_internal_errors_are_exported_with_their_bases() -> None:
    assert issubclass(tabletop.BotError, tabletop.GameError)
    assert issubclass(tabletop.InternalError, RuntimeError)
    assert not issubclass(tabletop.InternalError, tabletop.GameError)
