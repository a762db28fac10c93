"""The vector environments' compiled step: every lane, the learner's move and the opponent's
replies, in one call; written once and specialised per game.

A template in the sense of :mod:`zerosum.games.kit.specialize` (the contract is there):
:mod:`zerosum.envs.vector` has it copied for each game with the rules line importing that
game's kernels, so the rules are inlined. The alpha-beta opponent is the compiled search of
:mod:`zerosum.search._template`, specialised for the same game, driven here as
:class:`zerosum.search.alphabeta.AlphaBeta` drives it under a depth budget (iterative
deepening, aspiration windows, the seeded root's tie-breaking), so it chooses the moves the
Python searcher chooses from the same noise.

A lane is one game. Its arrays (rows of the driver's numpy arrays, shared with it):
``states`` the position, ``learner`` the learner's seat, ``comp`` the opponent of this
episode (a row of the opponent table), ``done`` finished and not restarted, ``pending``
waiting for a Python opponent's move (the driver asks the agent for all such lanes in one
call and hands the moves to :func:`vec_resume`), ``restart`` finished this step in
same-step mode (restarted at the end of the call), ``sym`` the board symmetry the learner
sees this episode under (a row of ``sym_obs``/``sym_act``/``sym_inv``, 0 where the env has
none), ``opened`` the random opening ply of this episode (-1: none). Opponent table rows (``opp``):
``[kind, record, depth, iterative, aspiration, tie_break, follow_tt, tt_slots]``; ``eps``
the chance of a random move instead; ``cum`` the cumulative weights of the mixture.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from zerosum.games.kit.placeholder import KERNELS as _RULES  # RULES: the line specialize rewrites
from zerosum.games.kit.kernels import ONGOING, P0_WINS, P1_WINS, F64Array, I8Array, I64Array, Params, State
from zerosum.games.kit.specialize import specialize
from zerosum.envs._vector_codes import (
    RANDOM, PYTHON, K_KIND, K_REC, K_DEPTH, K_ITERATIVE, K_ASPIRATION, K_TIE_BREAK, K_FOLLOW, K_SLOTS,
    NO_TIES, DRAW_NOISE, C_SEAT, C_AUTORESET, C_RAW, C_OBS, C_FLAT, C_NSYM, F_PENALTY,
    F_OPENING, SEAT_RANDOM, SEAT_ALTERNATE, SAME_STEP, DISABLED, ERR_NONE, ERR_ILLEGAL, ERR_NOT_RESET,
    ERR_NO_MOVE, ERR_OPP_ILLEGAL, ERR_MOVES, OVER_MAX_MOVES,
    OUT_NONE, OUT_WIN, OUT_DRAW, OUT_LOSS, OUT_ILLEGAL, NEW_EPISODE, CALL_STEP,
    CALL_RESET, CALL_RESUME,
)
from zerosum.search import _template as _search_template  # noqa: F401 - its source is part of this copy's hash
from zerosum.search._arrays import unowned
from zerosum.games.kit.movebuf import LEGAL_KERNEL
from zerosum.search._flags import (
    C_GEN, C_NODE_LIMIT, C_ROOT_FIRST, C_SEEDED, C_TT_SLOTS, INF, MOVES_KERNEL, MOVES_OVER, NO_LIMIT,
)
from zerosum.search.alphabeta import ASPIRATION_DEPTH, ASPIRATION_TRIES, ASPIRATION_WIDTH
from zerosum.search.compiled import TEMPLATE as _SEARCH_TEMPLATE
from zerosum.search.result import WIN_BOUND

legal, apply, status, player, observe = _RULES.legal, _RULES.apply, _RULES.status, _RULES.player, _RULES.observe
negamax_root = specialize(_SEARCH_TEMPLATE, _RULES).negamax_root



@njit(cache=True)
def ab_choose(params: Params, w: Any, s: State, depth: int, iterative: int, aspiration: int,  # pragma: no cover
              tie_break: int, follow: int, slots: int) -> int:
    """Alpha-beta's move in ``s`` to ``depth``: AlphaBeta.search's iterative deepening and
    aspiration windows over the same compiled negamax, root ties broken by the record's
    noise (drawn here with DRAW_NOISE, used as given with GIVEN_NOISE)."""
    w.stack[0, :] = s
    w.cfg[C_GEN] += 1
    w.killers[:, :] = -1
    if tie_break == DRAW_NOISE:
        for a in range(w.noise.shape[0]):
            w.noise[a] = np.random.random()
    elif tie_break == NO_TIES:
        w.noise[:] = 0.0
    if tie_break != NO_TIES:
        w.root_values[:] = 0.0
    w.cfg[C_SEEDED] = 1 if tie_break != NO_TIES else 0
    w.cfg[C_TT_SLOTS] = slots
    w.cfg[C_NODE_LIMIT] = NO_LIMIT
    have, last, prev, iterations, best = False, 0.0, 0.0, 0, -1
    for d in range(1 if iterative else depth, depth + 1):
        w.stats[:] = 0
        w.cfg[C_ROOT_FIRST] = best if have and follow else -1
        if aspiration and d >= ASPIRATION_DEPTH and have and abs(last) < WIN_BOUND:
            width = max(ASPIRATION_WIDTH, abs(last - prev) if iterations > 1 else 0.0)
            lo, hi = last - width, last + width
            value, inside = 0.0, False
            for _ in range(ASPIRATION_TRIES):
                value = negamax_root(params, w, d, lo, hi)
                if w.stats[MOVES_OVER]:
                    return OVER_MAX_MOVES
                if lo < value < hi:
                    inside = True
                    break
                width *= 4.0
                if value <= lo:
                    lo = -INF if abs(value) >= WIN_BOUND else value - width
                else:
                    hi = INF if abs(value) >= WIN_BOUND else value + width
                    if follow:
                        w.cfg[C_ROOT_FIRST] = w.pv[0, 0]
            if not inside:
                value = negamax_root(params, w, d, -INF, INF)
        else:
            value = negamax_root(params, w, d, -INF, INF)
        if w.stats[MOVES_OVER]:  # a moves kernel listed more than max_moves: the record says which
            return OVER_MAX_MOVES
        prev, last, iterations, have = last, value, iterations + 1, True
        best = w.pv[0, 0]
        if abs(value) >= WIN_BOUND:
            break
    return best


@njit(inline="always")
def too_many(n: int, moves: I64Array, err: I64Array, i: int) -> int:  # pragma: no cover - compiled
    """``n``, or ``max_moves`` (``moves``' length) with the error recorded for lane ``i`` when the
    legal kernel listed more (the buffer had room: zerosum.games.kit.movebuf; the driver raises
    after the call)."""
    if n > moves.shape[0]:
        err[0], err[1], err[2], err[3] = ERR_MOVES, i, n, LEGAL_KERNEL
        width: int = moves.shape[0]
        return width
    return n


@njit(inline="always")
def random_move(params: Params, s: State, moves: I64Array, err: I64Array, i: int) -> int:  # pragma: no cover
    """A uniformly random legal move in ``s`` (lane ``i``)."""
    n = too_many(legal(params, s, moves), moves, err, i)
    a: int = moves[np.random.randint(n)]
    return a


@njit(inline="always")
def opponent_move(params: Params, s: State, k: int, opp: I64Array, eps: F64Array, records: Any,  # pragma: no cover
                  moves: I64Array, err: I64Array, i: int) -> int:
    """The compiled opponent ``k``'s move in ``s`` (-1: a Python opponent must answer; OVER_MAX_MOVES:
    a moves kernel listed more than max_moves, recorded in ``err`` for lane ``i``)."""
    kind = opp[k, K_KIND]
    if kind == PYTHON:
        return -1
    if kind == RANDOM or (eps[k] > 0.0 and np.random.random() < eps[k]):
        return random_move(params, s, moves, err, i)
    w = records[opp[k, K_REC]]
    a = ab_choose(params, w, s, opp[k, K_DEPTH], opp[k, K_ITERATIVE], opp[k, K_ASPIRATION],
                  opp[k, K_TIE_BREAK], opp[k, K_FOLLOW], opp[k, K_SLOTS])
    if a == OVER_MAX_MOVES:
        err[0], err[1], err[2], err[3] = ERR_MOVES, i, w.stats[MOVES_OVER], w.stats[MOVES_KERNEL]
    return a


@njit(inline="always")
def log_move(log: I64Array, count: I64Array, i: int, a: int) -> None:  # pragma: no cover - compiled
    c = count[i]
    if c < log.shape[1]:
        log[i, c] = a
    count[i] = c + 1


@njit(inline="always")
def write_obs(params: Params, i: int, s: State, learner: int, live: bool, cfg: I64Array,  # pragma: no cover
              masks: I8Array, flat: Any, planes: I8Array, buf: I8Array, moves: I64Array, k: int, sym_obs: I64Array,
              sym_act: I64Array, err: I64Array) -> None:
    """Lane i's observation for its learner: planes and mask (all zeros unless ``live``), seen
    under board symmetry ``k`` where the env has symmetries."""
    masks[i, :] = 0
    mapped = cfg[C_NSYM] > 1  # each loop kept apart: the plain one as fast as without symmetries
    if live:
        n = too_many(legal(params, s, moves), moves, err, i)
        if mapped:
            for j in range(n):
                masks[i, sym_act[k, moves[j]]] = 1
        else:
            for j in range(n):
                masks[i, moves[j]] = 1
    buf[:] = 0
    observe(params, s, learner, buf)
    no = cfg[C_OBS]
    if mapped:
        for j in range(no):
            if cfg[C_FLAT]:
                flat[i, j] = buf[sym_obs[k, j]]
            else:
                planes[i, j] = buf[sym_obs[k, j]]
    elif cfg[C_FLAT]:
        for j in range(no):
            flat[i, j] = buf[j]
    else:
        planes[i, :] = buf
    if cfg[C_FLAT]:
        for j in range(masks.shape[1]):
            flat[i, no + j] = masks[i, j]


@njit(inline="always")
def start_episode(params: Params, initial: I64Array, i: int, states: I64Array, learner: I64Array,  # pragma: no cover
                  comp: I64Array, done: Any, opening: Any, cfg: I64Array, fcfg: F64Array, cum: F64Array,
                  log: I64Array, count: I64Array, sym: I64Array, opened: I64Array, moves: I64Array,
                  child: I64Array, err: I64Array) -> None:
    """Lane i starts a game: the start position (after one random ply with chance
    ``fcfg[F_OPENING]``), this episode's seat, opponent and board symmetry."""
    states[i, :] = initial
    seat = cfg[C_SEAT]
    if seat == SEAT_RANDOM:
        learner[i] = np.random.randint(2)
    elif seat == SEAT_ALTERNATE:
        learner[i] = 1 - learner[i]
    else:
        learner[i] = seat
    k = 0
    if cum.shape[0] > 1:
        r = np.random.random() * cum[cum.shape[0] - 1]
        while k < cum.shape[0] - 1 and r >= cum[k]:
            k += 1
    comp[i] = k
    done[i] = False
    opening[i] = True
    log_move(log, count, i, NEW_EPISODE)
    opened[i] = -1
    if fcfg[F_OPENING] > 0.0 and np.random.random() < fcfg[F_OPENING]:
        a = random_move(params, states[i], moves, err, i)
        apply(params, states[i], a, child)
        states[i, :] = child
        opened[i] = a
    sym[i] = np.random.randint(cfg[C_NSYM]) if cfg[C_NSYM] > 1 else 0


