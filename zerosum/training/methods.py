"""The training methods, one package each, behind one table (:data:`METHODS`).

>>> from zerosum.training.methods import for_algo, method
>>> method("alphazero").LABEL, for_algo("maskable_dqn").LABEL
('AlphaZero', 'PPO')

Every method's package offers the same small surface (:class:`Method`):

* ``Config``: a dataclass of everything a run depends on, each setting with a flat name (the
  CLI's flag, the recipes' key, run.json's key) and a docstring (the flag's ``--help``);
  ``Config.options()`` lists them, ``Config(**flat)`` builds one;
* ``run(cfg, *, resume=False, overwrite=False) -> Result``, where ``Result.summary()`` is the
  JSON summary and ``Result.report()`` the lines ``zerosum train`` prints;
* ``RECIPES`` (name -> flat settings), ``RECIPE_NOTES`` (a line each) and ``recipe(name, **overrides)``;
* ``ALGOS`` (the ``--algo`` values it trains), ``LABEL`` (its name in messages) and ``AGENT``
  (the agent kind its checkpoints play as: ``ppo(path=...)``, ``alphazero(path=...)``).

The config classes carry what the one run-directory check needs
(:func:`zerosum.training.rundir.check_out`): ``RESUMABLE`` (the settings a resumed run may
change) and ``CHECKPOINT`` (the file a run needs to be resumed).

A third method is one new package with these names and one line in :data:`METHODS`;
``zerosum train`` builds its flags from the new config and routes ``--algo`` to it.
Importing this module imports no method: each is imported when first asked for.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

METHODS: dict[str, str] = {
    "ppo": "zerosum.training.ppo",
    "alphazero": "zerosum.training.alphazero",
}
"""Method name -> its package; the first is the default (``zerosum train`` without ``--algo``)."""


class Method(Protocol):
    """What a method's package offers (see the module docstring)."""

    LABEL: str
    """The method's name in messages."""
    ALGOS: tuple[str, ...]
    """The ``--algo`` values it trains."""
    AGENT: str
    """The agent kind that plays its checkpoints (``ppo``, ``alphazero``)."""
    Config: Any
    """The dataclass of everything a run depends on, each setting with a flat name."""
    Result: Any
    """What ``run`` returns: ``summary()`` (JSON) and ``report()`` (the lines ``zerosum train`` prints)."""
    RECIPES: dict[str, dict[str, Any]]
    """Recipe name -> its flat settings."""
    RECIPE_NOTES: dict[str, str]
    """Recipe name -> a line saying what it trains."""

    def recipe(self, name: str, **overrides: Any) -> Any:
        """The config of recipe ``name`` with ``overrides`` (flat names)."""
        ...

    def run(self, cfg: Any, *, resume: bool = False, overwrite: bool = False) -> Any:
        """Train (or resume) one run."""
        ...


def method(name: str) -> Method:
    """The package of method ``name`` (ValueError naming the methods for another name)."""
    if name not in METHODS:
        raise ValueError(f"unknown training method {name!r}; methods: {', '.join(METHODS)}")
    module: Method = importlib.import_module(METHODS[name])
    return module


def methods() -> list[Method]:
    """Every method's package, in :data:`METHODS`' order."""
    return [method(name) for name in METHODS]


def algos() -> list[str]:
    """Every ``--algo`` value, the default first."""
    return [a for m in methods() for a in m.ALGOS]


def for_algo(algo: str) -> Method:
    """The method that trains ``algo`` (ValueError naming the algorithms for another)."""
    for m in methods():
        if algo in m.ALGOS:
            return m
    raise ValueError(f"algo={algo!r} is not allowed: one of {', '.join(algos())}")


def all_recipes() -> dict[str, Method]:
    """Every recipe's name -> the method it belongs to."""
    return {name: m for m in methods() for name in m.RECIPES}


def for_recipe(name: str) -> Method:
    """The method recipe ``name`` belongs to (ValueError listing every recipe for an unknown one)."""
    found = all_recipes()
    if name not in found:
        raise ValueError(f"unknown recipe {name!r}; available: {', '.join(sorted(found))}")
    return found[name]


def describe_recipes() -> str:
    """One line per recipe, every method's, sorted: its name and what it trains (``zerosum train --help``)."""
    notes = {name: m.RECIPE_NOTES.get(name, m.RECIPES[name]["game"]) for m in methods() for name in m.RECIPES}
    return "\n".join(f"  {name:<20} {notes[name]}" for name in sorted(notes))


def recipe_base(table: dict[str, dict[str, Any]], name: str, overrides: dict[str, Any],
                kind: str = "") -> dict[str, Any]:
    """The fields of recipe ``name`` in ``table`` (a method's ``RECIPES``: ``kind`` names it in the
    error); ValueError for an unknown name or an override of the recipe's game (an env name such
    as ``tictactoe_v0`` is read as its game)."""
    from zerosum.games.registry import ENVS, env_game

    try:
        base = table[name]
    except KeyError:
        raise ValueError(f"unknown {kind}recipe {name!r}; available: {', '.join(sorted(table))}") from None
    asked = overrides.get("game", base["game"])
    asked = env_game(asked) if asked in ENVS else asked
    if asked != base["game"]:
        theirs = ", ".join(sorted(n for n, r in table.items() if r["game"] == asked)) or "none yet"
        raise ValueError(f"recipe {name!r} trains {base['game']}, not {asked}; drop --game or pick a {asked} "
                         f"recipe ({theirs})")
    return base


__all__ = ["METHODS", "Method", "algos", "all_recipes", "describe_recipes", "for_algo", "for_recipe", "method",
           "methods", "recipe_base"]
