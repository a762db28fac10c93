"""Breakthrough.

| Import             | `from zerosum.envs import breakthrough_v0` |
|--------------------|--------------------------------------------|
| Actions            | Discrete                                   |
| Parallel API       | No                                         |
| Agents             | `agents= ['player_0', 'player_1']`         |
| Action shape       | (1,)                                       |
| Action values      | Discrete(768)                              |
| Observation shape  | (8, 8, 3)                                  |
| Observation values | [0, 1]                                     |

(The table is for the default 8 rows x 8 columns; the shapes follow `rows` and `columns`.)

Dan Troyka's game (2000), with the rules, parameters and actions of OpenSpiel's
`breakthrough`. Each side starts with two full rows of pieces (one row on boards of fewer
than 6 rows). A piece moves one square forward, straight or diagonally, onto an empty
square, or captures an opponent's piece one square diagonally forward (never straight
ahead). Reaching the opponent's home row wins, and so does capturing every opponent's
piece; there are no draws. `player_0` (black, `b`) starts on the top rows and moves
first, down the board; `player_1` (white, `w`) starts on the bottom rows and moves up.

**Observation.** A dict: `observation` is an int8 array (rows, columns, 3) from the
observer's side, its goal row first (black's view is the board turned upside down, so
every observer plays up the board): plane 0 the observer's pieces, plane 1 the
opponent's, plane 2 all ones when the observer is to move. `action_mask` is an int8
vector of `rows * columns * 12`, all zeros for the agent that is not to move.

**Actions.** OpenSpiel's encoding, rows counted from the top (row 0 is rank 8):

    action = ((row*columns + column)*6 + direction)*2 + capture

`direction` 0, 1, 2 are black's moves (one row down and a column left, straight, right),
3, 4, 5 white's (one row up and a column left, straight, right); `capture` is 1 for a
diagonal move onto an opponent's piece. Readable names are OpenSpiel's: `a7a6` for a
step, `a7b6*` for a capture; the CLI also reads `a7-a6`, `a7xb6` and `a7b6`. Black's
first moves are `a7a6`, `a7b6`, `b7a6`, ... (22 on 8x8); white's first replies `a2a3`,
`a2b3`, `b2a3`, ....

**Rewards.** +1 to the player who breaks through (or captures the last piece) and -1 to
the other, 0 on every other step. Through `env()`, an illegal action ends the game with
-1 to its author.

**Variants.** `rows` (int 4..16, default 8) and `columns` (int 2..16, default 8), with
`rows * columns <= 64` so a side's pieces fit one 64-bit bitboard (8x8, 6x6, 5x7, 4x16,
...), as OpenSpiel's `breakthrough` (which takes larger boards too).

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import grid
from zerosum.games.breakthrough import Breakthrough

NAME = "breakthrough_v0"
_DARK_SQUARE = (200, 170, 120)


def draw(game: Breakthrough, state: np.ndarray) -> np.ndarray:
    """The board as drawn in text (black's home at the top) on a chequered board: black's
    pieces dark, white's light."""
    marks = {".": -1, "b": 0, "w": 1}
    cells = np.array([[marks[ch] for ch in row] for row in game.cells(state)])
    shade = [(r, c, _DARK_SQUARE) for r in range(game.rows) for c in range(game.columns) if (r + c) % 2]
    return grid(cells, cell=56, shade=shade)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Breakthrough]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Breakthrough(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Breakthrough]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Breakthrough(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
