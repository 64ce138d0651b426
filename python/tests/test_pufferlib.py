"""PufferLib 3.0 (its core package) emulates and vectorises the Gymnasium
adapter out of the box: the mask rides in the observation
(``mask_in_observation=True``), and a masked policy trains a few hundred
vector steps on it without playing an illegal action."""

from __future__ import annotations

import numpy as np
import pufferlib
import pufferlib.emulation
import pufferlib.vector
import torch

from tabletop.gymnasium import TabletopEnv

ENVS = 8


def make(buf=None, seed: int = 0) -> pufferlib.emulation.GymnasiumPufferEnv:
    return pufferlib.emulation.GymnasiumPufferEnv(
        env_creator=lambda: TabletopEnv("kuhn_poker", seat=0, opponent="random", mask_in_observation=True),
        buf=buf,
        seed=seed,
    )


def _split(vecenv, obs: np.ndarray):
    """The emulated rows back as (tensors, masks)."""
    fields = obs.view(vecenv.driver_env.obs_dtype).reshape(len(obs))
    return fields["observation"], fields["action_mask"]


def test_pufferlib_vectorises_and_a_masked_policy_trains_on_it() -> None:
    vecenv = pufferlib.vector.make(make, num_envs=ENVS, backend=pufferlib.vector.Serial)
    assert vecenv.single_action_space.n == 5
    obs, _ = vecenv.reset(seed=0)
    torch.manual_seed(0)
    policy = torch.nn.Sequential(torch.nn.Linear(14, 32), torch.nn.Tanh(), torch.nn.Linear(32, 5))
    before = [p.detach().clone() for p in policy.parameters()]
    optimiser = torch.optim.Adam(policy.parameters(), lr=1e-2)
    log_probs, rewards, illegal, episodes = [], [], 0, 0
    for step in range(300):
        tensors, masks = _split(vecenv, obs)
        logits = policy(torch.as_tensor(tensors))
        legal = torch.as_tensor(masks.astype(bool))
        # A row whose game just ended shows an empty mask: PufferLib resets
        # it on this step and ignores its action.
        logits = torch.where(legal | ~legal.any(dim=1, keepdim=True), logits, torch.finfo(logits.dtype).min)
        dist = torch.distributions.Categorical(logits=logits)
        actions = dist.sample()
        obs, reward, terminated, truncated, infos = vecenv.step(actions.numpy().astype(np.int64))
        illegal += sum(bool(i.get("illegal_action")) for i in infos)
        episodes += int(terminated.sum())
        log_probs.append(dist.log_prob(actions) * torch.as_tensor(legal.any(dim=1)))
        rewards.append(torch.as_tensor(reward, dtype=torch.float32))
        if (step + 1) % 50 == 0:
            # REINFORCE on the rewards to come, per environment.
            returns = torch.flip(torch.cumsum(torch.flip(torch.stack(rewards), [0]), 0), [0])
            loss = -(torch.stack(log_probs) * (returns - returns.mean())).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            assert torch.isfinite(loss)
            log_probs, rewards = [], []
    vecenv.close()
    assert illegal == 0
    assert episodes > 100
    assert any(not torch.equal(a, b) for a, b in zip(before, policy.parameters()))
