"""The suite runs the searches on the generic tier (zerosum.search.compiled): one compiled
copy of each search for every game, so that the suite's time on a fresh machine does not
grow with the number of games. tests/search/test_tiers.py checks that both tiers give the
same values, moves and node counts. A variable set by the caller wins."""

import os

os.environ.setdefault("ZEROSUM_TIER", "generic")
os.environ.setdefault("ZEROSUM_BACKGROUND_COMPILE", "0")  # no compiles behind the tests' backs

# The files that take the longest (tiny training runs in subprocesses, the site's build, process
# and Ray tournaments) go first: `pytest -n 2 --dist loadfile` hands files to the workers in the
# order collected, and a long file handed out last keeps one worker busy while the other idles.
SLOW_FIRST = ("tests/training/", "tests/cli/test_train_cli.py", "tests/docs/", "tests/evaluation/test_tournament.py",
              "tests/agents/test_alphazero.py")


def pytest_collection_modifyitems(items: list) -> None:
    """Order the collected tests so that the files of SLOW_FIRST come first (stable otherwise)."""
    def rank(item: object) -> int:
        path = getattr(item, "nodeid", "")
        return next((i for i, prefix in enumerate(SLOW_FIRST) if path.startswith(prefix)), len(SLOW_FIRST))

    items.sort(key=rank)
