"""PufferLib's native vector interface over the Rust batch
(tabletop.pufferlib): one PufferEnv with an agent per game, under the
native backend and inside PufferLib's Serial vectorisation (its buffers),
and a masked policy trains a few hundred steps on it."""

from __future__ import annotations

import numpy as np
import pufferlib
import pufferlib.vector
import torch

import tabletop
from conftest import KUHN
from tabletop.pufferlib import TabletopPufferEnv


def test_native_backend_returns_the_env_and_its_buffers_hold_tensor_and_mask() -> None:
    vecenv = pufferlib.vector.make(
        TabletopPufferEnv, backend=pufferlib.PufferEnv,
        env_kwargs=dict(game="cardwar", num_envs=32, opponent="random", seed=1),
    )
    assert isinstance(vecenv, TabletopPufferEnv) and vecenv.num_agents == 32
    obs, infos = vecenv.reset(seed=1)
    tensors, masks = vecenv.split(obs)
    batch = vecenv.batch
    assert np.array_equal(tensors, batch.observations) and np.array_equal(masks, batch.masks)
    episodes = 0
    for _ in range(200):
        obs, rewards, terminals, truncations, infos = vecenv.step(masks.argmax(axis=1).astype(np.int32))
        tensors, masks = vecenv.split(obs)
        assert np.array_equal(tensors, batch.observations) and masks.any(axis=1).all()
        episodes += sum(i["episodes"] for i in infos)
        assert all(i["illegal_actions"] == 0 for i in infos)
    assert episodes > 0


def test_serial_backend_slices_its_buffers_among_batches() -> None:
    vecenv = pufferlib.vector.make(
        TabletopPufferEnv, backend=pufferlib.vector.Serial, num_envs=2,
        env_kwargs=dict(game=KUHN, num_envs=8, opponent="random"),
    )
    assert vecenv.num_agents == 16
    obs, _ = vecenv.reset(seed=0)
    space = vecenv.single_action_space.n
    for _ in range(20):
        obs, rewards, terminals, truncations, infos = vecenv.step(obs[:, -space:].argmax(axis=1))
        assert set(np.unique(rewards)) <= {0.0, -2.0, -1.0, 1.0, 2.0}
    vecenv.close()


def test_an_unmasked_action_loses_the_game_for_an_unmasked_trainer() -> None:
    env = TabletopPufferEnv(KUHN, 4, seed=0)
    obs, _ = env.reset(seed=0)
    _, masks = env.split(obs)
    _, rewards, terminals, _, infos = env.step((masks == 0).argmax(axis=1))
    assert terminals.all() and (rewards == tabletop.load_game(KUHN).min_utility()).all()
    assert infos[0]["illegal_actions"] == 4


def test_a_masked_policy_trains_a_few_hundred_steps_on_the_native_env() -> None:
    vecenv = pufferlib.vector.make(
        TabletopPufferEnv, backend=pufferlib.PufferEnv,
        env_kwargs=dict(game=KUHN, num_envs=64, opponent="random", seed=0),
    )
    obs, _ = vecenv.reset(seed=0)
    torch.manual_seed(0)
    policy = torch.nn.Sequential(torch.nn.Linear(14, 32), torch.nn.Tanh(), torch.nn.Linear(32, 5))
    before = [p.detach().clone() for p in policy.parameters()]
    optimiser = torch.optim.Adam(policy.parameters(), lr=1e-2)
    log_probs, rewards_seen, illegal = [], [], 0
    for step in range(300):
        tensors, masks = vecenv.split(torch.as_tensor(obs))
        logits = policy(tensors)
        logits = torch.where(masks > 0, logits, torch.finfo(logits.dtype).min)
        dist = torch.distributions.Categorical(logits=logits)
        actions = dist.sample()
        obs, reward, terminals, truncations, infos = vecenv.step(actions.numpy())
        illegal += sum(i["illegal_actions"] for i in infos)
        log_probs.append(dist.log_prob(actions))
        rewards_seen.append(torch.as_tensor(reward.copy()))
        if (step + 1) % 50 == 0:
            returns = torch.flip(torch.cumsum(torch.flip(torch.stack(rewards_seen), [0]), 0), [0])
            loss = -(torch.stack(log_probs) * (returns - returns.mean())).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            assert torch.isfinite(loss)
            log_probs, rewards_seen = [], []
    assert illegal == 0
    assert any(not torch.equal(a, b) for a, b in zip(before, policy.parameters()))
