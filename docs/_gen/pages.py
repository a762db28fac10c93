"""Pages made at build time (run by mkdocs-gen-files from ``mkdocs.yml``), so none can drift.

- ``games/<env>.md``: one page per environment, the env module's docstring (its one source)
  with the board it renders (``rgb_array``, drawn here) at the start and in a midgame;
- ``games/index.md``: one line and one picture per game;
- ``results/ratings.md``: the rated ladders zerosum ships (docs/_gen/ratings.py);
- ``reference/*.md``: the API reference, one page per module that has an ``__all__``, every
  name in it (a name exported by several modules is documented once and linked elsewhere).
"""

from __future__ import annotations

import argparse
import contextlib
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
FIGURES = ROOT / "docs" / "figures"
sys.path.insert(0, str(Path(__file__).parent))
from api import canonical, page_of, public_names, reference_modules  # noqa: E402 - the site's own helpers
from ratings import ratings_page  # noqa: E402 - the site's own helpers

BUILT_IN = ("tictactoe_v0", "connect_four_v0", "nim_v0", "pentago_v0", "nine_mens_morris_v0", "halma_v0",
            "othello_v0", "hex_v0", "breakthrough_v0", "checkers_v0", "gomoku_v0", "chess_v0",
            "go_v0")
MIDGAME_PLIES = {"tictactoe_v0": 4, "connect_four_v0": 12, "nim_v0": 3, "pentago_v0": 10, "nine_mens_morris_v0": 14,
                 "halma_v0": 30, "othello_v0": 20, "hex_v0": 30, "breakthrough_v0": 16, "checkers_v0": 20,
                 "gomoku_v0": 20, "chess_v0": 20, "go_v0": 40}
BUILT_IN += ("clobber_v0", "ultimate_tic_tac_toe_v0")  # issue 57's games
MIDGAME_PLIES.update({"clobber_v0": 10, "ultimate_tic_tac_toe_v0": 30})
BUILT_IN += ("mancala_v0", "oware_v0")
MIDGAME_PLIES.update({"mancala_v0": 12, "oware_v0": 30})
BUILT_IN += ("dots_and_boxes_v0",)
MIDGAME_PLIES.update({"dots_and_boxes_v0": 7})
BUILT_IN += ("y_v0", "havannah_v0")
MIDGAME_PLIES.update({"y_v0": 40, "havannah_v0": 40})
BUILT_IN += ("lines_of_action_v0", "amazons_v0")
MIDGAME_PLIES.update({"lines_of_action_v0": 20, "amazons_v0": 30})
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
    """The first sentence of the first prose paragraph after the summary table (a full stop or
    semicolon inside parentheses does not end it)."""
    paragraphs = [p.strip() for p in doc.split("\n\n")]
    prose = " ".join(next(p for p in paragraphs[1:] if p and not p.startswith(("|", "(", "**"))).split())
    depth = 0
    for i, ch in enumerate(prose):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and ch in ".;" and prose[i + 1:i + 2] in (" ", ""):
            return prose[:i] + "."
    return prose


USAGE = """from zerosum.envs import {name}

env = {name}.env(render_mode="ansi"{variant})
env.reset(seed=42)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None
    else:
        mask = observation["action_mask"]
        action = env.action_space(agent).sample(mask)  # a random legal move (your policy here)
    env.step(action)
print(env.render())  # the final position
env.close()
"""
EXAMPLE_VARIANT = {"nim_v0": "misere=True", "connect_four_v0": "rows=6, columns=7", "halma_v0": "size=8",
                   "nine_mens_morris_v0": "", "pentago_v0": "", "tictactoe_v0": ""}
EXAMPLE_VARIANT["hex_v0"] = "board_size=7, swap=True"
EXAMPLE_VARIANT["checkers_v0"] = "rows=10, columns=10"
EXAMPLE_VARIANT["go_v0"] = "board_size=9"
EXAMPLE_VARIANT["clobber_v0"] = "rows=8, columns=8"
EXAMPLE_VARIANT["oware_v0"] = "num_houses_per_player=4, num_seeds_per_house=3"
EXAMPLE_VARIANT["y_v0"] = "board_size=9"
EXAMPLE_VARIANT["havannah_v0"] = "board_size=4, swap=True"
EXAMPLE_VARIANT["dots_and_boxes_v0"] = "num_rows=3, num_cols=3"
EXAMPLE_VARIANT["lines_of_action_v0"] = "max_game_length=200"
EXAMPLE_VARIANT["amazons_v0"] = "board_size=6"


