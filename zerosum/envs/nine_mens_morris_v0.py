"""Nine Men's Morris.

| Import             | `from zerosum.envs import nine_mens_morris_v0` |
|--------------------|------------------------------------------------|
| Actions            | Discrete                                       |
| Parallel API       | No                                             |
| Agents             | `agents= ['player_0', 'player_1']`             |
| Action shape       | (1,)                                           |
| Action values      | Discrete(600)                                  |
| Observation shape  | (7, 7, 17)                                     |
| Observation values | [0, 1]                                         |

A game of mills (three men on a line) on the 24 points of three nested squares. Each
player has 9 men. They take turns placing them on the points, then move them along the
lines to adjacent empty points; a player down to 3 men may fly to any empty point. A mill
lets its owner remove one of the opponent's men at once: after a mill-closing action the *same* agent
acts again (`agent_selection` does not change) and its action is the removal. A player
left with 2 men, or with no legal move, loses. After `max_turns` turns (default 200) the
game is a draw. `player_0` moves first. Full rules: `zerosum.games.nine_mens_morris`.

**Observation.** A dict: `observation` is an int8 array (7, 7, 17) on the 7x7 grid of the
board diagram (cell (0, 0) is a7, cell (6, 6) is g1), from the observer's side:

| plane | content |
|-------|---------|
| 0     | the observer's men |
| 1     | the opponent's men |
| 2     | all ones when the observer is to move |
| 3     | all ones when the player to move must remove a man (a removal is due) |
| 4-6   | the observer's phase: placing, moving or flying (that plane all ones) |
| 7-9   | the opponent's phase |
| 10    | the observer's men in hand: k men = ones in the first k cells, row-major |
| 11    | the opponent's men in hand, the same way |
| 12    | the turn counter as a fraction of the cap: ones in the first 49*turns//max_turns cells |
| 13-14 | `no_return` only: the point the observer's last-moved man left, and where it stands |
| 15-16 | the same for the opponent |

Everything the rules depend on is there (up to the turn counter, given as a fraction).
`action_mask` is an int8 vector of 600, all zeros for the agent that is not to move.

**Actions.** OpenSpiel's encoding. Points are numbered row by row from the top::

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

`0..23`: place a man on that point, or, when a removal is due, remove the opponent's man
there. `24 + from*24 + to`: move (or fly) a man from `from` to `to`.

**Rewards.** +1 to the winner and -1 to the loser at the end, 0 for a draw and on every
other step. Through `env()`, an illegal action ends the game with -1 to its author.

**Variants.** `protect_mills` (bool, default True: men in a mill cannot be removed unless
all the opponent's men are in mills), `flying` (bool, default True), `no_return` (bool,
default False: a man may not move straight back to the point it just left),
`max_turns` (int 1..100000, default 200; a turn is a placement or move with its removal).

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import HIGHLIGHT, LINE, STONES, canvas, stone, to_array
from zerosum.games.nine_mens_morris import NineMensMorris
from zerosum.games.nine_mens_morris.tables import ADJ, NUM_POINTS, POINT_RC, S_REMOVAL, S_TO_MOVE

NAME = "nine_mens_morris_v0"
_CELL = 60
_PAD = 40


def _xy(p: int) -> tuple[int, int]:
    return _PAD + int(POINT_RC[p, 1]) * _CELL, _PAD + int(POINT_RC[p, 0]) * _CELL


def draw(game: NineMensMorris, state: np.ndarray) -> np.ndarray:
    """The three squares and their joining lines, men as dark (player 0) and light discs.

    A bar in the mover's colour runs along the left edge; it is red-framed when the mover
    must remove a man.
    """
    size = 2 * _PAD + 6 * _CELL
    img, d = canvas(size, size)
    for p in range(NUM_POINTS):
        x, y = _xy(p)
        for q in range(p + 1, NUM_POINTS):
            if (int(ADJ[p]) >> q) & 1:
                d.line((x, y, *_xy(q)), fill=LINE, width=3)
    for p in range(NUM_POINTS):
        x, y = _xy(p)
        d.ellipse((x - 5, y - 5, x + 5, y + 5), fill=LINE)
        for pl in (0, 1):
            if (int(state[pl]) >> p) & 1:
                stone(d, x, y, _CELL * 0.32, pl)
    mover = int(state[S_TO_MOVE])
    d.rectangle((0, 0, 10, size), fill=STONES[mover], outline=HIGHLIGHT if state[S_REMOVAL] else LINE, width=2)
    return to_array(img)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[NineMensMorris]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(NineMensMorris(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[NineMensMorris]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(NineMensMorris(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
