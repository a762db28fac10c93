"""Chess.

| Import             | `from zerosum.envs import chess_v0` |
|--------------------|-------------------------------------|
| Actions            | Discrete                            |
| Parallel API       | No                                  |
| Agents             | `agents= ['player_0', 'player_1']`  |
| Action shape       | (1,)                                |
| Action values      | Discrete(4672)                      |
| Observation shape  | (8, 8, 111)                         |
| Observation values | [0, 1]                              |

FIDE chess, `player_0` white and moving first. Threefold repetition, the fifty-move rule
and insufficient material end the game at once as a draw, as in PettingZoo's `chess_v6`
(python-chess's `can_claim_draw()`: a repetition or fifty moves that one move would
complete ends the game too); `draws="arise"` gives OpenSpiel's rule instead. The actions,
the observation and the rewards are `chess_v6`'s, and the tests compare both at every step
of random games, so a policy trained on one plays on the other.

**Observation.** `observation` is a bool array (8, 8, 111), the space and the values of
PettingZoo's `chess_v6` (`observation_space(agent)` equals `chess_v6`'s), the encoding of
PettingZoo's `chess_v6` (`pettingzoo/classic/chess/chess.py` and
`chess_utils.py`: AlphaZero's planes with Leela Chess Zero's conventions). Row 0 is the
far rank as the observer sees it: rank 8 for white, rank 1 for black (black's board is
turned upside down, files stay); column 0 is file a.

| planes | meaning |
|---|---|
| 0, 1 | all ones while the observer may still castle king side (0) / queen side (1) |
| 2, 3 | the same for the opponent (king side, queen side) |
| 4 | all ones when the observer is black |
| 5 | the halfmove clock: the one square `clock // 2` set (a1 = 0 ... h8 = 63, as drawn) |
| 6 | all ones (the board's edges for padded convolutions) |
| 7 + 13 k to 19 + 13 k | the board `k` moves ago, k = 0 (now) to 7: 13 planes, below |

Each board's 13 planes: the observer's pawns, knights, bishops, rooks, queens and king,
then the opponent's six, and a plane of ones when that position had occurred before
(since the last capture or pawn move: a repetition). Planes 0-3 follow chess_v6's code
(king side first), which its page lists the other way round.

Two conventions come from `chess_v6` as it is: a pawn that has just made a double step is
drawn on its own first rank (Leela Chess Zero's en-passant marker), and the history holds
the positions after each move, so the starting position is never in it: the first
observation of a game has empty board planes, and `k` moves in only `k` boards are drawn.
A state read from FEN (`game.from_fen`) shows its own position as board 0.

`action_mask` is an int8 vector of 4,672 with the legal actions; all zeros for the agent
that is not to move, and for both once the game is over (`chess_v6` still lists the moves
of the agent it selects after a draw). When the game ends the turn passes, as in
`chess_v6`: after a mate the loser is selected first, and `last()` hands it its -1.
`tests/envs/test_pettingzoo_compat.py` plays random games on both envs side by side and
compares both agents' observations plane by plane, the masks, the rewards and the agent
selected at every step, the last included, so a policy trained on one plays on the other
with no change.

**Actions.** `(file * 8 + rank) * 73 + plane`, the from-square as the mover sees it
(black's ranks mirrored); planes 0-55 queen moves (distance and one of 8 directions),
56-63 knight jumps, 64-72 under-promotions; a pawn reaching the last rank by a queen
move becomes a queen; castling is the king's two-square move. See `zerosum.games.chess`
for the full table; `game.action_to_string` gives UCI, `game.move_name` SAN (what
`zerosum play` and `zerosum replay` show), and `game.string_to_action` reads UCI (also
`e2-e4`, `E2E4`) or SAN.

**Rewards.** +1 to the winner and -1 to the loser by checkmate, 0 for a draw and on
every other step. Through `env()` an illegal action ends the game with -1 to its author.

**Variants.** `draws`: `"claim"` (default, `chess_v6`) or `"arise"` (OpenSpiel's
`chess`: the third occurrence, the hundredth halfmove).

**The engine.** `heuristics`: `pst` (the default), material (pawn 100, knight 320,
bishop 330, rook 500, queen 900) plus the piece-square tables of Tomasz Michniewski's
"simplified evaluation function"; `material`, material alone. Moves are ordered captures
first by most valuable victim, least valuable attacker (MVV-LVA), then promotions; the
quiescence search follows captures and promotions past the horizon. `default_opponent`
(`zerosum play chess`, tournaments, the strength benchmarks) is `alphabeta(time=0.1)`.

**Figures.** Each with the command that gives it (the 2-core machine, 2026-11-28, load 2-3
from other jobs unless said).

* *Perft* equal to the published counts: from the start 20, 400, 8,902, 197,281,
  4,865,609 and 119,060,324 (depth 6), from "Kiwipete" 48, 2,039, 97,862, 4,085,603 and
  193,690,690 (depth 5); the other standard positions are in the tests. 82 M leaves a
  CPU second from the start and 140 M from Kiwipete (the last ply counted in bulk):
  `python bench/chess_speed.py` (`--full` for depths 6 and 5).
* *Equal to its oracles at every step:* `python bench/chess_oracles.py --games 100`:
  python-chess (legal moves, FEN, SAN both ways, result; 100 games, 21,528 positions),
  OpenSpiel's `chess` with `draws="arise"` (24,564 positions) and PettingZoo's `chess_v6`
  (both players' observations and masks, rewards, the end; 31,202 positions), half the
  games from endgames where random play meets every draw rule and mates.
* *Side by side with `chess_v6`*, random games from the start on both envs, every step
  compared (both agents' observations plane by plane with their dtype, masks, rewards,
  terminations, the agent selected, and the order the agents step out at the end): 100
  games, 20 mates and 80 draws, 33,093 positions, no difference (2026-11-29):
  `python tests/envs/test_pettingzoo_compat.py --chess 100 --go ""`.
* *Speed*, `python bench/chess_speed.py` (load 1.2, 2026-11-28): the loop a user writes
  plays 268 k random moves a CPU second with draws claimed (python-chess's rule), 197x
  python-chess's loop (1.4 k), and 311 k with draws as they arise, 4.15x pyspiel's (75 k);
  `make_vec("chess_v0", 256, opponent="random")` makes 44-50 k learner steps a CPU second,
  against issue 48's 100 k (missed), and 67 k with `obs_format="dict"` (idle machine,
  2026-11-28). Where a lane's step goes (cProfile, and each part timed alone in a compiled
  loop): the rules take about 7 us (two move generations, 1.2 us each; two status checks,
  0.4 us; two moves, 0.5 us; the 8x8x111 observation with its eight positions of history,
  1.7 us). The rest is memory. The default flat observation is 7,104 planes and a 4,672-action
  mask as float32, 47 KB a lane: converting and writing it takes about 6 us, and `step()`
  then copies it whole, so that the arrays it returned earlier stay as they were, 7.5 us
  more (12 MB a step at 256 lanes, at this machine's 6 GB/s). 100 k steps a second would need
  14 GB/s for the observation alone, more than one core moves here: out of reach for the
  flat format. The dict format's int8 planes copy in 0.3 us and its step takes 12 us in the
  compiled kernel, of which the rules are 7 us. Go's flat observation is 0.6 KB a lane.
* *Strength*, the default opponent:
  - against Stockfish 15.1 (Debian's `stockfish`), in both seats from 2-ply random
    openings, 40 games each: 0.925 (95% interval 0.86-0.99) against its lowest skill
    level (`Skill Level 0`, 100 ms a move) and 0.54 (0.42-0.66) against `go depth 1` at
    full skill: `python bench/chess_stockfish.py --games 40` (load 10-30);
  - against OpenSpiel's `MCTSBot` (its C++ `pyspiel.MCTSBot`: 1,000 simulations, one random
    rollout a leaf, `uct_c=2`, `solve`), under OpenSpiel's draw rule, seats alternating from
    paired 4-ply random openings: 12 wins in 12 games (95% Wilson interval 0.76-1.00), each
    by mate, 28 plies after the opening on average, 0.08 s a move against the bot's 4.1 s; 12 games because the bot's
    random rollouts to a chess game's end take 4 s a move here: `python bench/strength.py
    --game chess --games 12`.

**Version history.** v0: first release. In zerosum 0.3.0 (the same version: the values
did not change) the observations are bool rather than int8, so that the space is `chess_v6`'s, and
the turn passes at the end of the game as in `chess_v6`.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from PIL import ImageFont

from zerosum.envs.aec import ZerosumEnv
from zerosum.envs.drawing import LINE, canvas, to_array
from zerosum.envs.observers import Planes
from zerosum.games.chess import Chess

NAME = "chess_v0"
_LIGHT, _DARK = (240, 217, 181), (181, 136, 99)
_GLYPHS = {"K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘", "P": "♙",
           "k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟"}
_FONT_PATHS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf")


def _font(size: int) -> tuple[Any, bool]:
    """A font with the Unicode chess glyphs where one is installed (True), else Pillow's own
    (False: the pieces are drawn as letters on discs)."""
    for path in _FONT_PATHS:
        if os.path.exists(path):
            return ImageFont.truetype(path, size), True
    return ImageFont.load_default(size=size), False


def draw(game: Chess, state: np.ndarray, cell: int = 48) -> np.ndarray:
    """The board, white at the bottom, light and dark squares, the pieces."""
    img, pen = canvas(8 * cell, 8 * cell)
    font, glyphs = _font(int(cell * 0.8))
    letters = font if glyphs else _font(cell // 2)[0]
    for i, row in enumerate(game.to_fen(state).split()[0].split("/")):
        col = 0
        for ch in row:
            for _ in range(int(ch) if ch.isdigit() else 1):
                pen.rectangle((col * cell, i * cell, (col + 1) * cell - 1, (i + 1) * cell - 1),
                              fill=_LIGHT if (i + col) % 2 == 0 else _DARK)
                col += 1
            if ch.isdigit():
                continue
            cx, cy = (col - 0.5) * cell, (i + 0.5) * cell
            if glyphs:
                pen.text((cx, cy), _GLYPHS[ch], fill=(0, 0, 0), font=font, anchor="mm")
                continue
            r, white = cell * 0.38, ch.isupper()
            pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(245, 245, 245) if white else (30, 30, 30),
                        outline=LINE, width=2)
            pen.text((cx, cy), ch.upper(), fill=(30, 30, 30) if white else (245, 245, 245), font=letters,
                     anchor="mm")
    return to_array(img)


def raw_env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Chess]:
    """The environment without safety: an illegal action raises IllegalActionError."""
    return ZerosumEnv(Chess(**variant), name=NAME, draw=draw, render_mode=render_mode, observer=Planes(bool))


def env(render_mode: str | None = None, **variant: Any) -> ZerosumEnv[Chess]:
    """The environment with PettingZoo's safety: an illegal action loses the game."""
    return ZerosumEnv(Chess(**variant), name=NAME, draw=draw, render_mode=render_mode, safe=True,
                      observer=Planes(bool))
