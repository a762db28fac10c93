"""Hex: the conformance kit, perft and the OpenSpiel cross-check at every step, scripted
games, the pie rule, positions, errors and the heuristics."""

import re

import numpy as np
import pytest

from tests.games import kit_parts
from tests.games.kit_parts import play
from zerosum.games import IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.games.hex import Hex
from zerosum.testing import check_game, check_heuristic

G = make_game("hex")
VARIANTS = [{}, {"board_size": 5, "swap": True}, {"num_rows": 4, "num_cols": 7}, {"board_size": 7}]


@pytest.mark.parametrize("variant", VARIANTS[1:])
def test_check_game(variant):
    check_game(make_game("hex", **variant), games=8, seed=1, search_positions=3)


def test_check_game_default():
    check_game(G, games=4, seed=2, search_positions=2)


# perft from the start: OpenSpiel's hex gives the same counts (test_openspiel_perft)
PERFT = [({"board_size": 3}, [9, 72, 504, 3024, 15120, 54720, 146880]),
         ({"board_size": 3, "swap": True}, [9, 81, 576, 3528, 18144, 69840]),
         ({"num_rows": 2, "num_cols": 3}, [6, 30, 120, 240, 480, 144]),
         ({"board_size": 4}, [16, 240, 3360, 43680]),
         ({"board_size": 5, "swap": True}, [25, 625, 14400]),
         ({}, [121, 14520])]


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_perft(variant, counts):
    assert kit_parts.perft_counts(make_game("hex", **variant), len(counts)) == counts


@pytest.mark.parametrize(("variant", "counts"), [(v, c[:5]) for v, c in PERFT])
def test_openspiel_perft(variant, counts):
    assert kit_parts.openspiel_perft_counts("hex", variant, len(counts)) == counts


def cross_check(variant, games, seed):
    """Plays ``games`` random games in zerosum and OpenSpiel side by side: the same legal
    actions, board, player to move, terminal flag, returns and names of the actions played
    at every step. Returns the number of steps compared."""
    import pyspiel

    g = make_game("hex", **variant)

    def same_board(s, os_state):
        assert "".join(g.cells(s)) == "".join(str(os_state).split())

    return kit_parts.cross_check_with_names(g, pyspiel.load_game("hex", variant), games, seed, same_board).steps


@pytest.mark.parametrize(("variant", "games"), [({}, 30), ({"board_size": 5, "swap": True}, 100),
                                                ({"num_rows": 4, "num_cols": 7}, 100), ({"board_size": 7}, 50),
                                                ({"board_size": 2, "swap": True}, 20)])
def test_openspiel_cross_check(variant, games):
    """Identical legal actions, board, player, terminal flag and returns at every step."""
    pytest.importorskip("pyspiel")
    assert cross_check(variant, games, seed=47) > games


def test_openspiel_swap_openings():
    """Every swap of a first stone, on a square board with the pie rule, as OpenSpiel."""
    pytest.importorskip("pyspiel")
    import pyspiel

    g = make_game("hex", board_size=4, swap=True)
    game = pyspiel.load_game("hex", {"board_size": 4, "swap": True})
    for first in range(16):
        s = g.apply(g.apply(g.initial_state(), first), 16)
        o = game.new_initial_state()
        o.apply_action(first)
        o.apply_action(16)
        assert "".join(g.cells(s)) == "".join(str(o).split())
        assert list(g.legal_actions(s)) == o.legal_actions() and g.current_player(s) == o.current_player() == 0


# (variant, moves, outcome, board top row first)
SCRIPTED = [
    ({"board_size": 3}, "a1 b1 a2 b2 a3", Outcome.P0_WINS, ["xo.", "xo.", "x.."]),
    ({"board_size": 3}, "b1 a2 c1 b2 a3 c2", Outcome.P1_WINS, [".xx", "ooo", "x.."]),
    # the short diagonal: (r, c) touches (r+1, c-1)
    ({"board_size": 4}, "d1 a1 c2 a2 b3 a3 a4", Outcome.P0_WINS, ["o..x", "o.x.", "ox..", "x..."]),
    ({"num_rows": 2, "num_cols": 3}, "c1 a1 b2", Outcome.P0_WINS, ["o.x", ".x."]),
    ({"board_size": 5}, "c3 a1 c2 a2 c1 a3 c4 a4 b5", Outcome.P0_WINS,
     ["o.x..", "o.x..", "o.x..", "o.x..", ".x..."]),
]


