"""Tic-tac-toe.

| Import             | `from zerosum.envs import tictactoe_v0` |
|--------------------|-----------------------------------------|
| Actions            | Discrete                                |
| Parallel API       | No                                      |
| Agents             | `agents= ['player_0', 'player_1']`      |
| Action shape       | (1,)                                    |
| Action values      | Discrete(9)                             |
| Observation shape  | (3, 3, 3)                               |
| Observation values | [0, 1]                                  |

Two players take turns marking a 3x3 grid; three in a row, column or diagonal wins; a
full grid without one is a draw. `player_0` (X) moves first.

**Observation.** A dict: `observation` is an int8 array (3, 3, 3) from the observer's
side: plane 0 the observer's marks, plane 1 the opponent's, plane 2 all ones when the
observer is to move. `action_mask` is an int8 vector of 9, all zeros for the agent that
is not to move.

**Actions.** `action = 3*row + col`, row-major from the top left::

       a   b   c
    1  0 | 1 | 2
    2  3 | 4 | 5
    3  6 | 7 | 8

**Rewards.** +1 to the winner and -1 to the loser at the end, 0 for a draw and on every
other step. Through `env()`, an illegal action ends the game with -1 to its author.

**Variants.** None.

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import grid
from zerosum.games.tictactoe import TicTacToe

NAME = "tictactoe_v0"


def draw(game: TicTacToe, state: np.ndarray) -> np.ndarray:
    """The 3x3 grid with its X and O marks."""
    cells = np.full(9, -1)
    for c in range(9):
        if (state[0] >> c) & 1:
            cells[c] = 0
        elif (state[1] >> c) & 1:
            cells[c] = 1
    return grid(cells.reshape(3, 3), cell=80, marks=True)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[TicTacToe]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(TicTacToe(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[TicTacToe]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(TicTacToe(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
