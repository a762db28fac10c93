"""Breakthrough: the conformance kit, perft, the OpenSpiel cross-check at every step, a
scripted game, names, errors, positions and the search knowledge."""

import re

import numpy as np
import pytest

from tests.playouts import batched_search_moves_are_legal, perft
from zerosum.envs import breakthrough_v0
from zerosum.games import IllegalActionError, PositionError, VariantError, make_game
from zerosum.games.breakthrough import Breakthrough
from zerosum.search import AlphaBeta
from zerosum.testing import check_game, check_heuristic, compare_with_openspiel, openspiel_perft

G = make_game("breakthrough")
SMALL = {"rows": 4, "columns": 3}
VARIANTS = [{}, {"rows": 6, "columns": 6}, {"rows": 5, "columns": 7}]


@pytest.mark.parametrize("variant", VARIANTS)
def test_conformance(variant):
    check_game(make_game("breakthrough", **variant), games=10, seed=5)


@pytest.mark.parametrize("name", sorted(Breakthrough.heuristics))
def test_heuristics(name):
    for variant in VARIANTS[:2]:
        check_heuristic(make_game("breakthrough", **variant), name)


# perft from the start; OpenSpiel's breakthrough gives the same counts (test_openspiel_perft
# checks the first ones; the default's 5 and 6 plies, 6,182,818 and 149,264,638, in bench/game_api.py's notes)
PERFT = [({}, [22, 484, 11132, 256036]), ({"rows": 6, "columns": 6}, [16, 256, 4308, 71478]),
         ({"rows": 5, "columns": 7}, [19, 361, 6213, 106780]), (SMALL, [7, 49, 256, 1230, 5940, 23938])]


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_perft(variant, counts):
    g = make_game("breakthrough", **variant)
    assert [perft(g, g.initial_state(), d) for d in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_openspiel_perft(variant, counts):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("breakthrough", variant)
    assert [openspiel_perft(game.new_initial_state(), d) for d in range(1, 4)] == counts[:3]


# (variant, random games): about 9,000 compared steps
CROSS_CHECK = [({}, 60), ({"rows": 6, "columns": 6}, 60), ({"rows": 5, "columns": 7}, 60), (SMALL, 40),
               ({"rows": 4, "columns": 16}, 10), ({"rows": 16, "columns": 4}, 10)]


def test_openspiel_cross_check():
    """Identical legal actions, board, player, terminal flag, returns and names at every step."""
    pyspiel = pytest.importorskip("pyspiel")
    rng = np.random.default_rng(4747)
    for variant, games in CROSS_CHECK:
        g = make_game("breakthrough", **variant)
        game = pyspiel.load_game("breakthrough", variant)
        assert (g.num_actions, g.max_game_length) == (game.num_distinct_actions(), game.max_game_length())

        def same_board(s, os_state, g=g):
            # OpenSpiel labels rank 10 and above with the characters after '9'
            assert [chr(ord("1") + g.rows - 1 - r) + row for r, row in enumerate(g.cells(s))] \
                == str(os_state).split()[:-1]

        def same_name(s, os_state, a, g=g):
            if g.rows < 10:
                assert g.action_to_string(a) == os_state.action_to_string(a)

        compare_with_openspiel(g, game, games, rng, same_board, check_action=same_name)


def test_scripted_game():
    g = make_game("breakthrough", **SMALL)
    s = g.initial_state()
    assert g.describe_actions(g.legal_actions(s), s) == "a4a3, a4b3, b4a3, b4b3, b4c3, c4b3, c4c3"
    moves = ["a4-a3", "c1c2", "a3b2", "a1xb2", "c4-c3", "b2-a3", "b4a3*", "c2-b3", "a3a2"]
    for m in moves:
        s = g.apply(s, g.string_to_action(m, s))
        assert not g.is_terminal(s)
    assert g.cells(s) == ["...", ".wb", "b..", ".w."], g.render(s)
    with pytest.raises(IllegalActionError, match=r"action \d+ \(b3c4\*\) is not legal here: no black piece on c4"):
        g.apply(s, g.string_to_action("b3xc4", s))
    s = g.apply(s, g.string_to_action("b3b4", s))  # white reaches black's home row
    assert g.render(s) == "4  . w .\n3  . . b\n2  b . .\n1  . w .\n   a b c\nwhite wins"
    assert g.is_terminal(s) and g.returns(s) == (-1.0, 1.0) and len(g.legal_actions(s)) == 0


def test_capturing_every_piece_wins():
    g = make_game("breakthrough", rows=5, columns=2)
    s = g.position(["..", "b.", ".w", "..", ".."], to_move="black")
    assert not g.is_terminal(s)
    s = g.apply(s, g.string_to_action("a4xb3", s))
    assert g.is_terminal(s) and g.returns(s) == (1.0, -1.0) and g.render(s).endswith("black wins")


def test_names():
    s = G.initial_state()
    assert G.action_to_string(2) == "a8a7" and G.string_to_action("a7a6") == 98
    for a in range(G.num_actions):
        name = G.action_to_string(a)
        if "?" not in name:
            assert G.string_to_action(name) == a
    s = G.position(["........", "...b....", "..w.....", "........", "........", "........", "........",
                    "........"], to_move="black")
    take = G.string_to_action("d7c6*")
    assert G.string_to_action("d7c6", s) == G.string_to_action("d7xc6") == G.string_to_action("D7:C6") == take
    assert G.string_to_action("d7c6") == take - 1  # without a state, no capture
    assert G.string_to_action(str(take)) == take
    for text in ("a7a5", "a7c6", "i7i6", "a9a8", "a7", "", "e2e4e5", "768"):
        with pytest.raises(IllegalActionError, match="write 'a2a3' or 'a2-a3' for a step, 'a2xb3'"):
            G.string_to_action(text)


def test_illegal_reasons():
    s = G.initial_state()
    for move, why in [("a2a3", "a2a3 is a move for white, and black is to move"),
                      ("a6a5", "no black piece on a6"), ("a8a7", "a7 holds a black piece"),
                      ("a7xb6", "no white piece on b6")]:
        with pytest.raises(IllegalActionError, match=re.escape(why)):
            G.apply(s, G.string_to_action(move))
    s = G.position(["........", "...b....", "...w....", "........", "........", "........", "........",
                    "........"], to_move="black")
    with pytest.raises(IllegalActionError, match=re.escape("d6 is occupied (a piece captures only diagonally)")):
        G.apply(s, G.string_to_action("d7d6"))
    with pytest.raises(IllegalActionError, match=re.escape("a straight move cannot capture")):
        G.apply(s, G.string_to_action("d7d6") + 1)
    with pytest.raises(IllegalActionError, match="an int in|out of range"):
        G.apply(s, 768)


@pytest.mark.parametrize(("bad", "match"), [
    ({"rows": 3}, "rows=3 is not allowed: an int from 4 to 16"),
    ({"rows": 17}, "rows=17 is not allowed: an int from 4 to 16"),
    ({"columns": 1}, "columns=1 is not allowed: an int from 2 to 16"),
    ({"columns": 100}, "columns=100 is not allowed: an int from 2 to 16"),
    ({"rows": 9, "columns": 8}, r"columns=8 is not allowed: at most 7 columns with rows=9: rows \* columns <= 64"),
    ({"rows": "8"}, "rows='8' is not allowed"),
    ({"size": 8}, "unknown name 'size'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("breakthrough", **bad)


def test_variant_sizes():
    for rows, cols, pieces in ((8, 8, 16), (6, 6, 12), (5, 7, 7), (4, 16, 16), (16, 4, 8)):
        g = make_game("breakthrough", rows=rows, columns=cols)
        assert (g.num_actions, g.max_moves, g.observation_shape) == (12 * rows * cols, 3 * pieces, (rows, cols, 3))
        assert bin(int(g.initial_state()[0]) & (2**64 - 1)).count("1") == pieces
    assert make_game("breakthrough", rows=6, columns=6) == Breakthrough(6, 6) != G


def random_states(game, count, seed):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(int(rng.integers(0, 80))):
            if game.is_terminal(s):
                break
            legal = game.legal_actions(s)
            s = game.apply(s, int(legal[rng.integers(len(legal))]))
        out.append(s)
    return out


def test_position_round_trip_and_observation():
    for s in random_states(G, 200, seed=11):
        to_move = ("black", "white")[int(s[2])]
        assert np.array_equal(G.position(G.cells(s), to_move), s)
        assert np.array_equal(G.position(G.render(s).rsplit("\n", 2)[0], to_move), s)  # the drawing reads back
        black, white = G.observation(s, 0), G.observation(s, 1)
        assert np.array_equal(black[::-1, :, 0], white[:, :, 1])  # black's view is the board upside down
        assert np.array_equal(white[:, :, 0], np.array([[ch == "w" for ch in row] for row in G.cells(s)]))


@pytest.mark.parametrize(("board", "match"), [
    (["bbbb"] * 3, "a 8x8 breakthrough board is 8 rows of 8 cells"),
    (["bbbbbbbb"] * 3 + ["........"] * 5, "black has 24 pieces; a side starts with 16"),
    (["w......."] + ["........"] * 6 + ["b......."], "both sides have won"),
    (["x......."] + ["........"] * 7, "cells of b, w or '.'"),
])
def test_position_errors(board, match):
    with pytest.raises(PositionError, match=match):
        G.position(board)
    with pytest.raises(PositionError, match="'black' or 'white'"):
        G.position(G.cells(G.initial_state()), to_move="red")


def test_the_search_takes_a_win_and_stops_a_runner():
    # black to move with a piece one row before white's home row: the heuristic and the search see the win
    s = G.position(["........", "........", "........", "........", "...w....", "........", "..b.....",
                    "....w..."], to_move="black")
    assert G.heuristics["safety"].fn(G.params, s, 0) >= 5000
    result = AlphaBeta(G).search(s, 3)
    assert G.action_to_string(result.action)[2:4].endswith("1") and result.plies_to_end == 1
    # white to move must capture black's runner on c2, the only move that does not lose
    s = G.position(["........", "........", "........", "........", "........", "........", "..b.....",
                    ".w.w...."], to_move="white")
    result = AlphaBeta(G).search(s, 4)
    assert G.action_to_string(result.action) in ("b1c2*", "d1c2*")


def test_ordering_and_forcing():
    s = G.position(["........", "........", "........", "........", "...b....", "..w.....", "........",
                    "........"], to_move="white")
    moves = G.legal_actions(s)
    scores = np.zeros(len(moves))
    G.kernels.order(G.params, s, moves, len(moves), scores)
    assert G.action_to_string(int(moves[np.argmax(scores)])) == "c3d4*"
    out = np.zeros(G.max_moves, np.int64)
    n = G.kernels.forcing(G.params, s, out)
    assert [G.action_to_string(int(a)) for a in out[:n]] == ["c3d4*"]


def test_the_env_docstring_table_matches_the_spaces():
    env = breakthrough_v0.env()
    assert re.search(rf"\| Action values\s+\| Discrete\({env.action_space('player_0').n}\)", breakthrough_v0.__doc__)
    shape = env.observation_space("player_0")["observation"].shape
    assert re.search(rf"\| Observation shape\s+\| {re.escape(str(shape))}", breakthrough_v0.__doc__)


def test_play_reads_moves_and_answers_help_and_hint():
    from zerosum.agents import make_agent
    from zerosum.cli.play import PlaySession

    typed = iter(["help a7", "hint", "a7-a6", "e7xf6", "quit"])
    out: list[str] = []
    session = PlaySession(G, make_agent("alphabeta(depth=1)", rng=0), {0}, "alphabeta(depth=2)",
                          input_fn=lambda prompt: next(typed), output_fn=out.append)
    assert session.run() == 0
    text = "\n".join(out)
    assert "a7a6, a7b6" in text and "hint: " in text
    assert session.actions[0] == G.string_to_action("a7a6") and len(session.actions) == 2  # e7xf6 was refused


def test_mcts_minimax_and_the_batched_search_play_it(tmp_path):
    """MCTS takes a win in one; alpha-beta's value equals minimax's at a fixed depth; the
    batched search and an untrained alphazero agent play legal moves to the end of a game."""
    from zerosum.search import MCTS, minimax

    runner = G.position(["........", "........", "........", "........", "...w....", "........", "..b.....",
                         "....w..."], to_move="black")
    result = MCTS(G).search(runner, sims=300, seed=0)
    assert G.action_to_string(result.action)[2:4].endswith("1")
    small = make_game("breakthrough", **SMALL)
    for s in random_states(small, 8, 3):
        if not small.is_terminal(s):
            for name in ("material", "safety"):
                assert AlphaBeta(small, name).search(s, 4).value == minimax(small, s, 4, heuristic=name).value
    states = [s for s in random_states(G, 4, 5) if not G.is_terminal(s)]
    batched_search_moves_are_legal(G, states)
    torch = pytest.importorskip("torch")
    from zerosum.agents import make_agent
    from zerosum.nets import NetConfig, build_network, save_network

    torch.manual_seed(0)
    config = NetConfig(kind="resnet", blocks=1, channels=4, policy_channels=1, value_hidden=8)
    path = save_network(tmp_path / "net.pt", build_network(small, config), small, config)
    agent = make_agent(f"alphazero(path={path}, sims=8)", rng=0)
    agent.prepare(small)
    s = small.initial_state()
    while not small.is_terminal(s):
        s = small.apply(s, agent.act(small, s))
    assert small.returns(s) in ((1.0, -1.0), (-1.0, 1.0))
