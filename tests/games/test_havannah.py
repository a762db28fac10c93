"""Havannah: the conformance kit, perft and the OpenSpiel cross-check at every step, scripted
rings, bridges, forks and a draw, the swap, positions, errors and the heuristics."""

import re
from functools import partial

import numpy as np
import pytest

from tests.games import kit_parts
from tests.games.kit_parts import play
from zerosum.games import IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.games.havannah import Havannah
from zerosum.testing import check_game, check_heuristic

G = make_game("havannah")


@pytest.mark.parametrize("variant", [{"board_size": 4, "swap": True}, {"board_size": 6}])
def test_check_game(variant):
    check_game(make_game("havannah", **variant), games=8, seed=1, search_positions=3)


def test_check_game_default():
    check_game(G, games=4, seed=2, search_positions=1)  # depth 2 on base 8: ~28k two-distance leaves


# perft from the start; OpenSpiel's havannah gives the same counts (test_openspiel_perft)
PERFT = [({"board_size": 2}, [7, 42, 210, 600, 1296, 288, 72]),
         ({"board_size": 2, "swap": True}, [7, 49, 252, 810]),
         ({"board_size": 3}, [19, 342, 5814, 93024]),
         ({"board_size": 3, "swap": True}, [19, 361, 6156]),
         ({}, [169, 28392])]


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_perft(variant, counts):
    assert kit_parts.perft_counts(make_game("havannah", **variant), len(counts)) == counts


@pytest.mark.parametrize(("variant", "counts"), [(v, c[:4] if v.get("board_size", 8) > 2 else c) for v, c in PERFT])
def test_openspiel_perft(variant, counts):
    assert kit_parts.openspiel_perft_counts("havannah", variant, len(counts)) == counts


def cross_check(variant, games, seed):
    """Plays ``games`` random games in zerosum and OpenSpiel side by side: the same legal
    actions, board, player to move, terminal flag, returns and names of the actions played
    at every step. Returns the report."""
    import pyspiel

    g = make_game("havannah", **variant)
    return kit_parts.cross_check_with_names(g, pyspiel.load_game("havannah", variant), games, seed,
                                            partial(kit_parts.same_stones_as_openspiel, g))


@pytest.mark.parametrize(("variant", "games"), [({}, 20), ({"board_size": 3}, 150),
                                                ({"board_size": 4, "swap": True}, 150), ({"board_size": 5}, 60),
                                                ({"board_size": 2, "swap": True}, 30), ({"board_size": 13}, 3)])
def test_openspiel_cross_check(variant, games):
    """Identical legal actions, board, player, terminal flag and returns at every step."""
    pytest.importorskip("pyspiel")
    report = cross_check(variant, games, seed=57)
    assert report.steps > games and report.games == games


# (variant, moves, outcome, board row 1 first): base 4, corners a1 d1 g4 g7 d7 a4
SCRIPTED = [
    # a bridge along row 1, corner a1 to corner d1
    ({"board_size": 4}, "a1 d4 b1 d5 c1 e5 d1", Outcome.P0_WINS,
     ["xxxx", ".....", "......", "...o...", "..oo..", ".....", "...."]),
    # a fork: edges row 1 (b1), column a (a2) and the upper right (e2)
    ({"board_size": 4}, "b1 d4 b2 d5 a2 e5 c2 e6 d2 f6 e2", Outcome.P0_WINS,
     [".x..", "xxxxx", "......", "...o...", "..oo..", "..oo.", "...."]),
    # a ring around the empty d4
    ({"board_size": 4}, "c3 a1 d3 c1 e4 g7 e5 a4 d5 g4 c4", Outcome.P0_WINS,
     ["o.o.", ".....", "..xx..", "o.x.x.o", "..xx..", ".....", "...o"]),
    # a ring around an own stone: o closes it
    ({"board_size": 4}, "a1 d4 a2 c3 b1 d3 g7 e4 f7 e5 g6 d5 d7 c4", Outcome.P1_WINS,
     ["xx..", "x....", "..oo..", "..ooo..", "..oo..", "....x", "x.xx"]),
    # a full board without a ring, bridge or fork (found by OpenSpiel's random play)
    ({"board_size": 3}, "d5 a2 a1 b3 b4 b2 d4 c5 e4 e5 c3 d2 d3 b1 c2 e3 c1 c4 a3", Outcome.DRAW,
     ["xox", "ooxo", "xoxxo", "xoxx", "oxo"]),
]


@pytest.mark.parametrize(("variant", "moves", "outcome", "board"), SCRIPTED)
def test_scripted_games(variant, moves, outcome, board):
    kit_parts.scripted_game_ends(make_game("havannah", **variant), moves, outcome, board)


