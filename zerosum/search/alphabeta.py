"""Alpha-beta search: one compiled negamax (fail-soft) with each enhancement switchable.

Enhancements, each a flag so its effect can be measured: transposition table (64-bit
keys, EXACT/LOWER/UPPER bounds, fixed memory, depth-preferred replacement within a
search and always-replace for older searches; depth-exact reuse, so the table never
changes a value: every configuration returns minimax's value at the same depth), move ordering (TT move first, the
game's own hint, killer moves, history heuristic with 2^depth or depth^2 increments),
iterative deepening under a depth, time or node budget (the best move of the last
finished iteration is always kept), and random tie-breaking at the root from a seed.

Beyond the source studies (docs/concepts/search.md says what each does and when to switch it off):

* exact, values unchanged (every configuration still returns minimax's value at the same
  depth): principal variation search (``pvs``: the first move with the full window, the
  others with a null window, re-searched when they fail high; not where a child's own
  moves are leaves), aspiration windows (``aspiration``: each iteration of iterative
  deepening from ``ASPIRATION_DEPTH`` starts with a window around the previous value,
  widened on failure) and ordering by value (``eval_order``: at nodes
  with 3 or more plies left, the game's forcing moves first, then the moves by their
  children's heuristic values, each evaluation counted as a node);
* selective, values change by design: late-move reductions (``lmr``: late quiet moves
  searched shallower first, re-searched at full depth when they beat alpha) and a
  quiescence search (``quiescence``: past the horizon, the game's forcing moves are
  followed for up to ``quiescence_plies`` plies; only for games with a ``forcing`` kernel).

By default (``None``) ``lmr`` is on under a time or node budget and off under a depth
alone (at a fixed depth a reduction only trades strength for speed), and ``quiescence``
is on for the games that supply forcing moves, unless the game's ``quiescence`` says it
measured weaker (Pentago). Switch both off for exact solving or to
compare values with minimax.

Wins score ``WIN - ply`` and are re-based to the node when stored in the TT, so the
engine always takes the fastest win and the slowest loss. The player to move is asked
of the game at every node: a game may give one player two turns in a row.
"""

from __future__ import annotations

import functools
import time as _time
import weakref
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from zerosum.games.kit import Game, GameOverError, State, ZerosumError
from zerosum.games.kit.hot import entry_point
from zerosum.search import compiled
from zerosum.search._arrays import NegamaxArrays, tt_arrays
from zerosum.search._flags import (
    ABORTED, C_EPOCH, C_FLAGS, C_GEN, C_HIST_MODE, C_NODE_LIMIT, C_QS_PLIES, C_ROOT_FIRST, C_SEEDED, C_TT_SLOTS,
    CUTOFFS, F_EVAL_ORDER, F_HINT, F_HISTORY, F_KILLERS, F_LMR, F_PVS, F_QUIESCE, F_TT, F_TT_MOVE, HITS, INF, LEAVES,
    LMR_DEPTH, MOVES_KERNEL, MOVES_OVER, N_CFG, N_STATS, NO_LIMIT, NODES, PROBES, QNODES, REDUCED, RESEARCHED,
)
from zerosum.search.functions import HeuristicArg, resolve_heuristic
from zerosum.search.result import WIN_BOUND, SearchResult, SearchStats

DEFAULT_TT_SIZE = 1 << 18
"""Transposition-table entries (32 bytes each: 8 MB) unless ``tt_size`` says otherwise."""
MIN_TT_SLOTS = 1 << 10
"""The fewest table entries a search uses (see AlphaBeta._tt_slots)."""
ASPIRATION_WIDTH = 1.0
"""The least half-width of an aspiration window (it also follows the last change of value)."""
ASPIRATION_DEPTH = 4
"""The first iteration searched in an aspiration window. Before it the last value says
little (Pentago's values swing between odd and even depths), a window around it mostly
fails, and each failure is a second search: at depth 2 that was a third of the search's
time. At depth 5 the windows of iterations 2 and 3 changed the nodes by under 0.1%."""
ASPIRATION_TRIES = 3
"""Failed aspiration windows widened (x4 each) before an iteration searches the full window."""


