"""A graded opponent: another agent that blunders into a random legal move now and then.

>>> from zerosum.agents import make_agent
>>> make_agent("noisy(base=alphabeta(depth=1), epsilon=0.5)").name
'noisy(base=alphabeta(depth=1), epsilon=0.5)'
"""

from __future__ import annotations

from zerosum.agents.base import Agent, Rng
from zerosum.agents.wrapper import WrapperAgent
from zerosum.games.kit import Action, Game, State


class NoisyAgent(WrapperAgent):
    """Another agent that plays a uniformly random legal move instead with probability ``epsilon``.

    A graded opponent for curricula: ``noisy(base="alphabeta(depth=1)", epsilon=0.5)``
    blunders half the time, so a learner sees wins and the patterns that punish blunders
    before it faces the search alone. The agent spec ``noisy`` builds it.
    """

    def __init__(self, base: str | Agent = "random", epsilon: float = 0.5, rng: Rng = None) -> None:
        if not isinstance(epsilon, (int, float)) or not 0.0 <= float(epsilon) <= 1.0:
            raise ValueError(f"epsilon={epsilon!r} is not allowed: a probability in [0, 1]")
        super().__init__(base, rng)
        self.epsilon = float(epsilon)
        """The chance of a uniformly random legal move instead of the inner agent's."""
        self.name = f"noisy(base={self.inner.name}, epsilon={self.epsilon:g})"
        """``noisy(base=..., epsilon=...)``."""

    def act(self, game: Game, state: State) -> Action:
        """With chance ``epsilon`` a random legal move, else the inner agent's move."""
        if self.rng.random() < self.epsilon:
            legal = game.legal_actions(state)
            return int(legal[self.rng.integers(len(legal))])
        return self.inner.act(game, state)
