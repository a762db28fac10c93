"""The compiled search parts that have a plain numpy equivalent."""

from __future__ import annotations

import numpy as np

from zerosum.search._parts import _sort_desc


def test_sort_desc_is_numpys_stable_sort_highest_first():
    """Short ranges are sorted by insertion in place, long ones by a bottom-up merge:
    both give the order of a stable sort by score, highest first (ties: generation order)."""
    rng = np.random.default_rng(0)
    for n in (1, 2, 5, 7, 32, 33, 60, 288):
        for _ in range(30):
            mv = rng.permutation(400)[: n + 4].astype(np.int64)
            sc = rng.integers(-3, 4, n + 4).astype(np.float64) * rng.choice([1.0, 0.5], n + 4)
            sc[rng.random(n + 4) < 0.1] = -0.0
            lo, hi = 2, 2 + n
            order = np.argsort(-sc[lo:hi], kind="mergesort")
            want_mv, want_sc = mv.copy(), sc.copy()
            want_mv[lo:hi], want_sc[lo:hi] = mv[lo:hi][order], sc[lo:hi][order]
            _sort_desc(mv, sc, lo, hi)
            assert mv.tolist() == want_mv.tolist() and sc.tolist() == want_sc.tolist()
