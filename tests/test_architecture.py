"""The layout of DESIGN section 1, checked on the source of every module under zerosum/ (and of
the scripts under bench/ and experiments/ for private names):

* the layer map: which subpackage may import which (every import, lazy ones inside functions
  too), and the rules import no RL library;
* no module imports a private (``_name``) name, or a private module, of another module;
* no import cycle between modules, inside a package too, counting the imports inside functions
  (a cycle held apart only by a lazy import is still one idea split in two).

A module is as long as its one idea needs: there is no line cap.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ROOT = REPO / "zerosum"

ALLOWED = {
    "games": set(),
    "search": {"games"},
    "nets": {"games", "_lazybase"},
    "agents": {"games", "search", "nets", "values", "_lazybase"},
    # DESIGN 1: games, search; the vector env's opponents are agents; its SB3 VecEnv base is lazy
    "envs": {"games", "search", "agents", "_lazybase"},
    "evaluation": {"games", "search", "agents", "values"},
    "training": {"games", "envs", "agents", "evaluation", "nets", "search", "values", "_lazybase"},
    "testing": {"games", "search", "envs"},
    # the top: `zerosum warmup` compiles the vector env's step too
    "cli": {"games", "search", "agents", "envs", "evaluation", "training", "values"},
    "values": {"games"},
    "_lazybase": set(),
}
"""Subpackage (or top-level module) -> the zerosum subpackages it may import."""
FOREIGN_TO_GAMES = ("gymnasium", "pettingzoo", "stable_baselines3", "sb3_contrib", "torch", "ray")

MODULES = sorted(p for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts)
SCRIPTS = sorted(p for d in ("bench", "experiments") if (REPO / d).is_dir()
                 for p in (REPO / d).rglob("*.py") if "__pycache__" not in p.parts)


def module_name(path: Path) -> str:
    """``zerosum/a/b.py`` -> ``zerosum.a.b``; a package's ``__init__.py`` -> the package."""
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


NAMES = {module_name(p) for p in MODULES}
"""Every module and package of zerosum."""


def imports(path: Path, text: str | None = None) -> list[tuple[str, str | None]]:
    """Every ``(module, name)`` that ``path`` imports, anywhere in it (``name`` None for ``import m``;
    ``from pkg import mod`` gives ``(pkg.mod, None)`` when ``mod`` is a module), relative imports resolved."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text() if text is None else text)):
        if isinstance(node, ast.Import):
            found += [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for a in node.names:
                sub = f"{source}.{a.name}"
                found.append((sub, None) if sub in NAMES else (source, a.name))
    return found


def _part(path: Path) -> str:
    parts = path.relative_to(ROOT).parts
    return parts[0] if len(parts) > 1 else path.stem


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_imports_follow_the_layers(path):
    part = _part(path)
    if part not in ALLOWED:  # zerosum/__init__.py and __main__.py front everything
        return
    for name, _ in imports(path):
        if name.startswith("zerosum."):
            target = name.split(".")[1]
            assert target == part or target in ALLOWED[part], \
                f"{path.relative_to(ROOT)} imports {name}: {part}/ may import only {sorted(ALLOWED[part])}"
        if part == "games":
            assert name.split(".")[0] not in FOREIGN_TO_GAMES, f"{path.relative_to(ROOT)} imports {name}"


def test_the_layers_have_no_cycle():
    seen: dict[str, int] = {}

    def visit(part: str, trail: tuple[str, ...]) -> None:
        assert part not in trail, f"package cycle: {' -> '.join((*trail, part))}"
        for nxt in ALLOWED[part]:
            visit(nxt, (*trail, part))
        seen[part] = 1

    for part in ALLOWED:
        visit(part, ())
    assert set(seen) == set(ALLOWED)


SHARED_INTERNALS = {"envs": ("zerosum.search._flags", "zerosum.search._arrays", "zerosum.search._template")}
"""Private modules another layer may read: the compiled search's record layout (slots, flags, arrays)
and its template, which the vector env's compiled opponents are built from (the compile model)."""


def private_imports(path: Path, text: str | None = None) -> list[str]:
    """What ``path`` imports that is private to another module: a ``_name`` of another module, or a
    private module (``zerosum.search._flags``) from outside the layer that holds it. A package's own
    private modules are its modules' to share (``from zerosum.games import _native`` in
    zerosum/games/kit/)."""
    me = module_name(path)
    part = me.split(".")[1] if me.startswith("zerosum.") else None
    bad = []
    for source, name in imports(path, text):
        if not source.startswith("zerosum"):
            continue
        hidden = next((i for i, p in enumerate(source.split(".")) if p.startswith("_") and not p.startswith("__")),
                      None)
        if hidden is not None:
            owner = ".".join(source.split(".")[:hidden])  # the package that holds the private module
            if not me.startswith(owner + ".") and source not in SHARED_INTERNALS.get(part or "", ()):
                bad.append(source)
        # a package's private module may be used inside the package
        if name and name.startswith("_") and not name.startswith("__") and not me.startswith(source + "."):
            bad.append(f"{source}.{name}")
    return bad


@pytest.mark.parametrize("path", MODULES + SCRIPTS, ids=[str(p.relative_to(REPO)) for p in MODULES + SCRIPTS])
def test_no_private_name_is_imported_from_another_module(path):
    bad = private_imports(path)
    assert not bad, f"{path.relative_to(REPO)} imports private names of other modules: {', '.join(bad)}"


def module_graph() -> dict[str, set[str]]:
    """Module -> the zerosum modules it imports (a name imported from a package counts as the package,
    and importing ``a.b.c`` runs the packages ``a`` and ``a.b``, which a module inside them does not count)."""
    graph: dict[str, set[str]] = {}
    for path in MODULES:
        me = module_name(path)
        edges = set()
        for source, _ in imports(path):
            if not source.startswith("zerosum"):
                continue
            while source not in NAMES and "." in source:
                source = source.rpartition(".")[0]
            if source != me and not me.startswith(source + "."):  # a module's own packages are loaded first
                edges.add(source)
        graph[me] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_between_modules():
    """A package's ``__init__`` that re-exports its modules' names is the package's surface: a module
    of the package that imports from it (``from zerosum.agents import Agent`` inside
    zerosum/agents/) is the cycle this test finds."""
    found = cycles(module_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_cycle_finder_finds_a_cycle_through_three_modules():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_private_name_rule_finds_a_private_name_and_a_private_module_of_another_layer():
    fake = ROOT / "training" / "fake.py"
    text = ("from zerosum.training.rundir import _hidden\n"
            "def f():\n    from zerosum.search._flags import INF\n"
            "from zerosum.games import _native\n")  # a private module of another package: found too
    assert sorted(private_imports(fake, text)) == ["zerosum.games._native", "zerosum.search._flags",
                                                   "zerosum.training.rundir._hidden"]
    inside = ROOT / "games" / "kit" / "fake.py"  # a package's own private module is its modules' to share
    assert private_imports(inside, "from zerosum.games import _native\nfrom . import _x\n") == []
