"""SB3's VecEnv over the Rust batch (tabletop.sb3): MaskablePPO with 256
rows reads its masks from the batch and trains; SB3's wrappers apply; a
frozen copy of the model is the opponent."""

from __future__ import annotations

import numpy as np
import pytest
import sb3_contrib
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecCheckNan, VecMonitor

import tabletop
from conftest import KUHN
from tabletop.sb3 import TabletopVecEnv


class Counted(TabletopVecEnv):
    """The adapter, counting the rows it was given an illegal action in
    and the calls for masks."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.illegal = 0
        self.mask_calls = 0

    def env_method(self, method_name, *args, indices=None, **kwargs):
        self.mask_calls += method_name == "action_masks"
        return super().env_method(method_name, *args, indices=indices, **kwargs)

    def step_wait(self):
        out = super().step_wait()
        self.illegal += int(self.batch.illegal.sum())
        return out


def test_maskable_ppo_with_256_rows_reads_the_batchs_masks_and_trains() -> None:
    env = Counted(KUHN, 256, opponent="random", seed=0)
    wrapped = VecCheckNan(VecMonitor(env))
    assert is_masking_supported(wrapped)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", wrapped, n_steps=2, batch_size=256, n_epochs=1, seed=0, device="cpu"
    )
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(total_timesteps=256 * 4)
    assert model.num_timesteps >= 1024
    assert env.illegal == 0 and env.mask_calls >= 4
    assert any(not np.array_equal(a.numpy(), b.detach().numpy()) for a, b in zip(before, model.policy.parameters()))
    masks = get_action_masks(wrapped)
    assert masks.shape == (256, 5) and np.array_equal(masks, env.batch.masks)
    assert len(model.ep_info_buffer) > 0


def test_steps_follow_sb3s_conventions_at_the_end_of_an_episode() -> None:
    env = TabletopVecEnv(KUHN, 32, opponent="random", seed=1)
    env.seed(9)
    obs = env.reset()
    assert obs.shape == (32, 14) and env.get_attr("render_mode") == [None] * 32
    ended = 0
    for _ in range(6):
        obs, rewards, dones, infos = env.step(env.action_masks().argmax(axis=1))
        assert rewards.dtype == np.float32 and dones.dtype == bool and len(infos) == 32
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == (14,)
            assert infos[i]["TimeLimit.truncated"] is False
            ended += 1
        assert not any("terminal_observation" in infos[i] for i in np.flatnonzero(~dones))
    assert ended > 0
    assert env.get_attr("seat", indices=[0, 1]) == [0, 0]


def test_a_frozen_copy_of_the_model_is_the_opponent_and_swaps_per_row() -> None:
    env = TabletopVecEnv(KUHN, 16, opponent="random", seed=2)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=64, seed=0, device="cpu")
    model.learn(total_timesteps=128)
    # A frozen copy: a new policy with the weights of now (a deep copy of
    # an SB3 policy fails on the distribution it keeps from its last call).
    snapshot = type(model.policy)(**model.policy._get_constructor_parameters())
    snapshot.load_state_dict(model.policy.state_dict())
    calls = []

    def frozen_model(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append(len(masks))
        actions, _ = snapshot.predict(observations, action_masks=masks, deterministic=True)
        return actions

    # From each row's next episode on: the learning goes on, no reset.
    env.env_method("set_opponent", frozen_model, seat=1, indices=range(8))
    model.learn(total_timesteps=128, reset_num_timesteps=False)
    assert calls and max(calls) > 1


def test_a_row_without_an_opponent_is_refused() -> None:
    with pytest.raises(tabletop.GameError):
        TabletopVecEnv(KUHN, 2, opponent=[None, "random"])


def test_the_mask_rows_stack_into_a_copy_of_the_batchs_masks_and_a_changed_list_as_it_is() -> None:
    env = TabletopVecEnv(KUHN, 8, opponent="random", seed=3)
    env.reset()
    rows = env.env_method("action_masks")
    masks = env.batch.masks
    assert len(rows) == 8 and all(np.shares_memory(r, masks) for r in rows)
    # What get_action_masks does: one copy of the batch's array.
    stacked = np.stack(rows)
    assert type(stacked) is np.ndarray and stacked.dtype == np.int8
    assert np.array_equal(stacked, masks) and not np.shares_memory(stacked, masks)
    # A list its caller changed is stacked as it now is.
    rows.reverse()
    assert np.array_equal(np.stack(rows), masks[::-1])
    rows.pop()
    assert np.array_equal(np.stack(rows), masks[:0:-1])
    assert np.array_equal(np.stack(env.env_method("action_masks"), axis=1), masks.T)
    assert np.array_equal(np.stack(env.env_method("action_masks", indices=[1, 3])), masks[[1, 3]])
    # NumPy's other functions and ufuncs on the rows give plain arrays.
    assert type(rows[0] + 1) is np.ndarray and type(np.concatenate(rows)) is np.ndarray
    assert type(np.stack(rows, axis=1)) is np.ndarray
    # The rows are views: after a step they read the new masks.
    rows = env.env_method("action_masks")
    for _ in range(3):
        env.step(masks.argmax(axis=1))
        assert np.array_equal(np.stack(rows), env.batch.masks)
        assert np.array_equal(get_action_masks(VecMonitor(env)), env.batch.masks)
