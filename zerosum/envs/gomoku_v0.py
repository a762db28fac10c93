"""Gomoku.

| Import             | `from zerosum.envs import gomoku_v0`   |
|--------------------|----------------------------------------|
| Actions            | Discrete                               |
| Parallel API       | No                                     |
| Agents             | `agents= ['player_0', 'player_1']`     |
| Action shape       | (1,)                                   |
| Action values      | Discrete(225)                          |
| Observation shape  | (15, 15, 3)                            |
| Observation values | [0, 1]                                 |

(The table is for the default 15x15 board; the shapes follow `size`.)

Two players take turns placing a stone on an empty cell; `player_0` (X, black) moves
first. The first to make five or more in a row (row, column or diagonal) wins; a full
board without one is a draw. The rules, parameters and actions are OpenSpiel's `gomoku`.

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import LINE, canvas, stone, to_array
from zerosum.games.gomoku import Gomoku

NAME = "gomoku_v0"


def draw(game: Gomoku, state: np.ndarray, cell: int = 32) -> np.ndarray:
    """A Go-style board: lines through the cells' centres, stones on the crossings (dark
    for X, light for O), row 0 at the top."""
    n = game.size
    pad = cell // 2
    img, pen = canvas(n * cell, n * cell)
    far = pad + (n - 1) * cell
    for i in range(n):
        at = pad + i * cell
        pen.line((pad, at, far, at), fill=LINE, width=2)
        pen.line((at, pad, at, far), fill=LINE, width=2)
    for r, row in enumerate(game.cells(state)):
        for c, ch in enumerate(row):
            if ch != ".":
                stone(pen, pad + c * cell, pad + r * cell, cell * 0.45, "XO".index(ch))
    return to_array(img)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Gomoku]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Gomoku(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Gomoku]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Gomoku(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
