"""Go.

| Import             | `from zerosum.envs import go_v0`   |
|--------------------|------------------------------------|
| Actions            | Discrete                           |
| Parallel API       | No                                 |
| Agents             | `agents= ['player_0', 'player_1']` |
| Action shape       | (1,)                               |
| Action values      | Discrete(82)                       |
| Observation shape  | (9, 9, 6)                          |
| Observation values | [0, 1]                             |

(The table is for the default 9x9 board; the shapes follow `board_size`: `board_size**2 + 1`
actions, observation `(board_size, board_size, 6)`.)

The rules are OpenSpiel's `go`, move for move (checked at every step of random games on
9x9, 13x13 and 19x19): black (`player_0`) and white take turns placing a stone or passing;
a group without liberties is captured; no suicide; a ko may not be retaken at once; two
passes in a row end the game, and so does `2 * board_size**2` moves; a move that repeats
an earlier board (a positional superko) ends the game at once as a draw. Scoring is
Tromp-Taylor area scoring: stones plus the empty regions that touch only one colour,
komi (7.5) to white.

**Observation.** A dict: `observation` is an int8 array (board_size, board_size, 6) from
the observer's side, `[row, col]` the point of action `row * board_size + col` (row 0 is
the row named 1, at the bottom): plane 0 the observer's stones, 1 the opponent's, 2 the
ko point (the point the player to move may not take back), 3 all ones when the observer
is to move, 4 all ones when the observer plays black (komi is white's), 5 all ones when
the last move was a pass (a second one ends the game). `action_mask` is an int8 vector of
`board_size**2 + 1`, all zeros for the agent that is not to move.

**Actions.** `row * board_size + col` for a point, `board_size**2` to pass (always
legal). Readable names (the CLI) are Go coordinates, columns `a`-`j` without `i`, rows
from 1 at the bottom (`d4`, `pass`), as OpenSpiel's action strings::

       a  b  c  d  e  f  g  h  j
    9 72 73 74 75 76 77 78 79 80
    ...
    1  0  1  2  3  4  5  6  7  8      pass: 81

**Rewards.** +1 to the player with the higher area score and -1 to the other, 0 for a
draw (a superko, or an even score with an integer komi) and on every other step.
Through `env()`, an illegal action ends the game with -1 to its author.

**Variants.** `board_size` (int 5..19, default 9), `komi` (a multiple of 0.5 from -500 to
500, default 7.5), `handicap` (int 0..9; 2 or more need a board of 16 or more: black's
stones on OpenSpiel's points, white moves first), as OpenSpiel's `go`.

**The engine.** `heuristics`: `area` (the default), the Tromp-Taylor score if the game
ended now, each empty point given to the colour whose stones reach it first within four
steps (a Voronoi split, the simplest influence function), minus komi. The move-ordering
hint tries points next to stones first (captures, ataris, extensions) and the pass last,
unless the opponent has just passed. `default_opponent` (what
`zerosum play go`, tournaments and the strength benchmark use) is `alphabeta(time=0.1)`;
MCTS and the guided search play it too (`mcts(...)`, `alphazero(...)`).

**Figures.** Each with the command that gives it (the 2-core machine, 2026-11-28, load 2-3
from other jobs unless said).

* *Equal to OpenSpiel at every step* (legal actions, player to move, terminal flag,
  returns): 2,000 random games on 9x9, 200 on 13x13 and 40 on 19x19 with no difference,
  `python bench/go.py --oracle-games 9:2000,13:200,19:40`; the tests play their own seeds.
  Perft from the start equals OpenSpiel's (`--perft 5:4,9:3`).
* *Equal to PettingZoo's `go_v5` with `compat="go_v5"`* at every step of random games side by
  side (both agents' 17 planes one by one, masks, rewards, terminations, the agent selected):
  200 games on 9x9 (23,487 positions), 20 on 13x13 (5,073) and 10 on 19x19 (5,534), no
  difference; 172, 17 and 8 of them ended the same on both, the others (28, 3, 2) at
  OpenSpiel's move cap or a superko, where `go_v5` plays on (load 12-18, 2026-11-29):
  `python tests/envs/test_pettingzoo_compat.py --chess 0 --go 9:200,13:20,19:10`.
* *Speed.* `python bench/go.py --oracle-games 9:50 --perft 5:3 --games 200 --lanes 1024`
  (load 1.2, 2026-11-28):
  - random 9x9 games in the loop a user writes, 339 k moves a CPU second against pyspiel's
    184 k in the same process: 1.84x (1.47x before the Game API's C calls reused the
    arrays a loop drops). Issue 48's 5x is out of reach for any Game API called from a
    Python loop: that loop's own floor (four calls into C, the random choice) is about
    2.4 us a move (tic-tac-toe's natural loop, 419 k moves/s: `bench/game_api.py --only
    tictactoe`), and 5x pyspiel's Go asks for 1.1 us;
  - `make_vec("go_v0", 1024, opponent="random")`: 296 k learner steps a CPU second, against
    the target's 200 k.
* *Strength* (9x9, komi 7.5):
  - against OpenSpiel's `MCTSBot` (its C++ `pyspiel.MCTSBot`: 1,000 simulations, one random
    rollout a leaf, `uct_c=2`, `solve`), seats alternating from paired 4-ply random
    openings: W/D/L 27/5/8 in 40 games, score 0.74 (95% Wilson interval 0.58-0.85), 0.10 s
    a move against the bot's 0.24 s (one game at a time, load 2-3): `python
    bench/strength.py --game go --games 40`;
  - against GNU Go 3.8 at level 1 (Debian's `gnugo`): 0 of 10 games by GNU Go's own count
    of the final position (dead stones removed), 3 of 10 under the Tromp-Taylor rules the
    game is scored by (GNU Go passes with dead stones on the board): `python
    bench/go_strength.py --games 10` (load 10-30). An alpha-beta over an influence
    estimate at 0.1 s a move is far below a dedicated Go engine; a trained network behind
    the guided search is the engine Go needs.

**PettingZoo's `go_v5`.** `go_v0.env(compat="go_v5")` (and `raw_env`, `make("go_v0",
compat="go_v5")`) is `go_v5` as a policy sees it: agents `black_0` and `white_0`, the
default board 19x19 (`board_size` still sets another), `observation_space(agent)` and
`action_space(agent)` equal to `go_v5`'s, and its observation, a bool array
(board_size, board_size, 17) indexed like the actions: planes `2k` and `2k + 1` the board
after the move `k` moves ago (k = 0 the last move; empty before the game's first moves),
`2k` the stones of the player who made that move and `2k + 1` the other's, as `go_v5`'s
code keeps them (its page reads "the current player's"); plane 16 all zeros for black and
all ones for white. A policy trained on `go_v5` moves across with no change: create the
env with `compat="go_v5"` and the board it was trained on, and hand it the observation
and the mask as they come (`tests/envs/test_pettingzoo_compat.py` plays random games on
both side by side and compares every plane, the masks, the rewards and the agent
selected at every step). A policy trained on the default `go_v0` does not read these
planes: train it again, or keep the default. The rules stay OpenSpiel's, where `go_v5`
(minigo's) differs only past them: `go_v5` has no cap of `2 * board_size**2` moves and no
superko (such games end here and go on there), gives white the win on an even score
(integer komi only), and after the end lists the pass in the mask of the agent it
selects (here the mask is all zeros once the game is over).

**Version history.** v0: first release; `compat="go_v5"` added in zerosum 0.3.0 (the
default observation is unchanged).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import LINE, canvas, stone, to_array
from zerosum.envs.observers import Observer
from zerosum.games.go import Go
from zerosum.games.kit import Game, Player, State

NAME = "go_v0"
COMPATS = ("go_v5",)
"""What ``compat`` accepts: PettingZoo environments whose observation and agents go_v0 can give."""
GO_V5_AGENTS = ("black_0", "white_0")
"""go_v5's agent names, black's first."""
GO_V5_BOARD = 19
"""go_v5's default board."""


