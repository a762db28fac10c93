"""The Agent interface: every player, from random to learned, acts on (game, state)."""

from __future__ import annotations

import abc
import copy
from typing import Any

import numpy as np

from zerosum.games.kit import Action, Game, State

Rng = np.random.Generator | int | None
"""What an agent's ``rng`` takes: a numpy Generator, a seed, or None (fresh entropy)."""


def as_generator(rng: Rng) -> np.random.Generator:
    """A numpy Generator from a Generator, a seed, or None (fresh entropy)."""
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(rng)


class Agent(abc.ABC):
    """A player. Agents never read global random state: they use the ``rng`` they were given.

    ``last_stats`` holds the statistics of the last decision (a search result, or None).
    """

    name: str = "agent"
    """The name shown in tournament tables and reports."""

    def __init__(self, rng: Rng = None) -> None:
        self.rng = as_generator(rng)
        """The agent's own random generator (agents never read global random state)."""
        self.last_stats: Any = None
        """The statistics of the last decision (a search's SearchStats), or None."""

    def reset(self) -> None:
        """Forget anything kept from the previous game (called before each game)."""
        self.last_stats = None

    def prepare(self, game: Game) -> None:  # noqa: B027 - an optional hook: most agents need nothing
        """Check that the agent can play ``game`` (and build what it needs) before a game starts."""

    def seed(self, rng: Rng) -> None:
        """Replace the random generator (tournaments give each game its own)."""
        self.rng = as_generator(rng)

    def spawn(self, rng: Rng) -> Agent:
        """A fresh copy for one game: nothing kept from earlier games, its own generator.

        The default deep-copies the agent; agents with large read-only parts (a network)
        or per-game caches (a transposition table) override it to copy what matters.
        """
        clone = copy.deepcopy(self)
        clone.reset()
        clone.seed(rng)
        return clone

    @abc.abstractmethod
    def act(self, game: Game, state: State) -> Action:
        """The action to play in ``state`` (the game must not be over)."""

    def act_batch(self, game: Game, states: np.ndarray) -> np.ndarray:
        """The actions to play in many positions at once: ``states`` is an int64 array, one
        state a row (none of them finished); the answer is int64, one action a row.

        The vector envs (:func:`zerosum.envs.make_vec`) ask a Python opponent for all the lanes
        waiting on it with one call per step. This default calls :meth:`act` row by row, in
        order; an agent with a network overrides it to evaluate every row in one forward pass
        (:class:`~zerosum.agents.learned.PolicyAgent`, ``alphazero`` with ``sims=0``), choosing
        the moves ``act`` would choose row by row (and, when it samples, drawing from its
        generator as ``act`` would, in row order).
        """
        return np.array([self.act(game, s) for s in batch_states(game, states)], dtype=np.int64)


def batch_states(game: Game, states: np.ndarray) -> np.ndarray:
    """``states`` as a C-contiguous int64 array of shape ``(n, state_size)``, or a ValueError
    saying what :meth:`Agent.act_batch` takes."""
    s = np.asarray(states)
    if s.ndim != 2 or s.shape[1] != game.state_size or s.dtype.kind not in "iu":
        raise ValueError(f"act_batch takes an int array of shape (n, {game.state_size}), one state a row; "
                         f"got {s.dtype} {s.shape}")
    return np.ascontiguousarray(s, dtype=np.int64)


def sample_rows(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One index per row of the probabilities ``p`` (rows summing to 1), drawn as
    ``rng.choice(p.shape[1], p=row)`` would draw them row by row: one uniform number a row, in order."""
    cdf = p.cumsum(axis=1)
    cdf /= cdf[:, -1:]
    u = rng.random(int(p.shape[0]))
    out: np.ndarray = (cdf <= u[:, None]).sum(axis=1).astype(np.int64)
    return out


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    name = "random"
    """Shown as ``random``."""

    def act(self, game: Game, state: State) -> Action:
        """A uniformly random legal move, drawn with the agent's generator."""
        legal = game.legal_actions(state)
        return int(legal[self.rng.integers(len(legal))])
