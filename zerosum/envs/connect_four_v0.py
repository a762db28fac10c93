"""Connect Four.

| Import             | `from zerosum.envs import connect_four_v0` |
|--------------------|--------------------------------------------|
| Actions            | Discrete                                   |
| Parallel API       | No                                         |
| Agents             | `agents= ['player_0', 'player_1']`         |
| Action shape       | (1,)                                       |
| Action values      | Discrete(7)                                |
| Observation shape  | (6, 7, 3)                                  |
| Observation values | [0, 1]                                     |

(The table is for the default 6 rows x 7 columns; the shapes follow `rows` and `columns`.)

Two players take turns dropping a disc into a column that is not full; the disc falls to
the lowest empty cell. Four in a row (horizontal, vertical or diagonal) wins; a full
board without one is a draw. `player_0` (X) moves first. The rules, actions and first
two observation planes are those of PettingZoo's `connect_four_v3` and OpenSpiel's
`connect_four`.

**Observation.** A dict: `observation` is an int8 array (rows, columns, 3) from the
observer's side, row 0 the top row: plane 0 the observer's discs, plane 1 the
opponent's (PettingZoo's two planes), plane 2 all ones when the observer is to move
(what makes the observation complete). `action_mask` is an int8 vector of `columns`,
all zeros for the agent that is not to move.

**Actions.** `action = column`, 0 at the left; a column is legal while it is not full.
Readable names (the CLI) are the column letter or its number counted from 1::

    a b c d e f g
    1 2 3 4 5 6 7
    0 1 2 3 4 5 6     action

**Rewards.** +1 to the player who makes the line and -1 to the other, 0 for a draw (a
full board) and on every other step. Through `env()`, an illegal action ends the game
with -1 to its author.

**Variants.** `rows` (int 1..9, default 6), `columns` (int 1..9, default 7), with
`columns * (rows + 1) <= 63` (6x7, 7x7, 8x7, 9x6, 6x9, ...), `x_in_row` (int 1..9,
default 4: the length of a winning line), as OpenSpiel's `connect_four`.

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import grid
from zerosum.games.connect_four import ConnectFour

NAME = "connect_four_v0"


def draw(game: ConnectFour, state: np.ndarray) -> np.ndarray:
    """The upright board, top row first, with X as dark and O as light discs."""
    marks = {".": -1, "X": 0, "O": 1}
    cells = np.array([[marks[ch] for ch in row] for row in game.cells(state)])
    return grid(cells, cell=64)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[ConnectFour]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(ConnectFour(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[ConnectFour]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(ConnectFour(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
