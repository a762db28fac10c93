"""Building a game's rated ladder: rungs of fixed cost, neighbours playing, a Bradley-Terry fit.

``zerosum ladder build GAME`` runs :func:`build_ladder`. The rungs are agents of fixed cost
(:func:`default_rungs`: ``random``, ``mcts`` at fixed simulations, ``alphabeta`` at fixed
depths; a game may declare its own ``ladder_rungs``), listed weakest first. Each rung plays
its ``reach`` nearest neighbours on each side (2 by default), ``games`` games a pair: seats
alternating, games 2j and 2j+1 from the same opening of ``opening_plies`` random plies, every
game seeded from (seed, pair, game). With ``max_games`` above ``games``, a pair whose games are
cheaper plays more once every pair has played ``games`` (:func:`allocate_games`): the games of the
costly top rungs set the build's time, and more games on the cheap pairs below them narrow every
interval above at little cost. The games go to a tournament store (SQLite, one
committed transaction a game), so a build that is stopped resumes where it stopped, and a build
grows, replaying nothing, by more games a pair or by rungs added to its list, on top or between
two rungs, and its list may be put in another order (:func:`open_stages`); the backends are the
tournaments' (local processes, or Ray).

The fit is Bradley-Terry by maximum likelihood with ``random`` held at 0, one virtual draw
a pair (:func:`zerosum.evaluation.ratings.fit_fixed`), and 95% intervals as percentiles of
fits on resamples that keep the design: each pair of rungs keeps its number of games, and the
two games of one opening (seats swapped) are drawn together.
"""

from __future__ import annotations

import datetime
import platform
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from zerosum import __version__
from zerosum.agents.checkpoints import jsonable_variant
from zerosum.agents.engines import EngineNotFound
from zerosum.evaluation.backends import make_backend
from zerosum.evaluation.match import random_opening
from zerosum.evaluation.ratings import bootstrap_fixed
from zerosum.evaluation.scale import Ladder, LadderError, PairResult, Rung, current_env, spec_family
from zerosum.evaluation.stats import search_cost
from zerosum.evaluation.store import ConfigMismatchError, GameTask, Store
from zerosum.evaluation.tournament import game_seed
from zerosum.games.kit import Game
from zerosum.games.kit.tiers import for_job, job_note

VIRTUAL_DRAWS = 1.0
"""Drawn games added to every pair that played (see :func:`zerosum.evaluation.ratings.fit_fixed`)."""


def _one_ply_noisy(*epsilons: str) -> tuple[str, ...]:
    """One-ply search playing each of these shares of random moves, in turn (rungs between MCTS and search)."""
    return tuple(f"noisy(base=alphabeta(depth=1), epsilon={e})" for e in epsilons)


_CHEAP_MCTS = ("random", "mcts(sims=4)", "mcts(sims=16)", "mcts(sims=64)")
_SEARCHES = ("alphabeta(depth=1)", "alphabeta(depth=2)", "alphabeta(nodes=250)", "alphabeta(nodes=1000)",
             "alphabeta(nodes=4000)", "alphabeta(nodes=16000)", "alphabeta(nodes=64000)")
GENERIC_RUNGS = (*_CHEAP_MCTS, *_one_ply_noisy("0.5", "0.25"), *_SEARCHES)
"""The rungs of a game that declares none, weakest first: node budgets cost the same on every board size,
and each fourfold budget is roughly one more ply. A one-ply search playing a share of random moves
(``noisy``) bridges the gap between cheap MCTS and the searches, which is wide on most games."""

_FIRST_GENERIC = tuple(r for r in GENERIC_RUNGS if r not in ("alphabeta(depth=2)", "alphabeta(nodes=250)"))

