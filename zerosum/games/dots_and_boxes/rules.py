"""Dots and Boxes' rules as kernels over one int64 word a row of lines or boxes.

Geometry, for ``R`` rows and ``C`` columns of boxes (OpenSpiel's ``num_rows`` and
``num_cols``): ``(R+1) x (C+1)`` dots, row 0 at the top. Horizontal line ``(r, c)`` joins
dot ``(r, c)`` to ``(r, c+1)`` (``r`` 0..R, ``c`` 0..C-1) and is action ``r*C + c``;
vertical line ``(r, c)`` joins dot ``(r, c)`` to ``(r+1, c)`` (``r`` 0..R-1, ``c`` 0..C)
and is action ``(R+1)*C + r*(C+1) + c`` (OpenSpiel's encoding: every horizontal line,
then every vertical one, row-major). Box ``(r, c)`` has sides horizontal ``(r, c)`` and
``(r+1, c)`` and vertical ``(r, c)`` and ``(r, c+1)``.

params: ``[rows, columns, utility_margin, lines, horizontal lines, then one word an action:
its line's state slot, bit and row]`` (the word is ``row << 16 | slot << 8 | bit``; row: the
dot row of a horizontal line, the box row of a vertical one). The table saves apply and
is_legal a division each (by the columns) a move.

state: ``[to_move, lines drawn, player 0's boxes, player 1's boxes, then R+1 words of
horizontal lines (bit c of word r: line (r, c)), R words of vertical lines, R words of
player 0's boxes and R words of player 1's boxes (bit c: box (r, c))]``. A move that
completes a box (or two) gives it to the mover, who moves again; any other move passes
the turn. The game ends when every line is drawn; more boxes wins, equal counts draw.
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, I8Array, I64Array, Params,
    State, helper, i64, kernel, lowest_bit, shr,
)

P_ROWS, P_COLS, P_MARGIN, P_LINES, P_HLINES, P_LINE_TABLE = range(6)
S_TO_MOVE, S_DRAWN, S_SCORE0, S_SCORE1, S_WORDS = range(5)
MAX_SIDE = 20
"""The most rows (or columns) of boxes a variant may have."""
_MIX = i64(0xFF51AFD7ED558CCD)  # the key's odd multiplier (MurmurHash3's finaliser)
_SEED = i64(0x9E3779B97F4A7C15)


def geometry(rows: int, cols: int, margin: bool) -> list[int]:
    """The params vector of one variant (the five sizes, then the table of lines)."""
    hlines = (rows + 1) * cols
    table = [r << 16 | (S_WORDS + r) << 8 | c for r in range(rows + 1) for c in range(cols)]
    table += [r << 16 | (S_WORDS + rows + 1 + r) << 8 | c for r in range(rows) for c in range(cols + 1)]
    return [rows, cols, int(margin), hlines + rows * (cols + 1), hlines, *table]


def state_size(rows: int) -> int:
    """The length of a state on a board of ``rows`` rows of boxes."""
    return S_WORDS + (rows + 1) + 3 * rows


def initial(rows: int) -> list[int]:
    """No line drawn, no box taken, player 0 to move."""
    return [0] * state_size(rows)


@helper
def h_word(params: Params, r: int) -> int:  # pragma: no cover - compiled
    """The slot of the word of horizontal lines on dot row ``r``."""
    return S_WORDS + r


@helper
def v_word(params: Params, r: int) -> int:  # pragma: no cover - compiled
    """The slot of the word of vertical lines between dot rows ``r`` and ``r+1``."""
    return S_WORDS + params[P_ROWS] + 1 + r


@helper
def box_word(params: Params, p: int, r: int) -> int:  # pragma: no cover - compiled
    """The slot of the word of player ``p``'s boxes on box row ``r``."""
    rows = params[P_ROWS]
    return S_WORDS + 2 * rows + 1 + p * rows + r


@helper
def sides(params: Params, s: State, r: int, c: int) -> int:  # pragma: no cover - compiled
    """How many of box ``(r, c)``'s four sides are drawn."""
    top = (s[h_word(params, r)] >> c) & 1
    bottom = (s[h_word(params, r + 1)] >> c) & 1
    vert = s[v_word(params, r)]
    return top + bottom + ((vert >> c) & 1) + ((vert >> (c + 1)) & 1)


