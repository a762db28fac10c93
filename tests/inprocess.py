"""`zerosum ...` run inside the test's own process: ``zerosum.cli.main(argv)`` with its output
captured, in place of a new interpreter.

A subprocess pays for a new interpreter and its imports at every call: torch, and torch's
compiler stack, which the first optimizer a process makes imports (about 8 s together on the
2-core machine). Here a test worker pays them once. The command line is the same code either
way; a run that must be killed (SIGKILL and resume) or that starts Ray keeps its subprocess.
"""

from __future__ import annotations

import contextlib
import io
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Completed:
    """What a command gave, as ``subprocess.run(..., capture_output=True, text=True)`` names it."""

    returncode: int
    stdout: str
    stderr: str


def run_zerosum(*args: str, cwd: Path | str) -> Completed:
    """``zerosum ARGS...`` run in ``cwd`` (the working directory is restored after); an
    exception the command does not turn into an exit code propagates, with its traceback."""
    from zerosum.cli import main

    out, err = io.StringIO(), io.StringIO()
    before = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as exc:  # argparse's --help and usage errors
                code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    finally:
        os.chdir(before)
    return Completed(code, out.getvalue(), err.getvalue())


def zerosum_train(*args: str, cwd: Path | str) -> Completed:
    """``zerosum train ARGS...`` in this process (see :func:`run_zerosum`)."""
    return run_zerosum("train", *args, cwd=cwd)
