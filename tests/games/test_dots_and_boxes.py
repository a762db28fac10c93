"""Dots and Boxes: the conformance kit, perft and whole-game counts, the OpenSpiel
cross-check at every step, scripted games (a box taken moves again), positions, errors,
the heuristics and the kit's engines."""

import numpy as np
import pytest

from tests.games import kit_parts
from tests.games.kit_parts import play, random_states
from zerosum.games import IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.games.dots_and_boxes import DotsAndBoxes
from zerosum.testing import check_game, check_heuristic, compare_with_openspiel

G = make_game("dots_and_boxes")
VARIANTS = [{}, {"num_rows": 3, "num_cols": 4, "utility_margin": True}, {"num_rows": 1, "num_cols": 5},
            {"num_rows": 4, "num_cols": 2}]


@pytest.mark.parametrize("variant", [VARIANTS[0], VARIANTS[2], VARIANTS[3]])
def test_check_game(variant):
    check_game(make_game("dots_and_boxes", **variant), games=8, seed=1, search_positions=3)


# perft from the start: every order of distinct lines (no game ends early), as OpenSpiel's
PERFT = [({}, [12, 132, 1320, 11880, 95040]),
         ({"num_rows": 1, "num_cols": 1}, [4, 12, 24, 24]),
         ({"num_rows": 1, "num_cols": 2}, [7, 42, 210, 840, 2520, 5040, 5040]),
         ({"num_rows": 3, "num_cols": 4}, [31, 930, 26970])]


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_perft(variant, counts):
    assert kit_parts.perft_counts(make_game("dots_and_boxes", **variant), len(counts)) == counts


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_openspiel_perft(variant, counts):
    assert kit_parts.openspiel_perft_counts("dots_and_boxes", variant, len(counts)) == counts


def outcomes(g, s):
    """(player 0 wins, player 1 wins, draws) over every game from ``s``."""
    if g.is_terminal(s):
        return {Outcome.P0_WINS: (1, 0, 0), Outcome.P1_WINS: (0, 1, 0), Outcome.DRAW: (0, 0, 1)}[g.outcome(s)]
    total = np.zeros(3, np.int64)
    for a in g.legal_actions(s):
        total += outcomes(g, g.apply(s, int(a)))
    return tuple(int(x) for x in total)


def openspiel_outcomes(o):
    if o.is_terminal():
        r = o.returns()[0]
        return (int(r > 0), int(r < 0), int(r == 0))
    total = np.zeros(3, np.int64)
    for a in o.legal_actions():
        total += openspiel_outcomes(o.child(a))
    return tuple(int(x) for x in total)


# every whole game: (player 0 wins, player 1 wins, draws); 1x1: the second player always takes the box
WHOLE_GAMES = [({"num_rows": 1, "num_cols": 1}, (0, 24, 0)), ({"num_rows": 1, "num_cols": 2}, (720, 3168, 1152)),
               ({"num_rows": 2, "num_cols": 1}, (720, 3168, 1152))]


@pytest.mark.parametrize(("variant", "counts"), WHOLE_GAMES)
def test_every_whole_game(variant, counts):
    g = make_game("dots_and_boxes", **variant)
    assert outcomes(g, g.initial_state()) == counts


@pytest.mark.parametrize(("variant", "counts"), WHOLE_GAMES)
def test_every_whole_game_as_openspiel(variant, counts):
    pyspiel = pytest.importorskip("pyspiel")
    assert openspiel_outcomes(pyspiel.load_game("dots_and_boxes", variant).new_initial_state()) == counts


def cross_check(variant, games, seed):
    """Plays ``games`` random games in zerosum and OpenSpiel side by side: the same legal
    actions, player to move, terminal flag and returns (``utility``: the box margin with
    ``utility_margin``) at every step, the same lines and
    box owners (OpenSpiel's observation tensor), and the same line for each action's name.
    Returns the report."""
    import pyspiel

    g = make_game("dots_and_boxes", **variant)
    rows, cols = g.rows, g.columns

    def same_board(s, o):
        t = np.array(o.observation_tensor(0)).reshape(3, (rows + 1) * (cols + 1), 3)
        ours = g.observation(s, 0).reshape((rows + 1) * (cols + 1), 5)
        assert np.array_equal(ours[:, 0], 1 - t[0, :, 0]) and np.array_equal(ours[:, 1], 1 - t[0, :, 1])
        assert np.array_equal(ours[:, 2], t[1, :, 2]) and np.array_equal(ours[:, 3], t[2, :, 2])
        assert g.score(s) == (int(t[1, :, 2].sum()), int(t[2, :, 2].sum()))

    def same_name(s, o, a):
        name = o.action_to_string(a)  # P1(h,0,0): the mover, then OpenSpiel's line
        assert name[:2] == f"P{g.current_player(s) + 1}"
        orientation, r, c = name[3:-1].split(",")
        assert g.line(a) == (orientation, int(r), int(c)) and g.string_to_action(name) == a
        (c0, r0), (c1, r1) = ((ord(x[0]) - ord("a"), int(x[1:]) - 1) for x in g.action_to_string(a).split("-"))
        assert (r0, c0, r1, c1) == (int(r), int(c), int(r) + (orientation == "v"), int(c) + (orientation == "h"))

    return compare_with_openspiel(g, pyspiel.load_game("dots_and_boxes", variant), games, seed, same_board,
                                  check_action=same_name, utility=g.utility)


