"""AlphaBeta.search(window=...): fail-soft bounds outside the window, the exact value inside."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.games import make_game
from zerosum.search import AlphaBeta, minimax


@pytest.mark.parametrize("seed", range(4))
def test_window_gives_the_value_inside_and_bounds_outside(seed):
    g = make_game("connect_four")
    rng = np.random.default_rng(seed)
    s = g.initial_state()
    for _ in range(8):
        s = g.apply(s, int(rng.choice(g.legal_actions(s))))
    exact = minimax(g, s, 4).value
    ab = AlphaBeta(g, quiescence=False)
    assert ab.search(s, 4, window=(exact - 1, exact + 1)).value == pytest.approx(exact)
    low = ab.search(s, 4, window=(exact + 1, exact + 50)).value  # the value is below: an upper bound
    assert exact <= low <= exact + 1
    high = ab.search(s, 4, window=(exact - 50, exact - 1)).value  # above: a lower bound
    assert exact - 1 <= high <= exact
    assert ab.search(s, 4).value == pytest.approx(exact)  # the next search has the full window again


def test_bad_window_is_refused():
    g = make_game("tictactoe")
    with pytest.raises(ValueError, match="alpha < beta"):
        AlphaBeta(g).search(g.initial_state(), 2, window=(1.0, 1.0))
