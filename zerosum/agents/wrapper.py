"""An agent that plays through another, given as an agent or a spec (the noisy and exploiter agents)."""

from __future__ import annotations

from zerosum.agents.base import Agent, Rng
from zerosum.agents.registry import make_agent
from zerosum.games.kit import Game


class WrapperAgent(Agent):
    """An agent that plays through another, ``inner`` (an agent or a spec), sharing its
    generator: seeding, resetting and preparing reach both."""

    def __init__(self, inner: str | Agent, rng: Rng = None) -> None:
        super().__init__(rng)
        self.inner = make_agent(inner, rng=self.rng)
        """The agent this one plays through."""

    def seed(self, rng: Rng) -> None:
        """Replace the generator here and in the inner agent (they share it)."""
        super().seed(rng)
        self.inner.seed(self.rng)

    def reset(self) -> None:
        """Forget the last game, here and in the inner agent."""
        super().reset()
        self.inner.reset()

    def prepare(self, game: Game) -> None:
        """Check that the inner agent can play ``game``."""
        self.inner.prepare(game)

    def __repr__(self) -> str:
        return self.name


__all__ = ["WrapperAgent"]
