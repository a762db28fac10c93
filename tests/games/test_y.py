"""Y: the conformance kit, perft and the OpenSpiel cross-check at every step, scripted games,
positions, errors and the heuristics."""

import re
from functools import partial

import numpy as np
import pytest

from tests.games import kit_parts
from tests.games.kit_parts import play
from zerosum.games import IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.games.y import Y
from zerosum.testing import check_game, check_heuristic

G = make_game("y")


@pytest.mark.parametrize("variant", [{"board_size": 5}, {"board_size": 9}])
def test_check_game(variant):
    check_game(make_game("y", **variant), games=8, seed=1, search_positions=3)


def test_check_game_default():
    check_game(G, games=4, seed=2, search_positions=2)


# perft from the start; OpenSpiel's y gives the same counts to depth 5 (test_openspiel_perft)
PERFT = [({"board_size": 2}, [3, 6, 6]),
         ({"board_size": 3}, [6, 30, 120, 360, 720, 360]),
         ({"board_size": 4}, [10, 90, 720, 5040, 30240, 151200, 604800]),
         ({"board_size": 5}, [15, 210, 2730, 32760]),
         ({}, [190, 35910])]


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_perft(variant, counts):
    assert kit_parts.perft_counts(make_game("y", **variant), len(counts)) == counts


@pytest.mark.parametrize(("variant", "counts"), [(v, c[:5]) for v, c in PERFT])
def test_openspiel_perft(variant, counts):
    assert kit_parts.openspiel_perft_counts("y", variant, len(counts)) == counts


def cross_check(variant, games, seed):
    """Plays ``games`` random games in zerosum and OpenSpiel side by side: the same legal
    actions, board, player to move, terminal flag, returns and names of the actions played
    at every step. Returns the number of steps compared."""
    import pyspiel

    g = make_game("y", **variant)
    return kit_parts.cross_check_with_names(g, pyspiel.load_game("y", variant), games, seed,
                                            partial(kit_parts.same_stones_as_openspiel, g)).steps


@pytest.mark.parametrize(("variant", "games"), [({}, 20), ({"board_size": 5}, 150), ({"board_size": 9}, 60),
                                                ({"board_size": 2}, 10), ({"board_size": 26}, 4)])
def test_openspiel_cross_check(variant, games):
    """Identical legal actions, board, player, terminal flag and returns at every step."""
    pytest.importorskip("pyspiel")
    assert cross_check(variant, games, seed=57) > games


# (variant, moves, outcome, board: row 1 first)
SCRIPTED = [
    # a chain along row 1 from corner to corner touches all three sides
    ({"board_size": 4}, "a1 a2 b1 b2 c1 c2 d1", Outcome.P0_WINS, ["xxxx", "ooo", "..", "."]),
    # o's chain a2 (column a), b1 (row 1), b2 (the slant) between x's three corners
    ({"board_size": 3}, "a1 a2 c1 b1 a3 b2", Outcome.P1_WINS, ["xox", "oo", "x"]),
    # the slant neighbours: (x, y) touches (x+1, y-1) and (x-1, y+1)
    ({"board_size": 4}, "a4 a1 b3 b1 c2 c1 d1", Outcome.P0_WINS, ["ooox", "..x", ".x", "x"]),
]


@pytest.mark.parametrize(("variant", "moves", "outcome", "board"), SCRIPTED)
def test_scripted_games(variant, moves, outcome, board):
    kit_parts.scripted_game_ends(make_game("y", **variant), moves, outcome, board)


def test_names_and_illegal_moves():
    assert G.action_to_string(0) == "a1" and G.action_to_string(20) == "b2" and G.action_to_string(342) == "a19"
    assert G.string_to_action("b2") == 20 and G.string_to_action(" S1 ") == 18
    for text in ("t1", "a20", "a0", "", "2b", "b2x"):
        with pytest.raises(IllegalActionError, match="write a cell as its column letter a-s and row number 1-19"):
            G.string_to_action(text)
    with pytest.raises(IllegalActionError, match="s2 is off the board: row 2 has columns a-r"):
        G.string_to_action("s2")
    with pytest.raises(IllegalActionError, match="b2 is occupied"):
        G.apply(play(G, "b2"), 20)
    with pytest.raises(IllegalActionError, match="s2 is off the board"):
        G.apply(G.initial_state(), 37)


