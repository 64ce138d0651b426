"""The Gymnasium vector environment over the Rust batch
(tabletop.gymnasium_vector): what ``gymnasium.make_vec`` builds for every
id, each row a ``TabletopEnv``, in each of Gymnasium's autoreset modes."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

import tabletop
from conftest import KUHN
from tabletop.gymnasium import TabletopEnv
from tabletop.gymnasium_vector import TabletopVectorEnv
from tabletop.registration import gymnasium_ids

GAMES = [KUHN, "cardwar"]


def _learner_tensors(vec: TabletopVectorEnv) -> np.ndarray:
    batch = vec.batch
    return np.stack(
        [batch.env.state(i).observation_tensor(int(batch.seat[i])) for i in range(vec.num_envs)]
    )


def test_make_vec_builds_it_for_every_id_with_the_single_envs_spaces() -> None:
    for gid in [gid for gid, spec in gymnasium_ids() if spec.startswith(("kuhn_poker", "cardwar"))]:
        vec = gymnasium.make_vec(gid, num_envs=4, opponent="random", seat=1)
        single = gymnasium.make(gid, opponent="random", seat=1)
        assert isinstance(vec.unwrapped, TabletopVectorEnv)
        assert vec.single_observation_space == single.observation_space
        assert vec.single_action_space == single.action_space
        assert vec.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
        obs, info = vec.reset(seed=3)
        assert vec.observation_space.contains(obs)
        assert info["action_mask"].dtype == np.int8 and info["_action_mask"].all()


@pytest.mark.parametrize("game", GAMES)
def test_next_step_shows_the_last_observation_then_the_new_episode(game: str) -> None:
    vec = TabletopVectorEnv(game, 16, seat=0, opponent="random", max_moves=30, seed=2)
    obs, info = vec.reset(seed=2)
    assert np.array_equal(obs, _learner_tensors(vec))
    waiting = np.zeros(16, bool)
    ended = 0
    for _ in range(80):
        obs, rewards, terminated, truncated, info = vec.step(info["action_mask"].argmax(axis=1))
        # Rows that waited restart: reward 0, not done, the new episode shown.
        assert not rewards[waiting].any() and not (terminated | truncated)[waiting].any()
        done = terminated | truncated
        assert not info["action_mask"][done].any()
        live = ~done
        assert np.array_equal(obs[live], _learner_tensors(vec)[live])
        assert info["action_mask"][live].any(axis=1).all()
        for i in np.flatnonzero(terminated):
            assert vec.game.min_utility() <= rewards[i] <= vec.game.max_utility()
        waiting = done
        ended += int(done.sum())
    assert ended > 0


def test_same_step_shows_the_new_episode_and_the_last_observation_in_info() -> None:
    vec = TabletopVectorEnv("cardwar", 16, autoreset_mode="SameStep", max_moves=20, seed=5)
    assert vec.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    _, info = vec.reset()
    finals = 0
    for _ in range(45):
        obs, rewards, terminated, truncated, info = vec.step(info["action_mask"].argmax(axis=1))
        done = terminated | truncated
        assert np.array_equal(obs, _learner_tensors(vec))
        assert info["action_mask"].any(axis=1).all()
        if done.any():
            assert np.array_equal(info["_final_obs"], done)
            for i in np.flatnonzero(done):
                assert vec.single_observation_space.contains(info["final_obs"][i])
                finals += 1
        else:
            assert "final_obs" not in info
    assert finals > 0


def test_disabled_refuses_a_step_until_the_ended_rows_are_reset() -> None:
    vec = TabletopVectorEnv(KUHN, 8, autoreset_mode=AutoresetMode.DISABLED, seed=1)
    _, info = vec.reset(seed=1)
    for _ in range(10):
        _, _, terminated, truncated, info = vec.step(info["action_mask"].argmax(axis=1))
        done = terminated | truncated
        if done.any():
            break
    assert done.any()
    with pytest.raises(tabletop.GameError):
        vec.step(np.zeros(8, np.int64))
    obs, info = vec.reset(options={"reset_mask": done})
    assert np.array_equal(obs, _learner_tensors(vec))
    assert info["action_mask"].any(axis=1).all()
    vec.step(info["action_mask"].argmax(axis=1))


def test_an_illegal_action_loses_the_row_and_gymnasiums_wrappers_count_it() -> None:
    vec = RecordEpisodeStatistics(TabletopVectorEnv(KUHN, 4, seed=0))
    _, info = vec.reset(seed=0)
    illegal = (info["action_mask"] == 0).argmax(axis=1)
    _, rewards, terminated, _, info = vec.step(illegal)
    assert terminated.all() and (rewards == vec.unwrapped.game.min_utility()).all()
    assert info["illegal_action"].all()
    assert (info["episode"]["r"] == rewards).all() and (info["episode"]["l"] == 1).all()
    strict = TabletopVectorEnv(KUHN, 4, illegal_action="raise")
    _, info = strict.reset()
    with pytest.raises(tabletop.IllegalActionError):
        strict.step((info["action_mask"] == 0).argmax(axis=1))


def test_illegal_actions_among_legal_ones_lose_their_rows_and_the_others_play_on() -> None:
    # The engine refuses a step with an illegal action whole: the rows
    # whose actions are legal still move, once, as with legal actions only.
    vec, twin = (TabletopVectorEnv("cardwar", 6, seed=4) for _ in range(2))
    _, info = vec.reset(seed=4)
    twin.reset(seed=4)
    masks = info["action_mask"].copy()
    legal = masks.argmax(axis=1)
    actions = legal.copy()
    actions[1] = (masks[1] == 0).argmax()  # a masked id
    actions[3] = -1
    actions[4] = masks.shape[1]  # outside the action space
    lost = np.isin(np.arange(6), [1, 3, 4])
    obs, rewards, terminated, _, info = vec.step(actions)
    twin_obs, twin_rewards, twin_terminated, _, _ = twin.step(legal)
    assert np.array_equal(info["illegal_action"], lost)
    assert terminated[lost].all() and (rewards[lost] == vec.game.min_utility()).all()
    assert np.array_equal(obs[~lost], twin_obs[~lost])
    assert np.array_equal(rewards[~lost], twin_rewards[~lost])
    assert np.array_equal(terminated[~lost], twin_terminated[~lost])
    obs, *_ = vec.step(vec.action_masks().argmax(axis=1))
    twin_obs, *_ = twin.step(twin.action_masks().argmax(axis=1))
    assert np.array_equal(obs[~lost], twin_obs[~lost])


def test_dict_observations_and_the_mask_in_the_observation_as_rllib_reads_them() -> None:
    vec = DictInfoToList(
        TabletopVectorEnv("stratego", 2, observation="dict", mask_in_observation=True,
                          observation_key="observations", copy=False)
    )
    obs, infos = vec.reset(seed=0)
    assert obs["observations"]["board"].shape == (2, 54, 10, 10)
    assert vec.observation_space.contains(obs)
    assert len(infos) == 2 and infos[0]["action_mask"].shape == (1380,)
    obs, *_ = vec.step(obs["action_mask"].argmax(axis=1))
    assert obs["action_mask"].any(axis=1).all()


def test_a_python_opponent_a_league_and_a_swap_between_steps() -> None:
    calls = []

    def last_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append(len(masks))
        return masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1)

    vec = TabletopVectorEnv(KUHN, 6, seat=[0, 1, 0, 1, 0, 1], opponent=[last_legal, "random"] * 3, seed=4)
    _, info = vec.reset(seed=4)
    assert list(vec.batch.seat) == [0, 1, 0, 1, 0, 1]
    vec.set_opponent(1, last_legal, seat=0)
    for _ in range(12):
        _, _, terminated, truncated, info = vec.step(info["action_mask"].argmax(axis=1))
    assert calls and max(calls) > 1
    assert vec.batch.seat[1] == 0


def test_the_single_env_takes_a_python_opponent_and_swaps_it_at_reset() -> None:
    seen = []

    def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        seen.append(observations.shape)
        return masks.argmax(axis=1)

    env = TabletopEnv("cardwar", seat=1, opponent=first_legal)
    obs, info = env.reset(seed=0)
    for _ in range(30):
        obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))
        if terminated:
            break
    assert seen and seen[0] == (1, env.game.observation_tensor_size())
    env.set_opponent("random")
    seen.clear()
    env.reset(seed=1)
    for _ in range(5):
        env.step(int(env.action_masks().argmax()))
    assert not seen
    with pytest.raises(tabletop.GameError):
        env.set_opponent(3)


def test_the_decision_only_action_space_plays_the_same_games_as_the_full_ids() -> None:
    game = tabletop.load_game("cardwar")
    ids = np.array(game.decision_ids())
    assert len(ids) < game.num_distinct_actions()
    small = TabletopVectorEnv("cardwar", 8, actions="decisions", mask_in_observation=True, seed=3)
    full = TabletopVectorEnv("cardwar", 8, seed=3)
    assert small.single_action_space.n == len(ids)
    assert small.single_observation_space["action_mask"].shape == (len(ids),)
    obs_s, info_s = small.reset(seed=3)
    obs_f, info_f = full.reset(seed=3)
    for _ in range(40):
        assert np.array_equal(info_s["action_mask"], info_f["action_mask"][:, ids])
        assert np.array_equal(obs_s["observation"], obs_f)
        # The last legal decision: not always the first id, so the mapping shows.
        pick = len(ids) - 1 - info_s["action_mask"][:, ::-1].argmax(axis=1)
        obs_s, r_s, t_s, _, info_s = small.step(pick)
        obs_f, r_f, t_f, _, info_f = full.step(ids[pick])
        assert np.array_equal(r_s, r_f) and np.array_equal(t_s, t_f)
    single = TabletopEnv("cardwar", actions="decisions")
    _, info = single.reset(seed=0)
    assert single.action_space.n == len(ids)
    assert np.array_equal(info["action_mask"], single.state.legal_actions_mask(0)[ids])
    _, _, _, _, info = single.step(int(info["action_mask"].argmax()))
    assert "illegal_action" not in info
