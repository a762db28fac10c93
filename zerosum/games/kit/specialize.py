"""Per-game copies of a compiled template: how zerosum compiles generic code with a
game's rules inlined. This is the one place the mechanism lives; the hot calls
(:mod:`zerosum.games.kit.hot`) and the compiled search (:mod:`zerosum.search.compiled`)
both use it.

The contract
------------
* A *template* is a Python module of numba code written against the rules of
  :mod:`zerosum.games.kit.placeholder` (a tiny real game, so the template is itself a
  working, importable module). It names no concrete game. Exactly one line imports the
  rules, and it is spelled exactly as :data:`RULES_LINE`.
* :func:`specialize` (template, kernels) writes a copy of the template with that line
  importing the game's ``Kernels`` record from the module that declares it, and imports
  the copy. numba then compiles the game's kernels into the template's code directly
  (inlined: 1.6-1.8x the speed of calling rules through function pointers, measured here)
  and caches the machine code on disk next to the copy.
* The copy's file name carries a hash of everything its compiled code depends on: the
  template, numba's version, and the source of every module reachable from the game's
  rules module and from the template's own imports: the modules each imports at module
  level (whatever it imports from them: functions, tables, constants) and the modules of
  the functions, classes and compiled helpers in its globals, followed transitively,
  outside the standard library and site-packages (every zerosum module counts). A
  package's submodules count where they are imported, not merely loaded, so the name does
  not depend on what else a process imported. An edit to any of these files gives a new
  copy, so a stale copy is never used and none needs clearing by hand.
* numba's own cache of each kernel and helper (``@kernel`` and ``@helper`` compile with
  ``cache=True``), which the copy links, is keyed the same way: by the kernel's file and
  every module it imports (:mod:`zerosum.games.kit.toolkit`), so an edit to a table or
  helper in another file recompiles the kernel too.
* Copies live in ``$ZEROSUM_CACHE_DIR`` (default ``$XDG_CACHE_HOME/zerosum`` or
  ``~/.cache/zerosum``), so a read-only install works. ``make clean-cache`` frees the disk.
  Where that folder cannot be written, the copy is compiled in memory, with one warning
  (:mod:`zerosum.games.kit.cache`, which also says what a first compile prints).
* The game's ``Kernels`` must be a module-level name (``KERNELS = Kernels(...)``) of the
  module that defines its ``legal`` kernel or of a package above it (docs/new-game.md puts
  it in the game package's ``__init__.py``).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
import types as pytypes
from pathlib import Path

import numba

from zerosum.games.kit.cache import cache_dir, guard_numba_cache, notice, numba_index_exists, writable_dir
from zerosum.games.kit.errors import KernelError
from zerosum.games.kit.kernels import Kernels
from zerosum.games.kit.sources import import_names, reachable_sources

RULES_LINE = "from zerosum.games.kit.placeholder import KERNELS as _RULES  # RULES: the line specialize rewrites"
_LOADED: dict[tuple[str, str, str], pytypes.ModuleType] = {}
_ORIGINS: dict[int, tuple[Kernels, tuple[str, str]]] = {}  # id(kernels) -> (kernels, where it is found)
WHAT = {"hot_template": ("the Game API's fast calls", 5), "batched_template": ("its batched kernels", 5),
        "template": ("alpha-beta and minimax", 25), "mcts_template": ("MCTS", 15),
        "guided_template": ("the network-guided search", 20), "vector_template": ("the vector env's step", 15)}
"""A template's file stem -> what its copy is, and about how many seconds its first
compile takes on an idle 2-core machine: the first-compile notice. Measured by `zerosum
warmup --tier generic` on an empty cache (2026-11-28, load 1-2), which prints each part's
time: alpha-beta 22.9 s, MCTS 12.6 s, the guided search 19.1 s, the vector step 14.4 s,
a game's batched kernels 1.9-6.5 s."""


def kernels_origin(kernels: Kernels) -> tuple[str, str]:
    """(module, attribute) under which a game's Kernels record can be imported: the module
    of its legal kernel, then the packages above it, then any loaded module. Found once a
    process for a record that is still there (every search call asks: the scan took ~80 us)."""
    hit = _ORIGINS.get(id(kernels))
    if hit is not None and hit[0] is kernels:
        module = sys.modules.get(hit[1][0])
        if module is not None and getattr(module, hit[1][1], None) is kernels:
            return hit[1]
    origin = _find_origin(kernels)
    _ORIGINS[id(kernels)] = (kernels, origin)
    return origin