RUNGS: dict[str, tuple[str, ...]] = {
    "tictactoe": ("random", "mcts(sims=4)", "mcts(sims=8)", "mcts(sims=16)", "mcts(sims=32)", "alphabeta(depth=1)",
                  "alphabeta(depth=2)", "alphabeta(depth=3)", "alphabeta(depth=9)"),
    # alphabeta(depth=1) already plays Nim perfectly (the nim-sum heuristic is exact): the rungs between
    # random and perfect play are perfect play with a share of random moves, and MCTS where it falls
    # among them (a first list with wider gaps fitted worse: calibration 0.060, now 0.030)
    "nim": ("random", "noisy(base=perfect_nim, epsilon=0.8)", "mcts(sims=4)", "noisy(base=perfect_nim, epsilon=0.6)",
            "noisy(base=perfect_nim, epsilon=0.45)", "mcts(sims=16)", "noisy(base=perfect_nim, epsilon=0.3)",
            "mcts(sims=64)", "noisy(base=perfect_nim, epsilon=0.2)", "noisy(base=perfect_nim, epsilon=0.1)",
            "noisy(base=perfect_nim, epsilon=0.05)", "perfect_nim"),
    # Connect Four's 0.1 s default, on its own compiled copy, searches ~430,000 nodes a move: the
    # depth rungs end at 9 (31,000 nodes), then a node budget; MCTS at 8 and 32 simulations and one-ply search
    # at 12.5% random moves bridge links that scored 0.15, 0.09 and 0.13 at 400 games a pair
    "connect_four": ("random", "mcts(sims=4)", "mcts(sims=8)", "mcts(sims=16)", "mcts(sims=32)", "mcts(sims=64)",
                     "noisy(base=alphabeta(depth=1), epsilon=0.5)", "noisy(base=alphabeta(depth=1), epsilon=0.25)",
                     "noisy(base=alphabeta(depth=1), epsilon=0.125)", "alphabeta(depth=1)", "alphabeta(depth=2)",
                     "alphabeta(depth=4)", "alphabeta(depth=6)", "alphabeta(depth=7)", "alphabeta(depth=9)",
                     "alphabeta(nodes=256000)"),
    # outside engines are rungs where installed (Debian's stockfish and gnugo); a build without them says so.
    # Chess's rungs are in the order a first build rated them (Stockfish at skill 0 sits between 1,000 and
    # 4,000 nodes of alpha-beta, at skill 5 between 16,000 and 64,000), with one-ply searches playing random
    # moves between random and depth 1 (which won 100 of 100 against random and MCTS) and 3,000 nodes of
    # Stockfish between its 1,000 and 10,000 (0.99 apart); MCTS at 16 simulations, rated level with random,
    # stays, so that the first build's store grows into this list. That list's build had one-ply search
    # scoring 0.13-0.14 between shares of random moves a quarter apart, and Stockfish at 1,000 nodes 0.07
    # against 3,000, 3,000 0.12 against 10,000: eighths, and 1,700 and 5,500 nodes, bridge them. That list
    # (21 rungs, 100 games a pair) reached +-119; without 1,000 and 16,000 nodes (each within ~260 Elo of
    # the rungs on either side) and at 180 games a pair, up to 2,880 for the cheaper pairs, it is +-67 in
    # 42 minutes on 2 cores. One-ply search at 62.5% random moves, left out at first, came back when 75%
    # scored 0.13 against 50% over 2,790 games
    "chess": ("random", "mcts(sims=16)", *_one_ply_noisy("0.875", "0.75", "0.625", "0.5", "0.375", "0.25", "0.125"),
              "alphabeta(depth=1)", "stockfish(nodes=1000, skill=0)", "alphabeta(nodes=4000)",
              "stockfish(nodes=1000, skill=5)", "alphabeta(nodes=64000)",
              "stockfish(nodes=1000)", "stockfish(nodes=1700)", "stockfish(nodes=3000)", "stockfish(nodes=5500)",
              "stockfish(nodes=10000)"),
    # MCTS at 64 simulations lost 6 of 6 to one-ply alpha-beta (a probe of 6 games a pair): the noisy
    # one-ply searches bridge them; 16,000 nodes scored 0.58 against GNU Go level 0, which scored 0.17
    # against level 5. At 100 games a pair MCTS at 16 simulations scored 0.13 against 64, one-ply search at
    # 50% random moves 0.16 against 25%, and one ply 0.10 against 4,000 nodes: MCTS at 32 (0.87 against 16,
    # 0.15 against 64 in probes of 30 games, 2026-11-30) and 48 (0.62 against 32, 0.43 against 64), one ply
    # at 37.5% (0.57 and 0.33 against its neighbours) and two-ply search (0.75 against one ply, 0.23 against
    # 4,000 nodes) bridge them. That list's build rated MCTS at 64 simulations 0.12 against one ply at 50%:
    # 75% (0.42 against MCTS at 64, 0.23 against 50% in probes of 30 games) and 62.5% bridge them, and
    # 1,000 nodes bridges two-ply search and 4,000 nodes (0.17 apart)
    # That list met +-75 (+-72) in 9,739 s of play. With MCTS at 48 and 64 simulations, one-ply search at
    # 50% random moves, 4,000 and 16,000 nodes left out (each within about 240 Elo of the rungs on either
    # side) the chain is 12 links, not 17: +-66 in 30 minutes on 2 cores. GNU Go then rates ~200 lower
    # (level 10: 1,361, was 1,544): 1,000 nodes scored 0.42 against level 0, where the chain through 4,000
    # and 16,000 nodes predicted 0.20; alpha-beta gains more Elo a doubling against alpha-beta than
    # against GNU Go, and the shorter chain rates GNU Go against a search it plays directly
    "go": ("random", "mcts(sims=16)", "mcts(sims=32)", *_one_ply_noisy("0.75", "0.625", "0.375", "0.25"),
           "alphabeta(depth=1)", "alphabeta(depth=2)", "alphabeta(nodes=1000)", "gnugo(level=0)",
           "gnugo(level=5)", "gnugo(level=10)"),
    # Mancala's 0.1 s default (~210,000 nodes a move) placed above 64,000: one rung more. Its first
    # list (the generic one before two-ply search and 250 nodes joined it) left a 560-Elo link from
    # one ply to 1,000 nodes, which kept every rung above it at +-80 even at 400 games a pair. Its
    # second build rated MCTS at 64 simulations (558) above one-ply search (442) and MCTS at 16
    # (317) above one-ply search at 25% random moves (310): the list in the order of those ratings
    "mancala": ("random", "mcts(sims=4)", *_one_ply_noisy("0.5", "0.25"), "mcts(sims=16)", "alphabeta(depth=1)",
                "mcts(sims=64)", *_SEARCHES[1:], "alphabeta(nodes=256000)"),
    # Pentago: the generic list before depth 2 and 250 nodes joined it, then higher tops, because its
    # search runs ~1.2M nodes a second (0.1 s agents search ~500k nodes a move): up to 1M nodes
    "pentago": (*_FIRST_GENERIC, "alphabeta(nodes=256000)", "alphabeta(nodes=1024000)"),
    # Halma is a race, and a race is steep: one-ply search playing 5% random moves scored 0.2 against
    # none, 10% against 5% 0.1 (probes of 8-10 games a pair). Random Halma never finishes (600-ply
    # draws) and MCTS's random rollouts run 600 plies. So the rungs are one-ply searches in small
    # steps of random moves, then deeper searches bridged by shares of random moves, then node
    # budgets to 128,000, past the 0.1 s default's ~95,000-127,000 nodes a move. A 32-rung build
    # (steps of 5 points of random moves or less, every doubling of nodes) took 9,406 s of play for
    # +-178; these 22 (a rung left out where the rungs either side of it were within ~265 Elo) take
    # ~5,800 for +-150. The chain is ~3,900 Elo long, its every link a 100-200-game pair's worth of
    # error, and the top links cost 12-15 s a game (190 plies): +-75 needs ~20,000 s of play
    "halma": ("random", *_one_ply_noisy("0.65", "0.6", "0.55", "0.5", "0.45", "0.4", "0.35", "0.3", "0.25", "0.2",
                                        "0.15", "0.1", "0.05"),
              "alphabeta(depth=1)", "noisy(base=alphabeta(depth=2), epsilon=0.1)",
              "noisy(base=alphabeta(nodes=4000), epsilon=0.1)", "noisy(base=alphabeta(nodes=4000), epsilon=0.06)",
              "alphabeta(depth=2)", "alphabeta(nodes=8000)", "alphabeta(nodes=32000)", "alphabeta(nodes=128000)"),
    # Clobber's first build (the generic list) rated one-ply search and its noisy copies at random's
    # level (the mobility heuristic misleads it at one ply) and topped at 64,000 nodes, under the
    # 0.1 s default MCTS (~20,000 simulations a move, 0.02 s for 4,000): the searches in the order
    # they were rated, then MCTS at the default's c up to 64,000 simulations
    "clobber": ("random", "mcts(sims=4)", "alphabeta(depth=2)", "alphabeta(nodes=250)", "mcts(sims=16)",
                "alphabeta(nodes=1000)", "mcts(sims=64)", "alphabeta(nodes=4000)", "alphabeta(nodes=16000)",
                "alphabeta(nodes=64000)", "mcts(sims=1000, c=0.7)", "mcts(sims=4000, c=0.7)",
                "mcts(sims=16000, c=0.7)", "mcts(sims=64000, c=0.7)"),
    # the 0.1 s defaults of Breakthrough, Oware, Othello and Lines of Action search ~205,000,
    # ~148,000, ~192,000 and ~88,000 nodes a move and placed above the generic top (64,000): their
    # lists climb one rung more
    # Breakthrough at 500 games a pair still had one-ply search at 50% random moves scoring 0.14
    # against 25%, and 25% 0.08 against none: 37.5% and 12.5% bridge them
    "breakthrough": (*_CHEAP_MCTS, *_one_ply_noisy("0.5", "0.375", "0.25", "0.125"), *_SEARCHES,
                     "alphabeta(nodes=256000)"),
    # Checkers' 0.1 s default searches ~203,000 nodes a move and placed above 64,000: one rung more.
    # Its build on that list rated one-ply search at 50% random moves (265) under MCTS at 16
    # simulations (346) and MCTS at 64 (815) above one-ply search at 25% (518), where MCTS at 64 scored
    # 0.97 against 50%: the list in the order of those ratings, 12.5% bridging 25% and MCTS at 64
    # A rung's interval adds up the links below it, and a build's time is mostly its top pairs: with
    # one-ply search at 25% random moves, MCTS at 64 and 64,000 nodes left out (each rated within about
    # 240 Elo of the rungs on either side) the chain is 11 links, not 14, and the top pair 16,000 against
    # 256,000 nodes, not 64,000 against 256,000: +-59 in 29 minutes on 2 cores (was +-59 in 7,234 s of play)
    "checkers": ("random", "mcts(sims=4)", *_one_ply_noisy("0.5"), "mcts(sims=16)", *_one_ply_noisy("0.125"),
                 *_SEARCHES[:-1], "alphabeta(nodes=256000)"),
    # Lines of Action's MCTS at 64 simulations scored 0.07 against one-ply search at 50% random moves:
    # 75% bridges them. At 450 games a pair one-ply search scored 0.16 against two-ply, and 250 nodes
    # 0.18 against 1,000: two-ply search at 10% random moves (0.79 against one ply, 0.24 against two in
    # a probe of 70 games, 2026-11-30) and 500 nodes bridge them
    # That list met +-75 (+-66) in 9,338 s of play. With MCTS at 64 simulations, 250 and 500 nodes left out
    # (each within about 240 Elo of the rungs on either side) the chain is 13 links, not 16, and 160 to
    # 2,560 games a pair (the cheap pairs more): +-64 in 38 minutes on 2 cores
    "lines_of_action": (*_CHEAP_MCTS[:3], *_one_ply_noisy("0.75", "0.5", "0.25"), "alphabeta(depth=1)",
                        "noisy(base=alphabeta(depth=2), epsilon=0.1)", "alphabeta(depth=2)", *_SEARCHES[3:],
                        "alphabeta(nodes=256000)"),
    # Nine Men's Morris' 0.1 s default searches ~549,000 nodes a move: two rungs more. Its build on that
    # list had MCTS at 16 simulations scoring 0.10 against 64, one-ply search at 50% random moves 0.18
    # against 25%, 25% 0.17 against none and one-ply search 0.13 against two-ply: MCTS at 32, one-ply
    # search at 37.5% and 12.5%, and two-ply search at 25% and 10% bridge them
    # At 270 games a pair that list met +-75 (+-74) in 7,212 s of play. With MCTS at 64, one-ply search at 25%,
    # two-ply search at 25%, 250, 4,000, 64,000 and 256,000 nodes left out (each within about 240 Elo of
    # the rungs on either side; its search rungs from 1,000 nodes up sit within 290 Elo) the chain is 12
    # links, not 19: +-61 in 32 minutes on 2 cores
    "nine_mens_morris": ("random", "mcts(sims=4)", "mcts(sims=16)", "mcts(sims=32)",
                         *_one_ply_noisy("0.5", "0.375", "0.125"), "alphabeta(depth=1)",
                         "noisy(base=alphabeta(depth=2), epsilon=0.1)", "alphabeta(depth=2)", "alphabeta(nodes=1000)",
                         "alphabeta(nodes=16000)", "alphabeta(nodes=1024000)"),
    # Oware's build on the generic list rated MCTS at 64 simulations (737) above one-ply search (647),
    # where it scored 0.91 against one-ply search at 50% random moves (418), and MCTS at 4 scored 0.14
    # against 16, two-ply search 0.11 against 250 nodes: the list in its ratings' order, with MCTS at 8
    # and three-ply search bridging those; then MCTS at 64 scored 0.03 against two-ply search: two-ply
    # search at 25% and 10% random moves bridge them (25% alone rated 712 against two-ply's 999)
    # On that bridged list its 0.1 s default (~304,000 nodes a move) placed above 256,000: one rung more
    "oware": ("random", "mcts(sims=4)", "mcts(sims=8)", *_one_ply_noisy("0.5"), "mcts(sims=16)",
              *_one_ply_noisy("0.25"), "alphabeta(depth=1)", "mcts(sims=64)",
              "noisy(base=alphabeta(depth=2), epsilon=0.25)", "noisy(base=alphabeta(depth=2), epsilon=0.1)",
              "alphabeta(depth=2)", "alphabeta(depth=3)", *_SEARCHES[2:], "alphabeta(nodes=256000)",
              "alphabeta(nodes=1024000)"),
    # Othello's MCTS at 16 simulations scored 0.17 against 64: MCTS at 32 bridges them. At 200 games a
    # pair one-ply search scored 0.13 against two-ply, and 250 and 1,000 nodes 0.18 against the next:
    # two-ply search at 25% and 10% random moves, 500 and 2,000 nodes bridge them
    # Its 0.1 s default (the classic heuristic, ~220,000 nodes a move) placed above 256,000 on that list:
    # 1,024,000 nodes holds it
    # That list reached +-109 in 6,220 s of play. With MCTS at 32 and 64 simulations and one-ply search
    # left out (each within about 240 Elo of the rungs on either side) the chain is 16 links, not 19, and
    # 160 to 2,560 games a pair (the cheap pairs more) give +-62: 61,530 games, half of them played on
    # the lent 16-core machine, about 1.5 hours of two cores here (docs/lab-notes/ratings.md)
    "othello": ("random", "mcts(sims=4)", "mcts(sims=16)", *_one_ply_noisy("0.5", "0.25"),
                "noisy(base=alphabeta(depth=2), epsilon=0.25)", "noisy(base=alphabeta(depth=2), epsilon=0.1)",
                "alphabeta(depth=2)", "alphabeta(nodes=250)", "alphabeta(nodes=500)", "alphabeta(nodes=1000)",
                "alphabeta(nodes=2000)", *_SEARCHES[4:], "alphabeta(nodes=256000)",
                "alphabeta(nodes=1024000)"),
    # Ultimate tic-tac-toe's 0.1 s default (MCTS, c=0.7, ~12,000 simulations a move) placed above the
    # generic list's top: MCTS at the default's c climbs on from 64,000 nodes. On its own compiled
    # copy the default runs ~54,000 simulations a move and placed above 16,000: one rung more
    # Its build on that list rated MCTS at 64 simulations (674) above one-ply search (453), where it
    # scored 0.91 against one-ply search at 50% random moves, MCTS at 4 simulations scored 0.10 against
    # 16, and MCTS at 4,000 simulations 0.17 against 16,000: the list in its ratings' order, with MCTS
    # at 8 and 8,000 simulations bridging those
    # That list met +-75 (+-72) in 6,894 s of play. With MCTS at 4 and 16, one-ply search at 50% and 25%,
    # two-ply search, MCTS at 1,000 and 4,000 simulations and 64,000 nodes left out (each within about
    # 265 Elo of the rungs on either side) the chain is 10 links, not 18: +-65 in 38 minutes on 2 cores
    "ultimate_tic_tac_toe": ("random", "mcts(sims=8)", "alphabeta(depth=1)", "mcts(sims=64)", *_SEARCHES[2:6],
                             "mcts(sims=8000, c=0.7)", "mcts(sims=16000, c=0.7)", "mcts(sims=64000, c=0.7)"),
    # the big boards stop where a build stays near an hour on 2 cores: Hex's 64,000 nodes take 0.47 s a
    # move (its evaluation is costly), Y's 4,000 nodes 0.09 s a move over ~80-ply games, Havannah's
    # two-ply search 0.28 s a move (its connection distance is costly); Amazons' 4,000 nodes take ~0.03 s
    # an action over ~220-action games, and it climbs one rung more, to 16,000 nodes (0.10 s an action),
    # because its 0.1 s default (~26,000-33,000 nodes an action) placed above 4,000. Probes of 6 games
    # a pair (2026-11-29) set the bridges: on Y and Amazons one-ply search at 50% random moves scored 0
    # of 6 against 25%, and one ply 0 of 6 against two; on Havannah MCTS doubling its simulations from
    # 4 to 16 won 12 of 12, and MCTS at 1,024 simulations lost 6 of 6 to one-ply search, at 4,096 6 of 6
    # to 1,000 nodes (its MCTS stops at 256)
    # Hex, Gomoku and Y grew by bridging rungs between neighbours that scored 0.02-0.04 against each
    # other at 100 games a pair (one-ply search at 25% random moves against none on all three, at 50%
    # against 25% on Hex, MCTS at 4 simulations against 16 on Gomoku; random scored 0.14 against MCTS
    # at 4 on Gomoku and 0.12 on Y, whence MCTS at 2), none of their games replayed
    # Hex at 350 games a pair: one-ply search at 25% random moves scored 0.13 against 12.5%, and 12.5%
    # 0.14 against none: 18.75% and 6.25% bridge them
    "hex": (*_CHEAP_MCTS, *_one_ply_noisy("0.5", "0.375", "0.25", "0.1875", "0.125", "0.0625"), *_SEARCHES[:-1]),
    # Gomoku's one-ply search at 50% random moves scored 0.15 against 25%: 37.5% bridges them. MCTS at
    # 128 simulations sits between MCTS at 64 and one ply at 50% (0.47 and 0.45 with its neighbours)
    "gomoku": ("random", "mcts(sims=2)", "mcts(sims=4)", "mcts(sims=8)", "mcts(sims=16)", "mcts(sims=64)",
               "mcts(sims=128)", *_one_ply_noisy("0.5", "0.375", "0.25", "0.125"), *_SEARCHES),
    # Y's one-ply search at 37.5% random moves scored 0.16 against 25%, and 12.5% 0.14 against none:
    # 31.25% and 6.25% (0.73/0.27 and 0.80/0.23 against their neighbours in probes of 30 games, 2026-11-30)
    # That list (16 rungs, 100 games a pair) reached +-131. In the order its build rated them, without MCTS
    # at 4 simulations, two-ply search (alone and at 10% random moves) and 1,000 nodes, each within ~210
    # Elo of the rungs on either side, and with one ply at 18.75% random moves to bridge 25% and 12.5%
    # (270 Elo apart), at 180 games a pair and up to 1,440 for the cheaper pairs: +-69 in 51 minutes
    "y": ("random", "mcts(sims=2)", "mcts(sims=16)", "mcts(sims=64)",
          *_one_ply_noisy("0.5", "0.375", "0.3125", "0.25", "0.1875", "0.125", "0.0625"),
          "alphabeta(depth=1)", "alphabeta(nodes=4000)"),
    # Havannah's MCTS at 2 simulations scored 0.10 against 4: 3 bridges them
    "havannah": ("random", *(f"mcts(sims={n})" for n in (2, 3, 4, 6, 8, 12, 16, 32, 64, 128, 256)),
                 "alphabeta(depth=1)", "alphabeta(depth=2)"),
    # Amazons at 100 games a pair: MCTS at 16 simulations scored 0.07 against 64, one-ply search at 25%
    # random moves 0.12 against none, and one ply 0.12 against two-ply search at 10%: MCTS at 32 (0.67
    # against 16, 0.30 against 64 in probes of 30 games, 2026-11-30), one ply at 12.5% (0.73 and 0.27) and
    # two-ply search at 17.5% (0.63 and 0.27) bridge them
    "amazons": (*_CHEAP_MCTS[:3], "mcts(sims=32)", "mcts(sims=64)", *_one_ply_noisy("0.5", "0.375", "0.25", "0.125"),
                "alphabeta(depth=1)", "noisy(base=alphabeta(depth=2), epsilon=0.175)",
                "noisy(base=alphabeta(depth=2), epsilon=0.1)", "alphabeta(depth=2)",
                "alphabeta(nodes=250)", "alphabeta(nodes=1000)", "alphabeta(nodes=4000)", "alphabeta(nodes=16000)"),
}
"""The built-in games' rungs, weakest first (others use :data:`GENERIC_RUNGS` or the game's ``ladder_rungs``)."""


