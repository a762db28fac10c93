"""Pages made at build time (run by mkdocs-gen-files from ``mkdocs.yml``), so none can drift.

- ``games/<env>.md``: one page per environment, the env module's docstring (its one source)
  with the board it renders (``rgb_array``, drawn here) at the start and in a midgame;
- ``games/index.md``: one line and one picture per game;
- ``reference/*.md``: the API reference, one page per module that has an ``__all__``, every
  name in it (a name exported by several modules is documented once and linked elsewhere).
"""

from __future__ import annotations

import argparse
import importlib
import io
import re
import textwrap

import sys
from pathlib import Path

import griffe
import mkdocs_gen_files
import numpy as np
from PIL import Image

from zerosum.envs import env_module
from zerosum.games import ENVS

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))
from api import canonical, page_of, public_names, reference_modules  # noqa: E402 - the site's own helpers

BUILT_IN = ("tictactoe_v0", "connect_four_v0", "nim_v0", "pentago_v0", "nine_mens_morris_v0", "halma_v0")
MIDGAME_PLIES = {"tictactoe_v0": 4, "connect_four_v0": 12, "nim_v0": 3, "pentago_v0": 10,
                 "nine_mens_morris_v0": 14, "halma_v0": 30}
LITERAL = re.compile(r"^(?P<lead>.*?)::\n\n(?P<block>(?:(?: {4}.*)?\n)+)", re.MULTILINE)


# ----------------------------------------------------------------------------- environments
def markdown_of(doc: str) -> str:
    """The docstring as Markdown: reST literal blocks (``text::`` + indented) become fenced text blocks."""
    def fence(m: re.Match[str]) -> str:
        lead = m["lead"].rstrip()
        lead = lead + ":" if lead and not lead.endswith(":") else lead
        return f"{lead}\n\n```text\n{textwrap.dedent(m['block']).strip(chr(10))}\n```\n\n"
    return LITERAL.sub(fence, doc.strip() + "\n")


def board_png(name: str, plies: int, seed: int = 7) -> bytes:
    """The env's rgb_array after ``plies`` random legal moves (seeded), as PNG bytes."""
    env = env_module(name).env(render_mode="rgb_array")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    img = Image.fromarray(np.asarray(env.render(), dtype=np.uint8))
    env.close()
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def one_line(doc: str) -> str:
    """The first sentence of the first prose paragraph after the summary table."""
    paragraphs = [p.strip() for p in doc.split("\n\n")]
    prose = next(p for p in paragraphs[1:] if p and not p.startswith(("|", "(", "**")))
    first = re.split(r"(?<=[.;])\s", " ".join(prose.split()), maxsplit=1)[0]
    return first.rstrip(";.") + "."


def env_pages() -> None:
    rows = []
    for name in BUILT_IN:
        mod = env_module(name)
        doc = mod.__doc__ or ""
        title, _, body = doc.strip().partition("\n")
        for tag, plies in (("start", 0), ("midgame", MIDGAME_PLIES[name])):
            with mkdocs_gen_files.open(f"games/img/{name}_{tag}.png", "wb") as f:
                f.write(board_png(name, plies))
        short, plies = title.rstrip("."), MIDGAME_PLIES[name]
        page = [f"# {short} (`{name}`)", "",
                f'![{short}: the start](img/{name}_start.png){{ width="260" }} '
                f'![{short}: after {plies} random moves](img/{name}_midgame.png){{ width="260" }}',
                "", f"*The boards above are drawn by `{name}.env(render_mode=\"rgb_array\")` when this site is built: "
                f"the start and after {MIDGAME_PLIES[name]} random plies. The text below is the module's docstring "
                f"(`help(zerosum.envs.{name})` shows the same).*", "", markdown_of(body)]
        with mkdocs_gen_files.open(f"games/{name}.md", "w") as f:
            f.write("\n".join(page))
        mkdocs_gen_files.set_edit_path(f"games/{name}.md", f"../zerosum/envs/{name}.py")
        rows.append(f"| [![{title}](img/{name}_midgame.png){{ width=\"120\" }}]({name}.md) | "
                    f"[**{title.rstrip('.')}**]({name}.md)<br>`{name}` | {one_line(body)} |")
    missing = sorted(set(ENVS) - set(BUILT_IN))
    if missing:
        raise RuntimeError(f"environments without a page: {missing}; add them to BUILT_IN in docs/_gen/pages.py")
    index = ["# Games", "",
             "Every game is a PettingZoo AEC environment (`from zerosum.envs import <name>`) over the same rules that "
             "the search and the agents use (`zerosum.games.make_game(<game>)`). Each page is the env module's "
             "docstring; the pictures are the env's `rgb_array` rendering, drawn when the site is built.", "",
             "| board | game | in one line |", "|:-:|---|---|", *rows, ""]
    with mkdocs_gen_files.open("games/index.md", "w") as f:
        f.write("\n".join(index))


