"""The Game protocol's hot calls for every game: the fast paths (a state straight from
apply) and the generic ones (any other array or sequence) give the same answers, and a
state that cannot be one is refused with ValueError."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.games import GAMES, make_game
from zerosum.testing import random_positions

SMALL = {"halma": {"size": 8}}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_other_layouts_give_the_same_answers(name):
    game = make_game(name, **SMALL.get(name, {}))
    for s in [game.initial_state(), *random_positions(game, 30, seed=3, max_plies=30, terminal=True)]:
        strided = np.zeros(2 * len(s), np.int64)[::2]
        strided[:] = s
        frozen = s.copy()
        frozen.flags.writeable = False
        legal = game.legal_actions(s)
        a = int(legal[0]) if len(legal) else None
        for other in (strided, frozen, list(s), tuple(int(v) for v in s)):
            assert np.array_equal(game.legal_actions(other), legal)
            assert game.is_terminal(other) == game.is_terminal(s)
            assert game.current_player(other) == game.current_player(s)
            if a is not None:
                assert np.array_equal(game.apply(other, a), game.apply(s, a))
                assert np.array_equal(game.apply_unchecked(other, a), game.apply_unchecked(s, a))
        if a is not None:
            assert np.array_equal(game.apply(s, np.int64(a)), game.apply(s, a))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_state_of_the_wrong_shape_is_refused(name):
    game = make_game(name, **SMALL.get(name, {}))
    s = game.initial_state()
    a = int(game.legal_actions(s)[0])
    for bad in (s[:-1], np.concatenate([s, s]), np.stack([s, s])):
        for call in (game.legal_actions, lambda x: game.apply(x, a), lambda x: game.apply_unchecked(x, a)):
            with pytest.raises(ValueError):
                call(bad)