def usage(name: str) -> str:
    """The page's usage snippet, run here first: the build fails if it does not run."""
    variant = EXAMPLE_VARIANT.get(name, "")
    code = USAGE.format(name=name, variant=f", {variant}" if variant else "")
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, f"<usage of {name}>", "exec"), {})  # noqa: S102 - the snippet the page shows
    return code


def variants_table(name: str) -> list[str]:
    """The game's declared variants: keyword, type, default, allowed values, meaning."""
    game = env_module(name).env().game
    if not type(game).variants:
        return ["This game has no variants."]
    rows = ["| keyword | type | default | allowed | what it changes |", "|---|---|---|---|---|"]
    for v in type(game).variants:
        kind = v.kind if isinstance(v.kind, str) else v.kind.__name__
        kind = "tuple of ints" if kind == "ints" else kind
        allowed = []
        if v.choices is not None:
            allowed.append("one of " + ", ".join(f"`{c}`" for c in v.choices))
        if v.range is not None:
            allowed.append(f"{'each ' if v.kind == 'ints' else ''}{v.range[0]} to {v.range[1]}")
        if v.length is not None:
            allowed.append(f"{v.length[0]} to {v.length[1]} items")
        if v.optional:
            allowed.append("or `None`")
        rows.append(f"| `{v.name}` | {kind} | `{v.default!r}` | {', '.join(allowed) or 'any'} | {v.doc} |")
    return rows


def env_pages() -> None:
    rows = []
    for name in BUILT_IN:
        mod = env_module(name)
        doc = mod.__doc__ or ""
        title, _, body = doc.strip().partition("\n")
        for tag, plies in (("start", 0), ("midgame", MIDGAME_PLIES[name])):
            with mkdocs_gen_files.open(f"games/img/{name}_{tag}.png", "wb") as f:
                f.write(board_png(name, plies))
        gif = FIGURES / "games" / f"{name}.gif"
        if not gif.exists():
            raise RuntimeError(f"{gif} is missing: run python docs/figures/game_gifs.py {name}")
        short, plies = title.rstrip("."), MIDGAME_PLIES[name]
        page = [f"# {short} (`{name}`)", "",
                f'![{short}: the start](img/{name}_start.png){{ width="220" }} '
                f'![{short}: after {plies} random moves](img/{name}_midgame.png){{ width="220" }} '
                f'![{short}: a game between two search agents](../figures/games/{name}.gif){{ width="220" }}',
                "", f"*The start and the board after {plies} random plies, drawn by "
                f"`{name}.env(render_mode=\"rgb_array\")` when this site is built, and a game between two "
                f"alpha-beta agents (`docs/figures/game_gifs.py` plays it; `zerosum replay --gif` draws a stored "
                f"game the same way). The text after the usage is the module's docstring "
                f"(`help(zerosum.envs.{name})` shows the same).*", "",
                "## Usage", "", "A random game through the PettingZoo AEC API (the code runs when the site is "
                "built):", "", "```python", usage(name).rstrip("\n"), "```", "",
                "## The environment", "", markdown_of(body), "",
                "## Variants", "", f"Keyword arguments of `{name}.env(...)` and `{name}.raw_env(...)` (and of "
                f"`make_game(\"{mod.env().game.name}\", ...)`), as the game declares them:", "",
                *variants_table(name), ""]
        with mkdocs_gen_files.open(f"games/{name}.md", "w") as f:
            f.write("\n".join(page))
        mkdocs_gen_files.set_edit_path(f"games/{name}.md", f"../zerosum/envs/{name}.py")
        rows.append(f"| [![{title}](img/{name}_midgame.png){{ width=\"160\" }}]({name}.md) | "
                    f"[**{title.rstrip('.')}**]({name}.md)<br>`{name}` | {one_line(body)} |")
    missing = sorted(set(ENVS) - set(BUILT_IN))
    if missing:
        raise RuntimeError(f"environments without a page: {missing}; add them to BUILT_IN in docs/_gen/pages.py")
    index = ["# Games", "",
             "Every game is a PettingZoo AEC environment (`from zerosum.envs import <name>`) over the same rules that "
             "the search and the agents use (`zerosum.games.make_game(<game>)`). Each page shows how to use the "
             "environment, its rules, observations, actions and rewards (the env module's docstring) and its "
             "variants; the pictures are the env's `rgb_array` rendering, drawn when the site is built.", "",
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
        description = " ".join((parser.description or "").replace("``", "`").split())
        lines += [f"## `zerosum {name}`", ""]
        if not description.lower().startswith(summary.lower()):
            lines += [summary[0].upper() + summary[1:] + ".", ""]
        if description:
            lines += [description, ""]
        lines += ["```text", textwrap.fill(usage, 76, subsequent_indent="    "), "```", "",
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
ratings_page()
reference_pages()
cli_page()
changelog_page()
