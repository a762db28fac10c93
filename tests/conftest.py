"""The suite runs the searches on the generic tier (zerosum.search.compiled): one compiled
copy of each search for every game, so that the suite's time on a fresh machine does not
grow with the number of games. tests/search/test_tiers.py checks that both tiers give the
same values, moves and node counts. A variable set by the caller wins."""

import os

os.environ.setdefault("ZEROSUM_TIER", "generic")
os.environ.setdefault("ZEROSUM_BACKGROUND_COMPILE", "0")  # no compiles behind the tests' backs
