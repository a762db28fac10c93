"""Tic-tac-toe through the Game API: the whole game tree, scripted games, errors."""

import pickle

import numpy as np
import pytest

from tests.playouts import check_random_playouts, perft
from zerosum.games import GameOverError, IllegalActionError, Outcome, make_game

G = make_game("tictactoe")

# (moves as readable names, expected outcome)
SCRIPTED = [
    (["a1", "b1", "a2", "b2", "a3"], Outcome.P0_WINS),              # X: column a
    (["a1", "b1", "c3", "b2", "a3", "b3"], Outcome.P1_WINS),        # O: column b
    (["c1", "a1", "b2", "a2", "a3"], Outcome.P0_WINS),              # X: diagonal c1-b2-a3
    (["b2", "a1", "c3", "a3", "a2", "c2", "b3", "b1", "c1"], Outcome.DRAW),  # full board
]


def play(names):
    s = G.initial_state()
    for name in names:
        s = G.apply(s, G.string_to_action(name))
    return s


@pytest.mark.parametrize(("names", "outcome"), SCRIPTED)
def test_scripted_games(names, outcome):
    s = play(names)
    assert G.outcome(s) == outcome, G.render(s)
    assert G.is_terminal(s) and len(G.legal_actions(s)) == 0
    assert G.returns(s) == {Outcome.P0_WINS: (1.0, -1.0), Outcome.P1_WINS: (-1.0, 1.0),
                            Outcome.DRAW: (0.0, 0.0)}[outcome]
    for prefix in range(len(names)):
        assert not G.is_terminal(play(names[:prefix]))


def _tree(s, counts, seen):
    counts["nodes"] += 1
    seen.add(G.state_key(s))
    o = G.outcome(s)
    if o != Outcome.ONGOING:
        counts[o] += 1
        return
    for a in G.legal_actions(s):
        _tree(G.apply_unchecked(s, int(a)), counts, seen)


def test_full_game_tree():
    counts = {"nodes": 0, Outcome.P0_WINS: 0, Outcome.P1_WINS: 0, Outcome.DRAW: 0}
    seen = set()
    _tree(G.initial_state(), counts, seen)
    assert counts["nodes"] == 549_946
    assert counts[Outcome.P0_WINS] == 131_184
    assert counts[Outcome.P1_WINS] == 77_904
    assert counts[Outcome.DRAW] == 46_080
    assert sum(counts[o] for o in (Outcome.P0_WINS, Outcome.P1_WINS, Outcome.DRAW)) == 255_168
    assert len(seen) == 5_478


def test_perft():
    assert [perft(G, G.initial_state(), d) for d in (1, 2, 3)] == [9, 72, 504]


def test_random_playouts():
    lengths = check_random_playouts(G, 1000, seed=1)
    assert min(lengths) >= 5 and max(lengths) <= 9


def test_errors():
    s = G.apply(G.initial_state(), 4)
    with pytest.raises(IllegalActionError, match=r"action 4 \(b2\) is not legal here; legal: a1, b1"):
        G.apply(s, 4)
    for bad in (9, -1, 2.5, "b2", None, True):
        with pytest.raises(IllegalActionError, match="an int in|out of range"):
            G.apply(s, bad)
    with pytest.raises(GameOverError):
        G.apply(play(SCRIPTED[0][0]), 8)
    with pytest.raises(IllegalActionError, match="write a cell such as 'b2'"):
        G.string_to_action("z9")


def test_an_illegal_moves_message_is_the_position_it_was_raised_in():
    """The message is written when read (ZerosumError.deferred), from a copy of the
    position: a state changed after the raise does not change it, and str, repr, args and
    a pickled copy all carry the same text."""
    s = G.apply(G.initial_state(), 4)
    with pytest.raises(IllegalActionError) as caught:
        G.apply(s, 4)
    s[:] = G.apply(G.apply(G.initial_state(), 0), 1)  # the caller reuses its buffer
    error = caught.value
    text = "action 4 (b2) is not legal here; legal: a1, b1, c1, a2, c2, a3, b3, c3"
    assert str(error) == text and error.args == (text,) and repr(error) == f"IllegalActionError({text!r})"
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is IllegalActionError and str(copy) == text


def test_names_round_trip_and_observation():
    for a in range(9):
        assert G.string_to_action(G.action_to_string(a)) == a
    s = play(["b2", "a1"])
    obs0, obs1 = G.observation(s, 0), G.observation(s, 1)
    assert obs0.shape == (3, 3, 3) and obs0.dtype == np.int8
    assert obs0[1, 1, 0] == 1 and obs0[0, 0, 1] == 1 and obs1[0, 0, 0] == 1 and obs1[1, 1, 1] == 1
    assert obs0[..., 2].all() and not obs1[..., 2].any()  # player 0 is to move
