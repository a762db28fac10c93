"""``zerosum evaluate``: agents scored against a ladder from the same paired openings, with intervals."""

from __future__ import annotations

import json

import pytest

from zerosum.cli.evaluate import evaluate_main
from zerosum.evaluation.ladder import equal_time_opponent, score_ladder


def test_scores_each_agent_against_each_opponent_with_a_wilson_interval(capsys):
    code = evaluate_main(["alphabeta(depth=9)", "random", "--game", "tictactoe", "--opponents",
                          "random; alphabeta(depth=1)", "--games", "6", "--json"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    rows = doc["rows"]
    assert [(r["agent"], r["opponent"]) for r in rows] == [
        ("alphabeta(depth=9)", "random"), ("alphabeta(depth=9)", "alphabeta(depth=1)"),
        ("random", "random"), ("random", "alphabeta(depth=1)")]
    for r in rows:
        assert r["games"] == 6 and r["wins"] + r["draws"] + r["losses"] == 6
        assert r["score"] == pytest.approx((r["wins"] + r["draws"] / 2) / 6, abs=1e-3)
        assert r["low"] <= r["score"] <= r["high"]
    assert rows[0]["losses"] == 0  # perfect play never loses
    assert "load" in doc


def test_the_agents_meet_the_same_openings_and_the_table_names_them(capsys):
    one = score_ladder(["random"], "tictactoe", ["random"], games=8, seed=3, opening_plies=2)
    again = score_ladder(["random"], "tictactoe", ["random"], games=8, seed=3, opening_plies=2)
    assert one[0].wins == again[0].wins and one[0].losses == again[0].losses  # seeded from (seed, opponent, game)
    assert evaluate_main(["random", "--game", "tictactoe", "--opponents", "random", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "random" in out and "95% interval" in out and "load average" in out


def test_mcts_at_the_agents_own_time_a_move_is_one_more_row():
    rows = score_ladder(["alphabeta(depth=2)"], "tictactoe", ["random"], games=2, mcts=True)
    assert [r.opponent.split("(")[0] for r in rows] == ["random", "mcts"]
    assert rows[1].opponent == equal_time_opponent(rows[0].seconds_per_move)


@pytest.mark.parametrize("per_move", [3.2e-05, 0.0, 0.0118, 2.5])
def test_equal_time_works_at_any_agent_speed(per_move, monkeypatch):
    """A fast machine's agent (under 50 us a move: once mcts(time=0.0000), which the grammar refused),
    a time of 0, and slow ones: the spec is made and the match is played, whatever this machine's speed."""
    from zerosum.agents import make_agent
    from zerosum.evaluation import ladder

    spec = equal_time_opponent(per_move)
    assert spec == {3.2e-05: "mcts(time=3.2e-05)", 0.0: "mcts(time=1e-06)", 0.0118: "mcts(time=0.0118)",
                    2.5: "mcts(time=2.5)"}[per_move]
    make_agent(spec)
    monkeypatch.setattr(ladder, "seconds_per_move", lambda report: per_move)  # the agent's speed, pinned
    if per_move < 0.1:  # play it (a slow time would only make the test slow)
        rows = score_ladder(["random"], "tictactoe", ["random"], games=2, mcts=True)
        assert rows[1].opponent == spec and rows[1].games == 2


@pytest.mark.parametrize(("args", "message"), [
    (["random", "--game", "tictactoe", "--opponents", ";"], "at least one agent spec"),
    (["random", "--game", "tictactoe", "--opponents", "random", "--games", "0"], "--games 0"),
    (["random", "--game", "nope", "--opponents", "random"], "unknown env 'nope'"),
    (["nobody", "--game", "tictactoe", "--opponents", "random"], "policy 'nobody' is neither an agent spec"),
])
def test_bad_input_is_one_line_and_exit_code_2(capsys, args, message):
    assert evaluate_main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("zerosum evaluate:")


def test_the_ladder_module_doctest():
    import doctest

    from zerosum.evaluation import ladder

    assert doctest.testmod(ladder).failed == 0
