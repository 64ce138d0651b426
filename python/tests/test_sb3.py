"""sb3-contrib's MaskablePPO trains through the Gymnasium adapter out of
the box: the adapter's ``action_masks()`` is what it reads, and no masked
policy ever plays an illegal action."""

from __future__ import annotations

import pytest
import sb3_contrib

from tabletop.gymnasium import TabletopEnv


class Recorder(TabletopEnv):
    """The adapter, counting the illegal actions it was given."""

    illegal = 0

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        Recorder.illegal += int(info.get("illegal_action", False))
        return obs, reward, terminated, truncated, info


@pytest.mark.parametrize("game", ["kuhn_poker", "cardwar"])
def test_maskable_ppo_trains_a_few_hundred_steps(game: str) -> None:
    Recorder.illegal = 0
    env = Recorder(game, seat=0, opponent="random", max_moves=200)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=2, seed=0, device="cpu"
    )
    model.learn(total_timesteps=384)
    assert model.num_timesteps >= 384
    assert Recorder.illegal == 0
    obs, info = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert info["action_mask"][int(action)] == 1
