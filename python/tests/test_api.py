"""The OpenSpiel-style game API on every registered game and preset."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import tabletop
from conftest import SPECS, random_states


def test_registry_lists_every_game_with_presets_and_parameters() -> None:
    listings = tabletop.registered_games()
    assert listings, "no game registered"
    specs = []
    for g in listings:
        assert g.name and g.doc
        for p in g.presets:
            assert p.spec.startswith(g.name) and p.doc
            specs.append(p.spec)
        if not g.presets:
            specs.append(g.name)
        for param in g.parameters:
            assert param.name and param.default != ""
    assert specs == SPECS


def test_games_and_presets_carry_their_declared_titles() -> None:
    for g in tabletop.registered_games():
        assert g.title
        for p in g.presets:
            assert p.title and p.differences
    stratego = next(g for g in tabletop.registered_games() if g.name == "stratego")
    assert (stratego.title, stratego.presets[0].title) == ("Stratego", "International")


def test_a_game_name_alone_loads_its_first_preset() -> None:
    for g in tabletop.registered_games():
        if g.presets:
            assert tabletop.load_game(g.name) == tabletop.load_game(g.presets[0].spec)


def test_stratego_alone_is_the_international_classic_game() -> None:
    """``stratego`` is the ISF classic game, as in OpenSpiel; «Сражение»
    and the Czech rules are named variants."""
    listing = next(g for g in tabletop.registered_games() if g.name == "stratego")
    names = [p.name for p in listing.presets]
    assert names[0] == "classic" and {"srazhenie", "czech"} <= set(names)
    game = tabletop.load_game("stratego")
    assert game.name == "stratego(variant=classic)"
    assert game.num_distinct_actions() == 1380
    assert tabletop.load_game("stratego/srazhenie").num_distinct_actions() == 324
    env = tabletop.VecEnv("stratego", 2, seed=1)
    assert env.action_space == 1380 and env.game == game


def test_loading_normalises_the_name(spec: str) -> None:
    game = tabletop.load_game(spec)
    again = tabletop.load_game(game.name)
    assert again == game and hash(again) == hash(game)
    assert game.name in repr(game)


def test_metadata_is_consistent(spec: str) -> None:
    game = tabletop.load_game(spec)
    info = game.info()
    assert info["num_players"] == game.num_players() == 2
    assert info["chance_mode"] in ("explicit_stochastic", "deterministic")
    assert info["information"] in ("imperfect", "perfect")
    assert info["utility"] in ("zero_sum", "constant_sum", "general_sum")
    assert game.min_utility() <= game.max_utility()
    assert game.num_distinct_actions() > 0 and game.max_game_length() > 0
    shape = game.observation_tensor_shape()
    assert int(np.prod(shape)) == game.observation_tensor_size()
    layout = game.observation_tensor_layout()
    offset = 0
    for name, start, length in layout:
        assert name and start == offset
        offset += length
    assert offset == game.observation_tensor_size()


def test_bad_specifications_raise_game_spec_error() -> None:
    name = tabletop.registered_games()[0].name
    for bad in ["no_such_game", f"{name}(no_such_parameter=1)", f"{name}(", ""]:
        with pytest.raises(tabletop.GameSpecError):
            tabletop.load_game(bad)
    # The exceptions are ValueErrors, and share one base.
    assert issubclass(tabletop.GameSpecError, tabletop.GameError)
    assert issubclass(tabletop.IllegalActionError, tabletop.GameError)
    assert issubclass(tabletop.GameError, ValueError)


def test_every_state_keeps_the_api_contract(spec: str) -> None:
    game = tabletop.load_game(spec)
    space = game.num_distinct_actions()
    shape = tuple(game.observation_tensor_shape())
    for state in random_states(spec, seed=1):
        player = state.current_player()
        assert state.is_terminal() == (player == tabletop.TERMINAL_PLAYER == -4)
        assert state.is_chance_node() == (player == tabletop.CHANCE_PLAYER == -1)
        legal = state.legal_actions()
        assert legal == sorted(legal) and all(0 <= a < space for a in legal)
        mask = state.legal_actions_mask()
        assert mask.dtype == np.int8 and mask.shape == (space,)
        assert list(np.flatnonzero(mask)) == legal
        if state.is_terminal():
            assert legal == []
            assert sum(state.returns()) == pytest.approx(game.utility_sum())
            assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())
        elif state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == legal
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        else:
            assert state.chance_outcomes() == []
            assert state.legal_actions(1 - player) == []
            assert not state.legal_actions_mask(1 - player).any()
            assert state.returns() == [0.0, 0.0]
        for p in (0, 1):
            tensor = state.observation_tensor(p)
            assert tensor.dtype == np.float32 and tensor.shape == shape
            assert np.isfinite(tensor).all()
            out = np.full(game.observation_tensor_size(), -7.0, np.float32)
            state.write_observation_tensor(p, out)
            assert np.array_equal(out, tensor.ravel())
            assert isinstance(state.information_state_string(p), str)
            assert "\n" not in state.information_state_string(p)
            assert isinstance(state.observation_string(p), str)


def test_an_illegal_action_raises_and_changes_nothing(spec: str) -> None:
    game = tabletop.load_game(spec)
    checked = 0
    for state in random_states(spec, seed=2, games=2):
        before = state.serialize()
        illegal = [a for a in range(game.num_distinct_actions()) if a not in state.legal_actions()]
        for a in illegal[:3] + [-1, game.num_distinct_actions()]:
            with pytest.raises(tabletop.IllegalActionError) as err:
                state.apply_action(a)
            assert str(err.value)
            assert state.serialize() == before
            checked += 1
        for a in illegal[:3]:
            assert state.illegal_reason(a)
        for a in state.legal_actions()[:3]:
            assert state.illegal_reason(a) is None
    assert checked > 0


def test_a_seat_other_than_0_or_1_is_refused() -> None:
    state = tabletop.load_game(SPECS[0]).new_initial_state()
    for p in (-2, 2, 7):
        with pytest.raises(tabletop.GameError):
            state.observation_tensor(p)
        with pytest.raises(tabletop.GameError):
            state.information_state_string(p)


def test_clone_serialize_and_pickle_give_independent_equal_states(spec: str) -> None:
    game = tabletop.load_game(spec)
    for state in random_states(spec, seed=3, games=2):
        text = state.serialize()
        for copy_ in (
            state.clone(),
            copy.deepcopy(state),
            tabletop.deserialize_state(text),
            game.deserialize_state(text),
            game.deserialize_state(state.to_json()),
            pickle.loads(pickle.dumps(state)),
        ):
            assert copy_.serialize() == text
            assert str(copy_) == str(state)
            assert copy_.current_player() == state.current_player()
        if not state.is_terminal():
            other = state.clone()
            other.apply_action(other.legal_actions()[0])
            assert state.serialize() == text
    assert pickle.loads(pickle.dumps(game)) == game


def test_bad_serialisations_are_refused() -> None:
    game = tabletop.load_game(SPECS[0])
    for bad in ["", "{", "[1, 2]", '{"rules": 5}']:
        with pytest.raises(tabletop.InvalidStateError):
            game.deserialize_state(bad)
    with pytest.raises(tabletop.GameError):
        tabletop.deserialize_state("no_such_game\n{}")


def test_resampled_states_look_the_same_to_the_player(spec: str) -> None:
    for state in random_states(spec, seed=4, games=2):
        if state.is_terminal():
            continue
        for p in (0, 1):
            for seed in (1, 2):
                world = state.resample_from_infostate(p, seed)
                assert world.information_state_string(p) == state.information_state_string(p)
                assert np.array_equal(world.observation_tensor(p), state.observation_tensor(p))
                assert world.current_player() == state.current_player()
                # The mover's legal actions are part of what he knows, not
                # of what the other player knows.
                if state.current_player() == p:
                    assert world.legal_actions() == state.legal_actions()
                assert world.serialize() == state.resample_from_infostate(p, seed).serialize()


def test_hidden_information_differs_between_worlds_but_not_in_the_view() -> None:
    """On Kuhn poker: the opponent's card varies across determinisations
    while the player's view stays the same, so the view cannot hold it."""
    state = tabletop.load_game("kuhn_poker").new_initial_state()
    state.apply_action(0)  # seat 0 gets the jack
    state.apply_action(2)  # seat 1 gets the king
    worlds = {state.resample_from_infostate(0, seed).to_json() for seed in range(20)}
    assert len(worlds) == 2
    views = {tabletop.deserialize_state(state.get_game().name + "\n" + w).information_state_string(0) for w in worlds}
    assert views == {state.information_state_string(0)}


