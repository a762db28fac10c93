"""Clobber: the conformance kit, perft, the OpenSpiel cross-check at every step, a scripted
game, names, errors, positions, the search knowledge and the kit's engines."""

import re

import numpy as np
import pytest

from tests.games import kit_parts
from tests.games.kit_parts import random_states
from tests.playouts import batched_search_moves_are_legal
from zerosum.envs import clobber_v0
from zerosum.games import IllegalActionError, PositionError, VariantError, make_game
from zerosum.games.clobber import Clobber
from zerosum.search import AlphaBeta
from zerosum.testing import check_game, check_heuristic

G = make_game("clobber")
SMALL = {"rows": 2, "columns": 3}
VARIANTS = [{}, {"rows": 8, "columns": 8}, {"rows": 4, "columns": 5}]


@pytest.mark.parametrize("variant", VARIANTS)
def test_conformance(variant):
    check_game(make_game("clobber", **variant), games=10, seed=5, search_positions=3)


@pytest.mark.parametrize("name", sorted(Clobber.heuristics))
def test_heuristics(name):
    for variant in VARIANTS[:2]:
        check_heuristic(make_game("clobber", **variant), name, positions=30)


# perft from the start; OpenSpiel's clobber gives the same counts (test_openspiel_perft checks the first
# three, bench/clobber.py 5x6 to depth 4 and 8x8 to 3; 74,662,024 (5x6, depth 5) and 111,070,552 (8x8,
# depth 4) were checked against it once, 2026-11-29)
PERFT = [({}, [49, 2116, 80063, 2630382]), ({"rows": 8, "columns": 8}, [112, 11848, 1182276]),
         ({"rows": 4, "columns": 5}, [31, 790, 16339, 268808, 3499000]),
         ({"rows": 3, "columns": 3}, [12, 88, 376, 936, 1840, 872, 592, 0]), (SMALL, [7, 22, 32, 44, 0])]


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_perft(variant, counts):
    assert kit_parts.perft_counts(make_game("clobber", **variant), len(counts)) == counts


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_openspiel_perft(variant, counts):
    assert kit_parts.openspiel_perft_counts("clobber", variant, 3) == counts[:3]


# (variant, random games): about 6,000 compared steps
CROSS_CHECK = [({}, 120), ({"rows": 8, "columns": 8}, 30), ({"rows": 4, "columns": 5}, 80),
               ({"rows": 11, "columns": 3}, 20), ({"rows": 2, "columns": 2}, 10), ({"rows": 32, "columns": 2}, 10),
               ({"rows": 4, "columns": 16}, 10)]


def test_openspiel_cross_check():
    """Identical legal actions, board, player, terminal flag, returns and names at every step."""
    pyspiel = pytest.importorskip("pyspiel")
    rng = np.random.default_rng(5757)
    steps = 0
    for variant, games in CROSS_CHECK:
        g = make_game("clobber", **variant)
        game = pyspiel.load_game("clobber", variant)
        assert (g.num_actions, g.max_game_length) == (game.num_distinct_actions(), game.max_game_length())

        def same_board(s, os_state, g=g):
            # OpenSpiel's rows: the rank (right-aligned), then the cells; the column letters last
            lines = str(os_state).split("\n")
            assert [line.strip().lstrip("0123456789") for line in lines[: g.rows]] == g.cells(s)

        report = kit_parts.cross_check_with_names(g, game, games, rng, same_board)
        assert (report.outcomes[1] > 0 and report.outcomes[2] > 0) or games <= 10
        steps += report.steps
    assert steps > 5000


def test_scripted_game():
    g = make_game("clobber", **SMALL)
    s = g.initial_state()
    assert g.cells(s) == ["xox", "oxo"]  # a white piece in the bottom-left corner
    assert g.describe_actions(g.legal_actions(s), s) == "b2c2, b2b1, b2a2, a1a2, a1b1, c1c2, c1b1"
    for move, board in [("a1-a2", ["oox", ".xo"]), ("c2xb2", ["ox.", ".xo"]), ("a2b2", [".o.", ".xo"])]:
        s = g.apply(s, g.string_to_action(move, s))
        assert g.cells(s) == board and not g.is_terminal(s)
    with pytest.raises(IllegalActionError, match=r"\(b1a1\) is not legal here: a1 is empty: every move must take"):
        g.apply(s, g.string_to_action("b1a1", s))
    s = g.apply(s, g.string_to_action("b1c1", s))  # white's piece on b2 touches no black piece: black wins
    assert g.render(s) == "2  . o .\n1  . . x\n   a b c\nblack wins"
    assert g.is_terminal(s) and g.returns(s) == (-1.0, 1.0) and len(g.legal_actions(s)) == 0


