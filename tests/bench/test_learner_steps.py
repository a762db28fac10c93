"""bench/learner_steps.py: one row per recipe and thread count, timed on the recipe's own network
and batch; bad thread counts and unknown recipes are refused."""

from __future__ import annotations

import contextlib
import io
import json
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "learner_steps.py"

pytest.importorskip("torch")


def _run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def _refused(*args: str) -> tuple[int, str]:
    """The script run in this process with input it refuses before it times anything (a new
    interpreter would spend seconds importing torch for each): its exit status and stderr, as
    the interpreter would give them for the SystemExit it raises."""
    err, argv = io.StringIO(), sys.argv
    sys.argv = [str(SCRIPT), *args]
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            runpy.run_path(str(SCRIPT), run_name="__main__")
    except SystemExit as exc:
        if isinstance(exc.code, str):
            return 1, err.getvalue() + exc.code
        return (exc.code or 0), err.getvalue()
    finally:
        sys.argv = argv
    return 0, err.getvalue()


def test_a_row_per_thread_count_on_the_recipes_network():
    r = _run("--recipes", "az_tictactoe", "--threads", "1,2", "--steps", "2")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout.splitlines()[0])
    rows = doc["rows"]
    assert [row["threads"] for row in rows] == [1, 2]
    assert all(row["recipe"] == "az_tictactoe" and row["batch"] == 256 and row["ms_per_step"] > 0 for row in rows)
    # the row's speedup is rounded to 0.01: on a loaded machine two threads can run at a few hundredths
    # of one thread's speed, where that rounding is most of the value (0.03 for 0.0256 once)
    assert rows[0]["speedup"] == 1 and rows[1]["speedup"] == pytest.approx(rows[0]["ms_per_step"]
                                                                          / rows[1]["ms_per_step"], rel=0.1, abs=0.01)
    assert "hidden=[128, 128]" in rows[0]["net"] and {row["device"] for row in rows} == {"cpu"}


def test_bad_input_is_refused():
    code, err = _refused("--threads", "0")
    assert code != 0 and "--threads takes positive whole numbers" in err
    code, err = _refused("--recipes", "az_chess")
    assert code != 0 and "az_chess unknown; one of az_connect_four" in err
    code, err = _refused("--devices", "tpu")
    assert code != 0 and "--devices: device='tpu' is not allowed: 'cpu', 'cuda' or 'cuda:N'" in err
