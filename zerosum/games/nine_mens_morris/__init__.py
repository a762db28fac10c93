"""Nine Men's Morris.

Points are numbered as OpenSpiel numbers them (row by row from the top, left to right)
and named with the usual coordinates of the board diagram (files a-g, ranks 1-7)::

    7   0 ------------ 1 ------------ 2
        |              |              |
    6   |    3 ------- 4 ------- 5    |
        |    |         |         |    |
    5   |    |    6 -- 7 -- 8    |    |
        |    |    |         |    |    |
    4   9 -- 10 - 11        12 - 13 - 14
        |    |    |         |    |    |
    3   |    |    15 - 16 - 17   |    |
        |    |         |         |    |
    2   |    18 ------ 19 ------ 20   |
        |              |              |
    1   21 ----------- 22 ----------- 23
        a    b    c    d    e    f    g

So point 0 is a7, 1 d7, 2 g7, 3 b6, ... 9 a4, ... 14 g4, ... 21 a1, 22 d1, 23 g1.

Lines join adjacent points; the 16 mills are the 8 rows of three (a7-d7-g7, b6-d6-f6,
c5-d5-e5, a4-b4-c4, e4-f4-g4, c3-d3-e3, b2-d2-f2, a1-d1-g1) and the 8 columns of three
(a7-a4-a1, b6-b4-b2, c5-c4-c3, d7-d6-d5, d3-d2-d1, e5-e4-e3, f6-f4-f2, g7-g4-g1).

**Rules (defaults).** Player 0 (X, white) moves first. Each player has 9 men. Placing
phase: while a player has men in hand, a turn places one on an empty point. Moving phase:
a man moves along a line to an adjacent empty point. Flying: a player down to 3 men moves
a man to any empty point. Closing a mill (the placed or moved man completes three of its
own in a row) gives the same player a removal turn (``current_player`` stays the same
and ``removal_due`` is set): they remove one of the opponent's men; closing two mills at
once still removes one. Men in a mill are protected unless every opponent man on the
board is in a mill. A player reduced to 2 men, or with no legal move on their turn, loses.

**Turns and the draw.** A *turn* is one player's placement or move together with the
removal it earns, if any: the turn counter goes up by one each time the player to move
changes, exactly as OpenSpiel's ``num_turns``. When the counter reaches ``max_turns``
(default 200) the game is drawn, unless the player to move has no legal move (they lose)
or a player is down to 2 men (they lose), the same order of checks as OpenSpiel. So a game
lasts at most ``max_turns`` turns and ``max_turns + 14`` plies (each removal is an extra
ply; at most 13 removals happen in a game, OpenSpiel allows 14). There is no repetition
rule: positions may repeat and the turn cap ends every game.

**Actions (600, OpenSpiel's encoding).** ``0..23``: the point to place a man on, or,
when a removal is due, the point of the opponent's man to remove. ``24 + from*24 + to``:
move (or fly) the man on ``from`` to ``to``. Readable names: ``d7`` (place), ``x d7``
(remove, when the state is given), ``a7-d7`` (move).

**Variants** (keyword arguments; :class:`VariantError` for anything else):

- ``protect_mills=True``: men in a mill can be removed only when all the opponent's men
  are in mills. ``False`` (the Morris study's rule): any opponent man can be removed.
- ``flying=True``: a player with 3 men flies. ``False``: such a player still moves only
  to adjacent points (and may be blockaded).
- ``no_return=False``. ``True`` (the Morris study's rule): a man may not move (or fly)
  straight back to the point it just left, on its owner's next turn. The state records,
  per player, the point that player's last-moved man left and the point it went to; the
  record is replaced by that player's next move and cleared when the man is removed.
  When the return is a player's only move, they have no legal move and lose. The rule
  forbids the shortest repetitions (shuttling a man out of a mill and back); the turn
  counter is unaffected.
- ``max_turns=200``: the draw cap above, 1..100000. ``protect_mills`` and ``flying`` leave
  the counter alone, and no variant adds a repetition rule. The counter is part of the
  state, of the key and (as a fraction of the cap) of the observation.

**State** (``int64[13]``): ``[men_0, men_1, to_move, removal_due, hand_0, hand_1, turns,
left_0, went_to_0, left_1, went_to_1, status, num_legal]``; ``men_p`` are bitboards (bit
i = point i), ``hand_p`` the men still to place, ``left_p``/``went_to_p`` the no-return
record (-1 when none). The last two slots are functions of the others, computed once by
``apply`` (and ``position``): ``status`` the outcome code, so that ``status`` and
``is_terminal`` cost nothing, and ``num_legal`` the number of legal actions (0 once the
game is over), so that ``legal_actions`` allocates its result at the right size. The key
is an exact packing of the board, mover, removal flag and hands, mixed (splitmix64) with
the turn counter and the no-return record.

**Observation** ``(7, 7, 17)`` int8 on the 7x7 grid of the diagram (point ``a7`` is cell
(0, 0), ``g1`` cell (6, 6); the 25 cells that are not points stay 0 in the point planes),
from the observer's side: 0 own men, 1 opponent's men, 2 all ones when the observer is to
move, 3 all ones when the player to move must remove a man, 4-6 the observer's phase
(placing, moving, flying: one plane all ones), 7-9 the opponent's phase, 10 the observer's
men in hand and 11 the opponent's (k men in hand: ones in the first k cells in row-major
order), 12 the turn counter as a fraction of the cap (ones in the first
``49 * turns // max_turns`` cells), 13-14 the observer's no-return record (the point its
last-moved man left, the point that man stands on), 15-16 the opponent's.

**Heuristics** (by name, from the player's point of view; a removal due counts as done):
``men`` (men on the board and in hand, own minus the opponent's), ``men_mills`` (10 per
man + 1 per closed mill), ``men_mobility`` (10 per man + 1 per move to an adjacent empty
point), ``threats`` (10 per man + 3 per open two-in-a-row: two men and an empty third
point on a mill line). The ordering hint puts mill-closing moves first (2), then moves onto
the empty point of an opponent's two-in-a-row (1); removals of a man from an opponent's
open two come first. ``NineMensMorris.position(x=[...], o=[...], ...)`` builds a state from
point names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from zerosum.games.kit import (
    Action, Game, IllegalActionError, Kernels, Layout, PositionError, State, Variant, check_action,
)
from zerosum.games.nine_mens_morris import knowledge, rules
from zerosum.games.nine_mens_morris.tables import (
    ADJ, INITIAL, MAX_MOVES, MOVE_BASE, NUM_ACTIONS, NUM_MEN, NUM_PLANES, NUM_POINTS, PHASE_NAMES, POINT_INDEX,
    POINT_NAMES, POINT_RC, S_HAND, S_LEFT, S_REMOVAL, S_TO_MOVE, S_TURNS, S_WENT, STATE_SIZE,
)

KERNELS = Kernels(legal=rules.legal, apply=rules.apply, status=rules.status, player=rules.player, key=rules.key,
                  observe=rules.observe, order=knowledge.order, is_legal=rules.is_legal, forcing=knowledge.forcing)

_MOVE_RE = re.compile(r"^([a-g][1-7])\s*[-x>\s]?\s*([a-g][1-7])$")
_REMOVE_RE = re.compile(r"^(?:x|remove|take)\s*([a-g][1-7])$")
_FORMS = ("write a point to place on such as 'd7', 'x d7' to remove the opponent's man on d7, "
          "'a7-d7' to move, or an action index 0-599")


def _board_template() -> str:
    """The drawn board (13 x 13 characters, with row numbers) with a ``{p}`` field at each
    point ``p``, for ``str.format`` with the points' marks in point order."""
    grid = [[" "] * 13 for _ in range(13)]
    for p in range(NUM_POINTS):
        r, c = 2 * int(POINT_RC[p, 0]), 2 * int(POINT_RC[p, 1])
        grid[r][c] = f"{{{p}}}"
        for q in range(p + 1, NUM_POINTS):
            if (int(ADJ[p]) >> q) & 1:
                r2, c2 = 2 * int(POINT_RC[q, 0]), 2 * int(POINT_RC[q, 1])
                if r2 == r:
                    for x in range(c + 1, c2):
                        grid[r][x] = "-"
                else:
                    for y in range(r + 1, r2):
                        grid[y][c] = "|"
    return "\n".join(f"{7 - i // 2}  " + "".join(row) if i % 2 == 0 else "   " + "".join(row)
                     for i, row in enumerate(grid))