class GoV5Planes(Observer):
    """PettingZoo ``go_v5``'s observation: 16 planes of history, then the colour plane (bool).

    After each move, planes 0 and 1 are the mover's stones and the other player's on the new
    board, and the older pairs move down two planes (eight boards in all, empty before the
    first moves); every agent sees the same history, and plane 16 is all ones for white."""

    dtype = np.dtype(np.bool_)

    def __init__(self) -> None:
        self.history = np.zeros((0, 0, 16), dtype=bool)

    def space(self, game: Game) -> spaces.Box:
        """A bool Box (board_size, board_size, 17), as go_v5 declares it."""
        n = game.observation_shape[0]
        return spaces.Box(0, 1, shape=(n, n, 17), dtype=self.dtype)

    def reset(self, game: Game, state: State) -> None:
        """No history yet: the sixteen planes are empty."""
        n = game.observation_shape[0]
        self.history = np.zeros((n, n, 16), dtype=bool)

    def record(self, game: Game, state: State, mover: Player) -> None:
        """The board after ``mover``'s move, from the mover's side, in front of the older boards."""
        planes = game.observation(state, mover)[..., :2].astype(bool)  # the mover's stones, the other's
        self.history = np.concatenate((planes, self.history[..., :-2]), axis=2)

    def observe(self, game: Game, state: State, player: Player) -> np.ndarray:
        """The history and the colour plane (all ones for white)."""
        colour = np.full((*self.history.shape[:2], 1), player == 1, dtype=bool)
        return np.concatenate((self.history, colour), axis=2)