@pytest.mark.parametrize(("variant", "moves", "outcome", "board"), SCRIPTED)
def test_scripted_games_in_openspiel(variant, moves, outcome, board):
    pyspiel = pytest.importorskip("pyspiel")
    g = make_game("havannah", **variant)
    o = pyspiel.load_game("havannah", variant).new_initial_state()
    for m in moves.split():
        o.apply_action(g.string_to_action(m))
    assert o.is_terminal() and tuple(o.returns()) == g.returns(play(g, moves))


def test_sharp_corner_and_triangle_are_not_rings():
    """Three stones round a point (a triangle) and a chain bent at 60 degrees win nothing."""
    g = make_game("havannah", board_size=4)
    s = play(g, "d4 a1 d3 g7 e4")  # d4 d3 e4: three mutually adjacent cells
    assert not g.is_terminal(s)
    s = play(g, "d4 a1 c3 g7 d3 a4 c4 g4 e5")
    assert not g.is_terminal(s)


def test_swap_openings():
    """Every swap of a first stone, as OpenSpiel: the stone changes hands, the count stays."""
    pytest.importorskip("pyspiel")
    import pyspiel

    g = make_game("havannah", board_size=3, swap=True)
    game = pyspiel.load_game("havannah", {"board_size": 3, "swap": True})
    for first in g.legal_actions(g.initial_state()):
        s = g.apply(g.initial_state(), int(first))
        assert int(first) in g.legal_actions(s) and g.string_to_action("swap", s) == first
        s = g.apply(s, int(first))
        o = game.new_initial_state()
        o.apply_action(int(first))
        o.apply_action(int(first))
        kit_parts.same_stones_as_openspiel(g, s, o)
        assert list(g.legal_actions(s)) == o.legal_actions() and g.current_player(s) == o.current_player() == 0
    with pytest.raises(IllegalActionError, match="a stone is taken only by the swap"):
        g.apply(play(g, "c3 swap"), g.string_to_action("c3"))


def test_names_and_illegal_moves():
    assert G.action_to_string(0) == "a1" and G.action_to_string(112) == "h8" and G.action_to_string(224) == "o15"
    assert G.string_to_action("h8") == 112 and G.string_to_action(" O15 ") == 224
    for text in ("p1", "a16", "a0", "", "8h", "h8x", "swap"):
        with pytest.raises(IllegalActionError, match="write a cell as its column letter a-o and row number 1-15"):
            G.string_to_action(text)
    with pytest.raises(IllegalActionError, match="i1 is off the board: row 1 has columns a-h"):
        G.string_to_action("i1")
    with pytest.raises(IllegalActionError, match="h8 is occupied"):
        G.apply(play(G, "h8"), 112)
    with pytest.raises(IllegalActionError, match="o1 is off the board"):
        G.apply(G.initial_state(), 14)


