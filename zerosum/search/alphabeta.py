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
from dataclasses import dataclass

import numpy as np
from numba import njit, types

from zerosum.games.base import (
    APPLY, HEURISTIC, KEY, LEGAL, ONGOING, ORDER, P0_WINS, P1_WINS, PLAYER, STATUS, Game,
    GameOverError, State,
)
from zerosum.search.functions import heuristic_ref, resolve_heuristic, rule_refs
from zerosum.search.result import WIN, WIN_BOUND, SearchResult, SearchStats

# flags
F_TT, F_TT_MOVE, F_HINT, F_KILLERS, F_HISTORY = 1, 2, 4, 8, 16
# stats slots
NODES, LEAVES, CUTOFFS, PROBES, HITS, ABORTED = 0, 1, 2, 3, 4, 5
# cfg slots
C_FLAGS, C_HIST_MODE, C_NODE_LIMIT, C_GEN, C_SEEDED = 0, 1, 2, 3, 4
EXACT, LOWER, UPPER = 0, 1, 2
INF = 1e18
_TT_FIRST, _HINT_W, _KILLER = 1e30, 1e20, 1e15
_HISTORY_CAP = 1e14

_F = types.FunctionType
_I1, _I2 = types.int64[::1], types.int64[:, ::1]
_D1, _D2 = types.float64[::1], types.float64[:, ::1]
NEGAMAX = types.float64(
    _F(LEGAL), _F(APPLY), _F(STATUS), _F(PLAYER), _F(KEY), _F(ORDER), _F(HEURISTIC),
    _I1,            # params
    _I2, _I2, _D2,  # state stack, move lists, move scores (one row per ply)
    _I2, _I1,       # triangular PV table and lengths
    _I1, _D1, _I1, _I1,  # TT: key, value, move, meta (depth | bound << 8 | generation << 16)
    _I2, _D1, _D1,  # killers (2 per ply), history (per action), root noise (per action)
    _I1, _I1,       # cfg, stats
    types.int64, types.int64, types.float64, types.float64,  # ply, depth, alpha, beta
)


@njit(types.int64(types.int64), cache=True)
def mix_key(k):
    """splitmix64 finaliser: spreads a game's key over the table; never 0 (the empty mark)."""
    z = np.uint64(k) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    r = np.int64(z)
    return r if r != 0 else 1


@njit(types.float64(types.int64, types.int64, types.int64), cache=True)
def terminal_value(status, player, ply):
    """Value of a finished game for ``player``, scored by distance from the root."""
    if status == P0_WINS:
        return WIN - ply if player == 0 else -(WIN - ply)
    if status == P1_WINS:
        return WIN - ply if player == 1 else -(WIN - ply)
    return 0.0


@njit(cache=True)
def _to_tt(v, ply):
    if v >= WIN_BOUND:
        return v + ply
    if v <= -WIN_BOUND:
        return v - ply
    return v


@njit(cache=True)
def _from_tt(v, ply):
    if v >= WIN_BOUND:
        return v - ply
    if v <= -WIN_BOUND:
        return v + ply
    return v


