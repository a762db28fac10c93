"""Pentago.

| Import             | `from zerosum.envs import pentago_v0`  |
|--------------------|----------------------------------------|
| Actions            | Discrete                               |
| Parallel API       | No                                     |
| Agents             | `agents= ['player_0', 'player_1']`     |
| Action shape       | (1,)                                   |
| Action values      | Discrete(288)                          |
| Observation shape  | (6, 6, 3)                              |
| Observation values | [0, 1]                                 |

Five in a row on a 6x6 board whose four 3x3 quadrants turn: a move places a stone on an
empty cell, then turns one quadrant 90 degrees clockwise or anticlockwise. Five in a row (row, column or
diagonal) wins; a full board without five is a draw. `player_0` (X, dark stones) moves
first.

**Observation.** A dict: `observation` is an int8 array (6, 6, 3) from the observer's
side, indexed [row, col, plane] with row 0 at the top: plane 0 the observer's stones,
plane 1 the opponent's, plane 2 all ones when the observer is to move. `action_mask` is
an int8 vector of 288, all zeros for the agent that is not to move.

**Actions.** `action = cell*8 + quadrant*2 + direction` with `cell = 6*row + col`
(OpenSpiel's encoding, so games replay move for move in OpenSpiel's `pentago`)::

         a  b  c    d  e  f
      1  0  1  2 |  3  4  5          quadrant 0 top-left     1 top-right
      2  6  7  8 |  9 10 11                   3 bottom-left  2 bottom-right
      3 12 13 14 | 15 16 17
        ---------+---------          direction 0 anticlockwise, 1 clockwise
      4 18 19 20 | 21 22 23
      5 24 25 26 | 27 28 29          e.g. 165 = cell 20 (c4), quadrant 2, clockwise
      6 30 31 32 | 33 34 35               = "c4 q2 cw"

`env.unwrapped.game.action_to_string(a)` and `string_to_action("c4 q2 cw")` convert.
Under the default rule, a placement that makes five ends the game before any rotation:
the 8 actions of that cell are then the same move, and all 8 stay legal in the mask.

**Rewards.** +1 to the winner and -1 to the loser at the end, 0 for a draw and on every
other step. A turn can give the opponent five: that is a win for the opponent, and five
for both after a turn is a draw. Through `env()`, an illegal action ends the game with
-1 to its author.

**Variants.** `win_before_rotation=True` (default, the published rules and the solved
game): a placement that makes five wins at once. `win_before_rotation=False`:
OpenSpiel's rule, the quadrant is always turned and fives are looked for only after.
Example: `pentago_v0.env(win_before_rotation=False)`.

**Render modes.** `ansi` and `human` give the text board with coordinates; `rgb_array`
a 384x384 image with the quadrant borders drawn thick and alternate quadrants shaded.

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import grid
from zerosum.games.pentago import Pentago
from zerosum.games.pentago.tables import CELLS, SIZE

NAME = "pentago_v0"
_SHADE = (222, 198, 156)
_SHADED = tuple((r, c, _SHADE) for r in range(SIZE) for c in range(SIZE) if (r < 3) == (c < 3))


def draw(game: Pentago, state: np.ndarray) -> np.ndarray:
    """The 6x6 board: thick quadrant borders, quadrants 0 and 2 shaded, X dark, O light."""
    cells = np.full(CELLS, -1)
    b0, b1 = int(state[0]), int(state[1])
    for c in range(CELLS):
        if (b0 >> c) & 1:
            cells[c] = 0
        elif (b1 >> c) & 1:
            cells[c] = 1
    return grid(cells.reshape(SIZE, SIZE), cell=55, shade=_SHADED, separators=(3,))


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Pentago]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Pentago(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Pentago]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Pentago(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
