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

(The table is for the default 15x15 board; the shapes follow `size`, or `n` rows and `m`
columns.)

Two players take turns placing a stone on an empty cell; `player_0` (X, black) moves
first. The first to make a line of five or more stones (row, column or diagonal) wins; a
full board without one is a draw. The rules, parameters, actions and observation planes
are OpenSpiel's `gomoku`, equal to it at every step of random games
(tests/games/test_gomoku.py); with `m` columns and `n` rows, OpenSpiel's `mnk` (m,n,k-games,
`connect` for k), equal to it too.

**Observation.** A dict: `observation` is an int8 array (size, size, 3) (n, m, 3 on a
rectangle) from the
observer's side, indexed [row, col, plane] with row 0 at the top: plane 0 the observer's
stones, plane 1 the opponent's, plane 2 all ones when the observer is to move (for
`player_0` these are OpenSpiel's three planes: black, white, black to move).
`action_mask` is an int8 vector of size*size, all zeros for the agent not to move.

**Actions.** `action = row*size + col` (`row*m + col` on a rectangle), row 0 at the top
(OpenSpiel's row-major cell).
Readable names (the CLI) are the column letter and the row counted from 1 at the
bottom, so the centre of the 15x15 board, action 112, is `h8`; OpenSpiel's `7,7` (and
`mnk`'s `x(7,7)`) reads too::

             a   b   c  ...   h  ...   o
        15   0   1   2  ...   7  ...  14     row 0 (the top)
        14  15  16  17  ...  22  ...  29
        ...
         8 105 106 107  ... 112  ... 119     h8 = 112, the centre
        ...
         1 210 211 212  ... 217  ... 224     row 14 (the bottom)

**Rewards.** +1 to the player who makes the line and -1 to the other (the reverse with
`anti=True`), 0 for a draw and on every other step. Through `env()`, an illegal action
(a taken cell) ends the game with -1 to its author.

**Variants.** OpenSpiel's parameters except `dims` (boards of more dimensions): `size`
(int 1..19, default 15: the side of the board; 19 is the Go board), `connect` (int 1 to
the longer side, default 5: stones in a row that win; an overline wins too), `anti`
(default False; True: the player who makes a line loses) and `wrap` (default False; True:
the board is a torus, lines run over the edges; square boards only). From OpenSpiel's
`mnk`: `m` and `n` (int 1..19, default `size`), the columns and rows of a rectangular
board; `gomoku_v0.env(m=7, n=6, connect=4)` is `mnk` with m=7, n=6, k=4. Example:
`gomoku_v0.env(size=9, connect=4)`. A line that cannot fit is refused, naming what was
passed: `connect=16` on the standard board (`VariantError: connect=16 is not allowed: an
int from 1 to 15 ...`), `size=1` with the default five (`VariantError: size=1 is not
allowed: an int from 5 to 19 with connect=5 ...`).

**Heuristics** (for alpha-beta; `zerosum.games.gomoku.knowledge`). Every line is cut into
windows of `connect` cells; a window holding stones of one side only can still become
that side's line. `windows` weighs each side's windows 1, 6, 36, 216 by stones (the tuple
evaluation). `threats` (the default) adds open threes (windows of six with both ends
empty and three stones inside) and reads fours with the side to move: a four for the
mover is a win next move, two winning cells against it a loss, an open three with no
four against it an open four. The move-ordering hint puts first the cells that win, then
those that block, that make or block fours and threes, then cells next to a stone, so
that alpha-beta meets the threats first among 225 moves. All three are bit-parallel, a
whole row of windows at a time (about 9 us of CPU a position on the standard board).

**Render modes.** `ansi` and `human` give the text board with coordinates;
`rgb_array` a 480x480 image, stones on the crossings of a Go-style grid.

**Figures** (measured 2026-11-28 on a shared 2-core machine; the load average is given
with each, as timings there are rough):

* *Equal to OpenSpiel move for move*: 8,242 positions of 292 seeded random games on six
  variants (15x15: 1,253 positions in 12 games; 9x9: 2,190 in 40; 7x7 connect 4: 2,232 in
  80; a 6x6 torus, connect 4: 1,187 in 60; 5x5 connect 3 `anti`: 774 in 60; 4x4 connect
  4: 606 in 40), the legal actions, player, board, observation, terminal flag and returns
  compared at each: `pytest tests/games/test_gomoku.py -k cross_check`; more games with
  `python bench/gomoku.py --games 200`. Rectangles against OpenSpiel's `mnk` (2026-11-29):
  2,774 positions of 120 games on 7x4 (k=4), 3x6 (k=3), 9x5 (k=5) and 19x3 (k=3), the board
  and mnk's action names compared too: `python bench/gomoku.py --games 30`.
* *Game API speed*: the natural loop (`legal = game.legal_actions(s); s = game.apply(s,
  int(legal[i]))`, the player asked at every move) runs 2.21x pyspiel's `gomoku` in the
  same process (395 k against 179 k moves/s of CPU, load 2, 2026-11-28); 2.65x with `apply`
  alone: `python bench/game_api.py --only gomoku`.
* *Strength*: the default opponent, `alphabeta(time=0.1)` (the `threats` heuristic,
  quiescence on fours), against OpenSpiel's `MCTSBot` (its C++ `pyspiel.MCTSBot`: 1,000
  simulations, one random rollout a leaf, `uct_c=2`, `solve`), seats alternating from paired
  4-ply random openings, 100 games (2026-11-28, two games at once on 2 cores, load about 2):
  100 wins in 100 games, score 1.00, 95% Wilson interval [0.96, 1.00]; 0.07 s a move against
  MCTSBot's 0.37 s: `python bench/strength.py --game gomoku --games 100 --workers 2 --log
  strength.jsonl`.

*Perft* from the start (move sequences of each length; OpenSpiel's counts are the same,
and no line can appear before ply 9 on a board of five): `python bench/gomoku.py`.

| board | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 |
|---|---|---|---|---|---|---|---|---|---|
| 15x15, five | 225 | 50,400 | 11,239,200 | | | | | | |
| 7x7, four | 49 | 2,352 | 110,544 | 5,085,024 | | | | | |
| 3x3, three (tic-tac-toe) | 9 | 72 | 504 | 3,024 | 15,120 | 54,720 | 148,176 | 200,448 | 127,872 |

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
    rows, cols = game.rows, game.columns
    pad = cell // 2
    img, pen = canvas(cols * cell, rows * cell)
    right, bottom = pad + (cols - 1) * cell, pad + (rows - 1) * cell
    for r in range(rows):
        pen.line((pad, pad + r * cell, right, pad + r * cell), fill=LINE, width=2)
    for c in range(cols):
        pen.line((pad + c * cell, pad, pad + c * cell, bottom), fill=LINE, width=2)
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
