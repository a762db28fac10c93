"""zerosum.testing's OpenSpiel helpers: compare_with_openspiel passes where a game equals OpenSpiel's
and names the game and the step where one differs; openspiel_perft counts as zerosum's perft."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from zerosum.games import Outcome, make_game
from zerosum.games.kit import popcount
from zerosum.games.tictactoe import TicTacToe
from zerosum.testing import OpenSpielReport, compare_with_openspiel, openspiel_perft, perft

ROOT = Path(__file__).resolve().parents[1]
pyspiel = pytest.importorskip("pyspiel")
TTT = make_game("tictactoe")
OS_TTT = pyspiel.load_game("tic_tac_toe")


def played(openspiel_game, games, pick):
    """The actions of ``games`` random games on OpenSpiel alone, ``pick(n)`` choosing the index."""
    counts: Counter[int] = Counter()
    for _ in range(games):
        st = openspiel_game.new_initial_state()
        while not st.is_terminal():
            legal = st.legal_actions()
            a = legal[pick(len(legal))]
            counts[a] += 1
            st.apply_action(a)
    return counts


# ---- a game equal to OpenSpiel's passes ---------------------------------------------------------
def test_tictactoe_equals_openspiel():
    report = compare_with_openspiel(TTT, OS_TTT, 40, seed=3)
    assert isinstance(report, OpenSpielReport) and report.games == 40 and len(report.returns) == 40
    assert report.steps == report.plies + 40 == sum(report.actions.values()) + 40
    assert 40 * 5 <= report.plies <= 40 * 9
    assert sum(report.outcomes.values()) == 40 and set(report.outcomes) <= set(Outcome)
    assert all(r in {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)} for r in report.returns)


@pytest.mark.parametrize("variant", [{}, {"rows": 4, "columns": 5, "x_in_row": 3}])
def test_connect_four_equals_openspiel_and_the_checks_run_at_every_step(variant):
    g = make_game("connect_four", **variant)
    seen, named = [], []

    def board(s, o):
        seen.append(o.is_terminal())
        assert [r.lower() for r in g.cells(s)] == str(o).split()

    def name(s, o, a):
        named.append(a)
        assert a in o.legal_actions() and not o.is_terminal()

    report = compare_with_openspiel(g, pyspiel.load_game("connect_four", variant), 5, 11, board, check_action=name)
    assert len(seen) == report.steps and sum(seen) == report.games == 5
    assert len(named) == report.plies and Counter(named) == report.actions


def test_the_games_are_the_seeded_draws_from_openspiels_legal_list():
    """``legal[rng.integers(len(legal))]`` with ``np.random.default_rng(seed)``: the existing tests' games."""
    report = compare_with_openspiel(TTT, OS_TTT, 30, seed=7)
    rng = np.random.default_rng(7)
    assert report.actions == played(OS_TTT, 30, rng.integers)
    assert compare_with_openspiel(TTT, OS_TTT, 30, seed=7) == report
    assert compare_with_openspiel(TTT, OS_TTT, 30, seed=8).actions != report.actions


def test_a_generator_goes_on_and_a_random_random_draws_with_randrange():
    rng = np.random.default_rng(5)
    first, second = (compare_with_openspiel(TTT, OS_TTT, 10, rng) for _ in range(2))
    again = np.random.default_rng(5)
    assert first.actions == played(OS_TTT, 10, again.integers)
    assert second.actions == played(OS_TTT, 10, again.integers)
    r = random.Random(9)
    assert compare_with_openspiel(TTT, OS_TTT, 10, random.Random(9)).actions == played(OS_TTT, 10, r.randrange)


# ---- a game that differs fails at the step where it differs -------------------------------------
def test_another_variant_fails_where_the_terminal_flags_differ():
    """Connect three against OpenSpiel's connect four: the first three in a row ends only ours."""
    with pytest.raises(AssertionError, match=r"game \d+ step \d+ .*: terminal flags differ: zerosum True, OpenSpiel "
                                             r"False"):
        compare_with_openspiel(make_game("connect_four", x_in_row=3), pyspiel.load_game("connect_four"), 20, 0)


class SkipsAMoveAtPly3(TicTacToe):
    """Tic-tac-toe whose legal actions lose the last one after three marks."""

    name = "tictactoe_skips"

    def legal_actions(self, state):
        legal = super().legal_actions(state)
        return legal[:-1] if popcount(int(state[0]) | int(state[1])) == 3 else legal


class WrongPlayerAtPly2(TicTacToe):
    """Tic-tac-toe that names the wrong player to move after two marks."""

    name = "tictactoe_wrong_player"

    def current_player(self, state):
        p = super().current_player(state)
        return 1 - p if popcount(int(state[0]) | int(state[1])) == 2 else p


def test_legal_actions_that_differ_at_one_step_are_named():
    with pytest.raises(AssertionError, match=r"game 0 step 3 \(after OpenSpiel's actions \[\d, \d, \d\]\): "
                                             r"legal actions differ: zerosum \[.*\], OpenSpiel \[.*\]"):
        compare_with_openspiel(SkipsAMoveAtPly3(), OS_TTT, 3, 0)


def test_a_wrong_player_to_move_is_named():
    with pytest.raises(AssertionError, match=r"game 0 step 2 .*players to move differ: zerosum 1, OpenSpiel 0"):
        compare_with_openspiel(WrongPlayerAtPly2(), OS_TTT, 3, 0)


def test_a_failing_check_is_named_with_its_step():
    def at_step_4(s, o):
        assert len(o.history()) != 4, "the board differs"

    def never(s, o, a):
        raise AssertionError("the name differs")

    with pytest.raises(AssertionError, match=r"game 0 step 4 .*: check failed: the board differs"):
        compare_with_openspiel(TTT, OS_TTT, 3, 0, at_step_4)
    with pytest.raises(AssertionError, match=r"game 0 step 0 .*: check_action of action \d failed: the name differs"):
        compare_with_openspiel(TTT, OS_TTT, 3, 0, check_action=never)


# ---- perft on OpenSpiel's side --------------------------------------------------------------------
def test_openspiel_perft_counts_as_zerosum_perft():
    start = OS_TTT.new_initial_state()
    counts = [openspiel_perft(start, d) for d in range(7)]
    assert counts == [1, 9, 72, 504, 3024, 15120, 54720]
    assert counts[1:4] == [perft(TTT, TTT.initial_state(), d) for d in range(1, 4)]
    won = OS_TTT.new_initial_state()
    for a in (0, 3, 1, 4, 2):  # x takes the top row
        won.apply_action(a)
    assert [openspiel_perft(won, d) for d in (0, 1, 2)] == [1, 0, 0]


def test_zerosum_testing_does_not_import_pyspiel():
    code = "import sys, zerosum.testing; assert 'pyspiel' not in sys.modules, 'pyspiel imported'"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
