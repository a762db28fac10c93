"""Oware: the conformance kit, perft and the OpenSpiel cross-check at every step (its text
of the board included), captures, the grand slam, feeding a starving opponent,
repetitions, the move cap, errors and the heuristics."""


import numpy as np
import pytest

from tests.games import kit_parts
from tests.games.kit_parts import play
from zerosum.games import IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.games.oware import Oware
from zerosum.testing import check_game, check_heuristic

G = make_game("oware")
SMALL = {"num_houses_per_player": 3, "num_seeds_per_house": 2}
TINY = {"num_houses_per_player": 2, "num_seeds_per_house": 1}


@pytest.mark.parametrize("variant", [{}, SMALL, {"num_houses_per_player": 1, "num_seeds_per_house": 5}])
def test_check_game(variant):
    check_game(make_game("oware", **variant), games=10, seed=1, search_positions=3)


# perft from the start; OpenSpiel's oware gives the same counts (test_openspiel_perft)
PERFT = [({}, [6, 36, 190, 1014, 5219, 27332, 139157]),
         (SMALL, [3, 6, 14, 32, 66, 152, 316, 680, 1417]),
         (TINY, [2, 3, 4, 4, 4, 6, 7, 6, 7, 7])]


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_perft(variant, counts):
    assert kit_parts.perft_counts(make_game("oware", **variant), len(counts)) == counts


@pytest.mark.parametrize(("variant", "counts"), [(v, c[:6]) for v, c in PERFT])
def test_openspiel_perft(variant, counts):
    assert kit_parts.openspiel_perft_counts("oware", variant, len(counts)) == counts


def cross_check(variant, games, seed):
    """Random games in zerosum and OpenSpiel side by side: the same legal actions, text of the
    board (OpenSpiel's ToString: scores, counts, the player to move, [FINISHED]), player to
    move, terminal flag, returns and action names at every step. Returns the report."""
    import pyspiel

    g = make_game("oware", **variant)

    def same_board(s, os_state):
        assert g.render(s) == str(os_state)

    return kit_parts.cross_check_with_names(g, pyspiel.load_game("oware", variant), games, seed, same_board)


@pytest.mark.parametrize(("variant", "games"), [({}, 100), (SMALL, 300), (TINY, 100),
                                                ({"num_houses_per_player": 8, "num_seeds_per_house": 3}, 30),
                                                ({"num_houses_per_player": 4, "num_seeds_per_house": 7}, 30),
                                                ({"num_houses_per_player": 1, "num_seeds_per_house": 3}, 20)])
def test_openspiel_cross_check(variant, games):
    """Identical legal actions, board text, player, terminal flag and returns at every step."""
    pytest.importorskip("pyspiel")
    report = cross_check(variant, games, seed=58)
    assert report.steps > 2 * games and report.games == games


# ---- scripted games ---------------------------------------------------------------------
def test_capture_runs_back_along_the_row():
    s = G.position([0, 0, 0, 0, 0, 3, 1, 2, 2, 4, 0, 0], (17, 19), 0)
    t = G.apply(s, G.string_to_action("F"))  # F's three seeds make 2, 3, 3 in a, b, c: all 8 taken
    # 25 is more than half: the game is over, and player 1 collects d's 4 seeds (as OpenSpiel)
    assert G.seeds(t) == [0] * 12 and G.scores(t) == (25, 23) and G.is_terminal(t) and G.outcome(t) == Outcome.P0_WINS
    s = G.position([0, 0, 0, 0, 0, 3, 1, 1, 2, 4, 0, 0], (17, 20), 0)
    t = G.apply(s, 5)  # 2, 2, 3 in a, b, c: c and b taken, and a's 2 too
    assert G.seeds(t) == [0] * 6 + [0, 0, 0, 4, 0, 0] and G.scores(t) == (24, 20) and not G.is_terminal(t)
    s = G.position([0, 0, 0, 0, 0, 3, 0, 2, 2, 4, 0, 0], (17, 20), 0)
    t = G.apply(s, 5)  # 1, 3, 3 in a, b, c: c and b taken, a's single seed stops the run
    assert G.seeds(t) == [0] * 6 + [1, 0, 0, 4, 0, 0] and G.scores(t) == (23, 20)


