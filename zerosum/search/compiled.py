"""The search kernels of :mod:`zerosum.search._template`, specialised for one game and cached.

``for_game(game)`` returns a module holding ``negamax``, ``minimax``, ``mcts`` and
``random_playouts`` compiled with that game's rules called directly. The module is a copy
of the template whose first import names the game's kernel module; its file name carries
a hash of the template, the game's source, the rules base and numba's version, so an
edit to any of them gives a new file and a fresh compile, and numba's on-disk cache of an
unchanged copy is never stale. The copies live in ``$ZEROSUM_CACHE_DIR`` (default
``~/.cache/zerosum``), so installed, read-only packages work too.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import numba

from zerosum.games.base import Game, Kernels

_TEMPLATE = Path(__file__).with_name("_template.py")
_GAME_LINE = "from zerosum.games.tictactoe import KERNELS as _RULES  # GAME: the line compiled.py rewrites"
_LOADED: dict[str, ModuleType] = {}


def cache_dir() -> Path:
    """Where the specialised copies and their compiled code live."""
    root = os.environ.get("ZEROSUM_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "zerosum")
    return Path(root) / "search"


def kernels_origin(kernels: Kernels) -> tuple[str, str]:
    """(module, attribute) under which a game's Kernels object can be imported."""
    module_name = kernels.legal.py_func.__module__
    module = sys.modules[module_name]
    for attr, value in vars(module).items():
        if value is kernels:
            return module_name, attr
    raise ValueError(
        f"the kernels of {module_name} must be a module-level Kernels object (e.g. KERNELS = Kernels(...)) "
        "so that the compiled search can import them")


def for_game(game: Game) -> ModuleType:
    """The compiled search kernels for ``game``'s rules (built and compiled on first use)."""
    module_name, attr = kernels_origin(game.kernels)
    key = f"{module_name}:{attr}"
    mod = _LOADED.get(key)
    if mod is None:
        mod = _LOADED[key] = _load(module_name, attr)
    return mod


def copy_source(module_name: str, attr: str) -> tuple[str, str]:
    """The specialised copy's file stem (content hash included) and its source text."""
    template = _TEMPLATE.read_text()
    if _GAME_LINE not in template:
        raise RuntimeError("zerosum/search/_template.py lost its GAME line")
    source = template.replace(_GAME_LINE, f"from {module_name} import {attr} as _RULES  # generated for {module_name}")
    digest = hashlib.sha256()
    deps = (module_name, "zerosum.games.base", "zerosum.search._flags", "zerosum.search.result")
    for part in (source, numba.__version__, *(_source_of(m) for m in deps)):
        digest.update(part.encode())
    return f"{module_name.replace('.', '_')}_{attr.lower()}_{digest.hexdigest()[:16]}", source


def _load(module_name: str, attr: str) -> ModuleType:
    stem, source = copy_source(module_name, attr)
    path = cache_dir() / f"{stem}.py"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(source)
        os.replace(tmp, path)  # atomic: concurrent workers may write the same file
    spec = importlib.util.spec_from_file_location(f"zerosum_search_{stem}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def _source_of(module_name: str) -> str:
    module = sys.modules.get(module_name) or importlib.import_module(module_name)
    file = getattr(module, "__file__", None)
    return Path(file).read_text() if file else module_name
