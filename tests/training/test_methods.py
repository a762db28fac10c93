"""The training methods behind one registry (zerosum.training.methods): the same surface each, the
CLI's flags built from their configs, one run-directory check, and a third method that is one
package and one registry line."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pytest

from zerosum.training import methods
from zerosum.training.options import Option, field_option
from zerosum.training.rundir import TrainingSetupError, check_out

SURFACE = ("LABEL", "ALGOS", "AGENT", "Config", "Result", "RECIPES", "RECIPE_NOTES", "recipe", "run")


@pytest.mark.parametrize("name", list(methods.METHODS))
def test_every_method_offers_the_same_surface(name):
    m = methods.method(name)
    for attr in SURFACE:
        assert hasattr(m, attr), f"{name} lacks {attr}"
    cfg = m.Config()
    assert cfg.algo in m.ALGOS and methods.for_algo(cfg.algo) is m
    assert set(cfg.RESUMABLE) and cfg.CHECKPOINT
    for recipe in m.RECIPES:
        assert methods.for_recipe(recipe) is m and m.recipe(recipe).algo in m.ALGOS
    for opt in m.Config.options():  # every setting is a flag with its docstring as its help
        assert opt.help and opt.flag.startswith("--"), opt


def test_the_cli_has_a_flag_for_every_setting_of_every_method():
    from zerosum.cli.train import parser

    text = parser().format_help()
    for m in methods.methods():
        for opt in m.Config.options():
            assert opt.flag in text, opt.flag


def test_another_methods_run_directory_is_never_resumed(tmp_path):
    from zerosum.training.alphazero import AlphaZeroConfig
    from zerosum.training.ppo import TrainConfig

    (tmp_path / "run.json").write_text(json.dumps({"settings": AlphaZeroConfig().settings()}))
    (tmp_path / "state.pt").write_bytes(b"")
    assert check_out(AlphaZeroConfig(), tmp_path, resume=True, overwrite=False)
    with pytest.raises(TrainingSetupError, match="holds a alphazero run, and this is a maskable_ppo run"):
        check_out(TrainConfig(), tmp_path, resume=True, overwrite=False)


# ---- a third method: one package, one registry line ------------------------------------------
@dataclass
class CountConfig:
    """A toy method's settings: it counts to ``steps``."""

    ALGOS: ClassVar[tuple[str, ...]] = ("count",)
    RESUMABLE: ClassVar[tuple[str, ...]] = ("out",)
    CHECKPOINT: ClassVar[str] = "count.json"

    game: str = "tictactoe"
    """Game name."""
    variant: dict[str, Any] = field(default_factory=dict)
    """The game's rule variant."""
    steps: int = 3
    """How far to count."""
    stride: int = 1
    """How much one step adds."""
    out: str | None = None
    """The run directory."""
    algo: str = "count"
    """Always ``count``."""

    @classmethod
    def options(cls) -> list[Option]:
        return [field_option(cls, f.name, f.name, "run") for f in dataclasses.fields(cls) if f.name != "algo"]

    def settings(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if k not in self.RESUMABLE}


@dataclass
class CountResult:
    total: int

    def summary(self) -> dict[str, Any]:
        return {"total": self.total}

    def report(self) -> list[str]:
        return [f"counted to {self.total}"]


def count_run(cfg: CountConfig, *, resume: bool = False, overwrite: bool = False) -> CountResult:
    if cfg.out:
        out = Path(cfg.out)
        check_out(cfg, out, resume=resume, overwrite=overwrite)
        out.mkdir(parents=True, exist_ok=True)
        (out / "run.json").write_text(json.dumps({"settings": cfg.settings()}))
        (out / "count.json").write_text("{}")
    return CountResult(cfg.steps * cfg.stride)


def test_a_third_method_is_one_package_and_one_registry_line(monkeypatch, tmp_path):
    from tests.inprocess import zerosum_train

    package = types.ModuleType("count_method")
    package.__dict__.update(LABEL="Count", ALGOS=("count",), AGENT="count", Config=CountConfig, Result=CountResult,
                            RECIPES={"count_far": {"game": "tictactoe", "steps": 10}}, RECIPE_NOTES={},
                            recipe=lambda name, **kw: CountConfig(**{"steps": 10, **kw}), run=count_run)
    monkeypatch.setitem(sys.modules, "count_method", package)
    monkeypatch.setitem(methods.METHODS, "count", "count_method")  # the one line
    r = zerosum_train("--algo", "count", "--steps", "4", "--stride", "3", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"total": 12}
    r = zerosum_train("--recipe", "count_far", "--out", "c", cwd=tmp_path)
    assert r.returncode == 0 and "counted to 10" in r.stdout, r.stderr
    r = zerosum_train("--algo", "count", "--sims", "4", cwd=tmp_path)
    assert r.returncode == 2 and "--sims: AlphaZero options" in r.stderr
    r = zerosum_train("--stride", "2", "--out", "p", cwd=tmp_path)
    assert r.returncode == 2 and "--stride: Count options" in r.stderr
    r = zerosum_train("--algo", "alphazero", "--out", "c", "--resume", cwd=tmp_path)
    assert r.returncode == 2 and "holds a count run, and this is a alphazero run" in r.stderr


def test_alphazero_imports_nothing_of_stable_baselines3(tmp_path):
    code = ("import sys\n"
            "from zerosum.training.alphazero import AlphaZeroConfig, train_alphazero\n"
            "train_alphazero(AlphaZeroConfig(net={'kind': 'mlp', 'hidden': [8]}, labels=20, label_depth=2,\n"
            "    label_steps=1, iterations=0, eval_games=2, eval_opponents=['random'], tensorboard=False, out=None))\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('stable_baselines3', 'sb3_contrib')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, cwd=tmp_path,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