@pytest.mark.parametrize(("variant", "moves", "outcome", "board"), SCRIPTED)
def test_scripted_games(variant, moves, outcome, board):
    kit_parts.scripted_game_ends(make_game("hex", **variant), moves, outcome, board)


def test_pie_rule():
    g = make_game("hex", board_size=5, swap=True)
    s = play(g, "b4")
    assert g.action_to_string(25) == "swap" and 25 in g.legal_actions(s)
    s = g.apply(s, g.string_to_action("swap", s))
    assert g.cells(s)[1] == "...o." and g.current_player(s) == 0  # b4 (row 4, column b) becomes d2 for white
    assert 25 not in g.legal_actions(s) and 25 not in g.legal_actions(play(g, "c3 c2"))
    assert 25 not in g.legal_actions(g.initial_state())
    with pytest.raises(IllegalActionError, match="swap is legal only as white's first move"):
        g.apply(s, 25)
    with pytest.raises(IllegalActionError, match="cannot read move 'swap'"):
        G.string_to_action("swap")


def test_names():
    assert G.action_to_string(0) == "a1" and G.action_to_string(60) == "f6" and G.action_to_string(120) == "k11"
    assert G.string_to_action("f6") == 60 and G.string_to_action(" K11 ") == 120
    g = make_game("hex", num_rows=3, num_cols=5)
    assert [g.action_to_string(a) for a in (0, 4, 5, 14)] == ["a1", "e1", "a2", "e3"]
    for text in ("l1", "a12", "a0", "", "6f", "f6x", "60"):
        with pytest.raises(IllegalActionError, match="write a cell as its column letter a-k and row number 1-11"):
            G.string_to_action(text)
    with pytest.raises(IllegalActionError, match="f6 is occupied"):
        G.apply(play(G, "f6"), 60)


