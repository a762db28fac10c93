"""Checkers' rules as kernels over a mailbox board, move for move as OpenSpiel's ``checkers``.

Squares: ``square = row * columns + column`` with row 0 the top row (rank ``rows``), as
OpenSpiel numbers them; the dark squares, the only ones pieces stand on, are those with
``row + column`` odd. Player 0 (white, ``o``) starts on the bottom three rows and moves up
(towards row 0), player 1 (black, ``+``) starts on the top three rows and moves down.

params: ``[rows, columns, quiet_limit, pieces]`` (``quiet_limit``: OpenSpiel's 40 moves
without a capture; ``pieces``: the most men a side starts with).

state: ``[to_move, jump, quiet, status, board_hash, cell_0, cell_1, ...]``: ``jump`` the
square of the piece that must jump again (-1 when none; the same player moves again),
``quiet`` the plies since the last capture, ``status`` the outcome (set by ``apply``),
``board_hash`` the XOR of a 64-bit code per (square, piece) (set by ``apply``), and one
cell per square: ``EMPTY``, ``MAN0``, ``KING0``, ``MAN1``, ``KING1``.

action (OpenSpiel's mixed-radix encoding): ``((square * 4) + direction) * 2 + kind``,
direction 0 up-left, 1 up-right, 2 down-right, 3 down-left (up = towards row 0); kind 0
a step to the adjacent square, 1 a jump over an opponent's piece to the square beyond.
"""

from __future__ import annotations

from zerosum.games.kit import (
    APPLY, DRAW, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, I64Array, I8Array, Params,
    State, helper, i64, kernel,
)

P_ROWS, P_COLS, P_QUIET, P_PIECES = range(4)
S_TO_MOVE, S_JUMP, S_QUIET, S_STATUS, S_HASH, S_CELLS = range(6)
EMPTY, MAN0, KING0, MAN1, KING1 = range(5)
STEP, JUMP = 0, 1
DIR_ROWS = (-1, -1, 1, 1)
DIR_COLS = (-1, 1, 1, -1)
NUM_PLANES = 7

_MIX1 = i64(0xBF58476D1CE4E5B9)
_MIX2 = i64(0x94D049BB133111EB)
_GOLDEN = i64(0x9E3779B97F4A7C15)


@helper
def mix(z: int) -> int:  # pragma: no cover - compiled
    """splitmix64's finaliser (logical shifts on the signed int64)."""
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * _MIX1
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _MIX2
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


@helper
def code(square: int, piece: int) -> int:  # pragma: no cover - compiled
    """The 64-bit code of ``piece`` on ``square`` (0 for an empty square)."""
    if piece == EMPTY:
        return 0
    return mix((square * 8 + piece) * _GOLDEN)


@helper
def owner(piece: int) -> int:  # pragma: no cover - compiled
    """0 or 1 for a piece, -1 for an empty square."""
    return (piece - 1) >> 1 if piece != EMPTY else -1


@helper
def target(params: Params, s: State, square: int, d: int, kind: int) -> int:  # pragma: no cover - compiled
    """Where the mover's piece on ``square`` lands with direction ``d`` and ``kind`` (a step
    or a jump), -1 if that move is not possible (no own piece there, a man moving backwards,
    off the board, an occupied landing square, or a jump over no opponent's piece)."""
    cols = params[P_COLS]
    p = s[S_TO_MOVE]
    piece = s[S_CELLS + square]
    if owner(piece) != p:
        return -1
    if (piece == MAN0 and d > 1) or (piece == MAN1 and d < 2):
        return -1  # men move forward only: white up (0, 1), black down (2, 3)
    dr, dc = DIR_ROWS[d], DIR_COLS[d]
    r = square // cols + dr
    c = square % cols + dc
    if r < 0 or r >= params[P_ROWS] or c < 0 or c >= cols:
        return -1
    if kind == STEP:
        return r * cols + c if s[S_CELLS + r * cols + c] == EMPTY else -1
    if owner(s[S_CELLS + r * cols + c]) != 1 - p:
        return -1
    r += dr
    c += dc
    if r < 0 or r >= params[P_ROWS] or c < 0 or c >= cols:
        return -1
    return r * cols + c if s[S_CELLS + r * cols + c] == EMPTY else -1


