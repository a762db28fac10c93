"""Clobber's rules as kernels over two bitboards (OpenSpiel's ``clobber``).

Geometry: the square in row ``r`` and column ``c`` is bit ``r*columns + c``, with
OpenSpiel's rows: row 0 is the top of the board as drawn (rank ``rows``), row ``rows - 1``
the bottom (rank 1). The board has at most 64 squares, so one of 8x8 uses bit 63 (the
sign bit): right shifts are ``shr``.

params (built once per variant by :func:`geometry`)::

    [rows, columns, board, not_first_column, not_last_column]

state: ``[white (player 0, o) pieces, black (player 1, x) pieces, player to move]``. Who
has won follows from the boards: a player can move exactly when the other can (a move
needs an own piece next to an opponent's one, and that pair is a move for both), so the
game is over when no white piece touches a black one, and the player who moved last
(the one not to move) wins.

action (OpenSpiel's mixed radix ``(row, column, direction)``)::

    action = (row*columns + column)*4 + direction

direction 0 north (a row up, towards rank ``rows``), 1 east (a column right), 2 south,
3 west; the piece moves onto the opponent's piece there and removes it.
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, PLAYER, STATUS, I8Array, I64Array, Params, State, bit,
    helper, i64, kernel, lowest_bit, shr,
)

S_WHITE, S_BLACK, S_TO_MOVE = 0, 1, 2
P_ROWS, P_COLS, P_BOARD, P_NOT_FIRST, P_NOT_LAST = range(5)
NORTH, EAST, SOUTH, WEST = range(4)
NUM_DIRECTIONS = 4
_MIX1 = i64(0xBF58476D1CE4E5B9)
_MIX2 = i64(0x94D049BB133111EB)
_SALT = i64(0x9E3779B97F4A7C15)
_TURN = i64(0xD6E8FEB86659FD93)


def geometry(rows: int, columns: int) -> list[int]:
    """The params vector of one variant (see the module docstring), as Python ints (bit 63
    may be set: the Game turns them into int64)."""
    board = (1 << (rows * columns)) - 1
    first = sum(1 << (r * columns) for r in range(rows))
    last = first << (columns - 1)
    return [rows, columns, board, board & ~first, board & ~last]


def starting_pieces(rows: int, columns: int) -> tuple[int, int]:
    """Both sides' pieces at the start: a chequerboard with a white piece (``o``) in the
    bottom-left corner, as OpenSpiel."""
    white = black = 0
    for r in range(rows):
        for c in range(columns):
            if (rows - 1 - r + c) % 2 == 0:
                white |= 1 << (r * columns + c)
            else:
                black |= 1 << (r * columns + c)
    return white, black


@helper
def _mix(z: int) -> int:  # pragma: no cover - compiled
    """splitmix64's finaliser (logical shifts)."""
    z = (z ^ shr(z, 30)) * _MIX1
    z = (z ^ shr(z, 27)) * _MIX2
    return z ^ shr(z, 31)


@helper
def movers(params: Params, mine: int, theirs: int) -> tuple[int, int, int, int]:  # pragma: no cover - compiled
    """The pieces of ``mine`` that can capture a piece of ``theirs`` to the north, east,
    south and west."""
    cols = params[P_COLS]
    board = params[P_BOARD]
    north = mine & (theirs << cols) & board
    east = mine & params[P_NOT_LAST] & shr(theirs, 1)
    south = mine & shr(theirs, cols)
    west = mine & params[P_NOT_FIRST] & (theirs << 1) & board
    return north, east, south, west


@helper
def can_move(params: Params, s: State) -> bool:  # pragma: no cover - compiled
    """Whether some white piece touches a black one (then both players have a move)."""
    n, e, so, w = movers(params, s[S_WHITE], s[S_BLACK])
    return (n | e | so | w) != 0


@helper
def target(params: Params, a: int) -> int:  # pragma: no cover - compiled
    """The square action ``a`` moves to (-1 off the board)."""
    cols = params[P_COLS]
    sq = a // NUM_DIRECTIONS
    d = a % NUM_DIRECTIONS
    row = sq // cols + (-1 if d == NORTH else 1 if d == SOUTH else 0)
    col = sq % cols + (1 if d == EAST else -1 if d == WEST else 0)
    if row < 0 or row >= params[P_ROWS] or col < 0 or col >= cols:
        return -1
    return row * cols + col


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_TO_MOVE]


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    if can_move(params, s):
        return ONGOING
    return P0_WINS + 1 - s[S_TO_MOVE]  # the player who cannot move loses: the one who moved last wins


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    p = s[S_TO_MOVE]
    north, east, south, west = movers(params, s[p], s[1 - p])
    todo = north | east | south | west
    n = 0
    for _ in range(64):  # the movable pieces in ascending square order: the actions come out ascending
        if todo == 0:
            break
        sq = lowest_bit(todo)
        b = bit(sq)
        todo ^= b
        base = sq * NUM_DIRECTIONS
        if (north & b) != 0:
            out[n] = base + NORTH
            n += 1
        if (east & b) != 0:
            out[n] = base + EAST
            n += 1
        if (south & b) != 0:
            out[n] = base + SOUTH
            n += 1
        if (west & b) != 0:
            out[n] = base + WEST
            n += 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    if a < 0 or a >= params[P_ROWS] * params[P_COLS] * NUM_DIRECTIONS:
        return False
    p = s[S_TO_MOVE]
    to = target(params, a)
    return to >= 0 and (s[p] & bit(a // NUM_DIRECTIONS)) != 0 and (s[1 - p] & bit(to)) != 0


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    p = s[S_TO_MOVE]
    to = bit(target(params, a))
    child[p] = (s[p] & ~bit(a // NUM_DIRECTIONS)) | to
    child[1 - p] = s[1 - p] & ~to
    child[S_TO_MOVE] = 1 - p


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit hash of both boards and the mover (splitmix64's finaliser, chained)."""
    h = _mix(_mix(s[S_WHITE] + _SALT) ^ s[S_BLACK])
    return h ^ _TURN if s[S_TO_MOVE] == 1 else h


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    """(rows, columns, 3), row 0 the top row: own pieces, the opponent's, ones when the
    observer is to move."""
    rows, cols = params[P_ROWS], params[P_COLS]
    me = s[player_]
    opp = s[1 - player_]
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    for sq in range(rows * cols):
        k = 3 * sq
        out[k] = shr(me, sq) & 1
        out[k + 1] = shr(opp, sq) & 1
        out[k + 2] = mover
