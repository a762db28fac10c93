"""The ``zerosum`` command: ``zerosum play | replay | tournament | match | evaluate | ladder | train | warmup``.

(The benchmarks run from a checkout with ``make bench``.)

Each subcommand is a module of this package with a ``main(argv) -> int``, imported only
when used, so ``zerosum play`` never loads torch and ``zerosum --help`` is instant. All of
them read values with one grammar (:mod:`zerosum.values`): ``--variant KEY=VALUE
[KEY=VALUE ...]`` everywhere, and the same values inside agent specs.
"""

from __future__ import annotations

import importlib
import sys

from zerosum.games.registry import import_modules

# subcommand -> (module with a main(argv) -> int, one-line description)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("zerosum.cli.play", "play a game against an engine in the terminal"),
    "replay": ("zerosum.cli.replay", "show a stored tournament or match game move by move, or write a GIF"),
    "tournament": ("zerosum.cli.tournament", "run a tournament between agents and report results and search cost"),
    "match": ("zerosum.cli.match", "is A stronger than B? paired games with a sequential test (SPRT)"),
    "evaluate": ("zerosum.cli.evaluate", "score agents against opponents, or place them on a game's rated ladder"),
    "ladder": ("zerosum.cli.ladder", "show or build a game's rated ladder: one Elo scale from random up"),
    "train": ("zerosum.cli.train", "train a learner against search opponents"),
    "warmup": ("zerosum.cli.warmup", "compile games ahead of time, in parallel, so later runs start at once"),
}

USAGE = ("usage: zerosum [--import MODULE ...] COMMAND [options]   (zerosum COMMAND --help for its options)\n\n"
         "commands:\n" + "\n".join(f"  {name:<11} {desc}" for name, (_, desc) in COMMANDS.items())
         + "\n\n--import MODULE  import a module first (e.g. one that registers a game of your own); "
         "worker processes import it too")


def main(argv: list[str] | None = None) -> int:
    """Dispatch to a subcommand; returns the process exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    while args and args[0] == "--import":
        if len(args) < 2:
            print("zerosum: --import needs a module name, e.g. --import mypackage.mygame", file=sys.stderr)
            return 2
        try:
            import_modules([args[1]])  # recorded: worker processes import it too
        except ImportError as exc:
            print(f"zerosum: --import {args[1]}: {exc}", file=sys.stderr)
            return 2
        args = args[2:]
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    name = args[0]
    if name not in COMMANDS:
        print(f"zerosum: unknown command {name!r}; commands: {', '.join(COMMANDS)}\n\n{USAGE}", file=sys.stderr)
        return 2
    return int(importlib.import_module(COMMANDS[name][0]).main(args[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main())
