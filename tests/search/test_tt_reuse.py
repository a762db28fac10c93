"""A transposition table's memory outlives its searcher; what it stored does not (the epoch)."""

import gc
import importlib

import numpy as np

from zerosum.games import make_game
from zerosum.search import AlphaBeta
from zerosum.testing import random_positions

ab_module = importlib.import_module("zerosum.search.alphabeta")  # the package re-exports a function of that name
PENTAGO = make_game("pentago")


def _run(searcher, positions):
    return [(r.value, r.action, r.stats.nodes, r.stats.tt_hits)
            for r in (searcher.search(s, 2, seed=np.random.default_rng(i)) for i, s in enumerate(positions))]


def test_a_reused_table_is_as_empty_as_a_new_one():
    positions = random_positions(PENTAGO, 6, seed=5, max_plies=10)
    ab_module._FREE.clear()
    first = AlphaBeta(PENTAGO, tt_size=1 << 12)
    expected = _run(first, positions)  # on a new table
    table = first._table
    del first
    gc.collect()
    assert any(free[-1] is table for free in ab_module._FREE.values())  # given back when its searcher is gone
    second = AlphaBeta(PENTAGO, tt_size=1 << 12)
    assert second._table is table and second._epoch > 1
    assert _run(second, positions) == expected  # same values, moves, nodes and hits: nothing read from before


def test_clear_starts_an_epoch_without_zeroing():
    positions = random_positions(PENTAGO, 4, seed=9, max_plies=8)
    searcher = AlphaBeta(PENTAGO, tt_size=1 << 12)
    expected = _run(searcher, positions)
    warm = _run(searcher, positions)  # the table now answers: fewer nodes, same values
    assert [w[0] for w in warm] == [e[0] for e in expected]
    assert sum(w[2] for w in warm) < sum(e[2] for e in expected)
    searcher.clear()
    assert searcher._table["tt"].any()  # the memory is kept ...
    assert _run(searcher, positions) == expected  # ... and ignored


def test_a_reused_record_grows_for_a_searcher_that_follows_more_quiescence_plies():
    morris = make_game("nine_mens_morris")
    ab_module._FREE.clear()
    first = AlphaBeta(morris, tt_size=1 << 10, quiescence_plies=1)
    first.search(morris.initial_state(), 3)
    table = first._table
    del first
    gc.collect()
    second = AlphaBeta(morris, tt_size=1 << 10, quiescence_plies=32)
    assert second._table is table
    second.search(morris.initial_state(), 3)
    assert second.arrays is not None and second.arrays.stack.shape[0] >= 3 + 32 + 1  # a row per ply from the root


def test_a_shallow_search_uses_the_first_entries_of_its_table():
    # To a depth alone a search uses 4 * max_moves ** (depth - 1) entries (a power of two, at
    # least 1,024): a depth-2 Pentago search stays in 2,048 of the 262,144 entries (cache),
    # one under a time or node budget or deep enough uses them all.
    ab_module._FREE.clear()
    searcher = AlphaBeta(PENTAGO)
    s = random_positions(PENTAGO, 1, seed=2, min_plies=4, max_plies=4)[0]
    r = searcher.search(s, 2, seed=1)
    used = np.flatnonzero(searcher._table["tt"][:, 0])
    assert r.stats.tt_probes > 200 and 0 < used.max() < 2048
    assert AlphaBeta(PENTAGO).search(s, 2, seed=1, time=5.0).value == r.value  # whole table: same value
    ttt = make_game("tictactoe")
    assert searcher._tt_slots(None) == searcher._tt_slots(3) == 1 << 18
    assert AlphaBeta(ttt)._tt_slots(1) == 1 << 10 and AlphaBeta(ttt)._tt_slots(9) == 1 << 18
