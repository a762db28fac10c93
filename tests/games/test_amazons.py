"""Amazons: the conformance kit, perft, the OpenSpiel cross-check at every step, a scripted
move in its three actions, names, errors (a blocked queen says so), positions, the search
knowledge and the kit's engines."""

import re

import numpy as np
import pytest

from tests.games import kit_parts
from tests.playouts import batched_search_moves_are_legal
from zerosum.envs import amazons_v0
from zerosum.games import IllegalActionError, PositionError, VariantError, make_game
from zerosum.games.amazons import Amazons
from zerosum.search import AlphaBeta
from zerosum.testing import check_game, check_heuristic

G = make_game("amazons")
SMALL = {"board_size": 6}
S6 = make_game("amazons", **SMALL)
VARIANTS = [{}, SMALL]


@pytest.mark.parametrize("variant", VARIANTS)
def test_conformance(variant):
    check_game(make_game("amazons", **variant), games=6, seed=5, search_positions=3)


@pytest.mark.parametrize("name", sorted(Amazons.heuristics))
def test_heuristics(name):
    check_heuristic(S6, name, positions=30)


# perft in actions (three a move) from the start; OpenSpiel's amazons gives the same counts (test_openspiel_perft
# checks the first four of each size, the rest were checked once, 2026-11-29); 2,176 is the known count of first
# moves on 10x10
PERFT = [({}, [4, 80, 2176, 8704, 168420]), ({"board_size": 8}, [4, 60, 1232, 4928, 70386]),
         (SMALL, [4, 40, 544, 2176, 19936, 238532])]


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_perft(variant, counts):
    assert kit_parts.perft_counts(make_game("amazons", **variant), len(counts)) == counts


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_openspiel_perft(variant, counts):
    assert kit_parts.openspiel_perft_counts("amazons", variant, 4) == counts[:4]


# (variant, random games): 8,725 compared steps
CROSS_CHECK = [({}, 8), ({"board_size": 8}, 20), (SMALL, 60)]


def test_openspiel_cross_check():
    """Identical legal actions, board, player, terminal flag, returns and names at every step."""
    pyspiel = pytest.importorskip("pyspiel")
    rng = np.random.default_rng(5759)
    steps = 0
    for variant, games in CROSS_CHECK:
        g = make_game("amazons", **variant)
        game = pyspiel.load_game("amazons", variant)
        assert (g.num_actions, g.max_game_length) == (game.num_distinct_actions(), game.max_game_length())

        def same_board(s, os_state, g=g):
            assert str(os_state).split("\n") == g.cells(s)

        report = kit_parts.cross_check_with_names(g, game, games, rng, same_board)
        assert report.outcomes[1] > 0 and report.outcomes[2] > 0
        steps += report.steps
    assert steps > 5000


def test_scripted_move():
    s = G.initial_state()
    assert G.cells(s)[0] == "...O..O..." and G.cells(s)[9] == "...X..X..."
    assert [G.move_name(int(a), s) for a in G.legal_actions(s)] == ["a4", "j4", "d1", "g1"]
    assert G.action_to_string(93, s) == "X From (10, 4)"
    actions = G.string_to_actions("d1-d7/g7", s)
    assert actions == [93, 33, 36]
    said_after = ["X to move the queen from d1", "X to shoot an arrow from d7", "O to move: pick a queen"]
    for a, said in zip(actions, said_after, strict=True):
        assert G.current_player(s) == 0
        s = G.apply(s, a)
        assert G.render(s).endswith(said)
    assert G.cells(s)[3] == "O..X..#..O" and G.cells(s)[9] == "......X..."
    assert G.current_player(s) == 1


WALLED = ["O.#...", "##....", "......", "......", "......", ".....X"]  # O's queen on a6 has only b6 free


def test_a_player_who_cannot_move_loses():
    s = S6.position(["XO#...", "##....", "......", "......", "......", "......"], to_move="X")
    assert S6.is_terminal(s) and S6.returns(s) == (-1.0, 1.0) and S6.result_reason(s) == "X has no queen that can move"
    s = S6.position(WALLED, to_move="X")
    for square in ("f1", "f2", "b6"):  # the queen f1-f2, then the arrow along the diagonal onto b6
        assert not S6.is_terminal(s)
        s = S6.apply(s, S6.string_to_action(square, s))
    assert S6.is_terminal(s) and S6.returns(s) == (1.0, -1.0)
    assert S6.render(s).endswith("X wins: O has no queen that can move")