OPENINGS: dict[str, int] = {"tictactoe": 1}
"""Random plies opening each pair of games where a game needs other than 2: one random move of tic-tac-toe
still leaves a drawn game, two can hand a won one to a side."""


def default_rungs(game: Game) -> tuple[str, ...]:
    """The rungs of ``game``: its own ``ladder_rungs`` if it declares them, else the built-in or the generic list."""
    own = getattr(game, "ladder_rungs", None)
    if own:
        return tuple(own)
    return RUNGS.get(game.name, GENERIC_RUNGS)


def ladder_pairs(n: int, reach: int) -> list[tuple[int, int]]:
    """The pairs (i, j), i < j, of rungs at most ``reach`` apart, by distance then position."""
    return [(i, i + d) for d in range(1, reach + 1) for i in range(n - d)]


def allocate_games(costs: Sequence[float], games: int, max_games: int) -> list[int]:
    """Games a pair for pairs whose games cost ``costs`` (seconds a game, measured on their first
    ``games``): ``games`` for the costliest, and ``games * sqrt(costliest / cost)`` for the others,
    rounded up to an even number and at most ``max_games``.

    A rung's interval is the sum of the variances of the links between it and random, each about
    1 / (games x information), so for a given time of play the variance is least with games in
    inverse proportion to the square root of their cost (minimise sum 1/n_i subject to sum n_i c_i
    fixed): the costliest pairs keep the floor and a pair 100 times cheaper plays 10 times as many."""
    if games < 2 or games % 2 or max_games < games or max_games % 2:
        raise LadderError(f"games a pair: an even floor >= 2 and an even most >= it; got {games} and {max_games}")
    top = max(costs, default=0.0)
    out = []
    for c in costs:
        want = games * float(np.sqrt(top / c)) if c > 0 else float(max_games)
        out.append(int(min(max_games, max(games, 2 * np.ceil(want / 2 - 1e-9)))))
    return out


