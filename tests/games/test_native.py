"""The Game API's hot calls, built by the kit for every game: through zerosum.games._native
(numba cfuncs from the hot template, called from C) and through numba's entry points
(where the C module was not built) they are the same calls: equal answers on every
position of random games, and the same refusals (None, so that the generic path answers)
for anything that is not a plain state or an int action in range."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.games import GAMES, make_game
from zerosum.games.kit import hot

VARIANTS = [
    ("tictactoe", {}), ("nim", {}), ("nim", {"piles": (2, 3), "misere": True}),
    ("nine_mens_morris", {}), ("nine_mens_morris", {"protect_mills": False}),
    ("nine_mens_morris", {"flying": False}), ("nine_mens_morris", {"no_return": True, "max_turns": 40}),
    ("pentago", {}), ("pentago", {"win_before_rotation": False}),
    ("halma", {"size": 8}), ("connect_four", {}), ("connect_four", {"rows": 5, "columns": 5, "x_in_row": 3}),
    ("othello", {}), ("hex", {"board_size": 5, "swap": True}), ("breakthrough", {}), ("checkers", {}),
    ("gomoku", {"size": 9}), ("chess", {}), ("go", {"board_size": 5}),
    ("y", {"board_size": 7}), ("havannah", {"board_size": 4, "swap": True}),
    ("clobber", {}), ("clobber", {"rows": 4, "columns": 5}), ("dots_and_boxes", {}),
    ("dots_and_boxes", {"num_rows": 3, "num_cols": 2}), ("ultimate_tic_tac_toe", {}), ("mancala", {}), ("oware", {}),
    ("oware", {"num_houses_per_player": 4, "num_seeds_per_house": 3}), ("amazons", {"board_size": 6}),
    ("lines_of_action", {}),
]
SMALL = {"halma": {"size": 8}}


def _both(name, **variant):
    game = make_game(name, **variant)
    native = hot.hot_calls(game.kernels, game.params, game.state_size, game.max_moves, game.num_actions)
    compiled = hot.EntryPointCalls(game.kernels, game.params, game.state_size, game.max_moves, game.num_actions)
    return game, native, compiled


def test_every_game_is_covered():
    assert {name for name, _ in VARIANTS} == set(GAMES)


def test_the_c_module_is_built_and_used():
    # `make test` installs the package with its C module; a machine without a compiler runs
    # zerosum without it (the games fall back to numba's entry points), but not this suite.
    assert hot._native is not None, "zerosum.games._native was not built: is a C compiler installed?"
    assert hot.native_available()
    for name in GAMES:
        assert isinstance(make_game(name, **SMALL.get(name, {}))._calls, hot._native.Calls)


def test_it_can_be_switched_off(monkeypatch):
    monkeypatch.setenv("ZEROSUM_NATIVE", "0")
    assert not hot.native_available()
    for name in GAMES:
        assert isinstance(make_game(name, **SMALL.get(name, {}))._calls, hot.EntryPointCalls)


@pytest.mark.parametrize("name, variant", VARIANTS, ids=str)
def test_native_and_entry_points_agree_over_random_games(name, variant):
    game, native, compiled = _both(name, **variant)
    step = max(1, game.num_actions // 60)
    rng = np.random.default_rng(7)
    positions = games = 0
    while positions <= 500 or games < 5:
        games += 1
        s = game.initial_state()
        while True:
            legal = native.legal(s)
            assert np.array_equal(legal, compiled.legal(s))
            assert legal.dtype == np.int64 and legal.flags.c_contiguous
            assert native.status(s) == compiled.status(s) == int(game.outcome(s))
            assert native.terminal(s) is compiled.terminal(s) is (len(legal) == 0)
            assert native.player(s) == compiled.player(s)
            if len(legal) == 0:
                break
            # actions legal or not: the checked apply accepts exactly the legal ones
            for a in [*range(0, game.num_actions, step), *legal[:5]]:
                got, want = native.apply(s, int(a)), compiled.apply(s, int(a))
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


@pytest.mark.parametrize("name", sorted(GAMES))
def test_what_the_fast_path_refuses(name):
    game, native, compiled = _both(name, **SMALL.get(name, {}))
    s = game.initial_state()
    strided = np.zeros(2 * len(s), np.int64)[::2]
    strided[:] = s
    a = int(game.legal_actions(s)[0])
    for calls in (native, compiled):
        for bad in (s[:-1], np.concatenate([s, s]), np.stack([s, s]), s.astype(np.int32), list(s), None):
            assert calls.legal(bad) is None
            assert calls.apply(bad, a) is None
            assert calls.apply_unchecked(bad, a) is None
            assert calls.status(bad) is None and calls.terminal(bad) is None and calls.player(bad) is None
        for action in (-1, game.num_actions, 2**70, True, 1.0, "0", np.int32(0)):
            assert calls.apply(s, action) is None
            assert calls.apply_unchecked(s, action) is None
        # a strided view is refused too; the generic path answers it the same
        assert calls.legal(strided) is None and calls.apply(strided, a) is None
    assert np.array_equal(game.legal_actions(strided), game.legal_actions(s))
    assert np.array_equal(game.apply(strided, a), game.apply(s, a))
    assert game.is_terminal(strided) == game.is_terminal(s)
    assert game.current_player(strided) == game.current_player(s)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_results_are_new_arrays(name):
    game, native, _ = _both(name, **SMALL.get(name, {}))
    s = game.initial_state()
    first, second = native.legal(s), native.legal(s)
    first[:] = -1
    assert np.array_equal(second, game.legal_actions(s)) and second.min() >= 0
    child = native.apply(s, int(second[0]))
    child[:] = 0
    assert np.array_equal(s, game.initial_state())


def test_a_bad_construction_is_refused():
    params = np.zeros(1, np.int64)
    with pytest.raises(ValueError, match="function addresses"):
        hot._native.Calls(0, 0, 0, 0, 0, params, 13, 64, 600)
    with pytest.raises(TypeError, match="params"):
        hot._native.Calls(1, 2, 3, 4, 5, [0], 13, 64, 600)
    with pytest.raises(TypeError):
        hot._native.Calls(1, 2)
    uninitialised = hot._native.Calls.__new__(hot._native.Calls)
    assert uninitialised.legal(np.zeros(13, np.int64)) is None
    assert uninitialised.status(np.zeros(13, np.int64)) is None


def test_the_games_methods_are_the_c_calls_and_fall_back_to_the_generic_path():
    import gc
    import weakref

    from zerosum.games import GameOverError, IllegalActionError
    from zerosum.games.tictactoe import TicTacToe

    game = make_game("tictactoe")
    assert type(game.apply).__name__ == "builtin_function_or_method"  # no Python frame in a user's loop
    s = game.apply(game.initial_state(), 4)
    for other in (s.tolist(), s.astype(np.int32), np.repeat(s, 2)[::2]):  # a list, another dtype, a strided view
        assert game.legal_actions(other).tolist() == game.legal_actions(s).tolist()
        assert np.array_equal(game.apply(other, 0), game.apply(s, 0))
        assert np.array_equal(game.apply_unchecked(other, np.int32(0)), game.apply(s, 0))
        assert game.is_terminal(other) is False and game.current_player(other) == 1
        assert game.returns(other) == (0.0, 0.0)
    with pytest.raises(IllegalActionError, match=r"action 4 \(b2\) is not legal here"):
        game.apply(s, 4)
    with pytest.raises(IllegalActionError, match=r"out of range"):
        game.apply(s, 9)
    with pytest.raises(ValueError, match="int64 vector of length 2"):
        game.legal_actions([1, 2, 3])
    won = game.position(["XXX", "OO.", "..."])
    assert game.returns(won) == (1.0, -1.0) and game.is_terminal(won)
    with pytest.raises(GameOverError):
        game.apply(won, 8)

    class Counting(TicTacToe):  # a subclass that overrides a method keeps its own
        def apply(self, state, action):
            return super().apply(state, action)

    counting = Counting()
    assert type(counting.apply).__name__ == "method" and type(counting.legal_actions).__name__ != "method"
    assert np.array_equal(counting.apply(counting.initial_state(), 4), game.apply(game.initial_state(), 4))
    ref = weakref.ref(counting)
    del counting
    gc.collect()
    assert ref() is None  # the game and its C calls hold each other: the collector frees them


def test_initial_state_is_a_fresh_copy_from_the_c_module():
    game = make_game("connect_four")
    a, b = game.initial_state(), game.initial_state()
    assert type(game.initial_state).__name__ == "builtin_function_or_method"
    assert np.array_equal(a, game.initial) and a is not b and a.flags.writeable
    a[0] = 12345  # the caller's copy: the game's start is untouched
    assert np.array_equal(game.initial_state(), b)
    with pytest.raises(TypeError, match="initial must be a contiguous 1-D int64 array"):
        hot._native.Calls(1, 1, 1, 1, 1, game.params, game.state_size, game.max_moves, game.num_actions, None,
                          np.zeros(game.state_size + 1, np.int64))


def test_arrays_are_reused_only_when_nothing_else_refers_to_them():
    import weakref

    game, native, _ = _both("connect_four")
    s = game.initial_state()
    # a loop that keeps every state and action array: none is ever written again
    kept_states, kept_legal, copies = [s], [], [s.copy()]
    for i in range(12):
        legal = native.legal(s)
        kept_legal.append((legal, legal.copy()))
        s = native.apply(s, int(legal[i % len(legal)]))
        kept_states.append(s)
        copies.append(s.copy())
    assert all(np.array_equal(a, b) for a, b in zip(kept_states, copies))
    assert all(np.array_equal(a, b) for a, b in kept_legal)
    # a loop that drops them as it goes gets the same answers from reused arrays
    s = game.initial_state()
    for i, (state, (want, _)) in enumerate(zip(copies[1:], kept_legal)):
        legal = native.legal(s)
        assert np.array_equal(legal, want) and legal.shape == want.shape
        s = native.apply(s, int(legal[i % len(legal)]))
        assert np.array_equal(s, state)
    # an array dropped by the caller is written again; one held by a view, a weak
    # reference, a read-only flag or a new shape is not
    start = game.initial_state()
    child = native.apply(start, 3)
    address = child.ctypes.data
    del child
    assert native.apply(start, 3).ctypes.data == address
    for hold in (lambda a: a[1:], weakref.ref, lambda a: a.flags.__setattr__("writeable", False),
                 lambda a: a.shape.__len__() and a.__setattr__("shape", (1, len(a)))):
        child = native.apply(start, 3)
        address = child.ctypes.data
        holder = hold(child)
        keep = child if isinstance(holder, weakref.ref) else None
        del child
        others = [native.apply(start, a) for a in range(7)]  # every free slot, and more
        assert all(o.ctypes.data != address for o in others) and all(o.ndim == 1 for o in others)
        del holder, keep, others
    legal = native.legal(start)
    address = legal.ctypes.data
    del legal
    again = native.legal(native.apply(start, 3))
    assert again.ctypes.data == address and again.tolist() == list(range(7))
