"""Actions as PettingZoo hands them over: every value an env's ``Discrete`` space contains is
played exactly as the plain int (Python and numpy integers, 0-d integer arrays), on every env;
what the space does not contain keeps its clear error."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.envs import ENVS, make
from zerosum.games import IllegalActionError

PLIES = 24
"""Plies of each random game (enough to reach captures, removals and passes in most games)."""


def _forms(a: int) -> list[object]:
    """``a`` in every form a ``Discrete`` space contains, and as uint64 (which the envs took before and still do)."""
    small = np.min_scalar_type(a)  # the narrowest unsigned dtype that holds a (uint8 for 0..255)
    return [np.int64(a), np.int32(a), np.uint32(a), np.array(a), np.array(a, small), small.type(a),
            np.array(a, np.uint64), np.array([a, a])[0], a]


@pytest.mark.parametrize("name", sorted(ENVS))
@pytest.mark.parametrize("raw", [False, True])
def test_every_form_the_space_contains_plays_as_the_plain_int(name, raw):
    plain, other = make(name, raw=raw), make(name, raw=raw)
    plain.reset(seed=0)
    other.reset(seed=0)
    rng = np.random.default_rng(len(name))
    for ply in range(PLIES):
        if not plain.agents or any(plain.terminations.values()):
            break
        agent = plain.agent_selection
        space = other.action_space(agent)
        a = int(rng.choice(np.flatnonzero(plain.observe(agent)["action_mask"])))
        form = _forms(a)[ply % len(_forms(a))]
        if np.asarray(form).dtype != np.uint64:  # gymnasium's Discrete refuses uint64 (no safe cast to int64)
            assert space.contains(form), (form, type(form))
        plain.step(a)
        other.step(form)
        assert other.agent_selection == plain.agent_selection
        assert np.array_equal(other.state, plain.state)
        assert other.rewards == plain.rewards and other.terminations == plain.terminations
        for who in other.agents:
            mine, theirs = other.observe(who), plain.observe(who)
            assert np.array_equal(mine["observation"], theirs["observation"])
            assert np.array_equal(mine["action_mask"], theirs["action_mask"])
    assert ply > 0


@pytest.mark.parametrize("name", sorted(ENVS))
def test_what_the_space_does_not_contain_is_refused(name):
    env = make(name)
    env.reset()
    space = env.action_space(env.agent_selection)
    n = space.n
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    refused = [True, np.bool_(True), np.array(True), float(legal), np.float32(legal), np.array(float(legal)),
               np.array([legal]), np.array([[legal]]), str(legal), None, n, -1, np.array(n), np.int64(-1),
               np.uint64(2 ** 64 - 1)]
    for bad in refused:
        if bad is not None and not isinstance(bad, (bool, np.bool_)) and np.asarray(bad).dtype.kind != "b":
            assert not space.contains(bad), bad
        with pytest.raises(IllegalActionError, match=rf"an int in \[0, {n}\)|out of range"):
            env.step(bad)
        assert not any(env.terminations.values()), bad  # nothing changed: the error came before the move
    env.step(np.array(legal))
    assert env.infos[env.possible_agents[0]] == {} and not any(env.terminations.values())


def test_the_error_names_the_shape_and_dtype_of_an_array():
    env = make("tictactoe_v0")
    env.reset()
    with pytest.raises(IllegalActionError,
                       match=r"0-d integer array; got array\(\[4\]\) \(shape \(1,\), dtype int64\)"):
        env.step(np.array([4]))
    with pytest.raises(IllegalActionError, match=r"dtype float64"):
        env.step(np.array(4.0))
