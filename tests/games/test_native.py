"""The Game API's hot calls through zerosum.games._native (numba cfuncs called from C) and
through numba's entry points (where the C module was not built) are the same calls: equal
answers on every position of random games, and the same refusals (None, so that the
generic path answers) for anything that is not a plain state or an int action in range."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.games import base
from zerosum.games import nine_mens_morris as morris
from zerosum.games import pentago

# the games whose hot calls go through the C module, with their variants and rules ints
GAMES = {
    "nine_mens_morris": (morris, morris.NineMensMorris, morris.MAX_MOVES, lambda g: morris.pack_rules(g.params)),
    "pentago": (pentago, pentago.Pentago, pentago.NUM_ACTIONS, lambda g: int(g.params[0])),
}
VARIANTS = [
    ("nine_mens_morris", {}), ("nine_mens_morris", {"protect_mills": False}),
    ("nine_mens_morris", {"flying": False}), ("nine_mens_morris", {"no_return": True, "max_turns": 40}),
    ("pentago", {}), ("pentago", {"win_before_rotation": False}),
]


def _both(name, **variant):
    module, cls, max_moves, rules_of = GAMES[name]
    game = cls(**variant)
    rules = rules_of(game)
    native = base._native.Calls(module.native_legal.address, module.native_apply.address,
                                module.native_apply_checked.address, module.STATE_SIZE, max_moves,
                                module.NUM_ACTIONS, rules)
    compiled = base.EntryPointCalls(module.api_legal, module.api_apply, module.api_apply_checked,
                                    module.STATE_SIZE, max_moves, module.NUM_ACTIONS, rules)
    return game, native, compiled


def test_the_c_module_is_built_and_used():
    # `make test` installs the package with its C module; a machine without a compiler runs
    # zerosum without it (the games fall back to numba's entry points), but not this suite.
    assert base._native is not None, "zerosum.games._native was not built: is a C compiler installed?"
    assert base.native_available()
    for _, cls, _, _ in GAMES.values():
        assert isinstance(cls()._calls, base._native.Calls)


def test_it_can_be_switched_off(monkeypatch):
    monkeypatch.setenv("ZEROSUM_NATIVE", "0")
    assert not base.native_available()
    for _, cls, _, _ in GAMES.values():
        assert isinstance(cls()._calls, base.EntryPointCalls)


@pytest.mark.parametrize("name, variant", VARIANTS, ids=str)
def test_native_and_entry_points_agree_over_random_games(name, variant):
    game, native, compiled = _both(name, **variant)
    num_actions = GAMES[name][0].NUM_ACTIONS
    rng = np.random.default_rng(7)
    positions = 0
    for _ in range(30):
        s = game.initial_state()
        while True:
            legal = native.legal(s)
            assert np.array_equal(legal, compiled.legal(s))
            assert legal.dtype == np.int64 and legal.flags.c_contiguous
            if len(legal) == 0:
                assert game.is_terminal(s)
                break
            # every action, legal or not: the checked apply accepts exactly the legal ones
            for a in range(0, num_actions, 7):
                got, want = native.apply(s, a), compiled.apply(s, a)
                assert (got is None) == (want is None) == (a not in legal)
                if got is not None:
                    assert np.array_equal(got, want)
            a = legal[rng.integers(len(legal))]
            child = native.apply_unchecked(s, a)
            assert np.array_equal(child, compiled.apply_unchecked(s, a))
            assert np.array_equal(child, native.apply(s, int(a)))
            s = child
            positions += 1
    assert positions > 500


@pytest.mark.parametrize("name", GAMES)
def test_what_the_fast_path_refuses(name):
    game, native, compiled = _both(name)
    num_actions = GAMES[name][0].NUM_ACTIONS
    s = game.initial_state()
    strided = np.zeros(2 * len(s), np.int64)[::2]
    strided[:] = s
    for calls in (native, compiled):
        for bad in (s[:-1], np.concatenate([s, s]), np.stack([s, s]), s.astype(np.int32), list(s), None):
            assert calls.legal(bad) is None
            assert calls.apply(bad, 0) is None
            assert calls.apply_unchecked(bad, 0) is None
        for action in (-1, num_actions, 2**70, True, 1.0, "0", np.int32(0)):
            assert calls.apply(s, action) is None
            assert calls.apply_unchecked(s, action) is None
        # a strided view is refused too; the generic path answers it the same
        assert calls.legal(strided) is None and calls.apply(strided, 0) is None
    assert np.array_equal(game.legal_actions(strided), game.legal_actions(s))
    assert np.array_equal(game.apply(strided, 0), game.apply(s, 0))


@pytest.mark.parametrize("name", GAMES)
def test_results_are_new_arrays(name):
    game, native, _ = _both(name)
    s = game.initial_state()
    first, second = native.legal(s), native.legal(s)
    first[:] = -1
    assert np.array_equal(second, game.legal_actions(s)) and second.min() >= 0
    child = native.apply(s, 5)
    child[:] = 0
    assert np.array_equal(s, game.initial_state())


def test_a_bad_construction_is_refused():
    with pytest.raises(ValueError, match="function addresses"):
        base._native.Calls(0, 0, 0, 13, 64, 600, 0)
    with pytest.raises(TypeError):
        base._native.Calls(1, 2)
    uninitialised = base._native.Calls.__new__(base._native.Calls)
    assert uninitialised.legal(np.zeros(13, np.int64)) is None
