"""Cold and warm compile times of a game of one's own: docs/new-game.md's Hexapawn.

The guide's package is written to a fresh temporary directory and each step runs in a new
process with a fresh ``ZEROSUM_CACHE_DIR``, so nothing is cached: importing the package
(numba compiles the kernels), building the game (the kit specialises and compiles the Game
API's hot calls), the first alpha-beta search and the first MCTS search (each compiles
the search specialised to the game). Then the same steps again in another process, which
loads all of it from the disk caches. Times are wall seconds of each step; on a loaded
machine they grow with the load (printed next to them).

Prints one JSON document, then a table. ``python bench/cold_compile.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _report import emit, headline

ROOT = Path(__file__).resolve().parents[1]
STEPS = """
import json, time
t = time.perf_counter(); out = {}
import hexapawn
out["import (kernels)"] = time.perf_counter() - t; t = time.perf_counter()
from zerosum.games import make_game
game = make_game("hexapawn")
out["make_game (hot calls)"] = time.perf_counter() - t; t = time.perf_counter()
from zerosum.search import alphabeta, mcts
alphabeta(game, game.initial_state(), depth=2)
out["first alphabeta"] = time.perf_counter() - t; t = time.perf_counter()
mcts(game, game.initial_state(), sims=10, seed=0)
out["first mcts"] = time.perf_counter() - t
print(json.dumps(out))
"""


def write_guide_package(root: Path) -> None:
    """The guide's ``hexapawn/`` files under ``root``."""
    sys.path.insert(0, str(ROOT))
    from tests.test_new_game_guide import guide_blocks

    for block in guide_blocks():
        name = block.options.get("file", "")
        if name.startswith("hexapawn/"):
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(block.text)


def run_steps(root: Path, cache: Path) -> dict[str, float]:
    """The step times of one fresh process (the caches under ``root`` and ``cache``)."""
    env = {**os.environ, "ZEROSUM_CACHE_DIR": str(cache), "PYTHONPATH": os.pathsep.join([str(root), str(ROOT)])}
    out = subprocess.run([sys.executable, "-c", STEPS], env=env, cwd=root, capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root, cache = Path(tmp) / "pkg", Path(tmp) / "cache"
        root.mkdir()
        write_guide_package(root)
        load_before = os.getloadavg()[0]
        cold = run_steps(root, cache)
        warm = run_steps(root, cache)
        load_after = os.getloadavg()[0]
    rows = [{"step": k, "cold s": cold[k], "warm s": warm[k]} for k in cold]
    rows.append({"step": "total", "cold s": sum(cold.values()), "warm s": sum(warm.values())})
    emit("cold_compile", rows, ["step", "cold s", "warm s"],
         {"load_1min": [load_before, load_after],
          "headline": [headline("hexapawn cold start to a first search, s", rows[-1]["cold s"], None, "",
                                lower_is_better=True)]})


if __name__ == "__main__":
    main()
