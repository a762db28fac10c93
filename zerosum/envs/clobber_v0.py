"""Clobber.

| Import             | `from zerosum.envs import clobber_v0`  |
|--------------------|----------------------------------------|
| Actions            | Discrete                               |
| Parallel API       | No                                     |
| Agents             | `agents= ['player_0', 'player_1']`     |
| Action shape       | (1,)                                   |
| Action values      | Discrete(120)                          |
| Observation shape  | (5, 6, 3)                              |
| Observation values | [0, 1]                                 |

(The table is for the default 5x6 board; the shapes follow `rows` and `columns`.)

The board starts full, white and black pieces in a chequerboard; a move takes one of
one's pieces a square north, east, south or west onto an opponent's piece, which is
removed, and the player who cannot move loses. `player_0` (white, `o`, the piece in the
bottom-left corner) moves first. Rules, parameters and actions are OpenSpiel's `clobber`
(Albert, Grossman and Nowakowski, 2001), equal to it at every step of random games
(`tests/games/test_clobber.py`).

**Observation.** A dict: `observation` is an int8 array (rows, columns, 3), row 0 the top
row (rank `rows`): plane 0 the observer's pieces, plane 1 the opponent's, plane 2 all ones
when the observer is to move. `action_mask` is an int8 vector of `rows * columns * 4`,
all zeros for the agent not to move.

**Actions.** `action = (row * columns + column) * 4 + direction` (row 0 at the top,
OpenSpiel's encoding), direction 0 north, 1 east, 2 south, 3 west; readable names are the
square left and the square taken, as OpenSpiel writes them (`a5b5` = 1, `a5a4` = 2 on
5x6)::

         a        b        c        d        e        f
    5    0-3      4-7      8-11     12-15    16-19    20-23
    4    24-27    28-31    32-35    36-39    40-43    44-47
    3    48-51    52-55    56-59    60-63    64-67    68-71
    2    72-75    76-79    80-83    84-87    88-91    92-95
    1    96-99    100-103  104-107  108-111  112-115  116-119

    action = 4 * square + direction, square = row * columns + column;
    direction 0 north, 1 east, 2 south, 3 west

**Rewards.** +1 to the player who made the last move (the opponent cannot move) and -1
to the other, 0 on every other step; there are no draws. Through `env()`, an illegal
action ends the game with -1 to its author.

**Variants.** As OpenSpiel's `clobber`: `rows` (int 2..32, default 5) and `columns` (int
2..26, default 6), with `rows * columns <= 64` (a side's pieces fit one 64-bit word).
Example: `clobber_v0.env(rows=8, columns=8)` (the Computer Olympiad's board).

**Heuristics** (for alpha-beta, `heuristic=`). A white piece next to a black one is a move
for both players, so the two sides always have as many moves as each other; mobility, the
term Clobber programs evaluate (Willemson and Winands, "MILA wins Clobber tournament", ICGA
Journal 2005), is counted here by the pieces that can still move: a piece with no
opponent's piece next to it is dead. `mobility` (the default): 10 a movable piece and 1 a move it
has beyond its first, own minus the opponent's; `movable`: the bare count of movable
pieces. The move-ordering hint takes first the opponent's pieces with the most moves of
their own. Measured here, neither count helps alpha-beta: at depth 5 it scored 0.32
(`mobility`) and 0.35 (`movable`) against the same search with a constant evaluation
(60 games each, seats alternating from 4-ply random openings), so the default opponent
(`Clobber.default_opponent`) is MCTS, `mcts(time=0.1, c=0.7)` (the figures below).

**Figures** (2026-11-29, a 2-core machine shared with other jobs, load about 12; each with
its command).

* *Equal to OpenSpiel's `clobber` at every step* (legal actions, board, player to move,
  terminal flag, returns, action names): 41,645 steps of 1,500 random games on 5x6, 8x8,
  4x5, 11x3 and 4x16 (`python bench/clobber.py --strength-games 0`); the test compares
  6,103 steps of 280 games on its own seeds, 2x2 and 32x2 among them.
* *Speed*: random games in the loop a user writes (`current_player`, `legal_actions`,
  `apply(s, int(a))`, `returns`) run 1.87x as many moves a second as the same loop on
  pyspiel in the same process (1.12 M against 0.60 M moves/s of CPU time, 2,000 games:
  `python bench/clobber.py --strength-games 0`).
* *Strength*: the default opponent, `mcts(time=0.1, c=0.7)`, against OpenSpiel's `MCTSBot`
  (its C++ `pyspiel.MCTSBot`: 1,000 simulations, one random rollout a leaf, `uct_c=2`,
  `solve`), seats alternating from paired 4-ply random openings, 100 games (one at a time,
  load 12-16 on 2 cores): 86 wins and 14 losses, score 0.86, 95% Wilson interval [0.78,
  0.92], 0.86 in either seat; 0.13 s a move against the bot's 0.015 s:
  `python bench/clobber.py --workers 1 --log strength.jsonl`. With the default `c=1.4` MCTS
  scored 0.67 over 100 games; `alphabeta(time=0.1)` 0.45 (`mobility`) and 0.55 (`movable`)
  over 20, 0.475 with no evaluation (`heuristic=zero`) over 40 (`python bench/strength.py
  --game clobber --spec SPEC --games N`).

*Perft* (move sequences of each length from the start), the same as OpenSpiel's (its counts
checked to depth 5 on 5x6 and 4x5, 4 on 8x8):

| board | 1 | 2 | 3 | 4 | 5 |
|---|---|---|---|---|---|
| 5x6 | 49 | 2,116 | 80,063 | 2,630,382 | 74,662,024 |
| 8x8 | 112 | 11,848 | 1,182,276 | 111,070,552 | |
| 4x5 | 31 | 790 | 16,339 | 268,808 | 3,499,000 |

**Render modes.** `ansi` and `human` give the text board with ranks and column letters;
`rgb_array` an image of the board, white pieces light and black pieces dark.

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import grid
from zerosum.games.clobber import Clobber

NAME = "clobber_v0"
_DARK_SQUARE = (200, 170, 120)


def draw(game: Clobber, state: np.ndarray) -> np.ndarray:
    """The board as drawn in text (rank 1 at the bottom) on a chequered board: white's
    pieces (``o``) light, black's (``x``) dark."""
    marks = {".": -1, "x": 0, "o": 1}
    cells = np.array([[marks[ch] for ch in row] for row in game.cells(state)])
    shade = [(r, c, _DARK_SQUARE) for r in range(game.rows) for c in range(game.columns) if (r + c) % 2]
    return grid(cells, cell=56, shade=shade)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Clobber]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Clobber(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Clobber]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Clobber(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
