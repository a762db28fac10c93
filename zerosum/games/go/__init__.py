"""Go, as OpenSpiel's ``go``: simple ko, no suicide, Tromp-Taylor area scoring with komi.

Black (player 0, ``X``) and white (player 1, ``O``) take turns placing a stone on an empty
point or passing. A group (stones joined along the lines) with no empty point next to it
is captured. A move may not leave its own group without a liberty (no suicide), nor retake
a ko at once: a stone played where every neighbour is the opponent's (or off the board)
that captures exactly one stone makes that stone's point the ko point, which the
opponent may not play on the next move. The game ends after two passes in a row, after
``max_game_length = 2 * board_size**2`` moves (passes included), or at once as a draw when a
move makes a board that was seen before in the game (a positional superko, which
OpenSpiel scores as a draw). Scoring is by area (Tromp-Taylor): stones plus the empty
regions that touch only one colour; white adds ``komi``, and with a handicap of 2 or more
black gives back one point a handicap stone. Black wins on a positive margin, white on a
negative one, an even margin (only with an integer komi) is a draw.

Points and actions (the default 9x9; action = ``row * board_size + col``, row 0 is the row
named 1, at the bottom; column letters skip ``i`` as in Go and GTP)::

       a  b  c  d  e  f  g  h  j
    9 72 73 74 75 76 77 78 79 80
    8 63 ...
    ...
    2  9 10 11 12 13 14 15 16 17
    1  0  1  2  3  4  5  6  7  8        action 81: pass

Names: ``d4`` (as OpenSpiel's action strings, without the colour) and ``pass``.

Variants (as OpenSpiel's ``go``): ``board_size`` (5 to 19, default 9; OpenSpiel's
default is 19), ``komi`` (a multiple of 0.5 from -500 to 500, default 7.5) and
``handicap`` (0 to 9): from 2 on, black's stones go on OpenSpiel's points (d4, q16, d16,
q4, d10, q10, k4, k16, k10; 19x19 points, so boards of 16 or more) and white moves first.

State: bitboards and the sorted keys of the boards seen (see :mod:`zerosum.games.go.rules`).
Observation ``(board_size, board_size, 6)``, indexed like the actions (row 0 at the
bottom), from the observer's side: own stones, the opponent's, the ko point, all ones
when the observer is to move, all ones when the observer plays black (komi), all ones
when the last move was a pass. The number of moves played and the boards seen (the
superko) are in the state, not in the observation, as in OpenSpiel's and PettingZoo's Go.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from zerosum.games.go import knowledge, rules, tables
from zerosum.games.go.rules import S_BLACK, S_HASH, S_HIST, S_HIST_KEY, S_KO, S_MOVES, S_PASSED, S_SEEN, S_STATUS, \
    S_TO_MOVE, S_WHITE
from zerosum.games.kit import (
    DRAW, ONGOING, P0_WINS, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant, check_action,
    VariantError, check_variant,
)
from zerosum.games.records import sgf_coords, sgf_point

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, is_legal=rules.is_legal, order=knowledge.order)
COLUMNS = "abcdefghjklmnopqrst"
"""Column letters, ``i`` skipped (Go, GTP and OpenSpiel)."""
_MARKS = "XO"
_COLOURS = ("black", "white")


class Go(Game):
    """Go on a ``board_size`` x ``board_size`` board with ``komi`` and ``handicap``."""

    name = "go"
    kernels = KERNELS
    variants = (
        Variant("board_size", int, 9, "lines of the board", range=(tables.MIN_SIZE, tables.MAX_SIZE)),
        Variant("komi", float, 7.5, "points white adds to its score (a multiple of 0.5)", range=(-500.0, 500.0)),
        Variant("handicap", int, 0, "black's handicap stones (2 or more: white moves first)", range=(0, 9)),
    )
    heuristics = knowledge.HEURISTICS
    default_heuristic = "area"
    # measured 2026-11-28 on 9x9, 0.1 s a move, 6 games a pair (load ~18 on 2 cores): alphabeta(time=0.1)
    # with the area estimate scored 11/12 against mcts(time=0.1) (random rollouts) and mcts(time=0.1,
    # rollout_depth=30, heuristic=area); the two MCTS 3/6 against each other
    default_opponent = "alphabeta(time=0.1)"
    sgf_game = 1

    def layout(self, variant: dict[str, Any]) -> Layout:
        """Params from :func:`zerosum.games.go.tables.params`; the handicap stones placed."""
        n, komi, handicap = variant["board_size"], variant["komi"], variant["handicap"]
        check_variant("komi", komi, "a multiple of 0.5 from -500 to 500", float(komi) * 2 == int(float(komi) * 2))
        check_variant("handicap", handicap, f"0 or 1 on a {n}x{n} board: OpenSpiel's handicap points (d4, q16, ...) "
                      "are 19x19 points, so 2 to 9 need a board_size of 16 or more", handicap < 2 or n >= 16)
        longest = 2 * n * n
        params = tables.params(n, int(float(komi) * 2), handicap, longest)
        state = [0] * (S_HIST + longest + 1)
        h = 0
        for row, col in tables.handicap_points(n, handicap):
            word, b = tables.point_bit(n, row, col)
            state[S_BLACK + word] |= 1 << b
            h ^= int(tables.ZOBRIST[0, 19 * row + col])
        state[S_TO_MOVE] = 1 if handicap >= 2 else 0
        state[S_KO] = rules.NO_POINT
        state[S_HASH] = h
        state[S_SEEN] = 1
        state[S_HIST] = h
        state[S_HIST_KEY] = int(rules.mix(np.int64(h)))
        return Layout(params=params, initial=state, num_actions=n * n + 1, max_moves=n * n + 1,
                      max_game_length=longest, observation_shape=(n, n, rules.PLANES),
                      variant={"board_size": n, "komi": float(komi), "handicap": handicap})

    @property
    def board_size(self) -> int:
        """Lines of the board."""
        return int(self.variant["board_size"])

    @property
    def komi(self) -> float:
        """Points white adds to its score."""
        return float(self.variant["komi"])

    @property
    def handicap(self) -> int:
        """Black's handicap stones."""
        return int(self.variant["handicap"])

    @property
    def pass_action(self) -> int:
        """The pass: ``board_size ** 2``."""
        return self.board_size ** 2

    # ---- text -------------------------------------------------------------------------
    def action_to_string(self, action: int, state: State | None = None) -> str:
        """``d4`` (column letter without ``i``, row from 1 at the bottom) or ``pass``."""
        a = check_action(action, self.num_actions)
        if a == self.pass_action:
            return "pass"
        return f"{COLUMNS[a % self.board_size]}{a // self.board_size + 1}"

    def string_to_action(self, text: str, state: State | None = None) -> int:
        """Parse ``d4`` (any case; no column ``i``), ``pass``, or an action number."""
        t = str(text).strip().lower()
        n = self.board_size
        if t == "pass":
            return self.pass_action
        if t.isdigit() and int(t) < self.num_actions:
            return int(t)
        if len(t) >= 2 and t[0] in COLUMNS[:n] and t[1:].isdigit() and 1 <= int(t[1:]) <= n:
            return (int(t[1:]) - 1) * n + COLUMNS.index(t[0])
        raise IllegalActionError(f"cannot read move {text!r}: write a point such as 'd4' (columns "
                                 f"a-{COLUMNS[n - 1]} without i, rows 1-{n}) or 'pass'")

    # ---- SGF --------------------------------------------------------------------------
    def sgf_move(self, action: int, state: State) -> str:
        """SGF's point (``dd``: column, then row from the top) or ``""`` for a pass."""
        a = check_action(action, self.num_actions)
        n = self.board_size
        return "" if a == self.pass_action else sgf_point(a % n, n - 1 - a // n)

    def sgf_action(self, value: str, state: State) -> int:
        """The action of an SGF point; ``""`` (and ``tt`` on boards up to 19) is a pass."""
        n = self.board_size
        if value.strip() == "" or (value.strip() == "tt" and n <= 19):
            return self.pass_action
        col, row = sgf_coords(value, n)
        return (n - 1 - row) * n + col

    def sgf_root(self) -> dict[str, str | list[str]]:
        """``SZ``, ``KM``, and with a handicap ``HA``, the stones (``AB``) and white to play (``PL``)."""
        n = self.board_size
        root: dict[str, str | list[str]] = {"SZ": str(n), "KM": f"{self.komi:g}"}
        if self.handicap >= 2:
            start = self.initial_state()
            root["HA"] = str(self.handicap)
            root["AB"] = [self.sgf_move(a, start) for a in range(n * n) if self.stone(start, a) == 0]
            root["PL"] = "W"
        return root

    @classmethod
    def sgf_variant(cls, root: Mapping[str, str]) -> dict[str, Any]:
        """``board_size`` from ``SZ``, ``komi`` from ``KM``, ``handicap`` from ``HA`` (the stones on
        OpenSpiel's points)."""
        variant: dict[str, Any] = {}
        try:
            if "SZ" in root:
                variant["board_size"] = int(root["SZ"])
            if "KM" in root:
                variant["komi"] = float(root["KM"])
            if "HA" in root:
                variant["handicap"] = int(root["HA"])
        except ValueError:
            raise VariantError(f"SGF root SZ/KM/HA are numbers; got {dict(root)}") from None
        return variant

    def illegal_reason(self, action: int, state: State) -> str:
        """Occupied, the ko point, or suicide."""
        s = self._plain(state)
        if action == self.pass_action:
            return ""
        if self.stone(s, action) >= 0:
            return f"{self.action_to_string(action)} is occupied"
        if action == int(s[S_KO]):
            return f"{self.action_to_string(action)} retakes the ko at once"
        return f"a stone on {self.action_to_string(action)} would have no liberty (suicide)"

    def stone(self, state: State, action: int) -> int:
        """0 for a black stone on the point ``action``, 1 for white, -1 for none."""
        s = self._plain(state)
        n = self.board_size
        word, b = tables.point_bit(n, action // n, action % n)
        if (int(s[S_BLACK + word]) >> b) & 1:
            return 0
        if (int(s[S_WHITE + word]) >> b) & 1:
            return 1
        return -1

    def cells(self, state: State) -> list[str]:
        """The board as rows of ``X`` (black), ``O`` (white) and ``+``, the top row first."""
        n = self.board_size
        s = self._plain(state)
        return ["".join("+XO"[self.stone(s, r * n + c) + 1] for c in range(n)) for r in reversed(range(n))]

    def ko_point(self, state: State) -> int | None:
        """The point the player to move may not play (a ko just taken), or None."""
        k = int(self._plain(state)[S_KO])
        return None if k < 0 else k

    def moves_played(self, state: State) -> int:
        """Moves played so far, passes included."""
        return int(self._plain(state)[S_MOVES])

    def score(self, state: State) -> float:
        """Black's area score minus white's, komi and handicap included (Tromp-Taylor, as
        OpenSpiel; positive: black is ahead)."""
        n = self.board_size
        s = self._plain(state)
        board = {(r, c): self.stone(s, r * n + c) for r in range(n) for c in range(n)}
        delta, seen = 0, set()
        for p, who in board.items():
            if who >= 0:
                delta += 1 if who == 0 else -1
            elif p not in seen:
                region, todo, reach = {p}, [p], set()
                while todo:
                    r, c = todo.pop()
                    for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                        if q in board and board[q] < 0 and q not in region:
                            region.add(q)
                            todo.append(q)
                        elif q in board and board[q] >= 0:
                            reach.add(board[q])
                seen |= region
                if reach == {0}:
                    delta += len(region)
                elif reach == {1}:
                    delta -= len(region)
        return delta - self.komi - (self.handicap if self.handicap >= 2 else 0)

    def render(self, state: State) -> str:
        """The board as OpenSpiel draws it (``X`` black, ``O`` white, ``+`` empty; row 1 at
        the bottom; columns without I), then who is to move or the result."""
        s = self._plain(state)
        n = self.board_size
        lines = [f"{n - i:2d} {row}" for i, row in enumerate(self.cells(s))]
        lines.append("   " + COLUMNS[:n].upper())
        st = int(s[S_STATUS])
        if st == ONGOING:
            p = int(s[S_TO_MOVE])
            ko = self.ko_point(s)
            said = f"{_COLOURS[p]} ({_MARKS[p]}) to move, move {int(s[S_MOVES]) + 1}" + \
                   (f", ko at {self.action_to_string(ko)}" if ko is not None else "") + \
                   (", after a pass" if s[S_PASSED] else "")
        elif st == DRAW:
            said = "draw (positional superko)" if self.score(s) != 0 else "draw"
        else:
            said = f"{'black' if st == P0_WINS else 'white'} wins by {abs(self.score(s)):g}"
        return "\n".join([*lines, said])

    # ---- positions --------------------------------------------------------------------
    def position(self, board: str | list[str] | tuple[str, ...], to_move: str = "black",
                 ko: str | None = None) -> State:
        """A state from ``board_size`` rows of ``X`` (black), ``O`` (white) and ``+`` or ``.``
        (empty), the top row first, as :meth:`render` draws them (row numbers and the column
        line may be left in); ``to_move`` ``"black"`` or ``"white"``; ``ko`` the point the
        player to move may not play (``"e5"``), if any. The boards seen are this one only
        and no move has been played. PositionError for a group without a liberty."""
        n = self.board_size
        rows = [r for r in board.split("\n") if r.strip()] if isinstance(board, str) else list(board)
        grid = ["".join(ch for ch in str(r).upper() if ch in "XO+.") for r in rows]
        grid = [g for g in grid if g]
        if len(grid) != n or any(len(g) != n for g in grid):
            raise PositionError(f"a {n}x{n} go board is {n} rows of {n} points of X, O and + (or .), top row "
                                f"first; got {board!r}")
        if to_move not in _COLOURS:
            raise PositionError(f"to_move={to_move!r}: 'black' or 'white'")
        state = np.zeros(self.state_size, np.int64)
        h = 0
        for i, g in enumerate(grid):
            row = n - 1 - i
            for col, ch in enumerate(g):
                if ch in "XO":
                    who = "XO".index(ch)
                    word, b = tables.point_bit(n, row, col)
                    state[(S_BLACK if who == 0 else S_WHITE) + word] |= 1 << b
                    h ^= int(tables.ZOBRIST[who, 19 * row + col])
        state[S_TO_MOVE] = _COLOURS.index(to_move)
        state[S_KO] = rules.NO_POINT if ko is None else self.string_to_action(ko)
        state[S_HASH] = h
        state[S_SEEN] = 1
        state[S_HIST] = h
        state[S_HIST_KEY] = int(rules.mix(np.int64(h)))
        for a in range(n * n):
            who = self.stone(state, a)
            if who >= 0 and not self._group_breathes(state, a):
                raise PositionError(f"the {_COLOURS[who]} group at {self.action_to_string(a)} has no liberty")
        if ko is not None and (state[S_KO] == self.pass_action or self.stone(state, int(state[S_KO])) >= 0):
            raise PositionError(f"ko={ko!r} must be an empty point")
        return state

    def _group_breathes(self, state: State, a: int) -> bool:
        n = self.board_size
        who = self.stone(state, a)
        todo, group = [a], {a}
        while todo:
            p = todo.pop()
            r, c = divmod(p, n)
            for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= rr < n and 0 <= cc < n:
                    q = rr * n + cc
                    if self.stone(state, q) < 0:
                        return True
                    if self.stone(state, q) == who and q not in group:
                        group.add(q)
                        todo.append(q)
        return False
