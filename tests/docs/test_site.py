"""`make docs` stays green: the site builds with no warning (mkdocs build --strict), with a
page and two board pictures per environment and an API reference entry for every public name."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site `make docs` built, while its record of the inputs still holds (docs/_gen/build.py:
    the docs, the sources and the tools as they are now); else a strict build of our own."""
    pytest.importorskip("mkdocs", reason="the docs extra: pip install -e '.[docs]'")
    pytest.importorskip("mkdocstrings_handlers.python", reason="the docs extra: pip install -e '.[docs]'")
    spec = importlib.util.spec_from_file_location("zerosum_docs_build", ROOT / "docs" / "_gen" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    if build.is_current(ROOT / "site"):
        return ROOT / "site"
    out = tmp_path_factory.mktemp("site")
    done = build.build(out)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    return out


def test_every_environment_has_a_page_with_its_boards(site):
    from zerosum.games import ENVS

    for name in ENVS:
        page = (site / "games" / name / "index.html").read_text()
        assert "Version history" in page and "Observation" in page, name
        for tag in ("start", "midgame"):
            assert (site / "games" / "img" / f"{name}_{tag}.png").stat().st_size > 200  # a PNG with something drawn
            assert f"img/{name}_{tag}.png" in page
    index = (site / "games" / "index.html").read_text()
    assert all(f"{name}/" in index for name in ENVS)


def test_every_game_page_has_its_usage_animation_and_variants(site):
    from zerosum.envs import env_module
    from zerosum.games import ENVS

    for name in ENVS:
        page = (site / "games" / name / "index.html").read_text()
        assert f"{name}.env(" in page and "agent_iter" in page, f"{name}: no usage snippet"
        assert f"figures/games/{name}.gif" in page, f"{name}: no animated game"
        assert (site / "figures" / "games" / f"{name}.gif").read_bytes()[:6] in (b"GIF87a", b"GIF89a")
        for variant in type(env_module(name).env().game).variants:
            assert f"<code>{variant.name}</code></td>" in page, f"{name}: variant {variant.name} not in the table"


def test_the_games_index_says_what_each_game_is(site):
    import re

    index = (site / "games" / "index.html").read_text()
    lines = {m[1]: re.sub(r"<[^>]+>", "", m[2]).strip() for m in
             re.finditer(r'<code>(\w+_v\d)</code></td>\s*<td>(.*?)</td>', index, re.DOTALL)}
    from zerosum.games import ENVS

    assert len(lines) == len(ENVS), lines
    for name, line in lines.items():
        assert line.endswith(".") and line.count("(") == line.count(")"), f"{name}: {line!r} is cut off"
    assert "Five in a row" in lines["pentago_v0"] and "mills" in lines["nine_mens_morris_v0"]


def test_the_reference_documents_every_public_name(site):
    import importlib

    pages = "".join(p.read_text() for p in (site / "reference").rglob("index.html"))
    for module in ("zerosum.games", "zerosum.search", "zerosum.agents", "zerosum.evaluation", "zerosum.training",
                   "zerosum.testing", "zerosum.envs"):
        for name in importlib.import_module(module).__all__:
            assert f"{name}</code>" in pages or f">{name}<" in pages or f".{name}\"" in pages, f"{module}.{name}"


def test_no_page_repeats_an_html_id(site):
    import collections
    import re

    repeated = {}
    for page in site.rglob("*.html"):
        counts = collections.Counter(re.findall(r'\sid="([^"]+)"', page.read_text()))
        if dup := sorted(i for i, c in counts.items() if c > 1):
            repeated[str(page.relative_to(site))] = dup
    assert not repeated, repeated


def test_the_search_reference_documents_the_functions_not_their_modules(site):
    page = (site / "reference" / "search" / "index.html").read_text()
    for name in ("alphabeta", "minimax"):
        assert f'id="zerosum.search.{name}.{name}"' in page, name  # the function, with its signature
    import html
    import re

    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    assert "alphabeta(\n    game: Game,\n    state: State,\n    depth: int | None = None" in text \
        or "alphabeta(game: Game, state: State, depth: int | None = None" in text, "alphabeta's signature"
    for internal in ("TT_FIELDS", "check_budget", "_take_arrays"):
        assert internal not in page, internal


def test_the_cli_reference_lists_every_command_and_option(site):
    import argparse
    import html
    import importlib

    from zerosum.cli import COMMANDS

    page = html.unescape((site / "reference" / "cli" / "index.html").read_text())
    for name, (module, _) in COMMANDS.items():
        assert f"zerosum {name}" in page, name
        mod = importlib.import_module(module)
        for action in (getattr(mod, "parser", None) or mod.build_parser)()._actions:
            if not isinstance(action, argparse._HelpAction):
                for option in action.option_strings:
                    assert option in page, f"zerosum {name} {option}"


def test_the_project_pages_are_on_the_site(site):
    import zerosum

    changelog = (site / "changelog" / "index.html").read_text()
    assert zerosum.__version__ in changelog
    install = (site / "install" / "index.html").read_text()
    assert "C compiler" in install and "train" in install and "docs" in install
    assert "CITATION.cff" in (site / "index.html").read_text()