# ----------------------------------------------------------------------------- API reference
def reference_pages() -> None:
    package = griffe.load("zerosum", resolve_aliases=True, resolve_external=False)
    seen: dict[str, tuple[str, str]] = {}
    modules = reference_modules()
    for module in modules:
        page = page_of(module)
        lines = [f"# `{module}`", "", f"::: {module}", "    options:", "      members: false",
                 "      show_root_heading: false", "      show_root_toc_entry: false", ""]
        links = []
        for name in sorted(public_names(module), key=lambda n: (n.startswith("_"), n.lower())):
            path = canonical(package, module, name)
            if path is None:
                value = getattr(importlib.import_module(module), name)
                lines += [f"## `{name}`", "", f"`{module}.{name} = {value!r}` (see the module's docstring).", ""]
                continue
            if path in seen and seen[path] != page:
                links.append(f"- [`{name}`][{path}] (documented in [`{seen[path][1]}`]({seen[path][0]}.md))")
                continue
            seen[path] = (page, module)
            lines += [f"::: {path}", "    options:", "      show_root_heading: true",
                      "      show_root_full_path: false", "      heading_level: 2", ""]
        if links:
            lines += ["## Also exported here", "", *links, ""]
        with mkdocs_gen_files.open(f"reference/{page}.md", "w") as f:
            f.write("\n".join(lines))
    index = ["# API reference", "",
             "Every name in an `__all__` of zerosum, generated from its docstring. One page per module that "
             "declares `__all__`; a name exported by several modules is documented on the first page that lists "
             "it and linked from the others.", "", "| module | page |", "|---|---|",
             *[f"| `{module}` | [{page_of(module)}]({page_of(module)}.md) |" for module in modules], ""]
    with mkdocs_gen_files.open("reference/index.md", "w") as f:
        f.write("\n".join(index))


# ----------------------------------------------------------------------------- command line
def _option_row(action: argparse.Action) -> str:
    """One table row: the option as typed, its default, its help (argparse's own ``%(default)s`` expanded)."""
    if action.option_strings:
        metavar = action.metavar or (action.dest.upper() if action.nargs != 0 else "")
        if isinstance(metavar, tuple):
            metavar = " ".join(metavar)
        if action.nargs in ("+", "*") and metavar:
            metavar += " ..."
        shown = ", ".join(f"`{o}{' ' + metavar if metavar else ''}`" for o in action.option_strings)
    else:
        metavar = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
        shown = f"`{metavar}{' ...' if action.nargs in ('+', '*') else ''}` (positional)"
    text = (action.help or "").replace("%(default)s", str(action.default)).replace("|", "\\|")
    if action.choices:
        text += f" (one of: {', '.join(f'`{c}`' for c in action.choices)})"
    default = action.default
    shown_default = "" if default in (None, argparse.SUPPRESS, False, []) or action.nargs == 0 else f"`{default}`"
    return f"| {shown} | {shown_default} | {text} |"


def cli_page() -> None:
    """``reference/cli.md``: every command of ``zerosum`` and every option, read from the argument parsers."""
    from zerosum.cli import COMMANDS, USAGE

    lines = ["# Command line", "", "The `zerosum` command (also `python -m zerosum`). This page is generated from "
             "its argument parsers when the site is built, so it lists every command and every option as the "
             "installed version has them; `zerosum COMMAND --help` prints the same.", "",
             "```text", USAGE, "```", "",
             "`--import MODULE` (before the command, repeatable) imports a module first, e.g. one that registers a "
             "game of your own ([Add your own game](../new-game.md)).", ""]
    for name, (module, summary) in COMMANDS.items():
        mod = importlib.import_module(module)
        parser = (getattr(mod, "parser", None) or mod.build_parser)()
        usage = " ".join(parser.format_usage().split()).removeprefix("usage: ")
        lines += [f"## `zerosum {name}`", "", summary[0].upper() + summary[1:] + ".", ""]
        if parser.description:
            lines += [" ".join(parser.description.replace("``", "`").split()), ""]
        lines += ["```text", textwrap.fill(usage, 100, subsequent_indent="    "), "```", "",
                  "| option | default | what it does |", "|---|---|---|",
                  *[_option_row(a) for a in parser._actions if not isinstance(a, argparse._HelpAction)], ""]
        if parser.epilog:
            lines += ["```text", parser.epilog.strip("\n"), "```", ""]
    with mkdocs_gen_files.open("reference/cli.md", "w") as f:
        f.write("\n".join(lines))


def changelog_page() -> None:
    """``changelog.md``: the repository's CHANGELOG.md, its links made relative to the site."""
    text = (ROOT / "CHANGELOG.md").read_text().replace("](docs/", "](")
    with mkdocs_gen_files.open("changelog.md", "w") as f:
        f.write(text)
    mkdocs_gen_files.set_edit_path("changelog.md", "../CHANGELOG.md")


env_pages()
reference_pages()
cli_page()
changelog_page()
