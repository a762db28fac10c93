"""state.pt is versioned: a run written by zerosum 0.2.0 (no version) resumes, and a state this
zerosum cannot read is refused with a message that says why, before anything is written."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from zerosum.training.alphazero import STATE_VERSION, RunState
from zerosum.training.rundir import TrainingSetupError

PATH = Path("runs/x/state.pt")


def _v020(**changes):
    """The dict zerosum 0.2.0 wrote (before ``version``; a run from before ladder rounds lacks the last two)."""
    st = {"net": {}, "opt": {}, "learner_steps": 7, "buffer": {"size": 0}, "rng": np.random.default_rng(0),
          "iteration": 3, "games": 12, "seconds": 4.5, "best": None, "last_eval": {"rows": []}, "labelled": True,
          "ladder_rounds": 2, "annealed": True}
    st.update(changes)
    return st


def test_a_0_2_0_state_reads_with_its_fields():
    st = RunState.from_dict(_v020(), PATH)
    assert (st.learner_steps, st.iteration, st.games, st.seconds, st.labelled, st.ladder_rounds, st.annealed) == (
        7, 3, 12, 4.5, True, 2, True)
    older = _v020()
    del older["ladder_rounds"], older["annealed"]
    st = RunState.from_dict(older, PATH)
    assert st.ladder_rounds == 0 and st.annealed is False


def test_the_state_written_is_the_same_dict_with_its_version():
    d = RunState.from_dict(_v020(), PATH).to_dict()
    assert d["version"] == STATE_VERSION and set(d) == set(_v020()) | {"version"}
    assert RunState.from_dict(d, PATH).iteration == 3


@pytest.mark.parametrize(("state", "message"), [
    (_v020(version=STATE_VERSION + 1), f"reads versions 1 to {STATE_VERSION}"),
    ({k: v for k, v in _v020().items() if k != "buffer"}, "lacks buffer"),
    ([1, 2], "holds a list, not a run state"),
])
def test_a_state_this_zerosum_cannot_resume_is_refused_saying_why(state, message):
    with pytest.raises(TrainingSetupError, match=message) as info:
        RunState.from_dict(state, PATH)
    assert str(PATH) in str(info.value)


def test_resuming_a_run_whose_state_is_too_new_writes_nothing(tmp_path):
    torch = pytest.importorskip("torch")
    from zerosum.training.alphazero import AlphaZeroConfig, train_alphazero

    cfg = AlphaZeroConfig(game="tictactoe", net={"kind": "mlp", "hidden": [8]}, iterations=1, eval_games=2,
                          eval_opponents=["random"], tensorboard=False, out=str(tmp_path / "run"))
    run = tmp_path / "run"
    run.mkdir()
    import json

    (run / "run.json").write_text(json.dumps({"settings": cfg.settings(), "algo": "alphazero"}))
    torch.save(_v020(version=STATE_VERSION + 1), run / "state.pt")
    before = {p.name: p.stat().st_mtime_ns for p in run.iterdir()}
    with pytest.raises(TrainingSetupError, match="a newer zerosum wrote it"):
        train_alphazero(cfg, resume=True)
    assert {p.name: p.stat().st_mtime_ns for p in run.iterdir()} == before


def test_the_config_module_shows_the_groups_and_the_flat_names():
    import doctest

    from zerosum.training.alphazero import config

    assert doctest.testmod(config).failed == 0
