"""The game-independent parts of the compiled searches: what calls no rules.

Transposition table (probe and store, with wins re-based to the node), move ordering
(root noise, picking the next move), late-move reductions, killer and history updates,
the principal variation, and the tree walks of MCTS (UCT selection, backpropagation),
used by the searches of :mod:`zerosum.search._template` and
:mod:`zerosum.search._mcts_template` (which call the rules). Each takes the search's
record (:mod:`zerosum.search._arrays`) or the arrays it needs.

How a part is compiled decides its cost, measured on Pentago (rules: 200 ns a node):

* ``@njit(inline="always")`` (numba inlines the code) for parts that take only numbers,
  and for parts run once per node or per simulation that take the record. numba counts
  a reference (an atomic add and subtract) on every array argument of an inlined call,
  so an inlined part that takes arrays costs that on every call: never in a per-move loop.
* ``@njit()`` (a call, no reference counting) for parts that take arrays and run at some
  moves (picking the next move, extending the PV, updating killers and history). The
  parentheses are for mypy: numba's stubs type a bare ``@njit`` as a decorator factory.
* No ``cache=True`` of their own on parts run at every node: a search compiled against
  parts loaded from numba's cache measured ~8% slower here. The search copy's own cache
  holds their compiled code.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from zerosum.games.kit.kernels import P0_WINS, P1_WINS, F64Array, I64Array, contains
from zerosum.search._arrays import NegamaxArrays, TreeArrays
from zerosum.search._flags import (
    C_EPOCH, C_GEN, C_ROOT_FIRST, EXACT, F_LMR, HITS, LMR_DEPTH, LMR_MOVES, LOWER, MC_C_UCT, PROBES, TT_KEY, TT_META,
    TT_MOVE, TT_VALUE, UPPER,
)
from zerosum.search.result import WIN, WIN_BOUND

TT_FIRST, FORCING_FIRST, HINT_WEIGHT, KILLER = 1e30, 1e28, 1e20, 1e15  # ordering score bonuses, largest first
LEAF_KILLER = 1e25  # the killer's bonus where the children are leaves: above the game's hint (see score_moves)
HISTORY_CAP = 1e14  # history scores are halved past this
PICKS = 4  # moves chosen by selection before the rest is sorted
LEAF_PICKS = 8  # moves chosen by selection where the children are leaves (the rest: generation order)
ROOT_TIE = 1e-9  # the noise's weight in a seeded root's order: it orders moves of equal value


# ---- scoring ------------------------------------------------------------------------------
@njit(inline="always")
def mix_key(k: int) -> int:  # pragma: no cover - compiled
    """splitmix64 finaliser: spreads a game's key over the table; never 0 (the empty mark)."""
    z = np.uint64(k) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    r = np.int64(z)
    return r if r != 0 else 1  # type: ignore[return-value]  # np.int64 is the int of compiled code


@njit(inline="always")
def terminal_value(st: int, me: int, ply: int) -> float:  # pragma: no cover - compiled
    """Value of a finished game for player ``me``, scored by distance from the root."""
    if st == P0_WINS:
        return WIN - ply if me == 0 else -(WIN - ply)
    if st == P1_WINS:
        return WIN - ply if me == 1 else -(WIN - ply)
    return 0.0


@njit(inline="always")
def reward_p0(st: int) -> float:  # pragma: no cover - compiled
    """Player 0's reward for a finished game: 1 win, 0.5 draw, 0 loss."""
    if st == P0_WINS:
        return 1.0
    if st == P1_WINS:
        return 0.0
    return 0.5


@njit()
def pv_extend(pv: I64Array, pvlen: I64Array, ply: int, a: int) -> None:  # pragma: no cover - compiled
    """The line at ``ply`` becomes ``a`` followed by the line found below it."""
    pv[ply, ply] = a
    m = pvlen[ply + 1]
    for t in range(m):
        pv[ply, ply + 1 + t] = pv[ply + 1, ply + 1 + t]
    pvlen[ply] = m + 1


# ---- transposition table -----------------------------------------------------------------

@njit(inline="always")
def _to_tt(v: float, ply: int) -> float:  # pragma: no cover - compiled
    return v + ply if v >= WIN_BOUND else (v - ply if v <= -WIN_BOUND else v)


@njit(inline="always")
def _from_tt(v: float, ply: int) -> float:  # pragma: no cover - compiled
    return v - ply if v >= WIN_BOUND else (v + ply if v <= -WIN_BOUND else v)


