"""The compiled network-guided search (PUCT and Gumbel), B trees at once: the parts that call
the rules, written once and specialised per game (the contract:
:mod:`zerosum.games.kit.specialize`); the rest is :mod:`zerosum.search._guided_parts`, the
driver :mod:`zerosum.search.guided`.

A step of the search is two compiled calls with the evaluator between them:
:func:`select_leaves` walks every lane's tree to leaves, writes each leaf's observation
planes and legal mask into the record's buffers and returns how many there are;
:func:`backup` takes the evaluator's logits and values for them, expands the leaves and
backs the values up. A leaf the rules decide is scored by the rules inside
:func:`select_leaves` and never reaches the evaluator.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from zerosum.games.kit.placeholder import KERNELS as _RULES  # RULES: the line specialize rewrites
from zerosum.games.kit.kernels import ONGOING, Params, State
from zerosum.search._arrays import GUIDED_ARRAYS, GuidedArrays
from zerosum.search._flags import (
    EVALUATED, G_BATCHES, G_COLLISIONS, G_EVALUATIONS, G_LEAVES, G_MAX_DEPTH, G_SIMULATIONS, G_TERMINALS, UNEXPANDED,
)
from zerosum.search._guided_parts import (
    NO_MOVE, add_virtual_loss, back_up, choose_child, copy_node, prepare_root, reset_node, sign, softmax_children,
    terminal_value0,
)

legal, apply, status, player, observe = _RULES.legal, _RULES.apply, _RULES.status, _RULES.player, _RULES.observe

_P = types.Array(types.int64, 1, "C", readonly=True)  # the game's params (read-only)
_F2, _F1 = types.float64[:, ::1], types.float64[::1]


@njit()
def set_root(params: Params, g: GuidedArrays, lane: int, state: State) -> None:  # pragma: no cover - compiled
    """Start ``lane``'s tree afresh at ``state``."""
    reset_node(g, lane, 0, -1, NO_MOVE)
    g.states[lane, 0, :] = state
    g.term[lane, 0] = status(params, g.states[lane, 0])
    g.mover[lane, 0] = player(params, g.states[lane, 0])
    g.size[lane] = 1


@njit(inline="always")
def reach(params: Params, g: GuidedArrays, lane: int, i: int) -> None:  # pragma: no cover - compiled
    """Compute node ``i``'s state, status and mover if not yet done."""
    if g.mover[lane, i] < 0:
        s = g.states[lane, i]
        apply(params, g.states[lane, g.parent[lane, i]], g.action[lane, i], s)
        st = status(params, s)
        g.term[lane, i] = st
        g.mover[lane, i] = player(params, s) if st == ONGOING else 0


ADVANCE = types.void(_P, GUIDED_ARRAYS, types.int64, types.int64)


@njit(ADVANCE, cache=True)
def advance(params: Params, g: GuidedArrays, lane: int, a: int) -> None:  # pragma: no cover - compiled
    """Play ``a`` at ``lane``'s root: the subtree under it becomes the tree (moved to the front
    of the lane's nodes, breadth first), or the tree restarts at the child if it has no subtree."""
    child = -1
    if g.first[lane, 0] >= 0:
        for c in range(g.first[lane, 0], g.first[lane, 0] + g.count[lane, 0]):
            if g.action[lane, c] == a:
                child = c
    if child < 0 or g.mover[lane, child] < 0:
        scratch = g.states.shape[0] - 1
        apply(params, g.states[lane, 0], a, g.states[scratch, 0])
        set_root(params, g, lane, g.states[scratch, 0].copy())
        return
    tmp = g.states.shape[0] - 1  # the scratch lane
    copy_node(g, lane, child, tmp, 0, -1)
    g.work[0] = child
    head, tail = 0, 1
    while head < tail:
        src = g.work[head]
        if g.first[lane, src] >= 0:
            n, f = g.count[lane, src], g.first[lane, src]
            g.first[tmp, head] = tail
            for j in range(n):
                copy_node(g, lane, f + j, tmp, tail + j, head)
                g.work[tail + j] = f + j
            tail += n
        head += 1
    for i in range(tail):
        copy_node(g, tmp, i, lane, i, g.parent[tmp, i])
    g.size[lane] = tail


@njit(inline="always")
def queue_leaf(params: Params, g: GuidedArrays, lane: int, node: int, row: int) -> int:  # pragma: no cover
    """Write ``node``'s planes (from its mover's side) and legal mask into row ``row``; 0, or the
    count of a legal kernel that listed more than max_moves (the buffer had room:
    zerosum.games.kit.movebuf; nothing is queued and the search stops)."""
    s = g.states[lane, node]
    n = legal(params, s, g.moves)
    if n > g.moves.shape[0]:
        return n
    observe(params, s, g.mover[lane, node], g.obs[row])
    g.mask[row, :] = 0
    for i in range(n):
        g.mask[row, g.moves[i]] = 1
    g.pend_lane[row], g.pend_node[row] = lane, node
    add_virtual_loss(g, lane, node)
    return 0


