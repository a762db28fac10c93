"""The compiled depth-first searches (alpha-beta, minimax), written once and specialised per
game: the code that calls the rules (MCTS's is :mod:`zerosum.search._mcts_template`).

A template in the sense of :mod:`zerosum.games.kit.specialize` (the contract is there):
:mod:`zerosum.search.compiled` has it copied for each game with the rules line importing
that game's kernels, so the rules are inlined and the copy is cached on disk. Heuristics
stay first-class function arguments, so any compiled or Python heuristic runs in the
same cached search. Against the placeholder rules this file is a working search itself.

Each search takes ``(heuristic, params, arrays, ...)``: its working arrays travel as one
record (:mod:`zerosum.search._arrays`); the arrays used at every move are taken out of it
once per node. Each enhancement is a small helper behind its flag (those that call no
rules live in :mod:`zerosum.search._parts`, which says how a helper should be compiled),
so a new one (a search window, a reduction, a quiescence step) is one more helper and
one more flag.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit, types

from zerosum.games.kit.placeholder import KERNELS as _RULES  # RULES: the line specialize rewrites
from zerosum.games.kit.kernels import HEURISTIC, ONGOING, F64Array, I64Array, Params, State, contains
from zerosum.games.kit.movebuf import DISTINCT_KERNEL, FORCING_KERNEL, LEGAL_KERNEL
from zerosum.search._arrays import NEGAMAX_ARRAYS, NegamaxArrays, unowned
from zerosum.search._flags import (
    ABORTED, C_FLAGS, C_HIST_MODE, C_NODE_LIMIT, C_QS_PLIES, C_SEEDED, C_TT_SLOTS, CUTOFFS, EVAL_ORDER_DEPTH,
    F_EVAL_ORDER, F_HINT, F_HISTORY, F_KILLERS, F_LMR, F_PVS, F_QUIESCE, F_TT, F_TT_MOVE, FORCED_DEPTH, INF, LEAVES,
    MOVES_KERNEL, MOVES_OVER, NODES, QNODES, REDUCED, RESEARCHED,
)
from zerosum.search._parts import (
    FORCING_FIRST, HINT_WEIGHT, KILLER, LEAF_KILLER, LEAF_PICKS, PICKS, TT_FIRST, history_update,
    killer_update, mix_key, pick_next, pv_extend, reduction, root_precedes, root_scores, terminal_value,
    tt_probe, tt_store,
)

legal, apply, status, player, key, order, forcing = (
    _RULES.legal, _RULES.apply, _RULES.status, _RULES.player, _RULES.key, _RULES.order, _RULES.forcing)


@njit(inline="always")
def unknown_legality(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    """For a game with no is_legal kernel: no move is tried before the moves are generated."""
    return False


distinct = _RULES.distinct if _RULES.distinct is not None else legal  # the moves generated below the root
is_legal = _RULES.is_legal if _RULES.is_legal is not None else unknown_legality

@njit(inline="always")
def too_many(stats: I64Array, n: int, width: int, kernel: int) -> bool:  # pragma: no cover - compiled
    """Whether a moves kernel listed more than max_moves (``width``: its row's length); if so the
    search stops (ABORTED), recording the count and the kernel for the driver's error. The row
    had room for them (zerosum.games.kit.movebuf): one compare a generation, nothing written."""
    if n > width:
        stats[ABORTED] = 1
        stats[MOVES_OVER] = n
        stats[MOVES_KERNEL] = kernel
        return True
    return False


_H = types.FunctionType(HEURISTIC)
_P = types.Array(types.int64, 1, "C", readonly=True)  # the game's params (read-only)
_I, _F = types.int64, types.float64
Heur = Callable[[Params, State, int], float]  # a heuristic as the searches call it (a first-class function)


@njit()
def evaluate_moves(heur: Heur, params: Params, w: NegamaxArrays, s: State, mv: I64Array,  # pragma: no cover - compiled
                   sc: F64Array, n: int, ply: int) -> None:
    """sc[i]: the heuristic's value for the mover of the position after mv[i] (a finished
    game: its value), each counted as a node and a leaf: a one-ply search for ordering."""
    me = player(params, s)
    child = w.stack[ply + 1]
    for i in range(n):
        apply(params, s, mv[i], child)
        st = status(params, child)
        if st != ONGOING:
            sc[i] = terminal_value(st, me, ply + 1)
        else:
            sc[i] = heur(params, child, me) if player(params, child) == me else -heur(params, child, 1 - me)
    w.stats[NODES] += n
    w.stats[LEAVES] += n


@njit(inline="always")
def score_moves(heur: Heur, params: Params, w: NegamaxArrays, s: State, mv: I64Array,  # pragma: no cover - compiled
                sc: F64Array, n: int, ply: int, depth: int, hash_move: int, flags: int) -> bool:
    """Ordering scores for the ``n`` moves at ``ply``; False when they keep generation order.

    The seeded root takes root_scores (the last iteration's values, then the noise);
    elsewhere the game's hint (or, at nodes with EVAL_ORDER_DEPTH plies or more left, each
    child's heuristic value), the TT move, the killers and the history add up, each if its
    flag is on. Where the children's values order the moves, the TT move does not go
    first below the root: it is the best move of a search one ply shallower, and following
    it there cost 1.8x the nodes to depth 5 on Pentago's bench positions and 1.1x on Nine
    Men's Morris's (bench/vs_release.py --nodes-only). At an unseeded root it does: the
    previous iteration's best move is tried first, so that an equal one found later does
    not replace it (a seeded root decides that by root_precedes).

    Where the children are leaves (no quiescence), the killers go before the hint: a move
    that refuted a sibling is the likeliest to refute this node too, and there a try costs
    no more than one evaluation. On Pentago that took 14% of the nodes from depth-2
    searches and 10% from depth 5 (bench/vs_release.py --nodes-only); with quiescence on
    it cost Nine Men's Morris 8%, so it stays off there."""
    if ply == 0 and w.cfg[C_SEEDED]:
        root_scores(w, mv, sc, n)
        return True
    if not (flags & (F_TT_MOVE | F_HINT | F_KILLERS | F_HISTORY | F_EVAL_ORDER) or ply == 0):
        return False
    by_value = flags & F_EVAL_ORDER and depth >= EVAL_ORDER_DEPTH
    scale = HINT_WEIGHT
    if by_value:  # the game's forcing moves first, then by value
        evaluate_moves(heur, params, w, s, mv, sc, n, ply)
        forced, nf = w.forced[ply], w.forced[ply, w.forced.shape[1] - 1]
        for i in range(n):
            sc[i] = sc[i] * HINT_WEIGHT + (FORCING_FIRST if contains(forced, nf, mv[i]) else 0.0)
        scale = 1.0
    elif flags & F_HINT:
        order(params, s, mv, n, sc)
    else:
        sc[:n] = 0.0
    tt = hash_move if flags & F_TT_MOVE and (ply == 0 or not by_value) else -2  # -2 (and -1: none) is no move
    k0, k1 = (w.killers[ply, 0], w.killers[ply, 1]) if flags & F_KILLERS else (-2, -2)
    killer = LEAF_KILLER if depth == 1 and not flags & F_QUIESCE else KILLER
    history, use_history = w.history, flags & F_HISTORY
    for i in range(n):
        a = mv[i]
        v = sc[i] * scale
        if a == tt:
            v += TT_FIRST
        if a == k0:
            v += killer
        elif a == k1:
            v += 0.5 * killer
        if use_history:
            v += history[a]
        sc[i] = v
    return True


# ---- alpha-beta ------------------------------------------------------------------------------
TRY_FULL, TRY_NULL, TRY_REDUCED = 0, 1, 2  # the tries of a move in negamax's loop
NEGAMAX = types.float64(_H, _P, NEGAMAX_ARRAYS, _I, _I, _F, _F)  # heur, params, arrays, ply, depth, alpha, beta
QUIESCE = types.float64(_H, _P, NEGAMAX_ARRAYS, _I, _I, _F, _F)  # heur, params, arrays, ply, plies left, alpha, beta
_I1, _I2 = types.int64[::1], types.int64[:, ::1]
QSEARCH = types.float64(_H, _P, _I2, _I2, _I2, _I1, _I1, _I, _I, _F, _F)


@njit(QSEARCH, cache=True)
def qsearch(heur: Heur, params: Params, stack: I64Array, moves: I64Array, pv: I64Array,  # pragma: no cover
            pvlen: I64Array, stats: I64Array, ply: int, left: int, alpha: float, beta: float) -> float:
    """quiesce on the record's arrays, passed one by one: a call that takes the record counts
    a reference to it on entry and exit (atomically: numba's NRT), and below a shallow
    search almost every node is a quiescence node (157 of 176 in a depth-2 Connect Four
    search); the arrays are views without reference counts (zerosum.search._arrays.unowned)."""
    s = stack[ply]
    stats[NODES] += 1
    stats[QNODES] += 1
    pvlen[ply] = 0
    me = player(params, s)
    best = heur(params, s, me)
    n = forcing(params, s, moves[ply]) if left > 0 and best < beta else 0
    if n == 0 or too_many(stats, n, moves.shape[1], FORCING_KERNEL):
        stats[LEAVES] += 1
        return best
    mv, child = moves[ply], stack[ply + 1]
    alpha = max(alpha, best)
    for i in range(n):
        apply(params, s, mv[i], child)
        st = status(params, child)
        if st != ONGOING:
            stats[NODES] += 1
            stats[LEAVES] += 1
            pvlen[ply + 1] = 0
            v = terminal_value(st, me, ply + 1)
        else:  # one recursive call site (see child_value)
            sign, lo, hi = (1.0, alpha, beta) if player(params, child) == me else (-1.0, -beta, -alpha)
            v = sign * qsearch(heur, params, stack, moves, pv, pvlen, stats, ply + 1, left - 1, lo, hi)
        if v > best:
            best = v
            pv_extend(pv, pvlen, ply, mv[i])
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(QUIESCE, cache=True)
def quiesce(heur: Heur, params: Params, w: NegamaxArrays, ply: int, left: int,  # pragma: no cover - compiled
            alpha: float, beta: float) -> float:
    """Past the horizon: the heuristic's value (or better through a forcing move): qsearch."""
    return qsearch(heur, params, w.stack, w.moves, w.pv, w.pvlen, w.stats, ply, left, alpha, beta)


@njit(inline="always")
def child_value(heur: Heur, params: Params, w: NegamaxArrays, ply: int, depth: int,  # pragma: no cover - compiled
                alpha: float, beta: float, same: bool) -> float:
    """The value for the mover at ``ply`` of the child at ``ply + 1`` searched to ``depth``
    in the window (alpha, beta); ``same``: the same player moves again there. Past the
    horizon with quiescence on, straight to qsearch (negamax's first step there), without
    the two calls that take the record.

    Each search calls itself from one place, the sign and the window chosen before the
    call: numba types a recursive call by typing the whole function again, once per call
    site, so every further site multiplied the first compile (Connect Four's alpha-beta:
    nine sites, most of its cold compile)."""
    sign, lo, hi = (1.0, alpha, beta) if same else (-1.0, -beta, -alpha)
    if depth <= 0 and w.cfg[C_FLAGS] & F_QUIESCE:
        return sign * qsearch(heur, params, w.stack, w.moves, w.pv, w.pvlen, w.stats, ply + 1, w.cfg[C_QS_PLIES],
                              lo, hi)
    return sign * negamax(heur, params, w, ply + 1, depth, lo, hi)


@njit(inline="always")
def staged_moves(params: Params, w: NegamaxArrays, s: State, ply: int, hash_move: int,  # pragma: no cover - compiled
                 flags: int) -> int:
    """The TT move and the killers that are legal here, in the order scoring gives them, in
    w.moves[ply]: tried before the moves are generated where the children are leaves (there
    64% of the cut nodes of a depth-2 Pentago search cut on the first move tried)."""
    mv, k = w.moves[ply], 0
    if flags & F_TT_MOVE and hash_move >= 0 and is_legal(params, s, hash_move):
        mv[0], k = hash_move, 1
    if flags & F_KILLERS:
        for t in range(2):
            a = w.killers[ply, t]
            if a >= 0 and not contains(mv, k, a) and is_legal(params, s, a):
                mv[k] = a
                k += 1
    return k


@njit(inline="always")
def the_rest(params: Params, w: NegamaxArrays, s: State, ply: int, staged: int) -> int:  # pragma: no cover - compiled
    """The moves after the ``staged`` ones already in w.moves[ply] (generated into the next
    ply's row, free where the children are leaves); the count of all. Below the root they
    are the game's ``distinct`` moves where it has that kernel (one move per child: on the
    positions a depth-2 Pentago opponent meets, 150 of 238 moves, and 20% fewer nodes with
    the same values); the root keeps every legal move, for the seeded choice among equal
    moves is a choice of action, and there a move reaching a searched child costs one
    table probe. -1 when the game's kernel listed more than max_moves (too_many)."""
    mv = w.moves[ply]
    if staged == 0:
        n: int = legal(params, s, mv) if ply == 0 else distinct(params, s, mv)
        return -1 if too_many(w.stats, n, mv.shape[0], LEGAL_KERNEL if ply == 0 else DISTINCT_KERNEL) else n
    spare = w.moves[ply + 1]
    k = staged
    m = distinct(params, s, spare)
    if too_many(w.stats, m, spare.shape[0], DISTINCT_KERNEL):
        return -1
    for j in range(m):
        if not contains(mv, staged, spare[j]):
            mv[k] = spare[j]
            k += 1
    return k


@njit(NEGAMAX, cache=True)
def negamax(heur: Heur, params: Params, w: NegamaxArrays, ply: int, depth: int,  # pragma: no cover - compiled
            alpha: float, beta: float) -> float:
    """Fail-soft negamax alpha-beta from ``w.stack[ply]``; see zerosum.search.alphabeta."""
    flags = w.cfg[C_FLAGS]
    if depth <= 0 and flags & F_QUIESCE:
        return quiesce(heur, params, w, ply, w.cfg[C_QS_PLIES], alpha, beta)
    s, stats, pvlen = w.stack[ply], w.stats, w.pvlen
    stats[NODES] += 1
    pvlen[ply] = 0
    me = player(params, s)
    if depth <= 0:
        stats[LEAVES] += 1
        return heur(params, s, me)
    if stats[NODES] > w.cfg[C_NODE_LIMIT]:
        stats[ABORTED] = 1
        return 0.0
    k, slot, hash_move = 0, 0, -1
    if flags & F_TT:
        k = mix_key(key(params, s))
        slot = k & (w.cfg[C_TT_SLOTS] - 1)
        cut, v, hash_move = tt_probe(w, k, slot, ply, depth, alpha, beta)
        if cut:
            return v
    mv, sc, child, pv = w.moves[ply], w.scores[ply], w.stack[ply + 1], w.pv
    leaf = depth == 1 and not flags & F_QUIESCE
    # Where the children are leaves, the moves past the first LEAF_PICKS keep generation
    # order; not at an unseeded root, whose order chooses among equal moves (the first
    # wins), so it sorts them all. A seeded root over leaves is not ordered (below).
    partial = leaf and ply > 0
    seeded_root = ply == 0 and w.cfg[C_SEEDED]
    n = staged = staged_moves(params, w, s, ply, hash_move, flags) if partial else 0
    rest, picks, i = True, 0, 0
    alpha0, best, best_move = alpha, -INF, -1
    while i < n or rest:
        if i == n:  # no staged move cut: the rest generated and ordered
            rest = False
            n = the_rest(params, w, s, ply, staged)
            if n < 0:  # more moves than max_moves: the driver raises
                return 0.0
            if flags & (F_LMR | F_EVAL_ORDER) and depth >= FORCED_DEPTH:  # the last slot holds the count
                nf = forcing(params, s, w.forced[ply])
                if too_many(stats, nf, w.forced.shape[1] - 1, FORCING_KERNEL):
                    return 0.0
                w.forced[ply, w.forced.shape[1] - 1] = nf
            # A seeded root over leaves evaluates every move whatever the order, and its
            # choice among equal ones is root_precedes': no ordering to do (it was a sixth
            # of a depth-1 Pentago search).
            ordered = not (seeded_root and leaf) and score_moves(heur, params, w, s, mv, sc, n, ply, depth,
                                                                 hash_move, flags)
            picks = 0 if not ordered else (LEAF_PICKS if partial else PICKS + 1)  # the moves pick_next places
            continue
        if i < picks:
            pick_next(mv, sc, i, n, partial)
        a = mv[i]
        # A seeded root searches by value but chooses among equal moves by root_precedes:
        # a move that goes before the best so far takes its place at an equal value, so
        # its window starts just below alpha.
        lo = np.nextafter(alpha, -INF) if seeded_root and root_precedes(w, a, best_move) else alpha
        apply(params, s, a, child)
        st = status(params, child)
        if st != ONGOING or leaf:  # a leaf, scored here rather than in a call of its own
            stats[NODES] += 1
            stats[LEAVES] += 1
            pvlen[ply + 1] = 0
            if st != ONGOING:
                v = terminal_value(st, me, ply + 1)
            else:
                v = heur(params, child, me) if player(params, child) == me else -heur(params, child, 1 - me)
        else:
            same = player(params, child) == me
            r = reduction(w, ply, depth, i, a, hash_move, flags)
            # The tries of this move, each a search of the child in one call (child_value
            # says why there is one): TRY_FULL the first move, or every move without PVS
            # and LMR, in the full window; the others a null window (TRY_NULL), at reduced
            # depth first for a late move (TRY_REDUCED), then re-searched at full depth
            # while they beat alpha, the last time in the full window.
            # No null window where the child's own moves are leaves: it cuts on the same
            # leaf either way, and a full window spares the re-search when the move is
            # better (Pentago at depth 2: 2,744 nodes a search instead of 3,136).
            narrow = flags & F_PVS and (depth > 2 or flags & F_QUIESCE)
            nb = np.nextafter(lo, INF) if narrow else beta
            d, hi, stage = depth - 1, nb, TRY_NULL
            if i == 0 or not flags & (F_PVS | F_LMR):
                hi, stage = beta, TRY_FULL
            elif r > 0:
                stats[REDUCED] += 1
                d, stage = depth - 1 - r, TRY_REDUCED
            while True:
                v = child_value(heur, params, w, ply, d, lo, hi, same)
                if stats[ABORTED] or stage == TRY_FULL:
                    break
                if stage == TRY_REDUCED and v > lo:  # a reduced move that beat alpha: full depth
                    stats[RESEARCHED] += 1
                    d, stage = depth - 1, TRY_NULL
                    continue
                if lo < v < beta and nb < beta:  # inside the window: the full one
                    stats[RESEARCHED] += 1
                    d, hi, stage = depth - 1, beta, TRY_FULL
                    continue
                break
        if stats[ABORTED]:
            return 0.0
        if seeded_root:
            w.root_values[a] = v  # the next iteration's order
        if v > best or (v == best and lo < v):  # (the second: an equal move that goes first)
            best, best_move = v, a
            pv_extend(pv, pvlen, ply, a)
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    stats[CUTOFFS] += 1
                    if flags & F_KILLERS:
                        killer_update(w.killers, ply, a)
                    if flags & F_HISTORY:
                        history_update(w.history, a, depth, w.cfg[C_HIST_MODE])
                    break
        i += 1
    if flags & F_TT:
        tt_store(w, k, slot, ply, depth, best, best_move, alpha0, beta)
    return best


ROOT = types.float64(_P, NEGAMAX_ARRAYS, _I, _F, _F)  # params, arrays, depth, alpha, beta


@njit(ROOT, cache=True)
def negamax_root(params: Params, w: NegamaxArrays, depth: int, alpha: float,  # pragma: no cover - compiled
                 beta: float) -> float:
    """negamax from the root (w.stack[0]) with the record's heuristic: the drivers' call.
    The search below takes the params as a view without a reference count (unowned): each
    call would count one, atomically, and the caller holds them for the whole search."""
    return negamax(w.heur, unowned(params), w, 0, depth, alpha, beta)


# ---- minimax (the reference: no pruning, exact node count) ---------------------------------
MINIMAX = types.float64(_H, _P, NEGAMAX_ARRAYS, _I, _I)  # heur, params, arrays, ply, depth


@njit(MINIMAX, cache=True)
def minimax(heur: Heur, params: Params, w: NegamaxArrays, ply: int, depth: int) -> float:  # pragma: no cover - compiled
    """Full-width negamax from ``w.stack[ply]``, counting NODES and LEAVES (no TT, no ordering)."""
    s, stats, pvlen = w.stack[ply], w.stats, w.pvlen
    stats[NODES] += 1
    pvlen[ply] = 0
    me = player(params, s)
    if depth <= 0:
        stats[LEAVES] += 1
        return heur(params, s, me)
    mv, child, pv = w.moves[ply], w.stack[ply + 1], w.pv
    n = legal(params, s, mv)
    if too_many(stats, n, mv.shape[0], LEGAL_KERNEL):
        return 0.0
    best = -INF
    for i in range(n):
        a = mv[i]
        apply(params, s, a, child)
        st = status(params, child)
        if st != ONGOING or depth == 1:
            stats[NODES] += 1
            stats[LEAVES] += 1
            pvlen[ply + 1] = 0
            if st != ONGOING:
                v = terminal_value(st, me, ply + 1)
            else:
                v = heur(params, child, me) if player(params, child) == me else -heur(params, child, 1 - me)
        else:  # one recursive call site (see child_value)
            v = (1.0 if player(params, child) == me else -1.0) * minimax(heur, params, w, ply + 1, depth - 1)
        if v > best:
            best = v
            pv_extend(pv, pvlen, ply, a)
    return best
