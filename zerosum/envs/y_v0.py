"""Y.

| Import             | `from zerosum.envs import y_v0`        |
|--------------------|----------------------------------------|
| Actions            | Discrete                               |
| Parallel API       | No                                     |
| Agents             | `agents= ['player_0', 'player_1']`     |
| Action shape       | (1,)                                   |
| Action values      | Discrete(361)                          |
| Observation shape  | (19, 19, 4)                            |
| Observation values | [0, 1]                                 |

(The table is for the default board of side 19; the shapes follow `board_size`.)

Two players take turns putting a stone on an empty cell of a triangle of hexagons.
A player wins by a chain of its stones that touches all three sides (a corner cell lies on
two). A full board always holds one such chain, so there are no draws; `player_0` (`x`)
moves first. Rules, parameters and actions are OpenSpiel's `y` (no pie rule), equal to it
at every step of random games (`tests/games/test_y.py`).

**Observation.** A dict: `observation` is an int8 array (N, N, 4), row y and column x
(the triangle is the cells with x + y < N): plane 0 the observer's stones, plane 1 the
opponent's, plane 2 the empty cells of the board, plane 3 all ones when the observer is to
move. The cut-off corner of the square is zeros in every plane. `action_mask` is an int8
vector of N * N, all zeros for the agent not to move (and always zero off the triangle).

**Actions.** `action = x + y * N` (OpenSpiel's encoding on its N x N square; the actions
with x + y >= N are never legal); readable names are the column letter and the row number,
as OpenSpiel names them (`a1` = 0, `b2` = N + 1). Each row sits half a cell right of the
one above::

      a  b  c  d  e
    1  0  1  2  3  4           (x, y) touches (x, y-1), (x+1, y-1),
     2  5  6  7  8                            (x-1, y), (x+1, y),
      3 10 11 12                              (x-1, y+1), (x, y+1)
       4 15 16
        5 20                   5x5: sides column a, row 1, and the slant

**Rewards.** +1 to the player whose chain touches the three sides and -1 to the other, 0
on every other step. Through `env()`, an illegal action ends the game with -1 to its
author.

**Variants.** As OpenSpiel's `y`: `board_size` (int 2..26, default 19). Example:
`y_v0.env(board_size=9)`.

**Heuristics** (for alpha-beta, `heuristic=`). Each player's *potential* is the least,
over the empty cells x, of x's distances to the three sides, summed, minus 2 (the cells
still to fill for a chain branching at x), on the graph where its own stones cost nothing
(a chain is one node) and the opponent's are walls (Hex's connection distances, shared);
a position scores the opponent's potential minus the player's, 100 a cell. `distance`:
shortest paths. `two_distance` (the default): Queenbee's two-distance (van Rijswijck,
2000), where a cell is one more than its *second*-best neighbour; ties broken by how many
cells reach the potential. The move-ordering hint tries cells next to stones, then the
centre.

**Figures** (2-core machine shared with other jobs, load 9-14, 2026-11-29; each with its command).

* *Equal to OpenSpiel's `y` at every step*: 53,194 steps of 820 random games on sizes 19, 5, 9,
  2 and 26 (legal actions, board, player to move, terminal flag, returns, action names), and
  perft: `python bench/y.py --games 200 --strength-games 0`.
* *Speed*: random games in the loop a user writes (`legal = game.legal_actions(s); s =
  game.apply(s, int(legal[i]))`, with `current_player` and `returns`) run 2.11x as many moves a
  second as the same loop on pyspiel in the same process (1.47 M against 0.70 M moves/s, size
  19; 2.02-2.08x in three quick runs): the same command.
* *The default opponent*, `alphabeta(time=0.1)` (with `two_distance`), against OpenSpiel's
  `MCTSBot` (C++, 1,000 simulations, one random rollout a leaf, `uct_c=2`, `solve`), seats
  alternating from paired 4-ply random openings on the default board: 100 wins in 100 games
  (50 in each seat), score 1.00, 95% Wilson interval [0.963, 1.00]; 0.14 s a move against the
  bot's 0.30 s: `python bench/strength.py --game y --games 100 --workers 1 --log strength_y.jsonl`.
* *The default heuristic*: `two_distance` won 19 of 20 games against `distance` at depth 2 on
  size 9, 10 in each seat: `zerosum match --game y "alphabeta(depth=2)" "alphabeta(depth=2,
  heuristic=distance)" --variant board_size=9 --max-games 20`.

*Perft* (move sequences of each length from the start), the same as OpenSpiel's
(`tests/games/test_y.py` checks them to depth 5):

| size | 1 | 2 | 3 | 4 | 5 | 6 | 7 |
|---|---|---|---|---|---|---|---|
| 2 | 3 | 6 | 6 | | | | |
| 3 | 6 | 30 | 120 | 360 | 720 | 360 | |
| 4 | 10 | 90 | 720 | 5,040 | 30,240 | 151,200 | 604,800 |
| 5 | 15 | 210 | 2,730 | 32,760 | | | |
| 19 | 190 | 35,910 | | | | | |

**Render modes.** `ansi` and `human` give the text triangle with coordinates; `rgb_array`
an image of hexagons with the three sides drawn.

**Version history.** v0: first release.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import LINE, canvas, stone, to_array
from zerosum.games.y import Y

NAME = "y_v0"
"""The environment's name."""
EMPTY = (222, 198, 156)
SIDE = (150, 95, 60)