@pytest.mark.parametrize(("bad", "match"), [
    ({"board_size": 1}, "board_size=1 is not allowed: an int from 2 to 26"),
    ({"board_size": 27}, "board_size=27 is not allowed: an int from 2 to 26"),
    ({"board_size": "19"}, "board_size='19' is not allowed"),
    ({"size": 5}, "unknown name 'size'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("y", **bad)


def test_variant_sizes():
    assert (G.num_actions, G.max_moves, G.max_game_length, G.observation_shape, G.size) == (361, 190, 190,
                                                                                             (19, 19, 4), 19)
    g = make_game("y", board_size=5)
    assert (g.num_actions, g.max_game_length, g.observation_shape) == (25, 15, (5, 5, 4))
    assert make_game("y", board_size=19) == G == Y() != Y(board_size=9)


def test_render_and_position_round_trip():
    g = make_game("y", board_size=3)
    s = play(g, "b1 a2")
    assert g.render(s).splitlines() == ["  a b c", " 1 . x .", "  2 o .", "   3 .",
                                        "x to move (a chain touching all three sides wins)"]
    rng = np.random.default_rng(3)
    for size in (3, 5, 19):
        g = make_game("y", board_size=size)
        for s in kit_parts.random_states(g, 20, rng, max_plies=g.max_game_length + 1):
            assert np.array_equal(g.position(g.cells(s)), s)


@pytest.mark.parametrize(("board", "match"), [
    (["...", ".."], "3 rows of x, o or '.', of 3, 2, ... 1 cells"),
    (["...", "...", "."], "3 rows"),
    (["xx.", "..", "."], "x has as many stones as o or one more; got x 2, o 0"),
    (["o..", "..", "."], "got x 0, o 1"),
    (["xxx", "oo", "o"], "x has a winning chain but did not move last"),
])
def test_position_errors(board, match):
    with pytest.raises(PositionError, match=match):
        make_game("y", board_size=3).position(board)


def test_observation_planes():
    s = play(G, "b2 a1")
    o0, o1 = G.observation(s, 0), G.observation(s, 1)
    assert o0.shape == (19, 19, 4) and o0.dtype == np.int8
    assert o0[1, 1, 0] == o0[0, 0, 1] == o1[0, 0, 0] == o1[1, 1, 1] == 1
    assert o0[..., :2].sum() == 2 and o0[..., 2].sum() == 190 - 2
    assert o0[..., 3].sum() == 190 and not o1[..., 3].any() and not o0[18, 1].any()


@pytest.mark.parametrize("name", ["distance", "two_distance"])
@pytest.mark.parametrize("variant", [{}, {"board_size": 5}])
def test_check_heuristic(name, variant):
    check_heuristic(make_game("y", **variant), name, positions=20)


def test_heuristic_values():
    g = make_game("y", board_size=4)
    d, t = g.heuristic("distance").fn, g.heuristic("two_distance").fn
    s = g.initial_state()
    assert d(g.params, s, 0) == 0 and t(g.params, s, 0) == 0
    # x holds a1 b1 c1: one stone (d1) from a win, potential 1; o's a2 b2 c2 reach column a and
    # the slant (c2) but need a stone on row 1, all x's but d1: potential 1 as well
    s = play(g, "a1 a2 b1 b2 c1 c2")
    assert d(g.params, s, 0) == 0
    s = play(g, "a1 a3 b1 b3 c1")  # x one stone away (d1); o needs a1..: row 1 is x's, potential 4x4 walls
    assert d(g.params, s, 1) == -d(g.params, s, 0) < 0 and t(g.params, s, 1) < 0


# ---- the kit's engines on Y --------------------------------------------------------------
RACE = "a1 a3 b1 b3 c1 c3"  # size 5: x wins at once on d1, then e1; and alpha-beta sees it


def test_alphabeta_minimax_and_mcts():
    from zerosum.search import alphabeta, mcts, minimax

    g = make_game("y", board_size=3)
    result = alphabeta(g, g.initial_state(), depth=6)
    assert result.value > 0  # the first player wins
    s = play(g, "b1 a1")
    assert minimax(g, s, depth=5).value == alphabeta(g, s, depth=5).value
    g = make_game("y", board_size=4)
    s = play(g, "a1 a2 b1 b2 c1 c2")
    for name in ("distance", "two_distance"):
        assert g.action_to_string(alphabeta(g, s, depth=2, heuristic=name).action) == "d1"
    result = mcts(g, s, sims=300, seed=0)
    assert g.action_to_string(result.action) == "d1" and result.value > 0


def test_search_agents_and_vector_env():
    g = make_game("y", board_size=5)
    kit_parts.agents_play_legal_moves(g, ("mcts(sims=50)", "alphabeta(depth=2, heuristic=distance)",
                                          G.default_opponent), play(g, "c2"))
    kit_parts.vector_env_with_an_alphabeta_opponent("y_v0", 3, 30, board_size=5)


def test_play_reads_cells():
    text = kit_parts.play_main_text(["y", "--variant", "board_size=5", "--opponent", "mcts(sims=30)", "--seed", "0"],
                                    ["help a", "hint", "e5", "c2", "quit"])
    assert "legal moves starting with 'a'" in text and "hint: " in text and "You left the game." in text
    assert "e5 is off the board" in text
    assert re.search(r"^  2 [.o] [.o] x [.o]$", text, re.MULTILINE)  # x on c2: row 2's third cell


def test_env_page_table_matches_the_spaces():
    from zerosum.envs import y_v0

    kit_parts.env_docstring_table_matches_the_spaces(y_v0)


def test_tournament_evaluate_and_replay_gif(tmp_path):
    _, frames = kit_parts.tournament_evaluate_and_replay_gif(tmp_path, "y", ["random", "alphabeta(depth=1)"],
                                                             "alphabeta(depth=1)", variant={"board_size": 5})
    assert frames >= 6  # the empty board and a frame a move: no win comes before the fifth move
