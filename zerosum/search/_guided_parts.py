"""The game-independent parts of the network-guided search: what calls no rules.

Each lane's generator, the nodes' bookkeeping, the root's preparation (Dirichlet or Gumbel
noise), PUCT's and Gumbel's choice of a child, backing values up, and a search's result.
The compiled template :mod:`zerosum.search._guided_template` (which calls the rules) is
built on them; the entry points here that call no rules at all (:func:`begin`,
:func:`finish`, :func:`set_schedule`) are compiled once, for every game. How a part is
compiled follows :mod:`zerosum.search._parts`.

Values are kept from player 0's side (``w0``, ``raw0``) and turned to the side of whoever
moves at a node (``mover``) when a child is chosen, so no alternation is assumed.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from zerosum.games.kit.kernels import ONGOING, P0_WINS, P1_WINS
from zerosum.search._arrays import GUIDED_ARRAYS, GuidedArrays
from zerosum.search._flags import (
    EVALUATED, G_C_PUCT, G_C_SCALE, G_C_VISIT, G_DIR_ALPHA, G_DIR_FRAC, G_GUMBEL_K, G_NOISE, G_RULE, G_TEMPERATURE,
    RULE_GUMBEL, UNEXPANDED,
)

NO_MOVE = -1
"""The move of a root (and finish's answer where the root has no children)."""


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
    if g.first[lane, 0] == EVALUATED:  # a root the full tree could not expand: evaluated again, expanded now
        g.first[lane, 0] = UNEXPANDED
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


# ---- backing up -----------------------------------------------------------------------------------
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