_BOARD = _board_template()


class NineMensMorris(Game):
    """Nine Men's Morris with the rule variants of the literature (see the module docstring)."""

    name = "nine_mens_morris"
    kernels = KERNELS
    sgf_game = 5
    sgf_colours = ("W", "B")  # player 0 is white and moves first
    variants = (
        Variant("protect_mills", bool, True, "men in a mill can be removed only when every opponent man is in one"),
        Variant("flying", bool, True, "a player with 3 men moves a man to any empty point"),
        Variant("no_return", bool, False, "a man may not move straight back to the point it just left"),
        Variant("max_turns", int, 200, "the game is drawn when the turn counter reaches this", range=(1, 100_000)),
    )
    heuristics = knowledge.HEURISTICS
    # men_mobility: against 0.1.0 (men_mills) at 0.05 s a move, 200 games (python bench/vs_release.py
    # nine_mens_morris --games 200 --workers 1 --ours heuristic=men_mobility, this tree's defaults otherwise), it
    # scored 0.745 [0.68, 0.80], W/D/L 122/54/24, Elo +186 [+144, +230], where petcu scored 0.565-0.603 and men_mills
    # 0.583; at 20,000 nodes a move it beat petcu 42/11/7 (the study's finding: mobility is what Morris rewards)
    default_heuristic = "men_mobility"

    def layout(self, variant: dict[str, Any]) -> Layout:
        """600 actions, at most 64 legal at once; a game lasts at most max_turns + 14 plies."""
        params = [int(variant["protect_mills"]), int(variant["flying"]), int(variant["no_return"]),
                  variant["max_turns"]]
        return Layout(params=params, initial=INITIAL, num_actions=NUM_ACTIONS, max_moves=MAX_MOVES,
                      max_game_length=variant["max_turns"] + 14, observation_shape=(7, 7, NUM_PLANES))

    # ---- readable state -------------------------------------------------------------
    def position(self, x: Sequence[str] = (), o: Sequence[str] = (), to_move: int = 0,
                 in_hand: tuple[int, int] = (0, 0), removal_due: bool = False, turns: int = 0,
                 no_return: Mapping[int, tuple[str, str]] | None = None) -> State:
        """A state built from point names: ``x`` and ``o`` the men of players 0 and 1.

        ``no_return`` maps a player to (point left, point the man went to), as recorded by
        the ``no_return`` variant. Raises PositionError for an impossible description.
        """
        s = np.zeros(STATE_SIZE, dtype=np.int64)
        s[[S_LEFT, S_WENT, S_LEFT + 2, S_WENT + 2]] = -1  # no no-return record
        for pl, names in ((0, x), (1, o)):
            for n in names:
                if n not in POINT_INDEX:
                    raise PositionError(f"unknown point {n!r}: points are {', '.join(POINT_NAMES)}")
                if (int(s[0] | s[1]) >> POINT_INDEX[n]) & 1:
                    raise PositionError(f"point {n} is given twice")
                s[pl] |= 1 << POINT_INDEX[n]
        if to_move not in (0, 1):
            raise PositionError(f"to_move={to_move!r}: 0 or 1")
        for pl in (0, 1):
            if not 0 <= in_hand[pl] <= NUM_MEN or int(s[pl]).bit_count() + in_hand[pl] > NUM_MEN:
                raise PositionError(f"player {pl} has more than {NUM_MEN} men or a bad in_hand={in_hand}")
        if not 0 <= turns <= self.variant["max_turns"]:
            raise PositionError(f"turns={turns!r}: 0..max_turns ({self.variant['max_turns']})")
        s[S_TO_MOVE], s[S_REMOVAL], s[S_TURNS] = to_move, int(bool(removal_due)), turns
        s[S_HAND], s[S_HAND + 1] = in_hand
        for pl, (left, went) in (no_return or {}).items():
            if pl not in (0, 1):
                raise PositionError(f"no_return={no_return!r}: the keys are players, 0 or 1")
            if left not in POINT_INDEX or went not in POINT_INDEX:
                raise PositionError(f"no_return={no_return!r}: points are {', '.join(POINT_NAMES)}")
            s[S_LEFT + 2 * pl], s[S_WENT + 2 * pl] = POINT_INDEX[left], POINT_INDEX[went]
        rules.settle(self.params, s)
        return s

    def removal_due(self, state: State) -> bool:
        """True when the player to move must remove one of the opponent's men."""
        return bool(state[S_REMOVAL])

    def men_in_hand(self, state: State) -> tuple[int, int]:
        """Men still to place, for players 0 and 1."""
        return int(state[S_HAND]), int(state[S_HAND + 1])

    def men_on_board(self, state: State) -> tuple[int, int]:
        """Men on the board, for players 0 and 1."""
        return int(state[0]).bit_count(), int(state[1]).bit_count()

    def turns(self, state: State) -> int:
        """Completed turns (the counter compared with max_turns)."""
        return int(state[S_TURNS])

    def phase(self, state: State, player: int) -> str:
        """'placing', 'moving' or 'flying' for ``player``."""
        return PHASE_NAMES[int(rules.phase(self.params, self._plain(state), player))]

    def board(self, state: State) -> dict[str, int]:
        """Occupied points by name: ``{"d7": 0, ...}`` (the owning player)."""
        return {POINT_NAMES[p]: pl for pl in (0, 1) for p in range(NUM_POINTS) if (int(state[pl]) >> p) & 1}

    # ---- text -----------------------------------------------------------------------
    def action_to_string(self, action: Action, state: State | None = None) -> str:
        """``d7`` (place or remove), ``x d7`` (remove, when ``state`` says a removal is due), ``a7-d7``."""
        a = check_action(action, NUM_ACTIONS)
        if a < MOVE_BASE:
            if state is not None and state[S_REMOVAL]:
                return f"x {POINT_NAMES[a]}"
            return POINT_NAMES[a]
        p, q = divmod(a - MOVE_BASE, NUM_POINTS)
        return f"{POINT_NAMES[p]}-{POINT_NAMES[q]}"

    def string_to_action(self, text: str, state: State | None = None) -> Action:
        """Parse ``d7``, ``x d7``, ``a7-d7`` or an action index; with ``state``, a removal
        must be written ``x d7`` or ``d7`` and a placement must not be written ``x d7``."""
        t = " ".join(str(text).strip().lower().split())
        if t.isdigit() and int(t) < NUM_ACTIONS:
            return int(t)
        if t in POINT_INDEX:
            return POINT_INDEX[t]
        m = _REMOVE_RE.match(t)
        if m:
            if state is not None and not state[S_REMOVAL]:
                raise IllegalActionError(f"cannot read move {text!r}: no removal is due here; {_FORMS}")
            return POINT_INDEX[m.group(1)]
        m = _MOVE_RE.match(t)
        if m:
            return MOVE_BASE + POINT_INDEX[m.group(1)] * NUM_POINTS + POINT_INDEX[m.group(2)]
        raise IllegalActionError(f"cannot read move {text!r}: {_FORMS} (points a7, d7, g7, b6, ... see the diagram)")

    def render(self, state: State) -> str:
        """The board with coordinates (X player 0, O player 1) and the counters."""
        mine, theirs = int(state[0]), int(state[1])
        cells = ["X" if (mine >> p) & 1 else "O" if (theirs >> p) & 1 else "." for p in range(NUM_POINTS)]
        lines = _BOARD.format(*cells).split("\n")
        lines.append("   a b c d e f g")
        mover = int(state[S_TO_MOVE])
        status = self.outcome(state)
        if status.name == "ONGOING":
            what = "must remove a man" if state[S_REMOVAL] else self.phase(state, mover)
            lines.append(f"to move: {'XO'[mover]} (player {mover}), {what}")
        else:
            lines.append(f"game over: {status.name}")
        lines.append(f"in hand: X {int(state[S_HAND])}, O {int(state[S_HAND + 1])}; "
                     f"turn {int(state[S_TURNS])} of {self.variant['max_turns']}")
        return "\n".join(lines)
