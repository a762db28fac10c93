"""Lines of Action: the conformance kit, perft, the OpenSpiel cross-check at every step, a
scripted game, repetitions and the length limit, names, errors, positions, the search
knowledge and the kit's engines."""

import re

import numpy as np
import pytest

from tests.games import kit_parts
from tests.playouts import batched_search_moves_are_legal
from zerosum.envs import lines_of_action_v0
from zerosum.games import IllegalActionError, PositionError, VariantError, make_game
from zerosum.games.lines_of_action import LinesOfAction
from zerosum.search import AlphaBeta
from zerosum.testing import check_game, check_heuristic

G = make_game("lines_of_action")
SHORT = {"max_game_length": 60}
VARIANTS = [{}, SHORT]
EMPTY = ["........"] * 8


def board(*rows):
    """An 8-row board from the rows given (rank 8 first), the rest empty."""
    return list(rows) + EMPTY[len(rows):]


@pytest.mark.parametrize("variant", VARIANTS)
def test_conformance(variant):
    check_game(make_game("lines_of_action", **variant), games=8, seed=5, search_positions=3)


@pytest.mark.parametrize("name", sorted(LinesOfAction.heuristics))
def test_heuristics(name):
    check_heuristic(G, name, positions=30)


# perft from the start; OpenSpiel's lines_of_action gives the same counts (test_openspiel_perft checks the first
# three; depth 4 and our depth 5 were checked once, 2026-11-29, see the game page)
PERFT = [36, 1244, 44952, 1563208]


def test_perft():
    assert kit_parts.perft_counts(G, 4) == PERFT
    short = make_game("lines_of_action", max_game_length=2)  # the second move ends every line
    assert kit_parts.perft_counts(short, 3) == [36, 1244, 0]


def test_openspiel_perft():
    assert kit_parts.openspiel_perft_counts("lines_of_action", {}, 3) == PERFT[:3]


# (variant, random games): 10,402 compared steps, draws by repetition and by the length limit among them
CROSS_CHECK = [({}, 30), ({"max_game_length": 60}, 40), ({"max_game_length": 150}, 20), ({"max_game_length": 3}, 5)]


def test_openspiel_cross_check():
    """Identical legal actions, board, player, terminal flag, returns and names at every step."""
    pyspiel = pytest.importorskip("pyspiel")
    rng = np.random.default_rng(5758)
    steps = 0
    outcomes = set()
    for variant, games in CROSS_CHECK:
        g = make_game("lines_of_action", **variant)
        game = pyspiel.load_game("lines_of_action", variant)
        assert (g.num_actions, g.max_game_length) == (game.num_distinct_actions(), game.max_game_length())

        def same_board(s, os_state, g=g):
            # OpenSpiel's rows: the rank, then the cells, rank 8 first
            assert [line[1:] for line in str(os_state).split("\n")[:8]] == g.cells(s)

        report = kit_parts.cross_check_with_names(g, game, games, rng, same_board)
        outcomes |= {int(o) for o in report.outcomes}
        steps += report.steps
    assert steps > 5000 and outcomes == {1, 2, 3}


def test_scripted_game():
    s = G.initial_state()
    assert G.cells(s)[0] == ".xxxxxx." and G.cells(s)[1] == "o......o"
    legal = [G.action_to_string(int(a)) for a in G.legal_actions(s)]
    assert legal[:4] == ["b1-h1", "b1-b3", "b1-d3", "c1xa3"] and len(legal) == 36
    s = G.apply(s, G.string_to_action("c1xa3", s))  # c1's diagonal holds c1, b2 empty, a3: two pieces
    assert G.cells(s)[5] == "x......o" and G.cells(s)[7] == ".x.xxxx."
    s = G.apply(s, G.string_to_action("h2-f2", s))  # row 2 holds a2 and h2 only
    assert G.cells(s)[6] == "o....o.."
    with pytest.raises(IllegalActionError, match=re.escape("no black piece on h7")):
        G.apply(s, G.string_to_action("h7-h5", s))


JOIN = board("........", "........", ".o......", "........", "........", ".x......", "........", "x.....o.")


