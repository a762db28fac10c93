"""Which source files a module's compiled code depends on: the module and every tracked
module it reaches through its imports and globals, transitively (see the contract in
:mod:`zerosum.games.kit.specialize`). Used to name the per-game copies of templates and to
key numba's disk cache of the kit's kernels (:mod:`zerosum.games.kit.toolkit`); imports
nothing of the kit, so that the toolkit can use it while the kit is loading.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import sys
import sysconfig
import types as pytypes
from pathlib import Path
from typing import Any

_LIBRARY_DIRS = tuple(str(Path(p).resolve()) for p in {
    sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})


def _tracked(module: pytypes.ModuleType) -> bool:
    file = getattr(module, "__file__", None)
    if not file or not file.endswith(".py"):
        return False  # builtins, extension modules (zerosum's C module holds no rules)
    return module.__name__.split(".")[0] == "zerosum" or not str(Path(file).resolve()).startswith(_LIBRARY_DIRS)


def _module_of(value: Any) -> str | None:
    if isinstance(value, pytypes.ModuleType):
        return value.__name__
    if isinstance(value, (type, pytypes.FunctionType)) or hasattr(value, "py_func"):
        name = getattr(value, "__module__", None)
        return name if isinstance(name, str) else None
    return None


def imported_modules(module_name: str, source: str) -> list[str]:
    """The loaded modules that ``source`` (the text of module ``module_name``) imports at
    module level, relative imports resolved: ``from a.b import c`` gives ``a.b``, and
    ``a.b.c`` when that is a module. Whatever the imported names are (functions, tables,
    constants), the module that defines them is found."""
    module = sys.modules.get(module_name)
    package = getattr(module, "__package__", None) or module_name.rpartition(".")[0]
    return [n for n in import_names(package, source) if n in sys.modules]


@functools.lru_cache(maxsize=512)
def import_names(package: str, source: str) -> tuple[str, ...]:
    """The modules ``source`` (of ``package``) imports when it is run, relative imports resolved
    (imports inside functions left out)."""
    names: list[str] = []
    todo: list[ast.AST] = [ast.parse(source)]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue  # imports run when a function does are not part of the module's code
        if isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            try:
                base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            except (ImportError, ValueError):
                continue
            names.append(base)
            names.extend(f"{base}.{a.name}" for a in node.names)
        todo.extend(ast.iter_child_nodes(node))
    return tuple(dict.fromkeys(names))


def reachable_sources(roots: list[str]) -> dict[str, str]:
    """The source text of every tracked module reachable from ``roots`` (see the contract):
    through the modules a module imports, and through the modules, functions, classes and
    compiled helpers found in its globals."""
    seen: dict[str, str] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        module = sys.modules.get(name) or importlib.import_module(name)
        if not _tracked(module):
            seen[name] = ""
            continue
        seen[name] = Path(module.__file__ or "").read_text()
        todo.extend(imported_modules(name, seen[name]))
        for value in list(vars(module).values()):
            dep = _module_of(value)
            if dep and dep.startswith(f"{name}.") and isinstance(value, pytypes.ModuleType):
                continue  # a package's loaded submodules: counted only where imported by name
            if dep and dep not in seen and dep in sys.modules:
                todo.append(dep)
    return {k: v for k, v in seen.items() if v}


__all__ = ["import_names", "imported_modules", "reachable_sources"]
