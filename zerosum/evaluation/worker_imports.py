"""What a worker process imports before it plays a payload's games, and the errors that say
what it was missing.

A fresh worker process (forkserver, spawn, a Ray worker) knows only the games zerosum
ships. The calling process sends it the modules it imported for registration
(:data:`zerosum.games.registry.IMPORTED`: ``zerosum --import MODULE`` records them) and
the module that defines the game; the worker imports them first. One that cannot, or that
still cannot find the game, raises :class:`WorkerImportError` naming the module.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Mapping
from typing import Any

from zerosum.games.kit import ZerosumError

Payload = Mapping[str, Any]


class WorkerImportError(ZerosumError, ImportError):
    """A worker process could not import a module the caller's process had imported, or
    could not find the game after importing them."""


def worker_imports(payload: Payload) -> tuple[str, ...]:
    """The modules a fresh worker process imports before it plays ``payload``'s games: those
    this process imported for registration (:data:`zerosum.games.registry.IMPORTED`, e.g.
    by ``zerosum --import``), then the module that defines the game, if it is not one of
    zerosum's own (a script's ``__main__`` cannot be imported by name and is left out)."""
    from zerosum.games.registry import IMPORTED

    names = list(IMPORTED)
    if isinstance(payload["game"], str):
        module = game_module(payload)
        if module and module != "__main__" and module.split(".")[0] != "zerosum" and module not in names:
            names.append(module)
    return tuple(names)


def game_module(payload: Payload) -> str | None:
    """The module that defines the payload's game in this process (None for a Game object)."""
    from zerosum.games.registry import game_module as defining_module

    return defining_module(payload["game"]) if isinstance(payload["game"], str) else None


def imports_done(payload: Payload) -> None:
    """Import the payload's ``imports`` here (once a process); WorkerImportError naming the
    module that failed."""
    for name in payload.get("imports", ()):
        if name in sys.modules:
            continue
        try:
            importlib.import_module(name)
        except Exception as exc:
            raise WorkerImportError(
                f"a worker process (pid {os.getpid()}) could not import {name!r}, which the calling process had "
                f"imported (zerosum --import, or the module of game {payload['game']!r}): "
                f"{type(exc).__name__}: {exc}") from exc


def worker_payload(payload: Payload) -> dict[str, Any]:
    """What the calling process adds to a payload for its workers: ``imports`` (see
    :func:`worker_imports`) and ``game_module`` (for the error of a worker that cannot find the game)."""
    return {"imports": worker_imports(payload), "game_module": game_module(payload)}


def unknown_game(payload: Payload) -> WorkerImportError:
    """The error of a worker that imported the payload's modules and still has no such game."""
    imported = list(payload.get("imports", ()))
    where = payload.get("game_module")
    if where == "__main__":
        defined = ("; the calling process has it from its script (__main__), which a worker cannot import by name: "
                   "define the game in a module of its own")
    else:
        defined = f"; the calling process has it from {where!r}" if where else ""
    return WorkerImportError(
        f"unknown game {payload['game']!r} in a worker process (pid {os.getpid()}): the module that registers it "
        f"was not imported there (it imported {imported or 'no module of yours'}{defined}). Pass it as "
        f"`zerosum --import MODULE ...`, call zerosum.games.registry.import_modules([MODULE]) before the run, or "
        f"register the game in an installed package's 'zerosum.games' entry point")