def test_names():
    assert G.action_to_string(1) == "a5b5" and G.action_to_string(2) == "a5a4" and G.string_to_action("c5b5") == 11
    for a in range(G.num_actions):
        name = G.action_to_string(a)
        if "?" not in name:
            assert G.string_to_action(name) == a
    assert G.string_to_action("A5-B5") == G.string_to_action("a5xb5") == G.string_to_action(" 1 ") == 1
    g = make_game("clobber", rows=11, columns=3)
    assert g.action_to_string(1) == "a11b11" and g.string_to_action("a11b11") == 1
    for text in ("a5c5", "a5b4", "g5g4", "a6a5", "a5", "", "a5b5c5", "120"):
        with pytest.raises(IllegalActionError, match="write the square a piece leaves and the square it takes"):
            G.string_to_action(text)


def test_illegal_reasons():
    s = G.initial_state()
    for move, why in [("b5c5", "no white piece on b5"), ("c4c3", "no white piece on c4")]:
        with pytest.raises(IllegalActionError, match=re.escape(why)):
            G.apply(s, G.string_to_action(move))
    with pytest.raises(IllegalActionError, match=re.escape("that move leaves the board")):
        G.apply(s, 0)  # a5 north
    s = G.position(["oo....", "x.....", "......", "......", "......"], to_move="white")
    with pytest.raises(IllegalActionError, match=re.escape("b5 holds a white piece")):
        G.apply(s, G.string_to_action("a5b5"))
    with pytest.raises(IllegalActionError, match=re.escape("b4 is empty: every move must take an opponent's piece")):
        G.apply(s, G.string_to_action("b5b4"))
    with pytest.raises(IllegalActionError, match="an int in|out of range"):
        G.apply(s, 120)


