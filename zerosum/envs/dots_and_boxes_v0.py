"""Dots and Boxes.

| Import             | `from zerosum.envs import dots_and_boxes_v0` |
|--------------------|----------------------------------------------|
| Actions            | Discrete                                     |
| Parallel API       | No                                           |
| Agents             | `agents= ['player_0', 'player_1']`           |
| Action shape       | (1,)                                         |
| Action values      | Discrete(12)                                 |
| Observation shape  | (3, 3, 5)                                    |
| Observation values | [0, 1]                                       |

(The table is for the default 2x2 boxes; the shapes follow `num_rows` and `num_cols`:
`(num_rows+1)*num_cols + num_rows*(num_cols+1)` actions, observation
`(num_rows+1, num_cols+1, 5)`.)

Two players take turns drawing a line between two neighbouring dots. A player who draws
the fourth side of a box (or of two) takes it and moves again, so the same agent may
act several times in a row: always read `agent_selection`. When every line is drawn, the
player with more boxes wins. `player_0` (X) moves first. The rules, parameters and
actions are OpenSpiel's `dots_and_boxes`, equal to it at every step of random games
(tests/games/test_dots_and_boxes.py).

**Observation.** A dict: `observation` is an int8 array (num_rows+1, num_cols+1, 5), one
cell a dot, row 0 at the top: plane 0 the line from the dot to the right is drawn, plane
1 the line from it down is drawn, plane 2 the box to its lower right is the observer's,
plane 3 it is the opponent's, plane 4 all ones when the observer is to move (the last
row and column have no box, the last column no line to the right, the last row no line
down). The scores are the counts of planes 2 and 3. `action_mask` is an int8 vector of
the actions, all zeros for the agent not to move.

**Actions.** OpenSpiel's encoding: the horizontal lines row-major, then the vertical lines
row-major. Readable names (the CLI) are the two dots a line joins, column letter and row
number from 1 at the top; OpenSpiel's `h,0,0` reads too. On 2x2 boxes::

        a     b     c
    1   +--0--+--1--+          horizontal (r, c) = r*num_cols + c      (a1-b1 = 0)
        6     7     8          vertical (r, c) = (num_rows+1)*num_cols
    2   +--2--+--3--+                            + r*(num_cols+1) + c  (a1-a2 = 6)
        9    10    11
    3   +--4--+--5--+

**Rewards.** At the end, +1 to the player with more boxes and -1 to the other, 0 each for
equal boxes; 0 on every other step (with `utility_margin=True` too: rewards are win, draw
or loss in every zerosum env, vector envs included; OpenSpiel's margin returns are
`env.game.utility(state)`). Through `env()`, an illegal action (a line already drawn)
ends the game with -1 to its author.

**Variants.** OpenSpiel's parameters: `num_rows` and `num_cols` (int 1..20, default 2:
boxes down and across) and `utility_margin` (default False: OpenSpiel's returns are +1/-1/0;
True: they are the box margin, which `game.utility(state)` gives). Example:
`dots_and_boxes_v0.env(num_rows=3, num_cols=3)`. A board of no rows is refused
(`VariantError: num_rows=0 is not allowed: an int from 1 to 20`).

**Heuristics** (for alpha-beta; `zerosum.games.dots_and_boxes.knowledge`). `boxes`: the
box difference. `chains` (the default): the box difference counting the boxes the mover
can take now as the mover's, plus, once no safe move is left, Berlekamp's long-chain rule
on the chains (two-sided boxes joined through undrawn sides; long from three boxes) and
loops: the player it gives control to is credited with the controlled value (the boxes in long
chains and loops, less the 2 a long chain but the last and the 4 a loop that control
hands back). The ordering hint tries moves that take a box, then safe moves, then those
that give fewest boxes away; the quiescence search follows the moves that take a box.

**Figures** (a 2-core machine shared with other jobs, 2026-11-29; each with its command).

* *Equal to OpenSpiel's `dots_and_boxes` at every step*: 14,800 positions of 500 random games
  on 2x2, 3x3, 5x5, 3x4 with `utility_margin` and 1x5 (legal actions, player to move,
  terminal flag, returns or margin, lines, boxes' takers, the line each action names), perft
  1-5 on 2x2 and all 5,040 whole games of 1x2 boxes on both sides: `python
  bench/dots_and_boxes.py --quick`. 2x2 is a first-player win by 3 boxes to 1 (alpha-beta,
  and an exhaustive solve over OpenSpiel's states in the tests).
* *Speed*: random games on 2x2 in the loop a user writes (`current_player`,
  `legal_actions`, `apply(s, int(a))`, `returns`) run 1.42x pyspiel's moves a second in the
  same process (0.94 M against 0.66 M; 1.41-1.44x over three runs at load 4.6, 2026-11-29):
  `python bench/dots_and_boxes.py --strength-games 0`, short of issue 57's 1.5x. A game of
  12 moves is mostly the cost of the calls and of the loop itself (seeding its generator
  is a third of a game's time on either side).
* *Strength*: the default opponent, `alphabeta(time=0.1)`, against OpenSpiel's `MCTSBot`
  (C++, 1,000 simulations, random rollouts, `uct_c=2`, `solve`) on 2x2, seats alternating
  from paired 4-ply random openings: 46 wins, 43 draws, 11 losses in 100 games, score 0.675
  (95% interval [0.578, 0.759]); 0.94 as the first player, 0.41 as the second. Both sides
  see to the end of a 12-line game (0.002 s a move), so the openings decide most games:
  `python bench/strength.py --game dots_and_boxes --games 100 --workers 2`.

*Perft* from the start (every order of distinct lines, since no game ends before its
last line; OpenSpiel's counts are the same):

| board | 1 | 2 | 3 | 4 | 5 |
|---|---|---|---|---|---|
| 2x2 | 12 | 132 | 1,320 | 11,880 | 95,040 |
| 3x4 | 31 | 930 | 26,970 | | |

**Render modes.** `ansi` and `human` give the dots with coordinates, the lines drawn and
each box's taker (X, O) with the score; `rgb_array` an image of dots on paper, the lines
drawn in ink and each taken box shaded in its taker's colour with its mark.

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import canvas, mark, to_array
from zerosum.games.dots_and_boxes import DotsAndBoxes

NAME = "dots_and_boxes_v0"
_PAPER = (250, 248, 240)
_INK = (30, 30, 30)
_FAINT = (205, 200, 190)
_SHADES = ((196, 214, 240), (244, 204, 196))  # player 0's boxes bluish, player 1's reddish


def draw(game: DotsAndBoxes, state: np.ndarray, cell: int = 64) -> np.ndarray:
    """Dots on paper, undrawn lines faint, drawn lines in ink, taken boxes shaded in the
    taker's colour with its X or O."""
    rows, cols = game.rows, game.columns
    pad = cell // 2
    img, pen = canvas(cols * cell + 2 * pad, rows * cell + 2 * pad)
    pen.rectangle((0, 0, img.width, img.height), fill=_PAPER)

    def xy(r: int, c: int) -> tuple[int, int]:
        return pad + c * cell, pad + r * cell

    for r in range(rows):
        for c in range(cols):
            who = game.owner(state, r, c)
            if who is not None:
                x0, y0 = xy(r, c)
                pen.rectangle((x0, y0, x0 + cell, y0 + cell), fill=_SHADES[who])
                mark(pen, x0 + cell / 2, y0 + cell / 2, cell * 0.22, who)
    thick = max(3, cell // 12)
    for a in range(game.num_actions):
        orientation, r, c = game.line(a)
        x0, y0 = xy(r, c)
        x1, y1 = (x0 + cell, y0) if orientation == "h" else (x0, y0 + cell)
        if game.drawn(state, a):
            pen.line((x0, y0, x1, y1), fill=_INK, width=thick)
        else:
            pen.line((x0, y0, x1, y1), fill=_FAINT, width=1)
    dot = max(3, cell // 11)
    for r in range(rows + 1):
        for c in range(cols + 1):
            x, y = xy(r, c)
            pen.ellipse((x - dot, y - dot, x + dot, y + dot), fill=_INK)
    return to_array(img)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[DotsAndBoxes]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(DotsAndBoxes(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[DotsAndBoxes]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(DotsAndBoxes(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