def ladder_tasks(game: Game, pairs: Sequence[tuple[int, int]], games: int | Sequence[int], seed: int,
                 opening_plies: int) -> list[GameTask]:
    """Every game of the build, by game index then pair: pair p's game k is numbered (p, k), with
    the lower rung first in even games and second in odd ones, games 2j and 2j+1 from one opening.
    ``games`` is the games of every pair, or of each pair in turn; game k of a pair is the same
    game whatever the count."""
    counts = [games] * len(pairs) if isinstance(games, int) else list(games)
    tasks: list[GameTask] = []
    openings: dict[tuple[int, int], tuple[int, ...]] = {}
    for k in range(max(counts, default=0)):
        for p, (a, b) in enumerate(pairs):
            if k >= counts[p]:
                continue
            key = (p, k // 2)
            if key not in openings:
                rng = np.random.default_rng(np.random.SeedSequence([seed, 7, p, k // 2]))
                openings[key] = tuple(random_opening(game, opening_plies, rng))
            seats = (a, b) if k % 2 == 0 else (b, a)
            tasks.append(GameTask(p, k, seats, game_seed(seed, p, k), openings[key]))
    return tasks


def fit_store(store: Store, rungs: Sequence[str], pairs: Sequence[tuple[int, int]], *, bootstrap: int = 1000,
              seed: int = 0, games: int | Sequence[int] | None = None) -> tuple[list[Rung], list[PairResult]]:
    """Rate the rungs from the games in ``store`` (random, the first rung, at 0) and tally the pairs;
    with ``games``, from the first ``games`` of each pair only (an int, or one count a pair)."""
    rows = kept_games(store, games)
    kept = {int(g["id"]) for g in rows}
    scores = [(int(g["seat0"]), int(g["seat1"]), float(g["score0"])) for g in rows]
    units = [(int(g["pairing"]), int(g["game_index"]) // 2) for g in rows]  # both seat orders of one opening
    elo, low, high = bootstrap_fixed(scores, len(rungs), {0: 0.0}, samples=bootstrap, seed=seed,
                                     virtual_draws=VIRTUAL_DRAWS, units=units)
    moves = [m for m in store.moves(["game_id", "agent", "ply", "time", "nodes", "depth", "ebf", "stats"])
             if int(m["game_id"]) in kept]
    cost = search_cost(moves, list(rungs))
    out = []
    for i, spec in enumerate(rungs):
        family, budget = spec_family(spec)
        nodes = cost[i].nodes["mean"] if cost[i].searched else None
        out.append(Rung(spec, round(float(elo[i]), 1), round(float(low[i]), 1), round(float(high[i]), 1), family,
                        budget, None if nodes is None else round(float(nodes), 1),
                        round(float(cost[i].time["mean"]) if cost[i].moves else 0.0, 6)))
    table = []
    for a, b in pairs:
        w = d = lo = 0
        for g in rows:
            seats = (int(g["seat0"]), int(g["seat1"]))
            if set(seats) != {a, b}:
                continue
            s = float(g["score0"]) if seats[0] == a else 1.0 - float(g["score0"])
            w, d, lo = w + (s > 0.5), d + (s == 0.5), lo + (s < 0.5)
        table.append(PairResult(rungs[a], rungs[b], w + d + lo, w, d, lo))
    return out, table


def kept_games(store: Store, games: int | Sequence[int] | None) -> list[dict[str, Any]]:
    """The stored games a build of ``games`` a pair (an int, or one count a pair) is fitted from."""
    rows = store.games()
    if games is None:
        return rows
    if isinstance(games, int):
        return [g for g in rows if int(g["game_index"]) < games]
    return [g for g in rows if int(g["pairing"]) < len(games) and int(g["game_index"]) < games[int(g["pairing"])]]


def pair_costs(store: Store, games: int, n_pairs: int) -> list[float]:
    """Mean seconds a game of each pair over its first ``games`` in ``store``."""
    total = [0.0] * n_pairs
    count = [0] * n_pairs
    for g in kept_games(store, [games] * n_pairs):
        total[int(g["pairing"])] += float(g["duration"])
        count[int(g["pairing"])] += 1
    return [t / c if c else 0.0 for t, c in zip(total, count, strict=True)]


def build_ladder(game: Game, rungs: Sequence[str] | None = None, *, games: int = 100,
                 max_games: int | None = None, reach: int = 2, seed: int = 0, opening_plies: int = 2,
                 workers: int = 1, backend: str = "process", address: str | None = None,
                 store_path: str | Path, command: str = "", bootstrap: int = 1000,
                 progress: Callable[[int, int], None] | None = None,
                 note: Callable[[str], None] = print) -> Ladder:
    """Play the ladder's games not yet in ``store_path`` and fit it (see the module). A rung whose outside
    engine is not installed is left out, with a ``note`` saying so. With ``max_games``, every pair plays
    ``games`` first, then the cheaper pairs more, up to ``max_games`` (:func:`allocate_games`, from
    the stored games' times: a resumed build finds the same counts)."""
    from zerosum.agents import make_agent

    specs = list(rungs or default_rungs(game))
    if len(specs) < 2 or specs[0] != "random":
        raise LadderError(f"a ladder's rungs start with 'random' (the zero of the scale) and have at least two; "
                          f"got {specs}")
    if len(set(specs)) != len(specs):
        raise LadderError(f"a rung is listed twice in {specs}")
    if games < 2 or games % 2:
        raise LadderError(f"games a pair is an even int >= 2 (seats alternate in pairs of games); got {games}")
    if max_games is not None and (max_games < games or max_games % 2):
        raise LadderError(f"the most games a pair is an even int >= games a pair ({games}); got {max_games}")
    if reach < 1:
        raise LadderError(f"reach is an int >= 1 (how many neighbours on each side a rung plays); got {reach}")
    for spec in list(specs):
        try:
            make_agent(spec, rng=0).prepare(game)
        except EngineNotFound as exc:
            note(f"note: leaving out the rung {spec!r}: {exc}")
            specs.remove(spec)
        except Exception as exc:  # noqa: BLE001 - any failure to build is the caller's input
            raise LadderError(f"rung {spec!r} cannot play {game.name}: {exc}") from None
    if len(specs) < 2:
        raise LadderError(f"a ladder needs two rungs or more; left: {specs}")
    variant = jsonable_variant(game.variant)
    # games a pair is not in the fingerprint: game k of a pair is the same whatever the total, so a
    # build can be extended with more games a pair, replaying none
    fingerprint = {"kind": "ladder", "game": game.name, "variant": repr(sorted(variant.items())), "rungs": specs,
                   "reach": reach, "seed": seed, "opening_plies": opening_plies}
    store = Store(store_path)
    pairs, stages = open_stages(store, fingerprint, games, reach, command)
    # the games name rungs by their number in the store: the first stage's list, then each rung in
    # the order it was added; the ladder lists them in this build's order
    stored = [name for name, _ in store.agents()]
    order = [stored.index(spec) for spec in specs]
    tasks = ladder_tasks(game, pairs, games, seed, opening_plies)
    payload: Mapping[str, Any] = {"game": game.name, "variant": variant, "names": stored, "specs": stored}
    start = time.perf_counter()
    counts: int | list[int] = games
    try:
        _play(store, payload, tasks, game.name, workers, backend, address, progress, note)
        if max_games is not None and max_games > games:
            counts = allocate_games(pair_costs(store, games, len(pairs)), games, max_games)
            tasks = ladder_tasks(game, pairs, counts, seed, opening_plies)
            _play(store, payload, tasks, game.name, workers, backend, address, progress, note)
        rated, table = fit_store(store, stored, pairs, bootstrap=bootstrap, seed=seed, games=counts)
        rated = [rated[i] for i in order]
        play_seconds = sum(float(g["duration"]) for g in kept_games(store, counts))
    finally:
        store.close()
    for p in table:
        if p.games and not 0.02 < p.score < 0.98:
            note(f"note: {p.a} against {p.b} scored {p.score:.3f} over {p.games} games: a pair so far apart "
                 "carries little information; a rung between them would tighten the ladder")
    # a grown ladder's command is its stages' commands in turn (see open_stages)
    built = {"command": " && ".join(st["command"] for st in stages if st["command"]), "seed": seed,
             "games_per_pair": games, **({"max_games": max_games} if max_games else {}), "reach": reach,
             "opening_plies": opening_plies, "virtual_draws": VIRTUAL_DRAWS, "bootstrap": bootstrap,
             "zerosum": __version__, "date": datetime.date.today().isoformat(),
             "seconds": round(time.perf_counter() - start, 1), "workers": workers,
             "play_seconds": round(play_seconds, 1),
             "machine": f"{platform.machine()}, {_cores()} cores"}
    if len(stages) > 1:
        built["stages"] = [st["rungs"] for st in stages]
    return Ladder(game.name, current_env(game.name), variant, tuple(rated), tuple(table), built)


def _play(store: Store, payload: Mapping[str, Any], tasks: Sequence[GameTask], name: str, workers: int,
          backend: str, address: str | None, progress: Callable[[int, int], None] | None,
          note: Callable[[str], None]) -> None:
    """Play the ``tasks`` not yet in ``store``, each stored as it ends."""
    done = store.done()
    todo = [t for t in tasks if (t.pairing, t.game_index) not in done]
    count = len(tasks) - len(todo)
    with for_job(len(todo)) as own_copy:
        if own_copy:
            note(f"note: {job_note(len(todo), name)}")
        for task, match in make_backend(backend, workers, address).run(payload, todo):
            store.add_game(task, match)
            count += 1
            if progress is not None:
                progress(count, len(tasks))


def open_stages(store: Store, fingerprint: dict[str, Any], games: int, reach: int,
                command: str) -> tuple[list[tuple[int, int]], list[dict[str, Any]]]:
    """Open (or create) the build's store and return its pairs, as numbers of its agents, and its stages.

    A store of a build whose rungs are all among these (all else the same) grows into this one,
    whether the new rungs come on top or between two old ones, or the list only changed its order:
    the stored rungs and pairs keep their numbers, so every game played keeps its seed and stays,
    the new rungs are numbered after them in this list's order, and the pairs this list needs that
    the store lacks come after its own, in :func:`ladder_pairs`' order. A stored pair that this
    list puts further apart than ``reach`` keeps its games, which the fit uses like any others.
    Each stage is ``{"rungs": how many, "command": what built it}``; their commands, run in turn,
    rebuild the same games (an earlier stage's command names its rungs)."""
    specs = list(fingerprint["rungs"])
    pairs = ladder_pairs(len(specs), reach)
    stage = {"rungs": len(specs), "command": command}
    old = store.config() if store.path.exists() else {}
    before = old.get("fingerprint")
    stored: dict[str, Any] = before if isinstance(before, dict) else {}
    old_specs = list(stored.get("rungs", ()))
    n_old = len(old_specs)
    same_else = {k: v for k, v in stored.items() if k != "rungs"} == {k: v for k, v in fingerprint.items()
                                                                      if k != "rungs"}
    left_out = [s for s in old_specs if s not in specs]
    if same_else and left_out:
        raise ConfigMismatchError(
            f"{str(store.path)!r} holds games of another configuration: the rungs {old_specs}. A build on it may "
            f"add rungs to them (on top or between two) or put them in another order, but not leave any out "
            f"({left_out}): list them, or choose another --dir")
    if not (n_old and old_specs != specs and not left_out and same_else):
        stages = list(old.get("config", {}).get("stages", [])) or [stage]
        if stages[-1]["rungs"] == len(specs):
            stages[-1] = stage
        # a new store takes ladder_pairs' order; a resumed one keeps the pairs it holds (a grown build's)
        store.init({**fingerprint, "games": games, "stages": stages}, fingerprint, [(s, s) for s in specs], pairs)
        return store.pairings(), stages
    # an earlier stage's command must name its rungs; a store written before stages were kept has
    # none, and gets one from its fingerprint
    first = {"rungs": n_old, "command": f"zerosum ladder build {stored['game']} --games "
                                        f"{old.get('config', {}).get('games', games)} --reach {stored['reach']} "
                                        f"--seed {stored['seed']} --openings {stored['opening_plies']}"}
    stages = list(old.get("config", {}).get("stages", [])) or [first]
    last = stages[-1]
    if last["command"] and "--rungs" not in last["command"]:
        last = {**last, "command": f"{last['command']} --rungs {shlex.quote('; '.join(old_specs))}"}
    stages = [*stages[:-1], last, stage]
    names = [name for name, _ in store.agents()]
    names += [s for s in specs if s not in names]
    number = {s: i for i, s in enumerate(names)}
    have = store.pairings()
    played = {frozenset(p) for p in have}
    wanted = [(number[specs[a]], number[specs[b]]) for a, b in pairs]
    store.grow({**fingerprint, "games": games, "stages": stages}, fingerprint, [(s, s) for s in names],
               have + [p for p in wanted if frozenset(p) not in played])
    return store.pairings(), stages


def _cores() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


__all__ = ["GENERIC_RUNGS", "OPENINGS", "RUNGS", "allocate_games", "build_ladder", "default_rungs", "fit_store",
           "kept_games", "ladder_pairs", "ladder_tasks", "open_stages", "pair_costs"]
