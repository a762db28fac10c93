"""Learned agents: a trained policy (stable-baselines3 checkpoint) behind the Agent interface.

>>> from zerosum.agents import make_agent
>>> agent = make_agent("ppo(path=runs/ttt/model.zip)")        # doctest: +SKIP
>>> agent.act(game, state)                                      # doctest: +SKIP

The checkpoint format (the ``.zip`` and its sidecar JSON), reading, writing and the
algorithms live in :mod:`zerosum.agents.checkpoints`; its names are re-exported here.

The policy sees exactly what the PettingZoo env shows the player to move: the
``observation`` planes from its side and the ``action_mask``; the agent builds them with
``game.observation(state, player)`` and ``game.legal_mask(state)``. Two input formats
(:data:`OBS_FORMATS`):

* ``flat`` (the training default): ``float32`` vector, the observation planes flattened
  (C order) followed by the action mask, which is what SB3's ``MultiInputPolicy`` would
  build from the dict anyway, without its per-key overhead;
* ``dict``: the PettingZoo dict itself (``{"observation", "action_mask"}``, int8).

Torch and stable-baselines3 are imported only when a checkpoint is loaded or a policy
acts, so ``import zerosum.agents`` stays light; without them the error names
``pip install 'zerosum[train]'``.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.agents.base import Agent, Rng, batch_states, sample_rows
from zerosum.agents.checkpoints import (
    ALGOS, FORMAT, FORMAT_VERSION, Q_ALGOS, TRAIN_EXTRA, CheckpointError, MissingExtraError, algo_class,
    check_compatible, checkpoint_paths, jsonable_variant, load_checkpoint, read_metadata, require_train_extra,
)
from zerosum.games.kit import Action, Game, State

OBS_FORMATS = ("flat", "dict")
"""The observation formats a learned policy can take: ``flat`` (a vector) or ``dict``."""


# ---- the policy's input --------------------------------------------------------------
def policy_input(observation: np.ndarray, mask: np.ndarray, obs_format: str) -> Any:
    """The policy's input from the PettingZoo observation planes and action mask."""
    if obs_format == "flat":
        n = observation.size
        out = np.empty(n + mask.size, dtype=np.float32)
        out[:n] = observation.reshape(-1)
        out[n:] = mask
        return out
    if obs_format == "dict":
        return {"observation": observation, "action_mask": mask}
    raise ValueError(f"obs_format={obs_format!r} is not allowed: one of {OBS_FORMATS}")