@pytest.mark.parametrize(("bad", "match"), [
    ({"board_size": 1}, "board_size=1 is not allowed: an int from 2 to 13"),
    ({"board_size": 14}, "board_size=14 is not allowed: an int from 2 to 13"),
    ({"board_size": 8.0}, "board_size=8.0 is not allowed"),
    ({"swap": "yes"}, "swap='yes' is not allowed: True or False"),
    ({"base": 5}, "unknown name 'base'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("havannah", **bad)


def test_variant_sizes():
    assert (G.num_actions, G.max_moves, G.max_game_length, G.observation_shape) == (225, 169, 169, (15, 15, 4))
    g = make_game("havannah", board_size=4, swap=True)
    assert (g.num_actions, g.max_moves, g.max_game_length, g.observation_shape, g.diameter) == (49, 37, 38,
                                                                                                (7, 7, 4), 7)
    assert make_game("havannah", board_size=8) == G == Havannah() != Havannah(swap=True)


def test_render_and_position_round_trip():
    g = make_game("havannah", board_size=3)
    s = play(g, "b2 a1")
    assert g.render(s).splitlines() == ["       a b c", "    1 o . . d", "   2 . x . . e", "  3 . . . . .",
                                        "   4 . . . .", "    5 . . .",
                                        "x to move (a ring, a bridge of two corners or a fork of three edges wins)"]
    rng = np.random.default_rng(3)
    for variant in ({"board_size": 3}, {"board_size": 5, "swap": True}, {}):
        g = make_game("havannah", **variant)
        for _ in range(20):
            s = g.initial_state()
            for _ in range(int(rng.integers(0, g.max_game_length + 1))):
                legal = g.legal_actions(s)
                child = g.apply(s, int(legal[rng.integers(len(legal))]))
                if g.is_terminal(child):
                    break
                s = child
            assert np.array_equal(g.position(g.cells(s), "xo"[int(s[0])]), s)


def test_position_swapped_opening():
    g = make_game("havannah", board_size=3, swap=True)
    assert np.array_equal(g.position(["...", "....", "..o..", "....", "..."]), play(g, "c3 swap"))


@pytest.mark.parametrize(("board", "to_move", "match"), [
    (["...", "....", ".....", "....", ".."], None, "5 rows of x, o or '.', of 3, 4, 5, 4, 3 cells"),
    (["xx.", "....", ".....", "....", "..."], None, "x has as many stones as o or one more; got x 2, o 0"),
    (["...", "....", "..o..", "....", "..."], None, "got x 0, o 1"),
    (["xxx", "o...", "o....", "....", "..."], None, "x has a bridge or a fork"),
    (["...", "....", ".....", "....", "..."], "o", "with x 0 and o 0 stones, x is to move; got to_move='o'"),
])
def test_position_errors(board, to_move, match):
    with pytest.raises(PositionError, match=re.escape(match)):
        make_game("havannah", board_size=3).position(board, to_move)


def test_observation_planes():
    s = play(G, "h8 a1")
    o0, o1 = G.observation(s, 0), G.observation(s, 1)
    assert o0.shape == (15, 15, 4) and o0.dtype == np.int8
    assert o0[7, 7, 0] == o0[0, 0, 1] == o1[0, 0, 0] == o1[7, 7, 1] == 1
    assert o0[..., :2].sum() == 2 and o0[..., 2].sum() == 169 - 2
    assert o0[..., 3].sum() == 169 and not o1[..., 3].any() and not o0[0, 14].any()


@pytest.mark.parametrize("name", ["distance", "two_distance"])
@pytest.mark.parametrize("variant", [{}, {"board_size": 4, "swap": True}])
def test_check_heuristic(name, variant):
    check_heuristic(make_game("havannah", **variant), name, positions=20)


def test_heuristic_values():
    g = make_game("havannah", board_size=4)
    d = g.heuristic("distance").fn
    assert d(g.params, g.initial_state(), 0) == 0
    # x on a1 b1 c1 is one stone (d1) from a bridge; o's d4 d5 e5 need at least two
    s = play(g, "a1 d4 b1 d5 c1 e5")
    assert d(g.params, s, 0) > 0 > d(g.params, s, 1) and d(g.params, s, 0) == -d(g.params, s, 1)
    assert g.heuristic("two_distance").fn(g.params, s, 0) > 0


# ---- the kit's engines on Havannah -------------------------------------------------------
def test_alphabeta_minimax_and_mcts():
    from zerosum.search import alphabeta, mcts, minimax

    g = make_game("havannah", board_size=4)
    s = play(g, "a1 d4 b1 d5 c1 e5")  # x bridges on d1
    for name in ("distance", "two_distance"):
        assert g.action_to_string(alphabeta(g, s, depth=2, heuristic=name).action) == "d1"
    assert minimax(g, s, depth=2).value == alphabeta(g, s, depth=2).value > 0
    result = mcts(g, s, sims=300, seed=0)
    assert g.action_to_string(result.action) == "d1" and result.value > 0


def test_search_agents_and_vector_env():
    g = make_game("havannah", board_size=4, swap=True)
    kit_parts.agents_play_legal_moves(g, ("mcts(sims=50)", "alphabeta(depth=2, heuristic=distance)",
                                          G.default_opponent), play(g, "d4"))
    kit_parts.vector_env_with_an_alphabeta_opponent("havannah_v0", 3, 30, board_size=3)


def test_play_reads_cells_and_swap():
    text = kit_parts.play_main_text(["havannah", "--variant", "board_size=4", "swap=true", "--opponent",
                                     "mcts(sims=30)", "--second", "--seed", "0"],
                                    ["help a", "hint", "e1", "swap", "quit"])
    assert "legal moves starting with 'a'" in text and "hint: " in text and "You left the game." in text
    assert "e1 is off the board" in text
    first = re.search(r"engine \(player 0\) plays ([a-g][1-7])", text).group(1)
    board = text.split("engine (player 0) plays")[2].splitlines()[3:10]  # the board after the swap and a reply
    rows = ["".join(ch for ch in line.split(maxsplit=1)[1] if ch in "xo.") for line in board]
    y, x = int(first[1:]) - 1, "abcdefg".index(first[0])
    assert rows[y][x - max(0, y - 3)] == "o"  # the first stone changed hands


def test_env_page_table_matches_the_spaces():
    from zerosum.envs import havannah_v0

    kit_parts.env_docstring_table_matches_the_spaces(havannah_v0)


def test_tournament_evaluate_and_replay_gif(tmp_path):
    _, frames = kit_parts.tournament_evaluate_and_replay_gif(tmp_path, "havannah", ["random", "alphabeta(depth=1)"],
                                                             "alphabeta(depth=1)", variant={"board_size": 3})
    assert frames >= 6  # the empty board and a frame a move: no win comes before the fifth move
