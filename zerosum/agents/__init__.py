"""Agents behind one interface: ``act(game, state) -> action``."""

from zerosum.agents.base import Agent, RandomAgent, as_generator

__all__ = ["Agent", "RandomAgent", "as_generator"]
