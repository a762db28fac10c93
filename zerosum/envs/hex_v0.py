"""Hex.

| Import             | `from zerosum.envs import hex_v0`      |
|--------------------|----------------------------------------|
| Actions            | Discrete                               |
| Parallel API       | No                                     |
| Agents             | `agents= ['player_0', 'player_1']`     |
| Action shape       | (1,)                                   |
| Action values      | Discrete(121)                          |
| Observation shape  | (11, 11, 4)                            |
| Observation values | [0, 1]                                 |

(The table is for the default 11x11 board; the shapes follow `num_rows` and `num_cols`,
and the pie rule adds one action.)

Two players take turns putting a stone on an empty cell of a rhombus of hexagons.
`player_0` (black, `x`) moves first and wins by joining the top and bottom edges with a
chain of its stones; `player_1` (white, `o`) joins the left and right edges. A full
board always holds one chain, so there are no draws; the first player wins with perfect
play (Nash's strategy-stealing argument), which the pie rule answers. Rules, parameters
and actions are OpenSpiel's `hex`, equal to it at every step of random games
(`tests/games/test_hex.py`).

**Observation.** A dict: `observation` is an int8 array (rows, columns, 4), row 0 the
top row: plane 0 the observer's stones, plane 1 the opponent's, plane 2 all ones when the
observer is to move, plane 3 all ones when the observer is black (joins top and bottom;
white joins left and right). Whether the pie rule may be taken follows from the board.
`action_mask` is an int8 vector of `num_actions`, all zeros for the agent not to move.

**Actions.** `action = row * num_cols + column` (row 0 at the top, OpenSpiel's
encoding); readable names are the column letter and the row number, as OpenSpiel names
them (`a1` = 0, `f6` = 60 on 11x11). With `swap=True`, action `rows * cols` is the pie
rule, named `swap`. Each row sits half a cell right of the one above::

       a  b  c  d  e
    1  0  1  2  3  4           (r, c) touches (r-1, c), (r-1, c+1),
     2  5  6  7  8  9                         (r, c-1), (r, c+1),
      3 10 11 12 13 14                        (r+1, c-1), (r+1, c)
       4 15 16 17 18 19
        5 20 21 22 23 24       5x5: x joins rows 1 and 5, o columns a and e

**Rewards.** +1 to the player whose chain joins its edges and -1 to the other, 0 on
every other step. Through `env()`, an illegal action ends the game with -1 to its
author.

**Variants.** As OpenSpiel's `hex`: `board_size` (int 2..26, default 11), `num_rows` and
`num_cols` (int 2..26, default `board_size`: any rhombus or parallelogram), `swap`
(default False): the pie rule, square boards only. White's first move may be `swap`,
which takes black's first stone as white's, seen from white's side (a black stone on
`(r, c)` becomes a white one on `(c, r)`), and black moves next. Example:
`hex_v0.env(board_size=7, swap=True)`.

**Heuristics** (for alpha-beta, `heuristic=`). Each player's *potential* is the least,
over the empty cells, of the cell's distance to one of its edges plus its distance to
the other, on the graph where its own stones cost nothing (a chain is one node) and the
opponent's are walls; a position scores the opponent's potential minus the player's,
100 a cell. `distance`: shortest paths (the cells still to fill). `two_distance` (the
default): Queenbee's two-distance (van Rijswijck, 2000), where a cell is one more than
its *second*-best neighbour, because the opponent blocks the best; ties broken by how
many cells reach the potential. The move-ordering hint tries cells next to stones, then
the centre.

**Figures** (2-core machine shared with other jobs, 2026-11-28; each with its command).

* *Equal to OpenSpiel's `hex` at every step*: 110,579 steps of 1,800 random games on the
  default board, 5x5 and 13x13 with the pie rule, 4x7, 7x7 and 9x3 (legal actions, board,
  player to move, terminal flag, returns): `python bench/hex_openspiel.py --games 300`.
* *Speed*: random games through the Game API in the loop a user writes (`legal =
  game.legal_actions(s); s = game.apply(s, int(legal[i]))`, with `current_player` and
  `returns`) run 1.92x as many moves a second as the same loop on pyspiel in the same
  process (463 k against 241 k moves/s, two runs at load 1-2, 2026-11-28: `python
  bench/game_api.py --only hex`; 1.91x in the other), and `legal_actions` with `apply`
  alone 2.3x. It was 1.47x until the Game API's C calls began to reuse the arrays a loop
  drops (see the CHANGELOG): allocating a new state and a new action array was most of a
  move's time in `apply` and `legal_actions`.
* *The default opponent*, `alphabeta(time=0.1)` (with `two_distance`), won all 20 games
  against `mcts(time=0.1)` (random rollouts) on 11x11, 10 in each seat:
  `zerosum match --game hex "mcts(time=0.1)" "alphabeta(time=0.1)" --max-games 20`; and
  19 of 20 against `alphabeta(time=0.1, heuristic=distance)`:
  `zerosum match --game hex "alphabeta(time=0.1)" "alphabeta(time=0.1, heuristic=distance)" --max-games 20`.
* *Strength*: the default opponent, `alphabeta(time=0.1)`, against OpenSpiel's `MCTSBot`
  (its C++ `pyspiel.MCTSBot`: 1,000 simulations, one random rollout a leaf, `uct_c=2`,
  `solve`), seats alternating from paired 4-ply random openings, 100 games (2026-11-28, two
  games at once on 2 cores, load about 2): 100 wins in 100 games (50 as black, 50 as white),
  score 1.00, 95% Wilson interval [0.96, 1.00]; 0.09 s a move against the bot's 0.19 s:
  `python bench/strength.py --game hex --games 100 --workers 2 --log strength.jsonl`.

*Perft* (move sequences of each length from the start), the same as OpenSpiel's (the
bench above checks them):

| board | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 |
|---|---|---|---|---|---|---|---|---|---|
| 3x3 | 9 | 72 | 504 | 3,024 | 15,120 | 54,720 | 146,880 | 207,360 | 120,960 |
| 3x3, swap | 9 | 81 | 576 | 3,528 | 18,144 | 69,840 | 201,600 | | |
| 2x3 | 6 | 30 | 120 | 240 | 480 | 144 | | | |
| 4x4 | 16 | 240 | 3,360 | 43,680 | 524,160 | | | | |
| 5x5, swap | 25 | 625 | 14,400 | 317,400 | | | | | |
| 11x11 | 121 | 14,520 | | | | | | | |

**Render modes.** `ansi` and `human` give the text rhombus with coordinates; `rgb_array`
an image of hexagons, black's edges dark and white's edges light.

**Version history.** v0: first release.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import LINE, STONES, canvas, stone, to_array
from zerosum.games.hex import Hex

NAME = "hex_v0"
_EMPTY = (222, 198, 156)


def draw(game: Hex, state: np.ndarray, radius: int = 22) -> np.ndarray:
    """The rhombus of hexagons (pointy side up), each row half a cell right of the one
    above, black's edges (top and bottom) drawn dark and white's (left and right) light."""
    rows, cols = game.rows, game.columns
    w = math.sqrt(3) * radius
    pad = radius * 1.6
    width = round((cols + (rows - 1) / 2) * w + 2 * pad)
    height = round((rows - 1) * 1.5 * radius + 2 * radius + 2 * pad)
    img, pen = canvas(width, height)

    def centre(r: float, c: float) -> tuple[float, float]:
        return pad + w / 2 + (c + r / 2) * w, pad + radius + r * 1.5 * radius

    thick = max(4, radius // 3)
    for (r0, c0), (r1, c1), player in (((-0.75, -0.5), (-0.75, cols - 0.5), 0),
                                       ((rows - 0.25, -0.5), (rows - 0.25, cols - 0.5), 0),
                                       ((-0.5, -0.75), (rows - 0.5, -0.75), 1),
                                       ((-0.5, cols - 0.25), (rows - 0.5, cols - 0.25), 1)):
        ends = (*centre(r0, c0), *centre(r1, c1))
        if player == 1:  # a light edge, outlined so that it shows on the board's colour
            pen.line(ends, fill=LINE, width=thick + 4)
        pen.line(ends, fill=STONES[player], width=thick)
    cells = game.cells(state)
    for r in range(rows):
        for c in range(cols):
            x, y = centre(r, c)
            corners = [(x + radius * math.cos(math.radians(90 + 60 * k)),
                        y + radius * math.sin(math.radians(90 + 60 * k))) for k in range(6)]
            pen.polygon(corners, fill=_EMPTY, outline=LINE, width=2)
            if cells[r][c] != ".":
                stone(pen, x, y, radius * 0.62, "xo".index(cells[r][c]))
    return to_array(img)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Hex]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Hex(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Hex]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Hex(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
