"""docs/new-game.md cannot rot: its code is extracted, built into a package and checked here (the guide
is three pages, GUIDE, read in order as one).

Blocks marked ```python file=PATH are written to PATH under a temporary directory put on
sys.path (the game's package and its tests); plain ```python blocks are run in order in one
namespace, and the printed text must equal the ```text output block that follows, if any;
```python extra=train blocks need the training extra; ```python notest=REASON blocks are shown,
not run (a fragment of another game, a script that runs as ``__main__``).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from zerosum.games import ENVS, GAMES, make_game
from zerosum.testing import check_game, check_heuristic

DOCS = Path(__file__).resolve().parents[1] / "docs"
GUIDE = [DOCS / "new-game.md", DOCS / "new-game-env.md", DOCS / "new-game-beyond.md"]
"""The guide's pages, in reading order."""
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)


@dataclass(frozen=True)
class Block:
    """One fenced block of the guide: its language, its info string options, its text."""

    lang: str
    options: dict[str, str]
    text: str


def guide_blocks() -> list[Block]:
    """The fenced blocks of the guide, in order."""
    return [Block(m[1], dict(o.split("=", 1) for o in m[2].split() if "=" in o) | {o: "" for o in m[2].split()
                                                                                  if "=" not in o}, m[3])
            for page in GUIDE for m in FENCE.finditer(page.read_text())]


def snippets(extra: str | None) -> list[tuple[str, str | None]]:
    """The runnable python blocks (code, expected output or None) of one kind."""
    blocks = guide_blocks()
    out = []
    for i, b in enumerate(blocks):
        if b.lang == "python" and "file" not in b.options and "notest" not in b.options \
                and b.options.get("extra") == extra:
            after = blocks[i + 1] if i + 1 < len(blocks) else None
            expected = after.text if after is not None and after.lang == "text" and "output" in after.options else None
            out.append((b.text, expected))
    return out


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    """The guide's files written under a temporary directory on sys.path; the game and its env
    are unregistered and its modules forgotten afterwards."""
    root = tmp_path_factory.mktemp("guide")
    for b in guide_blocks():
        if "file" in b.options:
            path = root / b.options["file"]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(b.text)
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    try:
        yield root
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m.split(".")[0] in ("hexapawn", "test_hexapawn")]:
            del sys.modules[name]
        GAMES.pop("hexapawn", None)
        ENVS.pop("hexapawn_v0", None)
        with contextlib.suppress(ImportError):
            import pettingzoo

            pettingzoo.aec_registry.pop("zerosum/hexapawn-v0", None)


def test_the_guide_holds_a_whole_package():
    files = {b.options["file"] for b in guide_blocks() if "file" in b.options}
    assert files == {"hexapawn/__init__.py", "hexapawn/rules.py", "hexapawn/knowledge.py",
                     "hexapawn/hexapawn_v0.py", "test_hexapawn.py"}
    assert len(snippets(None)) >= 6 and len(snippets("train")) == 1
    shown = [b for b in guide_blocks() if "notest" in b.options]
    assert len(shown) == 2 and all(b.options["notest"] for b in shown)  # each says why it is not run


def test_the_game_passes_the_conformance_kit(package):
    importlib.import_module("hexapawn")
    for variant in ({}, {"rows": 5, "columns": 4}):
        game = make_game("hexapawn", **variant)
        report = check_game(game, games=10, seed=3, search_positions=4, env_cycles=40)
        assert report.outcomes["p0_wins"] + report.outcomes["p1_wins"] == 10  # Hexapawn has no draws
        for name in game.heuristics:
            assert check_heuristic(game, name, positions=20).compared


def test_the_guides_own_tests_pass(package):
    tests = importlib.import_module("test_hexapawn")
    ran = 0
    for name, fn in vars(tests).items():
        if name.startswith("test_") and callable(fn):
            marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "parametrize"]
            cases = marks[0].args[1] if marks else [None]
            for case in cases:
                fn(case) if marks else fn()
                ran += 1
    assert ran >= 7


def _run(code: str, namespace: dict) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(GUIDE[0]), "exec"), namespace)  # noqa: S102 - the guide's own code
    return out.getvalue()


def test_the_snippets_run_and_print_what_the_guide_shows(package, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the tournament writes results/ here
    namespace: dict = {}
    for code, expected in snippets(None):
        printed = _run(code, namespace)
        if expected is not None:
            assert printed.strip() == expected.strip(), code
    assert (tmp_path / "results" / "hexapawn" / "report.md").exists()


def test_the_training_snippet_runs(package, tmp_path, monkeypatch):
    pytest.importorskip("sb3_contrib", reason="the training extra: pip install -e '.[train]'")
    monkeypatch.chdir(tmp_path)
    (code, _), = snippets("train")
    printed = _run(code, {})
    assert "runs/hexapawn/model.zip" in printed and (tmp_path / "runs" / "hexapawn" / "model.zip").exists()
