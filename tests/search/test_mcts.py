"""MCTS: legal moves, obvious wins and blocks, budgets."""

import numpy as np
import pytest

from zerosum.games import make_game
from zerosum.search import MCTS

TTT = make_game("tictactoe")


def position(*names):
    s = TTT.initial_state()
    for n in names:
        s = TTT.apply(s, TTT.string_to_action(n))
    return s


@pytest.mark.parametrize("rollout", ["random", "greedy"])
def test_takes_the_win_and_blocks(rollout):
    m = MCTS(TTT, rollout=rollout)
    win = position("a1", "b1", "a2", "c1")  # X to move wins at a3
    assert TTT.action_to_string(m.search(win, 2000, seed=0).action) == "a3"
    block = position("a1", "b2", "b1")  # O must block c1
    assert TTT.action_to_string(m.search(block, 3000, seed=0).action) == "c1"


def test_budgets_and_reproducibility():
    nim = make_game("nim")
    m = MCTS(nim)
    r = m.search(nim.initial_state(), 500, seed=3)
    assert r.stats.simulations == 500 and r.stats.leaves == 0
    assert r.action in nim.legal_actions(nim.initial_state())
    assert 1 < r.stats.nodes <= 1 + 500 * nim.max_moves and r.stats.depth >= 1
    assert m.search(nim.initial_state(), 500, seed=3).action == r.action
    r = m.search(nim.initial_state(), time=0.1, seed=1)
    assert r.stats.simulations > 0 and r.stats.simulations % 64 == 0 and r.stats.time < 5.0
    with pytest.raises(ValueError, match="positive"):
        m.search(nim.initial_state(), 0)
    with pytest.raises(ValueError, match="rollout"):
        MCTS(nim, rollout="smart")


def test_rollout_depth_with_heuristic_and_small_tree():
    m = MCTS(TTT, rollout_depth=2, max_nodes=50)
    rng = np.random.default_rng(0)
    s = TTT.initial_state()
    while not TTT.is_terminal(s):
        a = m.search(s, 300, seed=int(rng.integers(100))).action
        assert a in TTT.legal_actions(s)
        s = TTT.apply(s, a)