@helper
def can_jump_from(params: Params, s: State, square: int) -> bool:  # pragma: no cover - compiled
    """Whether the mover's piece on ``square`` has a jump."""
    d = 0
    while d < 4 and target(params, s, square, d, JUMP) < 0:
        d += 1
    return d < 4


@helper
def generate(params: Params, s: State, out: I64Array) -> int:  # pragma: no cover - compiled
    """OpenSpiel's LegalActions, ascending: nothing once ``quiet`` reaches the limit; the
    jumping piece's jumps in a multi-jump; else every jump if there is one (captures are
    forced); else every step."""
    if s[S_QUIET] >= params[P_QUIET]:
        return 0
    n = 0
    jump = s[S_JUMP]
    if jump >= 0:
        for d in range(4):
            if target(params, s, jump, d, JUMP) >= 0:
                out[n] = (jump * 4 + d) * 2 + JUMP
                n += 1
        return n
    rows, cols = params[P_ROWS], params[P_COLS]
    for kind in (JUMP, STEP):
        for r in range(rows):
            for c in range(1 - (r & 1), cols, 2):  # the dark squares of row r: r + c odd
                square = r * cols + c
                if owner(s[S_CELLS + square]) != s[S_TO_MOVE]:
                    continue
                for d in range(4):
                    if target(params, s, square, d, kind) >= 0:
                        out[n] = (square * 4 + d) * 2 + kind
                        n += 1
        if n > 0:
            return n
    return 0


@helper
def has_move(params: Params, s: State) -> bool:  # pragma: no cover - compiled
    """Whether ``generate`` would return a move."""
    if s[S_QUIET] >= params[P_QUIET]:
        return False
    if s[S_JUMP] >= 0:
        return True  # apply sets ``jump`` only for a piece that has a jump
    rows, cols = params[P_ROWS], params[P_COLS]
    for r in range(rows):
        for c in range(1 - (r & 1), cols, 2):
            square = r * cols + c
            if owner(s[S_CELLS + square]) != s[S_TO_MOVE]:
                continue
            for d in range(4):
                if target(params, s, square, d, STEP) >= 0 or target(params, s, square, d, JUMP) >= 0:
                    return True
    return False


@helper
def settle(params: Params, s: State) -> None:  # pragma: no cover - compiled
    """Set the status slot: a draw once ``quiet`` reaches the limit, a loss for a mover
    without a move, else ONGOING (OpenSpiel's order of checks)."""
    if has_move(params, s):
        s[S_STATUS] = ONGOING
    elif s[S_QUIET] >= params[P_QUIET]:
        s[S_STATUS] = DRAW
    else:
        s[S_STATUS] = P1_WINS if s[S_TO_MOVE] == 0 else P0_WINS


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
    return generate(params, s, out)


@kernel(IS_LEGAL)
def is_legal(params: Params, s: State, a: int) -> bool:  # pragma: no cover - compiled
    cols = params[P_COLS]
    if s[S_STATUS] != ONGOING or a < 0 or a >= params[P_ROWS] * cols * 8:
        return False
    kind = a & 1
    d = (a >> 1) & 3
    square = a >> 3
    if target(params, s, square, d, kind) < 0:
        return False
    jump = s[S_JUMP]
    if jump >= 0:
        return square == jump and kind == JUMP
    if kind == JUMP:
        return True
    rows = params[P_ROWS]
    for r in range(rows):  # a step is legal only when the mover has no jump anywhere
        for c in range(1 - (r & 1), cols, 2):
            sq = r * cols + c
            if owner(s[S_CELLS + sq]) == s[S_TO_MOVE] and can_jump_from(params, s, sq):
                return False
    return True


