"""Breakthrough's rules as kernels over two bitboards (OpenSpiel's ``breakthrough``).

Geometry: the square in row ``r`` and column ``c`` is bit ``r*columns + c``, with
OpenSpiel's rows: row 0 is the top of the board as drawn (rank ``rows``, player 0's home)
and row ``rows - 1`` the bottom (rank 1, player 1's home). Player 0 (black) moves down the
board, to higher bits (``+columns``); player 1 (white) moves up, to lower bits. The board
has at most 64 squares, so an 8x8 board uses bit 63 (the sign bit): right shifts are
``shr``.

params (built once per variant by :func:`geometry`)::

    [rows, columns, board, not_first_column, not_last_column, top_row, bottom_row,
     row_0, row_1, ..., row_{rows-1}]

state: ``[black (player 0) pieces, white (player 1) pieces, player to move]``; who has won
follows from the boards (a piece on its goal row, or no piece left).

action (OpenSpiel's mixed radix ``(row, column, direction, capture)``)::

    action = ((row*columns + column)*6 + direction)*2 + capture

direction 0, 1, 2 are player 0's moves (one row down and a column left, straight, right),
3, 4, 5 player 1's (one row up and a column left, straight, right); capture is 1 for a
diagonal move onto an opponent's piece, 0 for a move onto an empty square.
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, I8Array, I64Array, Params,
    State, bit, helper, i64, kernel, lowest_bit, shr,
)

S_P0, S_P1, S_TO_MOVE = 0, 1, 2
P_ROWS, P_COLS, P_BOARD, P_NOT_FIRST, P_NOT_LAST, P_TOP, P_BOTTOM, P_ROW0 = range(8)
NUM_DIRECTIONS = 6
_MIX1 = i64(0xBF58476D1CE4E5B9)
_MIX2 = i64(0x94D049BB133111EB)
_SALT = i64(0x9E3779B97F4A7C15)
_TURN = i64(0xD6E8FEB86659FD93)


def geometry(rows: int, columns: int) -> list[int]:
    """The params vector of one variant (see the module docstring), as Python ints (bit 63
    may be set: the Game turns them into int64)."""
    squares = rows * columns
    row_masks = [((1 << columns) - 1) << (r * columns) for r in range(rows)]
    board = (1 << squares) - 1
    first = sum(1 << (r * columns) for r in range(rows))
    last = first << (columns - 1)
    return [rows, columns, board, board & ~first, board & ~last, row_masks[0], row_masks[-1], *row_masks]


def starting_pieces(rows: int, columns: int) -> tuple[int, int]:
    """Both sides' pieces at the start: one full row each, two on boards of 6 rows or more
    (as OpenSpiel)."""
    home = 2 if rows >= 6 else 1
    black = (1 << (home * columns)) - 1
    white = black << ((rows - home) * columns)
    return black, white


@helper
def _mix(z: int) -> int:  # pragma: no cover - compiled
    """splitmix64's finaliser (logical shifts)."""
    z = (z ^ shr(z, 30)) * _MIX1
    z = (z ^ shr(z, 27)) * _MIX2
    return z ^ shr(z, 31)


@helper
def sources(params: Params, mine: int, theirs: int, p: int) -> tuple[int, int, int, int, int]:  # pragma: no cover
    """The pieces of ``mine`` (player ``p``'s) that can move: to the left diagonal onto an
    empty square, capturing to the left, straight ahead, to the right onto an empty square,
    capturing to the right (left and right as columns run: towards column a, away from it)."""
    cols = params[P_COLS]
    empty = params[P_BOARD] & ~(mine | theirs)
    left = mine & params[P_NOT_FIRST]
    right = mine & params[P_NOT_LAST]
    if p == 0:  # down the board: the target is the square + columns (+-1)
        return (left & shr(empty, cols - 1), left & shr(theirs, cols - 1), mine & shr(empty, cols),
                right & shr(empty, cols + 1), right & shr(theirs, cols + 1))
    return (left & (empty << (cols + 1)), left & (theirs << (cols + 1)), mine & (empty << cols),
            right & (empty << (cols - 1)), right & (theirs << (cols - 1)))


