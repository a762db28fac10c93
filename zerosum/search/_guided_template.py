"""The compiled network-guided search (PUCT and Gumbel), B trees at once, written once and
specialised per game (the contract: :mod:`zerosum.games.kit.specialize`); the driver is
:mod:`zerosum.search.guided`.

A step of the search is two compiled calls with the evaluator between them:
:func:`select_leaves` walks every lane's tree to leaves, writes each leaf's observation
planes and legal mask into the record's buffers and returns how many there are;
:func:`backup` takes the evaluator's logits and values for them, expands the leaves and
backs the values up. A leaf the rules decide is scored by the rules inside
:func:`select_leaves` and never reaches the evaluator.

Values are kept from player 0's side (``w0``, ``raw0``) and turned to the side of whoever
moves at a node (``mover``) when a child is chosen, so no alternation is assumed.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from zerosum.games.kit.placeholder import KERNELS as _RULES  # RULES: the line specialize rewrites
from zerosum.games.kit.kernels import ONGOING, P0_WINS, P1_WINS, Params, State
from zerosum.search._arrays import GUIDED_ARRAYS, GuidedArrays
from zerosum.search._flags import (
    EVALUATED, G_BATCHES, G_C_PUCT, G_C_SCALE, G_C_VISIT, G_COLLISIONS, G_DIR_ALPHA, G_DIR_FRAC, G_EVALUATIONS,
    G_GUMBEL_K, G_LEAVES, G_MAX_DEPTH, G_NOISE, G_RULE, G_SIMULATIONS, G_TEMPERATURE, G_TERMINALS, RULE_GUMBEL,
    UNEXPANDED,
)

legal, apply, status, player, observe = _RULES.legal, _RULES.apply, _RULES.status, _RULES.player, _RULES.observe

_P = types.Array(types.int64, 1, "C", readonly=True)  # the game's params (read-only)
_F2, _F1 = types.float64[:, ::1], types.float64[::1]
NO_MOVE = -1


# ---- a generator per lane (splitmix64), so a lane's draws never depend on the others ----
@njit(inline="always")
def uniform(g: GuidedArrays, lane: int) -> float:  # pragma: no cover - compiled
    """A draw in [0, 1) from ``lane``'s generator."""
    z = g.rng[lane] + np.uint64(0x9E3779B97F4A7C15)
    g.rng[lane] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit()
def normal(g: GuidedArrays, lane: int) -> float:  # pragma: no cover - compiled
    """A standard normal draw (Box-Muller)."""
    u = 1.0 - uniform(g, lane)
    return math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * uniform(g, lane))


@njit()
def gamma(g: GuidedArrays, lane: int, alpha: float) -> float:  # pragma: no cover - compiled
    """A Gamma(alpha, 1) draw (Marsaglia and Tsang; alpha < 1 through alpha + 1)."""
    boost = 1.0
    if alpha < 1.0:
        boost = (1.0 - uniform(g, lane)) ** (1.0 / alpha)
        alpha += 1.0
    d = alpha - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = normal(g, lane)
        v = (1.0 + c * x) ** 3
        if v <= 0.0:
            continue
        u = 1.0 - uniform(g, lane)
        if math.log(u) < 0.5 * x * x + d - d * v + d * math.log(v):
            return boost * d * v


# ---- nodes --------------------------------------------------------------------------------
@njit(inline="always")
def sign(p: int) -> float:  # pragma: no cover - compiled
    """+1 for player 0, -1 for player 1: a player-0 value times this is the player's."""
    return 1.0 if p == 0 else -1.0


@njit(inline="always")
def terminal_value0(st: int) -> float:  # pragma: no cover - compiled
    """A finished game's value from player 0's side."""
    if st == P0_WINS:
        return 1.0
    if st == P1_WINS:
        return -1.0
    return 0.0


@njit()
def reset_node(g: GuidedArrays, lane: int, i: int, parent: int, a: int) -> None:  # pragma: no cover - compiled
    """Node ``i`` of ``lane`` as a fresh child of ``parent`` by move ``a`` (its state not computed)."""
    g.parent[lane, i], g.action[lane, i], g.first[lane, i], g.count[lane, i] = parent, a, UNEXPANDED, 0
    g.visits[lane, i], g.vloss[lane, i], g.w0[lane, i], g.raw0[lane, i] = 0, 0, 0.0, 0.0
    g.mover[lane, i], g.term[lane, i] = -1, ONGOING


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


