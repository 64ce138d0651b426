"""RLlib takes the PettingZoo environment through its own wrapper, and
trains on it with its own action-masking module."""

from __future__ import annotations

import numpy as np
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

import tabletop
from tabletop.pettingzoo import env


def test_rllibs_pettingzoo_wrapper_plays_every_game_to_the_end(spec: str) -> None:
    game = tabletop.load_game(spec)
    rllib_env = PettingZooEnv(env(spec))
    rng = np.random.default_rng(0)
    for episode in range(3):
        obs, _ = rllib_env.reset(seed=episode)
        totals = {"player_0": 0.0, "player_1": 0.0}
        for _ in range(100_000):
            actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
            obs, rewards, terminated, truncated, _ = rllib_env.step(actions)
            for agent, r in rewards.items():
                totals[agent] += r
            if terminated["__all__"] or truncated["__all__"]:
                break
        assert terminated["__all__"]
        assert sum(totals.values()) == game.utility_sum()


def test_rllib_multi_agent_ppo_trains_with_its_action_masking_module_and_env_check_on() -> None:
    """Both seats of a turn-based game learn by PPO with RLlib's own
    action-masking module; RLlib's environment check stays on (it samples
    an unmasked action, which loses the game rather than raising)."""
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    register_env(
        "tabletop_rllib_test",
        lambda cfg: PettingZooEnv(env(cfg["game"], observation_key="observations")),
    )
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        spec = RLModuleSpec(
            module_class=ActionMaskingTorchRLModule,
            model_config={"head_fcnet_hiddens": [32], "fcnet_hiddens": [32]},
        )
        config = (
            PPOConfig()
            .environment("tabletop_rllib_test", env_config={"game": "kuhn_poker"})
            .env_runners(num_env_runners=0)
            .multi_agent(
                policies={"p0", "p1"},
                policy_mapping_fn=lambda aid, *a, **k: "p0" if aid == "player_0" else "p1",
            )
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"p0": spec, "p1": spec}))
            .training(train_batch_size_per_learner=128, minibatch_size=64, num_epochs=1)
        )
        assert not config.disable_env_checking
        algo = config.build_algo()
        try:
            for _ in range(3):
                result = algo.train()
        finally:
            algo.stop()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 300
    finally:
        ray.shutdown()


def test_an_unmasked_sampled_action_as_rllibs_env_check_plays_ends_the_game() -> None:
    """RLlib's check steps an action sampled from the whole space; the
    environment loses the game for the agent that played it (PettingZoo's
    convention), it does not raise."""
    rllib_env = PettingZooEnv(env("kuhn_poker", observation_key="observations"))
    for seed in range(20):
        obs, _ = rllib_env.reset(seed=seed)
        (agent,) = obs
        action = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
        _, rewards, terminated, _, _ = rllib_env.step({agent: action})
        assert terminated["__all__"]
        game = tabletop.load_game("kuhn_poker")
        assert rewards[agent] == game.min_utility()
        sampled = {agent: rllib_env.get_action_space(agent).sample() for agent in rllib_env.reset(seed=seed)[0]}
        rllib_env.step(sampled)


def test_rllib_ppo_steps_the_rust_batch_through_gymnasiums_vector_entry_point() -> None:
    """RLlib's new stack makes its environments with ``gymnasium.make_vec``;
    with ``gym_env_vectorize_mode="vector_entry_point"`` that is the Rust
    batch (one object for every row of the EnvRunner), and PPO with the
    action-masking module trains on it against a built-in bot."""
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        config = (
            PPOConfig()
            # "module:id" makes Gymnasium import tabletop (which registers
            # the ids) in whichever process builds the environment.
            .environment(
                "tabletop:tabletop/kuhn_poker_classic-v0",
                env_config={
                    "opponent": "random",
                    "mask_in_observation": True,
                    "observation_key": "observations",
                },
            )
            .env_runners(
                num_env_runners=0,
                num_envs_per_env_runner=32,
                gym_env_vectorize_mode="vector_entry_point",
            )
            .rl_module(
                rl_module_spec=RLModuleSpec(
                    module_class=ActionMaskingTorchRLModule,
                    model_config={"head_fcnet_hiddens": [32], "fcnet_hiddens": [32]},
                )
            )
            .training(train_batch_size_per_learner=320, minibatch_size=160, num_epochs=1)
        )
        algo = config.build_algo()
        try:
            from tabletop.gymnasium_vector import TabletopVectorEnv

            assert isinstance(algo.env_runner.env.unwrapped, TabletopVectorEnv)
            result = algo.train()
        finally:
            algo.stop()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 300
    finally:
        ray.shutdown()
