"""What worker processes import before they play: the modules the caller imported for
registration and the module of the game, and the errors that name what was missing."""

from __future__ import annotations

import pytest

from zerosum.evaluation import backends
from zerosum.evaluation.worker_imports import WorkerImportError, worker_imports
from zerosum.games import GAMES, registry


def _payload(game: str, **extra):
    return {"game": game, "variant": {}, "names": [], "specs": [], **extra}


def test_workers_import_the_callers_modules_and_the_games_module(monkeypatch):
    monkeypatch.setattr(registry, "IMPORTED", ["json"])
    monkeypatch.setitem(GAMES, "shifter", "tests.games.shifter:Shifter")
    assert worker_imports(_payload("shifter")) == ("json", "tests.games.shifter")
    assert worker_imports(_payload("tictactoe")) == ("json",)  # zerosum's own games need no import


def test_import_modules_records_what_it_imported(monkeypatch):
    monkeypatch.setattr(registry, "IMPORTED", [])
    registry.import_modules(["json", "json"])
    assert registry.IMPORTED == ["json"]
    with pytest.raises(ImportError):
        registry.import_modules(["no_such_module_here"])
    assert registry.IMPORTED == ["json"]


def test_a_worker_says_which_module_it_could_not_import():
    with pytest.raises(WorkerImportError, match=r"could not import 'no_such_module_here'.*ModuleNotFoundError"):
        backends._game(_payload("tictactoe", imports=("no_such_module_here",)))


def test_a_worker_that_cannot_find_the_game_says_where_the_caller_had_it():
    with pytest.raises(WorkerImportError, match=r"unknown game 'no_such_game' in a worker process .*it imported "
                                                r"\['json'\]; the calling process has it from 'my_games'"):
        backends._game(_payload("no_such_game", imports=("json",), game_module="my_games"))
    with pytest.raises(WorkerImportError, match=r"from its script \(__main__\), which a worker cannot import"):
        backends._game(_payload("no_such_game", game_module="__main__"))
