"""What the API reference documents, shared by the site's generator (``pages.py``), its nav (``hooks.py``)
and the test that every documented name has a description (``tests/docs/test_descriptions.py``).

- The reference has one page per public module that declares ``__all__`` (found by walking the
  package, so a new module appears without an edit here), in the order of :data:`ORDER`.
- A name exported by several modules is documented where it is defined and linked elsewhere.
- :func:`undocumented` lists every object the reference shows, members of classes included, that has
  no description, read through griffe as mkdocstrings reads it.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import griffe

ROOT = Path(__file__).resolve().parents[2]
ORDER = ("zerosum", "zerosum.games", "zerosum.envs", "zerosum.search", "zerosum.agents", "zerosum.evaluation",
         "zerosum.training", "zerosum.nets", "zerosum.testing", "zerosum.values", "zerosum.cli")
"""Packages in reading order; a module goes with the first that is a prefix of its path (others last)."""


def _rank(module: str) -> tuple[int, str]:
    ranks = [i for i, p in enumerate(ORDER) if module == p or module.startswith(p + ".")]
    return (max(ranks) if ranks else len(ORDER), module)


def page_of(module: str) -> str:
    """The reference page of a module: ``zerosum.games.kit`` -> ``games-kit``."""
    return "zerosum" if module == "zerosum" else module.removeprefix("zerosum.").replace(".", "-").replace("_", "-")


def reference_modules() -> list[str]:
    """Every public module of zerosum that assigns ``__all__`` (read from the source: nothing is imported)."""
    found = []
    for path in sorted((ROOT / "zerosum").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if any(p.startswith("_") and p != "__init__" for p in parts):
            continue
        tree = ast.parse(path.read_text())
        if any(isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign)
               and any(isinstance(t, ast.Name) and t.id == "__all__"
                       for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))
               for node in tree.body):
            found.append(".".join(parts).removesuffix(".__init__"))
    return sorted(found, key=_rank)


def public_names(module: str) -> list[str]:
    """The module's ``__all__`` as Python sees it (zerosum.evaluation computes its own)."""
    return list(importlib.import_module(module).__all__)


def canonical(package: griffe.Object, module: str, name: str) -> str | None:
    """Where ``module.name`` is defined, as a griffe path (through re-exports and lazy ``__getattr__``
    exports); None for a name static analysis cannot follow (``TURN, HASH = 8, 9``)."""
    lazy = getattr(importlib.import_module(module), "_EXPORTS", {})
    if name in lazy:  # checked first: zerosum.evaluation.evaluate is a module and a lazy function
        return canonical(package, f"{module}.{lazy[name]}", name)
    obj = getattr(importlib.import_module(module), name, None)
    where, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if isinstance(where, str) and isinstance(qualname, str) and where.startswith("zerosum"):
        # a function or class: where Python says it was defined (``zerosum.search.alphabeta`` the
        # function, not the module of the same name that griffe finds first)
        return f"{where}.{qualname}"
    mod = package if module == package.path else package[module.removeprefix(package.path + ".")]
    if name in mod.members:
        member = mod.members[name]
        try:
            return member.final_target.path if member.is_alias else member.path
        except griffe.AliasResolutionError:
            return None
    raise RuntimeError(f"{module}.{name} is in __all__ but was not found")


def load_package() -> griffe.Module:
    """zerosum as the site's griffe sees it (aliases resolved), with the site's docstring extension."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from griffe_docstrings import MarkdownDocstrings  # the site's own extension

    return griffe.load("zerosum", resolve_aliases=True, resolve_external=False, search_paths=[str(ROOT)],
                       extensions=griffe.load_extensions(MarkdownDocstrings()))


def documented(package: griffe.Module) -> Iterator[tuple[str, griffe.Object]]:
    """(shown as, object) for every object the reference shows: the names in every ``__all__`` and,
    for classes, their public members (methods, properties, fields), as mkdocstrings lists them."""
    seen: set[str] = set()

    def members(obj: griffe.Object) -> Iterator[griffe.Object]:
        yield obj
        if obj.is_class:
            for name, member in obj.members.items():
                if name.startswith("_") or member.is_alias:
                    continue
                yield from members(member)

    for module in reference_modules():
        yield module, package[module.removeprefix("zerosum.")] if module != "zerosum" else package
        for name in public_names(module):
            path = canonical(package, module, name)
            if path is None:
                continue
            if path in seen:
                continue
            seen.add(path)
            obj = package[path.removeprefix("zerosum.")]
            if obj.is_alias:
                obj = obj.final_target
            for member in members(obj):
                yield member.path, member


def undocumented(package: griffe.Module) -> list[str]:
    """The paths of the objects the reference shows without any description."""
    return [path for path, obj in documented(package) if not (obj.docstring and obj.docstring.value.strip())]


def walk_modules() -> list[str]:
    """Every module of zerosum (``__main__`` aside), for tests that import them all."""
    import zerosum

    return [m.name for m in pkgutil.walk_packages(zerosum.__path__, "zerosum.") if not m.name.endswith("__main__")]