@njit(NEGAMAX, cache=True)
def negamax(legal, apply, status, player, key, order, heur, params, stack, moves, scores,
            pv, pvlen, tt_key, tt_val, tt_move, tt_meta, killers, history, noise, cfg, stats,
            ply, depth, alpha, beta):  # pragma: no cover - compiled
    s = stack[ply]
    stats[NODES] += 1
    pvlen[ply] = 0
    me = player(params, s)
    if depth <= 0:
        stats[LEAVES] += 1
        return heur(params, s, me)
    if stats[NODES] > cfg[C_NODE_LIMIT]:
        stats[ABORTED] = 1
        return 0.0
    flags = cfg[C_FLAGS]
    alpha0 = alpha
    hash_move = -1
    k = 0
    slot = 0
    if flags & F_TT:
        k = mix_key(key(params, s))
        slot = k & (tt_key.shape[0] - 1)
        stats[PROBES] += 1
        if tt_key[slot] == k:
            stats[HITS] += 1
            hash_move = tt_move[slot]
            meta = tt_meta[slot]
            stored = meta & 0xFF
            bound = (meta >> 8) & 0xFF
            v = _from_tt(tt_val[slot], ply)
            # Depth-exact reuse keeps every value equal to minimax's at the same depth; a
            # proven exact result within reach of this depth is what this search would find.
            usable = stored == depth or (bound == EXACT and stored > depth and abs(v) >= WIN_BOUND
                                         and WIN - abs(v) - ply <= depth)
            if ply > 0 and usable:
                if bound == EXACT or (bound == LOWER and v >= beta) or (bound == UPPER and v <= alpha):
                    return v

    mv = moves[ply]
    sc = scores[ply]
    n = legal(params, s, mv)
    ordered = flags & (F_TT_MOVE | F_HINT | F_KILLERS | F_HISTORY) or ply == 0
    if ply == 0 and cfg[C_SEEDED]:
        # Random tie-breaking: the root follows the TT move, then a seeded random order.
        for i in range(n):
            sc[i] = noise[mv[i]] + (_TT_FIRST if mv[i] == hash_move else 0.0)
    elif ordered:
        if flags & F_HINT:
            order(params, s, mv, n, sc)
            for i in range(n):
                sc[i] *= _HINT_W
        else:
            for i in range(n):
                sc[i] = 0.0
        for i in range(n):
            a = mv[i]
            if a == hash_move and flags & F_TT_MOVE:
                sc[i] += _TT_FIRST
            if flags & F_KILLERS and (a == killers[ply, 0] or a == killers[ply, 1]):
                sc[i] += _KILLER if a == killers[ply, 0] else 0.5 * _KILLER
            if flags & F_HISTORY:
                sc[i] += history[a]

    best = -INF
    best_move = -1
    child = stack[ply + 1]
    for i in range(n):
        if ordered:  # pick the best remaining move (cheap when a cutoff comes early)
            j = i
            for t in range(i + 1, n):
                if sc[t] > sc[j]:
                    j = t
            if j != i:
                mv[i], mv[j] = mv[j], mv[i]
                sc[i], sc[j] = sc[j], sc[i]
        a = mv[i]
        apply(params, s, a, child)
        st = status(params, child)
        if st != ONGOING:
            stats[NODES] += 1
            stats[LEAVES] += 1
            pvlen[ply + 1] = 0
            v = terminal_value(st, me, ply + 1)
        elif player(params, child) == me:  # the same player moves again
            v = negamax(legal, apply, status, player, key, order, heur, params, stack, moves,
                        scores, pv, pvlen, tt_key, tt_val, tt_move, tt_meta, killers, history,
                        noise, cfg, stats, ply + 1, depth - 1, alpha, beta)
        else:
            v = -negamax(legal, apply, status, player, key, order, heur, params, stack, moves,
                         scores, pv, pvlen, tt_key, tt_val, tt_move, tt_meta, killers, history,
                         noise, cfg, stats, ply + 1, depth - 1, -beta, -alpha)
        if stats[ABORTED]:
            return 0.0
        if v > best:
            best = v
            best_move = a
            pv[ply, ply] = a
            m = pvlen[ply + 1]
            for t in range(m):
                pv[ply, ply + 1 + t] = pv[ply + 1, ply + 1 + t]
            pvlen[ply] = m + 1
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    stats[CUTOFFS] += 1
                    if flags & F_KILLERS and a != killers[ply, 0]:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = a
                    if flags & F_HISTORY:
                        history[a] += 2.0 ** depth if cfg[C_HIST_MODE] == 0 else float(depth * depth)
                        if history[a] > _HISTORY_CAP:
                            for t in range(history.shape[0]):
                                history[t] *= 0.5
                    break

    if flags & F_TT:
        meta = tt_meta[slot]
        if tt_key[slot] == 0 or (meta >> 16) != cfg[C_GEN] or depth >= (meta & 0xFF) or tt_key[slot] == k:
            bound = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
            tt_key[slot] = k
            tt_val[slot] = _to_tt(best, ply)
            tt_move[slot] = best_move
            tt_meta[slot] = depth | (bound << 8) | (cfg[C_GEN] << 16)
    return best


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
    tt_size: int = 1 << 18
    ordering: bool = True
    tt_move: bool = True
    hint: bool = True
    killers: bool = True
    history: bool = False
    history_increment: str = "pow2"  # "pow2": 2^depth (the Pentago study), "square": depth^2
    iterative: bool = True

    def __post_init__(self) -> None:
        if self.history_increment not in ("pow2", "square"):
            raise ValueError(f"history_increment={self.history_increment!r}: use 'pow2' (2^depth) or 'square' (depth^2)")
        if self.tt_size < 1 or self.tt_size & (self.tt_size - 1):
            raise ValueError(f"tt_size={self.tt_size}: a power of two is required")

    @property
    def flags(self) -> int:
        f = F_TT if self.tt else 0
        if self.ordering:
            f |= (F_TT_MOVE if self.tt and self.tt_move else 0) | (F_HINT if self.hint else 0)
            f |= (F_KILLERS if self.killers else 0) | (F_HISTORY if self.history else 0)
        return f


