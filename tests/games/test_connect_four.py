"""Connect Four: scripted games, errors, variants, perft, the OpenSpiel cross-check, positions,
heuristics, and the engine on wins and blocks built as data."""

import numpy as np
import pytest

from tests.playouts import check_random_playouts, perft
from zerosum.envs import connect_four_v0
from zerosum.games import GameOverError, IllegalActionError, Outcome, PositionError, VariantError, make_game
from zerosum.games.connect_four import ConnectFour
from zerosum.search import WIN, AlphaBeta
from zerosum.testing import check_game, check_heuristic, compare_with_openspiel, openspiel_perft

G = make_game("connect_four")
SMALL = {"rows": 4, "columns": 5, "x_in_row": 3}
RESULT = {Outcome.P0_WINS: (1.0, -1.0), Outcome.P1_WINS: (-1.0, 1.0), Outcome.DRAW: (0.0, 0.0)}
EMPTY = "......."

# (variant, moves as column letters, expected outcome, expected board top row first)
SCRIPTED = [
    ({}, "dcdcdcd", Outcome.P0_WINS, [EMPTY, EMPTY, "...X...", "..OX...", "..OX...", "..OX..."]),  # vertical
    ({}, "adbdgdfd", Outcome.P1_WINS, [EMPTY, EMPTY, "...O...", "...O...", "...O...", "XX.O.XX"]),  # vertical
    ({}, "abbccdcddgd", Outcome.P0_WINS, [EMPTY, EMPTY, "...X...", "..XX...", ".XXO...", "XOOO..O"]),  # a1-d4
    ({}, "gffeaeedddd", Outcome.P0_WINS, [EMPTY, EMPTY, "...X...", "...OX..", "...XOX.", "X..OOOX"]),  # d4-g1
    ({}, "aabbccd", Outcome.P0_WINS, [EMPTY] * 4 + ["OOO....", "XXXX..."]),  # horizontal
    ({}, "fffafeeggdfbdfcbcdaebedacccbaaacbgbdeedggg", Outcome.DRAW,  # a full board
     ["XXOXOOO", "OXXOXXX", "XOOXOXO", "OXXOOXO", "XOXXXOX", "OOXOOXO"]),
    (SMALL, "abbccd", Outcome.P1_WINS, [".....", ".....", ".XX..", "XOOO."]),  # three in a row
]


def play(moves, game=G):
    s = game.initial_state()
    for m in moves:
        s = game.apply(s, game.string_to_action(m))
    return s


@pytest.mark.parametrize(("variant", "moves", "outcome", "board"), SCRIPTED)
def test_scripted_games(variant, moves, outcome, board):
    g = make_game("connect_four", **variant)
    s = play(moves, g)
    assert g.cells(s) == board, g.render(s)
    assert g.outcome(s) == outcome and g.returns(s) == RESULT[outcome]
    assert g.is_terminal(s) and len(g.legal_actions(s)) == 0
    for prefix in range(len(moves)):
        assert not g.is_terminal(play(moves[:prefix], g))


def test_errors():
    s = play("dddddd")
    assert list(G.legal_actions(s)) == [0, 1, 2, 4, 5, 6]
    with pytest.raises(IllegalActionError, match=r"action 3 \(d\) is not legal here; legal: a, b, c, e, f, g"):
        G.apply(s, 3)
    for bad in (7, -1, 2.5, "d", None, True):
        with pytest.raises(IllegalActionError, match="an int in|out of range"):
            G.apply(s, bad)
    with pytest.raises(GameOverError):
        G.apply(play(SCRIPTED[0][1]), 0)
    for text in ("h", "8", "0", "d4", ""):
        with pytest.raises(IllegalActionError, match="write a column letter a-g or its number 1-7"):
            G.string_to_action(text)
    with pytest.raises(IllegalActionError, match=r"an int in \[0, 7\)|out of range"):
        G.action_to_string(7)


def test_names():
    assert [G.action_to_string(a) for a in range(7)] == list("abcdefg")
    for a in range(7):
        assert G.string_to_action(G.action_to_string(a)) == a == G.string_to_action(str(a + 1))
    assert G.string_to_action(" D ") == 3
    g = make_game("connect_four", columns=9, rows=5)
    assert g.string_to_action("i") == g.string_to_action("9") == 8


