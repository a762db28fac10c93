"""Perfect play for small games: every position solved once (memoised), ties broken at random.

>>> from zerosum.agents import make_agent
>>> make_agent("solved").name
'solved'

The same moves as ``alphabeta(depth=<to the end>)`` with random tie-breaks (the fastest
win, the slowest loss, a uniformly random choice among equal moves), at the cost of a
dictionary lookup once a position has been seen: the values are shared by every
``solved`` agent of a process, so a fresh opponent per training game costs nothing.
Only for games small enough to solve (tic-tac-toe: 5,478 positions; Nim's default piles).
"""

from __future__ import annotations

import sys

import numpy as np

from zerosum.agents.base import Agent
from zerosum.games.kit import Action, Game, State

DECAY = 0.99
"""A win found ``k`` moves later is worth ``DECAY**k``: the fastest win and the slowest loss are preferred."""

_TABLES: dict[Game, dict[bytes, tuple[float, tuple[int, ...]]]] = {}  # game -> position -> (value, best moves)


class SolvedAgent(Agent):
    """Exact play from a full solve of the game, memoised per process; random among the best moves.

    ``max_states`` bounds the positions solved (a ValueError names the game when it is
    too large to solve this way).
    """

    name = "solved"
    """Shown as ``solved``."""

    def __init__(self, max_states: int = 1_000_000, rng: np.random.Generator | int | None = None) -> None:
        super().__init__(rng)
        if isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1:
            raise ValueError(f"max_states={max_states!r} is not allowed: an int >= 1")
        self.max_states = max_states
        """The most positions it solves before giving up with a ValueError."""

    def prepare(self, game: Game) -> None:
        """Solve the game from its initial position (a ValueError when it has too many positions)."""
        self._solve(game, game.initial_state())
        solved = len(_TABLES[game])
        if solved > self.max_states:  # solved earlier by an agent with a larger budget
            raise ValueError(f"{game.name} has {solved:,} positions, more than max_states={self.max_states:,}")

    def act(self, game: Game, state: State) -> Action:
        """A move that keeps the game-theoretic value (the quickest win, the longest defence), ties broken at random."""
        _, best = self._solve(game, state)
        return best[int(self.rng.integers(len(best)))] if len(best) > 1 else best[0]

    def value(self, game: Game, state: State) -> float:
        """The value of ``state`` for the player to move (+1 win now, -1 loss, 0 draw; discounted by length)."""
        return self._solve(game, state)[0]

    def _solve(self, game: Game, state: State) -> tuple[float, tuple[int, ...]]:
        table = _TABLES.setdefault(game, {})
        key = np.asarray(state).tobytes()
        hit = table.get(key)
        if hit is not None:
            return hit
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 10 * game.max_game_length + 1000))
        try:
            return self._search(game, np.asarray(state), table)
        finally:
            sys.setrecursionlimit(limit)

    def _search(self, game: Game, state: np.ndarray, table: dict[bytes, tuple[float, tuple[int, ...]]]
                ) -> tuple[float, tuple[int, ...]]:
        key = state.tobytes()
        hit = table.get(key)
        if hit is not None:
            return hit
        if len(table) >= self.max_states:
            raise ValueError(f"{game.name} has more than max_states={self.max_states:,} positions: "
                             "too large for the solved agent (use alphabeta)")
        mover = game.current_player(state)
        best_value, best = -2.0, []
        for a in game.legal_actions(state):
            child = game.apply_unchecked(state, int(a))
            if game.is_terminal(child):
                q = float(game.returns(child)[mover])
            else:
                v = self._search(game, child, table)[0]
                q = DECAY * (v if game.current_player(child) == mover else -v)
            if q > best_value + 1e-12:
                best_value, best = q, [int(a)]
            elif abs(q - best_value) <= 1e-12:
                best.append(int(a))
        table[key] = (best_value, tuple(best))
        return table[key]


__all__ = ["DECAY", "SolvedAgent"]
