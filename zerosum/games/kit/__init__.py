"""The game kit: declare a game once (kernels, variants, layout, text) and get the rest.

``zerosum.games.kit`` gathers what a game author uses:

* :mod:`~zerosum.games.kit.kernels`: the fixed kernel signatures (LEGAL, APPLY, STATUS,
  PLAYER, KEY, OBSERVE; optional ORDER, IS_LEGAL, FORCING, a ``distinct`` LEGAL; HEURISTIC), the status codes, the
  :class:`Kernels` record, checked when it is built, and the types kernels are annotated
  with (``Params``, ``State``, ``I64Array``, ``F64Array``, ``I8Array``);
* :mod:`~zerosum.games.kit.toolkit`: ``@kernel``, ``@helper``, ``popcount``,
  ``lowest_bit``, ``i64``, ``i64_array``, and for 64-bit boards ``bit``, ``shr`` (a
  logical right shift) and ``TOP_BIT``;
* :mod:`~zerosum.games.kit.variants`: the declarative :class:`Variant` schema;
* :mod:`~zerosum.games.kit.game`: the :class:`Game` base class (hot calls, validation,
  equality, hashing, pickling), :class:`Layout` and :class:`GameSpec`;
* :mod:`~zerosum.games.kit.heuristics`: :class:`Heuristic` and the ``zero`` heuristic;
* :mod:`~zerosum.games.kit.specialize`: how generic compiled code is specialised per game.

docs/new-game.md walks through a complete game built with it.
"""

from zerosum.games.kit import numba_version  # noqa: F401 - first: warns once for an untested numba
from zerosum.games.kit.errors import (
    GameLengthError, GameOverError, IllegalActionError, KernelError, MoveCountError, PositionError, UnknownGameError,
    VariantError, ZerosumError,
)
from zerosum.games.kit.movebuf import moves_buffer
from zerosum.games.kit.game import Game
from zerosum.games.kit.spec import GameSpec, Layout, check_action
from zerosum.games.kit.heuristics import HEURISTIC_LIMIT, ZERO, Heuristic
from zerosum.games.kit.kernels import (
    APPLY, DRAW, FORCING, HEURISTIC, IS_LEGAL, KEY, LEGAL, OBSERVE, ONGOING, ORDER, P0_WINS, P1_WINS, PLAYER, STATUS,
    Action, F64Array, I8Array, I64Array, Kernels, Outcome, Params, Player, State,
)
from zerosum.games.kit.toolkit import TOP_BIT, bit, helper, i64, i64_array, kernel, lowest_bit, popcount, shr
from zerosum.games.kit.variants import Variant, check_variant

__all__ = [
    "APPLY", "DRAW", "FORCING", "HEURISTIC", "HEURISTIC_LIMIT", "IS_LEGAL", "KEY", "LEGAL", "OBSERVE", "ONGOING",
    "ORDER", "P0_WINS", "P1_WINS", "PLAYER", "STATUS", "TOP_BIT", "ZERO", "Action", "F64Array", "Game",
    "GameLengthError", "GameOverError",
    "GameSpec", "Heuristic", "I8Array", "I64Array", "IllegalActionError", "KernelError", "Kernels", "Layout",
    "MoveCountError", "Outcome", "Params", "Player", "PositionError", "State", "UnknownGameError", "Variant",
    "VariantError", "ZerosumError", "bit", "check_action", "check_variant", "helper", "i64", "i64_array", "kernel",
    "lowest_bit", "moves_buffer", "popcount", "shr",
]
