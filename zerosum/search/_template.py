"""The compiled search kernels, written once and specialised per game.

A template in the sense of :mod:`zerosum.games.kit.specialize` (the contract is there):
:mod:`zerosum.search.compiled` has it copied for each game with the rules line importing
that game's kernels, so the rules are inlined and the copy is cached on disk. Heuristics
stay first-class function arguments, so any compiled or Python heuristic runs in the
same cached search. Against the placeholder rules this file is a working search itself.
"""

import math

import numpy as np
from numba import njit, types

from zerosum.games.kit.placeholder import KERNELS as _RULES  # RULES: the line specialize rewrites
from zerosum.games.kit.kernels import HEURISTIC, ONGOING, P0_WINS, P1_WINS
from zerosum.search._flags import (
    ABORTED, C_FLAGS, C_GEN, C_HIST_MODE, C_NODE_LIMIT, C_SEEDED, CUTOFFS, EXACT, F_HINT, F_HISTORY,
    F_KILLERS, F_TT, F_TT_MOVE, HITS, INF, LEAVES, LOWER, NODES, PROBES, UPPER,
)
from zerosum.search.result import WIN, WIN_BOUND

legal, apply, status, player, key, order = (
    _RULES.legal, _RULES.apply, _RULES.status, _RULES.player, _RULES.key, _RULES.order)

# ---- alpha-beta -------------------------------------------------------------------------
_TT_FIRST, _HINT_W, _KILLER = 1e30, 1e20, 1e15
_HISTORY_CAP = 1e14