# ---- agents --------------------------------------------------------------------------
class PolicyAgent(Agent):
    """Plays an SB3 policy (actor-critic or Q-network) held in memory.

    ``masked`` restricts the choice to legal actions (a policy trained without masks may
    otherwise pick an illegal one); ``deterministic`` takes the best action, otherwise one
    is sampled from the policy's distribution with this agent's rng (Q-networks are always
    greedy).
    """

    name = "policy"
    """The name given, else ``policy``."""

    def __init__(self, policy: Any, *, algo: str, obs_format: str = "flat", deterministic: bool = True,
                 masked: bool = True, rng: Rng = None, name: str | None = None) -> None:
        super().__init__(rng)
        if obs_format not in OBS_FORMATS:
            raise ValueError(f"obs_format={obs_format!r} is not allowed: one of {OBS_FORMATS}")
        self.policy, self.algo, self.obs_format = policy, algo, obs_format
        self.deterministic, self.masked = bool(deterministic), bool(masked)
        if name:
            self.name = name

    def spawn(self, rng: Rng) -> PolicyAgent:
        """A copy sharing the (read-only) network, with its own generator."""
        clone = copy.copy(self)
        clone.reset()
        clone.seed(rng)
        return clone

    def _forward(self, x: Any) -> np.ndarray:
        """The network's logits (or Q-values), float64 ``(n, num_actions)``, for a batch of policy inputs."""
        import torch

        t: dict[str, torch.Tensor] | torch.Tensor
        with torch.no_grad():
            if self.obs_format == "dict":
                t = {k: torch.as_tensor(v) for k, v in x.items()}
            else:
                t = torch.as_tensor(x)
            if self.algo in Q_ALGOS:
                out = self.policy.q_net(t)
            else:
                out = self.policy.get_distribution(t).distribution.logits
        logits: np.ndarray = out.numpy().astype(np.float64)
        return logits

    def scores(self, game: Game, state: State) -> tuple[np.ndarray, np.ndarray]:
        """The policy's logits (or Q-values) for the player to move, and the legal mask."""
        player = game.current_player(state)
        mask = game.legal_mask(state)
        x = policy_input(game.observation(state, player), mask, self.obs_format)
        batch = {k: v[None] for k, v in x.items()} if self.obs_format == "dict" else x[None]
        return self._forward(batch)[0], mask

    def scores_batch(self, game: Game, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`scores` for many states (one a row) in one forward pass: logits float64
        ``(n, num_actions)`` and the legal masks int8 ``(n, num_actions)``. The inputs are built
        by the game's batched kernels (:mod:`zerosum.games.kit.batched`)."""
        from zerosum.games.kit.batched import batched

        s = batch_states(game, states)
        rules = batched(game)
        masks = rules.masks(s)
        planes = rules.observe(s, rules.players(s))
        if self.obs_format == "dict":
            x: Any = {"observation": planes, "action_mask": masks}
        else:
            n = planes[0].size if len(planes) else int(np.prod(game.observation_shape))
            x = np.empty((s.shape[0], n + game.num_actions), np.float32)
            x[:, :n] = planes.reshape(s.shape[0], n)
            x[:, n:] = masks
        return self._forward(x), masks

    def _choose(self, logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One action per row of ``logits`` (masked, greedy or sampled as the agent is set)."""
        if self.masked:
            empty = ~masks.any(axis=1)
            if empty.any():
                raise ValueError(f"no legal action in row {int(np.flatnonzero(empty)[0])}: the game is over")
            logits[masks == 0] = -np.inf
        if self.deterministic or self.algo in Q_ALGOS:
            out: np.ndarray = np.argmax(logits, axis=1).astype(np.int64)
            return out
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        return sample_rows(p, self.rng)

    def act(self, game: Game, state: State) -> Action:
        """The policy's action for the observation of ``state`` (masked to the legal actions when ``masked``)."""
        logits, mask = self.scores(game, state)
        try:
            return int(self._choose(logits[None], mask[None])[0])
        except ValueError:
            raise ValueError("no legal action: the game is over") from None

    def act_batch(self, game: Game, states: np.ndarray) -> np.ndarray:
        """The policy's actions for many states (one a row) from ONE forward pass: the moves
        :meth:`act` chooses row by row (sampling, it draws one uniform number a row, in order)."""
        if len(states) == 0:
            return np.empty(0, np.int64)
        logits, masks = self.scores_batch(game, states)
        return self._choose(logits, masks)


class LearnedAgent(PolicyAgent):
    """A trained checkpoint (``path`` to the .zip, its stem or its run directory) as an agent."""

    def __init__(self, path: str, deterministic: bool = True, masked: bool = True, device: str = "cpu",
                 rng: Rng = None) -> None:
        if not isinstance(path, (str, Path)) or not str(path):
            raise CheckpointError(f"a learned agent needs path=<checkpoint .zip>; got {path!r}")
        self.path = str(path)
        """The checkpoint's path."""
        model, meta = load_checkpoint(path, device=device)
        model.policy.set_training_mode(False)
        super().__init__(model.policy, algo=meta["algo"], obs_format=meta["obs_format"],
                         deterministic=deterministic, masked=masked, rng=rng)
        self.metadata = meta
        """The checkpoint's metadata (game, variant, algorithm, training settings)."""
        self.model = model
        """The loaded stable-baselines3 model."""
        self._checked: set[int] = set()
        self.name = f"{meta['algo']}({Path(self.path).name})"
        """``<algo>(<file name>)``."""

    def prepare(self, game: Game) -> None:
        """Refuse a game, variant or env version the checkpoint was not trained for."""
        check_compatible(self.metadata, game, where=f"checkpoint {self.path}")
        self._checked.add(id(game))

    def act(self, game: Game, state: State) -> Action:
        """The checkpoint policy's move from ``state``."""
        if id(game) not in self._checked:
            self.prepare(game)
        return super().act(game, state)

    def act_batch(self, game: Game, states: np.ndarray) -> np.ndarray:
        """The checkpoint policy's moves from many states, one forward pass (see :meth:`PolicyAgent.act_batch`)."""
        if id(game) not in self._checked:
            self.prepare(game)
        return super().act_batch(game, states)


def learned_agent(path: str | None = None, deterministic: bool = True, masked: bool = True,
                  device: str = "cpu", rng: Rng = None) -> LearnedAgent:
    """A trained checkpoint as an agent: ``ppo(path=runs/ttt/model.zip, deterministic=on)``."""
    if path is None:
        raise CheckpointError("a learned agent needs path=<checkpoint .zip>, e.g. ppo(path=runs/ttt/model.zip)")
    return LearnedAgent(path, deterministic=deterministic, masked=masked, device=device, rng=rng)


__all__ = [
    "ALGOS",
    "FORMAT",
    "FORMAT_VERSION",
    "OBS_FORMATS",
    "Q_ALGOS",
    "TRAIN_EXTRA",
    "CheckpointError",
    "LearnedAgent",
    "MissingExtraError",
    "PolicyAgent",
    "algo_class",
    "check_compatible",
    "checkpoint_paths",
    "jsonable_variant",
    "learned_agent",
    "load_checkpoint",
    "policy_input",
    "read_metadata",
    "require_train_extra",
]
