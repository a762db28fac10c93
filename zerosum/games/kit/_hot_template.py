"""The Game API's hot calls, compiled per game (see :mod:`zerosum.games.kit.specialize`).

numba cfuncs (plain C function pointers, cached on disk) around the game's own kernels,
for the C module :mod:`zerosum.games._native`, which calls them without numba's per-call
unboxing of array arguments. Every pointer takes the sizes of its arrays, so one copy
serves every variant of the game. Also ``random_playouts``, rules-only batch playouts.

The cfuncs inline the kernels they call: each kernel's own Python function is compiled
once more here with numba's ``forceinline`` (LLVM inlines the machine code's source; the
kernel's cached code cannot be inlined). Called through numba's calling convention
instead, each array passed as seven words and its reference count taken and dropped, a
kernel cost ~20 ns more a call, a tenth of a natural loop's step on a small game (Mancala,
measured here). This makes the copy's first compile longer (chess: ~13 s instead of ~2 s,
once). Not numba's ``inline="always"``, which inlines numba's IR: Go's legal kernel, whose
scratch arrays live on the stack (zerosum.games.go.scratch), gave a wrong move list that
way. ``random_playouts``, compiled on its first call, calls the kernels themselves.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import cfunc, njit
from numba.np.numpy_support import carray

from zerosum.games.kit.placeholder import KERNELS as _RULES  # RULES: the line specialize rewrites
from zerosum.games.kit.hot_signatures import NATIVE_APPLY, NATIVE_CHECKED, NATIVE_LEGAL, NATIVE_STATUS, Ptr
from zerosum.games.kit.kernels import ONGOING, I64Array, Params, State

legal, apply, status, player, is_legal = _RULES.legal, _RULES.apply, _RULES.status, _RULES.player, _RULES.is_legal
HAS_IS_LEGAL = is_legal is not None


def _inlined(kernel: Any) -> Any:
    """The kernel's own Python function compiled anew with ``forceinline``: LLVM inlines it into its callers."""
    fn = getattr(kernel, "py_func", None)
    return kernel if fn is None else njit(forceinline=True)(fn)


legal_in, apply_in, status_in, player_in = _inlined(legal), _inlined(apply), _inlined(status), _inlined(player)
is_legal_in: Any = _inlined(is_legal) if HAS_IS_LEGAL else None

OVER_MAX_MOVES = 4
"""random_playouts' results slot for the count of a legal kernel that listed more than max_moves."""


@cfunc(NATIVE_LEGAL, cache=True)
def native_legal(sp: Ptr, outp: Ptr, pp: Ptr, ns: int, nout: int, npar: int) -> int:  # pragma: no cover - compiled
    return legal_in(carray(pp, npar), carray(sp, ns), carray(outp, nout))


@cfunc(NATIVE_APPLY, cache=True)
def native_apply(sp: Ptr, action: int, cp: Ptr, pp: Ptr, ns: int, npar: int) -> int:  # pragma: no cover - compiled
    apply_in(carray(pp, npar), carray(sp, ns), action, carray(cp, ns))
    return 1


if HAS_IS_LEGAL:
    @cfunc(NATIVE_CHECKED, cache=True)
    def native_checked(sp: Ptr, action: int, cp: Ptr, pp: Ptr, mp: Ptr,  # pragma: no cover - compiled
                       ns: int, npar: int, nm: int) -> int:
        params = carray(pp, npar)
        s = carray(sp, ns)
        if not is_legal_in(params, s, action):
            return 0
        apply_in(params, s, action, carray(cp, ns))
        return 1
else:
    @cfunc(NATIVE_CHECKED, cache=True)
    def native_checked(sp: Ptr, action: int, cp: Ptr, pp: Ptr, mp: Ptr,  # pragma: no cover - compiled
                       ns: int, npar: int, nm: int) -> int:
        params = carray(pp, npar)
        s = carray(sp, ns)
        n = legal_in(params, s, carray(mp, nm))
        for i in range(n):
            if mp[i] == action:
                apply_in(params, s, action, carray(cp, ns))
                return 1
        return 0


@cfunc(NATIVE_STATUS, cache=True)
def native_status(sp: Ptr, pp: Ptr, ns: int, npar: int) -> int:  # pragma: no cover - compiled
    return status_in(carray(pp, npar), carray(sp, ns))


@cfunc(NATIVE_STATUS, cache=True)
def native_player(sp: Ptr, pp: Ptr, ns: int, npar: int) -> int:  # pragma: no cover - compiled
    return player_in(carray(pp, npar), carray(sp, ns))


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
