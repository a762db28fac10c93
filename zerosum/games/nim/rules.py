"""Nim's rules as kernels. params: ``[misere, num_piles, max_take]``; state:
``[player_to_move, pile_0, ..., pile_k-1]``; action = pile * max_take + (taken - 1)."""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, I64Array, I8Array, Params, State,
    kernel,
)

P_MISERE, P_PILES, P_MAX_TAKE = 0, 1, 2


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[0]


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    for i in range(params[P_PILES]):
        if s[1 + i] > 0:
            return ONGOING
    # Game over: in normal play the player who just moved (not the mover) took the last one.
    mover_wins = params[P_MISERE] == 1
    winner = s[0] if mover_wins else 1 - s[0]
    return P0_WINS if winner == 0 else P1_WINS


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    m = params[P_MAX_TAKE]
    n = 0
    for i in range(params[P_PILES]):
        for t in range(s[1 + i]):
            out[n] = i * m + t
            n += 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    m = params[P_MAX_TAKE]
    return 0 <= a < params[P_PILES] * m and a % m < s[1 + a // m]


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    m = params[P_MAX_TAKE]
    for i in range(s.shape[0]):
        child[i] = s[i]
    child[1 + a // m] -= a % m + 1
    child[0] = 1 - s[0]


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    h = s[0]
    for i in range(params[P_PILES]):
        h = h * 1000003 + s[1 + i]
    return h


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    m = params[P_MAX_TAKE]
    mover = 1 if s[0] == player_ else 0
    for i in range(params[P_PILES]):
        for j in range(m):
            k = 2 * (i * m + j)
            out[k] = 1 if s[1 + i] > j else 0
            out[k + 1] = mover
