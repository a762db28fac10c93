"""Every module of zerosum imports without torch, stable-baselines3, sb3-contrib or ray: a plain
install and the site's build (`make docs`, the docs extra only) import them all. Checked in a fresh
interpreter whose import system refuses those packages and records who asked. The compiled templates
are read, not imported: imported themselves they compile for the placeholder game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import importlib, importlib.abc, json, pkgutil, sys, traceback

HEAVY = ("torch", "stable_baselines3", "sb3_contrib", "ray")
asked = []

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HEAVY:
            frames = [f for f in traceback.extract_stack() if "/zerosum/" in f.filename]
            asked.append(f"{name} from {frames[-1].filename}:{frames[-1].lineno}" if frames else name)
            raise ModuleNotFoundError(f"No module named {name!r} (refused by the test)", name=name)
        return None

sys.meta_path.insert(0, Refuse())
import ast, importlib.util
import zerosum
failed = {}
read = []
for info in pkgutil.walk_packages(zerosum.__path__, "zerosum."):
    if info.name.endswith("__main__"):
        continue
    if info.name.endswith("_template"):
        # a compiled template imported itself compiles its searches for the placeholder game (half
        # a minute on a cold cache), code nothing runs: its imports are read from its source instead
        origin = importlib.util.find_spec(info.name).origin
        for node in ast.walk(ast.parse(open(origin).read())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            asked += [f"{n} from {origin}:{node.lineno}" for n in names if n.split(".")[0] in HEAVY]
        read.append(info.name)
        continue
    try:
        importlib.import_module(info.name)
    except Exception as exc:
        failed[info.name] = f"{type(exc).__name__}: {exc}"
loaded = sorted(m for m in sys.modules if m.split(".")[0] in HEAVY)
print(json.dumps({"asked": asked, "failed": failed, "loaded": loaded, "read": read,
                  "modules": sorted(m for m in sys.modules if m.startswith("zerosum."))}))
"""


def test_every_module_imports_without_the_train_and_distributed_extras():
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    assert not out["asked"], f"modules import an optional extra when imported: {out['asked']}"
    assert not out["failed"], f"modules fail to import without torch/SB3/ray: {out['failed']}"
    assert not out["loaded"], out["loaded"]
    # the walk reached the modules the site's reference documents (docs/_gen/pages.py)
    for module in ("zerosum.agents.maskable_dqn", "zerosum.training.ppo.callbacks", "zerosum.training.ppo.train",
                   "zerosum.cli.train", "zerosum.evaluation.backends"):
        assert module in out["modules"], module
    # the templates were read, not imported (each specialised copy imports the same modules)
    assert {"zerosum.envs._vector_template", "zerosum.search._template", "zerosum.games.kit._hot_template"} <= set(
        out["read"]), out["read"]