@pytest.mark.parametrize(("variant", "games"), [(VARIANTS[0], 200), (VARIANTS[1], 40), (VARIANTS[2], 100),
                                                (VARIANTS[3], 40), ({"num_rows": 1, "num_cols": 1}, 10)])
def test_openspiel_cross_check(variant, games):
    """Identical legal actions, player, terminal flag, returns, lines and boxes at every step."""
    pytest.importorskip("pyspiel")
    report = cross_check(variant, games, seed=57)
    assert report.steps == games + games * make_game("dots_and_boxes", **variant).num_actions
    if variant.get("utility_margin"):
        assert {abs(r[0]) for r in report.returns} - {0.0, 1.0}  # margins, not only +-1


def test_a_box_taken_moves_again():
    s = play(G, "a1-b1 a1-a2 b1-b2")
    assert G.current_player(s) == 1  # three moves, no box: the turn passed each time
    s = G.apply(s, G.string_to_action("a2-b2"))
    assert G.owner(s, 0, 0) == 1 and G.score(s) == (0, 1) and G.current_player(s) == 1  # O took a1's box, again
    s = G.apply(s, G.string_to_action("b2-c2"))
    assert G.current_player(s) == 0 and G.score(s) == (0, 1)


def test_one_line_takes_two_boxes():
    g = make_game("dots_and_boxes", num_rows=1, num_cols=2)
    s = play(g, "a1-b1 b1-c1 a2-b2 b2-c2 a1-a2 c1-c2")  # six lines, no box; the middle line closes both
    assert g.current_player(s) == 0 and not g.is_terminal(s)
    s = g.apply(s, g.string_to_action("b1-b2"))
    assert g.score(s) == (2, 0) and g.outcome(s) == Outcome.P0_WINS and g.returns(s) == (1.0, -1.0)
    assert g.cells(s) == ["+---+---+", "| X | X |", "+---+---+"]


def test_utility_margin_is_the_box_difference():
    """OpenSpiel's returns with utility_margin; zerosum's returns stay win, draw or loss."""
    g = make_game("dots_and_boxes", num_rows=1, num_cols=2, utility_margin=True)
    s = play(g, "a1-b1 b1-c1 a2-b2 b2-c2 a1-a2 c1-c2")
    assert g.utility(s) == g.returns(s) == (0.0, 0.0)
    s = g.apply(s, g.string_to_action("b1-b2"))
    assert g.utility(s) == (2.0, -2.0) and g.returns(s) == (1.0, -1.0) and g.outcome(s) == Outcome.P0_WINS
    s = play(g, "a1-b1 a1-a2 a2-b2 b1-b2 b1-c1 c1-c2 b2-c2")  # O closes a1's box, then c1's
    assert g.score(s) == (0, 2) and g.utility(s) == (-2.0, 2.0) and g.returns(s) == (-1.0, 1.0)
    plain = make_game("dots_and_boxes", num_rows=1, num_cols=2)
    assert plain.utility(plain.position(g.cells(s), "O")) == (-1.0, 1.0)


def test_names():
    assert [G.action_to_string(a) for a in (0, 1, 5, 6, 8, 11)] == ["a1-b1", "b1-c1", "b3-c3", "a1-a2", "c1-c2",
                                                                    "c2-c3"]
    assert G.string_to_action("b1-a1") == G.string_to_action("a1b1") == G.string_to_action("A1 - B1") == 0
    assert G.string_to_action("P2(v,1,2)") == G.string_to_action("v,1,2") == G.string_to_action("h,2,1") + 6 == 11
    for text in ("a1-c1", "a1-b2", "a1-a1", "d1-d2", "a4-b4", "h,3,0", "v,0,3", "", "12", "a1-b1-c1"):
        with pytest.raises(IllegalActionError, match="write the two neighbouring dots a line joins"):
            G.string_to_action(text)
    with pytest.raises(IllegalActionError, match="a1-b1 is drawn already"):
        G.apply(play(G, "a1-b1"), 0)


