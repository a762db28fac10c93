"""64-bit boards: the toolkit's ``bit``, ``shr`` and ``TOP_BIT`` agree inside kernels and in
Python, states with bit 63 can be written as Python ints, and a game whose rules never end
it (the arithmetic-shift mistake) is stopped at ``max_game_length`` with an error naming
the game and the limit: by ``check_game``, the env's step, compiled random playouts and
MCTS, none of which may loop for ever."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from tests.games.shifter import Shifter
from zerosum.envs import ZerosumEnv
from zerosum.evaluation.match import play_match
from zerosum.games import GameLengthError
from zerosum.games.kit import TOP_BIT, bit, i64, i64_array, shr
from zerosum.search import MCTS, mcts
from zerosum.testing import check_game, perft

VALUES = [0, 1, 5, TOP_BIT, -1, TOP_BIT | 1, i64(0x8000_0000_0000_00FF), i64(0x7FFF_FFFF_FFFF_FFFF), -12345]


@njit(cache=True)
def _compiled_shr(x: int, n: int) -> int:
    return shr(x, n)


@njit(cache=True)
def _compiled_bit(i: int) -> int:
    return bit(i)


def test_shr_is_a_logical_shift_in_python_and_in_compiled_code():
    for x in VALUES:
        for n in range(64):
            want = i64((x & ((1 << 64) - 1)) >> n)
            assert shr(x, n) == want == _compiled_shr(x, n), (x, n)
    assert shr(TOP_BIT, 63) == 1 and shr(-1, 1) == (1 << 63) - 1
    assert shr(TOP_BIT, 1) != TOP_BIT >> 1  # >> on an int64 is arithmetic: the mistake shr avoids
    with pytest.raises(ValueError, match="0 to 63 bits; got 64"):
        shr(1, 64)


def test_bit_is_one_shifted_as_an_int64():
    assert [bit(i) for i in range(64)] == [_compiled_bit(i) for i in range(64)] == [i64(1 << i) for i in range(64)]
    assert bit(63) == TOP_BIT == -(1 << 63)
    with pytest.raises(ValueError, match=r"square in \[0, 63\]; got 64"):
        bit(64)


def test_states_with_bit_63_can_be_written_as_python_ints():
    assert i64_array([1 << 63, 5]).tolist() == [TOP_BIT, 5]
    assert i64_array(np.array([1 << 63], dtype=np.uint64)).tolist() == [TOP_BIT]
    with pytest.raises(ValueError, match=r"i64 takes an int in \[-2\*\*63, 2\*\*64\); got 18446744073709551616"):
        i64_array([1 << 64])
    game = Shifter()
    start = game.initial_state()  # the layout gave the token as 1 << 63
    assert start.tolist() == [TOP_BIT, 0] and np.array_equal(game.position(63), start)
    assert game.legal_actions([1 << 63, 0]).tolist() == [0, 1]  # a plain list with an unsigned value works too
    assert game.apply([1 << 63, 0], 1).tolist() == [1 << 61, 1]


def test_the_logical_game_ends_and_passes_the_conformance_kit():
    game = Shifter()
    assert [perft(game, game.initial_state(), d) for d in range(1, 6)] == [2, 4, 8, 16, 32]
    report = check_game(game, games=10, seed=0, search_depth=0, env_cycles=20)  # the search: tested elsewhere
    assert max(report.lengths) <= 64 and report.outcomes["draws"] == 0
    assert game.random_playouts(game.initial_state(), 50)["moves"] > 0
    assert mcts(game, game.initial_state(), sims=50, seed=0).action in (0, 1)


def test_a_game_that_never_ends_is_stopped_at_max_game_length():
    broken = Shifter(logical=False)
    assert [perft(broken, broken.initial_state(), d) for d in range(1, 6)] == [2, 4, 8, 16, 32]  # perft is right
    with pytest.raises(AssertionError, match=r"Shifter\(logical=False\).*goes on after max_game_length=64 moves"):
        check_game(broken, games=2, seed=0)
    with pytest.raises(GameLengthError, match=r"Shifter\(logical=False\) went on past its max_game_length=64 moves "
                                              r"in 3 of 3 random playouts"):
        broken.random_playouts(broken.initial_state(), 3)  # compiled: bounded, then raised here
    with pytest.raises(GameLengthError, match=r"max_game_length=64 moves in an MCTS rollout"):
        MCTS(broken).search(broken.initial_state(), sims=10, seed=0)
    env = ZerosumEnv(broken, name="shifter_v0")
    env.reset()
    with pytest.raises(GameLengthError, match=r"max_game_length=64 moves in shifter_v0's step"):
        for _ in range(65):
            env.step(0)


def test_a_match_scores_a_game_that_never_ends_as_an_error():
    from zerosum.agents import RandomAgent

    broken = Shifter(logical=False)
    result = play_match(broken, [RandomAgent(rng=0), RandomAgent(rng=1)])
    assert "max_game_length=64" in (result.error or "")
