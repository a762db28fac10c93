"""The compiled searches, written once and specialised per game: the code that calls the rules.

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

import math
from collections.abc import Callable

import numpy as np
from numba import njit, types

from zerosum.games.kit.placeholder import KERNELS as _RULES  # RULES: the line specialize rewrites
from zerosum.games.kit.kernels import HEURISTIC, ONGOING, F64Array, I64Array, Params, State, contains
from zerosum.search._arrays import NEGAMAX_ARRAYS, TREE_ARRAYS, NegamaxArrays, TreeArrays
from zerosum.search._flags import (
    ABORTED, C_FLAGS, C_HIST_MODE, C_NODE_LIMIT, C_QS_PLIES, C_SEEDED, CUTOFFS, EVAL_ORDER_DEPTH, F_EVAL_ORDER,
    F_HINT, F_HISTORY, F_KILLERS, F_LMR, F_PVS, F_QUIESCE, F_TT, F_TT_MOVE, FORCED_DEPTH, INF, KEEP_SEED, LEAVES,
    LMR_DEPTH, LMR_MOVES, MAX_DEPTH, MC_EPSILON, MC_ROLLOUT, MC_ROLLOUT_DEPTH, MC_SCALE, MC_SEED, MC_SIMS, NODES,
    QNODES, REDUCED, RESEARCHED, ROLLOUT_GREEDY, ROLLOUT_PLIES, SIMULATIONS, TREE_SIZE,
)
from zerosum.search._parts import (
    FORCING_FIRST, HINT_WEIGHT, KILLER, LEAF_KILLER, LEAF_PICKS, PICKS, TT_FIRST, backpropagate, history_update,
    killer_update, mix_key, pick_next, pv_extend, reward_p0, root_noise_scores, select, terminal_value, tt_probe,
    tt_store,
)

legal, apply, status, player, key, order, forcing = (
    _RULES.legal, _RULES.apply, _RULES.status, _RULES.player, _RULES.key, _RULES.order, _RULES.forcing)

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
                sc: F64Array, n: int, ply: int, depth: int, hash_move: int, slot: int, flags: int) -> bool:
    """Ordering scores for the ``n`` moves at ``ply``; False when they keep generation order.

    The seeded root takes its noise; elsewhere the game's hint (or, at nodes with
    EVAL_ORDER_DEPTH plies or more left, each child's heuristic value), the TT move, the
    killers and the history add up, each if its flag is on. Where the children's values
    order the moves, the TT move does not go first below the root: it is the best move of
    a search one ply shallower, and following it there cost 1.8x the nodes to depth 5 on
    Pentago's bench positions and 1.1x on Nine Men's Morris's (bench/vs_release.py
    --nodes-only). At the root it does: the previous iteration's best move is tried first,
    so that an equal one found later does not replace it.

    Where the children are leaves (no quiescence), the killers go before the hint: a move
    that refuted a sibling is the likeliest to refute this node too, and there a try costs
    no more than one evaluation. On Pentago that took 14% of the nodes from depth-2
    searches and 10% from depth 5 (bench/vs_release.py --nodes-only); with quiescence on
    it cost Nine Men's Morris 8%, so it stays off there."""
    if ply == 0 and w.cfg[C_SEEDED]:
        root_noise_scores(w, mv, sc, n, hash_move, slot, flags)
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
NEGAMAX = types.float64(_H, _P, NEGAMAX_ARRAYS, _I, _I, _F, _F)  # heur, params, arrays, ply, depth, alpha, beta
QUIESCE = types.float64(_H, _P, NEGAMAX_ARRAYS, _I, _I, _F, _F)  # heur, params, arrays, ply, plies left, alpha, beta


