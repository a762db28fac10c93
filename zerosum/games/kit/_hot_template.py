"""The Game API's hot calls, compiled per game (see :mod:`zerosum.games.kit.specialize`).

numba cfuncs (plain C function pointers, cached on disk) around the game's own kernels,
for the C module :mod:`zerosum.games._native`, which calls them without numba's per-call
unboxing of array arguments. Every pointer takes the sizes of its arrays, so one copy
serves every variant of the game. Also ``random_playouts``, rules-only batch playouts.
"""

from __future__ import annotations

import numpy as np
from numba import cfunc, njit
from numba.np.numpy_support import carray

from zerosum.games.kit.placeholder import KERNELS as _RULES  # RULES: the line specialize rewrites
from zerosum.games.kit.hot_signatures import NATIVE_APPLY, NATIVE_CHECKED, NATIVE_LEGAL, NATIVE_STATUS, Ptr
from zerosum.games.kit.kernels import ONGOING, I64Array, Params, State

legal, apply, status, player, is_legal = _RULES.legal, _RULES.apply, _RULES.status, _RULES.player, _RULES.is_legal
HAS_IS_LEGAL = is_legal is not None
OVER_MAX_MOVES = 4
"""random_playouts' results slot for the count of a legal kernel that listed more than max_moves."""


@cfunc(NATIVE_LEGAL, cache=True)
def native_legal(sp: Ptr, outp: Ptr, pp: Ptr, ns: int, nout: int, npar: int) -> int:  # pragma: no cover - compiled
    return legal(carray(pp, npar), carray(sp, ns), carray(outp, nout))


@cfunc(NATIVE_APPLY, cache=True)
def native_apply(sp: Ptr, action: int, cp: Ptr, pp: Ptr, ns: int, npar: int) -> int:  # pragma: no cover - compiled
    apply(carray(pp, npar), carray(sp, ns), action, carray(cp, ns))
    return 1


if HAS_IS_LEGAL:
    @cfunc(NATIVE_CHECKED, cache=True)
    def native_checked(sp: Ptr, action: int, cp: Ptr, pp: Ptr, mp: Ptr,  # pragma: no cover - compiled
                       ns: int, npar: int, nm: int) -> int:
        params = carray(pp, npar)
        s = carray(sp, ns)
        if not is_legal(params, s, action):
            return 0
        apply(params, s, action, carray(cp, ns))
        return 1
else:
    @cfunc(NATIVE_CHECKED, cache=True)
    def native_checked(sp: Ptr, action: int, cp: Ptr, pp: Ptr, mp: Ptr,  # pragma: no cover - compiled
                       ns: int, npar: int, nm: int) -> int:
        params = carray(pp, npar)
        s = carray(sp, ns)
        n = legal(params, s, carray(mp, nm))
        for i in range(n):
            if mp[i] == action:
                apply(params, s, action, carray(cp, ns))
                return 1
        return 0


@cfunc(NATIVE_STATUS, cache=True)
def native_status(sp: Ptr, pp: Ptr, ns: int, npar: int) -> int:  # pragma: no cover - compiled
    return status(carray(pp, npar), carray(sp, ns))


@cfunc(NATIVE_STATUS, cache=True)
def native_player(sp: Ptr, pp: Ptr, ns: int, npar: int) -> int:  # pragma: no cover - compiled
    return player(carray(pp, npar), carray(sp, ns))


@njit(cache=True, nogil=True)
def random_playouts(params: Params, root: State, games: int, seed: int, moves: I64Array,  # pragma: no cover - compiled
                    max_length: int, results: I64Array) -> int:
    """Play ``games`` uniformly random games from root; results[status] counts outcomes.

    A game still going after ``max_length`` moves stops there and counts in
    results[ONGOING] (the caller raises: the rules never end it). ``moves``: a buffer of the
    game's max_moves (:func:`zerosum.games.kit.movebuf.moves_buffer`); a legal kernel that
    lists more stops the playouts, its count in results[OVER_MAX_MOVES] (the caller raises).
    Returns the number of moves played.
    """
    np.random.seed(seed)
    buf = np.empty((2, root.shape[0]), np.int64)
    total = 0
    for _ in range(games):
        for t in range(root.shape[0]):
            buf[0, t] = root[t]
        cur = 0
        for ply in range(max_length + 1):
            st = status(params, buf[cur])
            if st != ONGOING:
                results[st] += 1
                break
            if ply == max_length:
                results[ONGOING] += 1
                break
            n = legal(params, buf[cur], moves)
            if n > moves.shape[0]:
                results[OVER_MAX_MOVES] = n
                return total
            apply(params, buf[cur], moves[np.random.randint(n)], buf[1 - cur])
            cur = 1 - cur
            total += 1
    return total
