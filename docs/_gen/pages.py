"""Pages made at build time (run by mkdocs-gen-files from ``mkdocs.yml``), so none can drift.

- ``games/<env>.md``: one page per environment, the env module's docstring (its one source)
  with the board it renders (``rgb_array``, drawn here) at the start and in a midgame;
- ``games/index.md``: one line and one picture per game;
- ``reference/*.md``: the API reference, one page per module that has an ``__all__``, every
  name in it (a name exported by several modules is documented once and linked elsewhere).
"""

from __future__ import annotations

import importlib
import io
import re
import textwrap

import griffe
import mkdocs_gen_files
import numpy as np
from PIL import Image

from zerosum.envs import env_module
from zerosum.games import ENVS

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
REFERENCE = [  # (page, module): the modules with an __all__, in reading order
    ("zerosum", "zerosum"),
    ("games", "zerosum.games"), ("games-kit", "zerosum.games.kit"), ("games-kit-batched", "zerosum.games.kit.batched"),
    ("games-halma", "zerosum.games.halma"),
    ("envs", "zerosum.envs"), ("envs-vector", "zerosum.envs.vector"), ("envs-vector-sb3", "zerosum.envs.vector_sb3"),
    ("search", "zerosum.search"), ("search-compiled", "zerosum.search.compiled"),
    ("search-heuristics", "zerosum.search.heuristics"),
    ("agents", "zerosum.agents"), ("agents-policies", "zerosum.agents.policies"),
    ("agents-learned", "zerosum.agents.learned"), ("agents-checkpoints", "zerosum.agents.checkpoints"),
    ("agents-maskable-dqn", "zerosum.agents.maskable_dqn"),
    ("evaluation", "zerosum.evaluation"), ("evaluation-evaluate", "zerosum.evaluation.evaluate"),
    ("evaluation-gsprt", "zerosum.evaluation.gsprt"),
    ("training", "zerosum.training"), ("training-train", "zerosum.training.train"),
    ("training-single-agent", "zerosum.training.single_agent"), ("training-opponents", "zerosum.training.opponents"),
    ("training-callbacks", "zerosum.training.callbacks"), ("training-recipes", "zerosum.training.recipes"),
    ("training-symmetry", "zerosum.training.symmetry"),
    ("testing", "zerosum.testing"), ("values", "zerosum.values"), ("cli-train", "zerosum.cli.train"),
]


def public_names(module: str) -> list[str]:
    """The module's ``__all__`` as Python sees it (zerosum.evaluation computes its own)."""
    return list(importlib.import_module(module).__all__)


def canonical(package: griffe.Object, module: str, name: str) -> str | None:
    """Where ``module.name`` is defined (through re-exports and lazy ``__getattr__`` exports);
    None for a name static analysis cannot follow (``TURN, HASH = 8, 9``)."""
    lazy = getattr(importlib.import_module(module), "_EXPORTS", {})
    if name in lazy:  # checked first: zerosum.evaluation.evaluate is a module and a lazy function
        return canonical(package, f"{module}.{lazy[name]}", name)
    try:
        mod = package if module == package.path else package[module.removeprefix(package.path + ".")]
    except KeyError:
        mod = None
    if mod is not None and name in mod.members:
        obj = mod.members[name]
        try:
            return obj.final_target.path if obj.is_alias else obj.path
        except griffe.AliasResolutionError:
            return None
    obj = getattr(importlib.import_module(module), name, None)  # a module-level __getattr__ export
    if getattr(obj, "__module__", None) and getattr(obj, "__qualname__", None):
        return canonical(package, obj.__module__, obj.__qualname__)
    raise RuntimeError(f"{module}.{name} is in __all__ but was not found")


def reference_pages() -> None:
    package = griffe.load("zerosum", resolve_aliases=True, resolve_external=False)
    seen: dict[str, tuple[str, str]] = {}
    for page, module in REFERENCE:
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
             *[f"| `{module}` | [{page}]({page}.md) |" for page, module in REFERENCE], ""]
    with mkdocs_gen_files.open("reference/index.md", "w") as f:
        f.write("\n".join(index))


env_pages()
reference_pages()
