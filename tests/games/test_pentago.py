"""Pentago: scripted games, perft, OpenSpiel cross-check, a readable reference, names,
heuristics, the env page, and the search on wins, forced wins and blocks."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from tests.games.pentago_cases import SCRIPTED_GAMES, WIN_IN_ONE
from tests.playouts import check_random_playouts, perft
from zerosum.testing import compare_with_openspiel
from zerosum.testing import random_positions as shared_random_positions
from zerosum import search
from zerosum.games import GameOverError, IllegalActionError, Outcome, VariantError, make_game
from zerosum.games.pentago import Pentago, cell_name
from zerosum.games.pentago.rules import apply as _apply
from zerosum.games.pentago.rules import distinct as _distinct_kernel
from zerosum.games.pentago.rules import legal as _legal
from zerosum.games.pentago.tables import CELLS, NUM_ACTIONS
from zerosum.search import WIN

VARIANTS = [True, False]
VIDS = ["win_before_rotation", "openspiel_rule"]
ORIGINS = [(0, 0), (0, 3), (3, 3), (3, 0)]  # quadrants 0 TL, 1 TR, 2 BR, 3 BL


# ---- a readable reference of the rules (lists of rows, no bit tricks) --------------------
def ref_lines() -> list[list[tuple[int, int]]]:
    lines = []
    for r in range(6):
        for c in range(6):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(5)]
                if all(0 <= y < 6 and 0 <= x < 6 for y, x in cells):
                    lines.append(cells)
    return lines


REF_LINES = ref_lines()


def ref_five(board: list[list[int]], p: int) -> bool:
    return any(all(board[y][x] == p for y, x in line) for line in REF_LINES)


def ref_turn(board: list[list[int]], quadrant: int, clockwise: bool) -> list[list[int]]:
    r0, c0 = ORIGINS[quadrant]
    out = [row[:] for row in board]
    for r in range(3):
        for c in range(3):
            r2, c2 = (c, 2 - r) if clockwise else (2 - c, r)
            out[r0 + r2][c0 + c2] = board[r0 + r][c0 + c]
    return out


def ref_step(board, player, action, win_before_rotation):
    """(board, outcome) after ``player`` plays ``action``; board cells are -1, 0 or 1."""
    cell, quadrant, clockwise = action // 8, (action // 2) % 4, action % 2 == 1
    board = [row[:] for row in board]
    assert board[cell // 6][cell % 6] == -1
    board[cell // 6][cell % 6] = player
    if win_before_rotation and ref_five(board, player):
        return board, Outcome(1 + player)
    board = ref_turn(board, quadrant, clockwise)
    w0, w1 = ref_five(board, 0), ref_five(board, 1)
    if w0 and w1:
        return board, Outcome.DRAW
    if w0 or w1:
        return board, Outcome.P0_WINS if w0 else Outcome.P1_WINS
    if all(v != -1 for row in board for v in row):
        return board, Outcome.DRAW
    return board, Outcome.ONGOING


def board_of(state) -> list[list[int]]:
    return [[0 if int(state[0]) >> (6 * r + c) & 1 else 1 if int(state[1]) >> (6 * r + c) & 1 else -1
             for c in range(6)] for r in range(6)]


def rows_of(state) -> list[str]:
    return ["".join(".XO"[v + 1] for v in row) for row in board_of(state)]


# ---- scripted games ---------------------------------------------------------------------
SCRIPTED = [(c, wbr) for c in SCRIPTED_GAMES for wbr in c["variants"]]


@pytest.mark.parametrize(("case", "wbr"), SCRIPTED,
                         ids=[f"{c['name']} [{VIDS[VARIANTS.index(w)]}]" for c, w in SCRIPTED])
def test_scripted_game(case, wbr):
    g = Pentago(win_before_rotation=wbr)
    s = g.initial_state()
    for i, name in enumerate(case["moves"]):
        assert not g.is_terminal(s), f"game over before move {i + 1} ({name})"
        s = g.apply(s, g.string_to_action(name))
    assert rows_of(s) == case["board"], "\n" + g.render(s)
    assert g.outcome(s).name == case["outcome"]
    if case["outcome"] == "ONGOING":
        assert g.current_player(s) == case["to_move"]
    else:
        assert len(g.legal_actions(s)) == 0
        with pytest.raises(GameOverError):
            g.apply(s, 0)
    assert np.array_equal(g.position(case["board"], to_move=int(s[3])), s)


def test_a_winning_placement_makes_its_eight_actions_the_same_move():
    g = Pentago()
    s = g.initial_state()
    for name in SCRIPTED_GAMES[0]["moves"][:-1]:
        s = g.apply(s, g.string_to_action(name))
    cell = g.string_to_action("e1 q0 ccw") // 8
    children = [g.apply(s, 8 * cell + k) for k in range(8)]
    assert all(np.array_equal(children[0], c) for c in children)
    assert all(g.outcome(c) == Outcome.P0_WINS for c in children)
    assert set(range(8 * cell, 8 * cell + 8)) <= set(g.legal_actions(s).tolist())
    assert g.string_to_action("e1", s) == 8 * cell  # a bare cell names the winning placement


def _distinct(g, s):
    out = np.zeros(NUM_ACTIONS, np.int64)
    return out[: _distinct_kernel(g.params, s, out)].tolist()


def _children(g, s, actions):
    return {g.apply(s, a).tobytes() for a in actions}


@pytest.mark.parametrize("wbr", VARIANTS, ids=VIDS)
def test_distinct_moves_reach_every_child(wbr):
    g = Pentago(win_before_rotation=wbr)
    s = g.initial_state()
    assert _distinct(g, s) == [8 * c for c in range(36)]  # on the empty board every turn is no turn
    s = g.position(["X.....", "......", "......", "......", "......", "......"], to_move=1)
    # quadrants 1-3 empty: their six turns give one board, the first (q1 anticlockwise) stands for them
    assert _distinct(g, s) == [8 * c + t for c in range(36) if c != 0 for t in (0, 1, 2)]
    for s in shared_random_positions(g, 40, seed=5, max_plies=30):
        moves = _distinct(g, s)
        legal = g.legal_actions(s).tolist()
        assert set(moves) <= set(legal) and moves == sorted(moves)
        assert _children(g, s, moves) == _children(g, s, legal)  # every child (rarely one twice)


def test_distinct_moves_keep_every_move_when_a_placement_wins_before_the_turn():
    # X wins by placing at e1: then a turn that looks the same as another no longer gives
    # the same children (e1's eight actions all give the won board), so every move stays
    g = Pentago()
    s = g.position(["XXXX..", "......", "......", "OOO...", "......", "O....."], to_move=0)
    assert _distinct(g, s) == g.legal_actions(s).tolist()
    assert _distinct(Pentago(win_before_rotation=False), s) != g.legal_actions(s).tolist()


# ---- perft ----------------------------------------------------------------------------------
@pytest.mark.parametrize("wbr", VARIANTS, ids=VIDS)
def test_perft(wbr):
    g = Pentago(win_before_rotation=wbr)
    s = g.initial_state()
    assert perft(g, s, 1) == 288
    assert perft(g, s, 2) == 80_640


# ---- against the readable reference and OpenSpiel ------------------------------------------
@pytest.mark.parametrize("wbr", VARIANTS, ids=VIDS)
def test_kernels_match_the_readable_reference(wbr):
    g = Pentago(win_before_rotation=wbr)
    rng = np.random.default_rng(7)
    seen = set()
    for _ in range(120):
        s = g.initial_state()
        board, outcome = board_of(s), Outcome.ONGOING
        while not g.is_terminal(s):
            legal = g.legal_actions(s)
            empty = [6 * r + c for r in range(6) for c in range(6) if board[r][c] == -1]
            assert legal.tolist() == [8 * c + k for c in empty for k in range(8)]
            a = int(rng.choice(legal))
            board, outcome = ref_step(board, g.current_player(s), a, wbr)
            s = g.apply(s, a)
            assert board_of(s) == board
            assert g.outcome(s) == outcome
        seen.add(outcome)
    assert seen == {Outcome.P0_WINS, Outcome.P1_WINS, Outcome.DRAW}


def test_openspiel_cross_check():
    """Identical legal actions, boards, terminal status and winner in 250 seeded games."""
    pyspiel = pytest.importorskip("pyspiel")
    g = Pentago(win_before_rotation=False)

    def same_board(s, o):
        planes = np.array(o.observation_tensor(0)).reshape(3, CELLS)
        assert int(s[0]) == sum(1 << c for c in np.flatnonzero(planes[0]))
        assert int(s[1]) == sum(1 << c for c in np.flatnonzero(planes[1]))

    def same_name(s, o, a):
        assert g.string_to_action(o.action_to_string(o.current_player(), a)) == a

    report = compare_with_openspiel(g, pyspiel.load_game("pentago"), 250, 12345, same_board, check_action=same_name)
    assert set(report.outcomes) == {Outcome.P0_WINS, Outcome.P1_WINS, Outcome.DRAW}


@pytest.mark.parametrize("wbr", VARIANTS, ids=VIDS)
def test_random_playout_invariants(wbr):
    lengths = check_random_playouts(Pentago(win_before_rotation=wbr), games=25, seed=3)
    assert max(lengths) <= 36


@pytest.mark.parametrize("wbr", VARIANTS, ids=VIDS)
def test_compiled_random_playouts(wbr):
    g = Pentago(win_before_rotation=wbr)
    r = g.random_playouts(g.initial_state(), 500, seed=1)
    assert r["p0_wins"] + r["p1_wins"] + r["draws"] == 500
    assert 9 * 500 <= r["moves"] <= 36 * 500
    assert r == g.random_playouts(g.initial_state(), 500, seed=1)
    s = g.initial_state()
    for name in ("a1 q2 cw", "f6 q0 cw", "b2 q3 ccw", "e5 q0 ccw"):
        s = g.apply(s, g.string_to_action(name))
    r = g.random_playouts(s, 10, seed=2)
    assert r["p0_wins"] + r["p1_wins"] + r["draws"] == 10 and 5 * 10 <= r["moves"] <= 32 * 10
    won = g.position(["XXXXX.", "......", "......", "OOOO..", "......", "......"])
    assert g.random_playouts(won, 10, seed=2) == {"moves": 0, "p0_wins": 10, "p1_wins": 0, "draws": 0}


# ---- keys, observation, errors, names, rendering --------------------------------------------
def test_keys_are_exact_and_ignore_move_order():
    g = Pentago()
    rng = np.random.default_rng(5)
    keys = {}
    for _ in range(40):
        s = g.initial_state()
        while not g.is_terminal(s):
            k = g.state_key(s)
            b = (int(s[0]), int(s[1]))
            assert keys.setdefault(k, b) == b, "two different boards share a key"
            s = g.apply(s, int(rng.choice(g.legal_actions(s))))
    # a transposition: the same stones in another order (turning an empty quadrant)
    a = g.initial_state()
    b = g.initial_state()
    for m in ["a1 q2 cw", "f6 q1 cw", "b1 q2 cw"]:
        a = g.apply(a, g.string_to_action(m))
    for m in ["b1 q2 cw", "f6 q1 cw", "a1 q2 cw"]:
        b = g.apply(b, g.string_to_action(m))
    assert np.array_equal(a, b) and g.state_key(a) == g.state_key(b)


def test_observation_planes():
    g = Pentago()
    s = g.position(["X.....", "......", "......", "......", "......", ".....O"])
    for player in (0, 1):
        obs = g.observation(s, player)
        assert obs.shape == (6, 6, 3) and obs.dtype == np.int8
        own, opp = (0, 0), (5, 5)
        if player == 1:
            own, opp = opp, own
        assert obs[own][0] == 1 and obs[opp][1] == 1 and obs[..., :2].sum() == 2
        assert (obs[..., 2] == (1 if player == 0 else 0)).all()


def test_illegal_actions_and_variants():
    g = Pentago()
    s = g.apply(g.initial_state(), 0)  # a1, then q0 anticlockwise: the stone goes to a3 (cell 12)
    assert g.render(s).splitlines()[3].startswith(" 3  X")
    for bad in (96, 103, -1, 288, 1.5, "3", True):
        with pytest.raises(IllegalActionError):
            g.apply(s, bad)
    with pytest.raises(IllegalActionError, match="c4 q2 cw"):
        g.string_to_action("c7 q2 cw")
    with pytest.raises(IllegalActionError, match="wins at once"):
        g.string_to_action("c4", s)
    with pytest.raises(IllegalActionError):
        g.string_to_action("c4")
    with pytest.raises(VariantError, match="win_before_rotation"):
        Pentago(win_before_rotation="yes")
    with pytest.raises(VariantError):
        make_game("pentago", rotations=False)
    assert make_game("pentago", win_before_rotation=False).variant == {"win_before_rotation": False}


def test_action_names_round_trip_and_openspiel_names():
    g = Pentago()
    names = [g.action_to_string(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    assert names[165] == "c4 q2 cw" and names[0] == "a1 q0 ccw" and names[287] == "f6 q3 cw"
    for a, name in enumerate(names):
        assert g.string_to_action(name) == a
        assert g.string_to_action(name.replace(" ", "").upper()) == a
        assert g.string_to_action(str(a)) == a
    assert g.string_to_action("c4 2 clockwise") == 165
    assert g.string_to_action("c4 q2 anticlockwise") == 164 == g.string_to_action("c4 q2 acw")
    assert g.string_to_action("a1s") == 0 and g.string_to_action("b2t") == 57  # OpenSpiel's names
    assert cell_name(20) == "c4"


def test_render_shows_coordinates_quadrants_and_result():
    g = Pentago()
    s = g.apply(g.initial_state(), g.string_to_action("c4 q2 cw"))
    text = g.render(s)
    assert "a b c   d e f" in text and "------+------" in text and "O to move" in text
    assert text.splitlines()[5].startswith(" 4  . . X |")
    won = g.position(["XXXXX.", "......", "......", "OOOO..", "......", "......"])
    assert g.render(won).endswith("X wins")


# ---- heuristics -------------------------------------------------------------------------------
RUN_LINES = ([[(r, c) for c in range(6)] for r in range(6)] + [[(r, c) for r in range(6)] for c in range(6)]
             + [[(i, i + k) for i in range(6) if 0 <= i + k < 6] for k in (-1, 0, 1)]
             + [[(i, s - i) for i in range(6) if 0 <= s - i < 6] for s in (4, 5, 6)])


def ref_runs(board, p):
    best = 0
    for line in RUN_LINES:
        run = 0
        for y, x in line:
            run = run + 1 if board[y][x] == p else 0
            best = max(best, run)
    return [0, 1, 2, 4, 7, 13, 11][best]


def ref_open_lines(board, p):
    total = 0
    for line in REF_LINES:
        vals = [board[y][x] for y, x in line]
        if 1 - p not in vals:
            total += [0, 1, 3, 9, 27, 81][vals.count(p)]
    return total


def ref_centre(board, p):
    w = [[0] * 6 for _ in range(6)]
    for r in range(1, 5):
        for c in range(1, 5):
            w[r][c] = 3 if (r, c) in ((1, 1), (1, 4), (4, 1), (4, 4)) else 1
    return sum(w[r][c] for r in range(6) for c in range(6) if board[r][c] == p)


def random_positions(count, seed, wbr=True, min_moves=0, max_moves=30):
    """Unfinished positions after min_moves..max_moves random moves (zerosum.testing's helper)."""
    return shared_random_positions(Pentago(win_before_rotation=wbr), count, seed, min_plies=min_moves,
                                   max_plies=max_moves)


def test_heuristics_match_readable_references():
    g = Pentago()
    assert set(g.heuristics) == {"threats", "open_lines", "runs", "centre"} and g.default_heuristic == "threats"
    refs = {"runs": ref_runs, "open_lines": ref_open_lines, "centre": ref_centre}
    for s in random_positions(150, seed=11):
        board = board_of(s)
        for name, ref in refs.items():
            fn = g.heuristic(name).fn
            for p in (0, 1):
                v = fn(g.params, s, p)
                assert v == ref(board, p) - ref(board, 1 - p), (name, p, rows_of(s))
                assert abs(v) <= 10_000
            if name == "runs":
                assert -13 <= v <= 13
        assert all(g.heuristic(n).compiled for n in refs)


def test_run_heuristic_mapping():
    g = Pentago()
    h = g.heuristic("runs").fn
    cases = {  # longest X run -> mapped value (O has nothing)
        1: ["X.....", "......", "......", "......", "......", "......"],
        3: ["......", "XXX...", "......", "......", "......", "......"],
        4: [".X....", "..X...", "...X..", "....X.", "......", "......"],  # near-main diagonal b1-e4
        6: ["X.....", "X.....", "X.....", "X.....", "X.....", "X....."],
    }
    expected = {1: 1, 3: 4, 4: 7, 6: 11}
    for run, rows in cases.items():
        assert h(g.params, g.position(rows, to_move=0), 0) == expected[run]
    # short diagonals do not count: c1-a3 is only three long
    s = g.position(["..X...", ".X....", "X.....", "......", "......", "......"], to_move=0)
    assert h(g.params, s, 0) == 1


def test_order_hint_puts_wins_then_blocks_first():
    g = Pentago()
    s = g.position(["XXXX..", "......", "......", "OOOO..", "......", "......"])
    moves = g.legal_actions(s)
    scores = np.zeros(len(moves))
    g.kernels.order(g.params, s, moves, len(moves), scores)
    top = {int(moves[i]) >> 3 for i in np.flatnonzero(scores == scores.max())}
    assert top == {4}  # e1 wins
    second = {int(moves[i]) >> 3 for i in np.flatnonzero(scores == np.unique(scores)[-2])}
    assert second == {22}  # e4 blocks


# ---- the env's documentation page --------------------------------------------------------------
def test_env_docstring_matches_spaces_and_renders_quadrants():
    from zerosum.envs import pentago_v0

    env = pentago_v0.env(render_mode="rgb_array")
    doc = pentago_v0.__doc__
    n = env.action_space("player_0").n
    shape = env.observation_space("player_0")["observation"].shape
    assert f"Discrete({n})" in doc and str(shape) in doc and n == 288 and shape == (6, 6, 3)
    env.reset(seed=0)
    env.step(165)
    img = env.render()
    assert img.shape == (384, 384, 3) and img.dtype == np.uint8
    # quadrants 0 and 2 are shaded, 1 and 3 are not
    assert tuple(img[55, 55]) != tuple(img[55, 275]) and tuple(img[55, 55]) == tuple(img[275, 275])
    raw = pentago_v0.raw_env(win_before_rotation=False)
    assert raw.unwrapped.game.variant["win_before_rotation"] is False


# ---- search ---------------------------------------------------------------------------------
@njit(cache=False)
def _wins_now(params, s, moves, child):
    """Actions of the mover that win at once (count written first in moves' tail)."""
    me = s[3]
    n = _legal(params, s, moves)
    k = 0
    for i in range(n):
        _apply(params, s, moves[i], child)
        if child[2] == 1 + me:
            k += 1
    return k


@njit(cache=False)
def _forced_win_in_two(params, s):
    """Is there a move after which every reply leaves the mover a win at once?"""
    m1 = np.empty(288, np.int64)
    m2 = np.empty(288, np.int64)
    m3 = np.empty(288, np.int64)
    c1 = np.empty(4, np.int64)
    c2 = np.empty(4, np.int64)
    c3 = np.empty(4, np.int64)
    me = s[3]
    n1 = _legal(params, s, m1)
    for i in range(n1):
        _apply(params, s, m1[i], c1)
        if c1[2] != 0:
            continue
        good = True
        n2 = _legal(params, c1, m2)
        for j in range(n2):
            _apply(params, c1, m2[j], c2)
            if c2[2] == 1 + me:  # the reply gives the mover five
                continue
            if c2[2] != 0 or _wins_now(params, c2, m3, c3) == 0:
                good = False
                break
        if good:
            return True
    return False


def wins_now(g, s) -> int:
    return int(_wins_now(g.params, s, np.empty(288, np.int64), np.empty(4, np.int64)))


@pytest.mark.parametrize("wbr", VARIANTS, ids=VIDS)
def test_search_finds_every_win_in_one(wbr):
    g = Pentago(win_before_rotation=wbr)
    positions = [g.position(c["board"], c.get("to_move")) for c in WIN_IN_ONE if wbr in c["variants"]]
    positions += [s for s in random_positions(150, seed=21, wbr=wbr, min_moves=12) if wins_now(g, s)]
    assert len(positions) >= 20
    for s in positions:
        assert wins_now(g, s) > 0
        for depth in (1, 2, 3):
            r = search.alphabeta(g, s, depth)
            assert r.value == WIN - 1, (depth, rows_of(s))
            assert g.outcome(g.apply(s, r.action)).winner == g.current_player(s)


@pytest.mark.parametrize("wbr", VARIANTS, ids=VIDS)
def test_search_finds_every_forced_win_in_two(wbr):
    g = Pentago(win_before_rotation=wbr)
    found = 0
    for s in random_positions(80, seed=31 + wbr, wbr=wbr, min_moves=14, max_moves=26):
        if wins_now(g, s) or not _forced_win_in_two(g.params, s):
            continue
        found += 1
        r = search.alphabeta(g, s, 3)
        assert r.value >= WIN - 3, rows_of(s)
        child = g.apply(s, r.action)
        for b in g.legal_actions(child):  # every reply loses at once or leaves a win at once
            after = g.apply(child, int(b))
            assert g.outcome(after).winner == g.current_player(s) or wins_now(g, after) > 0
    assert found >= 3


@pytest.mark.parametrize("wbr", VARIANTS, ids=VIDS)
def test_search_never_misses_a_block(wbr):
    g = Pentago(win_before_rotation=wbr)
    checked = 0
    for s in random_positions(150, seed=41 + wbr, wbr=wbr, min_moves=10, max_moves=26):
        if wins_now(g, s):
            continue
        # the opponent's threats: would they win at once if it were their move?
        passed = s.copy()
        passed[3] = 1 - s[3]
        if not wins_now(g, passed):
            continue
        safe = [int(a) for a in g.legal_actions(s)  # a draw at once, or no win left to the opponent
                if (o := g.outcome(c := g.apply(s, int(a)))) == Outcome.DRAW
                or (o == Outcome.ONGOING and not wins_now(g, c))]
        r = search.alphabeta(g, s, 2)
        checked += 1
        if safe:
            assert r.action in safe, rows_of(s)
            assert r.value > -WIN + 100
        else:
            assert r.value <= -(WIN - 2)
    assert checked >= 10


@pytest.mark.parametrize("wbr", VARIANTS, ids=VIDS)
def test_alphabeta_equals_minimax(wbr):
    g = Pentago(win_before_rotation=wbr)
    for i, s in enumerate(random_positions(6, seed=51 + wbr, wbr=wbr, min_moves=4, max_moves=24)):
        for depth in (1, 2):
            for h in ("open_lines", "runs"):
                mm = search.minimax(g, s, depth, h)
                ab = search.alphabeta(g, s, depth, h, quiescence=False)  # exact: selective parts off
                assert ab.value == mm.value, (i, depth, h)
                plain = search.alphabeta(g, s, depth, h, tt=False, ordering=False, quiescence=False)
                assert plain.value == mm.value
