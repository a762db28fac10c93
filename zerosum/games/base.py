"""Transitional: the names of zerosum 0.1's ``zerosum.games.base``, now in :mod:`zerosum.games.kit`."""

from zerosum.games.kit import *  # noqa: F401,F403
from zerosum.games.kit import __all__ as _kit_all
from zerosum.games.kit.game import check_action as _check_action_type  # noqa: F401
from zerosum.games.kit.heuristics import zero  # noqa: F401
from zerosum.games.kit.hot import entry_point  # noqa: F401
from zerosum.games.kit.kernels import no_order_hint  # noqa: F401

__all__ = list(_kit_all)
