"""Nine Men's Morris's ``petcu`` heuristic (Petcu & Holban 2008): its value against a
readable reference (lists of mills and neighbours, no bit tricks), hand-built positions
for each configuration the paper names, and the conformance kit under the variants."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.games import make_game
from zerosum.games.nine_mens_morris.knowledge import PETCU_FEATURES, PETCU_WEIGHTS
from zerosum.games.nine_mens_morris.tables import MILL_POINTS, POINT_INDEX
from zerosum.testing import check_heuristic, random_positions

MILLS = [[POINT_INDEX[n] for n in m] for m in MILL_POINTS]
NEIGHBOURS = {p: sorted({m[i + d] for m in MILLS for i in range(3) if m[i] == p for d in (-1, 1) if 0 <= i + d < 3})
              for p in range(24)}


def ref_side(own, opp):
    """(mills, two-men, three-men, double mills) of the points in own against opp."""
    closed = [m for m in MILLS if all(p in own for p in m)]
    twos = [m for m in MILLS if sum(p in own for p in m) == 2 and not any(p in opp for p in m)]
    three = sum(1 for p in own if sum(p in m for m in twos) == 2)
    double = sum(1 for p in own if sum(p in m for m in closed) == 2)
    return len(closed), len(twos), three, double


def ref_blocked(own, opp):
    return sum(1 for p in own if all(q in own or q in opp for q in NEIGHBOURS[p]))


def ref_petcu(game, s, player, w=PETCU_WEIGHTS):
    """The paper's three evaluation functions, written out from the state's slots."""
    men = [{p for p in range(24) if (int(s[k]) >> p) & 1} for k in (0, 1)]
    hand = [int(s[4]), int(s[5])]
    to_move, removal = int(s[2]), bool(s[3])
    me, op = player, 1 - player
    flying = game.variant["flying"]

    def phase(k):
        return "placing" if hand[k] else "flying" if flying and len(men[k]) <= 3 else "moving"

    material = len(men[me]) + hand[me] - len(men[op]) - hand[op]
    closed = 0
    if removal:
        closed = 1 if to_move == me else -1
        material += closed
    a, b = ref_side(men[me], men[op]), ref_side(men[op], men[me])
    blocked = ref_blocked(men[op], men[me]) - ref_blocked(men[me], men[op])

    def won(k):
        j = 1 - k
        if removal and to_move == k and len(men[j]) + hand[j] <= 3:
            return 1
        return int(phase(j) == "moving" and ref_blocked(men[j], men[k]) == len(men[j]))

    phases = {phase(me), phase(op)}
    if "placing" in phases:
        v = (w[0] * closed + w[1] * (a[0] - b[0]) + w[2] * blocked + w[3] * material + w[4] * (a[1] - b[1])
             + w[5] * (a[2] - b[2]))
    elif "flying" in phases:
        v = w[12] * closed + w[13] * (a[1] - b[1]) + w[14] * (a[2] - b[2]) + w[15] * (won(me) - won(op))
    else:
        v = (w[6] * closed + w[7] * (a[0] - b[0]) + w[8] * blocked + w[9] * material + w[10] * (a[3] - b[3])
             + w[11] * (won(me) - won(op)))
    return v


@pytest.mark.parametrize("variant", [{}, {"flying": False}, {"protect_mills": False, "no_return": True}])
def test_petcu_matches_the_readable_reference(variant):
    g = make_game("nine_mens_morris", **variant)
    h = g.heuristic("petcu").fn
    phases = set()
    for s in random_positions(g, 150, 3, max_plies=120):
        for p in (0, 1):
            assert h(g.params, s, p) == pytest.approx(ref_petcu(g, s, p), abs=1e-9), (g.render(s), p)
        phases.add((int(s[4]) + int(s[5]) > 0, min(int(s[0]).bit_count(), int(s[1]).bit_count()) <= 3))
    assert len(phases) >= 2  # placing and later phases were both seen


def value(g, player=0, **position):
    return g.heuristic("petcu").fn(g.params, g.position(**position), player)


def test_each_configuration_counts_in_its_phase():
    g = make_game("nine_mens_morris")
    w = dict(zip(PETCU_FEATURES, PETCU_WEIGHTS))
    base = {"o": ["c3", "d2", "f2", "g1"], "in_hand": (4, 5)}  # placing: X has placed 5, O 4
    # two-men: a7 d7 with g7 empty, against the same men with no two on a line
    two = value(g, x=["a7", "d7", "e3", "f4", "c4"], **base)
    apart = value(g, x=["a7", "b4", "e3", "f4", "c5"], **base)
    assert two - apart == pytest.approx(w["placing: two-men"])
    # three-men: a7-d7 and d7-d6 share d7 (a double threat), against two twos apart
    three = value(g, x=["a7", "d7", "d6", "e3", "c5"], **base)
    twice = value(g, x=["a7", "d7", "b6", "b4", "e3"], **base)
    assert three - twice == pytest.approx(w["placing: three-men"])
    # a closed mill counts in mills; the removal it earns counts as closed mill and as a man
    mill = value(g, x=["a7", "d7", "g7", "e3", "f4"], **base)
    due = value(g, x=["a7", "d7", "g7", "e3", "f4"], removal_due=True, **base)
    assert mill - two == pytest.approx(w["placing: mills"] - w["placing: two-men"])
    assert due - mill == pytest.approx(w["placing: closed mill"] + w["placing: men"])


def test_moving_phase_double_mill_blocked_men_and_a_won_position():
    g = make_game("nine_mens_morris")
    w = dict(zip(PETCU_FEATURES, PETCU_WEIGHTS))
    o = ["b4", "c4", "e4", "f4", "d2"]
    # a7 d7 g7 and a7 a4 a1: two mills sharing a7, a double mill; a7 and a4 are shut in by
    # their own men (one more blocked own man than with d1 instead of a1)
    double = value(g, x=["a7", "d7", "g7", "a4", "a1"], o=o)
    single = value(g, x=["a7", "d7", "g7", "a4", "d1"], o=o)
    assert double - single == pytest.approx(w["moving: mills"] + w["moving: double mills"] - w["moving: blocked men"])
    # O's man on a1 is shut in by X on a4 and d1: one blocked opponent man
    shut = value(g, x=["a4", "d1", "g7", "d6", "f6"], o=["a1", "c4", "e4", "f4", "d2"])
    free = value(g, x=["a7", "d1", "g7", "d6", "f6"], o=["a1", "c4", "e4", "f4", "d2"])
    assert shut - free == pytest.approx(w["moving: blocked men"])
    # a removal due that leaves O two men: all but won (O flies, so the flying function)
    won = {"x": ["a7", "d7", "g7", "a4"], "o": ["b4", "c4", "e4"], "removal_due": True}
    assert value(g, 0, **won) == pytest.approx(w["flying: closed mill"] + w["flying: two-men"] + w["flying: win"])
    assert value(g, 1, **won) == -value(g, 0, **won)


def test_flying_phase_has_no_men_term():
    g = make_game("nine_mens_morris")
    # X has 6 men, O flies with 3, no two-men or mills on either side: the paper's phase-3
    # function has no men term, so 3 men up is worth nothing here
    assert value(g, x=["a7", "b4", "c3", "e5", "f2", "g4"], o=["a1", "d3", "g7"]) == 0.0


@pytest.mark.parametrize("variant", [{}, {"flying": False}, {"protect_mills": False}])
def test_petcu_passes_the_conformance_kit(variant):
    check_heuristic(make_game("nine_mens_morris", **variant), "petcu", positions=30, search_positions=2)


def test_weights_are_one_per_feature_and_positive():
    assert len(PETCU_WEIGHTS) == len(PETCU_FEATURES) == 16 and np.all(PETCU_WEIGHTS > 0)
