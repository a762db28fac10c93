"""zerosum.testing: the checks pass on every registered game, and they fail on games broken on purpose.

Each broken game below differs from tic-tac-toe (which passes) by one bug, and the test
names the message its check must give: the checks bite, and each bites for its reason.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from zerosum.games import GAMES, Heuristic, make_game
from zerosum.games.kit import (
    APPLY, FORCING, HEURISTIC, IS_LEGAL, KEY, LEGAL, P0_WINS, Kernels, Layout, helper, kernel, popcount,
)
from zerosum.games.tictactoe import KERNELS as TTT_KERNELS
from zerosum.games.tictactoe import TicTacToe
from zerosum.games.tictactoe import rules as ttt
from zerosum.testing import check_game, check_heuristic, perft, random_positions
from zerosum.testing.plain import as_python

SMALL = {"halma": {"size": 8}}
TTT = make_game("tictactoe")
QUICK = {"games": 20, "seed": 0, "search_depth": 0, "env": False}  # the rules part only, for broken games


# ---- every registered game passes ------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_game_passes(name):
    game = make_game(name, **SMALL.get(name, {}))  # a game that fails to import fails here
    report = check_game(game, games=2, seed=1, search_positions=3, env_cycles=40)
    assert report.positions == sum(report.lengths) + report.games == sum(report.outcomes.values()) + sum(
        report.lengths)
    assert report.searched == 3
    for h in [*game.heuristics, "zero"]:
        r = check_heuristic(game, h, positions=8, search_positions=1)
        assert r.compared and r.searched == 1


@pytest.mark.parametrize("variant", [{}, {"misere": True}, {"piles": (2, 2, 3)}])
def test_nim_variants_pass(variant):
    check_game(make_game("nim", **variant), games=10, seed=2, search_positions=4, env_cycles=40)
    check_heuristic(make_game("nim", **variant), "nim_sum", positions=20)


def test_transpositions_are_found_and_keys_agree():
    report = check_game(TTT, **QUICK)
    assert report.transpositions > 0 and report.distinct > report.games


class Renamed(TicTacToe):
    """Tic-tac-toe under a name with no registered env: the env check builds ZerosumEnv."""

    name = "tictactoe_renamed"


def test_a_game_without_a_registered_env_gets_the_generic_env():
    assert check_game(Renamed(), games=3, search_positions=2, env_cycles=40).games == 3


# ---- random positions and perft --------------------------------------------------------------
def test_random_positions():
    first = random_positions(TTT, 30, seed=4, max_plies=6)
    assert len(first) == 30 and not any(TTT.is_terminal(s) for s in first)
    assert all(np.array_equal(a, b) for a, b in zip(first, random_positions(TTT, 30, seed=4, max_plies=6)))
    deep = random_positions(TTT, 20, seed=4, min_plies=5, terminal=True)
    assert any(TTT.is_terminal(s) for s in deep) and all(popcount(s[0] | s[1]) >= 5 for s in deep)
    with pytest.raises(ValueError, match="found only 0 of 3"):
        random_positions(TTT, 3, seed=0, min_plies=9)  # after 9 plies every game is over


def test_perft():
    assert [perft(TTT, TTT.initial_state(), d) for d in (1, 2, 3)] == [9, 72, 504]


# ---- broken rules kernels ---------------------------------------------------------------------
@kernel(KEY)
def key_without_o(params, s):  # pragma: no cover - compiled
    return s[0]  # the bug: O's marks are not in the key


@kernel(APPLY)
def apply_in_place(params, s, a, child):  # pragma: no cover - compiled
    p = ttt.player(params, s)
    s[p] |= 1 << a  # the bug: the move is written into the input too
    child[0] = s[0]
    child[1] = s[1]


@kernel(IS_LEGAL)
def any_cell_is_legal(params, s, a):  # pragma: no cover - compiled
    return 0 <= a < 9  # the bug: occupied cells pass


@kernel(LEGAL)
def all_but_the_last(params, s, out):  # pragma: no cover - compiled
    return max(ttt.legal(params, s, out) - 1, 1)  # the bug: the last move's position is never reached


@kernel(LEGAL)
def past_the_board(params, s, out):  # pragma: no cover - compiled
    n = ttt.legal(params, s, out)
    out[n - 1] = 9  # the bug: the last move is an action past the board
    return n


@kernel(FORCING)
def forcing_past_the_buffer(params, s, out):  # pragma: no cover - compiled
    n = ttt.legal(params, s, out)
    out[9] = 0  # the bug: a write past max_moves (9), which the search's buffers would not survive
    return n


def _tictactoe_with(**changed):
    fields = {f: getattr(TTT_KERNELS, f) for f in ("legal", "apply", "status", "player", "key", "observe", "order")}
    return Kernels(**{**fields, **changed})


KEY_WITHOUT_O = _tictactoe_with(key=key_without_o)
APPLY_IN_PLACE = _tictactoe_with(apply=apply_in_place)
ANY_CELL = _tictactoe_with(is_legal=any_cell_is_legal)
MISSES_A_POSITION = _tictactoe_with(distinct=all_but_the_last)
LISTS_AN_ILLEGAL_MOVE = _tictactoe_with(distinct=past_the_board)
WRITES_PAST_MAX_MOVES = _tictactoe_with(forcing=forcing_past_the_buffer)


def _broken(cls_name, name, kernels):
    """Tic-tac-toe under ``name`` with the module-level ``kernels`` (one of them broken)."""
    return type(cls_name, (TicTacToe,), {"name": name, "kernels": kernels, "__module__": __name__})


KeyIgnoresPartOfTheState = _broken("KeyIgnoresPartOfTheState", "broken_key", KEY_WITHOUT_O)
ApplyMutatesItsInput = _broken("ApplyMutatesItsInput", "broken_apply", APPLY_IN_PLACE)
IsLegalDisagrees = _broken("IsLegalDisagrees", "broken_is_legal", ANY_CELL)
DistinctMissesAPosition = _broken("DistinctMissesAPosition", "broken_distinct", MISSES_A_POSITION)
DistinctListsAnIllegalMove = _broken("DistinctListsAnIllegalMove", "broken_distinct_move", LISTS_AN_ILLEGAL_MOVE)
ForcingWritesPastMaxMoves = _broken("ForcingWritesPastMaxMoves", "broken_forcing", WRITES_PAST_MAX_MOVES)


@pytest.mark.parametrize(("broken", "message"), [
    (ForcingWritesPastMaxMoves, r"the forcing kernel returned \d moves and wrote slot 9 past max_moves=9"),
    (DistinctMissesAPosition, r"distinct kernel's actions \[.*\] miss the position legal action \d reaches"),
    (DistinctListsAnIllegalMove, r"distinct kernel gave \[.*9\]: ascending legal actions"),
])
def test_a_moves_kernel_that_writes_past_its_buffer_or_misses_or_adds_moves_fails(broken, message):
    with pytest.raises(AssertionError, match=message):
        check_game(broken(), **QUICK)


def test_a_key_that_ignores_part_of_the_state_fails():
    with pytest.raises(AssertionError, match="two different positions share key"):
        check_game(KeyIgnoresPartOfTheState(), **QUICK)


def test_an_apply_that_mutates_its_input_fails():
    with pytest.raises(AssertionError, match=r"apply\(state, \d\) modified its input"):
        check_game(ApplyMutatesItsInput(), **QUICK)


def test_an_is_legal_kernel_that_disagrees_with_legal_fails():
    with pytest.raises(AssertionError, match="illegal action \\d was accepted|is_legal kernel says"):
        check_game(IsLegalDisagrees(), **QUICK)


# ---- broken Python methods --------------------------------------------------------------------
class MaskMarksAnOccupiedCell(TicTacToe):
    name = "broken_mask"

    def legal_mask(self, state):
        mask = super().legal_mask(state)
        mask[np.flatnonzero(mask == 0)[:1]] = 1  # the bug: one illegal action is marked
        return mask


class NotZeroSum(TicTacToe):
    name = "broken_returns"

    def returns(self, state):
        return (1.0, 0.0) if self.outcome(state) == P0_WINS else super().returns(state)  # the bug: 1 + 0


class NamesDoNotRoundTrip(TicTacToe):
    name = "broken_text"

    def string_to_action(self, text, state=None):
        return (super().string_to_action(text, state) + 1) % 9  # the bug: off by one


class TooShortMaximum(TicTacToe):
    name = "broken_length"

    def layout(self, variant):
        return Layout(params=[0], initial=[0, 0], num_actions=9, max_moves=9, max_game_length=6,  # the bug: 6 < 9
                      observation_shape=(3, 3, 3))


class ObservationOutOfRange(TicTacToe):
    name = "broken_observation"

    def observation(self, state, player):
        return super().observation(state, player) * 2  # the bug: values 0 and 2


@pytest.mark.parametrize(("broken", "message"), [
    (MaskMarksAnOccupiedCell, "the mask marks"),
    (NotZeroSum, "zero-sum"),
    (NamesDoNotRoundTrip, r"string_to_action\('\w\d'\) gave"),
    (TooShortMaximum, "goes on after max_game_length=6"),
    (ObservationOutOfRange, r"values 0\.\.2"),
], ids=lambda x: getattr(x, "name", None))
def test_a_broken_method_fails(broken, message):
    with pytest.raises(AssertionError, match=message):
        check_game(broken(), **QUICK)


# ---- broken heuristics ------------------------------------------------------------------------
@kernel(HEURISTIC)
def own_marks(params, s, player):  # pragma: no cover - compiled
    return float(popcount(s[player]))  # h(s, 0) != -h(s, 1)


@kernel(HEURISTIC)
def huge(params, s, player):  # pragma: no cover - compiled
    return 1e6 * (popcount(s[player]) - popcount(s[1 - player]))


WEIGHTS = np.ones(9)


@kernel(HEURISTIC)
def weighted(params, s, player):  # pragma: no cover - compiled
    v = 0.0
    for c in range(9):
        v += WEIGHTS[c] * (((s[player] >> c) & 1) - ((s[1 - player] >> c) & 1))
    return v


def test_a_heuristic_falsely_claiming_symmetry_fails():
    check_heuristic(TTT, Heuristic("own_marks", own_marks, symmetric=False))  # honest: passes
    with pytest.raises(AssertionError, match="claims symmetric"):
        check_heuristic(TTT, Heuristic("own_marks", own_marks, symmetric=True))


def test_a_heuristic_out_of_range_fails():
    with pytest.raises(AssertionError, match=r"\|h\| <= 10000"):
        check_heuristic(TTT, Heuristic("huge", huge, symmetric=True))


def test_a_heuristic_whose_compiled_and_python_versions_differ_fails():
    check_heuristic(TTT, Heuristic("weighted", weighted, symmetric=True))
    WEIGHTS[4] = 3.0  # numba froze the array when it compiled; Python reads the new value
    try:
        with pytest.raises(AssertionError, match="compiled .* as plain Python"):
            check_heuristic(TTT, Heuristic("weighted", weighted, symmetric=True))
    finally:
        WEIGHTS[4] = 1.0


@njit
def _twice(x):  # pragma: no cover - compiled
    return 2 * x


@njit
def _plus_twice(x, y):  # pragma: no cover - compiled
    return x + _twice(y)


def test_as_python_runs_a_kernel_and_its_helpers_without_compiling_them():
    """numba compiles a helper called from a kernel's py_func as a function of its own; the
    all-Python version compiles nothing."""
    global _twice
    f = as_python(_plus_twice)
    assert f(1, 2) == 5 and f.__name__ == "_plus_twice"
    assert _plus_twice.signatures == [] and _twice.signatures == []
    assert _plus_twice.py_func(1, 2) == 5 and _twice.signatures != []  # the py_func compiles its helper
    assert as_python(len) is len  # not compiled by numba: as it is
    assert as_python(_plus_twice) is f  # the same function while no global was rebound (one bridge a heuristic)
    compiled_twice = _twice
    _twice = njit(lambda x: 3 * x)  # rebound: a new plain version, which calls the new one
    try:
        assert as_python(_plus_twice) is not f and as_python(_plus_twice)(1, 2) == 7
    finally:
        _twice = compiled_twice


@helper
def _scrambled(x):  # pragma: no cover - compiled
    return (int(x) * 6364136223846793005) % 7  # numba's int64 product wraps; Python's int does not


@kernel(HEURISTIC)
def scrambled(params, s, player):  # pragma: no cover - compiled
    return float(_scrambled(s[player] + 1) - _scrambled(s[1 - player] + 1))


def test_a_helper_that_relies_on_int64_wrapping_is_compared_with_its_compiled_version():
    """All in Python, the helper's product grows past 64 bits and the value differs; the
    check then runs the kernel's py_func with the helper compiled, which agrees."""
    positions = random_positions(TTT, 20, seed=1)
    python = as_python(scrambled)
    assert any(python(TTT.params, s, 0) != scrambled(TTT.params, s, 0) for s in positions)
    report = check_heuristic(TTT, Heuristic("scrambled", scrambled, symmetric=True))
    assert report.compared and report.searched == 3
