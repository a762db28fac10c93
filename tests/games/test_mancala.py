"""Mancala (Kalah): the conformance kit, perft and the OpenSpiel cross-check at every step,
scripted sowing, captures and extra turns, the move cap, errors and the heuristics."""


import numpy as np
import pytest

from tests.games import kit_parts
from tests.games.kit_parts import play
from zerosum.games import IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.games.mancala import Mancala
from zerosum.testing import check_game, check_heuristic

G = make_game("mancala")


def test_check_game():
    check_game(G, games=12, seed=1, search_positions=3)


# perft from the start (an extra turn is a ply of its own); OpenSpiel's mancala gives the same
PERFT = [6, 35, 185, 942, 4690, 23233, 114430]


def test_perft():
    assert kit_parts.perft_counts(G, len(PERFT)) == PERFT


def test_openspiel_perft():
    assert kit_parts.openspiel_perft_counts("mancala", {}, 6) == PERFT[:6]


def cross_check(games, seed):
    """Random games in zerosum and OpenSpiel side by side: the same legal actions, board
    (OpenSpiel's 14 counts), player to move, terminal flag, returns and action names at
    every step. Returns the number of steps compared."""
    import pyspiel

    def same_board(s, os_state):
        assert G.board(s) == [int(x) for x in os_state.observation_tensor(0)[:14]]

    report = kit_parts.cross_check_with_names(G, pyspiel.load_game("mancala"), games, seed, same_board)
    assert set(report.outcomes) == {Outcome.P0_WINS, Outcome.P1_WINS, Outcome.DRAW}
    return report.steps


def test_openspiel_cross_check():
    """OpenSpiel's mancala has no parameters: the default game, on seeds of this test."""
    pytest.importorskip("pyspiel")
    assert cross_check(200, seed=57) > 200 * 30


# ---- scripted games ---------------------------------------------------------------------
def test_extra_turn_and_sowing():
    s = play(G, "3")  # 4 seeds from pit 3: pits 4, 5, 6 and the store: player 0 moves again
    assert G.board(s) == [0, 4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4] and G.current_player(s) == 0
    s = play(G, "3 1")  # 1 sows 2..5: the turn passes
    assert G.board(s)[:8] == [0, 0, 5, 1, 6, 6, 5, 1] and G.current_player(s) == 1


def test_captures():
    # player 0 sows pit 2's one seed into its empty pit 3, facing pit 11's 7 seeds: 8 go to its store
    s = G.position([0, 0, 1, 0, 5, 5, 5, 1, 4, 4, 4, 7, 4, 8], 0)
    t = G.apply(s, G.string_to_action("2"))
    assert G.board(t) == [0, 0, 0, 0, 5, 5, 5, 9, 4, 4, 4, 0, 4, 8] and G.current_player(t) == 1
    # an empty pit of one's own facing an empty pit captures nothing
    s = G.position([0, 0, 1, 0, 5, 5, 5, 1, 4, 4, 4, 0, 4, 15], 0)
    assert G.board(G.apply(s, 2)) == [0, 0, 0, 1, 5, 5, 5, 1, 4, 4, 4, 0, 4, 15]
    # player 1 captures into its store, board[0]
    s = G.position([0, 4, 4, 4, 4, 7, 4, 0, 1, 0, 4, 4, 4, 8], 1)
    t = G.apply(s, 8)
    assert G.board(t) == [8, 4, 4, 4, 4, 0, 4, 0, 0, 0, 4, 4, 4, 8] and G.current_player(t) == 0


def test_a_lap_skips_the_opponents_store():
    # 13 seeds from pit 6: the store, pits 8-13, past store 0, pits 1-6: the last lands in the
    # emptied pit 6 and captures pit 8's six
    s = G.position([0, 0, 0, 0, 0, 0, 13, 0, 5, 5, 5, 5, 5, 10], 0)
    t = G.apply(s, 6)
    assert G.board(t) == [0, 1, 1, 1, 1, 1, 0, 8, 0, 6, 6, 6, 6, 11] and G.current_player(t) == 1


def test_the_end_counts_store_and_pits():
    s = G.position([20, 0, 0, 0, 0, 0, 1, 3, 4, 4, 4, 4, 4, 4], 0)
    t = G.apply(s, 6)  # the last seed in the store, but player 0's pits are empty: over, 4 against 44
    assert G.is_terminal(t) and G.outcome(t) == Outcome.P1_WINS and G.returns(t) == (-1.0, 1.0)
    assert G.scores(t) == (4, 44) and len(G.legal_actions(t)) == 0
    assert G.render(t).endswith("player 1 wins 44-4")
    s = G.position([0, 0, 0, 0, 0, 0, 1, 23, 0, 0, 0, 0, 0, 24], 0)
    assert G.outcome(G.apply(s, 6)) == Outcome.DRAW  # 24-24


def test_the_move_cap():
    """OpenSpiel ends a game whose move number passes 1,000 (MaxGameLength), scored as it stands."""
    board = [1, 4, 4, 4, 4, 4, 3, 1, 4, 4, 4, 4, 4, 3]  # 24 each
    assert not G.is_terminal(G.position(board, 0, moves=1000))
    s = G.position(board, 0, moves=1001)
    assert G.is_terminal(s) and G.outcome(s) == Outcome.DRAW and len(G.legal_actions(s)) == 0
    assert G.outcome(G.position([0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0], 1, moves=1001)) == Outcome.P0_WINS
    assert G.state_key(G.position(board, 0, moves=3)) == G.state_key(G.position(board, 0, moves=9))
    assert G.max_game_length == 1001


