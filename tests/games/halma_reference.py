"""A deliberately simple Halma move generator, written from the rules and nothing else.

Plain Python over a 2-D board, recursion for jump chains, no bitboards and no tables: the
compiled rules in zerosum.games.halma.rules are tested against it. It reads positions only
through ``Halma.board`` (and the turn counter) and writes actions as ``from*N*N + to``.
"""

from __future__ import annotations

import numpy as np

CAMP_ROWS = {16: (5, 5, 4, 3, 2), 10: (5, 4, 3, 2, 1), 8: (4, 3, 2, 1)}
STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def home_camp(n: int, player: int) -> set[tuple[int, int]]:
    """Player 0's camp is the top-left corner, player 1's the bottom-right one."""
    camp = {(r, c) for r, width in enumerate(CAMP_ROWS[n]) for c in range(width)}
    return camp if player == 0 else {(n - 1 - r, n - 1 - c) for r, c in camp}


def legal_moves(board: np.ndarray, player: int) -> list[int]:
    """Every legal action of ``player`` on ``board`` (-1 empty, 0/1 pieces), ascending."""
    n = board.shape[0]
    target = home_camp(n, 1 - player)
    moves = set()
    for r in range(n):
        for c in range(n):
            if board[r, c] != player:
                continue
            stay = (r, c) in target  # a piece in its target camp may not leave it

            def allowed(rr: int, cc: int) -> bool:
                return 0 <= rr < n and 0 <= cc < n and (not stay or (rr, cc) in target)

            ends = set()
            for dr, dc in STEPS:
                if allowed(r + dr, c + dc) and board[r + dr, c + dc] == -1:
                    ends.add((r + dr, c + dc))
            lifted = board.copy()
            lifted[r, c] = -1  # the moving piece has left its square

            def chain(rr: int, cc: int, visited: set[tuple[int, int]]) -> None:
                for dr, dc in STEPS:
                    over, land = (rr + dr, cc + dc), (rr + 2 * dr, cc + 2 * dc)
                    if not allowed(*land) or land in visited:
                        continue
                    if lifted[over] != -1 and lifted[land] == -1:
                        ends.add(land)
                        chain(land[0], land[1], visited | {land})

            chain(r, c, {(r, c)})
            for rr, cc in ends:
                moves.add((r * n + c) * n * n + rr * n + cc)
    return sorted(moves) or [0]  # a player without a move passes (action 0)


def has_won(board: np.ndarray, player: int) -> bool:
    """Every target-camp square occupied, at least one by the player's own pieces."""
    cells = [board[sq] for sq in home_camp(board.shape[0], 1 - player)]
    return all(v != -1 for v in cells) and any(v == player for v in cells)


def status(board: np.ndarray, turn: int, max_turns: int) -> str:
    """'p0', 'p1', 'draw' or 'ongoing'; the player who just moved is checked first."""
    last = 1 - turn % 2
    for p in (last, 1 - last):
        if has_won(board, p):
            return f"p{p}"
    return "draw" if turn >= max_turns else "ongoing"
