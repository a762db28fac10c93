"""Game-independent heuristics (``zero`` lives with the Game protocol, which offers it to every game)."""

from zerosum.games.kit.heuristics import ZERO, zero

__all__ = ["ZERO", "zero"]
