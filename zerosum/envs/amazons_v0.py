"""The Game of the Amazons.

| Import             | `from zerosum.envs import amazons_v0` |
|--------------------|---------------------------------------|
| Actions            | Discrete                              |
| Parallel API       | No                                    |
| Agents             | `agents= ['player_0', 'player_1']`    |
| Action shape       | (1,)                                  |
| Action values      | Discrete(100)                         |
| Observation shape  | (10, 10, 6)                           |
| Observation values | [0, 1]                                |

(The table is for the default 10x10 board; the shapes follow `board_size`.)

Each side has four queens (amazons). A move: one of one's queens moves like a chess queen
over empty cells, then shoots an arrow the same way from where it lands; arrows stay for
the rest of the game. The player who cannot move loses; there are no draws. `player_0`
(`X`, starting on a4, j4, d1, g1) moves first. Rules, parameters, starting squares and
actions are OpenSpiel's `amazons`, equal to it at every step of random games
(`tests/games/test_amazons.py`); as in OpenSpiel a move is **three actions of the same
agent**: the queen, its destination, the arrow (PettingZoo's `agent_selection` stays on
that agent for all three).

**Observation.** A dict: `observation` is an int8 array (size, size, 6), row 0 the top
row: plane 0 the observer's queens, plane 1 the opponent's, plane 2 the arrows, plane 3
the square of the queen lifted to move (second action), plane 4 the queen about to shoot
(third action), plane 5 all ones when the observer is to move. `action_mask` is an int8
vector of `size * size`, all zeros for the agent not to move.

**Actions.** `action = row * size + column`, row 0 at the top (OpenSpiel's encoding), in
each phase: the queen to move, its destination, the arrow's cell. Players write squares
(`d1`, `d7`, `g7`; rank 1 at the bottom); OpenSpiel names them `X From (10, 4)`,
`X To (4, 4)`, `X Shoot: (4, 7)`::

          a   b   c   d   e   f   g   h   i   j
    10    0   1   2   3   4   5   6   7   8   9
     9    10  11  ...
    ...
     1    90  91  92  93  94  95  96  97  98  99

**Rewards.** +1 to the player who made the last move (the opponent has no queen that can
move) and -1 to the other, 0 on every other step. Through `env()`, an illegal action ends
the game with -1 to its author; the game's error says why (a queen that is blocked, a cell
not in the queen's line, a cell in the way).

**Variants.** As OpenSpiel's `amazons`: `board_size` 10 (default), 8 or 6, the sizes
OpenSpiel has starting squares for. Example: `amazons_v0.env(board_size=6)`.

**Heuristics** (for alpha-beta, `heuristic=`), from the Amazons literature (Lieberum 2005;
Hensgens 2001): `territory` (the default): the empty cells each side reaches first in
queen moves, plus half of those it reaches first in king steps, plus a tenth of the
mobility difference; `queen_distance`, `king_distance` and `mobility` (queen moves, own
minus the opponent's) alone. The move-ordering hint tries queens and destinations with
more room first and arrows next to the opponent's queens. The default opponent is
`Amazons.default_opponent`.

**Figures** (2026-11-29, a 2-core machine shared with other jobs, load about 7; each with
its command).

* *Equal to OpenSpiel's `amazons` at every step* (legal actions, board, player to move,
  terminal flag, returns, OpenSpiel's action names): 12,690 steps of 90 random games on
  10x10, 8x8 and 6x6 (`python bench/amazons.py --strength-games 0`); the test compares
  8,725 steps of 88 games on its own seeds.
* *Speed*: random games in the loop a user writes (`current_player`, `legal_actions`,
  `apply(s, int(a))`, `returns`) run 1.46x as many actions a second as the same loop on
  pyspiel in the same process (1.42 M against 0.98 M actions/s of CPU time, 300 games;
  1.40-1.47x over three runs at load 4.6, 2026-11-29: `python bench/amazons.py
  --strength-games 0`), short of issue 57's 1.5x: OpenSpiel's Amazons is cheap per action,
  and the loop's cost here is mostly the calls themselves.
* *Strength*: the default opponent, `alphabeta(time=0.1)` with `territory`, against
  OpenSpiel's `MCTSBot` (its C++ `pyspiel.MCTSBot`: 1,000 simulations an action, one
  random rollout a leaf, `uct_c=2`, `solve`), seats alternating from paired 4-action
  random openings: 100 wins in 100 games, score 1.00, 95% Wilson interval [0.963, 1.00],
  1.00 in either seat; 0.10 s an action against the bot's 0.09 s (one game at a time, load
  7-9 on 2 cores): `python bench/strength.py --game amazons --games 100 --workers 1 --log
  strength.jsonl` (`python bench/amazons.py` runs the same).

*Perft* (action sequences of each length from the start; three actions make a move), the
same as OpenSpiel's (checked to 5 actions on each board; `python bench/amazons.py`):

| board | 1 | 2 | 3 | 4 | 5 | 6 |
|---|---|---|---|---|---|---|
| 10x10 | 4 | 80 | 2,176 | 8,704 | 168,420 | 4,307,152 |
| 8x8 | 4 | 60 | 1,232 | 4,928 | 70,386 | 1,331,198 |
| 6x6 | 4 | 40 | 544 | 2,176 | 19,936 | 238,532 |

2,176 and 4,307,152 on 10x10 are the known counts of first moves and of two-move sequences.

**Render modes.** `ansi` and `human` give the text board with ranks and column letters
(`X`, `O`, `#` for arrows) and what the mover does next; `rgb_array` an image of the
board, `X` dark and `O` light queens, arrows as dark squares.

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import grid
from zerosum.games.amazons import Amazons
from zerosum.games.amazons.rules import MOVE, S_FROM, S_PHASE

NAME = "amazons_v0"
_LIGHT_SQUARE = (238, 222, 190)
_DARK_SQUARE = (200, 170, 120)
_ARROW = (70, 60, 55)
_LIFTED = (150, 190, 120)


def draw(game: Amazons, state: np.ndarray) -> np.ndarray:
    """The board as drawn in text on a chequered board: ``X`` dark queens, ``O`` light,
    arrows as dark filled squares, the square of a lifted queen tinted green."""
    s = game.as_state(state)
    marks = {".": -1, "#": -1, "X": 0, "O": 1}
    rows = game.cells(s)
    cells = np.array([[marks[ch] for ch in row] for row in rows])
    n = game.size
    shade = [(r, c, _DARK_SQUARE if (r + c) % 2 else _LIGHT_SQUARE) for r in range(n) for c in range(n)]
    shade += [(r, c, _ARROW) for r in range(n) for c in range(n) if rows[r][c] == "#"]
    if int(s[S_PHASE]) == MOVE:  # a queen is lifted: its square is tinted
        sq = int(s[S_FROM])
        shade.append((sq // n, sq % n, _LIFTED))
    return grid(cells, cell=48, shade=shade)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Amazons]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Amazons(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Amazons]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Amazons(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