@njit(inline="always")
def copy_node(g: GuidedArrays, src_lane: int, src: int, dst_lane: int, dst: int,  # pragma: no cover - compiled
              parent: int) -> None:
    """Copy node ``src`` of ``src_lane`` to ``dst`` of ``dst_lane`` under ``parent`` (children not moved)."""
    g.states[dst_lane, dst, :] = g.states[src_lane, src, :]
    g.parent[dst_lane, dst], g.action[dst_lane, dst] = parent, g.action[src_lane, src]
    g.first[dst_lane, dst], g.count[dst_lane, dst] = g.first[src_lane, src], g.count[src_lane, src]
    g.visits[dst_lane, dst], g.vloss[dst_lane, dst] = g.visits[src_lane, src], 0
    g.w0[dst_lane, dst] = g.w0[src_lane, src]
    g.logit[dst_lane, dst], g.prior[dst_lane, dst] = g.logit[src_lane, src], g.prior[src_lane, src]
    g.raw0[dst_lane, dst], g.mover[dst_lane, dst] = g.raw0[src_lane, src], g.mover[src_lane, src]
    g.term[dst_lane, dst] = g.term[src_lane, src]


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


# ---- the root at the start of a search -------------------------------------------------------
@njit()
def softmax_children(g: GuidedArrays, lane: int, node: int) -> None:  # pragma: no cover - compiled
    """The priors of ``node``'s children: a softmax over their logits."""
    f, n = g.first[lane, node], g.count[lane, node]
    top = -np.inf
    for c in range(f, f + n):
        top = max(top, g.logit[lane, c])
    total = 0.0
    for c in range(f, f + n):
        g.prior[lane, c] = math.exp(g.logit[lane, c] - top)
        total += g.prior[lane, c]
    for c in range(f, f + n):
        g.prior[lane, c] /= total


@njit()
def prepare_root(g: GuidedArrays, lane: int) -> None:  # pragma: no cover - compiled
    """At an expanded root when a search begins: note its children's visits, draw Gumbel noise
    (Gumbel) or mix Dirichlet noise into the priors (PUCT, when asked)."""
    f, n = g.first[lane, 0], g.count[lane, 0]
    softmax_children(g, lane, 0)
    for j in range(n):
        g.start[lane, j] = g.visits[lane, f + j]
    if g.icfg[G_RULE] == RULE_GUMBEL:
        for j in range(n):
            g.gumbel[lane, j] = -math.log(-math.log(1.0 - uniform(g, lane) * (1.0 - 1e-12)))
    elif g.icfg[G_NOISE] and n > 1:
        frac, alpha = g.fcfg[G_DIR_FRAC], g.fcfg[G_DIR_ALPHA]
        total = 0.0
        for j in range(n):
            g.gumbel[lane, j] = gamma(g, lane, alpha)  # the Dirichlet draw, held in the noise row
            total += g.gumbel[lane, j]
        for j in range(n):
            g.prior[lane, f + j] = (1.0 - frac) * g.prior[lane, f + j] + frac * g.gumbel[lane, j] / max(total, 1e-300)


BEGIN = types.void(GUIDED_ARRAYS, types.int64, types.int64)


@njit(BEGIN, cache=True)
def begin(g: GuidedArrays, lane: int, sims: int) -> None:  # pragma: no cover - compiled
    """Set ``lane`` up for a search of ``sims`` simulations."""
    g.remaining[lane] = sims
    for k in range(g.stats.shape[1]):
        g.stats[lane, k] = 0
    if g.first[lane, 0] >= 0:
        prepare_root(g, lane)


# ---- Gumbel's completed Q-values ---------------------------------------------------------------
@njit()
def completed_q(g: GuidedArrays, lane: int, node: int, out: np.ndarray) -> float:  # pragma: no cover - compiled
    """sigma(completed Q) of ``node``'s children into ``out`` (Danihelka et al. 2022): visited
    children's mean values, unvisited ones the mixed value estimate, rescaled to [0, 1] over the
    children and scaled by (c_visit + max visits) * c_scale; returns the max visits."""
    f, n = g.first[lane, node], g.count[lane, node]
    s = sign(g.mover[lane, node])
    sum_n, sum_pq, sum_p, maxn = 0, 0.0, 0.0, 0
    for c in range(f, f + n):
        nc = g.visits[lane, c] + g.vloss[lane, c]
        if nc > 0:
            q = (s * g.w0[lane, c] - g.vloss[lane, c]) / nc
            sum_n += nc
            sum_pq += g.prior[lane, c] * q
            sum_p += g.prior[lane, c]
            maxn = max(maxn, nc)
    raw = s * g.raw0[lane, node]
    vmix = raw if sum_n == 0 else (raw + sum_n * sum_pq / max(sum_p, 1e-12)) / (1.0 + sum_n)
    lo, hi = np.inf, -np.inf
    for j in range(n):
        c = f + j
        nc = g.visits[lane, c] + g.vloss[lane, c]
        out[j] = (s * g.w0[lane, c] - g.vloss[lane, c]) / nc if nc > 0 else vmix
        lo, hi = min(lo, out[j]), max(hi, out[j])
    scale = (g.fcfg[G_C_VISIT] + maxn) * g.fcfg[G_C_SCALE]
    for j in range(n):
        out[j] = scale * ((out[j] - lo) / max(hi - lo, 1e-8))
    return maxn


