"""A graded opponent: another agent that blunders into a random legal move now and then.

>>> from zerosum.agents import make_agent
>>> make_agent("noisy(base=alphabeta(depth=1), epsilon=0.5)").name
'noisy(base=alphabeta(depth=1), epsilon=0.5)'
"""

from __future__ import annotations

import numpy as np

from zerosum.agents.base import Agent
from zerosum.games.kit import Action, Game, State


class NoisyAgent(Agent):
    """Another agent that plays a uniformly random legal move instead with probability ``epsilon``.

    A graded opponent for curricula: ``noisy(base="alphabeta(depth=1)", epsilon=0.5)``
    blunders half the time, so a learner sees wins and the patterns that punish blunders
    before it faces the search alone. The agent spec ``noisy`` builds it.
    """

    def __init__(self, base: str | Agent = "random", epsilon: float = 0.5,
                 rng: np.random.Generator | int | None = None) -> None:
        from zerosum.agents.spec import make_agent  # spec.py registers this class

        super().__init__(rng)
        if not isinstance(epsilon, (int, float)) or not 0.0 <= float(epsilon) <= 1.0:
            raise ValueError(f"epsilon={epsilon!r} is not allowed: a probability in [0, 1]")
        self.base = make_agent(base, rng=self.rng)
        self.epsilon = float(epsilon)
        self.name = f"noisy(base={self.base.name}, epsilon={self.epsilon:g})"

    def seed(self, rng: np.random.Generator | int | None) -> None:
        """Replace the generator of this agent and of its base agent (they share it)."""
        super().seed(rng)
        self.base.seed(self.rng)

    def reset(self) -> None:
        """Forget the last game, here and in the base agent."""
        super().reset()
        self.base.reset()

    def prepare(self, game: Game) -> None:
        """Check that the base agent can play ``game``."""
        self.base.prepare(game)

    def act(self, game: Game, state: State) -> Action:
        if self.rng.random() < self.epsilon:
            legal = game.legal_actions(state)
            return int(legal[self.rng.integers(len(legal))])
        return self.base.act(game, state)
