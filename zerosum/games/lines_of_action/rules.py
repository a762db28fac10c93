"""Lines of Action's rules as kernels over two bitboards (OpenSpiel's ``lines_of_action``).

Geometry: the square in row ``r`` and column ``c`` is bit ``r*8 + c``, with OpenSpiel's
rows: row 0 is rank 1 (black's home row at the bottom as drawn), row 7 rank 8. Bit 63 is
the sign bit: right shifts are ``shr``.

params (built once per variant by :func:`geometry`)::

    [max_game_length, history words, line masks (64 squares x 4 lines)]

the line masks: every square on the vertical, the diagonal ``/``, the horizontal and the
diagonal ``\\`` through a square (the square itself included), OpenSpiel's four lines.

state::

    [black (player 0, x) pieces, white (player 1, o) pieces, player to move, moves played,
     result, moves since the last capture, packed moves since the last capture...]

``result`` is the outcome that :func:`apply` decides (a connected group, the length limit,
a repeated board); a player to move with no legal move loses, which :func:`status` reads.
The packed moves are the non-capturing moves played since the last capture (or the
start), five a word, 12 bits each (``from*64 + to``): a board can only come back while no
piece is taken, and undoing those moves one by one from the current board meets every
board since then, so a repetition is found exactly (OpenSpiel keeps every board's text in
a set; a board is the pieces only, not who is to move).

action (OpenSpiel's mixed radix ``(row, column, to row, to column, capture)``)::

    action = ((from*64) + to)*2 + capture,   from = row*8 + column, to likewise

A piece moves in one of the 8 directions exactly as many squares as there are pieces
(both colours) on the line of that move; it may jump over its own pieces, not over the
opponent's, and lands on an empty square or takes an opponent's piece there.
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, PLAYER, STATUS, I8Array, I64Array, Params, State,
    bit, helper, i64, kernel, lowest_bit, popcount, shr,
)

SIZE = 8
SQUARES = 64
NUM_DIRECTIONS = 8
NUM_ACTIONS = SQUARES * SQUARES * 2
MAX_MOVES = 12 * NUM_DIRECTIONS  # 12 pieces a side at most, 8 directions each
S_BLACK, S_WHITE, S_TO_MOVE, S_MOVES, S_RESULT, S_SINCE, S_HISTORY = range(7)
P_CAP, P_WORDS, P_LINES = 0, 1, 2
PER_WORD = 5  # packed moves a history word holds (12 bits each)
# OpenSpiel's directions: up (towards rank 8), up-right, right, down-right, down, down-left, left, up-left;
# direction d lies on line d % 4 (vertical, /, horizontal, \)
ROW_STEP = (1, 1, 0, -1, -1, -1, 0, 1)
COL_STEP = (0, 1, 1, 1, 0, -1, -1, -1)
_NOT_A = i64(sum(1 << (r * 8 + c) for r in range(8) for c in range(1, 8)))
_NOT_H = i64(sum(1 << (r * 8 + c) for r in range(8) for c in range(7)))
_MIX1 = i64(0xBF58476D1CE4E5B9)
_MIX2 = i64(0x94D049BB133111EB)
_SALT = i64(0x9E3779B97F4A7C15)
_TURN = i64(0xD6E8FEB86659FD93)


def history_words(max_game_length: int) -> int:
    """The words a state keeps for the moves since the last capture."""
    return (max_game_length + PER_WORD - 1) // PER_WORD


def line_masks() -> list[int]:
    """The four lines through every square (64 x 4 masks, the square included)."""
    out = []
    for sq in range(SQUARES):
        r, c = divmod(sq, SIZE)
        for line in range(4):
            mask = 1 << sq
            for d in (line, line + 4):
                rr, cc = r + ROW_STEP[d], c + COL_STEP[d]
                while 0 <= rr < SIZE and 0 <= cc < SIZE:
                    mask |= 1 << (rr * SIZE + cc)
                    rr, cc = rr + ROW_STEP[d], cc + COL_STEP[d]
            out.append(mask)
    return out


def geometry(max_game_length: int) -> list[int]:
    """The params vector of one variant (Python ints; bit 63 may be set)."""
    return [max_game_length, history_words(max_game_length), *line_masks()]


def starting_state(max_game_length: int) -> list[int]:
    """Black on b1-g1 and b8-g8, white on a2-a7 and h2-h7, black to move; no history."""
    black = sum(1 << c for c in range(1, 7)) | sum(1 << (56 + c) for c in range(1, 7))
    white = sum(1 << (r * 8) for r in range(1, 7)) | sum(1 << (r * 8 + 7) for r in range(1, 7))
    return [black, white, 0, 0, ONGOING, 0] + [0] * history_words(max_game_length)


@helper
def _mix(z: int) -> int:  # pragma: no cover - compiled
    """splitmix64's finaliser (logical shifts)."""
    z = (z ^ shr(z, 30)) * _MIX1
    z = (z ^ shr(z, 27)) * _MIX2
    return z ^ shr(z, 31)


