"""Havannah.

| Import             | `from zerosum.envs import havannah_v0` |
|--------------------|----------------------------------------|
| Actions            | Discrete                               |
| Parallel API       | No                                     |
| Agents             | `agents= ['player_0', 'player_1']`     |
| Action shape       | (1,)                                   |
| Action values      | Discrete(225)                          |
| Observation shape  | (15, 15, 4)                            |
| Observation values | [0, 1]                                 |

(The table is for the default base 8, a 15 x 15 square; the shapes follow `board_size`.)

Two players take turns putting a stone on an empty cell of a hexagon of hexagons. A
player wins by a chain of its stones that makes a *ring* (a loop around one or more cells,
of any colour or empty), a *bridge* (two of the six corners) or a *fork* (three of the six
edges; corners belong to no edge). A full board without one is a draw. `player_0` (`x`)
moves first. Rules, parameters and actions are OpenSpiel's `havannah`, rings as OpenSpiel
finds them, equal to it at every step of random games (`tests/games/test_havannah.py`).

**Observation.** A dict: `observation` is an int8 array (D, D, 4), D = 2 * base - 1, row y
and column x of OpenSpiel's square (the hexagon is the cells with |x - y| < base): plane 0
the observer's stones, plane 1 the opponent's, plane 2 the empty cells of the board, plane 3
ones on the board when the observer is to move. The square's two cut-off corners are zeros in
every plane. Whether the swap may be taken follows from the board (one stone, the second
player to move). `action_mask` is an int8 vector of D * D, all zeros for the agent not to move.

**Actions.** `action = x + y * D` (OpenSpiel's encoding on its D x D square; the cut-off
corners are never legal); readable names are the column letter and the row number, as
OpenSpiel names them (`a1` = 0). With `swap=True`, the second player's first move may be the
first stone's cell (also typed `swap`): the stone becomes its own. Base 3::

          a  b  c
      1   0  1  2  d            (x, y) touches (x-1, y-1), (x, y-1), (x+1, y),
     2  5  6  7  8  e                          (x+1, y+1), (x, y+1), (x-1, y)
    3 10 11 12 13 14
     4 16 17 18 19              corners a1, c1, e3, e5, c5, a3
      5 22 23 24

**Rewards.** +1 to the player who makes a ring, bridge or fork and -1 to the other; 0 to both
for a full board, and 0 on every other step. Through `env()`, an illegal action ends the
game with -1 to its author.

**Variants.** As OpenSpiel's `havannah`: `board_size` (the base, int 2..13, default 8) and
`swap` (default False). Example: `havannah_v0.env(board_size=4, swap=True)`.

**Heuristics** (for alpha-beta, `heuristic=`). Each player's *potential* is the fewest
cells it still has to fill for a fork or a bridge: over the empty cells x, the three smallest
of x's distances to the six edges, summed, minus 2, or the two smallest corner distances
minus 1, on the graph where its own stones cost nothing (a chain is one node) and the
opponent's are walls (Hex's connection distances, shared); a position scores the opponent's
potential minus the player's, 100 a cell. Rings are left to the search. `distance`:
shortest paths. `two_distance` (the default): Queenbee's two-distance (van Rijswijck,
2000), where a cell is one more than its *second*-best neighbour; ties broken by how many
cells reach the potential. The move-ordering hint tries cells next to stones, then the
centre.

**Figures** (2-core machine shared with other jobs, load 9-14, 2026-11-29; each with its command).

* *Equal to OpenSpiel's `havannah` at every step*: 43,784 steps of 1,000 random games on base
  8, 3, 4 with the swap, 5 and 2 with the swap (legal actions, board, player to move, terminal
  flag, returns, action names; rings, bridges, forks and draws as OpenSpiel finds them), and
  perft: `python bench/havannah.py --games 200 --strength-games 0`.
* *Speed*: random games in the loop a user writes (`legal = game.legal_actions(s); s =
  game.apply(s, int(legal[i]))`, with `current_player` and `returns`) run 1.54x as many moves a
  second as the same loop on pyspiel in the same process (1.23 M against 0.80 M moves/s, base 8,
  load 7; 1.55-1.56x in quick runs; issue 57's target is 1.5x): the same command; 1.61x in
  `python bench/game_api.py --only havannah --games 100`.
* *The default opponent*, `alphabeta(time=0.1)` (with `two_distance`), against OpenSpiel's
  `MCTSBot` (C++, 1,000 simulations, one random rollout a leaf, `uct_c=2`, `solve`), seats
  alternating from paired 4-ply random openings on the default board: 97 wins and 3 losses in
  100 games (48 of 50 as first player, 49 of 50 as second), score 0.97, 95% Wilson interval
  [0.915, 0.99]; 0.29 s a move against the bot's 0.25 s (the time budget overruns at this
  load): `python bench/strength.py --game havannah --games 100 --workers 1 --log strength_havannah.jsonl`.
* *The default heuristic*: `two_distance` won 17 of 20 games against `distance` at depth 2 on
  base 5, 10 in each seat: `zerosum match --game havannah "alphabeta(depth=2)" "alphabeta(depth=2,
  heuristic=distance)" --variant board_size=5 --max-games 20`.

*Perft* (move sequences of each length from the start), the same as OpenSpiel's
(`tests/games/test_havannah.py` checks them):

| base | 1 | 2 | 3 | 4 | 5 | 6 | 7 |
|---|---|---|---|---|---|---|---|
| 2 | 7 | 42 | 210 | 600 | 1,296 | 288 | 72 |
| 2, swap | 7 | 49 | 252 | 810 | | | |
| 3 | 19 | 342 | 5,814 | 93,024 | | | |
| 3, swap | 19 | 361 | 6,156 | | | | |
| 8 | 169 | 28,392 | | | | | |

**Render modes.** `ansi` and `human` give OpenSpiel's text hexagon with coordinates;
`rgb_array` an image of hexagons with the board's outline and its corners marked.

**Version history.** v0: first release.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.y_v0 import hexagon_board
from zerosum.games.havannah import Havannah

NAME = "havannah_v0"


def draw(game: Havannah, state: np.ndarray, radius: int = 16) -> np.ndarray:
    """The hexagon of hexagons as OpenSpiel draws it (row 1 at the top, each row of the upper
    half half a cell left of the one below), its outline through the six corners."""
    b, d = game.base, game.diameter
    rows = game.cells(state)
    cells = [(x - y, y, rows[y][x - max(0, y - b + 1)]) for y in range(d) for x in range(max(0, y - b + 1),
                                                                                          min(d, y + b))]

    def outline(at: Callable[[float, float], tuple[float, float]]) -> list[list[float]]:
        m = b - 1
        cx, cy = at(0, m)
        scale = 1 + 0.75 / max(m, 1)
        corners = [at(u, v) for u, v in ((0, 0), (m, 0), (m, m), (0, 2 * m), (-m, 2 * m), (-m, m))]
        ring = [(cx + (x - cx) * scale, cy + (y - cy) * scale) for x, y in corners]
        return [[c for xy in (*ring, ring[0]) for c in xy]]

    return hexagon_board(cells, radius, outline)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Havannah]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Havannah(**variant), name=NAME, draw=draw, render_mode=render_mode)


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Havannah]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Havannah(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True)
