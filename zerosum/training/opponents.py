"""Who the learner plays: a fixed agent, a curriculum, or a pool of its own frozen snapshots.

An :class:`OpponentSource` picks the opponent of each episode (``sample``) and hears the
result from the learner's side (``record``). The single-agent env builds its own
instance of a spec string, so vectorised envs never share a search agent's table or
generator; objects (self-play snapshots) are shared and reseeded by each env before
every move.

With in-process vectorisation (the default DummyVecEnv) every env holds the same source
object, so a curriculum advances on the results of all of them together.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from zerosum.agents.base import Agent


class OpponentSource:
    """Chooses the opponent for each episode; subclasses keep their own statistics."""

    def sample(self, rng: np.random.Generator) -> str | Agent:
        """The opponent of the next episode: an agent spec string or an Agent."""
        raise NotImplementedError

    def record(self, opponent: str, reward: float, seat: int) -> None:
        """The finished episode's reward for the learner (+1 win, 0 draw, -1 loss)."""

    def describe(self) -> dict[str, Any]:
        """A JSON-able description for checkpoint metadata and logs."""
        raise NotImplementedError


class FixedOpponent(OpponentSource):
    """Always the same opponent (a spec such as ``alphabeta(depth=2)``, or an Agent)."""

    def __init__(self, opponent: str | Agent) -> None:
        self.opponent = opponent
        """The opponent: an agent spec or an Agent."""

    def sample(self, rng: np.random.Generator) -> str | Agent:
        """Always the same opponent."""
        return self.opponent

    def describe(self) -> dict[str, Any]:
        """A JSON-able description for checkpoint metadata and logs."""
        return {"kind": "fixed", "opponent": getattr(self.opponent, "name", self.opponent)}


class MixedOpponent(OpponentSource):
    """A different opponent each episode, drawn with the given weights (uniform by default).

    A learner trained against random alone maximises its expected score, and the best
    reply to a random player takes a small risk of losing (as second player in
    tic-tac-toe it loses 0.42% of games); mixing in a strong opponent teaches it not to.
    """

    def __init__(self, opponents: list[str | Agent], weights: list[float] | None = None) -> None:
        if not opponents:
            raise ValueError("a mixture needs at least one opponent")
        w = np.ones(len(opponents)) if weights is None else np.asarray(weights, dtype=float)
        if w.shape != (len(opponents),) or (w < 0).any() or w.sum() <= 0:
            raise ValueError(f"weights={weights!r} must be {len(opponents)} non-negative numbers, not all 0")
        self.opponents, self.p = list(opponents), w / w.sum()
        self.results: dict[str, deque[float]] = {}
        """The learner's last 500 rewards against each opponent, by name."""

    def sample(self, rng: np.random.Generator) -> str | Agent:
        """An opponent drawn by the mixture's weights."""
        return self.opponents[int(rng.choice(len(self.opponents), p=self.p))]

    def record(self, opponent: str, reward: float, seat: int) -> None:
        """Record a finished episode: the learner's reward (+1 win, 0 draw, -1 loss) against ``opponent`` from
        ``seat``."""
        self.results.setdefault(opponent, deque(maxlen=500)).append(reward)

    def describe(self) -> dict[str, Any]:
        """A JSON-able description for checkpoint metadata and logs."""
        return {"kind": "mixture", "opponents": [getattr(o, "name", o) for o in self.opponents],
                "weights": [round(float(x), 6) for x in self.p]}


PRIORITIES = ("learnable", "hard")
"""The priority rules of a prioritized mixture: ``learnable`` s(1-s), ``hard`` (1-s)^2."""


def game_score(reward: float) -> float:
    """The learner's score for one game from its reward: win 1, draw 1/2, loss 0."""
    return 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0


def _score(results: deque[float] | None) -> float:
    """The learner's mean score over these results (1/2 before the first game)."""
    return float(np.mean(results)) if results else 0.5


def priority_weights(scores: np.ndarray, priority: str) -> np.ndarray:
    """Sampling weights from the learner's scores: ``learnable`` s(1-s), ``hard`` (1-s)^2."""
    out: np.ndarray = scores * (1.0 - scores) if priority == "learnable" else (1.0 - scores) ** 2
    return out


