"""Othello: the conformance kit on every size, perft, the OpenSpiel cross-check at every step,
a scripted game, passes, positions, names, errors and the heuristics."""

import re

import numpy as np
import pytest

from tests.games import othello_reference as reference
from tests.playouts import batched_search_moves_are_legal, perft
from zerosum.envs import othello_v0
from zerosum.games import GameOverError, IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.games.othello import Othello
from zerosum.games.othello.knowledge import HEURISTICS
from zerosum.testing import check_game, check_heuristic, compare_with_openspiel, openspiel_perft

G = make_game("othello")
SIZES = [{}, {"size": 6}, {"size": 10}]


@pytest.mark.parametrize("variant", SIZES)
def test_conformance_kit(variant):
    g = make_game("othello", **variant)
    report = check_game(g, games=6 if variant else 10, seed=1, search_depth=2, search_positions=4, env=not variant)
    assert report.transpositions > 0  # the key check saw other move orders


def test_conformance_small_board():
    check_game(make_game("othello", size=4), games=30, seed=2, search_depth=3, env=False)


@pytest.mark.parametrize("name", sorted(HEURISTICS))
@pytest.mark.parametrize("variant", SIZES)
def test_heuristics_pass_check_heuristic(name, variant):
    g = make_game("othello", **variant)
    check_heuristic(g, name, positions=20, depth=2 if variant else 3, search_positions=2)


# perft from the start: 8x8 as published for Othello (and as OpenSpiel counts, test_openspiel_perft); the
# other sizes as the plain reference rules in othello_reference.py count them (test_reference_perft)
PERFT = {8: [4, 12, 56, 244, 1396, 8200, 55092], 6: [4, 12, 56, 244, 1364, 7604], 4: [4, 12, 44, 128, 424, 1256, 3624],
         10: [4, 12, 56, 244, 1396, 8200]}