@njit()
def gumbel_root_choice(g: GuidedArrays, lane: int, sigma: np.ndarray, final: bool) -> int:  # pragma: no cover
    """Gumbel's root: among the children whose visits in this search equal the number sequential
    halving considers now (``final``: the most visited), the best of noise + logit + sigma(q)."""
    f, n = g.first[lane, 0], g.count[lane, 0]
    completed_q(g, lane, 0, sigma)
    done, most = 0, 0
    for j in range(n):
        v = g.visits[lane, f + j] + g.vloss[lane, f + j] - g.start[lane, j]
        done += v
        most = max(most, v)
    m = min(g.icfg[G_GUMBEL_K], n)
    if final:
        want = most
    else:
        want = g.schedule[m, min(done, g.schedule.shape[1] - 1)]
    best, pick, best_any, pick_any = -np.inf, -1, -np.inf, f
    for j in range(n):
        c = f + j
        score = g.gumbel[lane, j] + g.logit[lane, c] + sigma[j]
        if score > best_any:
            best_any, pick_any = score, c
        if g.visits[lane, c] + g.vloss[lane, c] - g.start[lane, j] == want and score > best:
            best, pick = score, c
    return pick if pick >= 0 else pick_any


@njit()
def choose_child(g: GuidedArrays, lane: int, node: int, sigma: np.ndarray) -> int:  # pragma: no cover - compiled
    """The child a simulation descends into: PUCT's score, or Gumbel's (halving at the root,
    the improved policy's deficit below it)."""
    f, n = g.first[lane, node], g.count[lane, node]
    if g.icfg[G_RULE] == RULE_GUMBEL:
        if node == 0:
            return gumbel_root_choice(g, lane, sigma, False)
        completed_q(g, lane, node, sigma)
        top, total_n = -np.inf, 0
        for j in range(n):
            sigma[j] += g.logit[lane, f + j]
            top = max(top, sigma[j])
            total_n += g.visits[lane, f + j] + g.vloss[lane, f + j]
        z = 0.0
        for j in range(n):
            sigma[j] = math.exp(sigma[j] - top)
            z += sigma[j]
        best, pick = -np.inf, f
        for j in range(n):
            c = f + j
            score = sigma[j] / z - (g.visits[lane, c] + g.vloss[lane, c]) / (1.0 + total_n)
            if score > best:
                best, pick = score, c
        return pick
    s = sign(g.mover[lane, node])
    nn = g.visits[lane, node] + g.vloss[lane, node]
    fpu = s * g.w0[lane, node] / g.visits[lane, node] if g.visits[lane, node] > 0 else 0.0
    sq = g.fcfg[G_C_PUCT] * math.sqrt(max(nn, 1))
    best, pick = -np.inf, f
    for c in range(f, f + n):
        nc = g.visits[lane, c] + g.vloss[lane, c]
        q = (s * g.w0[lane, c] - g.vloss[lane, c]) / nc if nc > 0 else fpu
        u = q + sq * g.prior[lane, c] / (1.0 + nc)
        if u > best:
            best, pick = u, c
    return pick


# ---- a step: select leaves, then back up their evaluations ---------------------------------------
@njit(inline="always")
def back_up(g: GuidedArrays, lane: int, node: int, v0: float, pending: bool) -> None:  # pragma: no cover - compiled
    """Add value ``v0`` (player 0's side) to every node from ``node`` to the root; remove the
    virtual loss the path carried if ``pending``."""
    x = node
    while x >= 0:
        g.visits[lane, x] += 1
        g.w0[lane, x] += v0
        if pending:
            g.vloss[lane, x] -= 1
        x = g.parent[lane, x]


@njit(inline="always")
def add_virtual_loss(g: GuidedArrays, lane: int, node: int) -> None:  # pragma: no cover - compiled
    x = node
    while x >= 0:
        g.vloss[lane, x] += 1
        x = g.parent[lane, x]


@njit(inline="always")
def queue_leaf(params: Params, g: GuidedArrays, lane: int, node: int, row: int) -> None:  # pragma: no cover
    """Write ``node``'s planes (from its mover's side) and legal mask into row ``row``."""
    s = g.states[lane, node]
    observe(params, s, g.mover[lane, node], g.obs[row])
    g.mask[row, :] = 0
    n = legal(params, s, g.moves)
    for i in range(n):
        g.mask[row, g.moves[i]] = 1
    g.pend_lane[row], g.pend_node[row] = lane, node
    add_virtual_loss(g, lane, node)