@njit(QUIESCE, cache=True)
def quiesce(heur: Heur, params: Params, w: NegamaxArrays, ply: int, left: int,  # pragma: no cover - compiled
            alpha: float, beta: float) -> float:
    """Past the horizon: the heuristic's value (the side to move may "stand pat"), or better
    through one of the game's forcing moves, followed for at most ``left`` plies."""
    s, stats = w.stack[ply], w.stats
    stats[NODES] += 1
    stats[QNODES] += 1
    w.pvlen[ply] = 0
    me = player(params, s)
    best = heur(params, s, me)
    n = forcing(params, s, w.moves[ply]) if left > 0 and best < beta else 0
    if n == 0:
        stats[LEAVES] += 1
        return best
    mv, child = w.moves[ply], w.stack[ply + 1]
    alpha = max(alpha, best)
    for i in range(n):
        apply(params, s, mv[i], child)
        st = status(params, child)
        if st != ONGOING:
            stats[NODES] += 1
            stats[LEAVES] += 1
            w.pvlen[ply + 1] = 0
            v = terminal_value(st, me, ply + 1)
        elif player(params, child) == me:
            v = quiesce(heur, params, w, ply + 1, left - 1, alpha, beta)
        else:
            v = -quiesce(heur, params, w, ply + 1, left - 1, -beta, -alpha)
        if v > best:
            best = v
            pv_extend(w.pv, w.pvlen, ply, mv[i])
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(inline="always")
def child_value(heur: Heur, params: Params, w: NegamaxArrays, ply: int, depth: int,  # pragma: no cover - compiled
                alpha: float, beta: float, same: bool) -> float:
    """The value for the mover at ``ply`` of the child at ``ply + 1`` searched to ``depth``
    in the window (alpha, beta); ``same``: the same player moves again there."""
    if same:
        return negamax(heur, params, w, ply + 1, depth, alpha, beta)
    return -negamax(heur, params, w, ply + 1, depth, -beta, -alpha)


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
        slot = k & (w.tt_key.shape[0] - 1)
        cut, v, hash_move = tt_probe(w, k, slot, ply, depth, alpha, beta)
        if cut:
            return v
    mv, sc, child, pv = w.moves[ply], w.scores[ply], w.stack[ply + 1], w.pv
    n = legal(params, s, mv)
    if flags & (F_LMR | F_EVAL_ORDER) and depth >= FORCED_DEPTH:  # the last slot holds the count
        w.forced[ply, w.forced.shape[1] - 1] = forcing(params, s, w.forced[ply])
    ordered = score_moves(heur, params, w, s, mv, sc, n, ply, depth, hash_move, slot, flags)
    leaf = depth == 1 and not flags & F_QUIESCE
    picks = 0 if not ordered else (LEAF_PICKS if leaf else PICKS + 1)  # the moves pick_next places (see there)
    alpha0, best, best_move = alpha, -INF, -1
    for i in range(n):
        if i < picks:
            pick_next(mv, sc, i, n, leaf)
        a = mv[i]
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
            if i == 0 or not flags & (F_PVS | F_LMR):  # the first move: the full window
                v = child_value(heur, params, w, ply, depth - 1, alpha, beta, same)
            else:  # the others: a null window (at reduced depth for late moves), re-searched if need be
                # No null window where the child's own moves are leaves: it cuts on the same
                # leaf either way, and a full window spares the re-search when the move is
                # better (Pentago at depth 2: 2,744 nodes a search instead of 3,136).
                narrow = flags & F_PVS and (depth > 2 or flags & F_QUIESCE)
                nb = np.nextafter(alpha, INF) if narrow else beta
                if r > 0:
                    stats[REDUCED] += 1
                    v = child_value(heur, params, w, ply, depth - 1 - r, alpha, nb, same)
                    if v > alpha and not stats[ABORTED]:
                        stats[RESEARCHED] += 1
                        v = child_value(heur, params, w, ply, depth - 1, alpha, nb, same)
                else:
                    v = child_value(heur, params, w, ply, depth - 1, alpha, nb, same)
                if alpha < v < beta and nb < beta and not stats[ABORTED]:
                    stats[RESEARCHED] += 1
                    v = child_value(heur, params, w, ply, depth - 1, alpha, beta, same)
        if stats[ABORTED]:
            return 0.0
        if v > best:
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
    if flags & F_TT:
        tt_store(w, k, slot, ply, depth, best, best_move, alpha0, beta)
    return best


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
        elif player(params, child) == me:
            v = minimax(heur, params, w, ply + 1, depth - 1)
        else:
            v = -minimax(heur, params, w, ply + 1, depth - 1)
        if v > best:
            best = v
            pv_extend(pv, pvlen, ply, a)
    return best


