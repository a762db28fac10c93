"""Kalah's rules as kernels, on OpenSpiel's board of 14 counts.

params: ``[pits, cap]``: pits a side (6) and OpenSpiel's move cap (``MaxGameLength``,
1000: a game whose move number passes it is over, scored as it stands).

state: ``[to_move, moves, board...]``: ``board`` is OpenSpiel's array, ``2 * (pits + 1)``
counts in sowing order: ``board[0]`` is player 1's store, ``board[1..pits]`` player 0's
pits (left to right as player 0 sees them), ``board[pits + 1]`` player 0's store,
``board[pits + 2 .. 2 * pits + 1]`` player 1's pits. A pit's action is its index; the pit
opposite pit ``i`` is ``2 * (pits + 1) - i``. ``moves`` counts the moves played (the cap);
the key leaves it out.
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, I8Array, I64Array, Params,
    State, helper, i64, kernel, shr,
)

P_PITS, P_CAP = 0, 1
S_TO_MOVE, S_MOVES, S_BOARD = 0, 1, 2
_MIX = i64(0xFF51AFD7ED558CCD)  # MurmurHash3's finaliser multiplier
_SEED = i64(0x9E3779B97F4A7C15)


@helper
def store(pits: int, p: int) -> int:  # pragma: no cover - compiled
    """The index of player ``p``'s store on the board."""
    return pits + 1 if p == 0 else 0


@helper
def first_pit(pits: int, p: int) -> int:  # pragma: no cover - compiled
    """The index of player ``p``'s first pit (its pits are this one and the next pits - 1)."""
    return 1 if p == 0 else pits + 2


@helper
def side_seeds(s: State, pits: int, p: int) -> int:  # pragma: no cover - compiled
    """The seeds in player ``p``'s pits (its store left out)."""
    base = S_BOARD + first_pit(pits, p)
    n = 0
    for i in range(pits):
        n += s[base + i]
    return n


@helper
def side_empty(s: State, pits: int, p: int) -> bool:  # pragma: no cover - compiled
    """Whether player ``p``'s pits are all empty (stops at the first seed: the game-over
    test every call makes, where ``side_seeds`` would add up the whole row)."""
    base = S_BOARD + first_pit(pits, p)
    for i in range(pits):  # noqa: SIM110 - numba compiles no generator expressions
        if s[base + i] != 0:
            return False
    return True


@helper
def in_play(params: Params, s: State) -> bool:  # pragma: no cover - compiled
    """Whether the game goes on: both rows hold seeds and the move cap is not passed."""
    pits = params[P_PITS]
    return s[S_MOVES] <= params[P_CAP] and not side_empty(s, pits, 0) and not side_empty(s, pits, 1)


@helper
def sow(s: State, pits: int, pit: int) -> int:  # pragma: no cover - compiled
    """Sow the seeds of ``pit`` for the player to move, in place (OpenSpiel's
    ``DoApplyAction``): one into each following pit, the mover's store included and the
    opponent's skipped; then a capture when the last seed lands in an empty pit of the
    mover's whose opposite pit holds seeds. Returns the index of the last pit sown."""
    total = 2 * (pits + 1)
    p = s[S_TO_MOVE]
    skip = store(pits, 1 - p)
    seeds = s[S_BOARD + pit]
    s[S_BOARD + pit] = 0
    at = pit
    for _ in range(seeds):  # no modulo: a compare wraps (a division a seed was most of a move's cost)
        at += 1
        if at == total:
            at = 0
        if at == skip:
            at += 1
        s[S_BOARD + at] += 1
    first = first_pit(pits, p)
    if s[S_BOARD + at] == 1 and first <= at < first + pits and s[S_BOARD + total - at] > 0:
        s[S_BOARD + store(pits, p)] += 1 + s[S_BOARD + total - at]
        s[S_BOARD + at] = 0
        s[S_BOARD + total - at] = 0
    return at


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_TO_MOVE]


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """Over when either side's pits are empty, or past the move cap; then each player
    counts its store and its pits (OpenSpiel's ``Returns``)."""
    if in_play(params, s):
        return ONGOING
    pits = params[P_PITS]
    sum0 = side_seeds(s, pits, 0) + s[S_BOARD + store(pits, 0)]
    sum1 = side_seeds(s, pits, 1) + s[S_BOARD + store(pits, 1)]
    return P0_WINS if sum0 > sum1 else P1_WINS if sum1 > sum0 else DRAW


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    pits = params[P_PITS]
    p = s[S_TO_MOVE]
    first = first_pit(pits, p)
    n = 0
    for pit in range(first, first + pits):  # without a branch: which pits hold seeds is a coin toss
        out[n] = pit
        n += s[S_BOARD + pit] > 0
    # n > 0: the mover's row holds seeds, so the game goes on unless the other's is empty or the cap passed
    if n == 0 or s[S_MOVES] > params[P_CAP] or side_empty(s, pits, 1 - p):
        return 0
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    pits = params[P_PITS]
    p = s[S_TO_MOVE]
    first = first_pit(pits, p)
    if a < first or a >= first + pits or s[S_BOARD + a] == 0:
        return False
    return s[S_MOVES] <= params[P_CAP] and not side_empty(s, pits, 1 - p)  # the mover's row is not empty


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    for i in range(s.shape[0]):
        child[i] = s[i]
    pits = params[P_PITS]
    last = sow(child, pits, a)
    p = s[S_TO_MOVE]
    child[S_TO_MOVE] = p if last == store(pits, p) else 1 - p  # a last seed in one's own store moves again
    child[S_MOVES] = s[S_MOVES] + 1


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit hash of the counts and the player to move (the move counter left out)."""
    h = _SEED * (s[S_TO_MOVE] + 1)
    for i in range(2 * (params[P_PITS] + 1)):
        h = (h ^ s[S_BOARD + i]) * _MIX
        h ^= shr(h, 29)
    return h


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    """Rows in sowing order from the observer's first pit (its pits, its store, the
    opponent's pits, the opponent's store), each a row of ``seeds`` cells, cell ``j`` 1
    when the pit holds more than ``j`` seeds (plane 0); plane 1 all ones when the
    observer is to move."""
    pits = params[P_PITS]
    total = 2 * (pits + 1)
    width = (len(out) // total) // 2
    first = first_pit(pits, player_)
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    for row in range(total):
        count = s[S_BOARD + (first + row) % total]
        for j in range(width):
            k = 2 * (row * width + j)
            out[k] = 1 if count > j else 0
            out[k + 1] = mover
