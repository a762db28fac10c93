"""``zerosum tournament``: run tournaments from a TOML config or from command-line options.

    zerosum tournament --config configs/default.toml
    zerosum tournament --game tictactoe --agents random "alphabeta(depth=2)" "mcts(sims=200)" --games 10
    zerosum tournament --game nim --variant piles=[3,4,5] misere=true --agents random perfect_nim

Running the same command again resumes: finished games are kept, the rest are played.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from zerosum.cli.common import Parser, add_variant, build_game, parse_variant, run_command
from zerosum.evaluation.config import BACKENDS, ConfigError, TournamentConfig, build_config, load_config


def build_parser() -> Parser:
    """The argument parser (also documents every option)."""
    p = Parser(
        prog="zerosum tournament",
        description="Play every pair of agents in both seats from varied openings; store every game and move "
                    "in SQLite; report W/D/L with 95% intervals, Elo and openskill ratings, and search cost.",
        epilog="Command-line options override the config file (for every tournament it holds).\n"
               "Agent specs: random, minimax(depth=2), alphabeta(depth=4, heuristic=lines, tt=on), "
               "mcts(sims=500), perfect_nim, ...")
    p.add_argument("--config", help="TOML file with one tournament or several [[tournament]] tables")
    p.add_argument("--game", help="game name (zerosum.games.GAMES)")
    add_variant(p)
    p.add_argument("--agents", nargs="+", metavar="SPEC", help="agent spec strings (at least two)")
    p.add_argument("--games", type=int, dest="games_per_pairing", help="games per ordered pairing (default 2)")
    p.add_argument("--opening-plies", type=int, help="random plies before the agents play (default 2)")
    p.add_argument("--seed", type=int, help="tournament seed (default 0)")
    p.add_argument("--workers", type=int, help="parallel games (default: the CPU count)")
    p.add_argument("--backend", choices=BACKENDS, help="process (default) or ray")
    p.add_argument("--address", help="Ray cluster address (default: start a local instance)")
    p.add_argument("--output", help="output directory (default results/<game>-<config hash>)")
    p.add_argument("--name", help="tournament name used in the report")
    p.add_argument("--bootstrap", type=int, default=200, help="bootstrap samples for rating intervals")
    p.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no tables")
    return p


_OPTION_KEYS = ("game", "variant", "agents", "games_per_pairing", "opening_plies", "seed", "workers", "backend",
                "address", "output", "name")


def configs_from_args(args: argparse.Namespace) -> list[TournamentConfig]:
    """The tournaments the arguments describe (config file with overrides, or options alone)."""
    options = {k: getattr(args, k) for k in _OPTION_KEYS}
    options["variant"] = parse_variant(args.variant) or None
    if options["variant"] and args.game:  # checked, and read as the game reads it (piles=5 is one pile)
        game = build_game(args.game, options["variant"])
        options["variant"] = {k: game.variant[k] for k in options["variant"]}
    if args.config:
        return load_config(args.config, options)
    if not args.game:
        raise ConfigError("give --config FILE, or --game NAME with --agents SPEC SPEC ... "
                          "(e.g. zerosum tournament --game tictactoe --agents random \"alphabeta(depth=2)\")")
    return [build_config({k: v for k, v in options.items() if v is not None}, "command line")]


def tournament_main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``zerosum tournament``; returns the exit code (2 for bad input, before any game)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    return run_command("zerosum tournament", lambda: _run(build_parser().parse_args(argv)))


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console

    # A pipe or a log file gets wide tables instead of rich's default 80 columns.
    console = Console() if sys.stdout.isatty() else Console(width=160)

    def note(text: str) -> None:
        console.print(text, markup=False, highlight=False)

    from zerosum.evaluation.tournament import prepare_all, run_tournament

    preps = prepare_all(configs_from_args(args), note)
    if not preps:
        raise ConfigError("no tournament left to run (every game named is unavailable)")
    outcomes = []
    for prep in preps:
        out = run_tournament(prep, progress=not args.quiet, plots=not args.no_plots, console=console, note=note,
                             bootstrap=args.bootstrap)
        outcomes.append(out)
        if not args.quiet:
            from zerosum.evaluation.report import print_summary

            print_summary(out.summary, console)
        rate = f", {out.played / out.seconds:.1f} games/s" if out.played and out.seconds > 0 else ""
        note(f"{out.config.label}: {out.played} games played now, {out.summary.games} stored "
             f"in {out.seconds:.1f} s{rate}")
    note("")
    note("Where the results are (each directory also holds games.csv, moves.csv, summary.json and plots/):")
    width = max(len(o.config.label) for o in outcomes)
    for out in outcomes:
        note(f"  {out.config.label:<{width}}  report {out.files['report']}   database {out.files['database']}")
    return 0


main = tournament_main

if __name__ == "__main__":
    sys.exit(tournament_main())
