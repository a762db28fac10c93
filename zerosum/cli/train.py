"""``zerosum train``: train a learner against search opponents and save a checkpoint.

    zerosum train --game tictactoe --opponent random --steps 50000 --algo maskable_ppo --out runs/ttt
    zerosum train --recipe tictactoe --out runs/ttt
    zerosum train --game pentago --curriculum "random; alphabeta(depth=1); alphabeta(depth=2)" --out runs/pentago
    zerosum train --game tictactoe --self-play --steps 200000 --out runs/ttt_sp
    zerosum train --game nim --variant misere=true piles=3,4,5 --algo ppo --out runs/nim
    zerosum train --algo alphazero --recipe az_tictactoe --out runs/az_ttt --seed 0 -v
    zerosum train --algo alphazero --recipe az_connect_four --out runs/az_c4 --backend ray

Options left out keep the recipe's (or the default) value. The checkpoint is written to
OUT/model.zip with OUT/model.json, the best periodic evaluation's to OUT/best.zip (model.json
says which evaluation picked it); tournaments load one as ``ppo(path=OUT/best.zip)``. A
directory already holding a run is refused unless --resume (same settings) or --overwrite.
With -v a progress line every 15 s: steps, steps/s, the opponent mix, the outcomes per seat
and the latest evaluation; curves in OUT/progress.csv and OUT/eval.csv (and TensorBoard
files with --tensorboard).

With --algo alphazero (the az_* recipes) the run is AlphaZero's (zerosum.training.alphazero):
self-play on the batched search in a worker process (or Ray actors), the learner here;
OUT/model.pt and OUT/best.pt with their .json sidecars, OUT/state.pt for --resume,
progress.csv, eval.csv, score.png. --labels-from FILE ... trains on labels made before
(a labels file, or a run's state.pt): with --iterations 0 --final-steps N, a network trained
on another run's labels alone.

The options are every training method's settings (zerosum.training.methods), grouped by method
and stage (the group's title says which methods read them); each one's help is its setting's
docstring. An option given to a run of a method that does not read it is refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from zerosum.cli.common import Parser, UsageError, build_game, run_command

S = argparse.SUPPRESS
METAVARS = {"int": "N", "float": "X", "str": "TEXT", "specs": "SPECS", "spec_or_specs": "SPECS", "ints": "N1,N2",
            "floats": "X1,X2", "widths": "W1,W2", "assignments": "KEY=VALUE", "files": "FILE"}
"""What the help shows for an option's value, by its kind (:data:`zerosum.training.options.KINDS`)."""


def _an(label: str) -> str:
    return ("an " if label[:1].lower() in "aeiou" else "a ") + label


