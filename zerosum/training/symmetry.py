"""Board symmetries for training: :mod:`zerosum.envs.symmetry`, where they live since the vector
env (:func:`zerosum.envs.make_vec`) applies them too; the names are re-exported here.

>>> from zerosum.games import make_game
>>> from zerosum.training.symmetry import board_symmetries
>>> len(board_symmetries(make_game("tictactoe")))
8
"""

from __future__ import annotations

from zerosum.envs.symmetry import BoardSymmetries, board_symmetries

__all__ = ["BoardSymmetries", "board_symmetries"]
