"""A deliberately simple Othello, written from the rules and nothing else.

Plain Python over a list of rows (``"x"``, ``"o"``, ``"."``), a walk square by square in
each of the 8 directions, no bitboards: the compiled rules of zerosum.games.othello are
tested against it on every board size (OpenSpiel has 8x8 only). Actions as the kit's:
``size*row + col``, and ``size*size`` to pass.
"""

from __future__ import annotations

STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def start(n: int) -> list[list[str]]:
    """The four centre discs set crosswise: white on the diagonal from the top left."""
    board = [["."] * n for _ in range(n)]
    m = n // 2
    board[m - 1][m - 1] = board[m][m] = "o"
    board[m - 1][m] = board[m][m - 1] = "x"
    return board


def turned(board: list[list[str]], r: int, c: int, me: str) -> list[tuple[int, int]]:
    """The discs a disc of ``me`` on the empty square (r, c) turns over."""
    n, other, out = len(board), "o" if me == "x" else "x", []
    for dr, dc in STEPS:
        line, rr, cc = [], r + dr, c + dc
        while 0 <= rr < n and 0 <= cc < n and board[rr][cc] == other:
            line.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < n and 0 <= cc < n and board[rr][cc] == me:
            out += line
    return out


def placements(board: list[list[str]], me: str) -> list[int]:
    """The squares where ``me`` may place, ascending."""
    n = len(board)
    return [r * n + c for r in range(n) for c in range(n) if board[r][c] == "." and turned(board, r, c, me)]


def legal(board: list[list[str]], me: str) -> list[int]:
    """The legal actions: the placements, or the pass alone; none when neither side can place."""
    mine = placements(board, me)
    if mine:
        return mine
    return [] if not placements(board, "o" if me == "x" else "x") else [len(board) ** 2]


def play(board: list[list[str]], me: str, action: int) -> tuple[list[list[str]], str]:
    """The board after ``me`` plays ``action``, and who moves next."""
    n = len(board)
    new = [row[:] for row in board]
    if action < n * n:
        r, c = divmod(action, n)
        for rr, cc in [(r, c), *turned(board, r, c, me)]:
            new[rr][cc] = me
    return new, "o" if me == "x" else "x"


def returns(board: list[list[str]]) -> tuple[float, float]:
    """+1/-1/0 for black and white by the disc counts (of a finished game)."""
    x, o = sum(row.count("x") for row in board), sum(row.count("o") for row in board)
    return (1.0, -1.0) if x > o else (-1.0, 1.0) if o > x else (0.0, 0.0)


def perft(board: list[list[str]], me: str, depth: int) -> int:
    """Move sequences of exactly ``depth`` plies."""
    moves = legal(board, me)
    if depth == 1 or not moves:
        return len(moves) if depth == 1 else 0
    return sum(perft(*play(board, me, a), depth - 1) for a in moves)
