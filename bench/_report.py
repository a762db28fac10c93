"""Shared output for bench scripts: one JSON document plus a short table.

Importing it also makes the benchmark measure each game's own compiled copies of the
searches (``ZEROSUM_TIER=inline``, compiled first if need be), not the copy shared by every
game that a process uses until those are compiled (zerosum.games.kit.tiers), unless the
caller set ``ZEROSUM_TIER`` itself.
"""

from __future__ import annotations

import json
import os
import platform
import sys
from typing import Any

os.environ.setdefault("ZEROSUM_TIER", "inline")

import numpy as np


def machine() -> dict[str, Any]:
    """Where the figures were taken."""
    return {"python": platform.python_version(), "cpus": os.cpu_count(), "numpy": np.__version__}


def headline(what: str, ours: float, peer: float | None = None, target: str = "",
             lower_is_better: bool = False) -> dict[str, Any]:
    """A summary entry for bench/run_all.py: ours, the peer's figure, the target, and the
    ratio, always as "times better than the peer" (peer/ours for times, ours/peer for rates)."""
    ratio = (peer / ours if lower_is_better else ours / peer) if peer and ours else None
    return {"what": what, "ours": ours, "peer": peer, "ratio": ratio, "target": target}


def emit(name: str, rows: list[dict[str, Any]], columns: list[str], extra: dict[str, Any] | None = None) -> None:
    """Print the rows as JSON (one line, machine-readable) and then as a table.

    ``extra`` may hold a ``headline`` list built with :func:`headline`.
    """
    doc = {"benchmark": name, "machine": machine(), "rows": rows, **(extra or {})}
    print(json.dumps(doc, default=float))
    table(rows, columns)


def table(rows: list[dict[str, Any]], columns: list[str]) -> None:
    """Print the rows as a plain table, one column per name (nothing for no rows)."""
    if not rows:
        return
    widths = [max(len(c), *(len(_fmt(r.get(c))) for r in rows)) for c in columns]
    print()
    print("  ".join(c.ljust(w) for c, w in zip(columns, widths)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(_fmt(r.get(c)).ljust(w) for c, w in zip(columns, widths)))
    sys.stdout.flush()


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:,.3g}" if abs(v) < 1000 else f"{v:,.0f}"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)
