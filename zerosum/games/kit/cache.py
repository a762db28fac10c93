"""Where zerosum keeps compiled code, what it says when it compiles, and what happens when
the disk cache cannot serve.

Two disk caches hold compiled code: numba's own, next to each source file (a kernel's, in
its package's ``__pycache__``; numba moves it to ``~/.cache/numba`` where the package is
read-only), and zerosum's, :func:`cache_dir`, which holds the per-game copies of the
compiled templates (:mod:`zerosum.games.kit.specialize`) with numba's code for them beside.
Both are keyed by the content of every source the code depends on, so a stale entry is
never used. What this module adds:

* **A notice.** A compile that will take more than a moment (a game's rules, a search
  specialised to a game) prints one line on stderr first, once per process and part,
  naming the game and about how long it takes, so that a first call is not taken for a
  hang. A warm cache prints nothing.
* **Fallbacks, never a crash.** A cache directory that cannot be written (read-only,
  full) makes the process compile in memory (a private temporary folder it removes at
  exit), with one :class:`CompileCacheWarning`. A cache entry that cannot be read (a
  truncated or corrupt file, an entry naming a module that no longer exists) is removed
  and compiled again, with one warning. numba itself would raise in both cases; the
  guard (:func:`guard_numba_cache`) wraps its cache's load and save for the whole process.
* Processes that compile the same code at once (test workers, tournament workers) each
  write whole files under temporary names and rename them into place, so each ends with
  a correct cache: the copies here and numba's index and data files alike.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import sys
import tempfile
import threading
import warnings
from pathlib import Path
from typing import Any


class CompileCacheWarning(UserWarning):
    """The disk cache of compiled code could not be used as it is (the message says why
    and what zerosum does instead: compile in memory, or compile an entry again)."""


_LOCK = threading.Lock()
_SAID: set[str] = set()  # the notices and warnings given in this process, by key
_PRIVATE: list[Path] = []  # the in-memory fallback folder, made on first need


def cache_dir() -> Path:
    """Where the specialised copies and their compiled code live: ``$ZEROSUM_CACHE_DIR``,
    else ``$XDG_CACHE_HOME/zerosum``, else ``~/.cache/zerosum``."""
    root = os.environ.get("ZEROSUM_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "zerosum")
    return Path(root)


def _first(key: str) -> bool:
    with _LOCK:
        if key in _SAID:
            return False
        _SAID.add(key)
        return True


def warn_once(key: str, message: str) -> None:
    """A :class:`CompileCacheWarning` with ``message``, the first time ``key`` is given in
    this process."""
    if _first("warn:" + key):
        warnings.warn(message, CompileCacheWarning, stacklevel=3)


def notice(key: str, message: str) -> None:
    """``zerosum: message`` on stderr, the first time ``key`` is given in this process
    (unless ``ZEROSUM_QUIET`` is set to a non-empty value other than 0)."""
    if os.environ.get("ZEROSUM_QUIET", "0") not in ("", "0") or not _first("notice:" + key):
        return
    print(f"zerosum: {message}", file=sys.stderr, flush=True)


def private_dir() -> Path:
    """A folder of this process's own, removed at exit: where code is compiled when the
    cache directory cannot be written."""
    with _LOCK:
        if not _PRIVATE:
            path = Path(tempfile.mkdtemp(prefix="zerosum-compiled-"))
            atexit.register(shutil.rmtree, path, True)
            _PRIVATE.append(path)
        return _PRIVATE[0]


def writable_dir(path: Path) -> Path:
    """``path`` (made if need be) when this process can write files there, else the
    private in-memory folder, with one warning that says why."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".probe-{os.getpid()}-{threading.get_ident()}"
        probe.write_bytes(b"")
        probe.unlink()
        return path
    except OSError as exc:
        warn_once("write:" + str(path), (
            f"cannot write zerosum's compile cache at {path} ({exc.strerror or exc}): compiling in memory "
            "for this process only, so the next one compiles again. Set ZEROSUM_CACHE_DIR to a writable "
            "folder to keep the compiled code."))
        return private_dir()


def numba_index_exists(folder: Path, stem: str) -> bool:
    """Whether numba has cached anything for the module file ``folder/stem.py`` (its index
    files sit in ``folder/__pycache__``): False means its first import compiles."""
    pycache = folder / "__pycache__"
    return pycache.is_dir() and any(pycache.glob(f"{stem}.*.nbi"))


def guard_numba_cache() -> None:
    """Make numba's disk cache fail soft, for this whole process (once): an entry that
    cannot be loaded is removed and compiled again, and one that cannot be saved stays in
    memory, each with one :class:`CompileCacheWarning`, where numba would raise."""
    from numba.core import caching

    cache_cls: Any = caching.Cache
    if getattr(cache_cls, "_zerosum_guarded", False):
        return
    load, save = cache_cls.load_overload, cache_cls.save_overload

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        try:
            return load(self, sig, target_context)
        except Exception as exc:  # noqa: BLE001 - any unreadable entry (pickle, EOF, a missing module) is a miss
            index = Path(self._cache_file._index_path)
            with contextlib.suppress(OSError):
                index.unlink()  # so that the entry compiled now is saved in its place
            warn_once("load:" + str(index), (
                f"a compiled-code cache entry could not be read ({type(exc).__name__}: {exc}); it was removed "
                f"and is compiled again: {index}"))
            return None

    def save_overload(self: Any, sig: Any, data: Any) -> None:
        try:
            save(self, sig, data)
        except OSError as exc:
            warn_once("save:" + str(self._cache_path), (
                f"cannot save compiled code in {self._cache_path} ({exc.strerror or exc}): it stays in memory "
                "for this process only"))

    cache_cls.load_overload, cache_cls.save_overload = load_overload, save_overload
    cache_cls._zerosum_guarded = True
