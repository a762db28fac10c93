"""Board symmetries a game declares (:meth:`~zerosum.games.kit.game.Game.board_symmetries`): the
maps of a square board and of a left-right mirror, as cell images.

>>> cells = square_symmetries(3)
>>> cells.shape, cells[1].reshape(3, 3).tolist()  # a quarter turn clockwise: cell 0 goes to cell 2
((8, 9), [[2, 5, 8], [1, 4, 7], [0, 3, 6]])

A symmetry ``k`` maps cell ``c`` (``row * columns + col``) to ``cells[k, c]``; symmetry 0 is
the identity. A game turns these into its action maps (an action that names a cell follows
its cell; a column follows the mirror; Pentago's quadrant turns follow their quadrant).
"""

from __future__ import annotations

import numpy as np

def square_symmetries(n: int) -> np.ndarray:
    """The 8 symmetries of an ``n`` x ``n`` board, int64 ``[8, n*n]``: 0-3 the quarter turns
    clockwise (0 the identity), 4-7 the reflections (left-right, the main diagonal, up-down,
    the other diagonal)."""
    r, c = np.divmod(np.arange(n * n), n)
    m = n - 1
    images = [(r, c), (c, m - r), (m - r, m - c), (m - c, r), (r, m - c), (c, r), (m - r, c), (m - c, m - r)]
    return np.stack([rr * n + cc for rr, cc in images]).astype(np.int64)


def mirror_symmetries(rows: int, columns: int) -> np.ndarray:
    """The identity and the left-right mirror of a ``rows`` x ``columns`` board, int64 ``[2, rows*columns]``."""
    r, c = np.divmod(np.arange(rows * columns), columns)
    return np.stack([r * columns + c, r * columns + (columns - 1 - c)]).astype(np.int64)


__all__ = ["mirror_symmetries", "square_symmetries"]
