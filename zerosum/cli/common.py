"""What every command shares: the argument parser, bad input as one line, games and agents from text.

Every command ends the same way on bad input: one line on stderr, ``zerosum CMD: what was
given and what is allowed``, exit code 2, and nothing started. Values are read with the
one grammar of :mod:`zerosum.values`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from zerosum.games import Game, ZerosumError
from zerosum.values import ValueSyntaxError, parse_assignments, variant_game

if TYPE_CHECKING:
    from zerosum.agents.base import Agent, Rng

VARIANT_HELP = ("rule variants, KEY=VALUE ... (e.g. misere=true piles=3,4,5); values: true/false/on/off, "
                "ints, floats, lists 3,4,5 or [3,4,5], 'quoted text'")


class UsageError(ZerosumError, ValueError):
    """A bad command line: an unknown game, a malformed variant or agent spec, a bad option."""


class HelpShown(Exception):
    """``--help`` was printed: the command ends with exit code 0."""


class Parser(argparse.ArgumentParser):
    """argparse that raises UsageError (and HelpShown) instead of exiting the process."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(**kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} ({self.prog} --help shows the options)")

    def exit(self, status: int = 0, message: str | None = None) -> None:  # type: ignore[override]
        if message:
            sys.stderr.write(message)
        raise HelpShown(status)


def add_variant(parser: argparse.ArgumentParser) -> None:
    """``--variant KEY=VALUE [KEY=VALUE ...]``, repeatable, into ``args.variant`` (a list of texts)."""
    parser.add_argument("--variant", action="extend", nargs="+", default=[], metavar="KEY=VALUE", help=VARIANT_HELP)


def parse_variant(items: Sequence[str] | None) -> dict[str, Any]:
    """``["piles=3,4,5", "misere=true"]`` -> ``{"piles": (3, 4, 5), "misere": True}`` or a UsageError."""
    try:
        return parse_assignments(items or [], "--variant")
    except ValueSyntaxError as exc:
        raise UsageError(str(exc)) from None


def build_game(name: str, variant: Mapping[str, Any]) -> Game:
    """The game under the variant; an unknown game or variant is a one-line UsageError."""
    try:
        return variant_game(name, variant)
    except (ZerosumError, ValueError) as exc:
        raise UsageError(str(exc)) from None


def build_agent(spec: str, game: Game, rng: Rng, what: str = "--opponent") -> Agent:
    """An agent from its spec, checked against the game before play starts."""
    from zerosum.agents import make_agent

    try:
        agent = make_agent(spec, rng=rng)
        agent.reset()
        agent.prepare(game)
    except (ZerosumError, ValueError, TypeError) as exc:
        raise UsageError(f"bad {what} {spec!r}: {exc}") from None
    return agent


def silence_stdout() -> None:
    """After a broken pipe (``zerosum ... | head``), send the rest of stdout to devnull."""
    with contextlib.suppress(OSError, ValueError):  # stdout without a file descriptor
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def run_command(prog: str, body: Callable[[], int | None]) -> int:
    """Run a command's body: bad input is one line on stderr and exit code 2; --help is 0."""
    try:
        return int(body() or 0)
    except HelpShown as shown:
        return int(shown.args[0] or 0)
    except BrokenPipeError:
        silence_stdout()
        return 0
    except KeyboardInterrupt:
        return 130
    except (ZerosumError, ValueError, ImportError) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
