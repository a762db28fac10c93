"""The numba versions zerosum is tested with, and the one warning an untested one gets.

The kit reaches into numba's internals: its disk cache's locators and index
(:mod:`zerosum.games.kit.cache`, :mod:`zerosum.games.kit.toolkit`), compiled functions'
addresses (:mod:`zerosum.games.kit.generic`), structrefs and intrinsics in the searches
(:mod:`zerosum.search._arrays`, :mod:`zerosum.search.functions`). Those change between
numba releases without notice, so pyproject.toml pins numba to the releases the test
suite passed on (:data:`TESTED`), and a numba outside them that is installed anyway
(``pip install --no-deps``, another environment manager) gets one
:class:`UntestedNumbaWarning` when the kit is first imported (this module warns on import,
and ``zerosum.games.kit`` imports it first), naming the version and the
range, rather than a failure deep inside a compile.

A new numba release is admitted by running the whole test suite on it (``make test`` after
``pip install numba==X.Y.*``, on a fresh cache: ``ZEROSUM_CACHE_DIR`` set to an empty
folder) and, where it passes, widening both :data:`TESTED` and the pin in pyproject.toml
in one commit (docs/install.md says the same).
"""

from __future__ import annotations

import warnings

TESTED = ((0, 68), (0, 68))
"""The lowest and the highest numba release (major, minor) the test suite passed on;
pyproject.toml's ``numba>=0.68,<0.69`` says the same."""


class UntestedNumbaWarning(UserWarning):
    """The installed numba is outside the releases zerosum is tested with (:data:`TESTED`)."""


def release(version: str) -> tuple[int, int] | None:
    """``"0.68.1"`` -> ``(0, 68)``; None for a version string that does not start with two numbers."""
    parts = version.split(".")
    try:
        return int(parts[0]), int("".join(c for c in parts[1] if c.isdigit()) or "x")
    except (IndexError, ValueError):
        return None


def untested_numba_message(version: str) -> str | None:
    """What the warning says for numba ``version``; None for a tested release."""
    found = release(version)
    low, high = TESTED
    if found is not None and low <= found <= high:
        return None
    tested = f"{low[0]}.{low[1]}" if low == high else f"{low[0]}.{low[1]} to {high[0]}.{high[1]}"
    return (f"numba {version} is not a release zerosum is tested with (numba {tested}): the kit uses numba's "
            f"internals, which may have changed; if compiling fails, install the tested release "
            f"(pip install 'numba>={low[0]}.{low[1]},<{high[0]}.{high[1] + 1}')")


_WARNED: list[str] = []


def check_numba() -> None:
    """One :class:`UntestedNumbaWarning` a process where the installed numba is untested."""
    import numba

    message = untested_numba_message(str(numba.__version__))
    if message is not None and not _WARNED:
        _WARNED.append(message)
        warnings.warn(message, UntestedNumbaWarning, stacklevel=2)


check_numba()  # on import: zerosum.games.kit imports this module before anything that reaches numba's internals

__all__ = ["TESTED", "UntestedNumbaWarning", "check_numba", "release", "untested_numba_message"]