def test_one_group_wins_and_the_mover_first():
    s = G.position(JOIN, to_move="black")
    move = G.string_to_action("a1-a2", s)  # column a holds a1 alone: one square, and a2 touches b3
    s = G.apply(s, move)
    assert G.is_terminal(s) and G.returns(s) == (1.0, -1.0)
    assert G.result_reason(s) == "black's pieces form one group"
    assert G.render(s).endswith("black wins: black's pieces form one group")
    # h6xh8 joins white's two pieces and leaves black one piece, a group too: the mover wins, as in OpenSpiel
    s = G.position(board("......ox", "........", ".......o", "........", "........", "........", "........",
                         "x......."), to_move="white")
    s = G.apply(s, G.string_to_action("h6xh8", s))
    assert G.is_terminal(s) and G.returns(s) == (-1.0, 1.0)


def test_repetition_and_length_limit_are_draws():
    s = G.position(board("x.......", "........", "........", "........", "....o...", "........", "........",
                         "..x....o"), to_move="white")
    s1 = G.apply(s, G.string_to_action("h1-h2", s))
    s2 = G.apply(s1, G.string_to_action("a8-a7", s1))
    s3 = G.apply(s2, G.string_to_action("h2-h1", s2))
    assert not G.is_terminal(s3)
    s4 = G.apply(s3, G.string_to_action("a7-a8", s3))  # the starting board again
    assert G.is_terminal(s4) and G.returns(s4) == (0.0, 0.0) and G.result_reason(s4) == "a repeated board"
    short = make_game("lines_of_action", max_game_length=3)
    s = short.initial_state()
    for _ in range(3):
        s = short.apply(s, int(short.legal_actions(s)[0]))
    assert short.is_terminal(s) and short.result_reason(s) == "the 3-move limit"


def test_names():
    assert G.action_to_string(142) == "b1-h1" and G.action_to_string(289) == "c1xa3"
    for a in range(0, G.num_actions, 7):
        assert G.string_to_action(G.action_to_string(a)) == a
    s = G.initial_state()
    assert G.string_to_action("c1a3", s) == 289 and G.string_to_action("c1a3") == 288  # the capture read from s
    assert G.string_to_action("B1H1") == 142 == G.string_to_action("142")
    for text in ("a9-a1", "i1-a1", "a1", "", "b1-h1-c3", "8192"):
        with pytest.raises(IllegalActionError, match="write the square a piece leaves and the square it reaches"):
            G.string_to_action(text)


def test_illegal_reasons():
    s = G.initial_state()
    for move, why in [("a2-a4", "no black piece on a2"), ("b1-c1", "c1 holds a black piece"),
                      ("b1-c4", "b1-c4 is not along a row, a column or a diagonal"),
                      ("b1-b4", "b1-b4 goes 3 squares, and a piece moves exactly as many squares as its line holds "
                                "pieces: 2 here"),
                      ("c1-a3", "a3 holds a white piece: write c1xa3"),
                      ("b1xb3", "b3 is empty: write b1-b3")]:
        with pytest.raises(IllegalActionError, match=re.escape(why)):
            G.apply(s, G.string_to_action(move))
    s = G.position(board("........", "........", "........", "........", "........", "........", "xo......",
                         "........"), to_move="black")
    with pytest.raises(IllegalActionError, match=re.escape("a2-c2 jumps over the white piece on b2: a piece may jump")):
        G.apply(s, G.string_to_action("a2-c2"))  # row 2 holds a2 and b2: two squares, over white's b2
    with pytest.raises(IllegalActionError, match="an int in|out of range"):
        G.apply(s, 8192)