@pytest.mark.parametrize("size", sorted(PERFT))
def test_perft(size):
    g = make_game("othello", size=size)
    counts = PERFT[size]
    assert [perft(g, g.initial_state(), d) for d in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize(("size", "depth"), [(4, 7), (6, 5), (8, 5), (10, 5)])
def test_reference_perft(size, depth):
    board = reference.start(size)
    assert [reference.perft(board, "x", d) for d in range(1, depth + 1)] == PERFT[size][:depth]


@pytest.mark.parametrize(("size", "games"), [(4, 100), (6, 30), (10, 6)])
def test_reference_cross_check(size, games):
    """Legal actions, board, player, terminal flag and returns equal to the plain reference
    rules at every step of seeded random games, on the sizes OpenSpiel does not have."""
    g = make_game("othello", size=size)
    rng = np.random.default_rng(size)
    for _ in range(games):
        s, board, me = g.initial_state(), reference.start(size), "x"
        while True:
            legal = reference.legal(board, me)
            assert list(g.legal_actions(s)) == legal and g.cells(s) == ["".join(row) for row in board]
            assert g.is_terminal(s) == (not legal)
            if not legal:
                assert g.returns(s) == reference.returns(board)
                break
            assert g.current_player(s) == "xo".index(me) and g.returns(s) == (0.0, 0.0)
            a = legal[rng.integers(len(legal))]
            s = g.apply(s, a)
            board, me = reference.play(board, me, a)


def test_openspiel_perft():
    pyspiel = pytest.importorskip("pyspiel")
    start = pyspiel.load_game("othello").new_initial_state()
    assert [openspiel_perft(start, d) for d in range(1, 6)] == PERFT[8][:5]


def test_openspiel_cross_check():
    """Identical legal actions, board, player to move, terminal flag and returns at every
    step of seeded random games (OpenSpiel has only the 8x8 board)."""
    pyspiel = pytest.importorskip("pyspiel")

    def same_board(s, os_state):
        assert G.cells(s) == [row.replace("-", ".").replace(" ", "")[1:-1] for row in str(os_state).splitlines()[2:-1]]

    report = compare_with_openspiel(G, pyspiel.load_game("othello"), 60, 47, same_board)
    assert report.steps > 3500 and report.actions[64] > 0
    assert set(report.outcomes) == {Outcome.P0_WINS, Outcome.P1_WINS, Outcome.DRAW}


def play(moves, game=G):
    s = game.initial_state()
    for m in moves.split():
        s = game.apply(s, game.string_to_action(m, s))
    return s


def test_scripted_game_to_the_end():
    """One of the shortest games (9 plies): black takes every white disc."""
    s = play("d3 c3 b3 d2 e1 d6 d7 e3 f4")
    assert G.is_terminal(s) and G.outcome(s) == Outcome.P0_WINS and G.returns(s) == (1.0, -1.0)
    assert G.counts(s)[1] == 0 and len(G.legal_actions(s)) == 0
    assert G.render(s).splitlines()[-1] == f"x {G.counts(s)[0]} o 0: x (black) wins"
    with pytest.raises(GameOverError):
        G.apply(s, 64)


def test_scripted_opening():
    s = play("d3 c5 f6")
    assert G.cells(s) == ["........", "........", "...x....", "...xx...", "..oox...", ".....x..", "........",
                          "........"]  # d3 turns d4; c5 turns d5; f6 turns e5
    assert G.current_player(s) == 1 and G.counts(s) == (5, 2)
    assert G.render(s).splitlines()[-1] == "x 5 o 2: o (white) to move"


def test_pass_and_its_errors():
    # white to move has no placement; black has one (a1... here c1): white must pass
    s = G.position(["xo......", "........", "........", "........", "........", "........", "........",
                    "........"], to_move="white")
    assert list(G.legal_actions(s)) == [64] and G.current_player(s) == 1 and not G.is_terminal(s)
    assert G.render(s).endswith("o (white) to move, must pass")
    with pytest.raises(IllegalActionError, match="white has no placement and must pass"):
        G.apply(s, G.string_to_action("c1"))
    t = G.apply(s, G.string_to_action("pass"))
    assert G.current_player(t) == 0 and list(G.legal_actions(t)) == [2]
    end = G.apply(t, 2)
    assert G.is_terminal(end) and G.outcome(end) == Outcome.P0_WINS and G.counts(end) == (3, 0)
    with pytest.raises(IllegalActionError, match="may not pass"):
        G.apply(G.initial_state(), 64)
    with pytest.raises(IllegalActionError, match="d4 is occupied"):
        G.apply(G.initial_state(), G.string_to_action("d4"))
    with pytest.raises(IllegalActionError, match=r"a1 would turn no disc over; legal: d3, c4, f5, e6"):
        G.apply(G.initial_state(), 0)


def test_full_board_ends_the_game_with_a_draw():
    board = ["xxxxxxxx"] * 4 + ["oooooooo"] * 4
    s = G.position(board)
    assert G.is_terminal(s) and G.outcome(s) == Outcome.DRAW and G.returns(s) == (0.0, 0.0)


def test_names():
    assert [G.action_to_string(a) for a in (0, 19, 63, 64)] == ["a1", "d3", "h8", "pass"]
    for a in range(65):
        assert G.string_to_action(G.action_to_string(a)) == a == G.string_to_action(str(a))
    assert G.string_to_action(" D3 ") == 19
    big = make_game("othello", size=10)
    assert big.string_to_action("j10") == 99 and big.action_to_string(100) == "pass"
    for text in ("i1", "a9", "a0", "65", "", "d3d4"):
        with pytest.raises(IllegalActionError, match="write a square a1-h8"):
            G.string_to_action(text)
    with pytest.raises(IllegalActionError, match=r"out of range"):
        G.action_to_string(65)


@pytest.mark.parametrize(("bad", "match"), [
    ({"size": 7}, "size=7 is not allowed: one of 4, 6, 8, 10"),
    ({"size": 12}, "size=12 is not allowed: one of 4, 6, 8, 10"),
    ({"size": "8"}, "size='8' is not allowed"),
    ({"size": True}, "size=True is not allowed"),
    ({"rows": 8}, "unknown name 'rows'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("othello", **bad)


def test_sizes():
    for n in (4, 6, 8, 10):
        g = make_game("othello", size=n)
        assert (g.num_actions, g.max_game_length, g.observation_shape) == (n * n + 1, 2 * (n * n - 4), (n, n, 3))
        assert list(g.legal_actions(g.initial_state())) == sorted([(n // 2 - 2) * n + n // 2 - 1,
                                                                   (n // 2 - 1) * n + n // 2 - 2,
                                                                   n // 2 * n + n // 2 + 1,
                                                                   (n // 2 + 1) * n + n // 2])
    assert Othello(size=6) == make_game("othello", size=6) != G


def test_position_round_trip_and_errors():
    rng = np.random.default_rng(3)
    for n in (6, 8, 10):
        g = make_game("othello", size=n)
        for _ in range(20):
            s = g.initial_state()
            for _ in range(int(rng.integers(0, g.max_game_length))):
                if g.is_terminal(s):
                    break
                legal = g.legal_actions(s)
                s = g.apply(s, int(legal[rng.integers(len(legal))]))
            assert np.array_equal(g.position(g.cells(s), to_move=g.current_player(s)), s)
    with pytest.raises(PositionError, match="8 rows of 8 cells"):
        G.position(["........"] * 7)
    with pytest.raises(PositionError, match="to_move is 0 or 'black'"):
        G.position(G.cells(G.initial_state()), to_move="red")


def test_observation_planes():
    s = play("d3")
    o0, o1 = G.observation(s, 0), G.observation(s, 1)
    assert o0.shape == (8, 8, 3) and o0.dtype == np.int8
    assert o0[2, 3, 0] == 1 and o0[3, 3, 0] == 1 and o0[4, 4, 1] == 1 and o1[4, 4, 0] == 1
    assert o0[..., 0].sum() == 4 and o0[..., 1].sum() == 1 and not o0[..., 2].any() and o1[..., 2].all()


def test_heuristics_see_the_position():
    # black holds a1 and its edge; white has an X-square next to an empty corner
    board = ["xxx.....", "......o.", "........", "...ox...", "...xo...", "........", "........", "........"]
    s = G.position(board)
    h = {name: G.heuristic(name).fn for name in HEURISTICS}
    assert h["corners"](G.params, s, 0) == 25.0 + 8.0  # a corner held, white's X-square g2 by an empty h1
    assert h["stability"](G.params, s, 0) == 3.0  # a1, b1, c1: anchored along the edge
    assert h["mobility"](G.params, s, 0) == h["mobility"](G.params, s, 0) and h["classic"](G.params, s, 1) < 0
    full = G.position(["xxxxxxxx"] * 4 + ["oooooooo"] * 4)
    assert h["stability"](G.params, full, 0) == 0.0  # every disc stable: 32 each
    assert G.heuristic().name == "classic"


def test_corners_first_ordering_hint():
    moves = np.array([0, 1, 9, 3, 27, 64], dtype=np.int64)
    scores = np.zeros(6)
    G.kernels.order(G.params, G.initial_state(), moves, 6, scores)
    assert list(scores) == [4.0, -1.0, -2.0, 1.0, 0.0, 0.0]


def test_the_env_docstring_table_matches_the_spaces():
    env = othello_v0.env()
    assert re.search(rf"\| Action values\s+\| Discrete\({env.action_space('player_0').n}\)", othello_v0.__doc__)
    shape = env.observation_space("player_0")["observation"].shape
    assert re.search(rf"\| Observation shape\s+\| {re.escape(str(shape))}", othello_v0.__doc__)


def test_rgb_array_draws_the_discs():
    env = othello_v0.env(render_mode="rgb_array")
    env.reset()
    img = env.render()
    assert img.dtype == np.uint8 and img.shape == (8 * 48 + 48, 8 * 48 + 48, 3)
    assert tuple(img[24 + 3 * 48 + 24, 24 + 4 * 48 + 24]) == (20, 20, 20)  # black's disc on e4
    assert tuple(img[24 + 3 * 48 + 24, 24 + 3 * 48 + 24]) == (245, 245, 245)  # white's disc on d4


# ---- everything the kit gives plays it ---------------------------------------------------------
def midgame(game, plies, seed):
    rng = np.random.default_rng(seed)
    s = game.initial_state()
    for _ in range(plies):
        s = game.apply(s, int(rng.choice(game.legal_actions(s))))
    return s


def test_searches_play_it():
    from zerosum.search import MCTS, AlphaBeta, minimax

    s = midgame(G, 12, 0)
    legal = {int(a) for a in G.legal_actions(s)}
    for name in ("classic", "mobility"):
        ab = AlphaBeta(G, name).search(s, 3, seed=1)
        assert ab.action in legal and ab.value == minimax(G, s, 3, heuristic=name).value
    assert AlphaBeta(G).search(s, time=0.05).action in legal
    r = MCTS(G).search(s, sims=200, seed=0)
    assert r.action in legal and r.stats.simulations == 200
    # a forced pass reaches the searches as the one legal action
    must_pass = G.position(["xo......"] + ["........"] * 7, to_move="white")
    assert AlphaBeta(G).search(must_pass, 2).action == 64 and MCTS(G).search(must_pass, sims=20).action == 64
    # the end of the game is solved exactly on 4x4: the second player (white) wins
    small = make_game("othello", size=4)
    assert AlphaBeta(small, "zero").search(small.initial_state(), small.max_game_length).value < 0


def test_make_vec_with_an_alphabeta_opponent():
    from zerosum.envs import make_vec

    env = make_vec("othello_v0", 4, opponent="alphabeta(depth=2)", seed=0)
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(80):
        masks = env.action_masks()  # all zeros in a lane that resets at this step (next-step autoreset)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, rewards, term, _, _ = env.step(actions)
        assert obs.shape[0] == 4 and set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        finished += int(term.sum())
    assert finished > 0


def test_batched_search_and_an_untrained_alphazero_agent(tmp_path):
    pytest.importorskip("torch")
    from zerosum.agents import make_agent
    from zerosum.nets import NetConfig, build_network, save_network

    states = [midgame(G, k, k) for k in (0, 5, 11)]
    batched_search_moves_are_legal(G, states)
    config = NetConfig(kind="resnet", blocks=1, channels=4, policy_channels=1, value_hidden=8)
    path = save_network(tmp_path / "net.pt", build_network(G, config), G, config)
    for spec in (f"alphazero(path={path}, sims=0)", f"alphazero(path={path}, sims=8)"):
        agent = make_agent(spec, rng=0)
        agent.prepare(G)
        s = G.initial_state()
        for _ in range(16):
            s = G.apply(s, agent.act(G, s))
        assert G.counts(s)[0] + G.counts(s)[1] == 20