@pytest.mark.parametrize(("bad", "match"), [
    ({"rows": 0}, "rows=0 is not allowed: an int from 1 to 9"),
    ({"columns": 10}, "columns=10 is not allowed: an int from 1 to 9"),
    ({"x_in_row": 0}, "x_in_row=0 is not allowed"),
    ({"rows": True}, "rows=True is not allowed"),
    ({"columns": "7"}, "columns='7' is not allowed"),
    ({"rows": 9, "columns": 9}, r"columns=9 is not allowed: at most 6 columns with rows=9: columns \* \(rows \+ 1\)"),
    ({"rows": 8, "columns": 8}, "columns=8 is not allowed: at most 7 columns with rows=8"),
    ({"row": 6}, "unknown name 'row'"),
])
def test_bad_variants(bad, match):
    with pytest.raises(VariantError, match=match):
        make_game("connect_four", **bad)


def test_variant_sizes():
    for rows, cols in ((9, 6), (8, 7), (6, 9), (1, 9), (9, 1)):
        g = make_game("connect_four", rows=rows, columns=cols)
        assert (g.num_actions, g.max_game_length, g.observation_shape) == (cols, rows * cols, (rows, cols, 3))
    g = make_game("connect_four", rows=1, columns=1, x_in_row=1)
    assert g.returns(g.apply(g.initial_state(), 0)) == (1.0, -1.0)
    assert make_game("connect_four", **SMALL) == ConnectFour(4, 5, 3) != G


