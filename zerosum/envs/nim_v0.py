"""Nim.

| Import             | `from zerosum.envs import nim_v0`       |
|--------------------|-----------------------------------------|
| Actions            | Discrete                                |
| Parallel API       | No                                      |
| Agents             | `agents= ['player_0', 'player_1']`      |
| Action shape       | (1,)                                    |
| Action values      | Discrete(28)                            |
| Observation shape  | (4, 7, 2)                               |
| Observation values | [0, 1]                                  |

(The table is for the default piles (1, 3, 5, 7); the shapes follow the piles.)

Players take turns removing 1 or more objects from a single pile. In normal play (the
default) whoever takes the last object wins; with `misere=True` whoever takes it loses.

**Observation.** A dict: `observation` is an int8 array (k, m, 2) for k piles and
m = max(piles): plane 0 row i has a 1 for each object in pile i (cell j is 1 when pile i
holds more than j objects), plane 1 is all ones when the observer is to move.
`action_mask` is an int8 vector of k*m, all zeros for the agent that is not to move.

**Actions.** `action = pile * m + (taken - 1)`::

    pile 0:  0    1   ...  m-1     take 1 .. m from pile 0
    pile 1:  m   m+1  ... 2m-1     take 1 .. m from pile 1
    ...

**Rewards.** +1 to the winner and -1 to the loser at the end, 0 on every other step.
Through `env()`, an illegal action ends the game with -1 to its author.

**Variants.** `piles` (sequence of 1-16 ints, each 1..1000; default (1, 3, 5, 7)),
`misere` (bool, default False).

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import LINE, STONES, canvas, to_array
from zerosum.games.nim import Nim

NAME = "nim_v0"


def draw(game: Nim, state: np.ndarray) -> np.ndarray:
    """One row of sticks per pile; the mover's colour marks the left edge."""
    k, m = len(game.piles), max(game.piles)
    img, d = canvas(40 + 16 * m, 20 + 36 * k)
    d.rectangle((0, 0, 8, 20 + 36 * k), fill=STONES[int(state[0])])
    for i in range(k):
        for j in range(int(state[1 + i])):
            x = 24 + 16 * j
            d.rectangle((x, 14 + 36 * i, x + 6, 40 + 36 * i), fill=LINE)
    return to_array(img)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Nim]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Nim(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Nim]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Nim(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