@pytest.mark.parametrize(("bad", "match"), [
    ({"rows": 1}, "rows=1 is not allowed: an int from 2 to 32"),
    ({"rows": 33}, "rows=33 is not allowed: an int from 2 to 32"),
    ({"columns": 1}, "columns=1 is not allowed: an int from 2 to 26"),
    ({"columns": 27}, "columns=27 is not allowed: an int from 2 to 26"),
    ({"rows": 9, "columns": 8}, r"columns=8 is not allowed: at most 7 columns with rows=9: rows \* columns <= 64"),
    ({"rows": "5"}, "rows='5' is not allowed"),
    ({"size": 8}, "unknown name 'size'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("clobber", **bad)


def test_variant_sizes():
    assert (G.num_actions, G.max_moves, G.max_game_length, G.observation_shape) == (120, 49, 29, (5, 6, 3))
    g = make_game("clobber", rows=8, columns=8)
    assert (g.num_actions, g.max_moves, g.max_game_length, g.cells(g.initial_state())[0]) == (256, 112, 63, "xoxoxoxo")
    assert make_game("clobber", rows=8, columns=8) == Clobber(8, 8) != G


def test_position_round_trip_and_observation():
    g = make_game("clobber", rows=8, columns=8)  # bit 63 in use
    for s in random_states(g, 100, seed=11):
        to_move = ("white", "black")[int(s[2])]
        assert np.array_equal(g.position(g.cells(s), to_move), s)
        assert np.array_equal(g.position(g.render(s).rsplit("\n", 2)[0], to_move), s)  # the drawing reads back
        white, black = g.observation(s, 0), g.observation(s, 1)
        assert np.array_equal(white[:, :, 0], black[:, :, 1]) and np.array_equal(white[:, :, 1], black[:, :, 0])
        assert np.array_equal(white[:, :, 0], np.array([[ch == "o" for ch in row] for row in g.cells(s)]))
        assert white[:, :, 2].all() == (s[2] == 0) and black[:, :, 2].all() == (s[2] == 1)


@pytest.mark.parametrize(("board", "match"), [
    (["oxox"] * 3, "a 5x6 clobber board is 5 rows of 6 cells"),
    (["oxoxoz"] + ["......"] * 4, "cells of o, x or '.'"),
])
def test_position_errors(board, match):
    with pytest.raises(PositionError, match=match):
        G.position(board)
    with pytest.raises(PositionError, match="'white' or 'black'"):
        G.position(G.cells(G.initial_state()), to_move="red")


def test_heuristic_values():
    mobility, movable = G.heuristics["mobility"].fn, G.heuristics["movable"].fn
    assert mobility(G.params, G.initial_state(), 0) == 0 == movable(G.params, G.initial_state(), 1)
    # white: a5 (takes b5 or a4) and d5 (dead); black: b5 (takes a5) and a4 (takes a5)
    s = G.position(["ox.o..", "x.....", "......", "......", "......"], to_move="white")
    assert movable(G.params, s, 0) == 1 - 2 and mobility(G.params, s, 0) == (10 + 1) - (10 + 10)
    assert mobility(G.params, s, 1) == -mobility(G.params, s, 0)


def test_ordering_takes_the_busiest_piece_first():
    s = G.position(["oxo...", "x.....", "......", "......", "......"], to_move="black")
    moves = G.legal_actions(s)
    scores = np.zeros(len(moves))
    G.kernels.order(G.params, s, moves, len(moves), scores)
    assert {G.action_to_string(int(a)) for a in moves} == {"b5a5", "b5c5", "a4a5"}
    assert G.action_to_string(int(moves[np.argmax(scores)])) in ("b5a5", "a4a5")  # a5 has two moves, c5 one


def test_the_env_docstring_table_matches_the_spaces():
    kit_parts.env_docstring_table_matches_the_spaces(clobber_v0)


# ---- the kit's engines on Clobber ---------------------------------------------------------------
def test_alphabeta_solves_small_boards():
    """Alpha-beta equals minimax, and solves the smallest boards: 2x3 is a loss for white
    (the first player), 3x3 a win in 5 plies."""
    from zerosum.search import minimax

    g = make_game("clobber", **SMALL)
    result = AlphaBeta(g).search(g.initial_state(), g.max_game_length)
    assert result.value < 0 and result.plies_to_end == 4
    assert minimax(g, g.initial_state(), g.max_game_length).value == result.value
    g = make_game("clobber", rows=3, columns=3)
    result = AlphaBeta(g).search(g.initial_state(), g.max_game_length)
    assert result.value > 0 and result.plies_to_end == 5
    for s in random_states(make_game("clobber", rows=4, columns=5), 6, 3):
        small = make_game("clobber", rows=4, columns=5)
        if not small.is_terminal(s):
            for name in ("mobility", "movable"):
                assert AlphaBeta(small, name).search(s, 3).value == minimax(small, s, 3, heuristic=name).value


def test_mcts_and_search_agents_play_legal_moves():
    from zerosum.search import mcts

    g = make_game("clobber", rows=3, columns=3)
    result = mcts(g, g.initial_state(), sims=2000, seed=0)
    assert result.value > 0  # the first player wins 3x3
    # the first random state was over (its old loop then checked no agent): the first one still in play
    state = next(s for s in random_states(G, 5, 8) if not G.is_terminal(s))
    specs = ("mcts(sims=50)", "alphabeta(depth=2, heuristic=movable)", G.default_opponent)
    kit_parts.agents_play_legal_moves(G, specs, state)


def test_vector_env_with_an_alphabeta_opponent():
    kit_parts.vector_env_with_an_alphabeta_opponent("clobber_v0", 3, 30, rows=4, columns=5)


def test_play_reads_moves_and_answers_help_and_hint():
    session, text = kit_parts.play_session_text(G, ["help a5", "hint", "a5-b5", "a5a4", "quit"])
    assert "a5b5, a5a4" in text and "hint: " in text
    assert session.actions[0] == G.string_to_action("a5b5") and len(session.actions) == 2  # a5a4: a5 has moved


def test_the_batched_search_and_an_untrained_alphazero_agent_play_it(tmp_path):
    states = [s for s in random_states(G, 4, 5) if not G.is_terminal(s)]
    batched_search_moves_are_legal(G, states)
    pytest.importorskip("torch")
    small = make_game("clobber", rows=4, columns=5)
    s = kit_parts.untrained_alphazero_plays_out(small, tmp_path)
    assert small.returns(s) in ((1.0, -1.0), (-1.0, 1.0))


def test_tournament_evaluate_and_replay_gif(tmp_path):
    kit_parts.tournament_evaluate_and_replay_gif(tmp_path, "clobber", ["random", "alphabeta(depth=2)"],
                                                 "alphabeta(depth=2)", variant={"rows": 4, "columns": 5})
