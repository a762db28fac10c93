"""Which tier of a compiled template a process runs: a game's own copy, or the copy for every game.

A template (:mod:`zerosum.games.kit.specialize`) compiled with a game's kernels inlined is
the fastest code, at the price of a compile per game (seconds to a minute, once: the
disk cache keeps it). Compiled over :mod:`zerosum.games.kit.generic` it serves every
game, the rules called through their addresses (about 1.6-1.8x slower searches). So:

* ``ZEROSUM_TIER=inline`` always takes (and if need be compiles) the game's own copy;
* ``ZEROSUM_TIER=generic`` always the copy for every game;
* ``auto`` (the default) takes the game's own copy when it is compiled already, in this
  process or in the disk cache, and otherwise the generic one, while a background process
  (at low priority, one at a time: a lock file in the cache) compiles the game's own copy
  for the processes that come later (``ZEROSUM_BACKGROUND_COMPILE=0``: none). A process
  decides once per game and template, so it never switches midway. So a long job (a
  tournament, an evaluation or a ladder build with :data:`LONG_JOB` games or more to play)
  run in ``auto`` runs in ``inline`` (:func:`for_job`): a compile of a minute at most, once,
  repaid many times over, where a job begun before the compile finished would play every
  game on the slower copy.

The Game API's hot calls (:mod:`zerosum.games.kit.hot`) and the searches
(:mod:`zerosum.search.compiled`) choose by :func:`use_generic`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from zerosum.games.kit.cache import cache_dir, notice, numba_index_exists
from zerosum.games.kit.kernels import Kernels
from zerosum.games.kit.specialize import copy_source, kernels_origin, loaded

TIERS = ("auto", "inline", "generic")
"""The values of ``ZEROSUM_TIER``: choose (the default), or always one tier."""
LONG_JOB = 1000
"""Games still to play from which a job in ``auto`` runs on the game's own copy (:func:`for_job`)."""
STALE_LOCK = 3600.0
"""Seconds after which a background compile's lock file is taken for one that died."""
_CHOSEN: dict[tuple[str, int], tuple[Kernels, bool]] = {}  # (template, id(kernels)) -> (kernels, generic?)


def tier() -> str:
    """The tier ``ZEROSUM_TIER`` asks for (``auto`` when unset); ValueError for another value."""
    value = os.environ.get("ZEROSUM_TIER", "") or "auto"
    if value not in TIERS:
        raise ValueError(f"ZEROSUM_TIER={value!r}: one of {', '.join(TIERS)}")
    return value


def copy_ready(template: Path, kernels: Kernels) -> bool:
    """Whether the copy of ``template`` for ``kernels`` is compiled: loaded in this process,
    or in the disk cache."""
    module_name, attr = kernels_origin(kernels)
    if loaded(template, module_name, attr):
        return True
    return numba_index_exists(cache_dir() / "compiled", copy_source(template, module_name, attr)[0])


def compile_in_background(template: Path, kernels: Kernels) -> bool:
    """Start a process that compiles the copy of ``template`` for ``kernels`` into the disk
    cache, at low priority, unless a background compile is under way already (one at a
    time for a cache folder, so that a tournament's workers do not start one each: a lock
    file, ``compiled/background.compiling``) or ``ZEROSUM_BACKGROUND_COMPILE=0``; True when
    one was started. A copy left uncompiled is started by a later process."""
    if os.environ.get("ZEROSUM_BACKGROUND_COMPILE", "1") in ("0", ""):
        return False
    module_name, attr = kernels_origin(kernels)
    lock = cache_dir() / "compiled" / "background.compiling"
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        if lock.exists() and time.time() - lock.stat().st_mtime > STALE_LOCK:
            lock.unlink()
        os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except OSError:  # one is at it already, or the cache cannot be written (then compiling there is pointless)
        return False
    env = {**os.environ, "ZEROSUM_QUIET": "1", "ZEROSUM_BACKGROUND_COMPILE": "0",
           "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    subprocess.Popen(
        [sys.executable, "-m", "zerosum.games.kit.specialize", str(template), module_name, attr, str(lock)],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    return True


def use_generic(template: Path, kernels: Kernels, what: str) -> bool:
    """Whether this process runs ``template``'s generic copy for the game of ``kernels``
    (``what`` names the two for the notice that a background compile started)."""
    chosen = tier()
    if chosen != "auto":
        return chosen == "generic"
    key = (str(template), id(kernels))
    hit = _CHOSEN.get(key)
    if hit is None or hit[0] is not kernels:
        generic = not copy_ready(template, kernels)
        if generic and compile_in_background(template, kernels):
            notice(f"background:{template}:{id(kernels)}",
                   f"{what}: the code compiled for every game serves this process, while the game's own, "
                   "faster copy compiles in the background for later runs")
        hit = _CHOSEN[key] = (kernels, generic)
    return hit[1]


@contextmanager
def forced(value: str) -> Iterator[None]:
    """Run the block, and the worker processes it starts, in the tier ``value`` (``ZEROSUM_TIER`` set
    for the block, restored after it, also on an error). A placement of a time-budgeted agent runs in
    ``inline``: a time budget's strength is the speed of the code it runs on."""
    if value not in TIERS:
        raise ValueError(f"tier {value!r}: one of {', '.join(TIERS)}")
    before = os.environ.get("ZEROSUM_TIER")
    os.environ["ZEROSUM_TIER"] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("ZEROSUM_TIER", None)
        else:
            os.environ["ZEROSUM_TIER"] = before


@contextmanager
def for_job(games: int) -> Iterator[bool]:
    """Run the block, a job with ``games`` games still to play, and the worker processes it starts: in
    ``inline`` when the tier is ``auto`` and ``games`` is :data:`LONG_JOB` or more (yields True, for the
    caller to say so), otherwise in the tier set (yields False). The moves are the same on either copy;
    only a time-budgeted agent's strength depends on the speed of the copy it runs on."""
    if tier() != "auto" or games < LONG_JOB:
        yield False
        return
    with forced("inline"):
        yield True


def job_note(games: int, game: str) -> str:
    """What a job says when :func:`for_job` runs its ``games`` games of ``game`` on the game's own copy."""
    return (f"{games} games to play: they run on {game}'s own compiled code, compiled first (once) if need be, "
            "not on the slower copy for every game (ZEROSUM_TIER chooses otherwise)")


__all__ = ["LONG_JOB", "STALE_LOCK", "TIERS", "compile_in_background", "copy_ready", "for_job", "forced", "job_note",
           "tier", "use_generic"]
