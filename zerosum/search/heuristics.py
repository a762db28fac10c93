"""Game-independent heuristics (``zero`` lives with the Game protocol, which offers it to every game)."""

from zerosum.games.base import ZERO, zero

__all__ = ["ZERO", "zero"]