_H = types.FunctionType(HEURISTIC)
_I1, _I2 = types.int64[::1], types.int64[:, ::1]
_P = types.Array(types.int64, 1, "C", readonly=True)  # the game's params (read-only)
_D1, _D2 = types.float64[::1], types.float64[:, ::1]
NEGAMAX = types.float64(
    _H, _P,              # heuristic, params
    _I2, _I2, _D2,       # state stack, move lists, move scores (one row per ply)
    _I2, _I1,            # triangular PV table and lengths
    _I1, _D1, _I1, _I1,  # TT: key, value, move, meta (depth | bound << 8 | generation << 16)
    _I2, _D1, _D1,       # killers (2 per ply), history (per action), root noise (per action)
    _I1, _I1,            # cfg, stats
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
def terminal_value(st, me, ply):
    """Value of a finished game for player ``me``, scored by distance from the root."""
    if st == P0_WINS:
        return WIN - ply if me == 0 else -(WIN - ply)
    if st == P1_WINS:
        return WIN - ply if me == 1 else -(WIN - ply)
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


_PICKS = 4  # moves chosen by selection before the rest is sorted


@njit(types.void(_I1, _D1, types.int64, types.int64), cache=True)
def _sort_desc(mv, sc, lo, hi):
    """Sort mv[lo:hi] by sc[lo:hi], highest first (stable, so ties keep generation order)."""
    order = np.argsort(-sc[lo:hi], kind="mergesort")
    mv_part = mv[lo:hi].copy()
    sc_part = sc[lo:hi].copy()
    for t in range(hi - lo):
        mv[lo + t] = mv_part[order[t]]
        sc[lo + t] = sc_part[order[t]]


@njit(NEGAMAX, cache=True)
def negamax(heur, params, stack, moves, scores, pv, pvlen, tt_key, tt_val, tt_move, tt_meta,
            killers, history, noise, cfg, stats, ply, depth, alpha, beta):  # pragma: no cover
    """Fail-soft negamax alpha-beta from stack[ply]; see zerosum.search.alphabeta."""
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
        # Random tie-breaking: the root follows this search's own best move of the previous
        # iteration, then a seeded random order. A TT move left by an earlier search is not
        # followed: it would make a reused engine replay the same game whatever its seed.
        fresh = flags & F_TT and hash_move >= 0 and (tt_meta[slot] >> 16) == cfg[C_GEN]
        for i in range(n):
            sc[i] = noise[mv[i]] + (_TT_FIRST if fresh and mv[i] == hash_move else 0.0)
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
        if ordered:
            if i < _PICKS:  # pick the best remaining move: cheap when a cutoff comes early
                j = i
                for t in range(i + 1, n):
                    if sc[t] > sc[j]:
                        j = t
                if j != i:
                    mv[i], mv[j] = mv[j], mv[i]
                    sc[i], sc[j] = sc[j], sc[i]
            elif i == _PICKS:  # no cutoff yet: sort the rest once
                _sort_desc(mv, sc, i, n)
        a = mv[i]
        apply(params, s, a, child)
        st = status(params, child)
        if st != ONGOING:
            stats[NODES] += 1
            stats[LEAVES] += 1
            pvlen[ply + 1] = 0
            v = terminal_value(st, me, ply + 1)
        elif depth == 1:  # a leaf: evaluate it here rather than in a call of its own
            stats[NODES] += 1
            stats[LEAVES] += 1
            pvlen[ply + 1] = 0
            cp = player(params, child)
            v = heur(params, child, cp)
            if cp != me:
                v = -v
        elif player(params, child) == me:  # the same player moves again
            v = negamax(heur, params, stack, moves, scores, pv, pvlen, tt_key, tt_val, tt_move,
                        tt_meta, killers, history, noise, cfg, stats, ply + 1, depth - 1, alpha, beta)
        else:
            v = -negamax(heur, params, stack, moves, scores, pv, pvlen, tt_key, tt_val, tt_move,
                         tt_meta, killers, history, noise, cfg, stats, ply + 1, depth - 1, -beta, -alpha)
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


# ---- minimax (the reference: no pruning, exact node count) ---------------------------------
MINIMAX = types.float64(_H, _P, _I2, _I2, _I2, _I1, _I1, types.int64, types.int64)


@njit(MINIMAX, cache=True)
def minimax(heur, params, stack, moves, pv, pvlen, stats, ply, depth):  # pragma: no cover
    """Full-width negamax from stack[ply]; stats = [nodes, leaves]."""
    s = stack[ply]
    stats[0] += 1
    pvlen[ply] = 0
    me = player(params, s)
    if depth <= 0:
        stats[1] += 1
        return heur(params, s, me)
    n = legal(params, s, moves[ply])
    child = stack[ply + 1]
    best = -INF
    for i in range(n):
        a = moves[ply, i]
        apply(params, s, a, child)
        st = status(params, child)
        if st != ONGOING:
            stats[0] += 1
            stats[1] += 1
            pvlen[ply + 1] = 0
            v = terminal_value(st, me, ply + 1)
        elif player(params, child) == me:
            v = minimax(heur, params, stack, moves, pv, pvlen, stats, ply + 1, depth - 1)
        else:
            v = -minimax(heur, params, stack, moves, pv, pvlen, stats, ply + 1, depth - 1)
        if v > best:
            best = v
            pv[ply, ply] = a
            for t in range(pvlen[ply + 1]):
                pv[ply, ply + 1 + t] = pv[ply + 1, ply + 1 + t]
            pvlen[ply] = pvlen[ply + 1] + 1
    return best


# ---- MCTS (UCT) ------------------------------------------------------------------------------
MCTS = types.void(
    _H, _P,
    _I2, _I1, _I1, _I1, _I1, _I1, _D1, _I1,  # states, parent, action, first, count, visits, wins, mover
    _I2, _I1, _I1, _I1,                      # scratch states, moves buffer, path, cfg ints
    _D1, _I1,                                # cfg floats, stats
)
# cfg ints: sims, rollout mode (0 random, 1 greedy), rollout depth (-1 = to the end), seed (-1 = keep)
# cfg floats: c_uct, epsilon, heuristic scale
# stats: tree size, simulations done, rollout plies, max depth


@njit(types.float64(types.int64), cache=True)
def reward_p0(st):
    """Player 0's reward for a finished game: 1 win, 0.5 draw, 0 loss."""
    if st == P0_WINS:
        return 1.0
    if st == P1_WINS:
        return 0.0
    return 0.5


@njit(MCTS, cache=True)
def mcts(heur, params, states, parent, action, first, count, visits, wins, mover, scratch, moves,
         path, icfg, fcfg, stats):  # pragma: no cover
    """Run icfg[0] UCT simulations on the tree held in the arrays; see zerosum.search.mcts."""
    if icfg[3] >= 0:
        np.random.seed(icfg[3])
    c_uct, eps, scale = fcfg[0], fcfg[1], fcfg[2]
    capacity = states.shape[0]
    for _ in range(icfg[0]):
        node = 0
        depth = 0
        path[0] = 0
        # selection: descend through expanded nodes by UCT, unvisited children first
        while first[node] >= 0:
            best = -1.0
            pick = first[node]
            logn = math.log(visits[node] + 1.0)
            for c in range(first[node], first[node] + count[node]):
                if visits[c] == 0:
                    u = 1e9 + np.random.random()
                else:
                    u = wins[c] / visits[c] + c_uct * math.sqrt(logn / visits[c])
                if u > best:
                    best = u
                    pick = c
            node = pick
            depth += 1
            path[depth] = node
        # expansion at a leaf's second visit (the root's first): all children, if there is room
        st = status(params, states[node])
        if st == ONGOING and (visits[node] > 0 or node == 0):
            n = legal(params, states[node], moves)
            if stats[0] + n <= capacity:
                base = stats[0]
                mover[node] = player(params, states[node])
                for i in range(n):
                    c = base + i
                    apply(params, states[node], moves[i], states[c])
                    parent[c] = node
                    action[c] = moves[i]
                    first[c] = -1
                    count[c] = 0
                    visits[c] = 0
                    wins[c] = 0.0
                first[node] = base
                count[node] = n
                stats[0] = base + n
                node = base + np.random.randint(n)
                depth += 1
                path[depth] = node
        if depth > stats[3]:
            stats[3] = depth
        # rollout from node
        for t in range(states.shape[1]):
            scratch[0, t] = states[node, t]
        cur = 0
        plies = 0
        r0 = 0.5
        while True:
            s = scratch[cur]
            st = status(params, s)
            if st != ONGOING:
                r0 = reward_p0(st)
                break
            if icfg[2] >= 0 and plies >= icfg[2]:
                r0 = 0.5 + 0.5 * math.tanh(heur(params, s, 0) / scale)
                break
            n = legal(params, s, moves)
            a = moves[np.random.randint(n)]
            if icfg[1] == 1 and np.random.random() >= eps:
                p = player(params, s)
                bestv = -1e300
                for i in range(n):
                    apply(params, s, moves[i], scratch[1 - cur])
                    cs = status(params, scratch[1 - cur])
                    if cs != ONGOING:
                        v = 1e12 * (reward_p0(cs) if p == 0 else 1.0 - reward_p0(cs))
                    else:
                        v = heur(params, scratch[1 - cur], p)
                    if v > bestv:
                        bestv = v
                        a = moves[i]
            apply(params, s, a, scratch[1 - cur])
            cur = 1 - cur
            plies += 1
        stats[2] += plies
        # backpropagation: credit each node to the player who chose the move into it
        for k in range(depth, -1, -1):
            nd = path[k]
            visits[nd] += 1
            if k > 0:
                wins[nd] += r0 if mover[path[k - 1]] == 0 else 1.0 - r0
        stats[1] += 1


# ---- random playouts (batch, for benchmarks and rollout-heavy users) ------------------------
@njit(types.int64(_P, _I1, types.int64, types.int64, _I1), cache=True)
def random_playouts(params, root, games, seed, results):  # pragma: no cover
    """Play ``games`` uniformly random games from root; results[status] counts outcomes.

    Returns the number of moves played.
    """
    np.random.seed(seed)
    a_buf = np.empty((2, root.shape[0]), np.int64)
    moves_buf = np.empty(4096, np.int64)
    total = 0
    for _ in range(games):
        for t in range(root.shape[0]):
            a_buf[0, t] = root[t]
        cur = 0
        while True:
            st = status(params, a_buf[cur])
            if st != ONGOING:
                results[st] += 1
                break
            n = legal(params, a_buf[cur], moves_buf)
            apply(params, a_buf[cur], moves_buf[np.random.randint(n)], a_buf[1 - cur])
            cur = 1 - cur
            total += 1
    return total