SELECT = types.int64(_P, GUIDED_ARRAYS, types.int64[::1], types.float64[::1])


@njit(SELECT, cache=True)
def select_leaves(params: Params, g: GuidedArrays, lanes: np.ndarray, sigma: np.ndarray) -> int:  # pragma: no cover
    """Walk the trees of ``lanes`` to up to ``leaves`` new leaves each; returns how many leaves wait
    in the buffers (minus the count of a legal kernel that listed more than max_moves: the
    driver raises). A lane whose root has not been evaluated sends only its root."""
    rows = 0
    leaves = g.icfg[G_LEAVES]
    for lane in lanes:
        if g.first[lane, 0] == UNEXPANDED and g.term[lane, 0] == ONGOING:
            if g.vloss[lane, 0] == 0:
                over = queue_leaf(params, g, lane, 0, rows)
                if over:
                    return -over
                rows += 1
                g.stats[lane, G_EVALUATIONS] += 1
            continue
        got = 0
        while g.remaining[lane] > 0 and got < leaves:
            node, depth = 0, 0
            while g.first[lane, node] >= 0:
                node = choose_child(g, lane, node, sigma)
                depth += 1
                reach(params, g, lane, node)
            g.stats[lane, G_MAX_DEPTH] = max(g.stats[lane, G_MAX_DEPTH], depth)
            if g.term[lane, node] != ONGOING:
                back_up(g, lane, node, terminal_value0(g.term[lane, node]), False)
                g.stats[lane, G_TERMINALS] += 1
            elif g.first[lane, node] == EVALUATED:
                back_up(g, lane, node, g.raw0[lane, node], False)
            elif g.vloss[lane, node] > 0:
                g.stats[lane, G_COLLISIONS] += 1  # another leaf of this step: wait for its value
                break
            else:
                over = queue_leaf(params, g, lane, node, rows)
                if over:
                    return -over
                rows += 1
                got += 1
                g.stats[lane, G_EVALUATIONS] += 1
            g.remaining[lane] -= 1
            g.stats[lane, G_SIMULATIONS] += 1
    return rows


BACKUP = types.int64(_P, GUIDED_ARRAYS, types.int64, _F2, _F1)


@njit(BACKUP, cache=True)
def backup(params: Params, g: GuidedArrays, rows: int, logits: np.ndarray,  # pragma: no cover - compiled
           values: np.ndarray) -> int:
    """Expand the ``rows`` pending leaves with the evaluator's ``logits`` (over the game's
    actions) and back up its ``values`` (each from its leaf's mover's side). Returns -1, or
    changing nothing, the first row whose value is not a number in [-1, 1] or whose legal
    moves' logits are not all finite."""
    for r in range(rows):
        if not abs(values[r]) <= 1.0:
            return r
        n = legal(params, g.states[g.pend_lane[r], g.pend_node[r]], g.moves)
        for j in range(n):
            if not math.isfinite(logits[r, g.moves[j]]):
                return r
    for r in range(rows):
        lane, node = g.pend_lane[r], g.pend_node[r]
        if r == 0 or g.pend_lane[r - 1] != lane:  # a lane's leaves are consecutive rows
            g.stats[lane, G_BATCHES] += 1
        v0 = sign(g.mover[lane, node]) * values[r]
        g.raw0[lane, node] = v0
        n = legal(params, g.states[lane, node], g.moves)
        base = g.size[lane]
        if base + n <= g.states.shape[1]:
            for j in range(n):
                reset_node(g, lane, base + j, node, g.moves[j])
                g.logit[lane, base + j] = logits[r, g.moves[j]]
            g.first[lane, node], g.count[lane, node] = base, n
            g.size[lane] = base + n
            softmax_children(g, lane, node)
            if node == 0:
                prepare_root(g, lane)
        else:
            g.first[lane, node] = EVALUATED
        back_up(g, lane, node, v0, True)
    return -1


SET_ROOT = types.void(_P, GUIDED_ARRAYS, types.int64, types.int64[::1])


@njit(SET_ROOT, cache=True)
def set_root_entry(params: Params, g: GuidedArrays, lane: int, state: State) -> None:  # pragma: no cover
    """:func:`set_root`, callable from Python."""
    set_root(params, g, lane, state)
