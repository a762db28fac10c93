"""The search kernels of :mod:`zerosum.search._template` and :mod:`zerosum.search._mcts_template`,
specialised for one game and cached.

``for_game(game)`` returns a module holding ``negamax`` and ``minimax``, and
``for_game(game, MCTS_TEMPLATE)`` one holding ``mcts``, ``for_game(game, GUIDED_TEMPLATE)``
the network-guided search's steps, each
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
MCTS_TEMPLATE = Path(__file__).with_name("_mcts_template.py")
GUIDED_TEMPLATE = Path(__file__).with_name("_guided_template.py")

# (template, id(kernels)) -> (kernels, module): a searcher per game is cheap
_BY_KERNELS: dict[tuple[Path, int], tuple[object, ModuleType]] = {}


def for_game(game: Game, template: Path = TEMPLATE) -> ModuleType:
    """The compiled search kernels of ``template`` for ``game``'s rules (built and compiled on first use)."""
    key = (template, id(game.kernels))
    hit = _BY_KERNELS.get(key)
    if hit is not None and hit[0] is game.kernels:
        return hit[1]
    module = specialize(template, game.kernels)
    _BY_KERNELS[key] = (game.kernels, module)
    return module


__all__ = ["GUIDED_TEMPLATE", "MCTS_TEMPLATE", "TEMPLATE", "cache_dir", "for_game"]