@kernel(APPLY)
def apply(params: Params, s: State, a: int, child: State) -> None:  # pragma: no cover - compiled
    for i in range(s.shape[0]):
        child[i] = s[i]
    rows, cols = params[P_ROWS], params[P_COLS]
    kind = a & 1
    d = (a >> 1) & 3
    square = a >> 3
    p = s[S_TO_MOVE]
    piece = s[S_CELLS + square]
    r = square // cols + DIR_ROWS[d] * (kind + 1)
    c = square % cols + DIR_COLS[d] * (kind + 1)
    to = r * cols + c
    landed = piece
    if piece == MAN0 and r == 0:
        landed = KING0
    elif piece == MAN1 and r == rows - 1:
        landed = KING1
    h = s[S_HASH] ^ code(square, piece) ^ code(to, landed)
    child[S_CELLS + square] = EMPTY
    child[S_CELLS + to] = landed
    child[S_JUMP] = -1
    if kind == JUMP:
        over = (square + to) // 2
        h ^= code(over, s[S_CELLS + over])
        child[S_CELLS + over] = EMPTY
        child[S_QUIET] = 0
        # A multi-jump goes on (the same player moves again) while the piece that jumped
        # has another jump, unless this jump crowned it.
        if landed == piece and can_jump_from(params, child, to):
            child[S_JUMP] = to
    else:
        child[S_QUIET] = s[S_QUIET] + 1
    if child[S_JUMP] < 0:
        child[S_TO_MOVE] = 1 - p
    child[S_HASH] = h
    settle(params, child)


@kernel(KEY)
def key(params: Params, s: State) -> int:  # pragma: no cover - compiled
    extra = s[S_TO_MOVE] | ((s[S_JUMP] + 1) << 1) | (s[S_QUIET] << 20)
    return s[S_HASH] ^ mix(extra + _GOLDEN)


@kernel(OBSERVE)
def observe(params: Params, s: State, player_: int, out: I8Array) -> None:  # pragma: no cover - compiled
    rows, cols = params[P_ROWS], params[P_COLS]
    n = rows * cols
    mover = 1 if s[S_TO_MOVE] == player_ else 0
    filled = (n * s[S_QUIET]) // params[P_QUIET]
    for square in range(n):
        piece = s[S_CELLS + square]
        view = square if player_ == 0 else n - 1 - square  # black sees the board turned round
        k = NUM_PLANES * view
        side = owner(piece)  # -1 on an empty square
        man = piece & 1  # men are odd (MAN0, MAN1), kings even
        out[k] = 1 if side == player_ and man == 1 else 0
        out[k + 1] = 1 if side == player_ and man == 0 else 0
        out[k + 2] = 1 if side == 1 - player_ and man == 1 else 0
        out[k + 3] = 1 if side == 1 - player_ and man == 0 else 0
        out[k + 4] = mover
        out[k + 5] = 1 if square == s[S_JUMP] else 0
        out[k + 6] = 1 if view < filled else 0


def initial_state(rows: int, columns: int, quiet_limit: int) -> list[int]:
    """The starting state: black men on the dark squares of the top three rows, white men
    on those of the bottom three, white to move."""
    cells = []
    for r in range(rows):
        for c in range(columns):
            dark = (r + c) % 2 == 1
            cells.append(MAN1 if dark and r < 3 else MAN0 if dark and r >= rows - 3 else EMPTY)
    h = 0
    for square, piece in enumerate(cells):
        h ^= code_of(square, piece)
    return [0, -1, 0, ONGOING, h, *cells]


def code_of(square: int, piece: int) -> int:
    """:func:`code` in Python (the same 64-bit value, as a signed int)."""
    if piece == EMPTY:
        return 0
    mask = (1 << 64) - 1
    z = ((square * 8 + piece) * 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    z ^= z >> 31
    return z - (1 << 64) if z >= 1 << 63 else z