@pytest.mark.parametrize(("bad", "match"), [
    ({"num_rows": 0}, "num_rows=0 is not allowed: an int from 1 to 20"),
    ({"num_cols": 0}, "num_cols=0 is not allowed: an int from 1 to 20"),
    ({"num_rows": 21}, "num_rows=21 is not allowed"),
    ({"num_cols": "2"}, "num_cols='2' is not allowed"),
    ({"utility_margin": 1}, "utility_margin=1 is not allowed: True or False"),
    ({"rows": 2}, "unknown name 'rows'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("dots_and_boxes", **bad)


def test_variant_sizes():
    assert (G.num_actions, G.max_game_length, G.observation_shape, G.rows, G.columns) == (12, 12, (3, 3, 5), 2, 2)
    g = make_game("dots_and_boxes", num_rows=3, num_cols=5)
    assert (g.num_actions, g.max_moves, g.observation_shape) == (4 * 5 + 3 * 6, 38, (4, 6, 5))
    assert make_game("dots_and_boxes", num_rows=2) == G == DotsAndBoxes() != DotsAndBoxes(num_cols=3)


def test_render_and_position_round_trip():
    s = play(G, "a1-b1 a1-a2 b1-b2 a2-b2 b2-c2")
    assert G.render(s).splitlines() == ["  a   b   c", "1 +---+   +", "  | O |", "2 +---+---+", "",
                                        "3 +   +   +", "X to move (boxes: X 0, O 1)"]
    rng = np.random.default_rng(3)
    for variant in VARIANTS:
        g = make_game("dots_and_boxes", **variant)
        for s in random_states(g, 30, rng, max_plies=g.max_game_length + 1):  # one generator for all variants
            assert np.array_equal(g.position(g.cells(s), "XO"[g.current_player(s)]), s)


@pytest.mark.parametrize(("board", "to_move", "match"), [
    (["+---+", "|   |"], "X", "5 rows of 9 characters"),
    (["+-+-+-+-+", "         ", "+   +   +", "         ", "+   +   +"], "X", "5 rows of 9 characters"),
    (["+---+---+", "|   |    ", "+---+---+", "         ", "+   +   +"], "X", "box a1-b2 has four sides and no taker"),
    (["+---+   +", "| X      ", "+---+   +", "         ", "+   +   +"], "X", "box a1-b2 has taker X but not all four"),
    (["+   +   +", "         ", "+   +   +", "         ", "+   +   +"], "Z", "to_move='Z': 'X' or 'O'"),
])
def test_position_errors(board, to_move, match):
    with pytest.raises(PositionError, match=match):
        G.position(board, to_move)


def test_observation_planes():
    s = play(G, "a1-b1 a1-a2 b1-b2 a2-b2")  # O took the top-left box and moves again
    o0, o1 = G.observation(s, 0), G.observation(s, 1)
    assert o0.shape == (3, 3, 5) and o0.dtype == np.int8
    assert o0[0, 0, 0] == o0[1, 0, 0] == o0[0, 0, 1] == o0[0, 1, 1] == 1 and o0[..., :2].sum() == 4
    assert o0[0, 0, 3] == o1[0, 0, 2] == 1 and o0[..., 2].sum() == o1[..., 3].sum() == 0
    assert o1[..., 4].all() and not o0[..., 4].any()


# ---- heuristics -------------------------------------------------------------------------------
CHAIN3 = ["+---+---+---+", "             ", "+---+---+---+"]            # one long chain, both ends open
CHAIN3_AND_FREE = ["+---+---+---+   +", "                 ", "+---+---+---+   +"]  # and a box with no side


@pytest.mark.parametrize("name", ["boxes", "chains"])
@pytest.mark.parametrize("variant", [VARIANTS[0], VARIANTS[1]])
def test_check_heuristic(name, variant):
    check_heuristic(make_game("dots_and_boxes", **variant), name, positions=20)


def test_long_chain_rule():
    """Once no safe move is left, whoever must open the long chain loses it; while safe
    moves remain the chains are still forming and the rule waits."""
    chains = G.heuristic("chains").fn
    g = make_game("dots_and_boxes", num_rows=1, num_cols=3)
    s = g.position(CHAIN3, "X")  # no safe move: X must open the chain, O takes its 3 boxes
    assert chains(g.params, s, 0) == -30.0 and chains(g.params, s, 1) == 30.0
    assert chains(g.params, g.position(CHAIN3, "O"), 1) == -30.0
    g = make_game("dots_and_boxes", num_rows=1, num_cols=4)
    s = g.position(CHAIN3_AND_FREE, "X")  # two safe moves left in the free box
    assert chains(g.params, s, 0) == 0.0
    s = g.apply(g.apply(s, g.string_to_action("d1-e1")), g.string_to_action("d2-e2"))  # both taken: a chain of 4
    assert g.current_player(s) == 0 and chains(g.params, s, 0) == -40.0 and chains(g.params, s, 1) == 40.0


def test_takeable_boxes_count_for_the_mover():
    g = make_game("dots_and_boxes", num_rows=1, num_cols=3)
    s = g.apply(g.position(CHAIN3, "X"), g.string_to_action("a1-a2"))  # X opens the chain: O takes all three
    chains, boxes = g.heuristic("chains").fn, g.heuristic("boxes").fn
    assert g.current_player(s) == 1 and chains(g.params, s, 1) == 60.0 and boxes(g.params, s, 1) == 0.0


def test_order_and_forcing():
    from zerosum.games.dots_and_boxes import knowledge

    g = make_game("dots_and_boxes", num_rows=1, num_cols=3)
    s = g.apply(g.position(CHAIN3, "X"), g.string_to_action("a1-a2"))
    out = np.empty(g.max_moves, np.int64)
    assert [g.action_to_string(int(a)) for a in out[: knowledge.forcing(g.params, s, out)]] == ["b1-b2"]
    legal = g.legal_actions(s)
    scores = np.empty(len(legal))
    knowledge.order(g.params, s, legal, len(legal), scores)
    assert g.action_to_string(int(legal[np.argmax(scores)])) == "b1-b2"


# ---- the kit's engines -------------------------------------------------------------------------
def openspiel_value(o, memo):
    """The best margin, in the boxes still to take, for the player to move from ``o``,
    solved over OpenSpiel's states."""
    def lines_and_boxes(state):
        t = np.array(state.observation_tensor(0)).reshape(3, -1, 3)
        return t[0, :, :2].tobytes(), int(t[1:, :, 2].sum())

    lines, boxes = lines_and_boxes(o)
    key = (lines, o.current_player())
    if key not in memo:
        best = -1000
        for a in o.legal_actions():
            c = o.child(a)
            taken = lines_and_boxes(c)[1] - boxes
            rest = 0 if c.is_terminal() else openspiel_value(c, memo)
            best = max(best, taken + (rest if c.current_player() == o.current_player() else -rest))
        memo[key] = best
    return memo[key]


def test_alphabeta_solves_the_default_board():
    """2x2 boxes is a first-player win (alpha-beta, as an exhaustive solve over OpenSpiel's
    states says), and minimax agrees with alpha-beta on a smaller board."""
    from zerosum.search import alphabeta, minimax

    result = alphabeta(G, G.initial_state(), depth=12)
    assert result.value > 0
    pyspiel = pytest.importorskip("pyspiel")
    assert openspiel_value(pyspiel.load_game("dots_and_boxes").new_initial_state(), {}) == 2  # 3 boxes to 1
    g = make_game("dots_and_boxes", num_rows=1, num_cols=2)
    s = play(g, "a1-b1")
    assert minimax(g, s, depth=6).value == alphabeta(g, s, depth=6).value


def test_search_takes_the_opened_chain():
    from zerosum.search import alphabeta, mcts

    g = make_game("dots_and_boxes", num_rows=1, num_cols=3)
    s = g.apply(g.position(CHAIN3, "X"), g.string_to_action("a1-a2"))
    for name in ("boxes", "chains"):
        assert g.action_to_string(alphabeta(g, s, depth=2, heuristic=name).action) == "b1-b2"
    result = mcts(g, s, sims=300, seed=0)
    assert g.action_to_string(result.action) == "b1-b2" and result.value > 0


def test_agents_play_legal_moves():
    g = make_game("dots_and_boxes", num_rows=3, num_cols=3)
    specs = ("mcts(sims=50)", "alphabeta(depth=2, heuristic=boxes)", G.default_opponent)
    kit_parts.agents_play_legal_moves(g, specs, play(g, "a1-b1 b2-b3"))


def test_vector_env_with_an_alphabeta_opponent():
    kit_parts.vector_env_with_an_alphabeta_opponent("dots_and_boxes_v0", 3, 40, num_rows=2, num_cols=2)


def test_play_reads_dots_help_and_hint():
    text = kit_parts.play_main_text(["dots_and_boxes", "--opponent", "mcts(sims=30)", "--seed", "0"],
                                    ["help a", "hint", "b1-a1", "quit"])
    assert "legal moves starting with 'a'" in text and "hint: " in text and "You left the game." in text
    assert "1 +---+" in text  # the line a1-b1 drawn on the board shown after the move


def test_tournament_evaluate_and_replay_gif(tmp_path):
    """A tournament on the margin variant scores wins, draws and losses (returns stay +1/-1/0),
    evaluate reports, and replay --gif draws the stored game line by line."""
    variant = {"num_rows": 3, "num_cols": 3, "utility_margin": True}
    standings, frames = kit_parts.tournament_evaluate_and_replay_gif(
        tmp_path, "dots_and_boxes", ["random", "alphabeta(depth=2)"], "alphabeta(depth=2)", variant=variant)
    assert all(0.0 <= row["score"] <= 1.0 for row in standings), standings
    assert frames == 25  # the empty board and one frame a line
