"""`make docs`: the site built with ``mkdocs build --strict``, and a record of what it was built from.

A build that passes (exit status 0 and no ``WARNING`` line) writes ``SITE/.inputs``: a digest of
every file the site is made from (the docs, the package's sources, mkdocs.yml, the README,
the CHANGELOG, ...) and of the versions of Python and the site's tools. tests/docs/test_site.py
checks the site ``make docs`` built when that digest is still the current one, instead of
building the same site a second time; any edit to an input, or another tool version, and it
builds its own.

``python docs/_gen/build.py [SITE_DIR]`` (default ``site``), from anywhere.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STAMP = ".inputs"
"""The file in the site folder that holds the digest of its inputs."""
INPUT_FILES = ("mkdocs.yml", "README.md", "CHANGELOG.md", "pyproject.toml", "setup.py")
INPUT_DIRS = ("docs", "zerosum", "bench", "experiments", "configs")
SKIPPED_SUFFIXES = (".pyc", ".nbi", ".nbc", ".so", ".tmp")
TOOLS = ("mkdocs", "mkdocs-material", "mkdocstrings", "mkdocstrings-python", "mkdocs-gen-files", "griffe", "ruff",
         "numpy", "numba", "matplotlib", "pillow")


def inputs_digest(root: Path = ROOT) -> str:
    """A digest of the site's inputs under ``root``: each file's path and bytes, and the
    versions of Python and of the tools that build and draw it."""
    h = hashlib.sha256()
    paths = [root / name for name in INPUT_FILES if (root / name).is_file()]
    for folder in INPUT_DIRS:
        for dirpath, dirnames, filenames in os.walk(root / folder):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
            paths += [Path(dirpath) / f for f in sorted(filenames) if not f.endswith(SKIPPED_SUFFIXES)]
    for path in paths:
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    h.update(sys.version.encode())
    for tool in TOOLS:
        try:
            h.update(f"{tool}={metadata.version(tool)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{tool}=none".encode())
    return h.hexdigest()


def is_current(site: Path, root: Path = ROOT) -> bool:
    """Whether ``site`` holds a passing build of the inputs as they are now."""
    stamp = site / STAMP
    return stamp.is_file() and stamp.read_text().strip() == inputs_digest(root)


def passed(done: subprocess.CompletedProcess[str]) -> bool:
    """Whether a build passed: exit status 0 and no ``WARNING`` line."""
    return done.returncode == 0 and "WARNING" not in done.stderr


def build(site: Path, root: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` into ``site`` (its output captured); the digest is written
    only when it passed: exit status 0 and no ``WARNING`` line."""
    digest = inputs_digest(root)  # before the build: an edit during it leaves the site unstamped
    (site / STAMP).unlink(missing_ok=True)
    env = os.environ | {"NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true",
                        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)], cwd=root,
                          env=env, capture_output=True, text=True, timeout=1200, check=False)
    if passed(done):
        (site / STAMP).write_text(digest + "\n")
    return done


def main(argv: list[str]) -> int:
    site = Path(argv[0]).resolve() if argv else ROOT / "site"
    done = build(site)
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    if passed(done):
        return 0
    if done.returncode == 0:
        sys.stderr.write("make docs: the build printed a WARNING (above)\n")
        return 1
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
