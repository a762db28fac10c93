"""Plain minimax (negamax form, no pruning): the reference every other search is tested against.

It visits every node to the given depth and counts them exactly (the root included):
from the empty tic-tac-toe board it visits 549,946 nodes. Terminal positions score
``WIN - ply`` like alpha-beta, so the two agree on values.
"""

from __future__ import annotations

import time as _time

import numpy as np

from zerosum.games.kit import Game, GameOverError, State
from zerosum.search import compiled
from zerosum.search.functions import heuristic_ref, resolve_heuristic
from zerosum.search.result import SearchResult, SearchStats


def minimax(game: Game, state: State, depth: int, heuristic=None) -> SearchResult:
    """Full-width search to ``depth`` plies; ties go to the first move in legal order."""
    if game.is_terminal(state):
        raise GameOverError("cannot search a finished game")
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1:
        raise ValueError(f"depth={depth!r}: a positive int is required")
    h = heuristic_ref(resolve_heuristic(game, heuristic))
    d = int(depth) + 2
    stack = np.zeros((d, game.initial.shape[0]), np.int64)
    stack[0] = state
    moves = np.zeros((d, game.max_moves), np.int64)
    pv = np.zeros((d, d), np.int64)
    pvlen = np.zeros(d, np.int64)
    stats = np.zeros(2, np.int64)
    t0 = _time.perf_counter()
    value = compiled.for_game(game).minimax(h, game.params, stack, moves, pv, pvlen, stats, 0, int(depth))
    st = SearchStats(nodes=int(stats[0]), leaves=int(stats[1]), depth=int(depth), time=_time.perf_counter() - t0)
    line = tuple(int(a) for a in pv[0, : pvlen[0]])
    return SearchResult(value=float(value), action=line[0], pv=line, stats=st, iterations=(st,), algorithm="minimax")