class SearchOptionError(ZerosumError, ValueError):
    """An enhancement asked for where it cannot work (the message says what is allowed)."""


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
    """Use a transposition table."""
    tt_size: int = DEFAULT_TT_SIZE
    """Transposition-table entries (a power of two)."""
    ordering: bool = True
    """Order moves at all (TT move, killers, history, the game's hint); off: generation order."""
    tt_move: bool = True
    """Try the table's best move first."""
    hint: bool = True
    """Use the game's move-ordering hint (its ``order`` kernel)."""
    killers: bool = True
    """Try two killer moves per ply (quiet moves that cut off at that ply)."""
    history: bool = False
    """Order quiet moves by the history heuristic."""
    history_increment: str = "pow2"  # "pow2": 2^depth (the Pentago study), "square": depth^2
    """The history bonus of a cutoff: ``"pow2"`` 2^depth, ``"square"`` depth^2."""
    iterative: bool = True
    """Iterative deepening (depth 1, 2, ...); required for a time or node budget."""
    pvs: bool = True
    """Principal variation search: null windows after the first move (same values)."""
    aspiration: bool = True
    """Aspiration windows around the previous iteration's value, from depth 4 (same values)."""
    eval_order: bool = True
    """Order moves at deep nodes by their children's heuristic values (same values)."""
    lmr: bool | None = None
    """None: on under a time or node budget, off under a depth alone."""
    quiescence: bool | None = None
    """None: on when the game supplies forcing moves and game.quiescence."""
    quiescence_plies: int = 4
    """The most plies the quiescence search follows forcing moves."""

    def __post_init__(self) -> None:
        for name in ("pvs", "aspiration", "eval_order", "lmr", "quiescence", "tt", "ordering", "iterative"):
            val = getattr(self, name)
            if not (isinstance(val, bool) or (val is None and name in ("lmr", "quiescence"))):
                allowed = "on, off or unset (auto)" if name in ("lmr", "quiescence") else "on or off"
                raise SearchOptionError(f"{name}={val!r}: allowed: {allowed}")
        if isinstance(self.quiescence_plies, bool) or not isinstance(self.quiescence_plies, int) \
                or not 1 <= self.quiescence_plies <= 32:
            raise SearchOptionError(f"quiescence_plies={self.quiescence_plies!r}: an int from 1 to 32 is required")
        if self.history_increment not in ("pow2", "square"):
            raise ValueError(f"history_increment={self.history_increment!r}: "
                             f"use 'pow2' (2^depth) or 'square' (depth^2)")
        if self.tt_size < 1 or self.tt_size & (self.tt_size - 1):
            raise ValueError(f"tt_size={self.tt_size}: a power of two is required")

    @property
    def flags(self) -> int:
        """The switches as the bit flags the compiled search reads."""
        f = F_TT if self.tt else 0
        if self.ordering:
            f |= (F_TT_MOVE if self.tt and self.tt_move else 0) | (F_HINT if self.hint else 0)
            f |= (F_KILLERS if self.killers else 0) | (F_HISTORY if self.history else 0)
            f |= F_EVAL_ORDER if self.eval_order else 0
        return f | (F_PVS if self.pvs else 0)

    def check(self, game: Game | None = None, depth: int | None = None, time: float | None = None,
              nodes: int | None = None) -> None:
        """Raise SearchOptionError for an enhancement that cannot work with ``game`` or this budget."""
        if game is not None and self.quiescence and not game.kernels.has_forcing:
            raise SearchOptionError(
                f"quiescence=on: {game.name} supplies no forcing moves (no 'forcing' kernel), so there is nothing "
                "to search past the horizon; allowed for it: quiescence=off or unset")
        if self.lmr and time is None and nodes is None and depth is not None and depth < LMR_DEPTH:
            raise SearchOptionError(
                f"lmr=on with depth={depth}: late-move reductions work at nodes with at least {LMR_DEPTH} plies "
                f"left, so they never act here; allowed: lmr=off or unset, depth >= {LMR_DEPTH}, or a time or "
                "node budget")

    def search_flags(self, game: Game, depth: int | None, time: float | None, nodes: int | None) -> int:
        """The flags of one search: the options, with lmr and quiescence resolved for this game and budget."""
        lmr = self.lmr if self.lmr is not None else (time is not None or nodes is not None)
        qs = self.quiescence
        if qs is None:
            qs = game.kernels.has_forcing and game.quiescence
        return self.flags | (F_LMR if lmr else 0) | (F_QUIESCE if qs else 0)


