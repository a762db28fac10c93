"""First use on a fresh machine: how long a new user waits, step by step (issue 46's table).

The package is copied to a temporary folder (so numba's caches next to its sources start
empty, as on a fresh install) and each step runs in a new process with a fresh
``ZEROSUM_CACHE_DIR``, in order, each on the caches the steps before it left:

1. ``import zerosum``;
2. a built-in env: ``env()``, ``reset``, one random game;
3. the first ``alphabeta(..., depth=4)``;
4. the first ``mcts(...)``;
5. the first ``make_vec(..., opponent="alphabeta(depth=2)")`` and 10 steps;
6. the first ``alphazero(path=zoo:connect_four, sims=64)`` move (Connect Four only; needs torch);
7. warm, in a new process: ``import zerosum`` and a first alpha-beta move.

With ``--then GAME``, the same steps follow for a second built-in game on the caches the
first left: what each further game costs once the code shared by every game is compiled.
Then the same for a game of one's own, docs/new-game.md's Hexapawn: importing it (its
kernels), the first env game, the first alpha-beta and MCTS searches. The load average is
printed with the times: on a machine busy with other work they grow with it.

    python bench/first_use.py [--game connect_four] [--then othello] [--no-user-game]

Prints one JSON document, then a table.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _report import emit, headline

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"import zerosum": 0.5, "env, reset, one random game": 2.0, "first alphabeta(depth=4)": 5.0,
           "first mcts": 5.0, "first make_vec(alphabeta) + 10 steps": 10.0, "first alphazero(zoo, sims=64) move": 10.0,
           "warm: import + first alphabeta move": 1.0}

STEP = {
    "import zerosum": "import zerosum",
    "env, reset, one random game": """
import numpy as np
import zerosum.envs
env = zerosum.envs.make(ENV)
env.reset(seed=0)
rng = np.random.default_rng(0)
for agent in env.agent_iter():
    obs, reward, term, trunc, info = env.last()
    env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
""",
    "first alphabeta(depth=4)": """
from zerosum.games import make_game
from zerosum.search import alphabeta
game = make_game(GAME)
alphabeta(game, game.initial_state(), depth=4)
""",
    "first mcts": """
from zerosum.games import make_game
from zerosum.search import mcts
game = make_game(GAME)
mcts(game, game.initial_state(), sims=200, seed=0)
""",
    "first make_vec(alphabeta) + 10 steps": """
import numpy as np
from zerosum.envs import make_vec
envs = make_vec(ENV, 64, opponent="alphabeta(depth=2)", seed=0)
envs.reset(seed=0)
for _ in range(10):
    envs.step(np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in envs.action_masks()]))
""",
    "first alphazero(zoo, sims=64) move": """
from zerosum.agents import make_agent
from zerosum.games import make_game
game = make_game(GAME)
agent = make_agent("alphazero(path=zoo:connect_four, sims=64)", 0)
agent.prepare(game)
agent.act(game, game.initial_state())
""",
    "warm: import + first alphabeta move": """
from zerosum.games import make_game
from zerosum.search import alphabeta
game = make_game(GAME)
alphabeta(game, game.initial_state(), depth=4)
""",
}
USER_STEPS = {
    "hexapawn: import (its kernels)": "import hexapawn",
    "hexapawn: env, reset, one random game": STEP["env, reset, one random game"].replace(
        "import zerosum.envs", "import hexapawn, zerosum.envs"),
    "hexapawn: first alphabeta(depth=4)": "import hexapawn\n" + STEP["first alphabeta(depth=4)"],
    "hexapawn: first mcts": "import hexapawn\n" + STEP["first mcts"],
}


def fresh_package(root: Path) -> Path:
    """A copy of the zerosum package under ``root`` without any compiled caches: a fresh install."""
    target = root / "site"
    shutil.copytree(ROOT / "zerosum", target / "zerosum",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    return target


def write_guide_package(root: Path) -> None:
    """docs/new-game.md's ``hexapawn/`` files under ``root``."""
    sys.path.insert(0, str(ROOT))
    from tests.test_new_game_guide import guide_blocks

    for block in guide_blocks():
        name = block.options.get("file", "")
        if name.startswith("hexapawn/"):
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(block.text)


