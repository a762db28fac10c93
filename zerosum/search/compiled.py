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


def for_game(game: Game) -> ModuleType:
    """The compiled search kernels for ``game``'s rules (built and compiled on first use)."""
    return specialize(TEMPLATE, game.kernels)


__all__ = ["TEMPLATE", "cache_dir", "for_game"]
