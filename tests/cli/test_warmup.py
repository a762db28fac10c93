"""``zerosum warmup``: a part it reports is compiled, so that later processes load it from
the disk cache instead of compiling it (the vector step's functions compile on their first
call, so its part makes a vector env and resets it)."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.cli.warmup import EVERY_GAME, compile_part


@pytest.fixture(autouse=True)
def _worker_settings(monkeypatch):
    """compile_part sets these two for its worker process: here they are restored after the test."""
    monkeypatch.setenv("ZEROSUM_TIER", "generic")
    monkeypatch.setenv("ZEROSUM_BACKGROUND_COMPILE", "0")


def test_the_generic_vector_part_compiles_the_one_step_every_game_and_setting_takes():
    from zerosum.agents.base import RandomAgent
    from zerosum.envs import make_vec
    from zerosum.envs.lanes import VECTOR_TEMPLATE
    from zerosum.search import compiled

    compile_part(EVERY_GAME, "vector", "generic")
    step = compiled.generic_for(VECTOR_TEMPLATE).vec_call
    assert len(step.signatures) == 1
    # another game, the other observation format, symmetries, a Python opponent, read-only actions:
    # the same compiled step (a second signature would be a second compile of about 30 s)
    env = make_vec("connect_four_v0", 3, opponent=["alphabeta(depth=1)", RandomAgent()], obs_format="dict",
                   symmetry=True, random_opening=0.5, seed=1)
    env.reset()
    actions = np.array([int(np.flatnonzero(m)[0]) for m in env.action_masks()], np.int64)
    actions.flags.writeable = False
    env.step(actions)
    assert len(step.signatures) == 1


def test_an_unknown_part_is_refused():
    with pytest.raises(ValueError, match="unknown part 'vectors'; parts: rules, alphabeta"):
        compile_part("tictactoe", "vectors")