@helper
def grow(x: int) -> int:  # pragma: no cover - compiled
    """``x`` and every square a king's step from it."""
    vertical = x | (x << 8) | shr(x, 8)
    return vertical | ((vertical << 1) & _NOT_A) | (shr(vertical, 1) & _NOT_H)


@helper
def connected(pieces: int) -> bool:  # pragma: no cover - compiled
    """Whether ``pieces`` form one group, squares touching by side or corner (True for none)."""
    if pieces == 0:
        return True
    group = bit(lowest_bit(pieces))
    while True:
        more = grow(group) & pieces
        if more == group:
            return group == pieces
        group = more


@helper
def reach(params: Params, mine: int, theirs: int, sq: int, d: int) -> int:  # pragma: no cover - compiled
    """The square a piece of ``mine`` on ``sq`` reaches moving in direction ``d``, or -1:
    as many squares as the line holds pieces, over no piece of ``theirs``, not onto one
    of ``mine``."""
    n = popcount(params[P_LINES + 4 * sq + d % 4] & (mine | theirs))
    r = sq // SIZE
    c = sq % SIZE
    dr = 1 if d == 0 or d == 1 or d == 7 else -1 if d == 3 or d == 4 or d == 5 else 0
    dc = 1 if d == 1 or d == 2 or d == 3 else -1 if d == 5 or d == 6 or d == 7 else 0
    for i in range(n):
        r += dr
        c += dc
        if r < 0 or r >= SIZE or c < 0 or c >= SIZE:
            return -1
        if i < n - 1 and (theirs & bit(r * SIZE + c)) != 0:
            return -1
    to = r * SIZE + c
    if (mine & bit(to)) != 0:
        return -1
    return to


@helper
def has_move(params: Params, mine: int, theirs: int) -> bool:  # pragma: no cover - compiled
    """Whether some piece of ``mine`` can move."""
    todo = mine
    while todo != 0:
        sq = lowest_bit(todo)
        todo &= todo - 1
        for d in range(NUM_DIRECTIONS):
            if reach(params, mine, theirs, sq, d) >= 0:
                return True
    return False