@pytest.mark.parametrize(("bad", "match"), [
    ({"board_size": 1}, "board_size=1 is not allowed: an int from 2 to 26"),
    ({"board_size": 27}, "board_size=27 is not allowed: an int from 2 to 26"),
    ({"num_rows": 1}, "num_rows=1 is not allowed: an int from 2 to 26, or None"),
    ({"num_cols": 0}, "num_cols=0 is not allowed"),
    ({"board_size": "11"}, "board_size='11' is not allowed"),
    ({"swap": 1}, "swap=1 is not allowed: True or False"),
    ({"num_rows": 4, "num_cols": 5, "swap": True}, r"swap=True is not allowed: False on a board that is not square"),
    ({"size": 5}, "unknown name 'size'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("hex", **bad)


def test_variant_sizes():
    assert (G.num_actions, G.max_game_length, G.observation_shape, G.rows, G.columns) == (121, 121, (11, 11, 4), 11, 11)
    g = make_game("hex", board_size=9, num_cols=4)
    assert (g.rows, g.columns, g.num_actions, g.observation_shape) == (9, 4, 36, (9, 4, 4))
    g = make_game("hex", board_size=6, swap=True)
    assert (g.num_actions, g.max_moves, g.max_game_length, g.swap_action) == (37, 36, 37, 36)
    assert make_game("hex", board_size=11, num_rows=11) == G == Hex() != Hex(board_size=9)


def test_render_and_position_round_trip():
    g = make_game("hex", board_size=3)
    s = play(g, "b2 a1")
    assert g.render(s).splitlines() == ["    a b c", "  1 o . .", "   2 . x .", "    3 . . .",
                                        "x to move (x joins top and bottom, o left and right)"]
    rng = np.random.default_rng(3)
    for variant in VARIANTS:
        g = make_game("hex", **variant)
        for s in kit_parts.random_states(g, 30, rng, max_plies=g.max_game_length + 1):
            assert np.array_equal(g.position(g.cells(s), "xo"[int(s[0])]), s)


@pytest.mark.parametrize(("board", "match"), [
    (["...", "..."], "3 rows of 3 cells"),
    (["x..", "...", "..z"], "3 rows of 3 cells"),
    (["xx.", "...", "..."], "x has as many stones as o or one more; got x 2, o 0"),
    (["o..", "...", "..."], "got x 0, o 1"),
    (["xo.", "xo.", "x.o"], "x has a winning chain but did not move last"),
])
def test_position_errors(board, match):
    with pytest.raises(PositionError, match=match):
        make_game("hex", board_size=3).position(board)


def test_position_swap_and_to_move():
    g = make_game("hex", board_size=3, swap=True)
    s = g.position(["...", "o..", "..."])
    assert g.current_player(s) == 0 and np.array_equal(s, play(g, "b1 swap"))
    s = play(g, "b1 swap a1")
    assert np.array_equal(g.position(g.cells(s), to_move="o"), s) and g.current_player(g.position(g.cells(s))) == 0
    with pytest.raises(PositionError, match="o is to move"):
        g.position(["x..", "...", "..."], to_move="x")


def test_observation_planes():
    s = play(G, "f6 a1")
    o0, o1 = G.observation(s, 0), G.observation(s, 1)
    assert o0.shape == (11, 11, 4) and o0.dtype == np.int8
    assert o0[5, 5, 0] == o0[0, 0, 1] == o1[0, 0, 0] == o1[5, 5, 1] == 1
    assert o0[..., :2].sum() == 2 and o0[..., 2].all() and not o1[..., 2].any()
    assert o0[..., 3].all() and not o1[..., 3].any()


@pytest.mark.parametrize("name", ["distance", "two_distance"])
@pytest.mark.parametrize("variant", [{}, {"board_size": 5, "swap": True}, {"num_rows": 4, "num_cols": 7}])
def test_check_heuristic(name, variant):
    check_heuristic(make_game("hex", **variant), name, positions=20)


def test_heuristic_values():
    g = make_game("hex", board_size=5)
    d, t = g.heuristic("distance").fn, g.heuristic("two_distance").fn
    s = g.initial_state()
    assert d(g.params, s, 0) == 0 and t(g.params, s, 0) == 0
    s = play(g, "c1 e1 c2 e2 c3 e3")  # black needs two more stones (potential 3), white four (5)
    assert d(g.params, s, 0) == 200 and d(g.params, s, 1) == -200
    s = g.apply(s, g.string_to_action("c4"))  # black one stone away, white still four
    assert d(g.params, s, 0) == 300
    s = play(g, "c3")  # black four stones away (potential 5), white five (6)
    assert d(g.params, s, 0) == 100 and t(g.params, s, 0) > 0 > t(g.params, s, 1)


# ---- the kit's engines on Hex ---------------------------------------------------------------
RACE = "c1 a5 c2 b5 c3 d5 c4 e5"  # 5x5: both need c5, black to move wins there and loses anywhere else


def test_alphabeta_and_minimax_solve_three_by_three():
    """The first player wins 3x3 (from the centre); alpha-beta and minimax agree, and a
    winning chain is found at once."""
    from zerosum.search import alphabeta, minimax

    g = make_game("hex", board_size=3)
    result = alphabeta(g, g.initial_state(), depth=9)
    assert result.value > 0 and g.action_to_string(result.action) == "b2"
    s = play(g, "b2 a1")
    assert minimax(g, s, depth=7).value == alphabeta(g, s, depth=7).value > 0
    g = make_game("hex", board_size=5)
    s = play(g, RACE)
    for name in ("distance", "two_distance"):
        assert g.action_to_string(alphabeta(g, s, depth=2, heuristic=name).action) == "c5"


def test_mcts_and_search_agents_play_legal_moves():
    from zerosum.search import mcts

    g = make_game("hex", board_size=5, swap=True)
    result = mcts(g, play(g, RACE), sims=400, seed=0)
    assert g.action_to_string(result.action) == "c5" and result.value > 0
    kit_parts.agents_play_legal_moves(g, ("mcts(sims=50)", "alphabeta(depth=2, heuristic=distance)",
                                          G.default_opponent), play(g, "b4"))


def test_vector_env_with_an_alphabeta_opponent():
    kit_parts.vector_env_with_an_alphabeta_opponent("hex_v0", 3, 40, board_size=5, swap=True)


def test_play_reads_cells_and_swap():
    text = kit_parts.play_main_text(["hex", "--variant", "board_size=5", "swap=true", "--opponent", "mcts(sims=30)",
                                     "--second", "--seed", "0"], ["help a", "hint", "swap", "quit"])
    assert "legal moves starting with 'a'" in text and "hint: " in text and "You left the game." in text
    first = re.search(r"engine \(player 0\) plays ([a-e])([1-5])", text)
    swapped = "abcde"[int(first.group(2)) - 1] + str("abcde".index(first.group(1)) + 1)  # (r, c) -> (c, r)
    g = make_game("hex", board_size=5, swap=True)
    s = play(g, f"{first.group(1)}{first.group(2)} swap")
    assert g.cells(s)[int(swapped[1]) - 1]["abcde".index(swapped[0])] == "o"
    assert g.render(s).splitlines()[int(swapped[1])] in text  # the swapped stone's row, as the board showed it
