"""``zerosum evaluate``: score agents against a ladder of opponents (the model zoo's protocol).

    zerosum evaluate "alphazero(path=zoo:connect_four, sims=0)" --game connect_four \\
        --opponents "alphabeta(depth=2); alphabeta(depth=4)" --games 400
    zerosum evaluate "alphazero(path=runs/az_c4/best.pt, sims=64)" --game connect_four \\
        --opponents "alphabeta(depth=4)" --games 400 --mcts
    zerosum evaluate "ppo(path=runs/ttt/best.zip)" "alphabeta(depth=2)" --game tictactoe --opponents random

Each agent (SPEC: an agent spec; several are scored from the same openings) plays ``--games``
games against each opponent: seats alternating, each pair of games from one opening of
``--openings`` random plies, every game seeded from (seed, opponent, game). Scores are
wins + draws/2 a game with Wilson 95% intervals. With ``--mcts`` each agent also plays plain
MCTS given its own mean time a move, so a search is not credited to the learning. Prints a
table (``--json``: one JSON document) with the load average, which the times depend on.

With ``--ladder`` each agent is placed on the game's rated ladder instead (``zerosum ladder
show GAME``): its Elo above random with a 95% interval, the rungs it played and its search
cost (:func:`zerosum.rate`)::

    zerosum evaluate "alphabeta(depth=2)" --game connect_four --ladder --games 200 --json out.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from pathlib import Path
from typing import Any

from zerosum.cli.common import VARIANT_HELP, Parser, UsageError, build_game, parse_variant, run_command
from zerosum.games.registry import GAMES
from zerosum.values import split_top_level


def parser() -> Parser:
    """The argument parser of ``zerosum evaluate``."""
    p = Parser(prog="zerosum evaluate", description=__doc__,
               usage="zerosum evaluate SPEC [SPEC ...] --game GAME (--opponents SPECS | --ladder) [--games N] "
                     "[options]")
    p.add_argument("agents", nargs="+", metavar="SPEC",
                   help="the agents scored, e.g. 'alphazero(path=zoo:connect_four, sims=64)'")
    p.add_argument("--game", required=True, help="the game or env (tictactoe, connect_four_v0, ...)")
    p.add_argument("--variant", action="extend", nargs="+", default=[], metavar="KEY=VALUE", help=VARIANT_HELP)
    p.add_argument("--opponents", metavar="SPECS",
                   help="the ladder, separated by ';' or commas outside parentheses, e.g. "
                        "'alphabeta(depth=2); alphabeta(depth=4)'")
    p.add_argument("--games", type=int, default=None,
                   help="games per agent and opponent, seats alternating (400); with --ladder, games in all (200)")
    p.add_argument("--ladder", action="store_true",
                   help="place each agent on the game's rated ladder instead: its Elo above random with a 95%% "
                        "interval, the rungs played and its search cost")
    p.add_argument("--openings", type=int, default=None,
                   help="random plies opening each pair of games (default 2; with --ladder, the ladder's)")
    p.add_argument("--seed", type=int, default=0, help="seeds the openings and every game's agents (default 0)")
    p.add_argument("--mcts", action="store_true", help="also play plain mcts at each agent's own time a move")
    p.add_argument("--workers", type=int, default=1, help="games played at once (default 1)")
    p.add_argument("--json", nargs="?", const="-", default=None, metavar="PATH",
                   help="print one JSON document (to PATH if given)")
    return p


def evaluate_main(argv: Sequence[str] | None = None) -> int:
    """``zerosum evaluate``: 0 after scoring, 2 for bad input (before any game)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    return run_command("zerosum evaluate", lambda: _run(parser().parse_args(argv)))


def _emit(doc: dict[str, Any], where: str) -> None:
    text = json.dumps(doc)
    if where == "-":
        print(text)
    else:
        Path(where).write_text(text + "\n")
        print(f"wrote {where}")


def _run(args: argparse.Namespace) -> int:
    if args.ladder:
        return _place(args)
    from zerosum.evaluation.ladder import load_average, score_ladder

    if args.opponents is None:
        raise UsageError("--opponents SPECS is required (or --ladder, to place the agents on the game's rated ladder)")
    args.games = 400 if args.games is None else args.games
    args.openings = 2 if args.openings is None else args.openings
    opponents = split_top_level(args.opponents)
    if not opponents:
        raise UsageError(f"--opponents {args.opponents!r}: give at least one agent spec, e.g. 'alphabeta(depth=2)'")
    for flag in ("games", "workers"):
        if getattr(args, flag) < 1:
            raise UsageError(f"--{flag} {getattr(args, flag)}: a whole number >= 1")
    if args.openings < 0:
        raise UsageError(f"--openings {args.openings}: a whole number of plies >= 0")
    rows = score_ladder(args.agents, args.game, opponents, games=args.games, seed=args.seed,
                        opening_plies=args.openings, mcts=args.mcts, workers=args.workers,
                        variant=parse_variant(args.variant))
    load = load_average()
    doc = {"game": args.game, "games": args.games, "openings": args.openings, "seed": args.seed, "load": load,
           "rows": [r.as_dict() for r in rows]}
    if args.json:
        _emit(doc, args.json)
        return 0
    width = max(len(r.agent) for r in rows)
    opp_width = max(len(r.opponent) for r in rows)
    print(f"{'agent':<{width}}  {'opponent':<{opp_width}}  games   W/D/L          score  95% interval  s/move")
    for r in rows:
        wdl = f"{r.wins}/{r.draws}/{r.losses}"
        print(f"{r.agent:<{width}}  {r.opponent:<{opp_width}}  {r.games:5d}   {wdl:<13}  {r.score:.3f}  "
              f"{r.low:.3f}-{r.high:.3f}   {r.seconds_per_move:.4f}")
    print(f"{args.game}, paired {args.openings}-ply openings, seats alternating, seed {args.seed}; "
          f"load average {load}")
    return 0


def _place(args: argparse.Namespace) -> int:
    """``--ladder``: each agent placed on the game's ladder (:func:`zerosum.evaluation.placement.rate`)."""
    from zerosum.evaluation.placement import DEFAULT_GAMES, rate
    from zerosum.evaluation.scale import game_name, ladder

    if args.opponents is not None:
        raise UsageError("--ladder plays the ladder's rungs: leave out --opponents")
    if args.mcts:
        raise UsageError("--ladder and --mcts do not go together: the ladder's rungs are the opponents")
    games = DEFAULT_GAMES if args.games is None else args.games
    if games < 2:
        raise UsageError(f"--games {games}: a whole number >= 2")
    if args.workers < 1:
        raise UsageError(f"--workers {args.workers}: a whole number >= 1")
    if args.openings is not None and args.openings < 0:
        raise UsageError(f"--openings {args.openings}: a whole number of plies >= 0")
    game = build_game(game_name(args.game) if args.game not in GAMES else args.game, parse_variant(args.variant))
    lad = ladder(game)
    ratings = []
    for spec in args.agents:
        r = rate(spec, game, games=games, seed=args.seed, opening_plies=args.openings, workers=args.workers)
        ratings.append(r)
        if not args.json or args.json != "-":
            print(r)
    if args.json:
        _emit({"game": lad.game, "env": lad.env, "ladder_top": lad.top.elo, "seed": args.seed,
               "ratings": [r.as_dict() for r in ratings]}, args.json)
    return 0


main = evaluate_main

__all__ = ["evaluate_main", "parser"]
