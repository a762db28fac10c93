"""The per-game specialised search copies: named by content, never stale, clear errors."""

import numpy as np
import pytest

from zerosum.games import make_game
from zerosum.games.base import Kernels
from zerosum.games.tictactoe import KERNELS
from zerosum.search import compiled


def test_one_copy_per_game_named_by_content(tmp_path, monkeypatch):
    ttt = compiled.for_game(make_game("tictactoe"))
    nim = compiled.for_game(make_game("nim"))
    assert ttt is compiled.for_game(make_game("tictactoe")) and ttt is not nim
    assert "tictactoe" in ttt.__file__ and "nim" in nim.__file__
    assert "from zerosum.games.nim import KERNELS as _RULES" in open(nim.__file__).read()


def test_an_edited_rules_file_gets_a_new_copy(monkeypatch):
    stem, source = compiled.copy_source("zerosum.games.tictactoe", "KERNELS")
    assert compiled.copy_source("zerosum.games.tictactoe", "KERNELS")[0] == stem  # stable
    real = compiled._source_of
    for edited in ("zerosum.games.tictactoe", "zerosum.games.base", "zerosum.search._flags"):
        monkeypatch.setattr(compiled, "_source_of", lambda m, e=edited: real(m) + ("#" if m == e else ""))
        assert compiled.copy_source("zerosum.games.tictactoe", "KERNELS")[0] != stem, edited


def test_kernels_must_be_importable():
    loose = Kernels(**{f: getattr(KERNELS, f) for f in ("legal", "apply", "status", "player", "key", "observe")},
                    order=np.int64)  # not the module's KERNELS object
    with pytest.raises(ValueError, match="module-level Kernels object"):
        compiled.kernels_origin(loose)
