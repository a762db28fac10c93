"""``zerosum match``: is A stronger than B? Game pairs until a sequential test (SPRT) decides.

    zerosum match --game tictactoe "alphabeta(depth=9)" random --sprt 0 50
    zerosum match --game nim "alphabeta(depth=4)" random --variant misere=true piles=3,4,5 --sprt 0 100
    zerosum match --game pentago "alphabeta(depth=2)" "alphabeta(depth=1)" --max-games 200

Each pair is two games from one opening, A first in one and second in the other. With
``--sprt ELO0 ELO1`` the pentanomial GSPRT (as in fishtest) is updated after each pair and
the match stops when the log-likelihood ratio leaves its bounds; without it the match
plays ``--max-games`` games. The last line holds the verdict (``H1 accepted``: A is
stronger by about ELO1 or more; ``H0 accepted``: by ELO0 or less; ``inconclusive``: max
games reached) and A's Elo over B with its 95% interval. Games are stored in SQLite
(OUTPUT/match.sqlite, replayable with ``zerosum replay``); running the same command again
resumes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from zerosum.cli.common import VARIANT_HELP, Parser, UsageError, parse_variant, run_command


def parser() -> Parser:
    """The argument parser of ``zerosum match``."""
    from zerosum.evaluation.config import BACKENDS
    from zerosum.evaluation.sprt_match import DEFAULT_FIXED_GAMES, DEFAULT_SPRT_GAMES

    p = Parser(prog="zerosum match", description=__doc__,
               usage="zerosum match --game GAME A B [--variant KEY=VALUE ...] [--sprt ELO0 ELO1] [options]",
               epilog="Agent specs: random, alphabeta(depth=4), mcts(sims=500), minimax(depth=2), perfect_nim, "
                      "ppo(path=...).")
    p.add_argument("agents", nargs="*", metavar="SPEC", help="agent A, then agent B (the test asks: is A stronger?)")
    p.add_argument("--game", required=True, help="the game (tictactoe, nim, pentago, ...)")
    p.add_argument("--variant", action="extend", nargs="+", default=[], metavar="KEY=VALUE", help=VARIANT_HELP)
    p.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                   help="test H0: A's Elo over B is ELO0 against H1: it is ELO1 (logistic Elo, ELO0 < ELO1)")
    p.add_argument("--alpha", type=float, default=0.05, help="chance of accepting H1 when H0 holds (default 0.05)")
    p.add_argument("--beta", type=float, default=0.05, help="chance of accepting H0 when H1 holds (default 0.05)")
    p.add_argument("--max-games", type=int, default=None,
                   help=f"stop after this many games, an even number (default {DEFAULT_SPRT_GAMES} with --sprt, "
                        f"else {DEFAULT_FIXED_GAMES})")
    p.add_argument("--opening-plies", type=int, default=2, help="random plies before each pair's games (default 2)")
    p.add_argument("--seed", type=int, default=0, help="the match's seed: openings and agents' choices (default 0)")
    p.add_argument("--workers", type=int, default=None, help="games played at once (default: the CPU count)")
    p.add_argument("--backend", choices=BACKENDS, default="process", help="process (default) or ray")
    p.add_argument("--output", default=None, metavar="DIR",
                   help="directory of match.sqlite (default results/match-<game>-<hash of the configuration>)")
    p.add_argument("--quiet", action="store_true", help="only the final line")
    return p


def match_main(argv: Sequence[str] | None = None) -> int:
    """``zerosum match``: 0 after the match (whatever the verdict), 2 for bad input, before any game."""
    argv = list(sys.argv[1:] if argv is None else argv)
    return run_command("zerosum match", lambda: _run(parser().parse_args(argv)))


def _agents(args: argparse.Namespace) -> tuple[str, str]:
    """A and B; specs written after ``--variant``'s pairs (argparse gave them to it) are taken back."""
    agents, variant = list(args.agents), list(args.variant)
    while variant and len(agents) < 2 and not _assignment(variant[-1]):
        agents.insert(0, variant.pop())
    args.variant = variant
    if len(agents) != 2:
        raise UsageError(f"give two agent specs, A and B; got {len(agents)}: {agents} "
                         "(e.g. zerosum match --game tictactoe \"alphabeta(depth=9)\" random --sprt 0 50)")
    return agents[0], agents[1]


def _assignment(item: str) -> bool:
    key, sep, _ = item.partition("=")
    return bool(sep) and key.strip().isidentifier()


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.live import Live
    from rich.text import Text

    from zerosum.evaluation.sprt_match import SprtStatus, sprt

    a, b = _agents(args)
    variant = parse_variant(args.variant)
    elo0, elo1 = args.sprt if args.sprt else (None, None)
    console = Console(highlight=False)
    live = Live(Text(""), console=console, transient=True) if console.is_terminal and not args.quiet else None
    shown = [0.0]

    def show(status: SprtStatus) -> None:
        """The live line: redrawn on a terminal, else printed; at most a few times a second."""
        now = time.monotonic()
        if args.quiet or now - shown[0] < (0.1 if live is not None else 0.5):
            return
        shown[0] = now
        if live is not None:
            live.update(Text(status.line()))
        else:
            print(status.line(), flush=True)

    def note(text: str) -> None:
        if not args.quiet:
            print(text, flush=True)

    if live is not None:
        live.start()
    try:
        result = sprt(args.game, a, b, elo0=elo0, elo1=elo1, alpha=args.alpha, beta=args.beta, variant=variant,
                      max_games=args.max_games, opening_plies=args.opening_plies, seed=args.seed,
                      workers=args.workers, backend=args.backend, output=args.output, on_pair=show, note=note)
    finally:
        if live is not None:
            live.stop()
    if not args.quiet:
        print(result.status.line())
        print(f"database: {result.database} ({result.played} games played now)")
    print(result.summary(), flush=True)
    return 0


main = match_main