def _find_origin(kernels: Kernels) -> tuple[str, str]:
    first = kernels.legal.py_func.__module__
    parts = first.split(".")
    candidates = [".".join(parts[:i]) for i in range(len(parts), 0, -1)]
    for module_name in [*candidates, *list(sys.modules)]:
        module = sys.modules.get(module_name)
        for attr, value in list(vars(module).items()) if module is not None else ():
            if value is kernels and not attr.startswith("__"):
                return module_name, attr
    raise KernelError(
        f"the kernels of {first} must be a module-level Kernels object (KERNELS = Kernels(...)) of an importable "
        f"module: {first}, the module of the legal kernel, or a package above it (docs/new-game.md puts it in the "
        "game package's __init__.py), so that compiled code can import them")


def _template_imports(source: str) -> list[str]:
    """The zerosum modules a template imports (imported now if need be: the copy will), the
    placeholder rules aside."""
    names = []
    for name in import_names("", source):
        if name.split(".")[0] != "zerosum" or name == "zerosum.games.kit.placeholder":
            continue
        try:
            importlib.import_module(name)
        except ImportError:
            continue  # a name imported from a module, not a module
        names.append(name)
    return names


def copy_source(template: Path, module_name: str, attr: str) -> tuple[str, str]:
    """The specialised copy's file stem (content hash included) and its source text."""
    text = template.read_text()
    if text.count(RULES_LINE) != 1:
        raise RuntimeError(f"{template} must hold the rules line exactly once: {RULES_LINE!r}")
    source = text.replace(RULES_LINE, f"from {module_name} import {attr} as _RULES  # specialised for {module_name}")
    digest = hashlib.sha256(source.encode())
    digest.update(numba.__version__.encode())
    deps = reachable_sources([module_name, *_template_imports(text)])
    for name in sorted(deps):
        digest.update(name.encode() + b"\0" + deps[name].encode())
    stem = f"{template.stem.strip('_')}_{module_name.replace('.', '_')}_{attr.lower()}"
    return f"{stem}_{digest.hexdigest()[:16]}", source


def specialize(template: Path, kernels: Kernels) -> pytypes.ModuleType:
    """The template compiled for ``kernels``' game (written, imported and cached on first use)."""
    module_name, attr = kernels_origin(kernels)
    key = (str(template), module_name, attr)
    mod = _LOADED.get(key)
    if mod is None:
        stem, source = copy_source(template, module_name, attr)
        what, seconds = WHAT.get(template.stem.strip("_"), (template.stem, 20))
        game = "every game" if module_name == "zerosum.games.kit.generic" else \
            module_name.removesuffix(".rules").removesuffix(".kernels").rpartition(".")[2]
        mod = _LOADED[key] = _load(stem, source, f"{what} for {game} (about {seconds} s on 2 cores)")
    return mod


def _load(stem: str, source: str, what: str) -> pytypes.ModuleType:
    guard_numba_cache()
    folder = writable_dir(cache_dir() / "compiled")
    path = folder / f"{stem}.py"
    if not path.exists():
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(source)
        os.replace(tmp, path)  # atomic: concurrent workers may write the same file
    if not numba_index_exists(folder, stem):
        notice(stem, f"compiling {what}, once: later runs load it from {folder}")
    spec = importlib.util.spec_from_file_location(f"zerosum_compiled_{stem}", path)
    if spec is None or spec.loader is None:  # pragma: no cover - a file we just wrote
        raise ImportError(f"cannot import the specialised copy {path}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def loaded(template: Path, module_name: str, attr: str) -> bool:
    """Whether this process has loaded the copy of ``template`` for the kernels ``module_name.attr``."""
    return (str(template), module_name, attr) in _LOADED


def compile_copy(argv: list[str]) -> None:
    """``python -m zerosum.games.kit.specialize TEMPLATE MODULE ATTR LOCK``: compile the copy
    of TEMPLATE for the kernels MODULE.ATTR into the disk cache, at low priority, then
    remove the file LOCK (the background compile of :mod:`zerosum.search.compiled`)."""
    template, module_name, attr, lock = argv
    try:
        os.nice(10)
        specialize(Path(template), getattr(importlib.import_module(module_name), attr))
    finally:
        Path(lock).unlink(missing_ok=True)


if __name__ == "__main__":
    compile_copy(sys.argv[1:])
