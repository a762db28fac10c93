"""The solved agent: perfect play from a memoised full solve, random among the best moves."""

import numpy as np
import pytest

from zerosum.agents import AgentSpecError, make_agent
from zerosum.evaluation.evaluate import evaluate
from zerosum.games import make_game
from zerosum.search import alphabeta
from zerosum.testing import random_positions


def test_values_match_alphabeta_to_the_end():
    game = make_game("tictactoe")
    agent = make_agent("solved", rng=0)
    assert agent.value(game, game.initial_state()) == 0.0  # tic-tac-toe is a draw
    for s in random_positions(game, 60, seed=2, max_plies=6):
        exact = alphabeta(game, s, 9).value
        v = agent.value(game, s)
        assert np.sign(v) == np.sign(exact), s
        child = game.apply(s, agent.act(game, s))  # its move keeps the value
        if not game.is_terminal(child):
            assert np.sign(-agent.value(game, child)) == np.sign(v)


def test_never_loses_and_breaks_ties_at_random():
    report = evaluate("solved", "tictactoe", ["random", "alphabeta(depth=9)"], games=40, seed=1)
    assert report["random"].first.losses == report["random"].second.losses == 0
    assert report["alphabeta(depth=9)"].first.draws == 20 and report["alphabeta(depth=9)"].second.draws == 20
    game = make_game("tictactoe")
    agent = make_agent("solved", rng=3)
    assert len({agent.act(game, game.initial_state()) for _ in range(40)}) == 9  # every first move draws


def test_nim_and_games_too_large():
    nim = make_game("nim", piles=(1, 2, 3))  # nim-sum 0: the mover loses
    assert make_agent("solved").value(nim, nim.initial_state()) < 0
    with pytest.raises(ValueError, match="pentago has more than max_states=1,000 positions"):
        make_agent("solved(max_states=1000)").prepare(make_game("pentago"))
    with pytest.raises(AgentSpecError, match="max_states=0 is not allowed"):
        make_agent("solved(max_states=0)")
