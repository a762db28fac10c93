"""The vector envs take the learner's actions in any integer dtype (and as a ``(num_envs, 1)``
column, as some policies hand them over): the lanes play exactly as with int64 actions, and
what is out of range is named with the value given, in both APIs."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.envs.vector import VectorEnvError, make_vec

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.dtype(">i4")]
LANES = 6


def _run(api: str, convert, steps: int = 12) -> list:  # type: ignore[no-untyped-def]
    """A seeded run of tic-tac-toe lanes whose learner plays its first legal move, or an
    occupied square in lane 0 every third step (the illegal move's info), the actions given
    through ``convert``."""
    env = make_vec("tictactoe_v0", LANES, opponent="random", seed=3, learner_seat=0, api=api)
    if api == "sb3":
        env.seed(5)
        out = [env.reset()]
    else:
        out = list(env.reset(seed=5)[:1])
    illegal = 0
    for step in range(steps):
        masks = env.action_masks()
        actions = np.argmax(masks, axis=1)
        if step % 3 == 2 and not masks[0].all():
            actions[0] = int(np.flatnonzero(~masks[0])[0])  # an occupied square: illegal
        if api == "sb3":
            obs, rewards, dones, infos = env.step(convert(actions))
            out += [obs, rewards, dones, [i.get("illegal_action", -1) for i in infos]]
            illegal += sum("illegal_action" in i for i in infos)
        else:
            obs, rewards, term, trunc, info = env.step(convert(actions))
            out += [obs, rewards, term, trunc, info.get("illegal_action", np.zeros(LANES, np.int64))]
            illegal += int(info.get("_illegal_action", np.zeros(LANES, bool)).sum())
    assert illegal > 0  # the illegal move's info was compared too
    return out


@pytest.mark.parametrize("api", ["gymnasium", "sb3"])
def test_any_integer_dtype_plays_as_int64(api):
    expected = _run(api, lambda a: a.astype(np.int64))
    for dtype in DTYPES:
        got = _run(api, lambda a, dt=dtype: a.astype(dt))
        assert all(np.array_equal(x, y) for x, y in zip(expected, got, strict=True)), dtype
    for shaped in (lambda a: a.astype(np.uint8).reshape(-1, 1), lambda a: a.tolist(),
                   lambda a: np.asfortranarray(a.astype(np.int16)), lambda a: a.astype(np.float32)):
        got = _run(api, shaped)
        assert all(np.array_equal(x, y) for x, y in zip(expected, got, strict=True))


def test_out_of_range_in_any_dtype_names_the_value_given():
    env = make_vec("tictactoe_v0", 3, seed=0)
    env.reset()
    with pytest.raises(VectorEnvError, match=r"lane 1: action 18446744073709551615 is out of range: 0 to 8"):
        env.step(np.array([0, 2 ** 64 - 1, 1], np.uint64))  # not wrapped round to -1 by a cast to int64
    with pytest.raises(VectorEnvError, match=r"lane 2: action 200 is out of range"):
        env.step(np.array([0, 1, 200], np.uint8))
    with pytest.raises(VectorEnvError, match=r"lane 0: action -3 is out of range"):
        env.step(np.array([-3, 1, 2], np.int8))
    with pytest.raises(VectorEnvError, match=r"lane 0: action 1e\+300 is out of range"):
        env.step(np.array([1e300, 1, 2]))
    with pytest.raises(VectorEnvError, match=r"integers; got dtype bool"):
        env.step(np.array([True, False, True]))
    with pytest.raises(VectorEnvError, match=r"integers; got dtype float64 \(lane 1: np.float64\(nan\)\)"):
        env.step(np.array([0, np.nan, 1]))
    env.step(np.array([0, 1, 2], np.uint8))  # the env is intact after the errors
