"""Mancala (Kalah).

| Import             | `from zerosum.envs import mancala_v0`  |
|--------------------|----------------------------------------|
| Actions            | Discrete                               |
| Parallel API       | No                                     |
| Agents             | `agents= ['player_0', 'player_1']`     |
| Action shape       | (1,)                                   |
| Action values      | Discrete(14)                           |
| Observation shape  | (14, 48, 2)                            |
| Observation values | [0, 1]                                 |

Kalah with six pits a side and four seeds a pit, OpenSpiel's `mancala`. A move sows every
seed of one of the mover's pits, one a pit, counterclockwise, through the mover's store
and past the opponent's. A last seed in the mover's store gives it another move (so the
same agent can act twice in a row: read `agent_selection`); a last seed in an empty pit of
its own captures the pit opposite. The game ends when one side's pits are empty; each
player scores its store plus its pits' seeds. `player_0` (south) moves first. Rules and
actions are OpenSpiel's `mancala`, equal to it at every step of random games
(`tests/games/test_mancala.py`).

**Observation.** A dict: `observation` is an int8 array (14, 48, 2): row `k` is the
`k`-th pit or store in sowing order from the observer's first pit (its 6 pits, its store,
the opponent's 6 pits, the opponent's store); plane 0 has cell `j` set when that pit
holds more than `j` seeds, plane 1 is all ones when the observer is to move. The move
counter of OpenSpiel's cap (1,000 moves, never reached in play) is not observed.
`action_mask` is an int8 vector of 14, all zeros for the agent not to move.

**Actions.** The index of the pit to sow, OpenSpiel's encoding and names: 1-6 are
`player_0`'s pits from its left, 8-13 `player_1`'s from its left; 0 and 7 (the stores)
are never legal::

          13  12  11  10   9   8        player_1
    [0]                            [7]  stores: player_1's left, player_0's right
           1   2   3   4   5   6        player_0

**Rewards.** +1 to the player with more seeds (store plus pits) at the end, -1 to the
other, 0 to both at 24-24, 0 on every other step. Through `env()`, an illegal action
ends the game with -1 to its author.

**Variants.** None: OpenSpiel's `mancala` has no parameters.

**Heuristics** (for alpha-beta, `heuristic=`). `store_difference` (the default): own
store minus the opponent's, the Kalah solvers' evaluation. `seeds_in_play`: the store
difference plus half the difference of the seeds on each side. The store difference is
the stronger: at depth 6 it scored 71/1/28 and at depth 9 54/6/40 against
`seeds_in_play` over 100 games (`zerosum match --game mancala "alphabeta(depth=9)"
"alphabeta(depth=9, heuristic=store_difference)" --max-games 100`, 2026-11-29). The
move-ordering hint tries extra turns first, then captures.

**Figures** (2-core machine shared with other jobs, load 10-17, 2026-11-29; each with its
command).

* *Equal to OpenSpiel's `mancala` at every step*: 9,146 steps of 200 random games (legal
  actions, the 14 counts, player to move, terminal flag, returns, action names):
  `python bench/mancala.py --quick`; the tests play 8,849 more (200 games, seed 57).
* *Speed*: random games in the loop a user writes (`current_player`, `legal_actions`,
  `apply(s, int(a))`, `returns`) run 1.39x as many moves a second as the same loop on
  pyspiel in the same process (1.37 M against 0.98 M moves/s; 1.38-1.40x over three runs
  at load 4.5, 2026-11-29): `python bench/mancala.py --strength-games 0`. Issue 57's target
  is 1.5x: OpenSpiel's Kalah is 14 ints and a move costs it about as little as a call costs
  here, and what is left of a step here is mostly the loop itself (drawing the move,
  seeding a generator a game) and numpy's scalar from `legal[i]`, not the rules.
* *Strength*: the default opponent, `alphabeta(time=0.1)` with `store_difference`,
  against OpenSpiel's `MCTSBot` (C++, 1,000 simulations, one random rollout a leaf,
  `uct_c=2`, `solve`), seats alternating from paired 4-ply random openings: 86 wins, 3
  draws and 11 losses in 100 games, score 0.875, 95% Wilson interval [0.80, 0.93] (0.89
  as first, 0.86 as second); 0.08 s a move against the bot's 0.02 s:
  `python bench/strength.py --game mancala --games 100 --workers 1`.

*Perft* (move sequences of each length from the start; an extra turn is a ply of its
own), the same as OpenSpiel's (`tests/games/test_mancala.py` checks them):

| plies | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |
|---|---|---|---|---|---|---|---|---|
| moves | 6 | 35 | 185 | 942 | 4,690 | 23,233 | 114,430 | 563,055 |

**Render modes.** `ansi` and `human` give the text board with the pit numbers to type;
`rgb_array` an image of the board: the pits with their seeds and counts, the stores at
the ends, the pit numbers of the player to move underlined.

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import pit_board
from zerosum.games.mancala import PITS, Mancala

NAME = "mancala_v0"


def draw(game: Mancala, state: np.ndarray) -> np.ndarray:
    """The board as a player sees it from the south: player 1's pits 13..8 on top,
    player 0's pits 1..6 below, player 1's store at the left end and player 0's at the
    right."""
    b = game.board(state)
    north = list(range(2 * PITS + 1, PITS + 1, -1))
    south = list(range(1, PITS + 1))
    to_move = None if game.is_terminal(state) else game.current_player(state)
    return pit_board([b[i] for i in north], [b[i] for i in south], stores=(b[0], b[PITS + 1]),
                     labels=([str(i) for i in north], [str(i) for i in south]), to_move=to_move)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Mancala]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Mancala(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Mancala]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Mancala(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