# ---- MCTS (UCT): expansion and rollouts (selection and backpropagation: _parts) ----------
@njit(inline="always")
def expand(params: Params, t: TreeArrays, node: int, depth: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """At a leaf's second visit (the root's first) add all its children, if there is room,
    and step into one at random; (node, depth)."""
    s = t.states[node]
    if status(params, s) != ONGOING or (t.visits[node] == 0 and node != 0):
        return node, depth
    n = legal(params, s, t.moves)
    base = t.stats[TREE_SIZE]
    if base + n > t.states.shape[0]:
        return node, depth
    t.mover[node] = player(params, s)
    for i in range(n):
        c = base + i
        apply(params, s, t.moves[i], t.states[c])
        t.parent[c], t.action[c], t.first[c], t.count[c], t.visits[c], t.wins[c] = node, t.moves[i], -1, 0, 0, 0.0
    t.first[node], t.count[node] = base, n
    t.stats[TREE_SIZE] = base + n
    node = base + np.random.randint(n)
    t.path[depth + 1] = node
    return node, depth + 1


@njit(inline="always")
def greedy_move(heur: Heur, params: Params, t: TreeArrays, s: State, p: int, n: int,  # pragma: no cover - compiled
                a: int, out: State) -> int:
    """The move the heuristic likes best for ``p`` (a win above all; else ``a``), ``out`` as scratch."""
    bestv = -1e300
    for i in range(n):
        apply(params, s, t.moves[i], out)
        cs = status(params, out)
        if cs != ONGOING:
            v = 1e12 * (reward_p0(cs) if p == 0 else 1.0 - reward_p0(cs))
        else:
            v = heur(params, out, p)
        if v > bestv:
            bestv, a = v, t.moves[i]
    return a


@njit(inline="always")
def rollout(heur: Heur, params: Params, t: TreeArrays, node: int) -> float:  # pragma: no cover - compiled
    """Play from ``node`` to the end (or MC_ROLLOUT_DEPTH plies, then ask the heuristic);
    player 0's reward."""
    t.scratch[0, :] = t.states[node]
    cur, plies, limit = 0, 0, t.icfg[MC_ROLLOUT_DEPTH]
    while True:
        s = t.scratch[cur]
        st = status(params, s)
        if st != ONGOING:
            r0 = reward_p0(st)
            break
        if limit >= 0 and plies >= limit:
            r0 = 0.5 + 0.5 * math.tanh(heur(params, s, 0) / t.fcfg[MC_SCALE])
            break
        n = legal(params, s, t.moves)
        a = t.moves[np.random.randint(n)]
        if t.icfg[MC_ROLLOUT] == ROLLOUT_GREEDY and np.random.random() >= t.fcfg[MC_EPSILON]:
            a = greedy_move(heur, params, t, s, player(params, s), n, a, t.scratch[1 - cur])
        apply(params, s, a, t.scratch[1 - cur])
        cur = 1 - cur
        plies += 1
    t.stats[ROLLOUT_PLIES] += plies
    return r0


MCTS = types.void(_H, _P, TREE_ARRAYS)  # heur, params, tree


@njit(MCTS, cache=True)
def mcts(heur: Heur, params: Params, t: TreeArrays) -> None:  # pragma: no cover - compiled
    """Run ``t.icfg[MC_SIMS]`` UCT simulations on the tree held in ``t``; see zerosum.search.mcts."""
    if t.icfg[MC_SEED] != KEEP_SEED:
        np.random.seed(t.icfg[MC_SEED])
    for _ in range(t.icfg[MC_SIMS]):
        node, depth = select(t)
        node, depth = expand(params, t, node, depth)
        t.stats[MAX_DEPTH] = max(t.stats[MAX_DEPTH], depth)
        backpropagate(t, depth, rollout(heur, params, t, node))
        t.stats[SIMULATIONS] += 1
