"""Lines of Action.

| Import             | `from zerosum.envs import lines_of_action_v0` |
|--------------------|-----------------------------------------------|
| Actions            | Discrete                                      |
| Parallel API       | No                                            |
| Agents             | `agents= ['player_0', 'player_1']`            |
| Action shape       | (1,)                                          |
| Action values      | Discrete(8192)                                |
| Observation shape  | (8, 8, 3)                                     |
| Observation values | [0, 1]                                        |

Each side has 12 pieces: `player_0` (black, `x`, moving first) on b1-g1 and b8-g8,
`player_1` (white, `o`) on a2-a7 and h2-h7. A piece moves along a row, column or
diagonal exactly as many squares as that line holds pieces (both colours); it jumps its
own pieces, never the opponent's, and lands on an empty square or takes the opponent's
piece there. The side whose pieces form one group (touching by side or corner) wins, the
mover when a move joins both; a player with no move loses. Rules, parameters and actions
are OpenSpiel's `lines_of_action`, equal to it at every step of random games
(`tests/games/test_lines_of_action.py`), including its draws: a board seen before, and
the `max_game_length`-th move.

**Observation.** A dict: `observation` is an int8 array (8, 8, 3), row 0 the top row
(rank 8): plane 0 the observer's pieces, plane 1 the opponent's, plane 2 all ones when
the observer is to move. `action_mask` is an int8 vector of 8,192, all zeros for the
agent not to move.

**Actions.** OpenSpiel's encoding, `action = (from * 64 + to) * 2 + capture` with
`square = row * 8 + column`, row 0 = rank 1 (a1 = 0, h1 = 7, a8 = 56), capture 1 when
the move takes a piece. Names are OpenSpiel's, the square left, `-` or `x`, and the square
reached (`b1-h1` = 142, `c1xa3` = 289)::

         a    b    c    d    e    f    g    h
    8    56   57   58   59   60   61   62   63      squares
    ...
    1    0    1    2    3    4    5    6    7

    action = (from * 64 + to) * 2 + capture

**Rewards.** +1 to the player whose pieces form one group (or whose opponent cannot move)
and -1 to the other, 0 to both for a draw and on every other step. Through `env()`, an
illegal action ends the game with -1 to its author.

**Variants.** As OpenSpiel's `lines_of_action`: `max_game_length` (int 1..10,000, default
1,000): the move that ends the game in a draw. Example: `lines_of_action_v0.env(max_game_length=200)`.

**Heuristics** (for alpha-beta, `heuristic=`), the terms of Winands' LOA evaluator (MIA):
`combined` (the default): concentration (how gathered the pieces are around their centre
of mass), connectedness (touching pairs per piece) and mobility (captures 2, edge moves
1/2), own minus the opponent's; each also alone as `concentration`, `connectedness` and
`mobility`. The move-ordering hint tries captures first, then moves towards the centre of
mass. The default opponent is `LinesOfAction.default_opponent`.

**Figures** (2026-11-29, a 2-core machine shared with other jobs, load about 7; each with
its command).

* *Equal to OpenSpiel's `lines_of_action` at every step* (legal actions, board, player
  to move, terminal flag, returns, action names): 39,589 steps of 300 random games with
  `max_game_length` 1000, 60 and 150 (wins, draws by a repeated board, draws by the
  limit): `python bench/lines_of_action.py --strength-games 0`; the test compares
  10,402 steps of 95 games on its own seeds.
* *Speed*: random games in the loop a user writes (`current_player`, `legal_actions`,
  `apply(s, int(a))`, `returns`) run 4.28x as many moves a second as the same loop on
  pyspiel in the same process (0.75 M against 0.17 M moves/s of CPU time, 300 games:
  `python bench/lines_of_action.py --strength-games 0`).
* *Strength*: the default opponent, `alphabeta(time=0.1)` with `combined`, against
  OpenSpiel's `MCTSBot` (its C++ `pyspiel.MCTSBot`: 1,000 simulations, one random rollout a
  leaf, `uct_c=2`, `solve`), seats alternating from paired 4-ply random openings: 100
  wins in 100 games, score 1.00, 95% Wilson interval [0.963, 1.00], 1.00 in either seat;
  0.08 s a move against the bot's 1.5 s (one game at a time, load 7-9 on 2 cores):
  `python bench/strength.py --game lines_of_action --games 100 --workers 1 --log
  strength.jsonl` (`python bench/lines_of_action.py` runs the same).

*Perft* (move sequences of each length from the start), the same as OpenSpiel's (checked
to depth 4; `python bench/lines_of_action.py`):

| depth | 1 | 2 | 3 | 4 | 5 |
|---|---|---|---|---|---|
| moves | 36 | 1,244 | 44,952 | 1,563,208 | 55,934,908 |

**Render modes.** `ansi` and `human` give the text board with ranks and column letters;
`rgb_array` an image of the board, black pieces dark and white pieces light.

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import grid
from zerosum.games.lines_of_action import LinesOfAction

NAME = "lines_of_action_v0"
_DARK_SQUARE = (200, 170, 120)


def draw(game: LinesOfAction, state: np.ndarray) -> np.ndarray:
    """The board as drawn in text (rank 1 at the bottom) on a chequered board: black's
    pieces (``x``) dark, white's (``o``) light."""
    marks = {".": -1, "x": 0, "o": 1}
    cells = np.array([[marks[ch] for ch in row] for row in game.cells(state)])
    shade = [(r, c, _DARK_SQUARE) for r in range(8) for c in range(8) if (r + c) % 2]
    return grid(cells, cell=56, shade=shade)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[LinesOfAction]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(LinesOfAction(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[LinesOfAction]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(LinesOfAction(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
