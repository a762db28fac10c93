"""Alpha-beta search: one compiled negamax (fail-soft) with each enhancement switchable.

Enhancements, each a flag so its effect can be measured: transposition table (64-bit
keys, EXACT/LOWER/UPPER bounds, fixed memory, depth-preferred replacement within a
search and always-replace for older searches; depth-exact reuse, so the table never
changes a value: every configuration returns minimax's value at the same depth), move ordering (TT move first, the
game's own hint, killer moves, history heuristic with 2^depth or depth^2 increments),
iterative deepening under a depth, time or node budget (the best move of the last
finished iteration is always kept), and random tie-breaking at the root from a seed.

Wins score ``WIN - ply`` and are re-based to the node when stored in the TT, so the
engine always takes the fastest win and the slowest loss. The player to move is asked
of the game at every node: a game may give one player two turns in a row.
"""

from __future__ import annotations

import time as _time
import weakref
from dataclasses import dataclass

import numpy as np

from zerosum.games.kit import Game, GameOverError, State
from zerosum.search import compiled
from zerosum.search._arrays import NegamaxArrays
from zerosum.search._flags import (
    ABORTED, C_EPOCH, C_FLAGS, C_GEN, C_HIST_MODE, C_NODE_LIMIT, C_SEEDED, CUTOFFS, F_HINT, F_HISTORY, F_KILLERS,
    F_TT, F_TT_MOVE, HITS, INF, LEAVES, N_CFG, N_STATS, NO_LIMIT, NODES, PROBES,
)
from zerosum.search.functions import heuristic_ref, resolve_heuristic
from zerosum.search.result import WIN_BOUND, SearchResult, SearchStats

DEFAULT_TT_SIZE = 1 << 18
"""Transposition-table entries (32 bytes each: 8 MB) unless ``tt_size`` says otherwise."""


def check_budget(**budget: float | None) -> None:
    """Raise ValueError unless every given budget (depth, time, nodes, sims) is positive."""
    for name, val in budget.items():
        if val is not None and (isinstance(val, bool) or not isinstance(val, (int, float, np.integer, np.floating))
                                or not val > 0):
            raise ValueError(f"{name}={val!r}: a positive number is required")


@dataclass(frozen=True)
class AlphaBetaConfig:
    """Which enhancements are on. ``ordering=False`` turns every ordering part off."""

    tt: bool = True
    tt_size: int = DEFAULT_TT_SIZE
    ordering: bool = True
    tt_move: bool = True
    hint: bool = True
    killers: bool = True
    history: bool = False
    history_increment: str = "pow2"  # "pow2": 2^depth (the Pentago study), "square": depth^2
    iterative: bool = True

    def __post_init__(self) -> None:
        if self.history_increment not in ("pow2", "square"):
            raise ValueError(f"history_increment={self.history_increment!r}: "
                             f"use 'pow2' (2^depth) or 'square' (depth^2)")
        if self.tt_size < 1 or self.tt_size & (self.tt_size - 1):
            raise ValueError(f"tt_size={self.tt_size}: a power of two is required")

    @property
    def flags(self) -> int:
        f = F_TT if self.tt else 0
        if self.ordering:
            f |= (F_TT_MOVE if self.tt and self.tt_move else 0) | (F_HINT if self.hint else 0)
            f |= (F_KILLERS if self.killers else 0) | (F_HISTORY if self.history else 0)
        return f


TT_FIELDS = ("tt_key", "tt_val", "tt_move", "tt_meta")
KEPT_FIELDS = (*TT_FIELDS, "history", "noise", "cfg", "stats")  # the arrays that outlive one search
_FREE: dict[tuple[int, ...], list[dict]] = {}  # the arrays of searchers gone, by game shape and table size
_MAX_FREE = 4


def _take_arrays(game: Game, n: int) -> tuple[tuple[int, ...], dict]:
    """A searcher's arrays (a table of ``n`` entries and its record): ones a searcher left behind, else new.

    A table's entries carry the generation of the search that stored them, and ``gen``
    the last generation handed out on it; a new owner starts its epoch above that and
    reads nothing older, so a reused table is as empty as a new one without being
    cleared (a fresh opponent per game then costs no 8 MB of zeroing and page faults,
    and no new record).
    """
    key = (game.initial.shape[0], game.max_moves, game.num_actions, n)
    free = _FREE.get(key)
    if free:
        bundle = free.pop()
        bundle["history"][:] = 0
        return key, bundle
    return key, {"tt_key": np.zeros(n, np.int64), "tt_val": np.zeros(n, np.float64), "tt_move": np.zeros(n, np.int64),
                 "tt_meta": np.zeros(n, np.int64), "gen": np.zeros(1, np.int64),
                 "history": np.zeros(game.num_actions, np.float64), "noise": np.zeros(game.num_actions, np.float64),
                 "cfg": np.zeros(N_CFG, np.int64), "stats": np.zeros(N_STATS, np.int64), "arrays": None, "cap": 0}


def _give_back(key: tuple[int, ...], bundle: dict) -> None:
    free = _FREE.setdefault(key, [])
    if len(free) < _MAX_FREE:
        free.append(bundle)


