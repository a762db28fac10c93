"""Anything that can choose a move, as an Agent: a function, an SB3 model, a checkpoint, a spec.

>>> from zerosum.agents.policies import as_policy
>>> from zerosum.games import make_game
>>> spec, agent = as_policy(lambda obs: int(obs["action_mask"].argmax()), make_game("tictactoe"))
>>> spec, agent.name
(None, 'lambda')

:func:`as_policy` takes an :class:`~zerosum.agents.Agent`, an agent spec string
(``"alphabeta(depth=3)"``), a checkpoint path (``"runs/ttt/model.zip"``, ``Path``), a
stable-baselines3 / sb3-contrib model object, or any callable ``(observation dict) ->
action`` that receives exactly what the PettingZoo env shows the player to move:
``{"observation": planes from its side, "action_mask": int8 legal-action mask}``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from zerosum.agents.base import Agent
from zerosum.agents.checkpoints import algo_of, checkpoint_paths, read_metadata
from zerosum.games.kit import Action, Game, State, ZerosumError

POLICY_KINDS = ("an Agent", "an agent spec string such as 'alphabeta(depth=3)'", "a checkpoint path (.zip)",
                "a stable-baselines3 / sb3-contrib model", "a callable (observation dict) -> action")
"""What ``zerosum.evaluate`` accepts as a policy, in words (for error messages)."""


class PolicyError(ZerosumError, ValueError):
    """Something that cannot be made into an agent for this game; the message says why."""


class CallableAgent(Agent):
    """A plain function of the PettingZoo observation dict as an agent."""

    def __init__(self, fn: Callable[[dict[str, np.ndarray]], Action], name: str | None = None,
                 rng: np.random.Generator | int | None = None) -> None:
        super().__init__(rng)
        self.fn = fn
        """The callable: observation dict -> action."""
        self.name = name or getattr(fn, "__name__", None) or type(fn).__name__
        """The name given, else the callable's ``__name__``."""
        if self.name == "<lambda>":
            self.name = "lambda"

    def act(self, game: Game, state: State) -> Action:
        """The callable's action for the observation of ``state`` (an illegal one is the callable's fault)."""
        player = game.current_player(state)
        return self.fn({"observation": game.observation(state, player), "action_mask": game.legal_mask(state)})


def is_sb3_model(obj: Any) -> bool:
    """True for a stable-baselines3 / sb3-contrib model object (it has a policy, predict and spaces)."""
    return hasattr(obj, "policy") and hasattr(obj, "predict") and hasattr(obj, "observation_space")


def model_agent(model: Any, game: Game, *, masked: bool | None = None, deterministic: bool = True,
                name: str | None = None) -> Agent:
    """A stable-baselines3 / sb3-contrib model object as an agent for ``game``.

    Its input format (flat vector or dict) is read from the model's observation space;
    ``masked=None`` passes the action mask when the model was trained with masks
    (MaskablePPO, MaskableDQN) and lets an unmasked model choose freely otherwise.
    """
    from gymnasium import spaces

    from zerosum.agents.learned import PolicyAgent

    space = model.observation_space
    planes, n = int(np.prod(game.observation_shape)), game.num_actions
    if isinstance(space, spaces.Dict):
        obs_format = "dict"
        shape = tuple(cast("tuple[int, ...]", space["observation"].shape)) if "observation" in space.spaces else None
        ok = shape == tuple(game.observation_shape)
    else:
        obs_format = "flat"
        shape = tuple(getattr(space, "shape", ()) or ())
        ok = shape == (planes + n,)
    if not ok:
        raise PolicyError(f"{type(model).__name__}'s observation space {space} does not fit {game.name} "
                          f"{dict(game.variant)}: expected a Dict with observation {tuple(game.observation_shape)} "
                          f"or a flat Box of {planes + n} (planes then mask); "
                          f"was it trained on another game or variant?")
    cls = type(model).__name__
    if masked is None:
        masked = cls.startswith("Maskable")
    model.policy.set_training_mode(False)
    return PolicyAgent(model.policy, algo=algo_of(model), obs_format=obs_format, deterministic=deterministic,
                       masked=masked, name=name or cls)


def checkpoint_agent(path: str | os.PathLike[str], *, masked: bool | None = None,
                     deterministic: bool = True) -> Agent:
    """A checkpoint as an agent; ``masked=None`` masks when it was trained with masks."""
    from zerosum.agents.learned import LearnedAgent

    meta = read_metadata(path)
    if masked is None:
        masked = str(meta["algo"]).startswith("maskable")
    return LearnedAgent(str(path), deterministic=deterministic, masked=masked)


def _looks_like_checkpoint(text: str) -> bool:
    return text.endswith((".zip", ".json")) or "/" in text or os.sep in text or checkpoint_paths(text)[0].is_file()


def as_policy(policy: Any, game: Game, *, masked: bool | None = None, deterministic: bool = True,
              name: str | None = None) -> tuple[str | None, Agent]:
    """(spec or None, agent) for a policy of any kind (see the module docstring), prepared for ``game``.

    A spec string is kept as the spec (worker processes build the agent from it);
    everything else becomes an agent object here, so a bad policy fails before any game.
    ``masked`` and ``deterministic`` apply to models and checkpoints.
    """
    from zerosum.agents.spec import AGENTS, make_agent, parse_spec

    if isinstance(policy, Agent):
        agent = policy
    elif isinstance(policy, os.PathLike):
        agent = checkpoint_agent(policy, masked=masked, deterministic=deterministic)
    elif isinstance(policy, str):
        try:
            spec_name, _ = parse_spec(policy)
        except ValueError:
            spec_name = None
        if spec_name in AGENTS:
            agent = make_agent(policy, rng=0)
            agent.prepare(game)
            return policy, agent
        if not _looks_like_checkpoint(policy):
            raise PolicyError(f"policy {policy!r} is neither an agent spec (agents: {', '.join(sorted(AGENTS))}) "
                              f"nor a checkpoint path (no file {policy}.zip)")
        agent = checkpoint_agent(policy, masked=masked, deterministic=deterministic)
    elif is_sb3_model(policy):
        agent = model_agent(policy, game, masked=masked, deterministic=deterministic)
    elif callable(policy):
        agent = CallableAgent(policy)
    else:
        raise PolicyError(f"cannot evaluate {policy!r} of type {type(policy).__name__}: a policy is "
                          + ", ".join(POLICY_KINDS[:-1]) + f" or {POLICY_KINDS[-1]}")
    if name:
        agent.name = name
    agent.prepare(game)
    return None, agent


__all__ = [
    "POLICY_KINDS",
    "CallableAgent",
    "PolicyError",
    "as_policy",
    "checkpoint_agent",
    "is_sb3_model",
    "model_agent",
]