@helper
def line_slot(params: Params, a: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """(state slot, bit) of the line of action ``a`` (read from the params' table)."""
    code = params[P_LINE_TABLE + a]
    return (code >> 8) & 0xFF, code & 0xFF


@helper
def drawn(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    """Whether the line of action ``a`` is drawn."""
    slot, b = line_slot(params, a)
    return ((s[slot] >> b) & 1) == 1


@helper
def take(params: Params, child: State, p: int, r: int, c: int) -> int:  # pragma: no cover - compiled
    """Give box ``(r, c)`` to ``p`` when its four sides are drawn; 1 if it did, else 0."""
    if sides(params, child, r, c) != 4:
        return 0
    child[box_word(params, p, r)] |= 1 << c
    child[S_SCORE0 + p] += 1
    return 1


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_TO_MOVE]


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    if s[S_DRAWN] < params[P_LINES]:
        return ONGOING
    if s[S_SCORE0] > s[S_SCORE1]:
        return P0_WINS
    return P1_WINS if s[S_SCORE1] > s[S_SCORE0] else DRAW


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    rows, cols = params[P_ROWS], params[P_COLS]
    n = 0
    hmask = (1 << cols) - 1
    for r in range(rows + 1):
        free = hmask & ~s[h_word(params, r)]
        for _ in range(cols):
            if free == 0:
                break
            out[n] = r * cols + lowest_bit(free)
            n += 1
            free &= free - 1
    vmask = (1 << (cols + 1)) - 1
    base = params[P_HLINES]
    for r in range(rows):
        free = vmask & ~s[v_word(params, r)]
        for _ in range(cols + 1):
            if free == 0:
                break
            out[n] = base + r * (cols + 1) + lowest_bit(free)
            n += 1
            free &= free - 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    if a < 0 or a >= params[P_LINES]:
        return False
    return not drawn(params, s, a)


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    for i in range(s.shape[0]):
        child[i] = s[i]
    rows, cols = params[P_ROWS], params[P_COLS]
    p = s[S_TO_MOVE]
    code = params[P_LINE_TABLE + a]
    slot, b, r = (code >> 8) & 0xFF, code & 0xFF, code >> 16
    child[slot] |= 1 << b
    child[S_DRAWN] += 1
    taken = 0
    if a < params[P_HLINES]:
        if r > 0:
            taken += take(params, child, p, r - 1, b)   # the box above
        if r < rows:
            taken += take(params, child, p, r, b)       # the box below
    else:
        if b > 0:
            taken += take(params, child, p, r, b - 1)   # the box to the left
        if b < cols:
            taken += take(params, child, p, r, b)       # the box to the right
    if taken == 0:
        child[S_TO_MOVE] = 1 - p


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit hash of the lines, the boxes and the player to move (the counts follow
    from them): each word folded in by a multiply and a xor-shift."""
    h = _SEED * (s[S_TO_MOVE] + 1)
    for i in range(S_WORDS, s.shape[0]):
        h = (h ^ (s[i] + i)) * _MIX
        h ^= shr(h, 29)
    return h


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    """(rows+1, columns+1, 5), one cell a dot: the horizontal line from the dot to the
    right, the vertical line from it down, the box to its lower right taken by the
    observer, taken by the opponent, and ones when the observer is to move."""
    rows, cols = params[P_ROWS], params[P_COLS]
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    for r in range(rows + 1):
        hw = s[h_word(params, r)]
        vw = s[v_word(params, r)] if r < rows else 0
        own = s[box_word(params, player_, r)] if r < rows else 0
        other = s[box_word(params, 1 - player_, r)] if r < rows else 0
        for c in range(cols + 1):
            k = 5 * (r * (cols + 1) + c)
            out[k] = (hw >> c) & 1
            out[k + 1] = (vw >> c) & 1
            out[k + 2] = (own >> c) & 1
            out[k + 3] = (other >> c) & 1
            out[k + 4] = mover
