"""Ultimate tic-tac-toe.

| Import             | `from zerosum.envs import ultimate_tic_tac_toe_v0` |
|--------------------|----------------------------------------------------|
| Actions            | Discrete                                           |
| Parallel API       | No                                                 |
| Agents             | `agents= ['player_0', 'player_1']`                 |
| Action shape       | (1,)                                               |
| Action values      | Discrete(9)                                        |
| Observation shape  | (9, 9, 6)                                          |
| Observation values | [0, 1]                                             |

Nine tic-tac-toe boards in a big one: a mark in a cell sends the opponent to the small
board in that place of the big board, three in a row wins a small board, and three won
boards in a row win the game. `player_0` (`x`) moves first. Rules and actions are
OpenSpiel's `ultimate_tic_tac_toe`, equal to it at every step of random games
(`tests/games/test_ultimate_tic_tac_toe.py`).

**Observation.** A dict: `observation` is an int8 array (9, 9, 6) over the 81 cells of the
big board (row 0 the top row): plane 0 the observer's marks, plane 1 the opponent's,
plane 2 the cells of the small board the mover must play in, plane 3 all ones when the
mover chooses a board, plane 4 all ones when the observer is to move, plane 5 the cells
of the small boards still open (not won and not full). `action_mask` is an int8 vector
of 9, all zeros for the agent not to move.

**Actions.** Nine, as OpenSpiel: when the mover may choose where to play (the first move,
and whenever it is sent to a finished board) the action is the board (`Choose local
board 4`), and the same player then plays a cell of it with a second action; otherwise it
is a cell of the board it was sent to (`Local board 4: x(1,1)`, row and column). A cell
also names the board the opponent is sent to::

    boards of the big board        cells of a small board
        0 | 1 | 2                      0 1 2        cell = 3*row + column
        --+---+--                      3 4 5
        3 | 4 | 5                      6 7 8
        --+---+--
        6 | 7 | 8

The CLI reads `board 4` for a choice and `(1,1)` or `1,1` for a cell.

**Rewards.** +1 to the player with three won boards in a row and -1 to the other; 0 to
both in a draw (every small board finished without a line of won boards; a full board
without a line counts for nobody) and on every other step. Through `env()`, an illegal
action ends the game with -1 to its author.

**Variants.** None (OpenSpiel's game has no parameters).

**Heuristics** (for alpha-beta, `heuristic=`), built from the features that ultimate
tic-tac-toe programs evaluate, own minus the opponent's. `boards`: 100 a won small
board. `threats` (the default): a won small board 100 plus 10 a line of the big board
through its place (the centre 4, a corner 3, an edge 2); a big-board threat (two won
boards in a line whose third board can still be won) 150; a small-board threat (two marks
in a line of a board in play, the third cell empty) 10; a mark on the centre cell of a
board in play 3. The move-ordering hint plays cells that win a small board first, then
blocks, and sends the opponent to a finished board (a free choice) or to a board where it
threatens last. The default opponent (`UltimateTicTacToe.default_opponent`) is MCTS,
`mcts(time=0.1, c=0.7)`, which plays better than alpha-beta with these heuristics at 0.1 s a
move (the figures below).

**Figures** (2026-11-29, a 2-core machine shared with other jobs, load about 12; each with
its command).

* *Equal to OpenSpiel's `ultimate_tic_tac_toe` at every step* (legal actions, board, the
  board in play, player to move, terminal flag, returns, action names): 68,344 steps of
  1,000 random games, 397 won by `x`, 243 drawn (`python bench/ultimate_tic_tac_toe.py
  --strength-games 0`); the test compares 20,312 steps of 300 games on its own seeds.
* *Perft* from the start, the same as OpenSpiel's: 9; 81; 720; 6,336; 55,080; 473,256
  (the first move is a choice of board, then a cell of it).
* *Speed*: random games in the loop a user writes (`current_player`, `legal_actions`,
  `apply(s, int(a))`, `returns`) run 1.61x as many moves a second as the same loop on
  pyspiel in the same process (1.80 M against 1.12 M moves/s of CPU time, 1,000 games:
  `python bench/ultimate_tic_tac_toe.py --strength-games 0`).
* *Strength*: the default opponent, `mcts(time=0.1, c=0.7)`, against OpenSpiel's `MCTSBot`
  (its C++ `pyspiel.MCTSBot`: 1,000 simulations, one random rollout a leaf, `uct_c=2`,
  `solve`), seats alternating from paired 4-ply random openings, 100 games (the first 30
  one at a time, the rest two at once; load 12-16 on 2 cores): 82 wins, 12 draws and 6
  losses, score 0.88, 95% Wilson interval [0.80, 0.93] (0.86 as `x`, 0.90 as `o`); 0.15 s
  a move against the bot's 0.04 s: `python bench/ultimate_tic_tac_toe.py --log
  strength.jsonl`. With the default `c=1.4` MCTS scored 0.67 over 100 games, and
  `alphabeta(time=0.1)` with `threats` 0.70 over 10 (`python bench/strength.py --game
  ultimate_tic_tac_toe --spec SPEC --games N`).

**Render modes.** `ansi` and `human` give the big board as text with each small board's
outcome and what the mover is to do; `rgb_array` an image: the board to play in (or,
when a board is to be chosen, every open one) tinted, and a won board crossed by a big X
or circled by a big O.

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import LINE, canvas, mark, to_array
from zerosum.games.ultimate_tic_tac_toe import UltimateTicTacToe
from zerosum.games.ultimate_tic_tac_toe.rules import FREE, S_FINISHED, S_FORCED, S_STATUS, S_WON

NAME = "ultimate_tic_tac_toe_v0"
_PLAY_HERE = (250, 236, 160)
_DRAWN = (200, 190, 170)


def draw(game: UltimateTicTacToe, state: np.ndarray, cell: int = 44) -> np.ndarray:
    """The 9x9 cells with thick lines between the small boards; the board to play in (every
    open board when one is to be chosen) tinted, drawn boards greyed, and a big X or O over
    each won board."""
    s = np.asarray(state)
    pad = cell // 2
    img, pen = canvas(9 * cell + 2 * pad, 9 * cell + 2 * pad)
    forced, finished = int(s[S_FORCED]), int(s[S_FINISHED])
    won = (int(s[S_WON]), int(s[S_WON + 1]))
    ongoing = int(s[S_STATUS]) == 0
    for b in range(9):
        x0, y0 = pad + 3 * cell * (b % 3), pad + 3 * cell * (b // 3)
        fill = None
        if (finished >> b) & 1 and not ((won[0] | won[1]) >> b) & 1:
            fill = _DRAWN
        elif ongoing and (forced == b or (forced == FREE and not (finished >> b) & 1)):
            fill = _PLAY_HERE
        if fill is not None:
            pen.rectangle((x0, y0, x0 + 3 * cell, y0 + 3 * cell), fill=fill)
    thin = max(2, cell // 20)
    for i in range(10):
        w = 3 * thin if i % 3 == 0 else thin
        pen.line((pad, pad + i * cell, pad + 9 * cell, pad + i * cell), fill=LINE, width=w)
        pen.line((pad + i * cell, pad, pad + i * cell, pad + 9 * cell), fill=LINE, width=w)
    for r, row in enumerate(game.cells(s)):
        for c, ch in enumerate(row):
            if ch != ".":
                mark(pen, pad + (c + 0.5) * cell, pad + (r + 0.5) * cell, cell * 0.3, "xo".index(ch))
    for b in range(9):
        for p in (0, 1):
            if (won[p] >> b) & 1:
                mark(pen, pad + 3 * cell * (b % 3 + 0.5), pad + 3 * cell * (b // 3 + 0.5), cell * 1.2, p)
    return to_array(img)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[UltimateTicTacToe]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(UltimateTicTacToe(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[UltimateTicTacToe]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(UltimateTicTacToe(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
