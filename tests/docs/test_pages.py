"""The site's pages cannot rot: the code of every tutorial and concept page runs here.

Per page, in order and in one namespace, in a temporary working directory:
- ```python blocks run; a ```text output block right after one must equal what it printed;
- ```python file=PATH blocks are written to PATH under a directory put on sys.path;
- ```sh run blocks run line by line (`zerosum ...` as `python -m zerosum ...`), each must exit 0;
- ```python extra=train / extra=distributed blocks need that extra (skipped without it);
- ```python notest=REASON blocks are shown, not run: only on pages that say why (Tianshou, RLlib).
docs/new-game.md has its own test (tests/test_new_game_guide.py); the game pages and the
API reference are generated from the code and checked by the build (tests/docs/test_site.py).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
PAGES = sorted(p.relative_to(DOCS).as_posix() for p in [*DOCS.glob("tutorials/*.md"), *DOCS.glob("concepts/*.md")])
EXTRAS = {"train": "sb3_contrib", "distributed": "ray"}


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: its language, its info-string options, its text."""

    lang: str
    options: dict[str, str]
    text: str


def blocks(page: str) -> list[Block]:
    """The fenced blocks of a page, in order."""
    out = []
    for m in FENCE.finditer((DOCS / page).read_text()):
        opts = dict(o.split("=", 1) if "=" in o else (o, "") for o in shlex.split(m[2]))
        out.append(Block(m[1], opts, m[3]))
    return out


def _run_python(code: str, namespace: dict, page: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOCS / page), "exec"), namespace)  # noqa: S102 - the page's own code
    return out.getvalue()


def _run_sh(text: str) -> None:
    for line in text.splitlines():
        line = line.split("  #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        argv = shlex.split(line)
        if argv[0] == "zerosum":
            argv = [sys.executable, "-m", "zerosum", *argv[1:]]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"


def test_every_page_is_in_the_site_navigation():
    nav = (DOCS.parent / "mkdocs.yml").read_text()
    for page in PAGES:
        assert page in nav, f"{page} is not in mkdocs.yml's nav"


@pytest.mark.parametrize("page", PAGES)
def test_the_page_runs(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    all_blocks = blocks(page)
    if any("notest" in b.options for b in all_blocks):
        assert "not run by the tests" in (DOCS / page).read_text(), f"{page} must say which code is not tested"
    namespace: dict = {"__name__": "__page__"}
    ran = 0
    for i, b in enumerate(all_blocks):
        if "notest" in b.options:
            continue
        if "extra" in b.options:
            pytest.importorskip(EXTRAS[b.options["extra"]], reason=f"the {b.options['extra']} extra")
        if b.lang == "python" and "file" in b.options:
            path = tmp_path / b.options["file"]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(b.text)
        elif b.lang == "python":
            printed = _run_python(b.text, namespace, page)
            after = all_blocks[i + 1] if i + 1 < len(all_blocks) else None
            if after is not None and after.lang == "text" and "output" in after.options:
                assert printed.strip() == after.text.strip(), f"{page}: the output of\n{b.text}"
            ran += 1
        elif b.lang == "sh" and "run" in b.options:
            _run_sh(b.text)
            ran += 1
    assert ran or page.startswith("concepts/"), f"{page} has no code that runs"


LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s")


@pytest.mark.parametrize("page", [*sorted(p.relative_to(DOCS.parent).as_posix() for p in DOCS.rglob("*.md")),
                                  "CHANGELOG.md", "README.md"])
def test_every_list_starts_after_a_blank_line(page):
    """Markdown runs a list into the paragraph above it unless a blank line separates them."""
    fenced, previous, offenders = False, "", []
    for number, line in enumerate((DOCS.parent / page).read_text().splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif (not fenced and LIST_ITEM.match(line) and previous.strip() and not LIST_ITEM.match(previous)
              and not previous.startswith((" ", "\t", "|"))):
            offenders.append(number)
        previous = line
    assert not offenders, f"{page}: a list item right after a paragraph line at lines {offenders}"


def test_the_tournaments_page_lists_every_configuration_key():
    from zerosum.evaluation import config

    page = (DOCS / "tutorials" / "tournaments.md").read_text()
    for key in [*config._KEYS, *config._AGENT_KEYS]:
        assert f"| `{key}` |" in page, f"the key {key!r} is not in the tournaments tutorial's tables"
