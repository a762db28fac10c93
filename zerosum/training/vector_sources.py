"""Training's opponent sources over the compiled vector env (``TrainConfig(vec="zerosum")``).

A :class:`~zerosum.training.single_agent.SingleAgentEnv` asks its
:class:`~zerosum.training.opponents.OpponentSource` for each episode's opponent and tells it
each result. The vector env (:func:`zerosum.envs.make_vec`) draws every lane's opponent
inside its compiled step from a weighted mixture instead, so a source reaches it as:

* its components and starting weights (:func:`source_mixture`): a fixed opponent is a
  mixture of one; a :class:`~zerosum.training.opponents.MixedOpponent` its opponents and
  weights (the exploiter included, an Agent object that plays through Python);
  :class:`~zerosum.training.opponents.PrioritizedOpponents` its opponents, weighted by its
  current probabilities; a :class:`~zerosum.training.opponents.Curriculum` its stages, all the
  weight on the current one;
* :class:`SourceVecEnv`, a VecEnv wrapper that, after every step in which lanes finished,
  tells the source each finished episode (``infos[i]["opponent"]``, the reward, the seat),
  exactly as the single-agent env's ``record`` calls, and hands the source's new weights to
  the env (``set_opponent_weights``): the priorities follow the learner's scores and the
  curriculum advances; episodes that start from the next step on draw by them.

A self-play pool adds opponents during training and has no fixed components: it stays on
``vec="dummy"`` (TrainConfig says so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from zerosum._lazybase import lazy_base
from zerosum.agents.base import Agent
from zerosum.training.opponents import (
    Curriculum, FixedOpponent, MixedOpponent, OpponentSource, PrioritizedOpponents,
)

if TYPE_CHECKING:
    from stable_baselines3.common.vec_env import VecEnvWrapper
else:
    VecEnvWrapper = lazy_base("stable_baselines3.common.vec_env", "VecEnvWrapper")


def source_weights(source: OpponentSource) -> np.ndarray | None:
    """The source's weights over its components now, where they change during training
    (priorities, a curriculum); None for a fixed opponent or a fixed mixture."""
    if isinstance(source, PrioritizedOpponents):
        return source.probabilities()
    if isinstance(source, Curriculum):
        w = np.zeros(len(source.stages))
        w[source.stage] = 1.0
        return w
    return None


def source_mixture(source: OpponentSource) -> tuple[list[str | Agent], list[float]]:
    """The vector env's opponent mixture for ``source``: its components and starting weights
    (ValueError for a source the vector env cannot draw from, a self-play pool)."""
    if isinstance(source, FixedOpponent):
        return [source.opponent], [1.0]
    if isinstance(source, MixedOpponent):
        return list(source.opponents), [float(x) for x in source.p]
    if isinstance(source, PrioritizedOpponents):
        return list(source.mixture.opponents), [float(x) for x in source.probabilities()]
    if isinstance(source, Curriculum):
        return list(source.stages), [float(x) for x in source_weights(source)]  # type: ignore[union-attr]
    raise ValueError(f"the vector env (vec='zerosum') cannot draw opponents from a {type(source).__name__}: "
                     "a fixed opponent, a mixture, prioritized opponents or a curriculum is allowed; use vec='dummy'")


class SourceVecEnv(VecEnvWrapper):
    """Tells ``source`` every finished episode of the vector env it wraps and moves the env's
    opponent weights to the source's (see the module)."""

    def __init__(self, venv: Any, source: OpponentSource) -> None:
        super().__init__(venv)
        self.source = source
        """The opponent source told each finished episode."""
        names = [str(getattr(o, "name", o)) for o in source_mixture(source)[0]]
        if list(venv.opponent_names) != names:
            raise ValueError(f"the vector env's opponents {venv.opponent_names} are not the source's {names}")
        self.episodes = 0
        """Finished episodes told to the source so far."""

    def reset(self) -> Any:
        """Reset the wrapped env."""
        return self.venv.reset()

    def step_wait(self) -> Any:
        """The wrapped env's step; each finished episode recorded, then the new weights handed over."""
        obs, rewards, dones, infos = self.venv.step_wait()
        if dones.any():
            for i in np.flatnonzero(dones).tolist():
                info = infos[i]
                if "outcome" in info:
                    self.source.record(info["opponent"], float(rewards[i]), int(info["seat"]))
                    self.episodes += 1
            weights = source_weights(self.source)
            if weights is not None:
                self.venv.set_opponent_weights(weights)  # type: ignore[attr-defined]
        return obs, rewards, dones, infos


__all__ = ["SourceVecEnv", "source_mixture", "source_weights"]