# perft from the start, the same counts as OpenSpiel's connect_four (test_openspiel_perft)
PERFT = [({}, [7, 49, 343, 2401, 16807]), (SMALL, [5, 25, 125, 625, 3120, 14020]),
         ({"rows": 9, "columns": 6, "x_in_row": 5}, [6, 36, 216, 1296])]


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_perft(variant, counts):
    g = make_game("connect_four", **variant)
    assert [perft(g, g.initial_state(), d) for d in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize(("variant", "counts"), PERFT)
def test_openspiel_perft(variant, counts):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("connect_four", variant)
    assert [openspiel_perft(game.new_initial_state(), d) for d in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize("variant", [{}, SMALL, {"rows": 9, "columns": 6, "x_in_row": 5}, {"x_in_row": 7},
                                     {"rows": 1, "columns": 4, "x_in_row": 2}])
def test_random_playouts(variant):
    check_random_playouts(make_game("connect_four", **variant), 200, seed=3)


CROSS_CHECK = [({}, 1000), (SMALL, 200), ({"rows": 9, "columns": 6, "x_in_row": 5}, 100),
               ({"rows": 6, "columns": 9, "x_in_row": 4}, 100), ({"rows": 3, "columns": 3, "x_in_row": 4}, 50)]


def test_openspiel_cross_check():
    """Identical legal actions, board, player, terminal status and returns at every step."""
    pyspiel = pytest.importorskip("pyspiel")
    rng = np.random.default_rng(2024)
    for variant, games in CROSS_CHECK:
        g = make_game("connect_four", **variant)

        def same_board(s, os_state, g=g):
            assert [r.lower() for r in g.cells(s)] == str(os_state).split()

        compare_with_openspiel(g, pyspiel.load_game("connect_four", variant), games, rng, same_board)


def random_states(game, count, seed):
    """Seeded positions from random games, finished ones included."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(int(rng.integers(0, game.max_game_length + 1))):
            if game.is_terminal(s):
                break
            legal = game.legal_actions(s)
            s = game.apply(s, int(legal[rng.integers(len(legal))]))
        out.append(s)
    return out


@pytest.mark.parametrize("variant", [{}, SMALL])
def test_position_round_trip_and_exact_key(variant):
    g = make_game("connect_four", **variant)
    states = random_states(g, 400, seed=7)
    for s in states:
        assert np.array_equal(g.position(g.cells(s)), s)
        assert np.array_equal(g.position("\n".join(g.cells(s))), s)
    by_key = {}
    for s in states:
        assert by_key.setdefault(g.state_key(s), tuple(s)) == tuple(s), "two positions share a key"
    assert len(by_key) == len({tuple(s) for s in states})


@pytest.mark.parametrize(("board", "match"), [
    ([EMPTY] * 5, "6 rows of 7 cells"),
    (42, "6 rows of 7 cells"),
    ([EMPTY] * 5 + ["...X..Z"], "6 rows of 7 cells"),
    ([EMPTY] * 4 + ["...X...", EMPTY], "column d has a floating disc"),
    ([EMPTY] * 5 + ["XXOX..."], "X has as many discs as O or one more; got X 3, O 1"),
    ([EMPTY] * 5 + ["X.O.O.."], "got X 1, O 2"),
    ([EMPTY] * 4 + ["OOOO...", "XXXXX.."], "O has 4 in a row, but X moved last"),
    ([EMPTY] * 4 + ["OOO....", "XXXX.O."], "X has 4 in a row, but O moved last"),
    ([EMPTY] * 3 + ["O....O.", "OXXXXO.", "OXXXXOO"], "X has 4 in a row that no last move could have made"),
])
def test_position_errors(board, match):
    with pytest.raises(PositionError, match=match):
        G.position(board)


def test_position_status_and_render():
    s = G.position([EMPTY] * 4 + ["OOO....", "XXXX..."])
    assert G.outcome(s) == Outcome.P0_WINS and G.render(s).splitlines()[-1] == "X wins"
    s = G.position([EMPTY] * 5 + ["...X..."])
    assert G.current_player(s) == 1
    assert G.render(s).splitlines() == ["a b c d e f g", *[" ".join(EMPTY)] * 5, ". . . X . . .",
                                        "1 2 3 4 5 6 7", "O to move"]
    full = SCRIPTED[5][3]
    assert G.outcome(G.position(full)) == Outcome.DRAW and G.render(G.position(full)).endswith("draw")


def test_observation_planes():
    s = play("dc")
    o0, o1 = G.observation(s, 0), G.observation(s, 1)
    assert o0.shape == (6, 7, 3) and o0.dtype == np.int8
    assert o0[5, 3, 0] == 1 and o0[5, 2, 1] == 1 and o1[5, 2, 0] == 1 and o1[5, 3, 1] == 1
    assert o0[..., :2].sum() == 2 and o0[..., 2].all() and not o1[..., 2].any()  # player 0 is to move


def test_observation_matches_pettingzoo_connect_four_v3():
    """Planes 0 and 1 and the mask are PettingZoo's, for both agents, along seeded games."""
    pytest.importorskip("pygame")
    from pettingzoo.classic import connect_four_v3

    ours, theirs = connect_four_v0.env(), connect_four_v3.env()
    rng = np.random.default_rng(5)
    for _ in range(20):
        ours.reset()
        theirs.reset()
        while not any(theirs.terminations.values()):
            for agent in ("player_0", "player_1"):
                a, b = ours.observe(agent), theirs.observe(agent)
                assert np.array_equal(a["observation"][..., :2], b["observation"])
                assert np.array_equal(a["action_mask"], b["action_mask"])
            legal = np.flatnonzero(ours.observe(ours.agent_selection)["action_mask"])
            action = int(legal[rng.integers(len(legal))])
            ours.step(action)
            theirs.step(action)
            assert ours.rewards == theirs.rewards
        assert all(ours.terminations.values())


def test_rgb_array_draws_the_discs():
    env = connect_four_v0.env(render_mode="rgb_array")
    env.reset()
    env.step(3)
    img = env.render()
    assert img.dtype == np.uint8 and img.shape == (6 * 64 + 64, 7 * 64 + 64, 3)
    assert tuple(img[32 + 5 * 64 + 32, 32 + 3 * 64 + 32]) == (20, 20, 20)  # X's dark disc on d1
    assert tuple(img[32 + 5 * 64 + 32, 32 + 2 * 64 + 32]) != (20, 20, 20)


@pytest.mark.parametrize("name", ["windows", "threats"])
def test_heuristics_are_symmetric_and_bounded(name):
    h = G.heuristic(name)
    assert h.compiled and h.symmetric
    for s in random_states(G, 300, seed=11):
        v0, v1 = h.fn(G.params, s, 0), h.fn(G.params, s, 1)
        assert v0 == -v1 and abs(v0) <= 10_000
    assert G.heuristic().name == "threats"


@pytest.mark.parametrize("variant", [{}, SMALL])
def test_conformance_kit(variant):
    g = make_game("connect_four", **variant)
    report = check_game(g, games=20, seed=4, search_depth=3, env=False)
    assert report.transpositions > 0  # the key check saw other move orders
    for name in ("windows", "threats"):
        check_heuristic(g, name, positions=40, depth=3)


def test_heuristics_see_the_position():
    s = G.position([EMPTY] * 4 + ["..OO...", ".XXX..."])  # X: three with both ends open
    assert G.heuristic("windows").fn(G.params, s, 0) > 0 and G.heuristic("threats").fn(G.params, s, 0) > 0
    # one threat, none for the other side: threats minus windows is the threat's weight
    w, t = G.heuristic("windows").fn, G.heuristic("threats").fn
    for board, value in [([EMPTY] * 4 + ["OO.....", "XXX...O"], 12.0),   # X's threat d1: an odd row, X's good
                         ([EMPTY] * 4 + ["XXX....", "XOO..OO"], 4.0),    # X's threat d2: an even row
                         ([EMPTY] * 4 + ["XXX....", "OOO...."], -4.0)]:  # X's d2 is dead above O's d1
        s = G.position(board)
        assert t(G.params, s, 0) - w(G.params, s, 0) == value, board


def test_centre_first_ordering_hint():
    moves = np.arange(7, dtype=np.int64)
    scores = np.zeros(7)
    G.kernels.order(G.params, G.initial_state(), moves, 7, scores)
    assert [int(m) for m in sorted(moves, key=lambda m: -scores[m])] == [3, 2, 4, 1, 5, 0, 6]


# ---- the engine on positions built as data (X to move unless the counts say O) --------------
WIN_IN_1 = [
    ([EMPTY] * 5 + ["XXX.OOO"], "d"),                                      # horizontal
    ([EMPTY] * 3 + ["...X...", "...X.O.", "...X.OO"], "d"),                # vertical
    ([EMPTY] * 3 + ["..XO...", ".XXO...", "XOOX..O"], "d"),                # diagonal a1-d4
    ([EMPTY] * 3 + ["...OX..", "...OXX.", "O..XOOX"], "d"),                # diagonal d4-g1
    ([EMPTY] * 4 + ["....XXX", "OO.OXXO"], "c"),                           # O to move, into a gap
]
WIN_IN_3 = [
    ([EMPTY] * 4 + ["..OO...", "..XX..."], "be"),                          # an open three
    ([EMPTY] * 4 + ["OO.....", "XO.XX.."], "f"),
    ([EMPTY] * 2 + ["O......", "X.....X", "X.OO.XO", "XXOOXOX"], "be"),    # O to move
    ([EMPTY] * 3 + ["....X..", "X...OO.", "XXOXXOO"], "d"),                # O to move
]
BLOCKS = [
    ([EMPTY] * 4 + ["XX.....", "OOO.X.."], "d"),
    ([EMPTY] * 3 + ["......O", "......O", "X.X.X.O"], "g"),
    ([EMPTY] * 3 + ["..OX...", ".OOX...", "OXXO..X"], "d"),                # diagonal a1-d4
    ([EMPTY] * 4 + ["O......", "XXX.O.."], "d"),                           # O to move
]


def forced_wins(s, plies):
    """The moves that win for the mover within ``plies`` plies, by brute force."""
    me, out = G.current_player(s), set()
    for a in map(int, G.legal_actions(s)):
        child = G.apply(s, a)
        if G.is_terminal(child):
            if G.outcome(child).winner == me:
                out.add(a)
        elif plies >= 3 and all(not G.is_terminal(G.apply(child, int(b))) and forced_wins(G.apply(child, int(b)),
                                                                                              plies - 2)
                                for b in G.legal_actions(child)):
            out.add(a)
    return out


def letters(moves):
    return "".join(sorted(G.action_to_string(a) for a in moves))


@pytest.mark.parametrize(("board", "wins"), WIN_IN_1)
@pytest.mark.parametrize("heuristic", ["windows", "threats", "zero"])
def test_engine_wins_in_one(board, wins, heuristic):
    s = G.position(board)
    assert letters(forced_wins(s, 1)) == wins
    for depth, seed in ((1, None), (3, 1), (5, 2)):
        r = AlphaBeta(G, heuristic).search(s, depth, seed=seed)
        assert G.action_to_string(r.action) in wins and r.value == WIN - 1


@pytest.mark.parametrize(("board", "wins"), WIN_IN_3)
@pytest.mark.parametrize("heuristic", ["windows", "threats", "zero"])
def test_engine_wins_in_three(board, wins, heuristic):
    s = G.position(board)
    assert not forced_wins(s, 1) and letters(forced_wins(s, 3)) == wins
    for depth, seed in ((3, None), (3, 1), (5, 2)):
        r = AlphaBeta(G, heuristic).search(s, depth, seed=seed)
        assert G.action_to_string(r.action) in wins and r.value == WIN - 3


@pytest.mark.parametrize(("board", "block"), BLOCKS)
@pytest.mark.parametrize("heuristic", ["windows", "threats", "zero"])
def test_engine_blocks_an_immediate_threat(board, block, heuristic):
    s = G.position(board)
    assert not forced_wins(s, 1)
    saving = {a for a in map(int, G.legal_actions(s)) if not forced_wins(G.apply(s, a), 1)}
    assert letters(saving) == block
    for depth, seed in ((2, None), (2, 1), (4, 2)):
        r = AlphaBeta(G, heuristic).search(s, depth, seed=seed)
        assert G.action_to_string(r.action) == block
