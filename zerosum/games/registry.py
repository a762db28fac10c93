"""The registries: game name -> game class, and env name <-> game name.

Both are plain data (``"module:Class"`` paths and module names), so nothing is imported
until a game or env is asked for, and ``zerosum.games`` knows the env names without
importing PettingZoo. A user's game joins with :func:`register_game`; its environment
with :func:`register_env` (``zerosum.envs`` then registers it with PettingZoo too).

An installed package can make its games known to every zerosum program, the command
line included, with an entry point in the group ``zerosum.games`` naming a module that
registers them on import (or a Game subclass)::

    [project.entry-points."zerosum.games"]
    hexapawn = "hexapawn"

and ``zerosum --import MODULE COMMAND ...`` imports a module first for one command
(:func:`import_modules`, which records it in :data:`IMPORTED`: worker processes that play
games for this process import the same modules, see :mod:`zerosum.evaluation.backends`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from zerosum.games.kit.errors import UnknownGameError

if TYPE_CHECKING:
    from zerosum.games.kit.game import Game

GAMES: dict[str, type[Game] | str] = {
    "tictactoe": "zerosum.games.tictactoe:TicTacToe",
    "nim": "zerosum.games.nim:Nim",
    "pentago": "zerosum.games.pentago:Pentago",
    "halma": "zerosum.games.halma:Halma",
    "nine_mens_morris": "zerosum.games.nine_mens_morris:NineMensMorris",
    "connect_four": "zerosum.games.connect_four:ConnectFour",
    "othello": "zerosum.games.othello:Othello",
    "hex": "zerosum.games.hex:Hex",
    "y": "zerosum.games.y:Y",
    "havannah": "zerosum.games.havannah:Havannah",
    "breakthrough": "zerosum.games.breakthrough:Breakthrough",
    "checkers": "zerosum.games.checkers:Checkers",
    "gomoku": "zerosum.games.gomoku:Gomoku",
    "chess": "zerosum.games.chess:Chess",
    "go": "zerosum.games.go:Go",
    "dots_and_boxes": "zerosum.games.dots_and_boxes:DotsAndBoxes",
    "mancala": "zerosum.games.mancala:Mancala",
    "oware": "zerosum.games.oware:Oware",
    "clobber": "zerosum.games.clobber:Clobber",
    "ultimate_tic_tac_toe": "zerosum.games.ultimate_tic_tac_toe:UltimateTicTacToe",
    "lines_of_action": "zerosum.games.lines_of_action:LinesOfAction",
    "amazons": "zerosum.games.amazons:Amazons",
}
"""Game name -> "module:Class" (or the class itself, for games registered as objects)"""

ENVS: dict[str, tuple[str, str]] = {
    "tictactoe_v0": ("zerosum.envs.tictactoe_v0", "tictactoe"),
    "nim_v0": ("zerosum.envs.nim_v0", "nim"),
    "pentago_v0": ("zerosum.envs.pentago_v0", "pentago"),
    "halma_v0": ("zerosum.envs.halma_v0", "halma"),
    "nine_mens_morris_v0": ("zerosum.envs.nine_mens_morris_v0", "nine_mens_morris"),
    "connect_four_v0": ("zerosum.envs.connect_four_v0", "connect_four"),
    "othello_v0": ("zerosum.envs.othello_v0", "othello"),
    "hex_v0": ("zerosum.envs.hex_v0", "hex"),
    "y_v0": ("zerosum.envs.y_v0", "y"),
    "havannah_v0": ("zerosum.envs.havannah_v0", "havannah"),
    "breakthrough_v0": ("zerosum.envs.breakthrough_v0", "breakthrough"),
    "checkers_v0": ("zerosum.envs.checkers_v0", "checkers"),
    "gomoku_v0": ("zerosum.envs.gomoku_v0", "gomoku"),
    "chess_v0": ("zerosum.envs.chess_v0", "chess"),
    "go_v0": ("zerosum.envs.go_v0", "go"),
    "dots_and_boxes_v0": ("zerosum.envs.dots_and_boxes_v0", "dots_and_boxes"),
    "mancala_v0": ("zerosum.envs.mancala_v0", "mancala"),
    "oware_v0": ("zerosum.envs.oware_v0", "oware"),
    "clobber_v0": ("zerosum.envs.clobber_v0", "clobber"),
    "ultimate_tic_tac_toe_v0": ("zerosum.envs.ultimate_tic_tac_toe_v0", "ultimate_tic_tac_toe"),
    "lines_of_action_v0": ("zerosum.envs.lines_of_action_v0", "lines_of_action"),
    "amazons_v0": ("zerosum.envs.amazons_v0", "amazons"),
}
"""Env name -> (env module, game name)"""


def register_game(name: str, game: type[Game] | str, *, replace: bool = False) -> None:
    """Make ``make_game(name, ...)`` build ``game`` (a Game subclass or a ``"module:Class"`` path)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"a game name is an identifier such as 'connect_four'; got {name!r}")
    if name in GAMES and not replace and GAMES[name] != game:
        raise ValueError(f"a game named {name!r} is registered already ({GAMES[name]}); pass replace=True")
    GAMES[name] = game