@njit(inline="always")
def advance(params: Params, i: int, states: I64Array, learner: I64Array, comp: I64Array, done: Any,  # pragma: no cover
            pending: Any, restart: Any, opening: Any, ended: Any, masks: I8Array, flat: Any, planes: I8Array,
            rewards: F64Array, terminated: Any, outcome: I64Array, opp: I64Array, eps: F64Array, records: Any,
            cfg: I64Array, moves: I64Array, buf: I8Array, child: I64Array, log: I64Array, count: I64Array,
            err: I64Array, sym: I64Array, sym_obs: I64Array, sym_act: I64Array) -> None:
    """Lane i after a move: the opponent replies until the learner is to move (its observation
    is written), a Python opponent must answer (pending), or the game is over (finished; an
    error where the learner has not moved yet in this episode)."""
    s = states[i]
    while True:
        st = status(params, s)
        if st != ONGOING and opening[i]:
            err[0], err[1], err[2] = ERR_NO_MOVE, i, learner[i]
            done[i] = True
            write_obs(params, i, s, learner[i], False, cfg, masks, flat, planes, buf, moves, sym[i], sym_obs, sym_act,
                      err)
            return
        if st != ONGOING:
            me = learner[i]
            r = 0.0 if st != P0_WINS and st != P1_WINS else (1.0 if (st == P0_WINS) == (me == 0) else -1.0)
            rewards[i] = r
            outcome[i] = OUT_WIN if r > 0 else (OUT_LOSS if r < 0 else OUT_DRAW)
            terminated[i] = True
            ended[i] = True
            done[i] = True
            write_obs(params, i, s, me, False, cfg, masks, flat, planes, buf, moves, sym[i], sym_obs, sym_act,
                      err)
            if cfg[C_AUTORESET] == SAME_STEP:
                restart[i] = True
            return
        if player(params, s) == learner[i]:
            opening[i] = False
            write_obs(params, i, s, learner[i], True, cfg, masks, flat, planes, buf, moves, sym[i], sym_obs, sym_act,
                      err)
            return
        a = opponent_move(params, s, comp[i], opp, eps, records, moves, err, i)
        if a == OVER_MAX_MOVES:  # err says which kernel; the driver raises
            done[i] = True
            return
        if a < 0:
            pending[i] = True
            return
        log_move(log, count, i, a)
        apply(params, s, a, child)
        s[:] = child


