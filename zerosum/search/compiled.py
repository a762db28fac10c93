"""The search kernels of :mod:`zerosum.search._template` and :mod:`zerosum.search._mcts_template`,
compiled for a game, in one of two tiers.

``for_game(game)`` returns a module holding ``negamax`` and ``minimax``, and
``for_game(game, MCTS_TEMPLATE)`` one holding ``mcts``, ``for_game(game, GUIDED_TEMPLATE)``
the network-guided search's steps, each compiled with that game's rules inlined, made by
the kit's one specialisation mechanism (:mod:`zerosum.games.kit.specialize`, where the
contract, the cache key and the cache location are documented).

Compiling such a copy takes seconds to a minute per game and template, once; loading it
afterwards takes a fraction of a second. So the searches ask :func:`searcher`, which
takes the tier :mod:`zerosum.games.kit.tiers` chooses: the **inlined copy** when it is
compiled already, else the **generic copy**, the same template compiled once for every
game over :mod:`zerosum.games.kit.generic` (the rules through function pointers, about
1.6-1.8x slower), while the inlined copy compiles in the background for later processes.
``ZEROSUM_TIER=inline`` or ``generic`` forces one tier (benchmarks use ``inline``; the
test suite runs on ``generic``, so that its time does not grow with the number of games).
Both tiers run the same code on the same rules: values, moves and node counts are equal
(tests/search/test_tiers.py). Rules-only batch playouts are the kit's (``Game.random_playouts``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

from zerosum.games.kit import Game, Heuristic
from zerosum.games.kit import generic
from zerosum.games.kit.cache import cache_dir
from zerosum.games.kit.kernels import HEURISTIC
from zerosum.games.kit.specialize import specialize
from zerosum.games.kit.tiers import use_generic
from zerosum.search.functions import FunctionRef, heuristic_ref, ref

TEMPLATE = Path(__file__).with_name("_template.py")
"""The source of minimax and alpha-beta, compiled once per game."""
MCTS_TEMPLATE = Path(__file__).with_name("_mcts_template.py")
"""The source of MCTS, compiled once per game."""
GUIDED_TEMPLATE = Path(__file__).with_name("_guided_template.py")
"""The source of the network-guided search, compiled once per game."""

# (template, id(kernels)) -> (kernels, module): a searcher per game is cheap
_BY_KERNELS: dict[tuple[Path, int], tuple[object, ModuleType]] = {}
_PARAMS: dict[tuple[int, bytes, int], np.ndarray] = {}


def for_game(game: Game, template: Path = TEMPLATE) -> ModuleType:
    """The compiled search kernels of ``template`` for ``game``'s rules, inlined (built and
    compiled on first use)."""
    key = (template, id(game.kernels))
    hit = _BY_KERNELS.get(key)
    if hit is not None and hit[0] is game.kernels:
        return hit[1]
    module = specialize(template, game.kernels)
    _BY_KERNELS[key] = (game.kernels, module)
    return module


def generic_for(template: Path = TEMPLATE) -> ModuleType:
    """The compiled search kernels of ``template`` for every game (the generic tier)."""
    return specialize(template, generic.KERNELS)


@dataclass(frozen=True)
class Searcher:
    """A template compiled for a game in one tier, with what its functions take."""

    module: ModuleType
    """The compiled copy (``negamax_root``, ``minimax``, ``mcts``, ...)."""
    params: np.ndarray
    """The params its functions take: the game's own, or the generic tier's vector."""
    heuristic: FunctionRef
    """The heuristic to hand its functions (in the generic tier, the one that reads the real
    heuristic's address from ``params``)."""
    generic: bool
    """Whether this is the generic tier."""


def searcher(game: Game, template: Path, heuristic: Heuristic) -> Searcher:
    """``template`` compiled for ``game`` in the tier ``ZEROSUM_TIER`` asks for (see the
    module's docstring), with ``heuristic`` handed over as that tier needs it."""
    h = heuristic_ref(heuristic)
    what = f"{game.name}'s {template.stem.strip('_').replace('_', ' ')}"
    if not use_generic(template, game.kernels, what):
        return Searcher(for_game(game, template), game.params, h, False)
    key = (id(game.kernels), game.params.tobytes(), id(h.dispatcher))
    params = _PARAMS.get(key)
    if params is None:
        params = _PARAMS[key] = generic.generic_params(game.kernels, game.params, h.dispatcher)
    return Searcher(generic_for(template), params, ref(generic.heuristic, HEURISTIC), True)


__all__ = ["GUIDED_TEMPLATE", "MCTS_TEMPLATE", "TEMPLATE", "Searcher", "cache_dir", "for_game", "generic_for",
           "searcher"]
