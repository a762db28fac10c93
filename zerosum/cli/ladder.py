"""``zerosum ladder``: a game's rated ladder, one Elo scale from random to the strongest rung.

    zerosum ladder show connect_four                 # the rungs, their Elo and 95% intervals, the pairs
    zerosum ladder show                              # the games with a ladder
    zerosum ladder build tictactoe --workers 2       # play the rungs' games and fit the ratings
    zerosum ladder build chess --backend ray --workers 16

``build`` plays every pair of rungs at most ``--reach`` apart (2: each rung meets its two
nearest neighbours on each side), ``--games`` games a pair (seats alternating, paired
openings), into a tournament store under ``--dir`` (default ``results/ladders/GAME``):
stopped, the same command resumes; with ``--max-games M``, the pairs whose games are cheaper then
play more, up to M, which narrows every interval above them for little time (the costly top rungs
set a build's time); with a larger ``--games``, or with rungs added to the stored
list (on top, or between two rungs to bridge a wide gap), or the list in another order, it plays
only the games that are new (the stored ones keep their seeds, and the ladder's rebuild command
becomes the stages' commands in turn). It then fits Bradley-Terry with random at 0, bootstrap
intervals, and writes ``--output`` (default ``results/ladders/GAME.json``; ``--install`` writes
the package's own file, the one :func:`zerosum.ladder` reads). ``--rungs`` replaces the
game's rungs (weakest first, ``random`` first, separated by ';').

To place an agent on a ladder: ``zerosum evaluate SPEC --game GAME --ladder``.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from zerosum.cli.common import Parser, UsageError, build_game, run_command
from zerosum.values import split_top_level


def parser() -> Parser:
    """The argument parser of ``zerosum ladder``."""
    p = Parser(prog="zerosum ladder", description=__doc__, usage="zerosum ladder {show,build} [GAME] [options]")
    sub = p.add_subparsers(dest="action", required=True, parser_class=Parser, prog="zerosum ladder")
    show = sub.add_parser("show", help="print a game's ladder (no GAME: list the games with one)")
    show.add_argument("game", nargs="?", help="the game (tictactoe, connect_four, ...)")
    show.add_argument("--path", help="a ladder file to show instead of the shipped one")
    show.add_argument("--pairs", action="store_true", help="also print every pair's games")
    build = sub.add_parser("build", help="play the rungs' games and fit the ladder (resumable)")
    build.add_argument("game", help="the game (its default variant)")
    build.add_argument("--rungs", help="the rungs, weakest first, ';'-separated, starting with random")
    build.add_argument("--games", type=int, default=100, help="games a pair of rungs, an even number (100)")
    build.add_argument("--max-games", type=int, default=None,
                       help="after --games a pair, the cheaper pairs play more, up to this many: games x "
                            "sqrt(costliest pair's seconds a game / the pair's), an even number (off)")
    build.add_argument("--reach", type=int, default=2, help="neighbours on each side a rung plays (2)")
    build.add_argument("--openings", type=int, default=None,
                       help="random plies opening each pair of games (default: the game's, usually 2)")
    build.add_argument("--seed", type=int, default=0, help="seeds the openings and every game's agents (0)")
    build.add_argument("--workers", type=int, default=1, help="games played at once (1)")
    build.add_argument("--backend", choices=("process", "ray"), default="process", help="where games run (process)")
    build.add_argument("--address", help="a Ray cluster's address (with --backend ray)")
    build.add_argument("--dir", help="where the games are stored (default results/ladders/GAME)")
    build.add_argument("--output", help="the ladder file written (default results/ladders/GAME.json)")
    build.add_argument("--install", action="store_true", help="write the package's own ladder file instead")
    build.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples for the intervals (1000)")
    build.add_argument("--quiet", action="store_true", help="no progress line")
    return p


def ladder_main(argv: Sequence[str] | None = None) -> int:
    """``zerosum ladder``: 0 when done, 2 for bad input (before any game)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    return run_command("zerosum ladder", lambda: _run(parser().parse_args(argv), argv))


def _run(args: argparse.Namespace, argv: list[str]) -> int:
    from zerosum.evaluation.scale import ladder, load_ladder, shipped

    if args.action == "show":
        if args.game is None and args.path is None:
            print("ladders: " + (", ".join(shipped()) or "none"))
            return 0
        lad = load_ladder(args.path) if args.path else ladder(args.game)
        print(lad.table())
        if args.pairs:
            print()
            print(lad.pair_table())
        b = lad.built
        print(f"\nbuilt {b.get('date', '?')} by zerosum {b.get('zerosum', '?')}: {lad.games_a_pair}, "
              f"{b.get('opening_plies', '?')}-ply paired openings, seed {b.get('seed', '?')}, "
              f"{b.get('seconds', '?')} s on {b.get('machine', '?')}")
        if b.get("command"):
            print(f"rebuild: {b['command']}")
        return 0
    return _build(args, argv)


def _build(args: argparse.Namespace, argv: list[str]) -> int:
    from zerosum.evaluation.scale import LADDER_DIR, save_ladder
    from zerosum.evaluation.scale_build import OPENINGS, build_ladder

    for flag, low in (("games", 2), ("reach", 1), ("workers", 1), ("bootstrap", 0)):
        if getattr(args, flag) < low:
            raise UsageError(f"--{flag} {getattr(args, flag)}: a whole number >= {low}")
    if args.max_games is not None and (args.max_games < args.games or args.max_games % 2):
        raise UsageError(f"--max-games {args.max_games}: an even number >= --games ({args.games})")
    game = build_game(args.game, {})
    rungs = split_top_level(args.rungs) if args.rungs else None
    if args.rungs is not None and not rungs:
        raise UsageError(f"--rungs {args.rungs!r}: give the rungs weakest first, e.g. 'random; alphabeta(depth=1)'")
    openings = OPENINGS.get(game.name, 2) if args.openings is None else args.openings
    if openings < 0:
        raise UsageError(f"--openings {openings}: a whole number of plies >= 0")
    folder = Path(args.dir or Path("results") / "ladders" / game.name)
    out = LADDER_DIR / f"{game.name}.json" if args.install else Path(args.output or Path("results") / "ladders" /
                                                                     f"{game.name}.json")
    command = "zerosum ladder build " + " ".join(shlex.quote(a) for a in argv[1:] if a != "--quiet")

    def progress(done: int, total: int) -> None:
        if not args.quiet and (done % 10 == 0 or done == total):
            print(f"\r{game.name} ladder: {done}/{total} games", end="" if done < total else "\n", file=sys.stderr,
                  flush=True)

    lad = build_ladder(game, rungs, games=args.games, max_games=args.max_games, reach=args.reach, seed=args.seed,
                       opening_plies=openings, workers=args.workers, backend=args.backend, address=args.address,
                       store_path=folder / "ladder.sqlite", command=command, bootstrap=args.bootstrap,
                       progress=progress, note=lambda text: print(text, file=sys.stderr))
    print(lad.table())
    print(f"wrote {save_ladder(lad, out)}")
    return 0


main = ladder_main

__all__ = ["ladder_main", "parser"]