def run_step(code: str, paths: list[Path], cache: Path, game: str, env_name: str) -> tuple[float, str]:
    """Wall seconds of ``code`` in a new Python process (interpreter start-up excluded), and its stderr."""
    script = (f"import time\nt0 = time.perf_counter()\nGAME, ENV = {game!r}, {env_name!r}\n{code}\n"
              "print('SECONDS', time.perf_counter() - t0)\n")
    env = {**os.environ, "ZEROSUM_CACHE_DIR": str(cache), "PYTHONPATH": os.pathsep.join(map(str, paths))}
    for name in ("ZEROSUM_TIER", "ZEROSUM_BACKGROUND_COMPILE", "ZEROSUM_QUIET"):  # as a user has it
        env.pop(name, None)
    proc = subprocess.run([sys.executable, "-c", script], env=env, cwd=paths[0], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"step failed:\n{code}\n{proc.stderr[-3000:]}")
    return float(proc.stdout.split("SECONDS")[-1]), proc.stderr


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="connect_four")
    p.add_argument("--then", default="", help="a second built-in game whose steps follow on the same caches")
    p.add_argument("--no-user-game", action="store_true", help="skip the Hexapawn steps")
    args = p.parse_args()
    from zerosum.games import GAMES  # the names only: no game is imported or compiled here

    for flag, name in (("--game", args.game), ("--then", args.then)):
        if name and name not in GAMES:
            p.error(f"{flag} {name!r} is not a built-in game: one of {sorted(GAMES)}")
    env_name = f"{args.game}_v0"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        site = fresh_package(Path(tmp))
        cache = Path(tmp) / "cache"
        steps = dict(STEP)
        if args.game != "connect_four":
            steps.pop("first alphazero(zoo, sims=64) move")
        try:
            import torch  # noqa: F401 - only whether it is installed
        except ImportError:
            steps.pop("first alphazero(zoo, sims=64) move", None)
        for name, code in steps.items():
            load = os.getloadavg()[0]
            seconds, err = run_step(code, [site], cache, args.game, env_name)
            said = [line for line in err.splitlines() if line.startswith("zerosum:")]
            rows.append({"step": name, "seconds": round(seconds, 2), "target s": TARGETS.get(name),
                         "load": round(load, 1), "notices": len(said)})
        cold = [r["seconds"] for r in rows if not r["step"].startswith(("warm", "import"))]
        rows.append({"step": "everything one game uses (the steps above)", "seconds": round(sum(cold), 2),
                     "target s": 20.0, "load": round(os.getloadavg()[0], 1)})
        if args.then:
            then = [name for name in steps if not name.startswith(("import", "first alphazero"))]
            for name in then:
                load = os.getloadavg()[0]
                seconds, err = run_step(STEP[name], [site], cache, args.then, f"{args.then}_v0")
                rows.append({"step": f"then {args.then}: {name}", "seconds": round(seconds, 2), "load": round(load, 1),
                             "notices": sum(line.startswith("zerosum:") for line in err.splitlines())})
        if not args.no_user_game:
            user = Path(tmp) / "user"
            user.mkdir()
            write_guide_package(user)
            user_cache = Path(tmp) / "user-cache"
            for name, code in USER_STEPS.items():
                load = os.getloadavg()[0]
                seconds, err = run_step(code, [user, site], user_cache, "hexapawn", "hexapawn_v0")
                rows.append({"step": name, "seconds": round(seconds, 2), "load": round(load, 1),
                             "notices": sum(line.startswith("zerosum:") for line in err.splitlines())})
    total = next(r for r in rows if r["step"].startswith("everything"))
    emit("first_use", rows, ["step", "seconds", "target s", "load", "notices"],
         {"game": args.game, "when": time.strftime("%Y-%m-%d %H:%M"),
          "headline": [headline(f"first use of {args.game}, everything, s", total["seconds"], None, "<= 20 s",
                                lower_is_better=True)]})
    print(json.dumps({"load_1min_end": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
