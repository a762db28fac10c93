"""A game whose kernels list more moves than its declared ``max_moves`` ends in MoveCountError
naming the game, the kernel, the count and max_moves, on every path (zerosum.games.kit.movebuf):
never a crash, never a silently short list. The wrong game is tests/games/growing_game.py:
``max_moves=4`` while ply 2 has 5 legal moves (ply k has 2k + 1)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests.games.growing_game import Growing
from zerosum.envs.aec import ZerosumEnv
from zerosum.games.kit import MoveCountError, ZerosumError, moves_buffer
from zerosum.search import MCTS, AlphaBeta, BatchedSearch, GuidedConfig, alphabeta, minimax, uniform_evaluator
from zerosum.testing import check_game


def message(kernel: str, count: int, where: str = "", max_moves: int = 4) -> str:
    """The error's text: the game, the kernel, the count, what called the kernel, and max_moves."""
    return re.escape(f"Growing(max_moves={max_moves}): its {kernel!r} kernel listed {count} moves in one position (") \
        + f".*{where}.*" + re.escape(f"), more than its max_moves={max_moves}")


@pytest.fixture
def wrong() -> Growing:
    return Growing(max_moves=4)


def test_the_game_is_right_with_its_default_bound():
    game = Growing()
    s = game.position(11)
    assert game.legal_actions(s).tolist() == list(range(23))
    assert alphabeta(game, game.position(9), 3).stats.nodes > 0
    assert issubclass(MoveCountError, ZerosumError)


@pytest.mark.parametrize("native", ["1", "0"])
def test_legal_actions_raise_with_the_count(native, monkeypatch):
    monkeypatch.setenv("ZEROSUM_NATIVE", native)  # the C calls, or numba's entry points
    game = Growing(max_moves=4)
    assert game.legal_actions(game.position(1)).tolist() == [0, 1, 2]  # within the bound: as before
    for _ in range(3):  # the C module's pooled buffers are reused: each call refuses the same way
        with pytest.raises(MoveCountError, match=message("legal", 5)):
            game.legal_actions(game.position(2))
    with pytest.raises(MoveCountError, match=message("legal", 23)):
        game.legal_mask(game.position(11))
    with pytest.raises(MoveCountError, match=message("legal", 5)):
        game.legal_actions([2])  # the generic path (a list, converted)
    assert game.apply(game.position(2), 4).tolist() == [3]  # the checked apply scans the whole list


def test_random_playouts_raise(wrong):
    with pytest.raises(MoveCountError, match=message("legal", 5, "random_playouts")):
        wrong.random_playouts(wrong.initial_state(), 10)


def test_check_game_fails_with_the_count_not_a_crash(wrong):
    with pytest.raises(AssertionError, match="'legal' kernel listed 5 moves"):
        check_game(wrong, games=3, seed=0)


def test_alphabeta_stops_below_its_root(wrong):
    s = wrong.initial_state()  # 1 move here, 3 below: the overflow is two plies down
    with pytest.raises(MoveCountError, match=message("legal", 5, "alpha-beta")):
        alphabeta(wrong, s, 4)
    with pytest.raises(MoveCountError, match=message("legal", 5)):
        AlphaBeta(wrong).search(s, time=0.05)
    with pytest.raises(MoveCountError, match=message("legal", 5, "minimax")):
        minimax(wrong, s, 3)
    assert alphabeta(wrong, s, 2).stats.nodes > 0  # a search that never meets the overflow is unchanged


def test_the_quiescence_search_names_the_forcing_kernel(wrong):
    with pytest.raises(MoveCountError, match=message("forcing", 5)):
        alphabeta(wrong, wrong.position(1), 1, quiescence=True)


def test_alphabeta_inline_tier(wrong, monkeypatch):
    monkeypatch.setenv("ZEROSUM_TIER", "inline")  # the game's own compiled copy of the search
    engine = AlphaBeta(wrong)
    with pytest.raises(MoveCountError, match=message("legal", 5)):
        engine.search(wrong.initial_state(), 4)


def test_mcts_raises(wrong):
    with pytest.raises(MoveCountError, match=message("legal", 5, "MCTS")):
        MCTS(wrong).search(wrong.initial_state(), sims=200, seed=0)


def test_the_guided_search_raises(wrong):
    search = BatchedSearch(wrong, lanes=2, config=GuidedConfig(rule="gumbel", gumbel_k=4))
    search.set_root(0, wrong.position(1))
    search.set_root(1, wrong.position(3))
    with pytest.raises(MoveCountError, match=message("legal", 7, "guided search")):
        search.run(uniform_evaluator, sims=8)


def test_the_aec_env_raises(wrong):
    env = ZerosumEnv(wrong, name="growing_test")
    env.reset(seed=0)
    env.step(0)
    with pytest.raises(MoveCountError, match=message("legal", 5)):
        env.step(0)
        env.observe(env.agent_selection)


def test_the_single_agent_training_env_raises(wrong):
    pytest.importorskip("gymnasium")
    from zerosum.training.single_agent import SingleAgentEnv

    env = SingleAgentEnv(wrong, opponent="random", seat=0)
    with pytest.raises(MoveCountError, match=message("legal", 5, "SingleAgentEnv")):
        env.reset(seed=0)
        for _ in range(3):
            env.step(0)


@pytest.mark.parametrize("opponent", ["random", "alphabeta(depth=3)"])
def test_the_vector_env_raises(wrong, opponent):
    from zerosum.envs import make_vec

    envs = make_vec(wrong, num_envs=2, opponent=opponent, learner_seat=0, seed=0)
    with pytest.raises(MoveCountError, match=message("legal", 5, "vector env")):
        envs.reset(seed=0)
        for _ in range(3):
            envs.step(np.zeros(2, np.int64))


def test_a_moves_buffer_has_room_past_max_moves():
    one = moves_buffer(4, 32)
    assert one.shape == (4,) and one.base is not None and one.base.shape[0] >= 32
    rows = moves_buffer(4, 32, rows=3, extra=1)
    assert rows.shape == (3, 5) and rows.flags.c_contiguous
    assert rows.base.shape[0] >= 2 * 5 + 33  # the last row's start, then every action and the count


def test_the_batched_rules_raise(wrong):
    from zerosum.games.kit.batched import BatchedRules

    rules = BatchedRules(wrong)
    states = np.stack([wrong.position(1), wrong.position(2)])
    with pytest.raises(MoveCountError, match=message("legal", 5, "BatchedRules.masks")):
        rules.masks(states)
    with pytest.raises(MoveCountError, match=message("legal", 5, "BatchedRules.random_moves")):
        rules.random_moves(states, 0)
    assert rules.masks(states[:1]).sum() == 3  # within the bound: as before
