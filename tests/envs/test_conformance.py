"""PettingZoo's own tests for every env and every variant: the one place they are listed.

Each game's issue adds its cases to CASES.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from zerosum.envs import ENVS, make

CASES = [
    ("tictactoe_v0", {}),
    ("nim_v0", {}),
    ("nim_v0", {"piles": (3, 4, 5)}),
    ("nim_v0", {"misere": True}),
    ("nim_v0", {"piles": (2, 2), "misere": True}),
    ("halma_v0", {}),
    ("halma_v0", {"size": 10}),
    ("halma_v0", {"size": 8}),
    ("pentago_v0", {}),
    ("pentago_v0", {"win_before_rotation": False}),
    ("nine_mens_morris_v0", {}),
    ("nine_mens_morris_v0", {"protect_mills": False}),
    ("nine_mens_morris_v0", {"flying": False}),
    ("nine_mens_morris_v0", {"no_return": True}),
    ("nine_mens_morris_v0", {"max_turns": 40}),
    ("nine_mens_morris_v0", {"protect_mills": False, "flying": False, "no_return": True, "max_turns": 120}),
    ("connect_four_v0", {}),
    ("connect_four_v0", {"rows": 5, "columns": 4, "x_in_row": 3}),
    ("othello_v0", {}),
    ("othello_v0", {"size": 6}),
    ("othello_v0", {"size": 10}),
    ("hex_v0", {}),
    ("hex_v0", {"board_size": 5, "swap": True}),
    ("hex_v0", {"num_rows": 4, "num_cols": 7}),
    ("y_v0", {}),
    ("y_v0", {"board_size": 5}),
    ("havannah_v0", {}),
    ("havannah_v0", {"board_size": 4, "swap": True}),
    ("breakthrough_v0", {}),
    ("breakthrough_v0", {"rows": 5, "columns": 7}),
    ("checkers_v0", {}),
    ("checkers_v0", {"rows": 7, "columns": 7}),
    ("gomoku_v0", {}),
    ("gomoku_v0", {"size": 7, "connect": 4, "wrap": True}),
    ("gomoku_v0", {"m": 7, "n": 5, "connect": 4}),
    ("chess_v0", {}),
    ("go_v0", {}),
    ("go_v0", {"board_size": 5, "komi": 0.0}),
    ("go_v0", {"board_size": 19, "handicap": 3}),
    ("mancala_v0", {}),
    ("oware_v0", {}),
    ("oware_v0", {"num_houses_per_player": 3, "num_seeds_per_house": 2}),
    ("dots_and_boxes_v0", {}),
    ("dots_and_boxes_v0", {"num_rows": 3, "num_cols": 4, "utility_margin": True}),
    ("dots_and_boxes_v0", {"num_rows": 1, "num_cols": 5}),
    ("clobber_v0", {}),
    ("clobber_v0", {"rows": 8, "columns": 8}),
    ("ultimate_tic_tac_toe_v0", {}),
    ("lines_of_action_v0", {}),
    ("lines_of_action_v0", {"max_game_length": 60}),
    ("amazons_v0", {}),
    ("amazons_v0", {"board_size": 6}),
]
IDS = [f"{name}-{variant}" for name, variant in CASES]


def test_every_env_has_a_case():
    assert {name for name, _ in CASES} == set(ENVS)


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
@pytest.mark.parametrize("raw", [False, True], ids=["env", "raw_env"])
def test_api(name, variant, raw):
    api_test(make(name, raw=raw, **variant), num_cycles=200)


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_seed(name, variant):
    seed_test(lambda: make(name, **variant), num_cycles=200)


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_render(name, variant, capsys):
    render_test(lambda render_mode=None: make(name, render_mode=render_mode, **variant))


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_many_seeded_games_through_env(name, variant):
    """api_test and seed_test play one game each; play 50 more and check the bookkeeping."""
    env = make(name, **variant)
    rng = np.random.default_rng(0)
    for _ in range(50):
        env.reset(seed=int(rng.integers(1 << 30)))
        steps = 0
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            legal = env.unwrapped.game.legal_actions(env.unwrapped.state)
            assert np.array_equal(np.flatnonzero(mask), legal)
            env.step(int(rng.choice(legal)))
            steps += 1
        assert steps <= env.unwrapped.game.max_game_length
        assert sum(env._cumulative_rewards.values()) == 0
