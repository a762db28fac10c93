"""Ultimate tic-tac-toe: the conformance kit, perft, the OpenSpiel cross-check at every step,
a scripted game with a won board and a free choice, names, errors, positions, the search
knowledge and the kit's engines."""

import re

import numpy as np
import pytest

from tests.games import kit_parts
from tests.playouts import batched_search_moves_are_legal
from zerosum.envs import ultimate_tic_tac_toe_v0
from zerosum.games import IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.games.ultimate_tic_tac_toe import UltimateTicTacToe
from zerosum.search import AlphaBeta
from zerosum.testing import check_game, check_heuristic

G = make_game("ultimate_tic_tac_toe")
# x has won boards 0 and 1 and has two in the top row of board 2, where it is to play
WIN_IN_ONE = ["xxxxxxxx.", "." * 9, "." * 9, "." * 9, "." * 9, "." * 9, "oo.oo.oo.", "o..o.....", "." * 9]


def play(moves, s=None):
    return kit_parts.play(G, moves, s)


def random_states(count, seed):
    return kit_parts.random_states(G, count, seed, max_plies=120)


def test_conformance():
    report = check_game(G, games=30, seed=5, search_positions=4)
    assert report.outcomes["draws"] > 0 or report.outcomes["p0_wins"] + report.outcomes["p1_wins"] == 30


@pytest.mark.parametrize("name", sorted(UltimateTicTacToe.heuristics))
def test_heuristics(name):
    check_heuristic(G, name, positions=40)


# perft from the start, OpenSpiel's counts (test_openspiel_perft checks the first five)
PERFT = [9, 81, 720, 6336, 55080, 473256]


def test_perft():
    assert kit_parts.perft_counts(G, len(PERFT)) == PERFT


def test_openspiel_perft():
    assert kit_parts.openspiel_perft_counts("ultimate_tic_tac_toe", {}, 5) == PERFT[:5]


