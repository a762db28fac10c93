"""The layout of DESIGN section 1, checked on the source: which subpackage may import which
(every import, lazy ones inside functions too, so no package cycle can hide), the rules
import no RL library, and no module grows past 400 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "zerosum"

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
    "cli": {"games", "search", "agents", "evaluation", "training", "values"},
    "values": {"games"},
    "_lazybase": set(),
}
"""Subpackage (or top-level module) -> the zerosum subpackages it may import."""
FOREIGN_TO_GAMES = ("gymnasium", "pettingzoo", "stable_baselines3", "sb3_contrib", "torch", "ray")

MODULES = sorted(p for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts)


def _imports(path: Path) -> list[str]:
    """Every module name ``path`` imports, anywhere in it, relative imports resolved."""
    module = ".".join(("zerosum", *path.relative_to(ROOT).with_suffix("").parts))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    package = package.removesuffix(".__init__")
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                names.append(".".join([*base, *([node.module] if node.module else [])]))
            else:
                names.append(node.module or "")
    return names


def _part(path: Path) -> str:
    parts = path.relative_to(ROOT).parts
    return parts[0] if len(parts) > 1 else path.stem


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_imports_follow_the_layers(path):
    part = _part(path)
    if part not in ALLOWED:  # zerosum/__init__.py and __main__.py front everything
        return
    for name in _imports(path):
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


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_no_module_over_400_lines(path):
    lines = len(path.read_text().splitlines())
    assert lines <= 400, f"{path.relative_to(ROOT)} has {lines} lines (docstrings included); 400 at most"
