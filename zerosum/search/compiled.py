"""The search kernels of :mod:`zerosum.search._template`, specialised for one game and cached.

``for_game(game)`` returns a module holding ``negamax``, ``minimax`` and ``mcts``
compiled with that game's rules called directly, made by the kit's one specialisation
mechanism (:mod:`zerosum.games.kit.specialize`, where the contract, the cache key and
the cache location are documented). Rules-only batch playouts are the kit's
(``Game.random_playouts``).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from zerosum.games.kit import Game
from zerosum.games.kit.specialize import cache_dir, specialize

TEMPLATE = Path(__file__).with_name("_template.py")


_BY_KERNELS: dict[int, tuple[object, ModuleType]] = {}  # id(kernels) -> (kernels, module): a searcher per game is cheap


def for_game(game: Game) -> ModuleType:
    """The compiled search kernels for ``game``'s rules (built and compiled on first use)."""
    hit = _BY_KERNELS.get(id(game.kernels))
    if hit is not None and hit[0] is game.kernels:
        return hit[1]
    module = specialize(TEMPLATE, game.kernels)
    _BY_KERNELS[id(game.kernels)] = (game.kernels, module)
    return module


__all__ = ["TEMPLATE", "cache_dir", "for_game"]