class PrioritizedOpponents(OpponentSource):
    """A mixture whose weights follow the learner's results: a curriculum without thresholds.

    Each opponent's score ``s`` over its last ``window`` games (win 1, draw 1/2, loss 0; 1/2
    before its first game, so every opponent is tried) sets its priority, times its base
    weight: ``"learnable"`` ``s * (1 - s)`` (the games the learner wins about half of: as it
    improves, the mass moves up a ladder of opponents) or ``"hard"`` ``(1 - s) ** 2`` (the
    opponents it loses to, as prioritized fictitious self-play samples its snapshots). A
    share ``floor`` of the games is spread evenly over all opponents, so none is forgotten.
    """

    def __init__(self, opponents: list[str | Agent], weights: list[float] | None = None, *,
                 priority: str = "learnable", window: int = 200, floor: float = 0.1) -> None:
        if priority not in PRIORITIES:
            raise ValueError(f"priority={priority!r} is not allowed: one of {PRIORITIES}")
        if window < 1:
            raise ValueError(f"window={window!r} is not allowed: at least 1 game")
        if not 0.0 <= floor <= 1.0:
            raise ValueError(f"floor={floor!r} is not allowed: a share in [0, 1]")
        self.mixture = MixedOpponent(opponents, weights)
        """The opponents and their base weights."""
        self.names: list[str] = [str(getattr(o, "name", o)) for o in self.mixture.opponents]
        """The opponents' names, in order."""
        self.priority, self.window, self.floor = priority, int(window), float(floor)
        self.results: dict[str, deque[float]] = {name: deque(maxlen=self.window) for name in self.names}
        """The learner's last ``window`` scores against each opponent, by name."""

    def scores(self) -> np.ndarray:
        """Each opponent's recent score for the learner (1/2 before its first game)."""
        return np.array([_score(self.results[n]) for n in self.names])

    def probabilities(self) -> np.ndarray:
        """The chance of each opponent in the next episode."""
        s = self.scores()
        w = self.mixture.p * priority_weights(s, self.priority)
        p = w / w.sum() if w.sum() > 0 else self.mixture.p
        out: np.ndarray = self.floor / len(p) + (1.0 - self.floor) * p
        return out

    def sample(self, rng: np.random.Generator) -> str | Agent:
        """An opponent drawn by base weight times priority (with the ``floor`` share spread evenly)."""
        return self.mixture.opponents[int(rng.choice(len(self.names), p=self.probabilities()))]

    def record(self, opponent: str, reward: float, seat: int) -> None:
        """Record a finished episode: the learner's reward (+1 win, 0 draw, -1 loss) against ``opponent`` from
        ``seat``."""
        if opponent in self.results:
            self.results[opponent].append(game_score(reward))

    def describe(self) -> dict[str, Any]:
        """A JSON-able description for checkpoint metadata and logs."""
        return {"kind": "prioritized", "opponents": self.names, "weights": [round(float(x), 6) for x in self.mixture.p],
                "priority": self.priority, "window": self.window, "floor": self.floor,
                "scores": [round(float(x), 3) for x in self.scores()],
                "probabilities": [round(float(x), 3) for x in self.probabilities()]}


class Curriculum(OpponentSource):
    """Opponents in order of strength; move on when the learner's rate over a window passes a threshold.

    ``metric="win"`` counts wins only; ``metric="score"`` counts a draw as half a win
    (needed against opponents that can hold a draw, such as deep search in tic-tac-toe).
    The window is cleared at each advance. ``stage_log`` lists (episode, stage) changes.
    """

    def __init__(self, stages: list[str], threshold: float = 0.8, window: int = 500, metric: str = "win") -> None:
        if not stages:
            raise ValueError("a curriculum needs at least one opponent")
        if not 0.0 < threshold <= 1.0:
            raise ValueError(f"threshold={threshold!r} is not allowed: a rate in (0, 1]")
        if window < 1:
            raise ValueError(f"window={window!r} is not allowed: at least 1 episode")
        if metric not in ("win", "score"):
            raise ValueError(f"metric={metric!r} is not allowed: 'win' or 'score'")
        self.stages, self.threshold, self.window, self.metric = list(stages), float(threshold), int(window), metric
        self.stage = 0
        """The index of the current opponent in ``stages``."""
        self.episodes = 0
        """Episodes recorded so far."""
        self.results: deque[float] = deque(maxlen=self.window)
        """The learner's results over the last ``window`` episodes of this stage."""
        self.stage_log: list[tuple[int, int]] = [(0, 0)]
        """(episode, stage) each time the stage advanced, from (0, 0)."""

    @property
    def current(self) -> str:
        """The opponent being played now."""
        return self.stages[self.stage]

    def rate(self) -> float:
        """The learner's win (or score) rate over the current window."""
        return float(np.mean(self.results)) if self.results else 0.0

    def sample(self, rng: np.random.Generator) -> str:
        """The current stage's opponent."""
        return self.current

    def record(self, opponent: str, reward: float, seat: int) -> None:
        """Record a finished episode: the learner's reward (+1 win, 0 draw, -1 loss) against ``opponent`` from
        ``seat``. Advances a stage once the rate over ``window`` episodes reaches ``threshold``."""
        self.episodes += 1
        if opponent != self.current:
            return  # an episode begun before the last advance
        self.results.append(game_score(reward) if self.metric == "score" else float(reward > 0))
        if (len(self.results) == self.window and self.rate() >= self.threshold
                and self.stage + 1 < len(self.stages)):
            self.stage += 1
            self.results.clear()
            self.stage_log.append((self.episodes, self.stage))

    def describe(self) -> dict[str, Any]:
        """A JSON-able description for checkpoint metadata and logs."""
        return {"kind": "curriculum", "stages": self.stages, "threshold": self.threshold, "window": self.window,
                "metric": self.metric, "stage": self.stage, "stage_log": self.stage_log}