SELECT = types.int64(_P, GUIDED_ARRAYS, types.int64[::1], types.float64[::1])


@njit(SELECT, cache=True)
def select_leaves(params: Params, g: GuidedArrays, lanes: np.ndarray, sigma: np.ndarray) -> int:  # pragma: no cover
    """Walk the trees of ``lanes`` to up to ``leaves`` new leaves each; returns how many leaves wait
    in the buffers. A lane whose root has not been evaluated sends only its root."""
    rows = 0
    leaves = g.icfg[G_LEAVES]
    for lane in lanes:
        if g.first[lane, 0] == UNEXPANDED and g.term[lane, 0] == ONGOING:
            if g.vloss[lane, 0] == 0:
                queue_leaf(params, g, lane, 0, rows)
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
                queue_leaf(params, g, lane, node, rows)
                rows += 1
                got += 1
                g.stats[lane, G_EVALUATIONS] += 1
            g.remaining[lane] -= 1
            g.stats[lane, G_SIMULATIONS] += 1
    return rows


BACKUP = types.void(_P, GUIDED_ARRAYS, types.int64, _F2, _F1)


@njit(BACKUP, cache=True)
def backup(params: Params, g: GuidedArrays, rows: int, logits: np.ndarray,  # pragma: no cover - compiled
           values: np.ndarray) -> None:
    """Expand the ``rows`` pending leaves with the evaluator's ``logits`` (over the game's
    actions) and back up its ``values`` (each from its leaf's mover's side)."""
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


# ---- the result of a search ------------------------------------------------------------------
FINISH = types.int64(GUIDED_ARRAYS, types.int64, types.float64[::1], types.int64[::1], types.float64[::1])


@njit(FINISH, cache=True)
def finish(g: GuidedArrays, lane: int, policy: np.ndarray, visits: np.ndarray,  # pragma: no cover - compiled
           sigma: np.ndarray) -> int:
    """The move to play at ``lane``'s root; ``policy`` and ``visits`` (over the game's actions)
    get the training target and the root children's visits. PUCT: visits with the
    temperature, the target the visit distribution; Gumbel: the halving's winner, the target
    softmax(logits + sigma(completed Q))."""
    f, n = g.first[lane, 0], g.count[lane, 0]
    policy[:] = 0.0
    visits[:] = 0
    if f < 0:
        return NO_MOVE
    total = 0
    for c in range(f, f + n):
        visits[g.action[lane, c]] = g.visits[lane, c]
        total += g.visits[lane, c]
    if g.icfg[G_RULE] == RULE_GUMBEL:
        pick = gumbel_root_choice(g, lane, sigma, True)
        completed_q(g, lane, 0, sigma)
        top = -np.inf
        for j in range(n):
            sigma[j] += g.logit[lane, f + j]
            top = max(top, sigma[j])
        z = 0.0
        for j in range(n):
            z += math.exp(sigma[j] - top)
        for j in range(n):
            policy[g.action[lane, f + j]] = math.exp(sigma[j] - top) / z
        return g.action[lane, pick]
    for c in range(f, f + n):
        policy[g.action[lane, c]] = g.visits[lane, c] / total if total > 0 else g.prior[lane, c]
    t = g.fcfg[G_TEMPERATURE]
    best, pick = -1.0, f
    if t <= 0.0:
        for c in range(f, f + n):  # the most visited; ties to the higher prior
            key = g.visits[lane, c] + 0.5 * g.prior[lane, c]
            if key > best:
                best, pick = key, c
        return g.action[lane, pick]
    z = 0.0
    for c in range(f, f + n):
        z += (g.visits[lane, c] / max(total, 1)) ** (1.0 / t)
    if z <= 0.0:
        return g.action[lane, f]
    u = uniform(g, lane) * z
    for c in range(f, f + n):
        u -= (g.visits[lane, c] / max(total, 1)) ** (1.0 / t)
        if u <= 0.0:
            return g.action[lane, c]
    return g.action[lane, f + n - 1]


@njit(types.void(GUIDED_ARRAYS, types.int64[:, ::1]), cache=True)
def set_schedule(g: GuidedArrays, table: np.ndarray) -> None:  # pragma: no cover - compiled
    """Make ``table`` the record's halving plan (Gumbel; see zerosum.search.guided.halving_schedule)."""
    g.schedule = table


SET_ROOT = types.void(_P, GUIDED_ARRAYS, types.int64, types.int64[::1])


@njit(SET_ROOT, cache=True)
def set_root_entry(params: Params, g: GuidedArrays, lane: int, state: State) -> None:  # pragma: no cover
    """:func:`set_root`, callable from Python."""
    set_root(params, g, lane, state)