def hexagon_board(cells: Sequence[tuple[float, float, str]], radius: int,
                  outline: Callable[[Callable[[float, float], tuple[float, float]]], Sequence[Sequence[float]]] = (
                      lambda at: ()),
                  ) -> np.ndarray:
    """A board of pointy-topped hexagons: ``cells`` is (u, v, mark) with u along a row and
    v the row, each row half a cell right of the one above (``u + v/2`` across), mark
    ``x``, ``o`` or ``.``; ``outline(at)`` gives polylines (in cell coordinates through
    ``at``) drawn under the cells, the board's sides. Shared by Y and Havannah."""
    w = math.sqrt(3) * radius
    pad = radius * 1.6
    across = [u + v / 2 for u, v, _ in cells]
    rows = [v for _, v, _ in cells]
    left, top = min(across), min(rows)
    width = round((max(across) - left + 1) * w + 2 * pad)
    height = round((max(rows) - top) * 1.5 * radius + 2 * radius + 2 * pad)
    img, pen = canvas(width, height)

    def at(u: float, v: float) -> tuple[float, float]:
        return pad + w / 2 + (u + v / 2 - left) * w, pad + radius + (v - top) * 1.5 * radius

    for line in outline(at):
        pen.line(list(line), fill=SIDE, width=max(4, radius // 3), joint="curve")
    for u, v, mark in cells:
        x, y = at(u, v)
        corners = [(x + radius * math.cos(math.radians(90 + 60 * k)),
                    y + radius * math.sin(math.radians(90 + 60 * k))) for k in range(6)]
        pen.polygon(corners, fill=EMPTY, outline=LINE, width=2)
        if mark != ".":
            stone(pen, x, y, radius * 0.62, "xo".index(mark))
    return to_array(img)


def draw(game: Y, state: np.ndarray, radius: int = 18) -> np.ndarray:
    """The triangle of hexagons, each row half a cell right of the one above, its three
    sides outlined."""
    n = game.size
    rows = game.cells(state)
    cells = [(x, y, rows[y][x]) for y in range(n) for x in range(n - y)]

    def sides(at: Callable[[float, float], tuple[float, float]]) -> list[list[float]]:
        m = 0.6  # just outside the outer cells
        corners = [at(-m, -m), at(n - 1 + 2 * m, -m), at(-m, n - 1 + 2 * m)]
        return [[c for xy in (*corners, corners[0]) for c in xy]]

    return hexagon_board(cells, radius, sides)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Y]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Y(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Y]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Y(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)


__all__ = ["NAME", "draw", "env", "hexagon_board", "raw_env"]
