"""The ``zerosum`` command: ``zerosum play | replay | tournament | train``.

(The benchmarks run from a checkout with ``make bench``.)

Each subcommand lives with its part of the package and is imported only when used, so
``zerosum play`` never loads torch and ``zerosum --help`` is instant.
"""

from __future__ import annotations

import importlib
import sys

# subcommand -> (module with a main(argv) -> int, one-line description)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("zerosum.play", "play a game against an engine in the terminal"),
    "replay": ("zerosum.play", "show a stored tournament game move by move, or write a GIF"),
    "tournament": ("zerosum.evaluation.cli", "run a tournament between agents and report results and search cost"),
    "train": ("zerosum.training.cli", "train a learner against search opponents"),
}

USAGE = "usage: zerosum COMMAND [options]   (zerosum COMMAND --help for its options)\n\ncommands:\n" + "\n".join(
    f"  {name:<11} {desc}" for name, (_, desc) in COMMANDS.items()
)


def main(argv: list[str] | None = None) -> int:
    """Dispatch to a subcommand; returns the process exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    name = args[0]
    if name not in COMMANDS:
        print(f"zerosum: unknown command {name!r}\n\n{USAGE}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    entry = getattr(module, f"{name}_main", None) or module.main
    return int(entry(args[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main())
