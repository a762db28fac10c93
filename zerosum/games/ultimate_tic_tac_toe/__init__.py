"""Ultimate tic-tac-toe, as OpenSpiel's ``ultimate_tic_tac_toe``.

A big 3x3 board of nine small tic-tac-toe boards. Player 0 (``x``) moves first. A mark
in cell ``c`` of a small board sends the opponent to the small board in place ``c`` of the
big board; when that board is finished (won, or full), or on the very first move, the
player chooses the board to play in. Three in a row on a small board wins it; a full
board without a line is won by nobody. Three won boards in a row on the big board win
the game; when every small board is finished without that, the game is a draw.

As OpenSpiel, a free choice of board is an action of its own: the player first chooses
the board (action = the board's number), then plays a cell of it (action = the cell's
number), two actions by the same player. There are nine actions; what one means (a board
or a cell) depends on the state::

    boards of the big board        cells of a small board (and the board a cell sends to)
        0 | 1 | 2                      0 1 2        (row, column): cell = 3*row + column
        --+---+--                      3 4 5
        3 | 4 | 5                      6 7 8
        --+---+--
        6 | 7 | 8

Names as OpenSpiel writes them: ``Choose local board 4`` for a choice, ``Local board 4:
x(1,1)`` for a mark (``x`` or ``o``, the cell's row and column). Also read: ``board 4``
(or ``b4``) for a choice, ``x(1,1)``, ``(1,1)`` or ``1,1`` for a cell of the board in
play, and the action number.

No variants. State: ``[to_move, forced board (9: a choice is due), status, boards won by
each player, boards finished, the nine boards' marks]`` (see
:mod:`zerosum.games.ultimate_tic_tac_toe.rules`). Observation (9, 9, 6) over the 81
cells of the big board: own marks, the opponent's, the board to play in, all ones when a
board is to be chosen, all ones when the observer is to move, the boards still open.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from zerosum.games.kit import (
    DRAW, ONGOING, P0_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, check_action,
)
from zerosum.games.ultimate_tic_tac_toe import knowledge, rules
from zerosum.games.ultimate_tic_tac_toe.rules import (
    FREE, NUM_PLANES, S_BOARDS, S_FINISHED, S_FORCED, S_STATUS, S_TO_MOVE, S_WON, initial_state,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal)
_MARKS = "xo"
_BOARD = re.compile(r"^(?:choose\s+)?(?:local\s+)?(?:board\s*|b)(\d)$")
_CELL = re.compile(r"^(?:(?:local\s+)?board\s*(\d)\s*:\s*)?[xo]?\(?\s*(\d)\s*,\s*(\d)\s*\)?$")
_EITHER = re.compile(r"^board (\d) / cell \((\d),(\d)\)$")
_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class UltimateTicTacToe(Game):
    """Ultimate tic-tac-toe: nine tic-tac-toe boards in a big one."""

    name = "ultimate_tic_tac_toe"
    kernels = KERNELS
    variants = ()
    heuristics = knowledge.HEURISTICS
    default_heuristic = "threats"
    # Against OpenSpiel's MCTSBot(1000) (bench/ultimate_tic_tac_toe.py; 2026-11-29, load 12-16 on 2 cores): MCTS
    # at 0.1 s a move with c=0.7 scored 0.88 over 100 games, with the default c=1.4 0.67 over 100; alpha-beta at
    # 0.1 s with the threats heuristic 0.70 over 10
    default_opponent = "mcts(time=0.1, c=0.7)"

    def layout(self, variant: dict[str, Any]) -> Layout:
        """Nine actions; OpenSpiel's bound on the length: 81 marks, each after a choice at most."""
        return Layout(params=[0], initial=initial_state(), num_actions=9, max_moves=9, max_game_length=162,
                      observation_shape=(9, 9, NUM_PLANES))

    # ---- text -------------------------------------------------------------------------
    def choosing(self, state: State) -> bool:
        """Whether the player to move in ``state`` chooses a board (rather than a cell)."""
        return int(self._plain(state)[S_FORCED]) == FREE

    def action_to_string(self, action: int, state: State | None = None) -> str:
        """OpenSpiel's name: ``Choose local board 4`` when a board is to be chosen in
        ``state``, ``Local board 4: x(1,1)`` for a mark (``board 4 / cell (1,1)`` without a
        state: the action means either)."""
        a = check_action(action, self.num_actions)
        r, c = divmod(a, 3)
        if state is None:
            return f"board {a} / cell ({r},{c})"
        s = self._plain(state)
        forced = int(s[S_FORCED])
        if forced == FREE:
            return f"Choose local board {a}"
        return f"Local board {forced}: {_MARKS[int(s[S_TO_MOVE])]}({r},{c})"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``Choose local board 4``, ``board 4`` or ``b4`` (a choice), ``Local board 4:
        x(1,1)``, ``x(1,1)``, ``(1,1)`` or ``1,1`` (a cell of the board in play), an action
        number, or the name given without a state (``board 4 / cell (1,1)``). With a state, a
        choice is read only when one is due, and a cell only when it is not (and a named board
        must be the board in play)."""
        t = " ".join(str(text).strip().lower().split())
        if t.isdigit() and int(t) < self.num_actions:
            return int(t)
        m = _EITHER.match(t)
        if m and int(m[1]) == 3 * int(m[2]) + int(m[3]) < 9:
            return int(m[1])  # the name without a state: the action, whichever it means
        forced = None if state is None else int(self._plain(state)[S_FORCED])
        m = _BOARD.match(t)
        if m and int(m[1]) < 9:
            if forced is not None and forced != FREE:
                raise IllegalActionError(f"cannot read move {text!r}: no board is to be chosen now, the move is a "
                                         f"cell of board {forced}: write its row and column, e.g. '(1,1)'")
            return int(m[1])
        m = _CELL.match(t)
        if m and int(m[2]) < 3 and int(m[3]) < 3:
            if forced == FREE:
                raise IllegalActionError(f"cannot read move {text!r}: a board is to be chosen first: write "
                                         "'board N' (N = 0-8, row-major in the big board)")
            if m[1] is not None and forced is not None and int(m[1]) != forced:
                raise IllegalActionError(f"cannot read move {text!r}: the move is on board {forced}, not {m[1]}")
            return 3 * int(m[2]) + int(m[3])
        raise IllegalActionError(f"cannot read move {text!r}: write 'board N' to choose a board (N = 0-8, row-major "
                                 "in the big board) and '(row,column)' for a cell of the board in play (0-2 each), "
                                 "e.g. 'board 4' then '(1,1)'")

    def illegal_reason(self, action: int, state: State) -> str:
        """Why ``action`` is not legal for the player to move (for apply's error message)."""
        s = self._plain(state)
        forced = int(s[S_FORCED])
        if forced == FREE:
            return f"board {action} is finished"
        r, c = divmod(action, 3)
        return f"cell ({r},{c}) of board {forced} is taken"

    def cells(self, state: State) -> list[str]:
        """The big board as 9 rows of 9 cells of ``x``, ``o`` and ``.``, the top row first
        (OpenSpiel's drawing without its spaces)."""
        s = self._plain(state)
        rows = []
        for big_r in range(9):
            row = ""
            for big_c in range(9):
                b = 3 * (big_r // 3) + big_c // 3
                c = 3 * (big_r % 3) + big_c % 3
                w = int(s[S_BOARDS + b])
                row += "x" if (w >> c) & 1 else "o" if (w >> (c + 9)) & 1 else "."
            rows.append(row)
        return rows

    def render(self, state: State) -> str:
        """The big board, its small boards apart, then each small board's outcome (``X``,
        ``O``, ``=`` for a draw, ``.`` in play) and who is to do what."""
        s = self._plain(state)
        grid = self.cells(s)
        lines = []
        for big_r in range(9):
            if big_r in (3, 6):
                lines.append("------+-------+------")
            row = grid[big_r]
            lines.append(" | ".join(" ".join(row[k:k + 3]) for k in (0, 3, 6)))
        won = (int(s[S_WON]), int(s[S_WON + 1]))
        finished = int(s[S_FINISHED])
        small = ["X" if (won[0] >> b) & 1 else "O" if (won[1] >> b) & 1 else "=" if (finished >> b) & 1 else "."
                 for b in range(9)]
        lines.append("boards: " + " ".join("".join(small[k:k + 3]) for k in (0, 3, 6)))
        st = int(s[S_STATUS])
        mover = _MARKS[int(s[S_TO_MOVE])]
        forced = int(s[S_FORCED])
        if st == ONGOING:
            lines.append(f"{mover} to move: " + ("choose a board" if forced == FREE else f"a cell of board {forced}"))
        else:
            lines.append("draw" if st == DRAW else f"{_MARKS[0 if st == P0_WINS else 1]} wins")
        return "\n".join(lines)

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...], forced: int | None = None,
                 to_move: str | None = None) -> State:
        """A state from the big board as 9 rows of 9 cells of ``x``, ``o`` and ``.`` (the top
        row first, as :meth:`cells` gives them; spaces and ``|`` ignored), the board the
        mover plays in (None: the mover chooses one) and the side to move (``"x"`` or
        ``"o"``; by default the one the counts say: ``x`` when both have as many marks). A
        finished game records, as OpenSpiel, the side that moved last and the cell it played
        (``forced``).
        PositionError for a board that cannot be read, counts no game gives, or a forced
        board that is finished."""
        rows = [r for r in board.split("\n") if r.strip() and set(r.strip()) - set("-+")] \
            if isinstance(board, str) else list(board) if isinstance(board, (list, tuple)) else []
        grid = ["".join(ch for ch in str(row).lower() if ch in "xo.") for row in rows]
        if len(grid) != 9 or any(len(g) != 9 for g in grid):
            raise PositionError("an ultimate tic-tac-toe board is 9 rows of 9 cells of x, o or '.', the top row "
                                f"first; got {board!r}")
        nx = sum(g.count("x") for g in grid)
        no = sum(g.count("o") for g in grid)
        if nx - no not in (0, 1):
            raise PositionError(f"x moves first, so x has as many marks as o or one more; got x {nx}, o {no}")
        s = np.zeros(self.state_size, np.int64)
        for big_r, row in enumerate(grid):
            for big_c, ch in enumerate(row):
                if ch != ".":
                    b = 3 * (big_r // 3) + big_c // 3
                    c = 3 * (big_r % 3) + big_c % 3
                    s[S_BOARDS + b] |= 1 << (c + 9 * "xo".index(ch))
        for b in range(9):
            mine = [(int(s[S_BOARDS + b]) >> (9 * p)) & 0x1FF for p in (0, 1)]
            lines = [any(all((mine[p] >> k) & 1 for k in line) for line in _LINES) for p in (0, 1)]
            if lines[0] and lines[1]:
                raise PositionError(f"board {b} has a line of both x and o")
            for p in (0, 1):
                if lines[p]:
                    s[S_WON + p] |= 1 << b
            if lines[0] or lines[1] or (mine[0] | mine[1]) == 0x1FF:
                s[S_FINISHED] |= 1 << b
        for p in (0, 1):
            if any(all((int(s[S_WON + p]) >> k) & 1 for k in line) for line in _LINES):
                s[S_STATUS] = P0_WINS + p
        if s[S_STATUS] == ONGOING and int(s[S_FINISHED]) == 0x1FF:
            s[S_STATUS] = DRAW
        over = int(s[S_STATUS]) != ONGOING
        # the side to move; in a finished game, as OpenSpiel keeps it, the side that moved last
        mover = (nx - no if not over else 1 - (nx - no)) if to_move is None else \
            "xo".index(to_move) if to_move in ("x", "o") else -1
        expected = nx - no if not over else 1 - (nx - no)
        if mover != expected:
            raise PositionError(f"to_move={to_move!r}: with x {nx} and o {no} marks, {'xo'[expected]} is "
                                + ("to move" if not over else "recorded as the last mover of the finished game"))
        s[S_TO_MOVE] = mover
        if forced is None:
            s[S_FORCED] = FREE
        elif not (isinstance(forced, int) and 0 <= forced < 9) or ((int(s[S_FINISHED]) >> forced) & 1 and not over):
            raise PositionError(f"forced={forced!r}: an unfinished board 0-8, or None for a free choice (in a "
                                "finished game: the cell played last)")
        else:
            s[S_FORCED] = forced
        return s
