"""Env behaviour beyond PettingZoo's suite: bad input, creation routes, docs matching the spaces."""

import re

import numpy as np
import pettingzoo
import pytest

import zerosum.envs
from zerosum.envs import ENVS, EnvOrderError, env_module, make
from zerosum.games import IllegalActionError


def test_illegal_action_through_env_loses_with_info():
    env = make("tictactoe_v0")
    env.reset()
    env.step(4)
    env.step(4)  # player_1 repeats b2
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 0.0, "player_1": -1.0}
    info = env.infos["player_1"]
    assert info["illegal_action"] == 4 and "b2" in info["reason"] and "legal" in info["reason"]
    _obs, reward, term, _trunc, _ = env.last()
    assert env.agent_selection == "player_1" and reward == -1.0 and term
    env.step(None)
    env.step(None)
    assert env.agents == []
    with pytest.raises(EnvOrderError, match="call env.reset"):
        env.step(None)


def test_raw_env_raises_on_illegal_action():
    env = make("tictactoe_v0", raw=True)
    env.reset()
    env.step(0)
    with pytest.raises(IllegalActionError, match=r"action 0 \(a1\) is not legal; legal: b1"):
        env.step(0)
    env.step(1)  # the env is intact after the error
    assert env.game.render(env.state).splitlines()[1] == "1  X O ."


@pytest.mark.parametrize("raw", [False, True])
@pytest.mark.parametrize("bad", [9, -1, 1.5, "4", [4], True])
def test_out_of_range_and_non_integer_actions_raise(raw, bad):
    env = make("tictactoe_v0", raw=raw)
    env.reset()
    with pytest.raises(IllegalActionError, match=r"an int in \[0, 9\)|out of range"):
        env.step(bad)
    assert not any(env.terminations.values())  # nothing changed


def test_numpy_integer_actions_are_accepted():
    env = make("nim_v0")
    env.reset()
    env.step(np.int64(0))
    assert env.state[1] == 0


def test_order_errors():
    from zerosum.games.kit.errors import ZerosumError

    env = make("nim_v0")
    with pytest.raises(EnvOrderError, match="before reset"):
        env.step(0)
    for base in (ZerosumError, RuntimeError):  # one base for zerosum's errors; old `except RuntimeError` still works
        with pytest.raises(base, match="before reset"):
            env.step(0)
    with pytest.raises(EnvOrderError, match="before reset"):
        env.observe("player_0")
    env.reset()
    env.step(0)  # p0x1 empties pile 0
    mask = env.observe("player_0")["action_mask"]
    assert not mask.any()  # not player_0's turn


def test_dead_agent_must_step_none():
    env = make("nim_v0", piles=(1,))
    env.reset()
    env.step(0)
    assert env.terminations["player_0"] and env.rewards == {"player_0": 1.0, "player_1": -1.0}
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)


def test_three_ways_to_create():
    from zerosum.envs import nim_v0

    a = nim_v0.env(piles=(3, 4, 5))
    b = zerosum.envs.make("nim_v0", piles=(3, 4, 5))
    c = pettingzoo.make("aec", "zerosum/nim-v0", piles=(3, 4, 5))
    for e in (a, b, c):
        e.reset()
        assert e.game.variant["piles"] == (3, 4, 5) and e.metadata["name"] == "nim_v0"
    with pytest.raises(ValueError, match="unknown environment 'mahjong_v0'; available"):
        make("mahjong_v0")
    with pytest.raises(ValueError, match="render_mode='video'"):
        make("nim_v0", render_mode="video")


@pytest.mark.parametrize("name", sorted(ENVS))
def test_docstring_table_matches_the_spaces(name):
    mod = env_module(name)
    doc = mod.__doc__
    env = mod.env()
    env.reset()
    n = env.action_space("player_0").n
    shape = env.observation_space("player_0")["observation"].shape
    assert re.search(rf"\| Action values\s+\| Discrete\({n}\)", doc), doc
    assert re.search(rf"\| Observation shape\s+\| {re.escape(str(shape))}", doc), doc
    assert f"from zerosum.envs import {name}" in doc
    for heading in ("**Observation.**", "**Actions.**", "**Rewards.**", "**Variants.**", "**Version history.**"):
        assert heading in doc


def test_observation_is_complete_and_from_the_observers_side():
    env = make("tictactoe_v0")
    env.reset()
    env.step(4)
    o0 = env.observe("player_0")["observation"]
    o1 = env.observe("player_1")["observation"]
    assert o0[1, 1, 0] == 1 and o1[1, 1, 1] == 1
    assert o1[..., 2].all() and not o0[..., 2].any()


def test_rgb_array():
    env = make("tictactoe_v0", render_mode="rgb_array")
    env.reset()
    env.step(4)
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    centre = img[img.shape[0] // 2, img.shape[1] // 2]
    assert tuple(centre) == (20, 20, 20)  # player_0's dark stone on b2