@njit(inline="always")  # at most 30 arguments: CPython passes more as *args, which numba cannot inline
def restart_lanes(params: Params, initial: I64Array, states: I64Array, learner: I64Array,  # pragma: no cover
                  comp: I64Array, done: Any, pending: Any, restart: Any, opening: Any, ended: Any, masks: I8Array,
                  flat: Any, planes: I8Array, finals: Any, rewards: F64Array, terminated: Any, outcome: I64Array,
                  opp: I64Array, eps: F64Array, cum: F64Array, records: Any, cfg: I64Array, fcfg: F64Array,
                  moves: I64Array, buf: I8Array, child: I64Array, log: I64Array, count: I64Array, err: I64Array,
                  symmetry: Any) -> None:
    """Same-step mode: each lane that finished keeps its final observation and starts again
    (``finals``: final_flat, final_planes; ``symmetry``: sym, opened, sym_obs, sym_act)."""
    final_flat, final_planes = finals
    sym, opened, sym_obs, sym_act = symmetry
    no = cfg[C_OBS]
    for i in range(states.shape[0]):
        if not restart[i]:
            continue
        restart[i] = False
        if cfg[C_FLAT]:
            final_flat[i, :] = flat[i, :]
        else:
            final_planes[i, :no] = planes[i, :]
            final_planes[i, no:] = masks[i, :]
        start_episode(params, initial, i, states, learner, comp, done, opening, cfg, fcfg, cum, log, count, sym,
                      opened, moves, child, err)
        advance(params, i, states, learner, comp, done, pending, restart, opening, ended, masks, flat, planes,
                rewards, terminated, outcome, opp, eps, records, cfg, moves, buf, child, log, count, err, sym, sym_obs,
                sym_act)


