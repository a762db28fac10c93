"""Ultimate tic-tac-toe's rules as kernels (OpenSpiel's ``ultimate_tic_tac_toe``).

Nine small boards (``board`` 0-8, row-major in the big board) of nine cells (``cell`` 0-8,
``3*row + column`` as in tic-tac-toe). There are nine actions, and each means a board or a
cell depending on the state, as in OpenSpiel: when the mover may choose where to play
(the first move, and whenever the board it is sent to is finished) the action is the
board to play in, and the same player then plays a cell of it with a second action;
otherwise it is a cell of the board the mover was sent to. A mark in cell ``c`` sends the
opponent to board ``c``.

A small board is finished when one player has three in a row on it (it is won for that
player) or when it is full (it is won by nobody: as in OpenSpiel, a drawn board counts
for neither player in the big board). A player wins with three won boards in a row; the
game is drawn when every small board is finished without that.

params: ``[]`` (no variants). State::

    [to_move, forced, status, won_0, won_1, finished, board_0 .. board_8]

``forced`` is the board the mover plays in, or FREE (9) when the mover chooses one (in a
finished game, as OpenSpiel keeps them, ``to_move`` is the last mover and ``forced`` the
cell it played);
``won_p`` and ``finished`` are 9-bit masks of boards; ``board_b`` holds player 0's marks
(``x``) in bits 0-8 and player 1's (``o``) in bits 9-17.
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, PLAYER, STATUS, I8Array, I64Array, Params, State,
    helper, i64, kernel, shr,
)

S_TO_MOVE, S_FORCED, S_STATUS, S_WON, S_FINISHED, S_BOARDS = 0, 1, 2, 3, 5, 6
STATE_SIZE = S_BOARDS + 9
NUM_PLANES = 6
FREE = 9
FULL = 0x1FF
LINES = (0x7, 0x38, 0x1C0, 0x49, 0x92, 0x124, 0x111, 0x54)
"""The eight lines of a 3x3 board as 9-bit masks: rows, columns, diagonals."""
_MIX1 = i64(0xBF58476D1CE4E5B9)
_MIX2 = i64(0x94D049BB133111EB)
_SALT = i64(0x9E3779B97F4A7C15)


def initial_state() -> list[int]:
    """The empty boards, player 0 (``x``) to move and to choose a board."""
    return [0, FREE, ONGOING, 0, 0, 0] + [0] * 9


@helper
def has_line(mask: int) -> bool:  # pragma: no cover - compiled
    """Whether the 9-bit ``mask`` holds a whole line of a 3x3 board."""
    for line in LINES:  # noqa: SIM110 - numba compiles no generator expressions
        if (mask & line) == line:
            return True
    return False


@helper
def marks(s: State, b: int, p: int) -> int:  # pragma: no cover - compiled
    """Player ``p``'s marks on board ``b``, a 9-bit mask."""
    return (s[S_BOARDS + b] >> (9 * p)) & FULL


@helper
def _mix(z: int) -> int:  # pragma: no cover - compiled
    """splitmix64's finaliser (logical shifts)."""
    z = (z ^ shr(z, 30)) * _MIX1
    z = (z ^ shr(z, 27)) * _MIX2
    return z ^ shr(z, 31)


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_TO_MOVE]


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_STATUS]


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    if s[S_STATUS] != ONGOING:
        return 0
    f = s[S_FORCED]
    if f == FREE:
        todo = FULL & ~s[S_FINISHED]  # choose any board that is not finished
    else:
        w = s[S_BOARDS + f]
        todo = FULL & ~(w | (w >> 9))  # the empty cells of the board
    n = 0
    for i in range(9):
        if (todo >> i) & 1:
            out[n] = i
            n += 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    if s[S_STATUS] != ONGOING or a < 0 or a >= 9:
        return False
    f = s[S_FORCED]
    if f == FREE:
        return ((s[S_FINISHED] >> a) & 1) == 0
    w = s[S_BOARDS + f]
    return (((w | (w >> 9)) >> a) & 1) == 0


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    for i in range(STATE_SIZE):
        child[i] = s[i]
    f = s[S_FORCED]
    if f == FREE:  # the board is chosen; the same player now plays in it
        child[S_FORCED] = a
        return
    p = s[S_TO_MOVE]
    w = s[S_BOARDS + f] | (1 << (a + 9 * p))
    child[S_BOARDS + f] = w
    if has_line((w >> (9 * p)) & FULL):
        child[S_WON + p] |= 1 << f
        child[S_FINISHED] |= 1 << f
    elif ((w | (w >> 9)) & FULL) == FULL:
        child[S_FINISHED] |= 1 << f  # a full board: won by nobody
    child[S_FORCED] = a
    if has_line(child[S_WON + p]):
        child[S_STATUS] = P0_WINS + p  # as OpenSpiel, the last mover and its cell stay recorded
    elif child[S_FINISHED] == FULL:
        child[S_STATUS] = DRAW
    else:
        child[S_TO_MOVE] = 1 - p
        if (child[S_FINISHED] >> a) & 1:
            child[S_FORCED] = FREE


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit hash of the marks, the player to move and the forced board (the won and
    finished masks and the status follow from the marks)."""
    h = _mix(_SALT + s[S_TO_MOVE] * 16 + s[S_FORCED])
    for b in range(9):
        h = _mix(h ^ (s[S_BOARDS + b] + (b << 20)))
    return h


@helper
def cell_index(b: int, c: int) -> int:  # pragma: no cover - compiled
    """The flat index of cell ``c`` of board ``b`` on the 9x9 grid of the big board."""
    return (3 * (b // 3) + c // 3) * 9 + 3 * (b % 3) + c % 3



@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    """(9, 9, 6), the big board's 9x9 cells: own marks, the opponent's, the cells of the
    board the mover must play in, all ones when the mover chooses a board, all ones when
    the observer is to move, the cells of the boards still open (not finished)."""
    f = s[S_FORCED]
    choose = 1 if f == FREE and s[S_STATUS] == ONGOING else 0
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    for b in range(9):
        own = marks(s, b, player_)
        opp = marks(s, b, 1 - player_)
        here = 1 if b == f and s[S_STATUS] == ONGOING else 0
        open_ = 1 - ((s[S_FINISHED] >> b) & 1)
        for c in range(9):
            k = NUM_PLANES * cell_index(b, c)
            out[k] = (own >> c) & 1
            out[k + 1] = (opp >> c) & 1
            out[k + 2] = here
            out[k + 3] = choose
            out[k + 4] = mover
            out[k + 5] = open_