def register_env(env_name: str, module: str, game: str, *, replace: bool = False) -> None:
    """Register the env module ``module`` (it defines ``env`` and ``raw_env``) for ``game``."""
    base, _, version = env_name.rpartition("_v")
    if not base or not version.isdigit():
        raise ValueError(f"an env name ends in a version, such as 'connect_four_v0'; got {env_name!r}")
    if env_name in ENVS and not replace and ENVS[env_name] != (module, game):
        raise ValueError(f"an env named {env_name!r} is registered already ({ENVS[env_name][0]}); pass replace=True")
    ENVS[env_name] = (module, game)


IMPORT_HINT = ("A game of your own is known once the module that registers it is imported: "
               "`zerosum --import MODULE COMMAND ...` on the command line, or import it (or "
               "zerosum.games.registry.import_modules([MODULE])) before make_game")
"""What an unknown game's error adds: where a user's game comes from."""

IMPORTED: list[str] = []
"""The modules :func:`import_modules` imported in this process (``zerosum --import``), in
order: the worker processes of tournaments and matches import them too."""


def import_modules(names: list[str] | tuple[str, ...]) -> None:
    """Import each module (one that registers games or agents, say) and record it in
    :data:`IMPORTED`, so that worker processes import it as well; ImportError as Python
    raises it."""
    for name in names:
        importlib.import_module(name)
        if name not in IMPORTED:
            IMPORTED.append(name)


def game_module(name: str) -> str | None:
    """The module that defines the game registered as ``name`` (the ``module`` of a
    ``"module:Class"`` entry, or the class's module); None for a name not registered."""
    entry = GAMES.get(name)
    if entry is None:
        return None
    return entry.partition(":")[0] if isinstance(entry, str) else entry.__module__


_PLUGINS_LOADED = False


def load_plugins() -> None:
    """Load the ``zerosum.games`` entry points of installed packages (once)."""
    global _PLUGINS_LOADED
    if _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED = True
    from importlib.metadata import entry_points

    from zerosum.games.kit.game import Game

    for ep in entry_points(group="zerosum.games"):
        obj = ep.load()
        if isinstance(obj, type) and issubclass(obj, Game) and obj.name not in GAMES:
            register_game(obj.name, obj)


def game_class(name: str) -> type[Game]:
    """The Game subclass registered under ``name``."""
    if name not in GAMES:
        load_plugins()
    try:
        entry = GAMES[name]
    except KeyError:
        raise UnknownGameError(f"unknown game {name!r}; available: {', '.join(sorted(GAMES))}. {IMPORT_HINT}") \
            from None
    if isinstance(entry, str):
        module, _, attr = entry.partition(":")
        loaded: type[Game] = getattr(importlib.import_module(module), attr)
        return loaded
    return entry


def make_game(name: str, **variant: Any) -> Game:
    """Build a game by name with rule variants as keyword arguments."""
    return game_class(name)(**variant)


def env_name(game: str) -> str | None:
    """The newest env name serving the game ``game`` (e.g. ``tictactoe_v0``), None if none."""
    names = [n for n, (_, g) in ENVS.items() if g == game]
    return max(names, key=lambda n: int(n.rpartition("_v")[2])) if names else None


def env_game(env: str) -> str:
    """The game name an env name serves (``"nim_v0"`` -> ``"nim"``)."""
    try:
        return ENVS[env][1]
    except KeyError:
        raise ValueError(f"unknown environment {env!r}; available: {', '.join(sorted(ENVS))}") from None


def resolve_game_name(name: str) -> str:
    """A game name from a game name or an env name (``"nim"`` or ``"nim_v0"`` -> ``"nim"``)."""
    if name in GAMES:
        return name
    if name in ENVS:
        return ENVS[name][1]
    raise UnknownGameError(f"unknown game or env {name!r}; games: {', '.join(sorted(GAMES))}; "
                           f"envs: {', '.join(sorted(ENVS))}. {IMPORT_HINT}")
