"""Nim: exhaustive solution against the nim-sum rule in both conventions; variants; errors."""

import itertools
from functools import cache

import numpy as np
import pytest

from tests.playouts import check_random_playouts
from zerosum.games import IllegalActionError, VariantError, make_game


def solve(game):
    """Mover-wins table for every position (piles up to the game's), by exhaustive search."""

    @cache
    def mover_wins(piles):
        s = np.array([0, *piles], np.int64)
        if game.is_terminal(s):
            return game.returns(s)[0] > 0
        return any(not mover_wins(tuple(game.apply_unchecked(s, int(a))[1:])) for a in game.legal_actions(s))

    return mover_wins


@pytest.mark.parametrize("misere", [False, True])
def test_exhaustive_against_the_nim_sum_rule(misere):
    game = make_game("nim", piles=(3, 4, 5), misere=misere)
    mover_wins = solve(game)
    for piles in itertools.product(range(4), range(5), range(6)):
        x = piles[0] ^ piles[1] ^ piles[2]
        if misere and max(piles) <= 1:
            expected = sum(piles) % 2 == 0
        else:
            expected = x != 0
        assert mover_wins(piles) == expected, piles


def test_normal_play_last_object_wins():
    g = make_game("nim", piles=(2,))
    s = g.apply(g.initial_state(), g.string_to_action("p0x2"))
    assert g.is_terminal(s) and g.returns(s) == (1.0, -1.0)
    g = make_game("nim", piles=(2,), misere=True)
    s = g.apply(g.initial_state(), g.string_to_action("p0x2"))
    assert g.returns(s) == (-1.0, 1.0)


@pytest.mark.parametrize("variant", [{}, {"misere": True}, {"piles": (3, 4, 5)}, {"piles": (1, 1, 1, 1, 9)}])
def test_random_playouts(variant):
    check_random_playouts(make_game("nim", **variant), 1000, seed=2)


@pytest.mark.parametrize("bad", [{"piles": (0, -1)}, {"piles": ()}, {"piles": "135"}, {"piles": (1.5,)},
                                 {"piles": (True,)}, {"misere": "yes"}, {"pile": (1,)}])
def test_bad_variants(bad):
    with pytest.raises(VariantError, match="not allowed|bad variant"):
        make_game("nim", **bad)


def test_names_and_errors():
    g = make_game("nim")
    for a in range(g.num_actions):
        assert g.string_to_action(g.action_to_string(a)) == a
    with pytest.raises(IllegalActionError, match="p0x2.*not legal"):
        g.apply(g.initial_state(), g.string_to_action("p0x2"))  # pile 0 holds 1
    with pytest.raises(IllegalActionError, match="write 'p<pile>x<count>'"):
        g.string_to_action("take some")