@helper
def outcome(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """P0_WINS when a black piece stands on the bottom row or white has no piece left,
    P1_WINS when a white piece stands on the top row or black has none, else ONGOING."""
    if (s[S_P0] & params[P_BOTTOM]) != 0 or s[S_P1] == 0:
        return P0_WINS
    if (s[S_P1] & params[P_TOP]) != 0 or s[S_P0] == 0:
        return P1_WINS
    return ONGOING


@helper
def target(params: Params, a: int) -> int:  # pragma: no cover - compiled
    """The square action ``a`` moves to (-1 off the board)."""
    cols = params[P_COLS]
    sq = a // (2 * NUM_DIRECTIONS)
    d = (a // 2) % NUM_DIRECTIONS
    row = sq // cols + (1 if d < 3 else -1)
    col = sq % cols + d % 3 - 1
    if row < 0 or row >= params[P_ROWS] or col < 0 or col >= cols:
        return -1
    return row * cols + col


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_TO_MOVE]


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    # no stalemate: a most advanced piece can always step or capture diagonally (2+ columns)
    return outcome(params, s)


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    if outcome(params, s) != ONGOING:
        return 0
    p = s[S_TO_MOVE]
    le, lc, st, re, rc = sources(params, s[p], s[1 - p], p)
    todo = le | lc | st | re | rc
    n = 0
    for _ in range(64):  # the movable pieces in ascending square order: the actions come out ascending
        if todo == 0:
            break
        sq = lowest_bit(todo)
        b = bit(sq)
        todo ^= b
        base = (sq * NUM_DIRECTIONS + 3 * p) * 2
        if (le & b) != 0:
            out[n] = base
            n += 1
        elif (lc & b) != 0:
            out[n] = base + 1
            n += 1
        if (st & b) != 0:
            out[n] = base + 2
            n += 1
        if (re & b) != 0:
            out[n] = base + 4
            n += 1
        elif (rc & b) != 0:
            out[n] = base + 5
            n += 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    rows, cols = params[P_ROWS], params[P_COLS]
    if a < 0 or a >= rows * cols * 2 * NUM_DIRECTIONS or outcome(params, s) != ONGOING:
        return False
    p = s[S_TO_MOVE]
    d = (a // 2) % NUM_DIRECTIONS
    to = target(params, a)
    if d // 3 != p or to < 0 or (s[p] & bit(a // (2 * NUM_DIRECTIONS))) == 0:
        return False
    if (a & 1) == 1:  # a capture: diagonal, onto an opponent's piece
        return d % 3 != 1 and (s[1 - p] & bit(to)) != 0
    return ((s[0] | s[1]) & bit(to)) == 0


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    p = s[S_TO_MOVE]
    to = bit(target(params, a))
    child[p] = (s[p] & ~bit(a // (2 * NUM_DIRECTIONS))) | to
    child[1 - p] = s[1 - p] & ~to
    child[S_TO_MOVE] = 1 - p


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit hash of both boards and the mover (splitmix64's finaliser, chained)."""
    h = _mix(_mix(s[S_P0] + _SALT) ^ s[S_P1])
    return h ^ _TURN if s[S_TO_MOVE] == 1 else h


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    rows, cols = params[P_ROWS], params[P_COLS]
    me = s[player_]
    opp = s[1 - player_]
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    for sq in range(rows * cols):
        r = sq // cols
        i = r if player_ == 1 else rows - 1 - r  # the observer's goal row is observation row 0
        k = 3 * (i * cols + sq % cols)
        out[k] = shr(me, sq) & 1
        out[k + 1] = shr(opp, sq) & 1
        out[k + 2] = mover