def test_grand_slam_feeding_and_repetition():
    """2 houses of 1 seed: B captures 2; b would take all of player 0's row (a grand slam), so
    it captures nothing; player 0 must then feed player 1; A a B b A repeats the board after
    the first A, and each player collects its row: 3 to 1."""
    g = make_game("oware", **TINY)
    s = play(g, "B")
    assert g.seeds(s) == [1, 0, 0, 1] and g.scores(s) == (2, 0)
    s = play(g, "b", s)
    assert g.seeds(s) == [2, 0, 0, 0] and g.scores(s) == (2, 0)  # the grand slam: nothing taken
    assert list(g.legal_actions(s)) == [0]
    s = play(g, "A a B b", s)
    assert not g.is_terminal(s) and g.seeds(s) == [1, 0, 1, 0]
    t = play(g, "A", s)
    assert g.is_terminal(t) and g.seeds(t) == [0, 0, 0, 0] and g.scores(t) == (3, 1)
    assert g.outcome(t) == Outcome.P0_WINS and g.render(t).startswith("[FINISHED]\nPlayer 1 score = 1\n")


def test_grand_slam_in_the_default_game():
    s = G.position([1, 0, 0, 0, 0, 2, 1, 2, 0, 0, 0, 0], (20, 22), 0)  # F makes a 2, b a 3: the whole row
    t = G.apply(s, 5)
    assert G.seeds(t) == [1, 0, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0] and G.scores(t) == (20, 22) and not G.is_terminal(t)
    s = G.position([1, 0, 0, 0, 0, 2, 1, 2, 0, 0, 1, 0], (20, 21), 0)  # the same, with a seed left in e: taken
    t = G.apply(s, 5)  # 25: over, and each collects its row
    assert G.scores(t) == (26, 22) and G.outcome(t) == Outcome.P0_WINS


def test_the_rule_against_starving_the_opponent():
    g = make_game("oware", **SMALL)
    s = g.position([0, 1, 2, 0, 0, 0], (5, 4), 0)
    assert list(g.legal_actions(s)) == [2]  # B's seed stays at home; C's two reach player 1
    with pytest.raises(IllegalActionError, match="player 1 has no seeds, and a move must give it some: house B's "
                                                 "1 seed stay in player 0's row"):
        g.apply(s, 1)
    with pytest.raises(IllegalActionError, match="house A is empty"):
        g.apply(s, 0)
    # a player who cannot feed: the game ends before it is to move, and each player collects its row
    t = g.apply(g.position([0, 1, 0, 0, 0, 1], (6, 4), 1), 2)  # c's seed lands in A; player 0 must feed, and cannot
    assert g.is_terminal(t) and g.seeds(t) == [0] * 6 and g.scores(t) == (8, 4) and g.outcome(t) == Outcome.P0_WINS
    with pytest.raises(PositionError, match="player 0 is to move but has no legal move"):
        g.position([1, 0, 0, 0, 0, 0], (6, 5), 0)


def test_the_move_cap():
    """OpenSpiel stops with an error at move 1,001; here the 1,000th move ends the game, each
    player collecting its row."""
    s = G.initial_state()
    s[3] = 999
    t = G.apply(s, 0)
    assert G.is_terminal(t) and G.scores(t) == (24, 24) and G.outcome(t) == Outcome.DRAW  # A: 0 5 5 5 5 4
    assert G.max_game_length == 1000
    assert G.state_key(t) != G.state_key(G.apply(G.initial_state(), 0))


# ---- text, errors, variants ---------------------------------------------------------------
def test_names():
    s = play(G, "C")
    assert G.action_to_string(2) == "C" and G.action_to_string(2, s) == "c"
    assert G.string_to_action("c") == G.string_to_action(" C ") == G.string_to_action("house f") - 3 == 2
    for text in ("g", "", "1", "ab"):
        with pytest.raises(IllegalActionError, match="write the letter of one of your houses, a-f from your left"):
            G.string_to_action(text)


