"""Checkers (English draughts).

| Import             | `from zerosum.envs import checkers_v0` |
|--------------------|----------------------------------------|
| Actions            | Discrete                               |
| Parallel API       | No                                     |
| Agents             | `agents= ['player_0', 'player_1']`     |
| Action shape       | (1,)                                   |
| Action values      | Discrete(512)                          |
| Observation shape  | (8, 8, 7)                              |
| Observation values | [0, 1]                                 |

(The table is for the default 8x8 board; with `rows=R, columns=C` the actions are
`Discrete(8*R*C)` and the observation (R, C, 7): 10x10 gives Discrete(800).)

English draughts as OpenSpiel's `checkers` plays it, action for action. Men move and jump
diagonally forward on the dark squares; a man reaching the far row becomes a king, which
moves and jumps in all four diagonal directions. Captures are forced (any jump, not the
longest). A **multi-jump is a sequence of actions by the same player**: after a jump, while
the piece that jumped can jump again, the same agent moves again, with only that piece's
jumps legal; a jump that crowns ends the move. A player without a legal move loses; 40
plies in a row without a capture draw the game. `player_0` (white, `o`) starts on the
bottom three rows and moves first; `player_1` is black (`+`).

**Observation.** A dict: `observation` is an int8 array (rows, columns, 7) from the
observer's side, turned 180 degrees for `player_1` so that every observer plays up the
board. Planes: 0 the observer's men, 1 its kings, 2 the opponent's men, 3 the opponent's
kings, 4 all ones when the observer is to move, 5 the piece that must jump again in a
multi-jump (one cell), 6 the plies without a capture as a fraction of 40 (ones in the
first `rows*columns*quiet//40` cells, row-major). `action_mask` is an int8 vector of
`8*rows*columns`, all zeros for the agent that is not to move.

**Actions.** OpenSpiel's encoding, square `row*columns + column` with row 0 the top row
(rank 8), direction 0 up-left, 1 up-right, 2 down-right, 3 down-left, kind 0 a step and 1
a jump::

    action = (square * 4 + direction) * 2 + kind

    c3d4 (white's 11-15): square 42, direction 1, step  -> 338
    c3e5 (a jump):        square 42, direction 1, jump  -> 339

Readable names (the CLI) are OpenSpiel's `c3d4` and `c3e5`; the standard numbering
`11-15` and `11x18` is read too, counted from the first mover's side (white's men start on
1-12). In `zerosum play` a multi-jump may be typed whole (`a3c5e7`, `21x14x7`: the squares
it visits), and the board's key says which marks are kings (`8` white's, `*` black's).

**Rewards.** +1 to the winner and -1 to the loser at the end, 0 for a draw and on every
other step. Through `env()`, an illegal action ends the game with -1 to its author.

**Variants.** `rows` (7-16, default 8) and `columns` (4-16, default 8, at most `rows`),
as OpenSpiel's `checkers` (each side on its three home rows). On 6 rows the men start
with no move, and with more columns than rows OpenSpiel's multi-jump bookkeeping names the
wrong square, so those boards are refused.

| variant | men a side | actions | longest game (plies) |
|---|---|---|---|
| 8x8 (default) | 12 | 512 | 983 |
| 10x10 | 15 | 800 | 1229 |
| 8x6 | 9 | 384 | 737 |
| 7x7 | 10 | 392 | 819 |

**Heuristics** (for `alphabeta(heuristic=...)`; white minus black, from the searcher's side;
the terms of Samuel's checkers player and of every engine since):

| name | terms |
|---|---|
| `material` | 100 per piece |
| `kings` | 100 per man, 150 per king |
| `back_rank` | `kings` + 12 per man on its own back row |
| `mobility` (default) | `back_rank` + 4 a step, 2 a row a man advanced, 6 a centre piece, 300 x (own-other)/pieces |

The move-ordering hint puts jumps, then crowning moves, then central men first; the
forcing moves (the quiescence search's) are the jumps. The default opponent (`zerosum play
checkers`, the strength benchmark) is `alphabeta(time=0.1)`: `mobility`, quiescence on.

**Figures.** Each with the command that gives it (on a 2-core machine shared with other jobs).

* *OpenSpiel move for move* (`python bench/checkers.py oracle --games 300`): 300 seeded
  random games on each of 8x8, 10x10, 8x6, 7x7, 10x8 and 12x12, with equal legal actions
  (and their names), player to move, terminal flag, returns and board at every step:
  20,848, 34,089, 15,334, 16,958, 27,947 and 50,044 steps (692, 1,202, 443, 417, 870 and
  1,508 of them in the middle of a multi-jump). The tests replay fewer games on seeds of
  their own.
* *Perft* from the 8x8 start (`python bench/checkers.py perft`): zerosum per action (each
  jump of a multi-jump one action, OpenSpiel's encoding), OpenSpiel per action (pyspiel),
  zerosum per whole move (a player's consecutive actions counted once), and Aart Bik's
  published table ("perft for 8x8 checkers", talkchess.com, 2009: whole moves, duplicate
  king captures kept). The two counts part at depth 7, where the first multi-jumps occur.

| depth | zerosum, per action | OpenSpiel, per action | zerosum, whole moves | Bik, whole moves |
|---|---|---|---|---|
| 1 | 7 | 7 | 7 | 7 |
| 2 | 49 | 49 | 49 | 49 |
| 3 | 302 | 302 | 302 | 302 |
| 4 | 1,469 | 1,469 | 1,469 | 1,469 |
| 5 | 7,361 | 7,361 | 7,361 | 7,361 |
| 6 | 36,768 | 36,768 | 36,768 | 36,768 |
| 7 | 179,255 | 179,255 | 179,740 | 179,740 |
| 8 | 838,248 | | 845,931 | 845,931 |
| 9 | 3,866,526 | | | 3,963,680 |

* *Game API speed* (`python bench/game_api.py --only checkers`): random games in the
  natural loop (`legal = game.legal_actions(s); s = game.apply(s, int(legal[i]))`, with
  `current_player` and `returns`) make 2.31x as many moves a second as the same loop on
  pyspiel's `checkers` in the same process (250 k against 109 k moves/s, load 2,
  2026-11-28).
* *Strength* (`python bench/strength.py --game checkers --games 100 --workers 2 --log
  strength.jsonl`): the default opponent against OpenSpiel's `MCTSBot` (its C++
  `pyspiel.MCTSBot`: 1,000 simulations, one random rollout a leaf, `uct_c=2`, `solve`),
  seats alternating from paired 4-ply random openings, 100 games (2026-11-28, two games at
  once on 2 cores, load about 2): W/D/L 83/17/0, score 0.915 [0.84, 0.96] (95% Wilson), 0.93
  as black and 0.90 as white, no loss; the draws are the 40-ply rule. 0.09 s a move against
  MCTSBot's 0.17 s.

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import HIGHLIGHT, grid, to_array
from zerosum.games.checkers import Checkers

NAME = "checkers_v0"
_DARK_SQUARE = (150, 110, 75)


def draw(game: Checkers, state: np.ndarray) -> np.ndarray:
    """The board from white's side, dark squares shaded, white's pieces light and black's
    dark; a king has a red ring."""
    rows = game.cells(state)
    owner = {".": -1, "o": 1, "8": 1, "+": 0, "*": 0}  # the drawing's stone 0 is dark, 1 light
    cells = np.array([[owner[ch] for ch in row] for row in rows])
    cell = 48 if game.rows <= 10 else 32
    shade = [(r, c, _DARK_SQUARE) for r in range(game.rows) for c in range(game.columns) if (r + c) % 2 == 1]
    img = Image.fromarray(grid(cells, cell=cell, shade=shade))
    pen = ImageDraw.Draw(img)
    pad = cell // 2
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in "8*":
                cx, cy, rad = pad + (c + 0.5) * cell, pad + (r + 0.5) * cell, cell * 0.18
                pen.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), outline=HIGHLIGHT, width=max(2, cell // 12))
    return to_array(img)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Checkers]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Checkers(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Checkers]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Checkers(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
