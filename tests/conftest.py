"""The suite runs the searches on the generic tier (zerosum.search.compiled): one compiled
copy of each search for every game, so that the suite's time on a fresh machine does not
grow with the number of games. tests/search/test_tiers.py checks that both tiers give the
same values, moves and node counts. A variable set by the caller wins.

SB3 makes a folder for its logger whenever a model learns without one of its own (the
vector env's SB3 check and the vector-env tutorial call ``learn`` directly): under pytest it
goes to the session's temporary directory, not to /tmp/SB3-<date>."""

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

os.environ.setdefault("ZEROSUM_TIER", "generic")
os.environ.setdefault("ZEROSUM_BACKGROUND_COMPILE", "0")  # no compiles behind the tests' backs


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_in_the_session_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    if "SB3_LOGDIR" in os.environ:
        yield
        return
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3"))
    try:
        yield
    finally:
        os.environ.pop("SB3_LOGDIR", None)


@pytest.fixture
def record_jobs(monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[int]]:
    """``record_jobs(long, *modules)`` puts a recorder in place of each module's ``tiers.for_job``: it
    notes the games each job asks about (the list returned) and answers as if from ``long`` games a job ran
    on the game's own copy, nothing compiled or switched (the rule itself is tests/search/test_tiers.py's)."""
    def record(long: int, *modules: Any) -> list[int]:
        asked: list[int] = []

        @contextmanager
        def job(games: int) -> Iterator[bool]:
            asked.append(games)
            yield games >= long

        for module in modules:
            monkeypatch.setattr(module, "for_job", job)
        return asked

    return record
