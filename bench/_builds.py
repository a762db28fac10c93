"""Build an earlier commit of this repository into a temporary directory, to measure it
side by side with the working tree in one run (``vs_previous.py``, ``vs_release.py``).

The commit is exported with ``git archive`` (no work tree of ours is touched), its C
module is built in place with this interpreter, and it runs with its own numba cache
directory, so its compiled code never mixes with ours. Nothing is downloaded: the same
installed packages serve both.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RELEASE = "3a3ba33"  # zerosum 0.1.0


def build_commit(rev: str, root: Path | None = None) -> Path:
    """Export ``rev`` into a directory (under ``root``, default a new temporary one) and build
    its C module; returns the directory to put first on PYTHONPATH."""
    sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=REPO, check=True, capture_output=True,
                         text=True).stdout.strip()
    base = Path(root or tempfile.mkdtemp(prefix="zerosum-build-"))
    dest = base / f"zerosum-{sha}"
    if not (dest / ".built").exists():
        dest.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", "--format=tar", sha], cwd=REPO, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=dest, check=True,
                       capture_output=True)
        (dest / ".built").write_text(sha)
    return dest


def environment(tree: Path) -> dict[str, str]:
    """The environment that makes ``tree``'s zerosum the one imported, with its own caches."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)
    env["ZEROSUM_CACHE_DIR"] = str(tree / ".zerosum-cache")
    env["NUMBA_CACHE_DIR"] = str(tree / ".numba-cache")
    return env