def test_chance_helpers_are_seeded(spec: str) -> None:
    game = tabletop.load_game(spec)
    a, b = game.new_initial_state(), game.new_initial_state()
    a.play_chance(11)
    b.play_chance(11)
    assert a.serialize() == b.serialize()
    assert not a.is_chance_node()
    if not a.is_terminal():
        assert a.random_legal_action(5) == a.random_legal_action(5)
        assert a.random_legal_action(5) in a.legal_actions()
        assert a.sample_chance_outcome(1) is None


def test_built_in_bots_choose_legal_actions(spec: str) -> None:
    game = tabletop.load_game(spec)
    for name in ["random", "flat:8", "ismcts:8"]:
        bot = game.make_bot(name, seed=3)
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal() and moves < 40:
            if state.is_chance_node():
                state.play_chance(moves)
                continue
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
    with pytest.raises(tabletop.GameSpecError):
        game.make_bot("no_such_bot")
    state = game.new_initial_state()
    state.play_chance(0)
    assert game.make_bot("ismcts:20", 9).step(state) == game.make_bot("ismcts:20", 9).step(state)


def test_decision_ids_are_the_action_space_without_chance_outcomes() -> None:
    assert tabletop.load_game("kuhn_poker").decision_ids() == [3, 4]
    cardwar = tabletop.load_game("cardwar")
    # Lay any of the 24 soldiers, end a line, pray, decline.
    assert len(cardwar.decision_ids()) == 27
    for spec in ["battleline", "stratego/czech", "cardwar"]:
        game = tabletop.load_game(spec)
        decisions = set(game.decision_ids())
        assert decisions and max(decisions) < game.num_distinct_actions()
        state = game.new_initial_state()
        rng = np.random.default_rng(3)
        for _ in range(300):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            assert all((a in decisions) != state.is_chance_node() for a in legal), spec
            state.apply_action(int(rng.choice(legal)))


def test_an_action_is_told_as_events_and_in_their_words() -> None:
    state = tabletop.load_game("kuhn_poker").new_initial_state()
    king_to_seat_0 = 2
    assert state.events(0, king_to_seat_0) == [{"kind": "dealt", "to": 0, "card": "King"}]
    assert state.events(1, king_to_seat_0) == [{"kind": "dealt", "to": 0, "card": None}]
    assert state.narrate(0, king_to_seat_0) == "you are dealt K"
    assert state.narrate(1, king_to_seat_0) == "P0 is dealt a card"
    state.apply_action(king_to_seat_0)
    state.apply_action(0)  # the Jack to seat 1
    bet = 4
    assert state.events(0, bet) == state.events(1, bet) == [{"kind": "bet", "player": 0}]
    assert (state.narrate(0, bet), state.narrate(1, bet)) == ("you: bet", "P0: bet")
    with pytest.raises(tabletop.IllegalActionError):
        state.events(0, king_to_seat_0)
