"""Gomoku's rules as kernels over row-packed bitboards.

The board has ``rows`` rows of ``cols`` cells (``size`` x ``size`` for OpenSpiel's
``gomoku``, ``n`` x ``m`` for its ``mnk``). Cells are numbered row-major, ``cell =
row*cols + col`` (the action, as both number them). Each side's stones are ``W`` int64
words holding whole rows: ``rpw = 63 // cols`` rows a word, row ``r`` in word ``r // rpw``
at bits ``(r % rpw)*cols ..``, so bit ``b`` of word ``w`` is cell ``w*rpw*cols + b``
(ascending bits are ascending cells) and bit 63 is never used (no sign-bit shifts).
15x15: 4 rows a word, 4 words a side.

params (built once per variant by :func:`geometry`)::

    [cols, connect, anti, wrap, W, rpw, full_row, cells, rows, word_mask_0, ..., word_mask_{W-1}]

state: ``[player 0's words (W), player 1's words (W), status, stones]``; ``apply`` sets the
status from the lines through the new stone only (no other line can have appeared), and
the player to move is ``stones & 1``.
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, PLAYER, STATUS, I8Array, I64Array, Params,
    State, helper, i64, kernel, lowest_bit, shr,
)

P_COLS, P_CONNECT, P_ANTI, P_WRAP, P_WORDS, P_RPW, P_FULL_ROW, P_CELLS, P_ROWS, P_MASK0 = range(10)
MAX_SIZE = 19
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (rows, columns) steps: horizontal, vertical, two diagonals
_MIX = i64(0x9E3779B97F4A7C15)  # the key's multiplier (the golden ratio in 64 bits)
_MIX2 = i64(0xBF58476D1CE4E5B9)


def words_for(rows: int, cols: int) -> tuple[int, int]:
    """(words a side, rows a word) for a board of ``rows`` rows of ``cols`` cells."""
    rpw = 63 // cols
    return -(-rows // rpw), rpw


def geometry(rows: int, cols: int, connect: int, anti: bool, wrap: bool) -> list[int]:
    """The params vector of one variant (see the module docstring)."""
    words, rpw = words_for(rows, cols)
    masks = []
    for w in range(words):
        held = min(rpw, rows - w * rpw)
        masks.append((1 << (held * cols)) - 1)
    return [cols, connect, int(anti), int(wrap), words, rpw, (1 << cols) - 1, rows * cols, rows, *masks]


def initial(rows: int, cols: int) -> list[int]:
    """The empty board: no stones, ONGOING, 0 stones placed."""
    return [0] * (2 * words_for(rows, cols)[0]) + [ONGOING, 0]


@helper
def stone(params: Params, s: State, p: int, r: int, c: int) -> int:  # pragma: no cover - compiled
    """1 when player ``p`` has a stone on row ``r``, column ``c`` (both on the board), else 0."""
    cols = params[P_COLS]
    rpw = params[P_RPW]
    return (s[p * params[P_WORDS] + r // rpw] >> ((r % rpw) * cols + c)) & 1


@helper
def row_bits(params: Params, s: State, p: int, r: int) -> int:  # pragma: no cover - compiled
    """Player ``p``'s stones on row ``r`` as ``cols`` bits (bit ``c`` = column ``c``)."""
    cols = params[P_COLS]
    rpw = params[P_RPW]
    return (s[p * params[P_WORDS] + r // rpw] >> ((r % rpw) * cols)) & params[P_FULL_ROW]


@helper
def run_length(params: Params, s: State, p: int, r: int, c: int, dr: int, dc: int,
               cap: int) -> int:  # pragma: no cover - compiled
    """How many of ``p``'s stones follow (r, c) in direction (dr, dc), up to ``cap``
    (the board wraps round when the variant says so)."""
    rows = params[P_ROWS]
    cols = params[P_COLS]
    wrap = params[P_WRAP]
    n = 0
    for _ in range(cap):
        r += dr
        c += dc
        if wrap:
            r %= rows
            c %= cols
        elif r < 0 or r >= rows or c < 0 or c >= cols:
            break
        if not stone(params, s, p, r, c):
            break
        n += 1
    return n


@helper
def makes_line(params: Params, s: State, p: int, r: int, c: int) -> bool:  # pragma: no cover - compiled
    """True when a stone of ``p`` on (r, c) (placed, or imagined there) gives ``p`` a line
    of ``connect`` or more through it."""
    k = params[P_CONNECT]
    for d in range(4):
        dr, dc = DIRECTIONS[d]
        ahead = run_length(params, s, p, r, c, dr, dc, k - 1)
        if 1 + ahead + run_length(params, s, p, r, c, -dr, -dc, k - 1 - ahead) >= k:
            return True
    return False


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[2 * params[P_WORDS] + 1] & 1


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[2 * params[P_WORDS]]


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    words = params[P_WORDS]
    if s[2 * words] != ONGOING:
        return 0
    step = params[P_RPW] * params[P_COLS]
    n = 0
    for w in range(words):
        empty = params[P_MASK0 + w] & ~(s[w] | s[words + w])
        base = w * step
        for _ in range(step):
            if empty == 0:
                break
            out[n] = base + lowest_bit(empty)
            n += 1
            empty &= empty - 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    if a < 0 or a >= params[P_CELLS] or s[2 * params[P_WORDS]] != ONGOING:
        return False
    cols = params[P_COLS]
    r = a // cols
    c = a % cols
    return stone(params, s, 0, r, c) == 0 and stone(params, s, 1, r, c) == 0


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    words = params[P_WORDS]
    for i in range(2 * words + 2):
        child[i] = s[i]
    cols = params[P_COLS]
    rpw = params[P_RPW]
    p = s[2 * words + 1] & 1
    r = a // cols
    c = a % cols
    child[p * words + r // rpw] |= 1 << ((r % rpw) * cols + c)
    stones = s[2 * words + 1] + 1
    child[2 * words + 1] = stones
    if makes_line(params, child, p, r, c):
        child[2 * words] = P0_WINS + (1 - p if params[P_ANTI] else p)  # anti: the line loses
    elif stones == params[P_CELLS]:
        child[2 * words] = DRAW
    else:
        child[2 * words] = ONGOING


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit mix of both sides' words (the board decides the rest of the state)."""
    h = 0
    for i in range(2 * params[P_WORDS]):
        x = (s[i] + i) * _MIX2
        x ^= shr(x, 31)
        h = (h ^ x) * _MIX
        h ^= shr(h, 29)
    return h


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    rows = params[P_ROWS]
    cols = params[P_COLS]
    words = params[P_WORDS]
    mover = 1 if (s[2 * words + 1] & 1) == player_ else 0
    for r in range(rows):
        me = row_bits(params, s, player_, r)
        opp = row_bits(params, s, 1 - player_, r)
        for c in range(cols):
            k = 3 * (r * cols + c)
            out[k] = (me >> c) & 1
            out[k + 1] = (opp >> c) & 1
            out[k + 2] = mover