def test_openspiel_cross_check():
    """Identical legal actions, board, player, terminal flag, returns and names at every step
    of 300 random games (about 20,000 steps), draws and both sides' wins among them."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("ultimate_tic_tac_toe")
    assert (G.num_actions, G.max_game_length) == (game.num_distinct_actions(), game.max_game_length())

    def same_board(s, os_state):
        text = str(os_state)
        assert [line.replace(" ", "") for line in text.split("\n") if line.strip()][:9] == G.cells(s)
        assert text.endswith(f"Forced board: {'any' if G.choosing(s) else int(s[1])}")

    report = kit_parts.cross_check_with_names(G, game, 300, np.random.default_rng(5858), same_board)
    assert report.steps > 15000 and all(report.outcomes[o] > 0 for o in (Outcome.P0_WINS, Outcome.P1_WINS,
                                                                         Outcome.DRAW))


def test_scripted_game_with_a_won_board_and_a_free_choice():
    s = G.initial_state()
    assert G.choosing(s) and G.describe_actions(G.legal_actions(s), s).startswith("Choose local board 0, ")
    s = play(["board 4", "(1,1)"])
    assert G.current_player(s) == 1 and list(G.legal_actions(s)) == [0, 1, 2, 3, 5, 6, 7, 8]
    assert G.action_to_string(0, s) == "Local board 4: o(0,0)"
    s = play(["(0,0)", "x(1,1)", "Local board 4: o(0,1)", "1,1", "(0,2)"], s)  # o takes the top row of board 4
    assert G.render(s).splitlines()[-2:] == ["boards: ... .O. ...", "x to move: a cell of board 2"]
    s = play(["(1,1)"], s)  # sends o to board 4, which is won: o chooses a board
    assert G.choosing(s) and G.current_player(s) == 1 and 4 not in G.legal_actions(s)
    with pytest.raises(IllegalActionError, match="a board is to be chosen first"):
        G.string_to_action("(1,1)", s)
    with pytest.raises(IllegalActionError, match=re.escape("action 4 (Choose local board 4) is not legal here: "
                                                           "board 4 is finished")):
        G.apply(s, 4)
    s = play(["b0"], s)
    assert not G.choosing(s) and G.current_player(s) == 1
    with pytest.raises(IllegalActionError, match=re.escape("cell (1,1) of board 0 is taken")):
        G.apply(s, 4)
    with pytest.raises(IllegalActionError, match="no board is to be chosen now"):
        G.string_to_action("board 3", s)
    with pytest.raises(IllegalActionError, match="the move is on board 0, not 5"):
        G.string_to_action("Local board 5: o(0,0)", s)


def test_a_win_and_a_draw():
    s = G.position(WIN_IN_ONE, forced=2)
    assert not G.is_terminal(s) and G.current_player(s) == 0
    result = AlphaBeta(G).search(s, 2)
    assert result.action == 2 and result.plies_to_end == 1
    s = G.apply(s, 2)
    assert G.is_terminal(s) and G.returns(s) == (1.0, -1.0) and G.render(s).endswith("x wins")
    # a drawn board counts for nobody: every board finished, x's won boards not in a line
    drawn = ["..xxoxxox", "oox.x.ooo", "ooo..xoxo", "xoxx.oxox", "xooooxoxx", "xxooxxoxo", "xxxooooxx",
             "x.oox.xxo", "oxxx.ooox"]  # boards O X O / X O = / X O =: no line of either
    s = G.position(drawn)
    assert G.outcome(s) == Outcome.DRAW and len(G.legal_actions(s)) == 0 and G.render(s).endswith("draw")


def test_names_and_reading():
    assert G.action_to_string(4) == "board 4 / cell (1,1)"
    assert [G.string_to_action(G.action_to_string(a)) for a in range(9)] == list(range(9))
    for text, action in [("4", 4), ("board 7", 7), ("B7", 7), ("Choose local board 3", 3), ("(2,1)", 7),
                         ("2,1", 7), ("o(0,2)", 2), ("Local board 1: x(1,0)", 3)]:
        assert G.string_to_action(text) == action
    for text in ("board 9", "(3,0)", "a1", "", "10", "cell"):
        with pytest.raises(IllegalActionError, match="write 'board N' to choose a board"):
            G.string_to_action(text)
    for s in random_states(40, 2):
        for a in G.legal_actions(s):
            assert G.string_to_action(G.action_to_string(int(a), s), s) == a


def test_no_variants():
    with pytest.raises(VariantError, match="unknown name 'size'"):
        make_game("ultimate_tic_tac_toe", size=4)
    assert (G.num_actions, G.max_moves, G.max_game_length, G.observation_shape) == (9, 9, 162, (9, 9, 6))


def test_position_round_trip_and_observation():
    for s in random_states(150, seed=11):
        forced = None if G.choosing(s) else int(s[1])
        assert np.array_equal(G.position(G.cells(s), forced=forced), s)
        assert np.array_equal(G.position(G.render(s).rsplit("\n", 2)[0], forced=forced), s)  # the drawing reads back
        o0, o1 = G.observation(s, 0), G.observation(s, 1)
        assert np.array_equal(o0[..., 0], np.array([[ch == "x" for ch in row] for row in G.cells(s)]))
        assert np.array_equal(o0[..., 0], o1[..., 1]) and np.array_equal(o0[..., 2:4], o1[..., 2:4])
        assert o0[..., 4].all() == (G.current_player(s) == 0) and o1[..., 4].all() == (G.current_player(s) == 1)
        if not G.is_terminal(s):
            assert o0[..., 3].all() == G.choosing(s) and o0[..., 2].sum() == (0 if G.choosing(s) else 9)


@pytest.mark.parametrize(("board", "kwargs", "match"), [
    (["x" * 9] * 3, {}, "9 rows of 9 cells"),
    (["xx......."] + ["." * 9] * 8, {}, "x has as many marks as o or one more; got x 2, o 0"),
    (["x........"] + ["." * 9] * 8, {"to_move": "x"}, "with x 1 and o 0 marks, o is to move"),
    (WIN_IN_ONE, {"forced": 0}, "forced=0: an unfinished board 0-8"),
    (WIN_IN_ONE, {"forced": 9}, "forced=9"),
])
def test_position_errors(board, kwargs, match):
    with pytest.raises(PositionError, match=match):
        G.position(board, **kwargs)


def test_heuristic_values():
    boards, threats = G.heuristics["boards"].fn, G.heuristics["threats"].fn
    assert boards(G.params, G.initial_state(), 0) == 0 == threats(G.params, G.initial_state(), 1)
    s = G.position(WIN_IN_ONE, forced=2)
    # x: boards 0 (a corner, 100 + 30) and 1 (an edge, 100 + 20), the big-board threat on the top row 150,
    # two in board 2's top row 10; o: two small threats in each of boards 6 and 7, one in board 8
    assert boards(G.params, s, 0) == 200 and threats(G.params, s, 0) == (130 + 120 + 150 + 10) - (20 + 20 + 10)
    assert threats(G.params, s, 1) == -threats(G.params, s, 0)


def test_ordering_wins_a_board_first():
    s = play(["board 4", "(0,0)", "(1,1)", "(0,1)", "(1,1)"])  # x back in board 4 with two of its top row
    moves = G.legal_actions(s)
    scores = np.zeros(len(moves))
    G.kernels.order(G.params, s, moves, len(moves), scores)
    assert G.action_to_string(int(moves[np.argmax(scores)]), s) == "Local board 4: x(0,2)"


def test_the_env_docstring_table_matches_the_spaces():
    kit_parts.env_docstring_table_matches_the_spaces(ultimate_tic_tac_toe_v0)


# ---- the kit's engines -----------------------------------------------------------------------
def test_mcts_minimax_and_search_agents():
    from zerosum.search import mcts, minimax

    s = G.position(WIN_IN_ONE, forced=2)
    assert mcts(G, s, sims=200, seed=0).action == 2
    for s in random_states(6, 3):
        if not G.is_terminal(s):
            for name in ("boards", "threats"):
                assert AlphaBeta(G, name).search(s, 3).value == minimax(G, s, 3, heuristic=name).value
    # the first random state was over (its old loop then checked no agent): the first one still in play
    state = next(s for s in random_states(5, 8) if not G.is_terminal(s))
    specs = ("mcts(sims=50)", "alphabeta(depth=2, heuristic=boards)", G.default_opponent)
    kit_parts.agents_play_legal_moves(G, specs, state)


def test_vector_env_with_an_alphabeta_opponent():
    kit_parts.vector_env_with_an_alphabeta_opponent("ultimate_tic_tac_toe_v0", 2, 120)


def test_play_reads_boards_and_cells_and_answers_help_and_hint():
    session, text = kit_parts.play_session_text(G, ["help Choose", "hint", "board 4", "board 5", "(1,1)", "quit"])
    assert "Choose local board 0, Choose local board 1" in text and "hint: " in text
    assert session.actions[:2] == [4, 4] and len(session.actions) == 3  # "board 5" refused: a cell is due


def test_the_batched_search_and_an_untrained_alphazero_agent_play_it(tmp_path):
    states = [s for s in random_states(4, 5) if not G.is_terminal(s)]
    batched_search_moves_are_legal(G, states)
    pytest.importorskip("torch")
    s = kit_parts.untrained_alphazero_plays_out(G, tmp_path)
    assert G.outcome(s) in (Outcome.P0_WINS, Outcome.P1_WINS, Outcome.DRAW)


def test_tournament_evaluate_and_replay_gif(tmp_path):
    kit_parts.tournament_evaluate_and_replay_gif(tmp_path, "ultimate_tic_tac_toe", ["random", "mcts(sims=20)"],
                                                 "alphabeta(depth=1)")