def _compat(compat: str | None, variant: dict[str, Any]) -> dict[str, Any]:
    """ZerosumEnv's keywords for ``compat``: the observer and the agents (go_v5's board by default)."""
    if compat is None:
        return {}
    if compat not in COMPATS:
        raise ValueError(f"compat={compat!r} is not known: one of {list(COMPATS)} or None (go_v0's own observation)")
    variant.setdefault("board_size", GO_V5_BOARD)
    return {"observer": GoV5Planes(), "agents": GO_V5_AGENTS}


def star_points(n: int) -> list[tuple[int, int]]:
    """The hoshi drawn on a board of ``n`` lines, (row, col) from 0."""
    if n < 7:
        return [(n // 2, n // 2)] if n % 2 else []
    edge = 2 if n < 13 else 3
    far = n - 1 - edge
    points = [(edge, edge), (edge, far), (far, edge), (far, far)]
    if n % 2:
        mid = n // 2
        points.append((mid, mid))
        if n >= 15:
            points += [(edge, mid), (far, mid), (mid, edge), (mid, far)]
    return points


def draw(game: Go, state: np.ndarray, cell: int = 40) -> np.ndarray:
    """The board: lines, star points and stones on the intersections, row 1 at the bottom."""
    n = game.board_size
    pad = cell
    img, pen = canvas((n - 1) * cell + 2 * pad, (n - 1) * cell + 2 * pad)
    width = max(2, cell // 20)
    for i in range(n):
        pen.line((pad, pad + i * cell, pad + (n - 1) * cell, pad + i * cell), fill=LINE, width=width)
        pen.line((pad + i * cell, pad, pad + i * cell, pad + (n - 1) * cell), fill=LINE, width=width)
    dot = max(3, cell // 10)
    for r, c in star_points(n):
        x, y = pad + c * cell, pad + (n - 1 - r) * cell
        pen.ellipse((x - dot, y - dot, x + dot, y + dot), fill=LINE)
    for a in range(n * n):
        who = game.stone(state, a)
        if who >= 0:
            r, c = divmod(a, n)
            stone(pen, pad + c * cell, pad + (n - 1 - r) * cell, cell * 0.46, who)
    return to_array(img)


def raw_env(render_mode: str | None = None, compat: str | None = None, **variant: Any) -> ZerosumEnv[Go]:
    """The environment without safety: an illegal action raises IllegalActionError. ``compat="go_v5"``:
    PettingZoo go_v5's agents, spaces, observation and default board."""
    extra = _compat(compat, variant)
    return ZerosumEnv(Go(**variant), name=NAME, draw=draw, render_mode=render_mode, **extra)


def env(render_mode: str | None = None, compat: str | None = None, **variant: Any) -> ZerosumEnv[Go]:
    """The environment with PettingZoo's safety: an illegal action loses the game. ``compat="go_v5"``:
    PettingZoo go_v5's agents, spaces, observation and default board."""
    extra = _compat(compat, variant)
    return ZerosumEnv(Go(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True, **extra)
