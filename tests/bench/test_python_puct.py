"""bench/_python_puct.py, the plain-Python PUCT that the benchmark runs beside the compiled search."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from zerosum.games.registry import make_game

# loaded from its file: putting bench/ on sys.path would let its scripts shadow installed modules
_SPEC = importlib.util.spec_from_file_location("_python_puct", Path(__file__).resolve().parents[2] / "bench"
                                              / "_python_puct.py")
_MODULE = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_MODULE)
python_puct = _MODULE.python_puct


def uniform(obs, mask):
    return np.zeros(mask.shape, np.float32), np.zeros(len(mask), np.float32)


@pytest.mark.parametrize(("name", "variant"), [("tictactoe", {}), ("nim", {"piles": (2, 3)}),
                                               ("nine_mens_morris", {}), ("connect_four", {})])
def test_visits_are_on_legal_moves_only_and_sum_to_sims(name, variant):
    game = make_game(name, **variant)
    rng = np.random.default_rng(1)
    state = game.initial_state()
    for _ in range(6):
        visits = python_puct(game, state, uniform, sims=40)
        assert visits.shape == (game.num_actions,) and visits.sum() == 40
        mask = game.legal_mask(state)
        assert np.all(visits[mask == 0] == 0)
        legal = game.legal_actions(state)
        state = game.apply(state, int(legal[rng.integers(len(legal))]))
        if game.is_terminal(state):
            break


def test_a_win_in_one_gets_most_visits_and_a_finished_game_is_refused():
    game = make_game("tictactoe")
    state = game.initial_state()
    for a in (0, 3, 1, 4):  # X on a1 b1, O on a2 b2: X wins at c1 (action 2)
        state = game.apply(state, a)
    visits = python_puct(game, state, uniform, sims=200)
    assert int(np.argmax(visits)) == 2
    with pytest.raises(ValueError, match="not over"):
        python_puct(game, game.apply(state, 2), uniform, sims=10)


def test_it_calls_the_evaluator_one_leaf_at_a_time():
    game = make_game("connect_four")
    sizes = []

    def counting(obs, mask):
        sizes.append(len(obs))
        assert obs.dtype == np.int8 and obs.shape[1:] == game.observation_shape
        return uniform(obs, mask)

    python_puct(game, game.initial_state(), counting, sims=30)
    assert set(sizes) == {1} and len(sizes) == 31  # the root, then one new leaf per simulation
