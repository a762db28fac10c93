"""worst_case: every line against a deterministic policy; 0 lost proves it never loses."""

import pytest

from zerosum.evaluation.exhaustive import worst_case


def test_perfect_play_loses_no_line_and_a_shallow_search_does():
    for seat in (0, 1):
        for plies in (0, 1):
            r = worst_case("alphabeta(depth=9, tie_break=off)", "tictactoe", seat, opening_plies=plies)
            assert r.losses == 0 and r.lines == r.wins + r.draws and r.positions > 0
    weak = worst_case("alphabeta(depth=1, tie_break=off)", "tictactoe", 1)
    assert weak.losses > 0  # one ply does not see a fork coming
    # the opening ply of seat 0 includes the policy's own first move: a superset of the empty board's lines
    assert worst_case("alphabeta(depth=1, tie_break=off)", "tictactoe", 0, opening_plies=1).lines > \
        worst_case("alphabeta(depth=1, tie_break=off)", "tictactoe", 0).lines


def test_bad_input_and_games_too_large():
    with pytest.raises(ValueError, match="seat=2 is not allowed"):
        worst_case("random", "tictactoe", 2)
    with pytest.raises(ValueError, match="opening_plies=-1 is not allowed"):
        worst_case("random", "tictactoe", 0, opening_plies=-1)
    with pytest.raises(ValueError, match="more than max_positions=50 positions"):
        worst_case("alphabeta(depth=1)", "connect_four", 0, max_positions=50)