class AlphaBeta:
    """A reusable alpha-beta searcher for one game and heuristic (keeps its TT between searches).

    The table's memory comes from searchers that are gone (see ``_take_arrays``): a new
    searcher reads nothing they stored.
    """

    def __init__(self, game: Game, heuristic=None, config: AlphaBetaConfig | None = None, **options) -> None:
        self.game = game
        self.config = config or AlphaBetaConfig(**options)
        self.heuristic = resolve_heuristic(game, heuristic)
        self._heur = heuristic_ref(self.heuristic)
        self._kernels = compiled.for_game(game)
        key, self._table = _take_arrays(game, self.config.tt_size if self.config.tt else 1)
        weakref.finalize(self, _give_back, key, self._table)
        self._kept = {name: self._table[name] for name in KEPT_FIELDS}
        self._generation = int(self._table["gen"][0])
        self._epoch = self._generation + 1  # entries stored before this generation are not ours
        self._depth_cap = self._table["cap"]
        self.arrays: NegamaxArrays | None = self._table["arrays"]

    def _buffers(self, max_depth: int) -> NegamaxArrays:
        """The search's record, with per-ply arrays for ``max_depth`` plies (grown on demand)."""
        if self.arrays is None or max_depth > self._depth_cap:
            g = self.game
            self.arrays = NegamaxArrays.sized(g.initial.shape[0], g.max_moves, g.num_actions, max_depth, **self._kept)
            self._depth_cap = max_depth
            self._table["arrays"], self._table["cap"] = self.arrays, max_depth
        return self.arrays

    def clear(self) -> None:
        """Forget the TT (a new epoch: older entries are never read) and the history."""
        self._epoch = self._generation + 1
        self._kept["history"][:] = 0

    def search(self, state: State, depth: int | None = None, *, time: float | None = None,
               nodes: int | None = None, seed: int | np.random.Generator | None = None) -> SearchResult:
        """Search ``state`` to ``depth`` plies (or as deep as the time/node budget allows)."""
        g = self.game
        if g.is_terminal(state):
            raise GameOverError("cannot search a finished game")
        check_budget(depth=depth, time=time, nodes=nodes)
        if depth is None and time is None and nodes is None:
            raise ValueError("give a budget: depth=, time= (seconds) or nodes=")
        max_depth = int(depth) if depth is not None else g.max_game_length
        w = self._buffers(max_depth)
        self._generation += 1  # stored in 47 bits of each entry: never wraps
        self._table["gen"][0] = self._generation
        w.killers[:] = -1
        if seed is None:
            w.noise[:] = 0.0
        else:
            rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
            w.noise[:] = rng.random(g.num_actions)
        w.cfg[C_FLAGS], w.cfg[C_GEN], w.cfg[C_SEEDED] = self.config.flags, self._generation, seed is not None
        w.cfg[C_EPOCH] = self._epoch
        w.cfg[C_HIST_MODE] = 0 if self.config.history_increment == "pow2" else 1
        w.stack[0] = state
        return self._deepen(w, max_depth, NO_LIMIT if nodes is None else int(nodes), time)

    def _deepen(self, w: NegamaxArrays, max_depth: int, node_budget: int, time: float | None) -> SearchResult:
        """Iterative deepening (or one iteration at ``max_depth``) within the budgets."""
        start = _time.perf_counter()
        deadline = start + time if time is not None else None
        best: SearchResult | None = None
        iterations: list[SearchStats] = []
        spent = 0
        totals = np.zeros(N_STATS, np.int64)
        for d in range(1 if self.config.iterative else max_depth, max_depth + 1):
            limit = node_budget - spent
            if deadline is not None and best is not None:
                rate = max(spent / max(_time.perf_counter() - start, 1e-6), 1e4)
                limit = min(limit, int((deadline - _time.perf_counter()) * rate))
            if best is None:
                limit = NO_LIMIT  # the first iteration always finishes: a move is always available
            elif limit <= 0:
                break
            w.stats[:] = 0
            w.cfg[C_NODE_LIMIT] = limit
            t0 = _time.perf_counter()
            value = self._kernels.negamax(self._heur, self.game.params, w, 0, d, -INF, INF)
            elapsed = _time.perf_counter() - t0
            spent += int(w.stats[NODES])
            totals += w.stats
            if w.stats[ABORTED]:
                break
            iterations.append(_stats(w.stats, d, elapsed))
            pv = tuple(int(a) for a in w.pv[0, : w.pvlen[0]])
            best = SearchResult(value=float(value), action=pv[0], pv=pv, stats=iterations[-1])
            if abs(value) >= WIN_BOUND:
                break  # a proven result does not change with depth
            if deadline is not None and _time.perf_counter() >= deadline:
                break
        assert best is not None
        return SearchResult(value=best.value, action=best.action, pv=best.pv, iterations=tuple(iterations),
                            stats=_stats(totals, iterations[-1].depth, _time.perf_counter() - start),
                            algorithm="alphabeta")


def _stats(stats: np.ndarray, depth: int, elapsed: float) -> SearchStats:
    return SearchStats(nodes=int(stats[NODES]), leaves=int(stats[LEAVES]), cutoffs=int(stats[CUTOFFS]),
                       tt_probes=int(stats[PROBES]), tt_hits=int(stats[HITS]), depth=depth, time=elapsed)


def alphabeta(game: Game, state: State, depth: int | None = None, heuristic=None, *,
              time: float | None = None, nodes: int | None = None, seed=None, **options) -> SearchResult:
    """One alpha-beta search from ``state`` (options: the fields of AlphaBetaConfig; the
    table has ``DEFAULT_TT_SIZE`` entries unless ``tt_size`` is given).

    For repeated searches, keep an :class:`AlphaBeta` object: it reuses its table.
    """
    return AlphaBeta(game, heuristic, **options).search(state, depth, time=time, nodes=nodes, seed=seed)