class AlphaBeta:
    """A reusable alpha-beta searcher for one game and heuristic (keeps its TT between searches)."""

    def __init__(self, game: Game, heuristic=None, config: AlphaBetaConfig | None = None, **options) -> None:
        self.game = game
        self.config = config or AlphaBetaConfig(**options)
        self.heuristic = resolve_heuristic(game, heuristic)
        self._refs = (*rule_refs(game), heuristic_ref(self.heuristic))
        n = self.config.tt_size if self.config.tt else 1
        self.tt_key = np.zeros(n, np.int64)
        self.tt_val = np.zeros(n, np.float64)
        self.tt_move = np.zeros(n, np.int64)
        self.tt_meta = np.zeros(n, np.int64)
        self.history = np.zeros(game.num_actions, np.float64)
        self._generation = 0
        self._depth_cap = 0

    def _buffers(self, max_depth: int) -> None:
        if max_depth <= self._depth_cap:
            return
        g, d = self.game, max_depth + 2
        self.stack = np.zeros((d, g.initial.shape[0]), np.int64)
        self.moves = np.zeros((d, g.max_moves), np.int64)
        self.scores = np.zeros((d, g.max_moves), np.float64)
        self.pv = np.zeros((d, d), np.int64)
        self.pvlen = np.zeros(d, np.int64)
        self.killers = np.full((d, 2), -1, np.int64)
        self._depth_cap = max_depth

    def clear(self) -> None:
        """Forget the TT and history (they are otherwise kept between searches)."""
        for a in (self.tt_key, self.tt_val, self.tt_move, self.tt_meta, self.history):
            a[:] = 0

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
        self._buffers(max_depth)
        self._generation = (self._generation + 1) & 0xFFFF
        self.killers[:] = -1
        if seed is None:
            noise = np.zeros(g.num_actions)
        else:
            rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
            noise = rng.random(g.num_actions)
        hist_mode = 0 if self.config.history_increment == "pow2" else 1
        node_budget = int(nodes) if nodes is not None else 1 << 62
        start = _time.perf_counter()
        deadline = start + time if time is not None else None
        first = 1 if self.config.iterative else max_depth
        best: SearchResult | None = None
        iterations: list[SearchStats] = []
        spent = 0
        totals = np.zeros(6, np.int64)
        for d in range(first, max_depth + 1):
            limit = node_budget - spent
            if deadline is not None and best is not None:
                rate = max(spent / max(_time.perf_counter() - start, 1e-6), 1e4)
                limit = min(limit, int((deadline - _time.perf_counter()) * rate))
            if best is None:
                limit = 1 << 62  # the first iteration always finishes: a move is always available
            elif limit <= 0:
                break
            stats = np.zeros(6, np.int64)
            cfg = np.array([self.config.flags, hist_mode, limit, self._generation, seed is not None], np.int64)
            self.stack[0] = state
            t0 = _time.perf_counter()
            value = negamax(*self._refs, g.params, self.stack, self.moves, self.scores, self.pv,
                            self.pvlen, self.tt_key, self.tt_val, self.tt_move, self.tt_meta,
                            self.killers, self.history, noise, cfg, stats, 0, d, -INF, INF)
            elapsed = _time.perf_counter() - t0
            spent += int(stats[NODES])
            totals += stats
            if stats[ABORTED]:
                break
            it = SearchStats(nodes=int(stats[NODES]), leaves=int(stats[LEAVES]), cutoffs=int(stats[CUTOFFS]),
                             tt_probes=int(stats[PROBES]), tt_hits=int(stats[HITS]), depth=d, time=elapsed)
            iterations.append(it)
            pv = tuple(int(a) for a in self.pv[0, : self.pvlen[0]])
            best = SearchResult(value=float(value), action=pv[0], pv=pv, stats=it)
            if abs(value) >= WIN_BOUND:
                break  # a proven result does not change with depth
            if deadline is not None and _time.perf_counter() >= deadline:
                break
        assert best is not None
        total = SearchStats(nodes=int(totals[NODES]), leaves=int(totals[LEAVES]), cutoffs=int(totals[CUTOFFS]),
                            tt_probes=int(totals[PROBES]), tt_hits=int(totals[HITS]),
                            depth=iterations[-1].depth, time=_time.perf_counter() - start)
        return SearchResult(value=best.value, action=best.action, pv=best.pv, stats=total,
                            iterations=tuple(iterations), algorithm="alphabeta")


def alphabeta(game: Game, state: State, depth: int | None = None, heuristic=None, *,
              time: float | None = None, nodes: int | None = None, seed=None, **options) -> SearchResult:
    """One alpha-beta search from ``state`` (options: the fields of AlphaBetaConfig).

    For repeated searches, keep an :class:`AlphaBeta` object: it reuses its table.
    """
    options.setdefault("tt_size", 1 << 16)
    return AlphaBeta(game, heuristic, **options).search(state, depth, time=time, nodes=nodes, seed=seed)