@njit(inline="always")
def tt_probe(w: NegamaxArrays, k: int, slot: int, ply: int, depth: int, alpha: float,  # pragma: no cover - compiled
             beta: float) -> tuple[bool, float, int]:
    """(cut, value, hash move): ``cut`` when the stored entry settles this node at ``value``."""
    w.stats[PROBES] += 1
    tt = w.tt
    meta = tt[slot, TT_META]
    if tt[slot, TT_KEY] != k or (meta >> 16) < w.cfg[C_EPOCH]:  # an entry from before the epoch: cleared
        return False, 0.0, -1
    w.stats[HITS] += 1
    stored, bound = meta & 0xFF, (meta >> 8) & 0xFF
    v = _from_tt(w.tt_values[slot, TT_VALUE], ply)
    # Depth-exact reuse keeps every value equal to minimax's at the same depth; a proven
    # exact result within reach of this depth is what this search would find.
    usable = stored == depth or (bound == EXACT and stored > depth and abs(v) >= WIN_BOUND
                                 and WIN - abs(v) - ply <= depth)
    cut = ply > 0 and usable and (bound == EXACT or (bound == LOWER and v >= beta)
                                  or (bound == UPPER and v <= alpha))
    return cut, v, tt[slot, TT_MOVE]


@njit(inline="always")
def tt_store(w: NegamaxArrays, k: int, slot: int, ply: int, depth: int, best: float,  # pragma: no cover - compiled
             best_move: int, alpha0: float, beta: float) -> None:
    """Keep the result unless the slot holds a deeper entry of another position from this search."""
    tt = w.tt
    meta, gen, held = tt[slot, TT_META], w.cfg[C_GEN], tt[slot, TT_KEY]
    if held == 0 or (meta >> 16) != gen or depth >= (meta & 0xFF) or held == k:
        bound = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
        tt[slot, TT_KEY] = k
        w.tt_values[slot, TT_VALUE] = _to_tt(best, ply)
        tt[slot, TT_MOVE] = best_move
        tt[slot, TT_META] = depth | (bound << 8) | (gen << 16)


# ---- move ordering -----------------------------------------------------------------------

@njit()
def root_scores(w: NegamaxArrays, mv: I64Array, sc: F64Array, n: int) -> None:  # pragma: no cover - compiled
    """A seeded root's order: the move the driver names in C_ROOT_FIRST (this search's own
    best move of the last finished iteration, or the move that failed an aspiration window
    high), then by value in the last iteration, then by the seed's noise (the first
    iteration: by the noise alone). Which of equal moves is chosen does not depend on
    this order but on :func:`root_precedes`; searching the likely best first makes the
    others cheap to refute (depth-2 Pentago, 1,621 positions: 16% fewer nodes than the noise's order).

    The root's TT move is not followed: one left by an earlier search would make a reused
    engine replay the same game whatever its seed, and one stored by a window that failed
    low is the move with the highest bound, which depends on what the table held before
    (a reused engine then chose differently among equal moves from a fresh one with the
    same seed)."""
    first = w.cfg[C_ROOT_FIRST]
    for i in range(n):
        a = mv[i]
        sc[i] = w.root_values[a] + ROOT_TIE * w.noise[a] + (TT_FIRST if a == first else 0.0)


@njit(inline="always")
def root_precedes(w: NegamaxArrays, a: int, b: int) -> bool:  # pragma: no cover - compiled
    """Whether root move ``a`` goes before ``b`` (the best so far; -1: none) in a seeded
    search's tie-break order: C_ROOT_FIRST, then the seed's noise, highest first. Of the
    moves of the best value the search chooses the first in this order, whatever order it
    searches them in."""
    if b < 0:
        return False
    first = w.cfg[C_ROOT_FIRST]
    if a == first:
        return True
    if b == first:
        return False
    na, nb = w.noise[a], w.noise[b]
    return na > nb or (na == nb and a < b)


@njit(types.void(types.int64[::1], types.float64[::1], types.int64, types.int64), cache=True)
def _sort_desc(mv: I64Array, sc: F64Array, lo: int, hi: int) -> None:  # pragma: no cover - compiled
    """Sort mv[lo:hi] by sc[lo:hi], highest first (stable, so ties keep generation order).
    A short range by insertion, in place: the merge sort allocates four arrays a call."""
    if hi - lo <= 32:
        for t in range(lo + 1, hi):
            a, v = mv[t], sc[t]
            j = t
            while j > lo and sc[j - 1] < v:  # only a strictly lower score moves: stable
                mv[j], sc[j] = mv[j - 1], sc[j - 1]
                j -= 1
            mv[j], sc[j] = a, v
        return
    # A longer range by a bottom-up merge of runs (stable: the left run wins ties), written
    # out rather than np.argsort(kind="mergesort"), whose compile cost 3 s of a first search.
    n = hi - lo
    mv_a, sc_a = mv[lo:hi].copy(), sc[lo:hi].copy()
    mv_b, sc_b = np.empty_like(mv_a), np.empty_like(sc_a)
    width = 1
    while width < n:
        for left in range(0, n, 2 * width):
            mid, right = min(left + width, n), min(left + 2 * width, n)
            i, j = left, mid
            for k in range(left, right):
                if i < mid and (j >= right or sc_a[i] >= sc_a[j]):
                    mv_b[k], sc_b[k] = mv_a[i], sc_a[i]
                    i += 1
                else:
                    mv_b[k], sc_b[k] = mv_a[j], sc_a[j]
                    j += 1
        mv_a, mv_b, sc_a, sc_b = mv_b, mv_a, sc_b, sc_a
        width *= 2
    mv[lo:hi] = mv_a
    sc[lo:hi] = sc_a


