"""Pentago's ``threats`` heuristic: its features against a readable reference (rows of
cells, the reference quadrant turn), hand-built positions where a turn makes or breaks a
line, and the conformance kit under both rule variants."""

from __future__ import annotations

import numpy as np
import pytest

from tests.games.test_pentago import REF_LINES, board_of, ref_turn
from zerosum.games import make_game
from zerosum.games.pentago.knowledge import THREAT_FEATURES, THREAT_WEIGHTS, threat_features
from zerosum.testing import check_heuristic, random_positions

CENTRES = [(1, 1), (1, 4), (4, 1), (4, 4)]


def ref_side(board, p):
    """Player p's open-line counts, fours a turn makes, unbreakable threes, the lines some turn
    leaves open fours (an open four now among them), centres."""
    def lines(b):
        return [([b[y][x] for y, x in line].count(p), 1 - p not in [b[y][x] for y, x in line]) for line in REF_LINES]

    now = lines(board)
    counts = [sum(1 for n, free in now if free and n == k) for k in range(1, 5)]
    four_now = {i for i, (n, free) in enumerate(now) if free and n >= 4}
    keep = {i for i, (n, free) in enumerate(now) if free and n >= 3}
    made = set()
    turned = 0
    for q in range(4):
        for clockwise in (False, True):
            after = lines(ref_turn(board, q, clockwise))
            fours = {i for i, (n, free) in enumerate(after) if free and n >= 4}
            turned += len(fours - four_now)
            made |= fours
            keep &= {i for i, (n, free) in enumerate(after) if free and n >= 3}
    return counts, turned, len(keep), made, sum(board[y][x] == p for y, x in CENTRES)


def ref_features(state):
    x = int(state[3])
    board = board_of(state)
    a, b = ref_side(board, x), ref_side(board, 1 - x)
    win = int(bool(a[3]))
    lost = int(not win and len(b[3]) >= 2)
    return (*tuple(a[0][k] - b[0][k] for k in range(4)), a[1] - b[1], a[2] - b[2], a[4] - b[4], win, lost)


@pytest.mark.parametrize("wbr", [True, False])
def test_features_match_the_readable_reference(wbr):
    g = make_game("pentago", win_before_rotation=wbr)
    seen = np.zeros(len(THREAT_FEATURES))
    for s in random_positions(g, 120, 5, max_plies=30):
        got = tuple(int(v) for v in threat_features(g.params, s))
        assert got == ref_features(s), g.render(s)
        seen += np.array(got) != 0
    assert np.all(seen > 0), dict(zip(THREAT_FEATURES, seen))  # every feature was exercised


def features(g, rows, to_move):
    """The features of a position, the differences turned to X's side (win_now and
    defence_lost stay the mover's)."""
    f = [int(v) for v in threat_features(g.params, g.position(rows, to_move))]
    sign = 1 if to_move == 0 else -1
    return dict(zip(THREAT_FEATURES, [sign * v for v in f[:-2]] + f[-2:]))


O_FAR = ["......", "......", "......", ".....O", "......", "O....."]  # the same O stones in every case


def test_a_four_one_turn_completes_scores_above_the_same_stones_no_turn_helps():
    g = make_game("pentago")
    h = g.heuristic("threats").fn
    # X on d1 e1 f1 and c3: turning q0 anticlockwise brings c3 to c1 (four on b1-f1, b1 empty)
    turned = ["...XXX", "......", "..X...", *O_FAR[3:]]
    # the same count with the fourth stone on b2, q0's centre, which no turn moves
    fixed = ["...XXX", ".X....", "......", *O_FAR[3:]]
    for to_move in (0, 1):
        f_turned, f_fixed = features(g, turned, to_move), features(g, fixed, to_move)
        assert f_turned["turned_fours"] >= 1 and f_fixed["turned_fours"] == 0
        assert f_turned["win_now"] == (to_move == 0) and f_fixed["win_now"] == 0
        v_turned = h(g.params, g.position(turned, to_move), 0)
        v_fixed = h(g.params, g.position(fixed, to_move), 0)
        assert v_turned > v_fixed, (to_move, v_turned, v_fixed)
    # the win is real: X to move places c2 and turns q0 anticlockwise (c2 -> b1, c3 -> c1)
    s = g.apply(g.position(turned, 0), g.string_to_action("c2 q0 ccw"))
    assert g.returns(s) == (1.0, -1.0)


def test_a_three_no_turn_breaks_counts_and_one_a_turn_breaks_does_not():
    g = make_game("pentago")
    # a plus on q0 (b1 a2 b2 c2 b3) is the same after any turn of q0: its row a2-e2 and column
    # b1-b5 keep three stones whatever quadrant turns (q1 and q3 are empty)
    plus = [".X....", "XXX...", ".X....", *O_FAR[3:]]
    # a row of three on q0 alone: a turn of q0 moves a2 and c2 off the row
    row = ["......", "XXX...", "......", *O_FAR[3:]]
    assert features(g, plus, 1)["unbreakable"] >= 2
    assert features(g, row, 1)["unbreakable"] == 0
    assert features(g, row, 1)["open3"] >= 1  # it is an open three all the same


def test_the_side_to_move_wins_now_and_two_threats_lose_the_defence():
    g = make_game("pentago")
    four = ["XXXX..", "......", "......", *O_FAR[3:]]
    f = features(g, four, 0)
    assert f["win_now"] == 1 and f["open4"] == 1 and f["defence_lost"] == 0
    f = features(g, four, 1)  # O to move: one X four, so the defence is not lost yet
    assert f["win_now"] == 0 and f["open4"] == 1 and f["defence_lost"] == 0
    two = ["XXXX..", "......", "......", "XXXX.O", "......", "O....."]
    f = features(g, two, 1)
    assert f["win_now"] == 0 and f["defence_lost"] == 1
    h = g.heuristic("threats").fn
    assert h(g.params, g.position(two, 1), 0) > h(g.params, g.position(four, 1), 0) > 0


@pytest.mark.parametrize("wbr", [True, False])
def test_threats_passes_the_conformance_kit(wbr):
    check_heuristic(make_game("pentago", win_before_rotation=wbr), "threats", positions=30, search_positions=2)


def test_weights_are_one_per_feature_and_positive():
    assert len(THREAT_WEIGHTS) == len(THREAT_FEATURES) and np.all(THREAT_WEIGHTS > 0)
