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

A race game on a chess board: each side's pieces step forward and capture diagonally,
and the first piece to reach the far row wins. Dan Troyka's game (2000), with the rules,
parameters and action encoding of OpenSpiel's `breakthrough`, equal to it at every step.

**Rules.** Each side starts with two full rows of pieces (one row on boards of fewer
than 6 rows). A piece moves one square forward, straight or diagonally, onto an empty
square, or captures an opponent's piece one square diagonally forward (never straight
ahead). Reaching the opponent's home row wins, and so does capturing every opponent's
piece; there are no draws, and no position without a move (a most advanced piece can
always step or capture). `player_0` (black, `b`) starts on the top rows and moves first,
down the board; `player_1` (white, `w`) starts on the bottom rows and moves up. A game
lasts at most `2 * (2*rows - 3) * columns + 1` plies (209 on 8x8, OpenSpiel's bound).

**Observation.** A dict: `observation` is an int8 array (rows, columns, 3) from the
observer's side, its goal row first (black's view is the board turned upside down, so
every observer plays up the board): plane 0 the observer's pieces, plane 1 the
opponent's, plane 2 all ones when the observer is to move. `action_mask` is an int8
vector of `rows * columns * 12`, all zeros for the agent that is not to move.

**Actions.** OpenSpiel's encoding, so a policy or a game record moves between the two;
rows are counted from the top (row 0 is rank 8 on 8x8)::

    action = ((row*columns + column)*6 + direction)*2 + capture

    direction  0, 1, 2: black's moves, a row down and a column left, straight, right
               3, 4, 5: white's moves, a row up and a column left, straight, right
    capture    1 for a diagonal move onto an opponent's piece, else 0

    e.g. 98 = row 1, column 0, direction 1, no capture = "a7a6" (black's piece on a7 steps forward)

Readable names are OpenSpiel's: `a7a6` for a step, `a7b6*` for a capture
(`env.unwrapped.game.action_to_string(a)`); `string_to_action` and `zerosum play
breakthrough` also read `a7-a6`, `a7xb6` and `a7b6` (a capture when b6 holds an
opponent's piece). Black has 22 first moves on 8x8.

**Rewards.** +1 to the player who breaks through (or captures the last piece) and -1 to
the other, 0 on every other step. Through `env()`, an illegal action ends the game with
-1 to its author.

**Variants.** `rows` (4..16, default 8) and `columns` (2..16, default 8), with
`rows * columns <= 64` so each side's pieces fit one 64-bit bitboard (8x8, 6x6, 5x7,
4x16, 16x4, ...). OpenSpiel takes larger boards too (they would need two words a side);
fewer than 4 rows is refused with the allowed range. Example:
`breakthrough_v0.env(rows=6, columns=6)`.

**Heuristics** (for alpha-beta; `alphabeta(heuristic=NAME)`), each from player 0's side
minus player 1's, checked by `zerosum.testing.check_heuristic`:

| name | what it counts (a piece's *progress*: rows from its home row) |
|---|---|
| `material` | 100 a piece |
| `advance` | material + `2 * progress**2` a piece + 10 a piece still on the home row |
| `safety` (default) | `advance` + hanging pieces + runners + races decided one row from the goal |

`advance` weighs a piece more the nearer it is to the goal, as the piece-square tables of
Lorentz and Horey ("Programming Breakthrough", CG 2013), and keeps the home row that
those programs defend. `safety` subtracts `30 + 2 * progress**2` for a piece attacked by
more of the opponent's pieces than defend it, adds `60 + 6 * progress**2` for a runner
(no opponent's piece in the cone ahead that could meet it: `j` rows ahead, `j` columns
aside), and scores +-5,000 when a piece one row before its goal decides the game (the
side to move has one, or the other side has one the mover cannot capture).

The ordering hint searches winning moves first, then captures (of the most advanced
pieces first), then moves by how far they advance; the forcing moves that the
quiescence search follows past the horizon are the captures and the moves onto the
opponent's last two rows. The default opponent (`Breakthrough.default_opponent`, what
plays best at 0.1 s a move) is `alphabeta(time=0.1, heuristic=safety)`, with quiescence:
at 0.1 s a move it scored 13-7 against the `advance` heuristic and 19-1 against itself
without quiescence (20 games each, seats alternating, load about 10 on 2 cores)::

    zerosum match --game breakthrough "alphabeta(time=0.1, heuristic=safety)"
        "alphabeta(time=0.1, heuristic=safety, quiescence=off)" --max-games 20 --workers 1
        (one command; and the same with heuristic=advance for the second agent)

**Figures** (2026-11-28, a 2-core machine shared with other jobs, load averages in
parentheses):

* Equal to OpenSpiel at every step (legal actions, board, player, terminal flag,
  returns, action names): 26,646 steps of 600 random games on 8x8, 6x6, 5x7, 4x3, 4x16
  and 16x4 (`python bench/breakthrough.py --quick`); the test compares 8,683 steps of 240
  games on its own seeds.
* Perft from the start, 8x8: 22; 484; 11,132; 256,036; 6,182,818; 149,264,638 (OpenSpiel
  counts the same to 5 plies: `python bench/breakthrough.py --depth 5`). 6x6: 16; 256;
  4,308; 71,478. 5x7: 19; 361; 6,213; 106,780; 1,742,204.
* Random playouts in the natural loop (`current_player`, `legal_actions`,
  `apply(s, int(a))`, `returns`): 462 k moves/s, 2.23x pyspiel's 207 k in the same process
  (load 2, 2026-11-28; `python bench/game_api.py --only breakthrough`).
* Alpha-beta with `safety`: 1.3 M nodes per CPU second from random openings, depth 5-6
  from 40-70 k nodes.
* The default opponent, `alphabeta(time=0.1, heuristic=safety)`, against OpenSpiel's
  `MCTSBot` (its C++ `pyspiel.MCTSBot`: 1,000 simulations, one random rollout a leaf,
  `uct_c=2`, `solve`), seats alternating from paired 4-ply random openings, 100 games
  (2026-11-28, two games at once on 2 cores, load about 2): 100 wins in 100 games, score
  1.00, 95% Wilson interval 0.96-1.00; 0.08 s a move against MCTSBot's 0.14 s::

    python bench/strength.py --game breakthrough --games 100 --workers 2 --log strength.jsonl

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
