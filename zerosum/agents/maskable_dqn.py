"""DQN with action masks: Q-values of illegal actions are never chosen, explored or backed up.

SB3's DQN knows no masks. Here the mask is read from the observation itself (the last
``num_actions`` entries of the ``flat`` format, or the dict's ``action_mask``), so no
extra plumbing is needed:

* the Q-network outputs ``ILLEGAL`` (a large negative number) for every illegal action, so
  greedy actions are legal and the target ``max_a' Q(s', a')`` runs over legal replies
  only (at a terminal observation every action is masked and ``1 - done`` zeroes it);
* epsilon-greedy exploration draws uniformly among the legal actions.

Used when training or loading a ``maskable_dqn`` checkpoint (it needs torch and stable-baselines3,
the ``train`` extra, imported when a class here is first used, not when this module is);
:data:`zerosum.agents.checkpoints.ALGORITHMS` names it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np
from gymnasium import spaces

from zerosum._lazybase import lazy_base

if TYPE_CHECKING:
    import torch as th
    from stable_baselines3 import DQN
    from stable_baselines3.dqn.policies import DQNPolicy, MultiInputPolicy, QNetwork
else:
    DQN = lazy_base("stable_baselines3", "DQN")
    DQNPolicy = lazy_base("stable_baselines3.dqn.policies", "DQNPolicy")
    MultiInputPolicy = lazy_base("stable_baselines3.dqn.policies", "MultiInputPolicy")
    QNetwork = lazy_base("stable_baselines3.dqn.policies", "QNetwork")

ILLEGAL = -1e8
"""The Q-value given to illegal actions, so a greedy choice never picks one."""


def _mask_of(obs: Any, n: int) -> Any:
    return obs["action_mask"] if isinstance(obs, dict) else obs[..., -n:]


class MaskedQNetwork(QNetwork):
    """A Q-network whose illegal actions (read from the observation) score ILLEGAL."""

    def forward(self, obs: Any) -> th.Tensor:
        """The Q-values of ``obs``, ILLEGAL for every action its mask forbids."""
        import torch as th

        q = super().forward(obs)
        mask = _mask_of(obs, q.shape[-1]) > 0.5
        return th.where(mask, q, th.full_like(q, ILLEGAL))


class MaskedDQNPolicy(DQNPolicy):
    """DQNPolicy with masked Q-networks (flat Box observations)."""

    def make_q_net(self) -> QNetwork:
        """A Q-network whose illegal actions score ILLEGAL."""
        net_args = self._update_features_extractor(self.net_args, features_extractor=None)
        return MaskedQNetwork(**net_args).to(self.device)


class MaskedMultiInputDQNPolicy(MultiInputPolicy):
    """DQN's MultiInputPolicy with masked Q-networks (dict observations)."""

    def make_q_net(self) -> QNetwork:
        """A Q-network whose illegal actions score ILLEGAL."""
        net_args = self._update_features_extractor(self.net_args, features_extractor=None)
        return MaskedQNetwork(**net_args).to(self.device)


class MaskableDQN(DQN):
    """DQN that only ever plays, explores and backs up legal actions."""

    policy_aliases = {"MlpPolicy": MaskedDQNPolicy, "MultiInputPolicy": MaskedMultiInputDQNPolicy}
    """The masked policies behind SB3's ``MlpPolicy`` and ``MultiInputPolicy`` names."""

    def _random_legal(self, observation: Any) -> np.ndarray:
        mask = np.asarray(_mask_of(observation, int(cast(spaces.Discrete, self.action_space).n))) > 0.5
        rng = self.action_space.np_random
        if mask.ndim == 1:
            return np.array(rng.choice(np.flatnonzero(mask)))
        return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])

    def predict(self, observation: Any, state: Any = None, episode_start: Any = None,
                deterministic: bool = False) -> tuple[np.ndarray, Any]:
        """The action for ``observation``: greedy over legal actions, or (exploring) a uniformly random legal action."""
        if not deterministic and np.random.rand() < self.exploration_rate:
            return self._random_legal(observation), state
        return self.policy.predict(observation, state, episode_start, deterministic)

    def _sample_action(self, learning_starts: int, action_noise: Any = None,
                       n_envs: int = 1) -> tuple[np.ndarray, np.ndarray]:
        if self.num_timesteps < learning_starts:  # warm-up: uniform over the legal actions
            action = self._random_legal(self._last_obs)
        else:
            action, _ = self.predict(self._last_obs, deterministic=False)
        return action, action


__all__ = ["ILLEGAL", "MaskableDQN", "MaskedDQNPolicy", "MaskedMultiInputDQNPolicy", "MaskedQNetwork"]