def test_illegal_reasons():
    s = G.initial_state()
    with pytest.raises(IllegalActionError, match=re.escape("no X queen on e5: pick one of your queens")):
        G.apply(s, G.string_to_action("e5"))
    blocked = S6.position([".....X", "......", "......", "##....", "X#....", "##.O.."], to_move="X")
    with pytest.raises(IllegalActionError, match=re.escape("the X queen on a2 is blocked: no empty cell next to it")):
        S6.apply(blocked, S6.string_to_action("a2"))
    s = G.apply(s, G.string_to_action("d1"))
    for square, why in [("e3", "the queen from d1 cannot reach e3: it is not along a row, a column or a diagonal"),
                        ("g1", "the queen from d1 cannot reach g1: it is not empty"),
                        ("j1", "the queen from d1 cannot reach j1: g1 is in the way")]:
        with pytest.raises(IllegalActionError, match=re.escape(why)):
            G.apply(s, G.string_to_action(square))
    s = G.apply(s, G.string_to_action("d7"))
    with pytest.raises(IllegalActionError, match=re.escape("the arrow from d7 cannot reach d10: it is not empty")):
        G.apply(s, G.string_to_action("d10"))
    with pytest.raises(IllegalActionError, match="an int in|out of range"):
        G.apply(s, 100)


def test_names():
    s = G.initial_state()
    assert [G.string_to_action(t, s) for t in ("d1", "D1", "(10, 4)", "X From (10, 4)", "93")] == [93] * 5
    assert G.action_to_string(0) == "a10" and S6.action_to_string(35) == "f1"
    for a in range(G.num_actions):
        assert G.string_to_action(G.action_to_string(a)) == a
    for text in ("k1", "a11", "a0", "", "d1-d7", "(11, 1)"):
        with pytest.raises(IllegalActionError, match="write a square, 'd1'"):
            G.string_to_action(text)
    with pytest.raises(IllegalActionError, match="columns a-f, rows 1-6"):
        S6.string_to_action("g1")


