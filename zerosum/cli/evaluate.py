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
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from zerosum.cli.common import VARIANT_HELP, Parser, UsageError, parse_variant, run_command
from zerosum.values import split_top_level


def parser() -> Parser:
    """The argument parser of ``zerosum evaluate``."""
    p = Parser(prog="zerosum evaluate", description=__doc__,
               usage="zerosum evaluate SPEC [SPEC ...] --game GAME --opponents SPECS [--games N] [options]")
    p.add_argument("agents", nargs="+", metavar="SPEC",
                   help="the agents scored, e.g. 'alphazero(path=zoo:connect_four, sims=64)'")
    p.add_argument("--game", required=True, help="the game or env (tictactoe, connect_four_v0, ...)")
    p.add_argument("--variant", action="extend", nargs="+", default=[], metavar="KEY=VALUE", help=VARIANT_HELP)
    p.add_argument("--opponents", required=True, metavar="SPECS",
                   help="the ladder, separated by ';' or commas outside parentheses, e.g. "
                        "'alphabeta(depth=2); alphabeta(depth=4)'")
    p.add_argument("--games", type=int, default=400, help="games per agent and opponent, seats alternating (400)")
    p.add_argument("--openings", type=int, default=2, help="random plies opening each pair of games (default 2)")
    p.add_argument("--seed", type=int, default=0, help="seeds the openings and every game's agents (default 0)")
    p.add_argument("--mcts", action="store_true", help="also play plain mcts at each agent's own time a move")
    p.add_argument("--workers", type=int, default=1, help="games played at once (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    return p


def evaluate_main(argv: Sequence[str] | None = None) -> int:
    """``zerosum evaluate``: 0 after scoring, 2 for bad input (before any game)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    return run_command("zerosum evaluate", lambda: _run(parser().parse_args(argv)))


def _run(args: argparse.Namespace) -> int:
    from zerosum.evaluation.ladder import load_average, score_ladder

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
        print(json.dumps(doc))
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


main = evaluate_main

__all__ = ["evaluate_main", "parser"]