@njit()
def pick_best(mv: I64Array, sc: F64Array, i: int, n: int) -> None:  # pragma: no cover - compiled
    """Bring the best of mv[i:n] to mv[i] (selection: cheap when a cutoff comes early)."""
    j = i
    for t in range(i + 1, n):
        if sc[t] > sc[j]:
            j = t
    if j != i:
        mv[i], mv[j] = mv[j], mv[i]
        sc[i], sc[j] = sc[j], sc[i]


@njit()
def pick_next(mv: I64Array, sc: F64Array, i: int, n: int, leaf: bool) -> None:  # pragma: no cover - compiled
    """Bring the best remaining move to mv[i]: by selection for the first PICKS, then by
    sorting the rest once. Where the children are leaves, by selection for the first
    LEAF_PICKS and then in generation order: every move left is then scored unless one
    cuts, and sorting them cost more time than its earlier cutoffs saved (Pentago, depth 5
    on the bench positions: 1.27x the nodes of a full sort after four picks, 0.91x the CPU
    time; eight picks take back a third of those nodes)."""
    if i < PICKS or (leaf and i < LEAF_PICKS):
        pick_best(mv, sc, i, n)
    elif i == PICKS and not leaf:
        _sort_desc(mv, sc, i, n)


@njit()
def killer_update(killers: I64Array, ply: int, a: int) -> None:  # pragma: no cover - compiled
    """``a`` becomes the first killer at ``ply``; the previous first becomes the second."""
    if a != killers[ply, 0]:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = a


@njit()
def history_update(history: F64Array, a: int, depth: int, mode: int) -> None:  # pragma: no cover - compiled
    """Credit ``a`` with 2^depth (mode 0) or depth^2; halve every entry past the cap."""
    history[a] += 2.0 ** depth if mode == 0 else float(depth * depth)
    if history[a] > HISTORY_CAP:
        for t in range(history.shape[0]):
            history[t] *= 0.5


@njit(inline="always")
def reduction(w: NegamaxArrays, ply: int, depth: int, i: int, a: int, hash_move: int,  # pragma: no cover - compiled
              flags: int) -> int:
    """Plies by which late-move reductions shorten move ``a`` (the ``i``-th tried): 1 for a
    late quiet move (not among the first LMR_MOVES, not the TT move or a killer, not a
    forcing move), 2 when it is very late and depth allows; 0 otherwise."""
    if not flags & F_LMR or depth < LMR_DEPTH or i < LMR_MOVES or a == hash_move:
        return 0
    if a == w.killers[ply, 0] or a == w.killers[ply, 1]:
        return 0
    if contains(w.forced[ply], w.forced[ply, w.forced.shape[1] - 1], a):
        return 0
    return 2 if depth >= LMR_DEPTH + 2 and i >= 4 * LMR_MOVES else 1


# ---- MCTS tree walks ---------------------------------------------------------------------

@njit(inline="always")
def select(t: TreeArrays) -> tuple[int, int]:  # pragma: no cover - compiled
    """Descend from the root through expanded nodes by UCT, unvisited children first;
    (node, depth), with the path in ``t.path``."""
    node, depth = 0, 0
    t.path[0] = 0
    c_uct = t.fcfg[MC_C_UCT]
    while t.first[node] >= 0:
        best, pick = -1.0, t.first[node]
        logn = math.log(t.visits[node] + 1.0)
        for c in range(t.first[node], t.first[node] + t.count[node]):
            if t.visits[c] == 0:
                u = 1e9 + np.random.random()
            else:
                u = t.wins[c] / t.visits[c] + c_uct * math.sqrt(logn / t.visits[c])
            if u > best:
                best, pick = u, c
        node = pick
        depth += 1
        t.path[depth] = node
    return node, depth


@njit(inline="always")
def backpropagate(t: TreeArrays, depth: int, r0: float) -> None:  # pragma: no cover - compiled
    """Credit each node on the path to the player who chose the move into it."""
    for k in range(depth, -1, -1):
        nd = t.path[k]
        t.visits[nd] += 1
        if k > 0:
            t.wins[nd] += r0 if t.mover[t.path[k - 1]] == 0 else 1.0 - r0
