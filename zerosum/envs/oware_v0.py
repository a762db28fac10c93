"""Oware (Awale).

| Import             | `from zerosum.envs import oware_v0`    |
|--------------------|----------------------------------------|
| Actions            | Discrete                               |
| Parallel API       | No                                     |
| Agents             | `agents= ['player_0', 'player_1']`     |
| Action shape       | (1,)                                   |
| Action values      | Discrete(6)                            |
| Observation shape  | (14, 48, 2)                            |
| Observation values | [0, 1]                                 |

(The table is for the default board of 6 houses of 4 seeds; the shapes follow the
variants.)

Each player owns a row of houses. A move sows every seed of one of the mover's houses,
one a house, counterclockwise, skipping the house emptied; a last seed that makes 2 or 3
in the opponent's row captures them, and the houses before it that hold 2 or 3 too,
unless that would take the opponent's whole row (a grand slam captures nothing). A
player must feed an opponent who has no seeds; when it cannot, or a board comes again
since the last capture, each player collects its own row and the game ends. More than
half the seeds wins. `player_0` moves first. Rules, parameters and actions are
OpenSpiel's `oware`, equal to it at every step of random games
(`tests/games/test_oware.py`).

**Observation.** A dict: `observation` is an int8 array (2H + 2, 2HS, 2) for H houses
of S seeds: rows are the observer's houses from its left, the opponent's houses from
their left, the observer's score and the opponent's; plane 0 has cell `j` set when that
row holds more than `j` seeds, plane 1 is all ones when the observer is to move. The
boards seen since the last capture (the repetition rule) and the move count are not
observed. `action_mask` is an int8 vector of H, all zeros for the agent not to move.

**Actions.** A house of the mover's row, 0 to H - 1 from the mover's left, OpenSpiel's
encoding and names (`A`-`F` for `player_0`, `a`-`f` for `player_1`)::

        f  e  d  c  b  a        player_1's row, sown right to left
        A  B  C  D  E  F        player_0's row, sown left to right

An action that is not legal because the opponent has no seeds and the house does not
reach its row is refused with that reason (`raw_env`), or loses (`env()`).

**Rewards.** +1 to the player with more seeds at the end, -1 to the other, 0 to both at
half each; 0 on every other step. Through `env()`, an illegal action ends the game with
-1 to its author.

**Variants.** As OpenSpiel's `oware`: `num_houses_per_player` (int 1..12, default 6) and
`num_seeds_per_house` (int 1..12, default 4). Example:
`oware_v0.env(num_houses_per_player=4, num_seeds_per_house=3)`. OpenSpiel stops with an
error at move 1,001; here a game still going after 1,000 moves ends as a repetition does.

**Heuristics** (for alpha-beta, `heuristic=`). `store_difference`: own score minus the
opponent's. `seeds_in_play` (the default): the score difference plus a quarter of the
difference of the seeds in each row. `seeds_in_play` is the stronger: at 0.1 s a move it
scored 13/2/5 against `store_difference` over 20 games (`zerosum match --game oware
"alphabeta(time=0.1)" "alphabeta(time=0.1, heuristic=store_difference)" --max-games 20`,
2026-11-29, Elo +147, 95% interval +5 to +332). The move-ordering hint tries captures
first.

**Figures** (2-core machine shared with other jobs, load 10-17, 2026-11-29; each with its
command).

* *Equal to OpenSpiel's `oware` at every step*: 21,062 steps of 250 random games on the
  default board and on 3x2, 2x1, 8x3 and 4x7 (houses x seeds; legal actions, OpenSpiel's
  text of the board, player to move, terminal flag, returns, action names):
  `python bench/oware.py --quick`; the tests play 25,104 more (580 games on six boards,
  seed 58), with grand slams, starving opponents and repetitions among them.
* *Speed*: random games in the loop a user writes (`current_player`, `legal_actions`,
  `apply(s, int(a))`, `returns`) run 1.50x as many moves a second as the same loop on
  pyspiel in the same process (1.42 M against 0.95 M moves/s; 1.48-1.51x over three runs
  at load 4.5, 2026-11-29): `python bench/oware.py --strength-games 0` (issue 57's target:
  1.5x).
* *Strength*: the default opponent, `alphabeta(time=0.1)` with `seeds_in_play`, against
  OpenSpiel's `MCTSBot` (C++, 1,000 simulations, one random rollout a leaf, `uct_c=2`,
  `solve`), seats alternating from paired 4-ply random openings: 99 wins and 1 draw in
  100 games, score 0.995, 95% Wilson interval [0.95, 1.00]; 0.08 s a move against the
  bot's 0.15 s: `python bench/strength.py --game oware --games 100 --workers 1`.

*Perft* (move sequences of each length from the start), the same as OpenSpiel's
(`tests/games/test_oware.py` checks them):

| board | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 |
|---|---|---|---|---|---|---|---|---|---|---|
| 6x4 | 6 | 36 | 190 | 1,014 | 5,219 | 27,332 | 139,157 | | | |
| 3x2 | 3 | 6 | 14 | 32 | 66 | 152 | 316 | 680 | 1,417 | |
| 2x1 | 2 | 3 | 4 | 4 | 4 | 6 | 7 | 6 | 7 | 7 |

**Render modes.** `ansi` and `human` give OpenSpiel's text of the board (scores, rows and
house letters, `[PLAYING]` at the player to move); `rgb_array` an image of the two rows
of houses with their seeds and counts, each player's captured seeds at its right end
(player_1's on the left as drawn), the letters of the player to move underlined.

**Version history.** v0: first release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import pit_board
from zerosum.games.oware import Oware

NAME = "oware_v0"


def draw(game: Oware, state: np.ndarray) -> np.ndarray:
    """Player 1's row on top (its houses right to left as player 0 sees them), player 0's
    below, each player's captured seeds at the end of the board on its right."""
    h = game.houses
    seeds = game.seeds(state)
    score0, score1 = game.scores(state)
    to_move = None if game.is_terminal(state) else game.current_player(state)
    top = list(reversed(range(h, 2 * h)))
    return pit_board([seeds[i] for i in top], seeds[:h], stores=(score1, score0),
                     labels=([chr(ord("a") + i - h) for i in top], [chr(ord("A") + i) for i in range(h)]),
                     to_move=to_move)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Oware]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Oware(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Oware]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Oware(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