@helper
def repeated(s: State, black: int, white: int) -> bool:  # pragma: no cover - compiled
    """Whether the board ``black``, ``white`` is one of the boards since the last capture
    (the moves recorded in ``s``, undone one by one from ``s``'s board)."""
    b = s[S_BLACK]
    w = s[S_WHITE]
    if b == black and w == white:
        return True
    mover = 1 - s[S_TO_MOVE]  # who played the last recorded move
    for k in range(s[S_SINCE] - 1, -1, -1):
        packed = shr(s[S_HISTORY + k // PER_WORD], 12 * (k % PER_WORD)) & 4095
        change = bit(packed // 64) | bit(packed % 64)
        if mover == 0:
            b ^= change
        else:
            w ^= change
        if b == black and w == white:
            return True
        mover = 1 - mover
    return False


@kernel(PLAYER)
def player(params: Params, s: State) -> int:  # pragma: no cover - compiled
    return s[S_TO_MOVE]


@kernel(STATUS)
def status(params: Params, s: State) -> int:  # pragma: no cover - compiled
    if s[S_RESULT] != ONGOING:
        return s[S_RESULT]
    p = s[S_TO_MOVE]
    if not has_move(params, s[p], s[1 - p]):
        return P0_WINS + 1 - p  # no legal move: the player to move loses
    return ONGOING


@kernel(LEGAL)
def legal(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    if s[S_RESULT] != ONGOING:
        return 0
    p = s[S_TO_MOVE]
    mine = s[p]
    theirs = s[1 - p]
    n = 0
    todo = mine
    while todo != 0:  # the pieces in ascending square order, each one's moves sorted: ascending actions
        sq = lowest_bit(todo)
        todo &= todo - 1
        first = n
        for d in range(NUM_DIRECTIONS):
            to = reach(params, mine, theirs, sq, d)
            if to >= 0:
                a = (sq * SQUARES + to) * 2 + (1 if (theirs & bit(to)) != 0 else 0)
                j = n
                while j > first and out[j - 1] > a:
                    out[j] = out[j - 1]
                    j -= 1
                out[j] = a
                n += 1
    return n


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    if a < 0 or a >= NUM_ACTIONS or s[S_RESULT] != ONGOING:
        return False
    p = s[S_TO_MOVE]
    mine = s[p]
    theirs = s[1 - p]
    sq = a // (2 * SQUARES)
    to = (a // 2) % SQUARES
    if (mine & bit(sq)) == 0 or (a % 2 == 1) != ((theirs & bit(to)) != 0):
        return False
    found = False
    for d in range(NUM_DIRECTIONS):
        found = found or reach(params, mine, theirs, sq, d) == to
    return found


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    p = s[S_TO_MOVE]
    sq = a // (2 * SQUARES)
    to = (a // 2) % SQUARES
    capture = (s[1 - p] & bit(to)) != 0
    child[p] = (s[p] & ~bit(sq)) | bit(to)
    child[1 - p] = s[1 - p] & ~bit(to)
    child[S_TO_MOVE] = 1 - p
    moves = s[S_MOVES] + 1
    child[S_MOVES] = moves
    result = ONGOING
    if connected(child[p]):  # OpenSpiel: the mover's group first, so a move that joins both wins for the mover
        result = P0_WINS + p
    elif connected(child[1 - p]):
        result = P0_WINS + 1 - p
    # the length limit and a repeated board are draws whatever else holds (as OpenSpiel, which checks them after)
    if moves >= params[P_CAP] or (not capture and repeated(s, child[S_BLACK], child[S_WHITE])):
        result = DRAW
    child[S_RESULT] = result
    words = params[P_WORDS]
    if capture:  # no earlier board can come back: forget them
        for k in range(words):
            child[S_HISTORY + k] = 0
        child[S_SINCE] = 0
        return
    for k in range(words):
        child[S_HISTORY + k] = s[S_HISTORY + k]
    k = s[S_SINCE]
    child[S_SINCE] = k
    if result == ONGOING:
        w = S_HISTORY + k // PER_WORD
        child[w] = s[w] | ((sq * SQUARES + to) << (12 * (k % PER_WORD)))
        child[S_SINCE] = k + 1


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    """A 64-bit hash of both boards, the mover and the result (a draw by repetition or by the
    length limit); not the moves played or the history, as chess's key leaves out its own."""
    h = _mix(_mix(s[S_BLACK] + _SALT) ^ s[S_WHITE]) + s[S_RESULT]
    return h ^ _TURN if s[S_TO_MOVE] == 1 else h


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    """(8, 8, 3), row 0 the top row (rank 8): own pieces, the opponent's, ones when the
    observer is to move."""
    me = s[player_]
    opp = s[1 - player_]
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    for sq in range(SQUARES):
        k = 3 * ((SIZE - 1 - sq // SIZE) * SIZE + sq % SIZE)
        out[k] = shr(me, sq) & 1
        out[k + 1] = shr(opp, sq) & 1
        out[k + 2] = mover
