"""Halma (two players).

| Import             | `from zerosum.envs import halma_v0`     |
|--------------------|-----------------------------------------|
| Actions            | Discrete                                |
| Parallel API       | No                                      |
| Agents             | `agents= ['player_0', 'player_1']`      |
| Action shape       | (1,)                                    |
| Action values      | Discrete(65536)                         |
| Observation shape  | (16, 16, 6)                             |
| Observation values | [0, 1]                                  |

(The table is for the default 16x16 board; with `size=N` the actions are Discrete(N**4)
and the observation (N, N, 6): 10x10 gives Discrete(10000), 8x8 Discrete(4096).)

Each player starts with its pieces in its home camp, in opposite corners (16x16: 19
pieces in rows of 5, 5, 4, 3, 2 from the corner; 10x10: 15 in rows of 5, 4, 3, 2, 1; 8x8:
10 in rows of 4, 3, 2, 1), and races them into the other camp. `player_0` starts
top-left and moves first. A move is a step to one of the 8 neighbouring empty squares,
or a chain of jumps over adjacent pieces of either colour onto the empty square beyond
(8 directions, stop anywhere, no square twice, no step and jump in one move). A piece
that starts its move in its target camp stays in it. A player wins when its target camp
is full and at least one of its squares holds its own piece; after `max_turns` moves (of
either player) the game is a draw. A player with no move at all passes (action 0).

**Observation.** A dict: `observation` is an int8 array (N, N, 6) from the observer's
side, turned 180 degrees for `player_1` so that every observer starts top-left and heads
for the bottom-right corner. Planes: 0 the observer's pieces, 1 the opponent's, 2 the
observer's target camp, 3 the observer's home camp, 4 all ones when the observer is to
move, 5 the move counter in binary (cell i in row-major order holds bit i of the number
of moves played, which decides the draw). `action_mask` is an int8 vector of N**4, all
zeros for the agent that is not to move.

**Actions.** A whole move, from the piece's square to its destination (two jump chains
that end on the same square are the same move); squares are `N*row + col`, row 0 at the
top (named 1) and column 0 on the left (named a)::

    action = from_square * N*N + to_square

              to:   a1    b1   ...  p16
    from  a1  :      0     1   ...   255
          b1  :    256   257   ...   511
          ...
          p16 : 65280 65281  ...  65535

Readable names: `c3-e5`. The pass is action 0 (`a1-a1`, which no real move can be).

**Rewards.** +1 to the winner and -1 to the loser at the end, 0 for a draw and on every
other step. Through `env()`, an illegal action ends the game with -1 to its author.

**Variants.** `size` (16, 10 or 8; default 16), `max_turns` (moves of both players
before the draw; default 600 on 16x16, 300 on 10x10, 200 on 8x8).

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import grid
from zerosum.games.halma import Halma

NAME = "halma_v0"
CAMP_COLOURS = ((190, 205, 225), (225, 195, 190))  # player 0's home (blue), player 1's (red)


def draw(game: Halma, state: np.ndarray) -> np.ndarray:
    """The board with both camps tinted, player 0's pieces dark and player 1's light."""
    shade = [(sq // game.size, sq % game.size, CAMP_COLOURS[p]) for p in (0, 1) for sq in game.camp(p)]
    return grid(game.board(state), cell=32 if game.size == 16 else 48, shade=shade)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Halma]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Halma(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Halma]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Halma(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
