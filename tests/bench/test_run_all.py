"""bench/run_all.py: every script in bench/ is run by ``make bench`` (or ``make bench FULL=1``), and
each prints one JSON document that run_all reads."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _run_all():
    spec = importlib.util.spec_from_file_location("run_all", BENCH / "run_all.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_benchmark_is_listed_and_every_listed_one_exists():
    listed = {script for script, *_ in _run_all().SCRIPTS}
    scripts = {p.name for p in BENCH.glob("*.py") if not p.name.startswith("_") and p.name != "run_all.py"}
    assert scripts - listed == set(), f"benchmarks make bench never runs: {sorted(scripts - listed)}"
    assert listed - scripts == set(), f"run_all lists missing scripts: {sorted(listed - scripts)}"


def test_the_full_settings_run_every_script_and_the_quick_ones_most():
    rows = _run_all().SCRIPTS
    assert all(isinstance(full, list) and limit > 0 for _, _, full, limit in rows)
    quick = {script for script, q, _, _ in rows if q is not None}
    assert {"search.py", "alphazero.py", "guided.py", "vector.py", "first_use.py"} <= quick


def test_the_first_json_document_is_read_past_a_scripts_progress_lines():
    doc = _run_all().first_json('compiling...\n{"rows": [{"a": 1}]}\n| a |\n')
    assert doc == {"rows": [{"a": 1}]}
