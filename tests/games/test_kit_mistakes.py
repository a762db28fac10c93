"""A user's usual mistakes with the kit end in an error that says what to do: a plain
function called from a kernel (it needs @helper), a game whose module was not imported,
an untested numba."""

from __future__ import annotations

import warnings

import numba
import pytest

from zerosum.games import UnknownGameError, VariantError, make_game
from zerosum.games.kit import LEGAL, KernelError, kernel, numba_version
from zerosum.games.registry import resolve_game_name
from zerosum.values import variant_game


def count_free(s):  # type: ignore[no-untyped-def]  # a plain function: what a kernel cannot call
    return 3


def test_a_kernel_calling_a_plain_function_says_helper():
    with pytest.raises(KernelError, match=r"calls count_free\(\), a plain Python function.*decorate count_free "
                                          r"with @helper.*Untyped global name 'count_free'"):
        @kernel(LEGAL)
        def legal(params, s, out):  # type: ignore[no-untyped-def]
            return count_free(s)


def test_another_typing_error_is_numba_s_own():
    with pytest.raises(numba.core.errors.TypingError):
        @kernel(LEGAL)
        def legal(params, s, out):  # type: ignore[no-untyped-def]
            return out.no_such_attribute


@pytest.mark.parametrize("find", [make_game, resolve_game_name, variant_game])
def test_an_unknown_game_is_its_own_error_and_suggests_import(find):
    with pytest.raises(UnknownGameError, match=r"unknown game .*'hexapawn'.*zerosum --import MODULE") as info:
        find("hexapawn")
    assert isinstance(info.value, ValueError) and not isinstance(info.value, VariantError)


def test_an_untested_numba_gets_one_warning(monkeypatch):
    monkeypatch.setattr(numba_version, "_WARNED", [])
    monkeypatch.setattr(numba, "__version__", "0.71.0")
    with pytest.warns(numba_version.UntestedNumbaWarning, match=r"numba 0.71.0 is not a release .*numba 0.68"):
        numba_version.check_numba()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        numba_version.check_numba()  # once a process


def test_the_tested_range_is_the_pin_and_holds_here():
    import re
    from pathlib import Path

    pin = re.search(r'"(numba[^"]*)"', (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()).group(1)
    (lo0, lo1), (hi0, hi1) = numba_version.TESTED
    assert pin == f"numba>={lo0}.{lo1},<{hi0}.{hi1 + 1}"
    assert numba_version.untested_numba_message(numba.__version__) is None  # the suite runs on a tested numba
    assert numba_version.untested_numba_message("0.67.2") and numba_version.release("0.68.1rc1") == (0, 68)