@pytest.mark.parametrize(("bad", "match"), [
    ({"board_size": 7}, "board_size=7 is not allowed: one of 6, 8, 10"),
    ({"board_size": 12}, "board_size=12 is not allowed: one of 6, 8, 10"),
    ({"board_size": "10"}, "board_size='10' is not allowed"),
    ({"size": 10}, "unknown name 'size'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("amazons", **bad)


def test_variant_sizes():
    assert (G.num_actions, G.max_moves, G.max_game_length, G.observation_shape) == (100, 35, 300, (10, 10, 6))
    assert (S6.num_actions, S6.max_moves, S6.max_game_length, S6.observation_shape) == (36, 19, 108, (6, 6, 6))
    assert make_game("amazons", board_size=6) == Amazons(6) != G


def random_states(game, count, seed):
    """kit_parts.random_states, each after fewer than a third of the game's maximum length in
    random actions."""
    return kit_parts.random_states(game, count, seed, max_plies=game.max_game_length // 3)


def test_position_round_trip_and_observation():
    for s in random_states(S6, 80, seed=11):
        x, o = S6.observation(s, 0), S6.observation(s, 1)
        assert np.array_equal(x[:, :, 0], o[:, :, 1]) and np.array_equal(x[:, :, 2:5], o[:, :, 2:5])
        assert np.array_equal(x[:, :, 0], np.array([[ch == "X" for ch in row] for row in S6.cells(s)]))
        assert np.array_equal(x[:, :, 2], np.array([[ch == "#" for ch in row] for row in S6.cells(s)]))
        assert x[:, :, 5].all() == (s[0] == 0) and o[:, :, 5].all() == (s[0] == 1)
        assert x[:, :, 3].sum() == (s[1] == 1) and x[:, :, 4].sum() == (s[1] == 2)
        if s[1] == 0:
            assert np.array_equal(S6.position(S6.cells(s), "XO"[int(s[0])]), s)
            assert np.array_equal(S6.position(S6.render(s).rsplit("\n", 2)[0], "XO"[int(s[0])]), s)


@pytest.mark.parametrize(("rows", "match"), [
    (["XO"] * 3, "a 6x6 amazons board is 6 rows of 6 cells"),
    (["XO..Z."] + ["......"] * 5, "cells of X, O, # or '.'"),
])
def test_position_errors(rows, match):
    with pytest.raises(PositionError, match=match):
        S6.position(rows)
    with pytest.raises(PositionError, match="'X' or 'O'"):
        S6.position(S6.cells(S6.initial_state()), to_move="red")


def test_heuristic_values():
    h = {name: S6.heuristics[name].fn for name in S6.heuristics}
    s = S6.initial_state()
    for name in h:
        assert h[name](S6.params, s, 0) == 0 == h[name](S6.params, s, 1)  # the start is symmetric
    # X's queen in the open, O's walled in a corner: every empty cell is X's
    s = S6.position(["O#....", "##....", "......", "...X..", "......", "......"], to_move="X")
    assert h["queen_distance"](S6.params, s, 0) == 31 == h["king_distance"](S6.params, s, 0)  # every empty cell
    moves = len(S6.legal_actions(S6.apply(s, S6.string_to_action("d3", s))))  # X's queen moves; O's has none
    assert h["mobility"](S6.params, s, 0) == moves and h["territory"](S6.params, s, 1) == -(31 + 15.5 + moves / 10)


def test_ordering_shoots_next_to_the_opponent():
    s = S6.position(["......", "......", "......", "..O...", "......", "X....."], to_move="X")
    for square in ("a1", "a3"):  # the queen a1-a3, then the arrow
        s = S6.apply(s, S6.string_to_action(square, s))
    moves = S6.legal_actions(s)
    scores = np.zeros(len(moves))
    S6.kernels.order(S6.params, s, moves, len(moves), scores)
    assert S6.move_name(int(moves[np.argmax(scores)]), s) in ("b3", "b4", "b2", "d4", "d2")  # next to c3's O


def test_the_env_docstring_table_matches_the_spaces():
    kit_parts.env_docstring_table_matches_the_spaces(amazons_v0)


def test_the_env_keeps_one_agent_for_the_three_actions():
    env = amazons_v0.env(board_size=6)
    env.reset(seed=0)
    for _ in range(3):
        assert env.agent_selection == "player_0"
        mask = env.observe("player_0")["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert env.agent_selection == "player_1"


# ---- the kit's engines on Amazons --------------------------------------------------------------
def test_alphabeta_walls_in_the_last_queen_and_equals_minimax():
    from zerosum.search import minimax

    result = AlphaBeta(S6).search(S6.position(WALLED, to_move="X"), 6)  # f1-f2/b6 (or another way to shoot b6)
    assert result.value > 0 and result.plies_to_end == 3
    for s in random_states(S6, 3, 3):
        if not S6.is_terminal(s):
            for name in ("territory", "mobility"):
                assert AlphaBeta(S6, name).search(s, 2).value == minimax(S6, s, 2, heuristic=name).value


def test_mcts_and_search_agents_play_legal_moves():
    kit_parts.agents_play_legal_moves(S6, ("mcts(sims=50)", "alphabeta(depth=2)", G.default_opponent),
                                      random_states(S6, 1, 8)[0])


def test_vector_env_with_an_alphabeta_opponent():
    kit_parts.vector_env_with_an_alphabeta_opponent("amazons_v0", 2, 60, **SMALL)


def test_play_reads_moves_and_answers_help_and_hint():
    session, text = kit_parts.play_session_text(G, ["help", "hint", "d1-d7/g7", "quit"])
    assert "a4, j4, d1, g1" in text and "hint: " in text
    assert session.actions[:3] == [93, 33, 36] and len(session.actions) == 6  # the engine's three actions follow


def test_the_batched_search_and_an_untrained_alphazero_agent_play_it(tmp_path):
    states = [s for s in random_states(S6, 4, 5) if not S6.is_terminal(s)]
    batched_search_moves_are_legal(S6, states)
    pytest.importorskip("torch")
    s = kit_parts.untrained_alphazero_plays_out(S6, tmp_path)
    assert S6.returns(s) in ((1.0, -1.0), (-1.0, 1.0))


def test_tournament_evaluate_and_replay_gif(tmp_path):
    kit_parts.tournament_evaluate_and_replay_gif(tmp_path, "amazons", ["random", "alphabeta(depth=1)"],
                                                 "alphabeta(depth=1)", SMALL)
