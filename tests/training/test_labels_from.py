"""``--labels-from FILE ...``: an AlphaZero run trains on labels made before (a labels file, or a
run's state.pt), every position once, then keeps them in its buffer (what bench/labels_only.py did)."""

from __future__ import annotations

import json

import pytest

from zerosum.games import make_game
from zerosum.training.alphazero import AlphaZeroConfig, label_dataset, read_labels, save_dataset, train_alphazero
from zerosum.training.rundir import TrainingSetupError

torch = pytest.importorskip("torch")

TINY = {"net": {"kind": "mlp", "hidden": [16]}, "eval_games": 2, "eval_opponents": ["random"], "tensorboard": False,
        "iterations": 0}


@pytest.fixture(scope="module")
def labels(tmp_path_factory):
    path = tmp_path_factory.mktemp("labels") / "ttt.npz"
    save_dataset(path, label_dataset(make_game("tictactoe"), 30, depth=9, seed=1))
    return path


def test_a_run_trains_on_a_labels_file_alone_then_anneals(tmp_path, labels):
    cfg = AlphaZeroConfig(game="tictactoe", labels_from=[str(labels)], label_steps=4, final_steps=3,
                          out=str(tmp_path / "run"), **TINY)
    result = train_alphazero(cfg)
    st = torch.load(tmp_path / "run" / "state.pt", weights_only=False)
    assert st["buffer"]["size"] == 30 and st["learner_steps"] == 4 + 3 and st["labelled"] and st["annealed"]
    assert result.best and result.best["annealed"]
    saved = json.loads((tmp_path / "run" / "run.json").read_text())["settings"]
    assert saved["labels_from"] == [str(labels)]


def test_a_runs_state_is_read_as_its_labels_oldest_first(tmp_path, labels):
    first = tmp_path / "first"
    train_alphazero(AlphaZeroConfig(game="tictactoe", labels_from=[str(labels)], label_steps=1, label_depth=9,
                                    out=str(first), **TINY))  # a run's labels are read as labelled at its depth
    again = read_labels([str(first / "state.pt"), str(labels)], make_game("tictactoe"))
    direct = read_labels([str(labels)], make_game("tictactoe"))
    assert len(again) == 60 and (again.obs[:30] == direct.obs).all() and (again.policy[30:] == direct.policy).all()
    assert again.meta["depth"] == direct.meta["depth"] == 9


def test_labels_of_another_game_are_refused_before_anything_is_written(tmp_path, labels):
    cfg = AlphaZeroConfig(game="connect_four", labels_from=[str(labels)], label_steps=1, out=str(tmp_path / "run"),
                          **TINY)
    with pytest.raises(TrainingSetupError, match="labels for tictactoe"):
        train_alphazero(cfg)
    assert not (tmp_path / "run").exists()
    with pytest.raises(ValueError, match="labels_from needs label_steps > 0 or final_steps > 0"):
        AlphaZeroConfig(labels_from=[str(labels)], iterations=0)


def test_the_cli_reads_the_files_into_the_teacher(labels):
    from zerosum.cli.train import config_from_args, parser

    ns = parser().parse_args(["--algo", "alphazero", "--labels-from", str(labels), str(labels), "--label-steps", "2",
                              "--iterations", "0", "--log-every", "5"])
    cfg = config_from_args(ns)
    assert cfg.teacher.files == [str(labels), str(labels)] and cfg.teacher.steps == 2


def test_labels_made_unlike_are_not_joined(tmp_path, labels):
    from zerosum.training.alphazero import DatasetError

    shallow = save_dataset(tmp_path / "d2.npz", label_dataset(make_game("tictactoe"), 5, depth=2, seed=1))
    with pytest.raises(DatasetError, match="only labels made alike"):
        read_labels([str(labels), str(shallow)], make_game("tictactoe"))
