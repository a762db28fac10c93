"""Board symmetries for training: the same position seen turned or mirrored, the action mapped back.

>>> from zerosum.games import make_game
>>> from zerosum.envs.symmetry import board_symmetries
>>> sym = board_symmetries(make_game("pentago"))
>>> len(sym), int(sym.actions[1, 165])  # c4 q2 cw after a quarter turn clockwise: c3 q3 cw
(8, 119)

A symmetry ``k`` maps every cell ``c`` to ``cells[k, c]`` and every action ``a`` to
``actions[k, a]``, so that playing ``actions[k, a]`` in the mapped position reaches the
mapped position of playing ``a`` (tests/training/test_symmetry.py plays random games both
ways to check it). Symmetry 0 is the identity. Tables are built once per game shape.

* **Tic-tac-toe** (action = cell) and **Pentago** (action = cell*8 + quadrant*2 +
  direction): the 8 symmetries of the square, 0-3 the quarter turns clockwise, 4-7 the
  reflections (left-right, the main diagonal, up-down, the other diagonal). A turn of the
  board carries a quadrant to another quadrant and keeps the direction of its turn; a
  reflection reverses it (clockwise becomes anticlockwise). Rules that read the board
  (five in a row, a turn of a quadrant) are the same in every orientation.
* **Connect Four** (action = column): the identity and the left-right mirror (gravity
  rules out the others).

:class:`~zerosum.training.single_agent.SingleAgentEnv` and the vector env
(:func:`zerosum.envs.make_vec`) with ``symmetry=True`` draw one symmetry per episode and show
the learner the mapped board and mask; the learner's action is mapped back before it is
played, so the game, the opponent and the reward are untouched. The vector env reads the
tables of :func:`lane_tables` (the same maps over a flat observation row).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from zerosum.games import Game

SYMMETRIC_GAMES = ("connect_four", "pentago", "tictactoe")
"""The games with board symmetries for training."""


@dataclass(frozen=True)
class BoardSymmetries:
    """The symmetries of one game's board: ``cells[k, c]`` and ``actions[k, a]`` are the images
    of cell ``c`` and action ``a`` under symmetry ``k``; ``inverse_actions[k]`` undoes ``actions[k]``."""

    cells: np.ndarray
    """``cells[k, c]``: the image of cell ``c`` under symmetry ``k``."""
    actions: np.ndarray
    """``actions[k, a]``: the image of action ``a`` under symmetry ``k``."""
    inverse_cells: np.ndarray
    """``inverse_cells[k]`` undoes ``cells[k]``."""
    inverse_actions: np.ndarray
    """``inverse_actions[k]`` undoes ``actions[k]``."""

    def __len__(self) -> int:
        return int(self.cells.shape[0])

    def observation(self, planes: np.ndarray, k: int) -> np.ndarray:
        """Observation planes (rows, cols, planes) as seen under symmetry ``k``."""
        rows, cols, n = planes.shape
        out: np.ndarray = planes.reshape(rows * cols, n)[self.inverse_cells[k]].reshape(rows, cols, n)
        return out

    def mask(self, mask: np.ndarray, k: int) -> np.ndarray:
        """An action mask as seen under symmetry ``k`` (the mapped actions of the legal ones)."""
        out: np.ndarray = mask[self.inverse_actions[k]]
        return out


def _square_maps(n: int) -> list[tuple[np.ndarray, bool]]:
    """The 8 maps of an n x n board as (cell images, is a reflection), in the module's order."""
    r, c = np.divmod(np.arange(n * n), n)
    m = n - 1
    images = [(r, c), (c, m - r), (m - r, m - c), (m - c, r),  # identity, quarter turns clockwise
              (r, m - c), (c, r), (m - r, c), (m - c, m - r)]  # reflections
    return [(rr * n + cc, k >= 4) for k, (rr, cc) in enumerate(images)]


def _pentago_actions(cells: np.ndarray, reflection: bool) -> np.ndarray:
    quadrant_at = {(0, 0): 0, (0, 1): 1, (1, 1): 2, (1, 0): 3}
    centres = [7, 10, 28, 25]  # the centre cell of quadrants 0..3
    quadrants = [quadrant_at[divmod(int(cells[centre]), 6)[0] // 3, int(cells[centre]) % 6 // 3]
                 for centre in centres]
    a = np.arange(288)
    cell, q, d = a // 8, a // 2 % 4, a % 2
    out: np.ndarray = cells[cell] * 8 + np.asarray(quadrants)[q] * 2 + (1 - d if reflection else d)
    return out


@cache
def _tables(name: str, rows: int, cols: int, num_actions: int) -> BoardSymmetries:
    if name in ("tictactoe", "pentago"):
        maps = _square_maps(rows)
        cells = np.stack([m for m, _ in maps])
        if name == "tictactoe":
            actions = cells.copy()
        else:
            actions = np.stack([_pentago_actions(m, refl) for m, refl in maps])
    else:  # connect_four: the identity and the mirror
        r, c = np.divmod(np.arange(rows * cols), cols)
        cells = np.stack([r * cols + c, r * cols + (cols - 1 - c)])
        actions = np.stack([np.arange(cols), cols - 1 - np.arange(cols)])
    assert actions.shape[1] == num_actions, (name, actions.shape, num_actions)
    for t in (cells, actions):
        t.setflags(write=False)
    inv_c, inv_a = np.argsort(cells, axis=1), np.argsort(actions, axis=1)
    inv_c.setflags(write=False)
    inv_a.setflags(write=False)
    return BoardSymmetries(cells, actions, inv_c, inv_a)


def board_symmetries(game: Game) -> BoardSymmetries:
    """The board symmetries of ``game`` (ValueError for a game without known ones)."""
    if game.name not in SYMMETRIC_GAMES:
        raise ValueError(f"symmetry=True: no board symmetries are known for {game.name}; "
                         f"games with them: {', '.join(SYMMETRIC_GAMES)}")
    rows, cols = game.observation_shape[:2]
    return _tables(game.name, int(rows), int(cols), int(game.num_actions))


def lane_tables(game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The symmetries of ``game`` as the vector env applies them to flat rows, int64 tables
    ``(obs, actions, inverse_actions)``: under symmetry ``k`` the learner sees
    ``planes.reshape(-1)[obs[k]]`` (what :meth:`BoardSymmetries.observation` gives, flattened),
    its mask has 1 at ``actions[k, a]`` for each legal ``a``, and its action ``b`` is played as
    ``inverse_actions[k, b]``."""
    sym = board_symmetries(game)
    planes = int(np.prod(game.observation_shape[2:]))
    cell = sym.inverse_cells.astype(np.int64)
    obs = (cell[:, :, None] * planes + np.arange(planes)).reshape(len(sym), -1)
    return (np.ascontiguousarray(obs), np.ascontiguousarray(sym.actions, dtype=np.int64),
            np.ascontiguousarray(sym.inverse_actions, dtype=np.int64))


__all__ = ["SYMMETRIC_GAMES", "BoardSymmetries", "board_symmetries", "lane_tables"]