TT_FIELDS = ("tt", "tt_values")
KEPT_FIELDS = (*TT_FIELDS, "history", "noise", "root_values", "cfg", "stats")  # the arrays that outlive one search
_FREE: dict[tuple[int, ...], list[dict[str, Any]]] = {}  # the arrays of searchers gone, by game shape and table size
_MAX_FREE = 4


def _take_arrays(game: Game, n: int) -> tuple[tuple[int, ...], dict[str, Any]]:
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
    return key, {**tt_arrays(n), "gen": np.zeros(1, np.int64),
                 "history": np.zeros(game.num_actions, np.float64), "noise": np.zeros(game.num_actions, np.float64),
                 "root_values": np.zeros(game.num_actions, np.float64), "cfg": np.zeros(N_CFG, np.int64),
                 "stats": np.zeros(N_STATS, np.int64), "arrays": None, "plies": 0}


def _give_back(key: tuple[int, ...], bundle: dict[str, Any]) -> None:
    free = _FREE.setdefault(key, [])
    if len(free) < _MAX_FREE:
        free.append(bundle)


@functools.cache
def _root_entry(kernels: ModuleType) -> Any:
    """The machine code of ``kernels.negamax_root``'s one signature: numba's type dispatch and
    unboxing the heuristic cost each call 13 us, this 0.8 us (the record holds the heuristic;
    the arguments are always of the signature's types). Looked up once per game: finding
    it hashes numba types (6 us), which a fresh opponent per game would pay each game."""
    return entry_point(kernels.negamax_root)