@pytest.mark.parametrize(("bad", "match"), [
    ({"max_game_length": 0}, "max_game_length=0 is not allowed: an int from 1 to 10000"),
    ({"max_game_length": 10_001}, "max_game_length=10001 is not allowed: an int from 1 to 10000"),
    ({"max_game_length": "9"}, "max_game_length='9' is not allowed"),
    ({"board_size": 8}, "unknown name 'board_size'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("lines_of_action", **bad)


def test_variant_sizes():
    assert (G.num_actions, G.max_moves, G.max_game_length, G.observation_shape) == (8192, 96, 1000, (8, 8, 3))
    assert G.spec.state_size == 6 + 200 and make_game("lines_of_action", max_game_length=7).spec.state_size == 6 + 2
    assert make_game("lines_of_action", max_game_length=60) == LinesOfAction(60) != G


def random_states(game, count, seed):
    """kit_parts.random_states, each after fewer than 80 random moves."""
    return kit_parts.random_states(game, count, seed, max_plies=80)


def test_position_round_trip_and_observation():
    for s in random_states(G, 60, seed=11):
        to_move = ("black", "white")[int(s[2])]
        p = G.position(G.cells(s), to_move)
        assert np.array_equal(p[:3], s[:3])
        assert G.cells(G.position(G.render(s).rsplit("\n", 2)[0], to_move)) == G.cells(s)  # the drawing reads back
        black, white = G.observation(s, 0), G.observation(s, 1)
        assert np.array_equal(black[:, :, 0], white[:, :, 1]) and np.array_equal(black[:, :, 1], white[:, :, 0])
        assert np.array_equal(black[:, :, 0], np.array([[ch == "x" for ch in row] for row in G.cells(s)]))
        assert black[:, :, 2].all() == (s[2] == 0) and white[:, :, 2].all() == (s[2] == 1)


@pytest.mark.parametrize(("rows", "match"), [
    (["xoxo"] * 3, "8 rows of 8 cells"),
    (["xoxoxoxz", *EMPTY[1:]], "8 rows of 8 cells"),
    (["x.......", *EMPTY[1:]], "each side needs a piece"),
])
def test_position_errors(rows, match):
    with pytest.raises(PositionError, match=match):
        G.position(rows)
    with pytest.raises(PositionError, match="'black' or 'white'"):
        G.position(G.cells(G.initial_state()), to_move="red")


def test_heuristic_values():
    h = {name: G.heuristics[name].fn for name in G.heuristics}
    s = G.initial_state()
    for name in h:
        assert h[name](G.params, s, 0) == 0.5 == -h[name](G.params, s, 1)  # the same spread and moves: the tempo
    gathered = G.position(board("........", "........", "...xx...", "...xx...", "........", "o......o", "........",
                                "o......o"), to_move="black")
    assert h["concentration"](G.params, gathered, 0) > 0.5 and h["connectedness"](G.params, gathered, 0) > 0.5


def test_ordering_tries_captures_first():
    s = G.initial_state()
    moves = G.legal_actions(s)
    scores = np.zeros(len(moves))
    G.kernels.order(G.params, s, moves, len(moves), scores)
    assert int(moves[np.argmax(scores)]) % 2 == 1  # a capture


def test_the_env_docstring_table_matches_the_spaces():
    kit_parts.env_docstring_table_matches_the_spaces(lines_of_action_v0)


# ---- the kit's engines on Lines of Action ------------------------------------------------------
def test_alphabeta_finds_the_connecting_move_and_equals_minimax():
    from zerosum.search import minimax

    result = AlphaBeta(G).search(G.position(JOIN, to_move="black"), 2)
    assert result.plies_to_end == 1 and G.returns(G.apply(G.position(JOIN, to_move="black"), result.action))[0] == 1
    for s in random_states(G, 3, 3):
        if not G.is_terminal(s):
            for name in ("combined", "mobility"):
                assert AlphaBeta(G, name).search(s, 2).value == minimax(G, s, 2, heuristic=name).value


def test_mcts_and_search_agents_play_legal_moves():
    kit_parts.agents_play_legal_moves(G, ("mcts(sims=50)", "alphabeta(depth=1)", G.default_opponent),
                                      random_states(G, 1, 8)[0])


def test_vector_env_with_an_alphabeta_opponent():
    kit_parts.vector_env_with_an_alphabeta_opponent("lines_of_action_v0", 2, 25, max_game_length=20)


def test_play_reads_moves_and_answers_help_and_hint():
    session, text = kit_parts.play_session_text(G, ["help b1", "hint", "c1xa3", "c1-c3", "quit"])
    assert "b1-h1, b1-b3, b1-d3" in text and "hint: " in text
    assert session.actions[0] == 289 and len(session.actions) == 2  # c1-c3: c1 has moved


def test_the_batched_search_and_an_untrained_alphazero_agent_play_it(tmp_path):
    states = [s for s in random_states(G, 3, 5) if not G.is_terminal(s)]
    batched_search_moves_are_legal(G, states)
    pytest.importorskip("torch")
    small = make_game("lines_of_action", max_game_length=30)
    s = kit_parts.untrained_alphazero_plays_out(small, tmp_path)
    assert small.returns(s) in ((1.0, -1.0), (-1.0, 1.0), (0.0, 0.0))


def test_tournament_evaluate_and_replay_gif(tmp_path):
    kit_parts.tournament_evaluate_and_replay_gif(tmp_path, "lines_of_action", ["random", "alphabeta(depth=1)"],
                                                 "alphabeta(depth=1)", SHORT)
