"""The vector env as a stable-baselines3 ``VecEnv`` (``make_vec(..., api="sb3")``).

>>> from zerosum.envs import make_vec
>>> venv = make_vec("tictactoe_v0", num_envs=16, api="sb3", seed=0)   # doctest: +SKIP
>>> from sb3_contrib import MaskablePPO                                # doctest: +SKIP
>>> MaskablePPO("MlpPolicy", venv, n_steps=64).learn(2_048)            # doctest: +SKIP

SB3 resets a finished env in the same step: a lane that ends returns the next episode's
first observation, ``dones[i]`` True, the final observation in
``infos[i]["terminal_observation"]`` and ``infos[i]["outcome"]`` ("win", "draw", "loss" or
"illegal"), ``infos[i]["seat"]`` and ``infos[i]["opponent"]`` (the finished episode's).
sb3-contrib's MaskablePPO asks ``has_attr("action_masks")`` and reads
``np.stack(env_method("action_masks"))``: both are answered for all lanes in one call, so it
uses this env as it is. ``set_opponent_weights`` moves the mixture's weights during training
(:mod:`zerosum.training.vector_sources` does it from the infos). Everything else (seats,
opponents, random openings, symmetries, illegal actions) is as in :mod:`zerosum.envs.vector`.
The env needs stable-baselines3 (the ``train`` extra), imported when the first one is made,
not when this module is (:mod:`zerosum._lazybase`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np

from zerosum._lazybase import lazy_base
from zerosum.envs.lanes import Lanes, single_spaces
from zerosum.envs.vector_opponents import VectorEnvError

if TYPE_CHECKING:
    from stable_baselines3.common.vec_env import VecEnv
else:
    VecEnv = lazy_base("stable_baselines3.common.vec_env", "VecEnv")

_WORDS = {1: "win", 2: "draw", 3: "loss", 4: "illegal"}


class ZerosumSB3VecEnv(VecEnv):
    """A stable-baselines3 ``VecEnv`` over the lanes of one zerosum game, the opponent inside."""

    def __init__(self, lanes: Lanes) -> None:
        if lanes.mode != "same_step":
            raise VectorEnvError("an SB3 VecEnv resets finished lanes in the same step: build its lanes with "
                                 "autoreset_mode='same_step'")
        self.lanes = lanes
        """The lanes' arrays and compiled calls."""
        self.game = lanes.game
        """The game every lane plays."""
        self.render_mode = None
        """None: the lanes are not rendered (SB3's ``VecEnv.__init__`` reads it through ``get_attr``)."""
        super().__init__(lanes.n, *single_spaces(lanes))  # the single spaces, built in one place
        self._actions: np.ndarray | None = None
        self._seed: int | None = None
        self.render_mode = None

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seed the next ``reset()`` (all lanes from one generator)."""
        self._seed = None if seed is None else int(seed)
        return [self._seed] * self.num_envs

    def reset(self) -> Any:
        """Start a game in every lane; the observations of all lanes."""
        self.lanes.reset(self._seed)
        self._seed = None
        return self.lanes.observations()

    def step_async(self, actions: np.ndarray) -> None:
        """Keep the actions for step_wait (the step runs there, in this process)."""
        self._actions = actions

    def step_wait(self) -> Any:
        """One step of every lane; finished lanes restart at once (same-step reset)."""
        lanes = self.lanes
        lanes.step(self._actions)
        dones = lanes.ended.copy()
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            for i in np.flatnonzero(dones).tolist():
                code = int(lanes.outcome[i])
                info = infos[i]
                info["terminal_observation"] = lanes.final_observation(i)
                info["outcome"] = _WORDS[code]
                info["TimeLimit.truncated"] = False
                info["seat"] = int(lanes.episode_seat[i])
                info["opponent"] = lanes.opponents.names[int(lanes.episode_comp[i])]
                if code == 4:
                    info["illegal_action"] = int(lanes.last_actions[i])
        return lanes.observations(), lanes.rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        """Nothing to release: the lanes live in this process."""

    def action_masks(self) -> np.ndarray:
        """Every lane's legal actions (bool, (num_envs, num_actions))."""
        return self.lanes.masks.astype(bool)

    @property
    def opponent_names(self) -> list[str]:
        """The mixture's components in order (``infos[i]["opponent"]`` names one)."""
        return list(self.lanes.opponents.names)

    def set_opponent_weights(self, weights: Sequence[float]) -> None:
        """New mixture weights, one per component of ``opponent_names`` (non-negative, not all 0):
        the episodes that start from now on draw their opponent by them."""
        self.lanes.set_opponent_weights(weights)

    # ---- the per-env calls SB3 makes, answered for all lanes at once ---------------------------
    def has_attr(self, attr_name: str) -> bool:
        """True for ``action_masks`` (and this env's own attributes)."""
        return hasattr(self, attr_name)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The attribute (the same for every lane) once per lane asked for."""
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set an attribute of the env (the lanes share it)."""
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> Any:
        """``action_masks`` for the lanes asked for, as one (lanes, num_actions) array (what
        ``np.stack`` of the per-env answers would give); any other method of this env once."""
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return masks if len(idx) == self.num_envs else masks[idx]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in idx]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: Any = None) -> list[bool]:
        """No lane is a wrapped gymnasium env."""
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        """No images: the lanes do not render."""
        return [None for _ in range(self.num_envs)]


__all__ = ["ZerosumSB3VecEnv"]