class AlphaBeta:
    """A reusable alpha-beta searcher for one game and heuristic (keeps its TT between searches).

    The table's memory is reused from searchers that are gone (cleared by an epoch): a new
    searcher reads nothing they stored.
    """

    def __init__(self, game: Game, heuristic: HeuristicArg = None, config: AlphaBetaConfig | None = None,
                 **options: Any) -> None:
        self.game = game
        """The game searched."""
        self.config = config or AlphaBetaConfig(**options)
        """The search's enhancements and table size."""
        self.config.check(game)
        self.heuristic = resolve_heuristic(game, heuristic)
        """The evaluation at the depth limit."""
        tiered = compiled.searcher(game, compiled.TEMPLATE, self.heuristic)
        self._heur, self._kernels, self._params = tiered.heuristic, tiered.module, tiered.params
        self._negamax = _root_entry(self._kernels)
        key, self._table = _take_arrays(game, self.config.tt_size if self.config.tt else 1)
        weakref.finalize(self, _give_back, key, self._table)
        self._kept = {name: self._table[name] for name in KEPT_FIELDS}
        self._generation = int(self._table["gen"][0])
        self._epoch = self._generation + 1  # entries stored before this generation are not ours
        self.arrays: NegamaxArrays | None = self._table["arrays"]
        """The compiled search's record (table, killers, history, per-ply arrays), kept; None once released."""
        self._window: tuple[float, float] | None = None
        if self.arrays is not None:  # a record left by a searcher that may have had another heuristic
            self.arrays.set_heuristic(self._heur)

    def _buffers(self, max_depth: int) -> NegamaxArrays:
        """The search's record, with per-ply arrays for ``max_depth`` plies and the quiescence
        plies past them (grown on demand; the record may come from a searcher that is gone,
        sized for its own options, so its table says how many plies it holds)."""
        plies = max_depth + self.config.quiescence_plies
        if self.arrays is None or plies > self._table["plies"]:
            g = self.game
            self.arrays = NegamaxArrays.sized(g.initial.shape[0], g.max_moves, g.num_actions, plies, self._heur,
                                              **self._kept)
            self._table["arrays"], self._table["plies"] = self.arrays, plies
        return self.arrays

    def clear(self) -> None:
        """Forget the TT (a new epoch: older entries are never read) and the history."""
        self._epoch = self._generation + 1
        self._kept["history"][:] = 0

    def search(self, state: State, depth: int | None = None, *, time: float | None = None,
               nodes: int | None = None, seed: int | np.random.Generator | None = None,
               window: tuple[float, float] | None = None) -> SearchResult:
        """Search ``state`` to ``depth`` plies (or as deep as the time/node budget allows).

        ``window`` = (alpha, beta) searches every iteration in that window instead of the full
        one (no aspiration): a value at or below alpha is then an upper bound, one at or
        above beta a lower bound (fail-soft), as in any alpha-beta call. The labeller of
        :mod:`zerosum.training.alphazero.labels` uses it to skip exact values of moves far worse than the best.
        """
        g = self.game
        if g.is_terminal(state):
            raise GameOverError("cannot search a finished game")
        check_budget(depth=depth, time=time, nodes=nodes)
        if depth is None and time is None and nodes is None:
            raise ValueError("give a budget: depth=, time= (seconds) or nodes=")
        self.config.check(g, depth, time, nodes)
        max_depth = int(depth) if depth is not None else g.max_game_length
        w = self._buffers(max_depth)
        self._generation += 1  # stored in 47 bits of each entry: never wraps
        self._table["gen"][0] = self._generation
        w.killers.fill(-1)
        if seed is None:
            w.noise.fill(0.0)
        else:
            rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
            rng.random(out=w.noise)  # the same draws as rng.random(num_actions), into place
            w.root_values.fill(0.0)  # the first iteration's root order: the noise's (nothing of another search)
        w.cfg[C_FLAGS] = self.config.search_flags(g, depth, time, nodes)
        w.cfg[C_GEN], w.cfg[C_SEEDED] = self._generation, seed is not None
        w.cfg[C_QS_PLIES] = self.config.quiescence_plies
        w.cfg[C_EPOCH] = self._epoch
        w.cfg[C_TT_SLOTS] = self._tt_slots(depth if time is None and nodes is None else None)
        w.cfg[C_HIST_MODE] = 0 if self.config.history_increment == "pow2" else 1
        w.stack[0] = state
        if window is not None and not window[0] < window[1]:
            raise ValueError(f"window={window!r}: alpha < beta is required")
        self._window = window
        return self._deepen(w, max_depth, NO_LIMIT if nodes is None else int(nodes), time)

    def _tt_slots(self, depth: int | None) -> int:
        """The table entries a search uses: all of them under a time or node budget; to a
        depth alone, enough for every inner node of the full-width tree four times over
        (4 * max_moves ** (depth - 1), a power of two, at least MIN_TT_SLOTS). A shallow
        search then probes a table that stays in cache instead of one spread over megabytes
        (a fresh depth-2 Pentago opponent: 2^11 of 2^18 entries, and its cold table had
        cost it about a fifth of its time)."""
        size = int(self._table["tt"].shape[0])
        if depth is None:
            return size
        need: int = 4 * int(self.game.max_moves) ** (int(depth) - 1)
        return min(size, max(MIN_TT_SLOTS, 1 << (need - 1).bit_length()))

    def _iteration(self, w: NegamaxArrays, depth: int, best: tuple[float, int] | None,
                   iterations: list[SearchStats]) -> float:
        """One iteration to ``depth``: in an aspiration window around the last value when
        there is one (widened on the side that fails, then opened), else the full window.

        A seeded root tries first the move this search found (with the TT on, as its TT move
        was): the last iteration's best, then the move that failed a window high; never the
        best bound of a window that failed low, which depends on what the table held before,
        so a reused engine chooses as a fresh one."""
        run = self._negamax
        follow = self.config.tt
        w.cfg[C_ROOT_FIRST] = best[1] if best is not None and follow else -1
        if self._window is not None:
            return float(run(self._params, w, depth, float(self._window[0]), float(self._window[1])))
        if not (self.config.aspiration and depth >= ASPIRATION_DEPTH and best is not None
                and abs(best[0]) < WIN_BOUND):
            return float(run(self._params, w, depth, -INF, INF))
        last = best[0]
        width = max(ASPIRATION_WIDTH, abs(last - iterations[-2].value) if len(iterations) > 1 else 0.0)
        lo, hi = last - width, last + width
        for _ in range(ASPIRATION_TRIES):
            value = float(run(self._params, w, depth, lo, hi))
            if w.stats[ABORTED] or lo < value < hi:
                return value
            width *= 4.0
            if value <= lo:
                lo = -INF if abs(value) >= WIN_BOUND else value - width
            else:
                hi = INF if abs(value) >= WIN_BOUND else value + width
                if follow:
                    w.cfg[C_ROOT_FIRST] = w.pv[0, 0]
        return float(run(self._params, w, depth, -INF, INF))

    def _deepen(self, w: NegamaxArrays, max_depth: int, node_budget: int, time: float | None) -> SearchResult:
        """Iterative deepening (or one iteration at ``max_depth``) within the budgets."""
        start = _time.perf_counter()
        deadline = start + time if time is not None else None
        best: tuple[float, int] | None = None  # the last finished iteration's value and move
        pv: tuple[int, ...] = ()
        iterations: list[SearchStats] = []
        spent = 0
        stats = w.stats
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
            stats.fill(0)
            w.cfg[C_NODE_LIMIT] = limit
            t0 = _time.perf_counter()
            value = self._iteration(w, d, best, iterations)
            elapsed = _time.perf_counter() - t0
            totals += stats
            spent = int(totals[NODES])
            if stats[MOVES_OVER]:
                raise self.game.moves_error(int(stats[MOVES_KERNEL]), int(stats[MOVES_OVER]), "alpha-beta")
            if stats[ABORTED]:
                break
            iterations.append(_stats(stats, d, elapsed, value))
            pv = tuple(w.pv[0, : w.pvlen[0]].tolist())
            best = (value, pv[0])
            if abs(value) >= WIN_BOUND:
                break  # a proven result does not change with depth
            if deadline is not None and _time.perf_counter() >= deadline:
                break
        assert best is not None
        return SearchResult(value=best[0], action=best[1], pv=pv, iterations=tuple(iterations),
                            stats=_stats(totals, iterations[-1].depth, _time.perf_counter() - start, best[0]),
                            algorithm="alphabeta")


def _stats(stats: np.ndarray, depth: int, elapsed: float, value: float = 0.0) -> SearchStats:
    s = stats.tolist()  # plain ints in one call (a search makes this record once per iteration)
    return SearchStats(nodes=s[NODES], leaves=s[LEAVES], cutoffs=s[CUTOFFS], tt_probes=s[PROBES], tt_hits=s[HITS],
                       depth=depth, time=elapsed, qnodes=s[QNODES], reduced=s[REDUCED], researched=s[RESEARCHED],
                       value=value)


def alphabeta(game: Game, state: State, depth: int | None = None, heuristic: HeuristicArg = None, *,
              time: float | None = None, nodes: int | None = None, seed: int | np.random.Generator | None = None,
              **options: Any) -> SearchResult:
    """One alpha-beta search from ``state`` (options: the fields of AlphaBetaConfig; the
    table has ``DEFAULT_TT_SIZE`` entries unless ``tt_size`` is given).

    For repeated searches, keep an :class:`AlphaBeta` object: it reuses its table.
    """
    return AlphaBeta(game, heuristic, **options).search(state, depth, time=time, nodes=nodes, seed=seed)