# ---- text, errors, variants -----------------------------------------------------------------
def test_names_and_illegal_moves():
    assert [G.action_to_string(a) for a in (1, 6, 8, 13)] == ["1", "6", "8", "13"]
    assert G.string_to_action(" 12 ") == 12 and G.string_to_action("pit 3") == 3
    for text in ("14", "a", "", "-1", "3b"):
        with pytest.raises(IllegalActionError, match="write the number of a pit to sow, 1-6 for player 0"):
            G.string_to_action(text)
    s = play(G, "1")
    with pytest.raises(IllegalActionError, match=r"action 3 \(3\) is not legal here: pit 3 is empty; legal: 1, 2, 4,"):
        G.apply(play(G, "3"), 3)
    with pytest.raises(IllegalActionError, match="pit 2 is player 0's: player 1 sows from pits 8-13"):
        G.apply(s, 2)
    with pytest.raises(IllegalActionError, match="7 is player 0's store, not a pit"):
        G.apply(s, 7)
    with pytest.raises(IllegalActionError, match="0 is player 1's store, not a pit"):
        G.apply(G.initial_state(), 0)


@pytest.mark.parametrize(("bad", "match"), [
    ({"num_pits": 4}, "unknown name 'num_pits'"),
    ({"num_seeds": 3}, "unknown name 'num_seeds'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("mancala", **bad)


@pytest.mark.parametrize(("args", "match"), [
    (([4] * 14,), "14 non-negative counts summing to 48"),
    (([0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4],), "14 non-negative counts"),
    (([0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 8, -4],), "non-negative"),
    (([0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4], 2), "to_move=2: 0 or 1"),
    (([0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4], 0, 1002), "moves=1002: an int from 0 to 1001"),
])
def test_position_errors(args, match):
    with pytest.raises(PositionError, match=match):
        G.position(*args)


def test_render_and_sizes():
    assert (G.num_actions, G.max_moves, G.observation_shape) == (14, 6, (14, 48, 2))
    assert Mancala() == G and G.variant == {}
    lines = G.render(play(G, "3")).splitlines()
    assert lines[0].split()[:6] == ["13", "12", "11", "10", "9", "8"] and lines[1].split() == ["4"] * 6
    assert lines[2].split()[:2] == ["0", "1"]  # the stores: player 1's, player 0's
    assert lines[3].split() == ["4", "4", "0", "5", "5", "5"] and lines[4].split()[:6] == list("123456")
    assert lines[5] == "player 0 to move"


def test_observation_planes():
    s = play(G, "3 1")  # player 1 to move
    o0, o1 = G.observation(s, 0), G.observation(s, 1)
    assert o0.shape == (14, 48, 2) and o0.dtype == np.int8
    counts0 = o0[:, :, 0].sum(axis=1).tolist()
    assert counts0 == [0, 5, 1, 6, 6, 5, 1, 4, 4, 4, 4, 4, 4, 0]  # pits 1-6, store 7, pits 8-13, store 0
    assert o1[:, :, 0].sum(axis=1).tolist() == counts0[7:] + counts0[:7]
    assert not o0[..., 1].any() and o1[..., 1].all()


# ---- heuristics and the kit's engines -----------------------------------------------------------
@pytest.mark.parametrize("name", ["store_difference", "seeds_in_play"])
def test_check_heuristic(name):
    check_heuristic(G, name, positions=20)


def test_heuristic_values():
    s = G.position([20, 0, 0, 0, 0, 0, 1, 3, 4, 4, 4, 4, 4, 4], 0)
    assert G.heuristic("store_difference").fn(G.params, s, 0) == -1700.0
    assert G.heuristic("seeds_in_play").fn(G.params, s, 1) == 100.0 * (17 + 0.5 * 23)


def test_alphabeta_takes_the_extra_turn_and_the_capture():
    from zerosum.search import alphabeta, mcts

    s = G.position([0, 0, 1, 0, 5, 5, 5, 1, 4, 4, 4, 7, 4, 8], 0)  # 2 captures 8 seeds
    for name in ("store_difference", "seeds_in_play"):
        assert alphabeta(G, s, depth=1, heuristic=name).action == 2
    s = G.position([20, 0, 0, 0, 0, 0, 1, 3, 4, 4, 4, 4, 4, 4], 0)  # the only move ends it, lost
    result = alphabeta(G, s, depth=3)
    assert result.action == 6 and result.value < 0
    assert mcts(G, G.initial_state(), sims=200, seed=0).action in set(G.legal_actions(G.initial_state()).tolist())


def test_agents_and_the_vector_env():
    kit_parts.agents_play_legal_moves(G, ("mcts(sims=30)", "alphabeta(depth=2, heuristic=store_difference)",
                                          "alphabeta(depth=3)"), play(G, "3 1"))
    kit_parts.vector_env_with_an_alphabeta_opponent("mancala_v0", 2, 80)


def test_play_reads_pit_numbers():
    text = kit_parts.play_main_text(["mancala", "--opponent", "alphabeta(depth=1)", "--seed", "0"],
                                    ["help", "hint", "3", "quit"])
    assert "hint: " in text and "You left the game." in text
    assert "4   4   0   5   5   5" in text  # pit 3 sown: the extra turn leaves player 0 to move


def test_the_env_docstring_table_matches_the_spaces():
    from zerosum.envs import mancala_v0

    kit_parts.env_docstring_table_matches_the_spaces(mancala_v0)


def test_tournament_evaluate_and_replay_gif(tmp_path):
    _, frames = kit_parts.tournament_evaluate_and_replay_gif(tmp_path, "mancala", ["random", "alphabeta(depth=2)"],
                                                             "alphabeta(depth=2)")
    assert frames > 10
