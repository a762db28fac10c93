"""The game kit itself: declarations are checked, variants validated, games are values."""

from __future__ import annotations

import copy
import inspect
import pickle

import numpy as np
import pytest
from numba import types

from zerosum.games import GAMES, make_game
from zerosum.games.kit import (
    HEURISTIC, LEGAL, Game, GameSpec, KernelError, Kernels, Layout, PositionError, Variant, VariantError, kernel,
)
from zerosum.games.tictactoe import KERNELS as TTT_KERNELS
from zerosum.games.tictactoe import TicTacToe

SMALL = {"halma": {"size": 8}}


def _kernels(**changes):
    fields = {f: getattr(TTT_KERNELS, f) for f in ("legal", "apply", "status", "player", "key", "observe")}
    return Kernels(**{**fields, **changes})


def test_a_missing_kernel_is_refused_by_name():
    with pytest.raises(KernelError, match=r"the 'observe' kernel is missing: .*@kernel\(OBSERVE\)"):
        _kernels(observe=None)
    with pytest.raises(KernelError, match=r"the 'legal' kernel is missing: .*signature int64\(params: "):
        Kernels(apply=TTT_KERNELS.apply)


def test_a_kernel_of_the_wrong_signature_is_refused_with_the_signature_expected():
    @kernel(types.int64(types.int64[::1], types.int64[::1], types.int64[::1]))
    def legal(params, s, out):  # writable params: not the LEGAL signature
        return 0

    with pytest.raises(KernelError, match=r"'legal' kernel must be compiled with @kernel\(LEGAL\), signature "
                                          + r"int64\(params: readonly array.*got compiled for int64\(params: array"):
        _kernels(legal=legal)
    with pytest.raises(KernelError, match=r"'apply' kernel .* not a kernel"):
        _kernels(apply=lambda p, s, a, c: None)


def test_a_game_class_is_checked_when_it_is_declared():
    with pytest.raises(KernelError, match="kernels must be a Kernels record"):
        class NoKernels(Game):
            name = "no_kernels"
            kernels = {"legal": None}  # type: ignore[assignment]

    with pytest.raises(KernelError, match=r"must define position\(\)"):
        class NoPosition(Game):
            name = "no_position"
            kernels = TTT_KERNELS

            def layout(self, variant):
                return TicTacToe.layout(self, variant)

            action_to_string = TicTacToe.action_to_string
            string_to_action = TicTacToe.string_to_action
            render = TicTacToe.render

    with pytest.raises(KernelError, match="default_heuristic 'nope'"):
        class BadDefault(TicTacToe):
            name = "bad_default"
            default_heuristic = "nope"


@pytest.mark.parametrize("bad, message", [
    ({"misere": 1}, "misere=1 is not allowed: True or False"),
    ({"piles": (0, 2)}, r"piles=\(0, 2\) is not allowed: a sequence of 1 to 16 ints, each 1..1000"),
    ({"pile": (1,)}, "bad variant for nim: unknown name 'pile'; variants: piles"),
])
def test_a_bad_variant_names_the_variant_the_value_and_what_is_allowed(bad, message):
    with pytest.raises(VariantError, match=message):
        make_game("nim", **bad)


def test_variants_are_positional_in_schema_order_and_in_the_signature():
    from zerosum.games.nim import Nim

    assert make_game("nim", piles=(2, 3)) == make_game("nim", piles=[2, 3])

    assert Nim((2, 3), True) == Nim(piles=(2, 3), misere=True)
    assert list(inspect.signature(Nim).parameters) == ["piles", "misere"]
    with pytest.raises(VariantError, match="given twice"):
        Nim((2, 3), piles=(2, 3))
    with pytest.raises(VariantError, match="at most 2 positional"):
        Nim((2, 3), True, 5)


def test_variant_schema_itself_is_checked():
    with pytest.raises(TypeError, match="kind must be one of"):
        Variant("x", list, [], "a list")
    with pytest.raises(VariantError, match="size=3 is not allowed: one of 8, 10, 16"):
        Variant("size", int, 3, "board size", choices=(8, 10, 16))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_is_a_frozen_value(name):
    game = make_game(name, **SMALL.get(name, {}))
    twin = make_game(name, **SMALL.get(name, {}))
    assert game == twin and hash(game) == hash(twin) and game is not twin
    assert len({game, twin}) == 1
    assert isinstance(game.spec, GameSpec) and game.spec.variant == tuple(game.variant.items())
    with pytest.raises(AttributeError, match="frozen"):
        game.num_actions = 3
    with pytest.raises(TypeError):
        game.variant["x"] = 1  # type: ignore[index]
    with pytest.raises(ValueError):
        game.params[0] = 1  # read-only: derived from the variant
    assert copy.deepcopy(game) is game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_pickled_game_is_equal_and_plays_identically(name):
    game = make_game(name, **SMALL.get(name, {}))
    back = pickle.loads(pickle.dumps(game))
    assert back == game and back.spec == game.spec
    rng = np.random.default_rng(0)
    s = t = game.initial_state()
    for _ in range(30):
        if game.is_terminal(s):
            break
        legal = game.legal_actions(s)
        assert np.array_equal(legal, back.legal_actions(t))
        a = int(legal[rng.integers(len(legal))])
        s, t = game.apply(s, a), back.apply(t, a)
        assert np.array_equal(s, t)


def test_games_with_different_variants_differ():
    assert make_game("nim") != make_game("nim", misere=True)
    assert make_game("nim") != make_game("tictactoe")


def test_position_errors_are_one_class():
    ttt = make_game("tictactoe")
    with pytest.raises(PositionError, match="X moves first"):
        ttt.position(["OO.", "...", "..."])
    with pytest.raises(PositionError, match="9 cells"):
        ttt.position("XO")
    nim = make_game("nim")
    with pytest.raises(PositionError, match="4 ints"):
        nim.position([1, 2])


def test_a_user_game_declared_in_a_few_lines_works_everywhere():
    """A variant of tic-tac-toe declared with the kit: the hot calls, the search and the values."""
    from zerosum.search import alphabeta

    class Tic(TicTacToe):
        name = "tic"
        variants = (Variant("first", int, 0, "unused: shows a schema on a subclass", range=(0, 1)),)

        def layout(self, variant):
            lay = TicTacToe.layout(self, variant)
            return Layout(params=[variant["first"]], initial=lay.initial, num_actions=9, max_moves=9,
                          max_game_length=9, observation_shape=(3, 3, 3))

    game = Tic(first=1)
    assert game.variant == {"first": 1} and game.params.tolist() == [1]
    assert alphabeta(game, game.initial_state(), depth=9).value == 0.0
    with pytest.raises(VariantError, match=r"first=2 is not allowed: an int from 0 to 1"):
        Tic(first=2)


def test_heuristic_signature_is_the_kits():
    assert HEURISTIC.args[0].mutable is False and LEGAL.args[0].mutable is False