class SelfPlayPool(OpponentSource):
    """Frozen snapshots of the learner, mixed with fixed opponents.

    Each episode draws a fixed opponent from ``base`` with probability ``base_prob`` (or
    when the pool is still empty), else a snapshot: the latest with probability
    ``latest_prob``, otherwise one from the pool of the last ``pool_size``: uniformly, or
    with ``priority`` by the learner's score against each snapshot over its last 100 games
    (``"hard"``: (1-s)^2, the snapshots it loses to, as prioritized fictitious self-play;
    ``"learnable"``: s(1-s); a snapshot not yet played counts 1/2).
    Snapshots are added by :class:`~zerosum.training.ppo.callbacks.SelfPlayCallback`.
    """

    def __init__(self, base: list[str] | None = None, base_prob: float = 0.2, pool_size: int = 10,
                 latest_prob: float = 0.5, priority: str | None = None) -> None:
        if priority is not None and priority not in PRIORITIES:
            raise ValueError(f"priority={priority!r} is not allowed: one of {PRIORITIES} or None")
        base = list(base or ["random"])
        if not 0.0 <= base_prob <= 1.0 or not 0.0 <= latest_prob <= 1.0:
            raise ValueError(f"base_prob={base_prob!r} and latest_prob={latest_prob!r} must be probabilities in [0, 1]")
        if pool_size < 1:
            raise ValueError(f"pool_size={pool_size!r} is not allowed: at least 1")
        self.base, self.base_prob = base, float(base_prob)
        self.pool_size, self.latest_prob = int(pool_size), float(latest_prob)
        self.pool: deque[Agent] = deque(maxlen=self.pool_size)
        """The frozen snapshots, newest last (at most ``pool_size``)."""
        self.added = 0
        """Snapshots added so far."""
        self.results: dict[str, deque[float]] = {}
        """The learner's rewards by opponent name."""
        self.priority = priority
        """How an older snapshot is drawn: None uniformly, ``"learnable"`` or ``"hard"`` by the learner's score against
        it."""
        self.snapshot_results: dict[str, deque[float]] = {}
        """By snapshot name."""

    def add(self, agent: Agent) -> None:
        """Freeze another snapshot into the pool (the oldest leaves when it is full)."""
        self.added += 1
        self.pool.append(agent)

    def sample(self, rng: np.random.Generator) -> str | Agent:
        """A fixed opponent with chance ``base_prob`` (always while the pool is empty), else the newest snapshot with
        chance ``latest_prob``, else an older one by ``priority``."""
        if not self.pool or rng.random() < self.base_prob:
            return self.base[int(rng.integers(len(self.base)))]
        if rng.random() < self.latest_prob:
            return self.pool[-1]
        if self.priority is None:
            return self.pool[int(rng.integers(len(self.pool)))]
        return self.pool[int(rng.choice(len(self.pool), p=self.snapshot_probabilities()))]

    def snapshot_probabilities(self) -> np.ndarray:
        """The chance of each snapshot in the pool when one is drawn by priority (oldest first)."""
        scores = np.array([_score(self.snapshot_results.get(a.name)) for a in self.pool])
        w = priority_weights(scores, self.priority or "hard") + 1e-3  # none ruled out
        out: np.ndarray = w / w.sum()
        return out

    def record(self, opponent: str, reward: float, seat: int) -> None:
        """Record a finished episode: the learner's reward (+1 win, 0 draw, -1 loss) against ``opponent`` from
        ``seat``."""
        kind = opponent if opponent in self.base else "snapshot"
        self.results.setdefault(kind, deque(maxlen=500)).append(1.0 if reward > 0 else 0.0)
        if kind == "snapshot":
            self.snapshot_results.setdefault(opponent, deque(maxlen=100)).append(game_score(reward))

    def describe(self) -> dict[str, Any]:
        """A JSON-able description for checkpoint metadata and logs."""
        return {"kind": "self_play", "base": self.base, "base_prob": self.base_prob, "pool_size": self.pool_size,
                "latest_prob": self.latest_prob, "snapshots_added": self.added, "priority": self.priority}


def as_source(opponent: str | Agent | OpponentSource) -> OpponentSource:
    """An OpponentSource from a source, an Agent or a spec string."""
    if isinstance(opponent, OpponentSource):
        return opponent
    if isinstance(opponent, (str, Agent)):
        return FixedOpponent(opponent)
    raise TypeError(f"an opponent is an agent spec string, an Agent or an OpponentSource; got {opponent!r}")


def split_specs(text: str) -> list[str]:
    """Split ``"random, alphabeta(depth=1, tt=on)"`` at the commas (or ';') outside parentheses and quotes."""
    from zerosum.values import split_top_level

    return split_top_level(text)


__all__ = ["PRIORITIES", "Curriculum", "FixedOpponent", "MixedOpponent", "OpponentSource", "PrioritizedOpponents",
           "SelfPlayPool", "as_source", "priority_weights", "split_specs"]