@njit(cache=True)
def vec_call(call: int, params: Params, initial: I64Array, lanes: I64Array, values: I64Array,  # pragma: no cover
             states: I64Array, learner: I64Array, comp: I64Array, done: Any, pending: Any, restart: Any, opening: Any,
             ended: Any, masks: I8Array, flat: Any, planes: I8Array, final_flat: Any, final_planes: I8Array,
             rewards: F64Array, terminated: Any, outcome: I64Array, opp: I64Array, eps: F64Array, cum: F64Array,
             records: Any, cfg: I64Array, fcfg: F64Array, moves: I64Array, buf: I8Array, child: I64Array,
             log: I64Array, count: I64Array, err: I64Array, sym: I64Array, opened: I64Array, sym_obs: I64Array,
             sym_act: I64Array, sym_inv: I64Array, seed: int) -> None:
    """The one compiled entry of the vector step, by ``call``:

    * CALL_STEP: one step of every lane: the learner's action ``values[i]`` (checked), the
      opponents' replies, the rewards and ends, and the restarts the autoreset mode asks for.
      Nothing changes when ``err`` reports a bad action (raw mode) or a finished lane stepped
      without a reset (``lanes`` unused).
    * CALL_RESET: a game starts in each of ``lanes``; the opponent moves first where the
      learner is second (``values`` unused).
    * CALL_RESUME: the Python opponents' moves ``values`` for the pending ``lanes`` (checked),
      then as a step goes on.

    One function, not three: each would inline its own copies of the lane's advance (the
    opponents' replies and the observation), and numba's compile time is spent per copy."""
    # The arrays as views without reference counts (zerosum.search._arrays.unowned; the
    # caller holds them for the call): each inlined helper would count one per array per lane.
    params, initial, lanes, values, states, learner, comp = (unowned(params), unowned(initial), unowned(lanes),
                                                             unowned(values), unowned(states), unowned(learner),
                                                             unowned(comp))
    done, pending, restart, opening, ended = unowned(done), unowned(pending), unowned(restart), unowned(opening), \
        unowned(ended)
    masks, flat, planes, final_flat, final_planes = unowned(masks), unowned(flat), unowned(planes), \
        unowned(final_flat), unowned(final_planes)
    rewards, terminated, outcome, opp, eps, cum = unowned(rewards), unowned(terminated), unowned(outcome), \
        unowned(opp), unowned(eps), unowned(cum)
    cfg, moves, buf, child, log, count, err = unowned(cfg), unowned(moves), unowned(buf), unowned(child), \
        unowned(log), unowned(count), unowned(err)
    fcfg, sym, opened, sym_obs, sym_act, sym_inv = unowned(fcfg), unowned(sym), unowned(opened), unowned(sym_obs), \
        unowned(sym_act), unowned(sym_inv)
    np.random.seed(seed)
    mode = cfg[C_AUTORESET]
    err[0] = ERR_NONE
    step = call == CALL_STEP
    n = states.shape[0] if step else lanes.shape[0]
    for j in range(n):  # checks first: an error leaves every lane as it was
        if step:
            if done[j]:
                if mode == DISABLED:
                    err[0], err[1], err[2] = ERR_NOT_RESET, j, values[j]
                    return
            elif cfg[C_RAW] and masks[j, values[j]] == 0:
                err[0], err[1], err[2] = ERR_ILLEGAL, j, values[j]
                return
        elif call == CALL_RESUME:
            i, a = lanes[j], values[j]
            nm = legal(params, states[i], moves)
            if nm > moves.shape[0]:
                err[0], err[1], err[2], err[3] = ERR_MOVES, i, nm, LEGAL_KERNEL
                return
            ok = False
            for t in range(nm):
                if moves[t] == a:
                    ok = True
            if not ok:
                err[0], err[1], err[2] = ERR_OPP_ILLEGAL, i, a
                return
    for j in range(n):
        i = j if step else lanes[j]
        if call == CALL_RESUME:
            a = values[j]
            pending[i] = False
            log_move(log, count, i, a)
            apply(params, states[i], a, child)
            states[i, :] = child
        else:
            count[i] = 0
            rewards[i] = 0.0
            terminated[i] = False
            ended[i] = False
            outcome[i] = OUT_NONE
            if not step:
                restart[i] = False
                pending[i] = False
            if not step or done[i]:  # a reset; or NEXT_STEP: this step restarts the lane, its action ignored
                start_episode(params, initial, i, states, learner, comp, done, opening, cfg, fcfg, cum, log, count,
                              sym, opened, moves, child, err)
            else:
                a = values[i]
                if masks[i, a] == 0:  # safe mode: the episode ends with the penalty
                    rewards[i] = fcfg[F_PENALTY]
                    outcome[i] = OUT_ILLEGAL
                    terminated[i] = True
                    ended[i] = True
                    done[i] = True
                    write_obs(params, i, states[i], learner[i], False, cfg, masks, flat, planes, buf, moves, sym[i],
                              sym_obs, sym_act, err)
                    if mode == SAME_STEP:
                        restart[i] = True
                    continue
                if cfg[C_NSYM] > 1:  # the learner's action on the board it sees, played on the real one
                    a = sym_inv[sym[i], a]
                apply(params, states[i], a, child)
                states[i, :] = child
        advance(params, i, states, learner, comp, done, pending, restart, opening, ended, masks, flat, planes,
                rewards, terminated, outcome, opp, eps, records, cfg, moves, buf, child, log, count, err, sym, sym_obs,
                sym_act)
    if call != CALL_RESET:
        restart_lanes(params, initial, states, learner, comp, done, pending, restart, opening, ended, masks, flat,
                      planes, (final_flat, final_planes), rewards, terminated, outcome, opp, eps, cum, records, cfg,
                      fcfg, moves, buf, child, log, count, err, (sym, opened, sym_obs, sym_act))