@pytest.mark.parametrize(("bad", "match"), [
    ({"num_seeds_per_house": 0}, "num_seeds_per_house=0 is not allowed: an int from 1 to 12"),
    ({"num_seeds_per_house": 13}, "num_seeds_per_house=13 is not allowed: an int from 1 to 12"),
    ({"num_houses_per_player": 0}, "num_houses_per_player=0 is not allowed: an int from 1 to 12"),
    ({"num_houses_per_player": "6"}, "num_houses_per_player='6' is not allowed"),
    ({"houses": 6}, "unknown name 'houses'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("oware", **bad)


@pytest.mark.parametrize(("args", "match"), [
    (([4] * 11,), "12 non-negative counts"),
    (([4] * 12, (1, 0)), "the counts and the scores hold all 48 seeds; got 48 on the board and scores"),
    (([4] * 12, (0, 0), 2), "to_move=2: 0 or 1"),
])
def test_position_errors(args, match):
    with pytest.raises(PositionError, match=match):
        G.position(*args)


def test_sizes_render_and_observation():
    assert (G.num_actions, G.max_moves, G.observation_shape) == (6, 6, (14, 48, 2)) and Oware() == G
    g = make_game("oware", num_houses_per_player=4, num_seeds_per_house=3)
    assert (g.num_actions, g.observation_shape, g.total_seeds) == (4, (10, 24, 2), 24)
    assert G.render(G.initial_state()) == ("Player 1 score = 0\n  f  e  d  c  b  a\n  4  4  4  4  4  4\n"
                                           "  4  4  4  4  4  4\n  A  B  C  D  E  F\nPlayer 0 score = 0 [PLAYING]\n")
    s = G.position([0, 0, 0, 0, 0, 3, 1, 2, 2, 4, 0, 0], (17, 19), 1)
    o0, o1 = G.observation(s, 0), G.observation(s, 1)
    assert o0[:, :, 0].sum(axis=1).tolist() == [0, 0, 0, 0, 0, 3, 1, 2, 2, 4, 0, 0, 17, 19]
    assert o1[:, :, 0].sum(axis=1).tolist() == [1, 2, 2, 4, 0, 0, 0, 0, 0, 0, 0, 3, 19, 17]
    assert not o0[..., 1].any() and o1[..., 1].all() and o0.dtype == np.int8


# ---- heuristics and the kit's engines -----------------------------------------------------------
@pytest.mark.parametrize("name", ["store_difference", "seeds_in_play"])
@pytest.mark.parametrize("variant", [{}, SMALL])
def test_check_heuristic(name, variant):
    check_heuristic(make_game("oware", **variant), name, positions=20)


def test_heuristic_values():
    s = G.position([0, 0, 0, 0, 0, 3, 1, 2, 2, 4, 0, 0], (17, 19), 0)
    assert G.heuristic("store_difference").fn(G.params, s, 0) == -200.0
    assert G.heuristic("seeds_in_play").fn(G.params, s, 1) == 100.0 * (2 + 0.25 * 6)


def test_search_finds_the_capture_and_agents_play():
    from zerosum.search import alphabeta, mcts

    s = G.position([0, 0, 0, 0, 0, 3, 1, 2, 2, 4, 0, 0], (17, 19), 0)
    for name in ("store_difference", "seeds_in_play"):
        result = alphabeta(G, s, depth=2, heuristic=name)
        assert result.action == 5 and result.value > 0  # F wins at once
    assert mcts(G, s, sims=300, seed=0).action == 5
    kit_parts.agents_play_legal_moves(G, ("mcts(sims=30)", "alphabeta(depth=2, heuristic=store_difference)",
                                          "alphabeta(depth=3)"), play(G, "C d"))


def test_vector_env_with_an_alphabeta_opponent():
    kit_parts.vector_env_with_an_alphabeta_opponent("oware_v0", 2, 60, **SMALL)


def test_play_reads_house_letters():
    text = kit_parts.play_main_text(["oware", "--opponent", "alphabeta(depth=1)", "--seed", "0"],
                                    ["help", "hint", "c", "quit"])
    assert "hint: " in text and "You left the game." in text
    assert "  4  4  0  5  5  5" in text  # C sown: one seed in each of D, E, F and a


def test_the_env_docstring_table_matches_the_spaces():
    from zerosum.envs import oware_v0

    kit_parts.env_docstring_table_matches_the_spaces(oware_v0)


def test_tournament_evaluate_and_replay_gif(tmp_path):
    _, frames = kit_parts.tournament_evaluate_and_replay_gif(tmp_path, "oware", ["random", "alphabeta(depth=2)"],
                                                             "alphabeta(depth=2)", variant=SMALL)
    assert frames > 3