def flags() -> dict[str, list[tuple[Any, Any]]]:
    """Every option of every method by its flag: ``[(method, option), ...]`` (a flag that several
    methods read appears once for each)."""
    from zerosum.training.methods import methods

    found: dict[str, list[tuple[Any, Any]]] = {}
    for m in methods():
        for opt in m.Config.options():
            found.setdefault(opt.flag, []).append((m, opt))
    return found


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``zerosum train``: the flags of every method's settings (every option
    defaults to the recipe's value, else the config's)."""
    from zerosum.training.methods import algos, all_recipes, describe_recipes, methods

    p = Parser(prog="zerosum train", description=__doc__, argument_default=S,
               epilog="recipes (--recipe NAME):\n" + describe_recipes())
    p.add_argument("--recipe", metavar="NAME",
                   help=f"start from a named recipe's settings: {', '.join(sorted(all_recipes()))}")
    p.add_argument("--algo", choices=algos(),
                   help="the algorithm, and so the method: " + "; ".join(
                       f"{m.LABEL}: {', '.join(m.ALGOS)}" for m in methods()) + f" (default {algos()[0]})")
    p.add_argument("--resume", action="store_true", help="continue the run in --out (same settings)")
    p.add_argument("--overwrite", action="store_true", help="replace the run already in --out")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    every = len(methods())
    groups: dict[tuple[str, str], Any] = {}
    for flag, owners in flags().items():
        opt = owners[0][1]
        actions = {o.action for _, o in owners}
        if len(actions) > 1:
            raise TypeError(f"{flag}: the methods read it in different ways ({', '.join(sorted(actions))})")
        owner = "" if len(owners) == every else ", ".join(o.LABEL for o, _ in owners)
        if (owner, opt.group) not in groups:
            groups[(owner, opt.group)] = p.add_argument_group(f"{owner or 'every method'}: {opt.group}")
        group = groups[(owner, opt.group)]
        text = opt.help.replace("%", "%%")  # the group's title says which methods read it
        if opt.action == "bool":
            group.add_argument(flag, dest=opt.name, action=argparse.BooleanOptionalAction, help=text)
        elif opt.action == "count":
            group.add_argument("-" + opt.name[0], flag, dest=opt.name, action="count", help=text)
        elif opt.action == "many":
            group.add_argument(flag, dest=opt.name, action="extend", nargs="+", metavar=METAVARS[opt.kind],
                               help=text)
        else:
            plain_choices = {tuple(o.choices) for _, o in owners}
            choices = opt.choices if len(plain_choices) == 1 and all(isinstance(c, str) for c in opt.choices) else None
            group.add_argument(flag, dest=opt.name, choices=choices or None,
                               metavar=None if choices else METAVARS[opt.kind], help=text)
    return p


def method_of(name: str | None, algo: str | None) -> Any:
    """The method a run is for: its recipe's, its ``--algo``'s (they must agree), else the default."""
    from zerosum.training.methods import for_algo, for_recipe, methods

    try:
        by_recipe = for_recipe(name) if name is not None else None
        by_algo = for_algo(algo) if algo is not None else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if by_recipe is not None and by_algo is not None and by_recipe is not by_algo:
        raise UsageError(f"recipe {name!r} is {_an(by_recipe.LABEL)} recipe, not {_an(by_algo.LABEL)} one: give "
                         f"--algo {by_recipe.ALGOS[0]} (or leave --algo out), not --algo {algo}; "
                         f"{by_algo.LABEL} recipes: {', '.join(sorted(by_algo.RECIPES)) or 'none'}")
    return by_recipe or by_algo or methods()[0]


def config_from_args(ns: argparse.Namespace) -> Any:
    """The config of the method the parsed options name (its recipe's, or ``--algo``'s), each value
    read by its setting's kind; UsageError for an option the method does not read."""
    from zerosum.training.options import OptionError, read_option

    args = vars(ns).copy()
    for flag in ("json", "resume", "overwrite"):
        args.pop(flag, None)
    name, algo = args.pop("recipe", None), args.pop("algo", None)
    m = method_of(name, algo)
    options = {opt.name: opt for opt in m.Config.options()}
    foreign: dict[str, list[str]] = {}
    for key in args:
        if key not in options:
            owners = [o.LABEL for o, _ in flags()["--" + key.replace("_", "-")]]
            foreign.setdefault(" or ".join(owners), []).append("--" + key.replace("_", "-"))
    if foreign:
        raise UsageError("; ".join(f"{', '.join(sorted(fl))}: {label} options" for label, fl in foreign.items())
                         + f"; {m.LABEL} ({'--algo ' + algo if algo else 'this run'}) does not read them")
    settings: dict[str, Any] = {}
    try:  # whole settings first, then the options that set one key of a dict setting
        for opt in sorted((options[k] for k in args), key=lambda o: bool(o.into)):
            value = read_option(opt, args[opt.name])
            if opt.into:
                settings[opt.into] = {**settings.get(opt.into, {}), opt.key: value}
            else:
                settings[opt.name] = value
    except OptionError as exc:
        raise UsageError(str(exc)) from None
    if algo is not None:
        settings["algo"] = algo
    try:
        return m.recipe(name, **settings) if name is not None else m.Config(**settings)
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from None


def _checked_variant(game: str, variant: dict[str, Any]) -> dict[str, Any]:
    """The variant checked against the game (or env) before torch loads, read as the game reads it."""
    from zerosum.games.registry import ENVS

    built = build_game(ENVS[game][1] if game in ENVS else game, variant)
    return {k: built.variant[k] for k in variant}


def train_main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``zerosum train``; returns the exit code (1: a missing extra, 2: bad input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    from zerosum.agents.learned import MissingExtraError

    def body() -> int:
        try:
            return _run(parser().parse_args(argv))
        except MissingExtraError as exc:
            print(f"zerosum train: {exc}", file=sys.stderr)
            return 1

    return run_command("zerosum train", body)


def _run(ns: argparse.Namespace) -> int:
    import dataclasses

    from zerosum.training.methods import for_algo

    cfg = config_from_args(ns)
    cfg = dataclasses.replace(cfg, variant=_checked_variant(cfg.game, cfg.variant))
    result = for_algo(cfg.algo).run(cfg, resume=bool(getattr(ns, "resume", False)),
                                    overwrite=bool(getattr(ns, "overwrite", False)))
    if getattr(ns, "json", False):
        print(json.dumps(result.summary()))
    else:
        print("\n".join(result.report()))
    return 0


main = train_main

__all__ = ["config_from_args", "flags", "method_of", "parser", "train_main"]
