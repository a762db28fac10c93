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

A game declares its symmetries itself (:meth:`~zerosum.games.kit.game.Game.board_symmetries`,
None by default), so a user's game has them too; this module checks them once and adds the
inverse maps. Declared here: **tic-tac-toe** (action = cell) and **Pentago** (action =
``cell*8 + quadrant*2 + direction``): the 8 symmetries of the square, 0-3 the quarter turns
clockwise, 4-7 the reflections (a reflection reverses a quadrant's turn); **Connect Four**
(action = column): the identity and the left-right mirror (gravity rules out the others).

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


@cache
def _tables(game: Game) -> BoardSymmetries:
    declared = game.board_symmetries()
    if declared is None:
        raise ValueError(f"symmetry=True: no board symmetries are known for {game.name} (a game declares them "
                         "with Game.board_symmetries(); tic-tac-toe, Connect Four and Pentago do)")
    rows, cols = (int(n) for n in game.observation_shape[:2])
    cells, actions = (np.array(t, dtype=np.int64) for t in declared)
    for what, table, size in (("cells", cells, rows * cols), ("actions", actions, game.num_actions)):
        shaped = table.ndim == 2 and table.shape == (len(cells), size)
        if not shaped or not (np.sort(table, axis=1) == np.arange(size)).all():
            raise ValueError(f"{game.name}.board_symmetries(): {what} must be one permutation of range({size}) "
                             f"a symmetry, {len(cells)} rows; got shape {table.shape}")
        if (table[0] != np.arange(size)).any():
            raise ValueError(f"{game.name}.board_symmetries(): symmetry 0 must be the identity")
    inv_c, inv_a = np.argsort(cells, axis=1), np.argsort(actions, axis=1)
    for t in (cells, actions, inv_c, inv_a):
        t.setflags(write=False)
    return BoardSymmetries(cells, actions, inv_c, inv_a)


def board_symmetries(game: Game) -> BoardSymmetries:
    """The board symmetries ``game`` declares (:meth:`~zerosum.games.kit.game.Game.board_symmetries`),
    checked and with their inverses, made once per game; ValueError for a game that declares none."""
    return _tables(game)


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


__all__ = ["BoardSymmetries", "board_symmetries", "lane_tables"]
