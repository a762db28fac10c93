"""Othello.

| Import             | `from zerosum.envs import othello_v0`  |
|--------------------|----------------------------------------|
| Actions            | Discrete                               |
| Parallel API       | No                                     |
| Agents             | `agents= ['player_0', 'player_1']`     |
| Action shape       | (1,)                                   |
| Action values      | Discrete(65)                           |
| Observation shape  | (8, 8, 3)                              |
| Observation values | [0, 1]                                 |

(The table is for the default 8x8 board; with `size=n` there are n*n + 1 actions and
observations of (n, n, 3).)

Discs are placed to enclose lines of the opponent's discs, which turn over; a player who
cannot place passes, and when neither can the one with more discs wins. `player_0` (black,
x) moves first. The rules, the action encoding (pass = 64) and the outcome are those of
OpenSpiel's `othello`, checked at every step of random games.

**Rules.** From the four centre discs set crosswise (d4 and e5 white, e4 and d5 black),
each move places a disc of the mover's colour on an empty square so that, in at least one
of the 8 directions, a straight unbroken line of the opponent's discs lies between it and
another disc of the mover; every such line is turned over. A player with no such square
passes (the one legal action), and may not pass otherwise. The game ends when neither
player can place (a full board among others); more discs wins, equal counts draw.

**Observation.** A dict: `observation` is an int8 array (size, size, 3) from the
observer's side, indexed [row, col, plane] with row 0 the top row (row 1 of the names):
plane 0 the observer's discs, plane 1 the opponent's, plane 2 all ones when the observer
is to move. `action_mask` is an int8 vector of size*size + 1, all zeros for the agent that
is not to move; when the mover has no placement only the pass is set.

**Actions.** `action = size*row + col` for a placement, row 0 at the top (OpenSpiel's
encoding), and `size*size` to pass (64 on 8x8). Readable names (the CLI): the column
letter and the row number, `d3` = action 19, and `pass`::

        a  b  c  d  e  f  g  h
    1   0  1  2  3  4  5  6  7
    2   8  9 10 11 12 13 14 15
    3  16 17 18 19 20 21 22 23
    4  24 25 26  o  x 29 30 31        the start: black (x) to move,
    5  32 33 34  x  o 37 38 39        legal d3 c4 f5 e6 (19 26 37 44)
    6  40 41 42 43 44 45 46 47
    7  48 49 50 51 52 53 54 55
    8  56 57 58 59 60 61 62 63        pass = 64

**Rewards.** +1 to the player with more discs and -1 to the other at the end, 0 for equal
counts and on every other step. Through `env()`, an illegal action ends the game with -1
to its author.

**Variants.** `size` (4, 6, 8 or 10; default 8). OpenSpiel has 8x8 only, so the other
sizes are zerosum's: the same rules from the four centre discs. 6x6 was solved by Feinstein
(1993: white, moving second, wins 20-16 with perfect play); 4x4 is small enough that
alpha-beta solves it here in a moment (white wins; see the tests).

**Heuristics** (for alpha-beta: `alphabeta(heuristic=NAME)`; from the Othello literature,
Rosenbloom's IAGO and Buro's Logistello papers; each compiled, scored own minus the
opponent's, and checked by `zerosum.testing.check_heuristic`):

| name | what it counts |
|---|---|
| `classic` (default) | 4 x mobility + corners + 4 x stability |
| `mobility` | legal placements |
| `corners` | corners held (25 each); X- (8) and C-squares (4) by an empty corner count against |
| `stability` | discs that can never be turned over (each line through them full or anchored) |

The move-ordering hint tries corners first, then edges, the other squares, C-squares and
X-squares last.

**Figures** (a shared 2-core machine; each with the command that gives it):

* *Equal to OpenSpiel at every step.* `python bench/othello.py --games 1000`: 1,000 random
  games, 61,337 positions compared on both sides (legal actions, board, player to move,
  terminal flag, returns), 442 passes among them, no difference; `tests/games/test_othello.py`
  plays 60 more on its own seed. OpenSpiel has 8x8 only: the 4x4, 6x6 and 10x10 boards are
  compared with a plain reference (`tests/games/othello_reference.py`, a walk square by square).
* *Perft* (move sequences of exactly d plies from the start, a pass counted as a move, as
  OpenSpiel counts them; `python bench/othello.py --depth 10`, and the tests):

| depth | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 |
|---|---|---|---|---|---|---|---|---|---|---|
| 8x8 | 4 | 12 | 56 | 244 | 1,396 | 8,200 | 55,092 | 390,216 | 3,005,288 | 24,571,056 |
| 6x6 | 4 | 12 | 56 | 244 | 1,364 | 7,604 | | | | |
| 4x4 | 4 | 12 | 44 | 128 | 424 | 1,256 | 3,624 | | | |
| 10x10 | 4 | 12 | 56 | 244 | 1,396 | 8,200 | | | | |

  8x8 equals the published counts to depth 9; at depth 10 the published 24,571,284 also
  counts the 228 games that end after exactly 9 plies once more (there a finished game
  passes again; here and in OpenSpiel it has no legal action).

* *Speed.* `python bench/game_api.py --only othello`: the loop a user writes
  (`legal = game.legal_actions(s); s = game.apply(s, int(legal[i]))`, with `current_player`
  and `returns`) plays 424 k random moves/s against pyspiel's 64 k in the same process, 6.6x
  (load 2 on 2 cores, 2026-11-28).
* *Strength.* `python bench/strength.py --game othello --games 100 --workers 2 --log
  strength.jsonl`: the game's `default_opponent`, `alphabeta(time=0.1, heuristic=classic)`,
  against OpenSpiel's `MCTSBot` (its C++ `pyspiel.MCTSBot`: 1,000 simulations, one random
  rollout a leaf, `uct_c=2`, `solve`), seats alternating from paired 4-ply random openings,
  100 games (2026-11-28, two games at once on 2 cores, load about 2): 100 wins in 100 games,
  score 1.00 (95% Wilson interval 0.96-1.00), 0.08 s a move against MCTSBot's 0.29 s.

**Render modes.** `ansi` and `human` give the text board (x black, o white), the disc
counts and who is to move; `rgb_array` a green board with black and white discs.

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import grid
from zerosum.games.othello import Othello

NAME = "othello_v0"
_GREEN = (40, 120, 70)


def draw(game: Othello, state: np.ndarray) -> np.ndarray:
    """The board, row 1 at the top: a green grid, black (x) and white (o) discs."""
    marks = {".": -1, "x": 0, "o": 1}
    cells = np.array([[marks[ch] for ch in row] for row in game.cells(state)])
    n = game.size
    cell = 48 if n <= 8 else 40
    return grid(cells, cell=cell, shade=tuple((r, c, _GREEN) for r in range(n) for c in range(n)))


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Othello]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Othello(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Othello]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Othello(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
