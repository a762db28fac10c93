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
on another run's labels alone. Options marked [az] are AlphaZero's only, [ppo] PPO's only.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from zerosum.agents.learned import ALGOS, OBS_FORMATS
from zerosum.cli.common import VARIANT_HELP, Parser, UsageError, build_game, parse_variant, run_command
from zerosum.values import ValueSyntaxError, parse_assignments, parse_value, split_top_level

S = argparse.SUPPRESS


def _specs(text: str) -> list[str]:
    specs = split_top_level(text)
    if not specs:
        raise argparse.ArgumentTypeError(f"no agent spec in {text!r}")
    return specs


def _numbers(kind: type, what: str) -> Any:
    """An argparse type: a list of ``kind`` in the value grammar (``64,64`` or ``[64, 64]``)."""
    def read(text: str) -> list[Any]:
        try:
            value = parse_value(text)
        except ValueSyntaxError as exc:
            raise argparse.ArgumentTypeError(f"{what} {text!r}: {exc}") from None
        items = list(value) if isinstance(value, tuple) else [value]
        if not items or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in items):
            raise argparse.ArgumentTypeError(f"{what} {text!r}: give numbers such as 64,64")
        return [kind(x) for x in items]
    return read


def _seat(text: str) -> int | str:
    if text in ("0", "1"):
        return int(text)
    if text in ("alternate", "random"):
        return text
    raise argparse.ArgumentTypeError(f"seat {text!r} is not allowed: 0, 1, alternate or random")


def _arch(text: str) -> tuple[int, ...]:
    arch = tuple(_numbers(int, "net arch")(text))
    if min(arch) < 1:
        raise argparse.ArgumentTypeError(f"net arch {text!r}: give layer widths such as 64,64")
    return arch


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``zerosum train`` (every option defaults to the recipe's value)."""
    from zerosum.training.alphazero import AZ_RECIPES
    from zerosum.training.recipes import RECIPES, describe_recipes

    p = Parser(prog="zerosum train", description=__doc__, argument_default=S,
               epilog="recipes (--recipe NAME):\n" + describe_recipes())
    p.add_argument("--recipe", metavar="NAME",
                   help=f"start from a named recipe's settings: {', '.join(sorted([*RECIPES, *AZ_RECIPES]))}")
    p.add_argument("--game", help="game or env name (tictactoe, nim, pentago, tictactoe_v0, ...); default tictactoe")
    p.add_argument("--variant", action="extend", nargs="+", metavar="KEY=VALUE", help=VARIANT_HELP)
    p.add_argument("--opponent", type=_specs, metavar="SPECS",
                   help="the opponent's agent spec, e.g. random or 'alphabeta(depth=2)'; several (';'): a mixture")
    p.add_argument("--opponent-priority", choices=("learnable", "hard"),
                   help="a mixture's (or self-play pool's) weights follow the learner's scores: "
                        "learnable s(1-s), hard (1-s)^2")
    p.add_argument("--curriculum", type=_specs, metavar="SPECS",
                   help="opponents in order, separated by ';' or commas outside parentheses")
    p.add_argument("--threshold", type=float, help="curriculum: advance at this win rate (default 0.8)")
    p.add_argument("--window", type=int, help="curriculum: over this many episodes (default 500)")
    p.add_argument("--curriculum-metric", choices=("win", "score"), help="count wins only, or draws as half")
    p.add_argument("--self-play", action="store_true", help="play frozen snapshots of the learner")
    p.add_argument("--pool-size", type=int, help="self-play: snapshots kept (default 10)")
    p.add_argument("--snapshot-every", type=int, help="self-play: steps between snapshots (default 20000)")
    p.add_argument("--base-prob", type=float, help="self-play: chance of the fixed opponent instead (default 0.2)")
    p.add_argument("--algo", choices=(*ALGOS, "alphazero"),
                   help="default maskable_ppo (alphazero: the az_* recipes' search-based training)")
    p.add_argument("--steps", type=int, help="learner steps (default 50000)")
    p.add_argument("--max-seconds", type=float,
                   help="stop after this much training time (evaluation excluded); [az] wall time: a ladder "
                        "round or iteration is started only if one as long as the last would end within it")
    p.add_argument("--opponent-weights", type=_numbers(float, "weights"), metavar="W1,W2",
                   help="weights of a mixture of opponents given to --opponent")
    p.add_argument("--n-envs", type=int, help="vectorised envs (default 8)")
    p.add_argument("--vec", choices=("dummy", "subproc", "zerosum"),
                   help="dummy: in-process single-agent envs; subproc: one process each; zerosum: one compiled "
                        "vector env (default: the recipe's, else dummy)")
    p.add_argument("--seat", type=_seat, help="0, 1, alternate (default) or random")
    p.add_argument("--obs-format", choices=OBS_FORMATS, help="flat (default) or dict")
    p.add_argument("--illegal-penalty", type=float, help="reward of an illegal action without masks (default -1)")
    p.add_argument("--net-arch", type=_arch, help="hidden layer widths, e.g. 64,64")
    p.add_argument("--activation", choices=("tanh", "relu"), help="hidden layers' activation (default tanh)")
    p.add_argument("--lr", type=float, help="learning rate")
    p.add_argument("--n-steps", type=int, help="PPO: steps per env per rollout")
    p.add_argument("--batch-size", type=int, help="minibatch size")
    p.add_argument("--n-epochs", type=int, help="PPO: epochs per rollout")
    p.add_argument("--ent-coef", type=float, help="PPO: entropy bonus")
    p.add_argument("--gamma", type=float, help="discount")
    p.add_argument("--algo-kwarg", action="extend", nargs="+", metavar="KEY=VALUE",
                   help="any other SB3 arguments of the algorithm, KEY=VALUE ... (values as for --variant)")
    p.add_argument("--random-opening", type=float, metavar="P",
                   help="chance that a training game starts with one random ply (default 0)")
    p.add_argument("--symmetry", action=argparse.BooleanOptionalAction,
                   help="show each episode under a random symmetry of the board (tic-tac-toe, Connect Four, Pentago)")
    p.add_argument("--lr-schedule", choices=("constant", "linear"), help="learning rate: constant or decaying to 0")
    p.add_argument("--seed", type=int, help="default 0")
    p.add_argument("--threads", type=int, help="torch threads (default 1: fastest for tiny nets on 2 cores)")
    p.add_argument("--eval-every", type=int, help="steps between evaluations (0: only at the end)")
    p.add_argument("--eval-opponents", type=_specs, metavar="SPECS", help="opponents to evaluate against")
    p.add_argument("--eval-games", type=int, help="evaluation games per opponent and seat (default 50)")
    p.add_argument("--eval-openings", type=_numbers(int, "openings"), metavar="K1,K2",
                   help="evaluate from these numbers of random opening plies (default 0)")
    p.add_argument("--eval-exhaustive", action=argparse.BooleanOptionalAction,
                   help="small games: also walk every opponent move against the policy (0 lines lost: it never loses)")
    p.add_argument("--exploiter", type=float, metavar="W",
                   help="with --eval-exhaustive: mixture weight of an opponent that plays into the lines "
                        "last found lost")
    p.add_argument("--keep-best", action=argparse.BooleanOptionalAction,
                   help="save best.zip at the best periodic evaluation (default on)")
    p.add_argument("--save-every", type=int, help="steps between periodic checkpoints (0: none)")
    p.add_argument("--out", help="output directory (default runs/train)")
    p.add_argument("--resume", action="store_true", help="continue the run in --out (same settings) up to --steps")
    p.add_argument("--overwrite", action="store_true", help="replace the run already in --out")
    p.add_argument("--tensorboard", action=argparse.BooleanOptionalAction,
                   help="write TensorBoard curves to OUT/tb (default: when tensorboard is installed)")
    p.add_argument("--log-every", type=float, metavar="SECONDS", help="seconds between progress lines with -v")
    p.add_argument("--iterations", type=int, help="[az] self-play + learning iterations")
    p.add_argument("--sims", type=int, help="[az] simulations per recorded self-play move")
    p.add_argument("--rule", choices=("puct", "gumbel"), help="[az] the search's root rule")
    p.add_argument("--games-per-iteration", type=int, help="[az] self-play games per iteration")
    p.add_argument("--net", action="extend", nargs="+", metavar="KEY=VALUE",
                   help="[az] the network, e.g. kind=resnet blocks=2 channels=32, or kind=mlp hidden=64,64")
    p.add_argument("--labels", type=int, help="[az] positions labelled by alpha-beta before self-play (0: none)")
    p.add_argument("--label-depth", type=int, help="[az] the labels' alpha-beta depth")
    p.add_argument("--label-steps", type=int, help="[az] learner steps on the labels before self-play")
    p.add_argument("--labels-from", nargs="+", metavar="FILE",
                   help="[az] train on labels made before: labels files (.npz) or runs' state.pt, joined in order "
                        "(--label-steps steps on them first, then --final-steps on the whole buffer)")
    p.add_argument("--label-quiescence", action=argparse.BooleanOptionalAction,
                   help="[az] labels follow forcing moves past --label-depth (the engine's quiescence)")
    p.add_argument("--label-fast-wins", action=argparse.BooleanOptionalAction,
                   help="[az] labels prefer the nearest proven win instead of sharing among all winning moves")
    p.add_argument("--ladder-rounds", type=int,
                   help="[az] rounds before self-play: the network plays the ladder, alpha-beta labels what it met")
    p.add_argument("--ladder-games", type=int, help="[az] games of one ladder round")
    p.add_argument("--ladder-steps", type=int, help="[az] learner steps after each ladder round")
    p.add_argument("--ladder-opponents", type=_specs, metavar="SPECS",
                   help="[az] the ladder rounds' opponents, in turn (default: --eval-opponents)")
    p.add_argument("--final-steps", type=int,
                   help="[az] learner steps at the end, the learning rate annealed to 0 (resuming a run adds them)")
    p.add_argument("--final-fresh", action=argparse.BooleanOptionalAction,
                   help="[az] the final steps train the run's initial weights afresh on the whole buffer")
    p.add_argument("--learner-threads", type=int,
                   help="[az] torch threads of the learner's steps while the workers wait (default 1)")
    p.add_argument("--train-steps", type=int, help="[az] learner steps per iteration")
    p.add_argument("--buffer-size", type=int, help="[az] replay buffer: the last this many positions")
    p.add_argument("--full-search-prob", type=float,
                   help="[az] playout-cap randomisation: chance of a full, recorded search (1: off)")
    p.add_argument("--backend", choices=("local", "ray"), help="[az] self-play in a local process or Ray actors")
    p.add_argument("--workers", type=int, help="[az] self-play workers (default 1)")
    p.add_argument("--device", help="torch device of the learning: cpu (default), cuda or cuda:N "
                                    "(with --algo alphazero, the learner's steps; the games play on the CPU)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("-v", "--verbose", action="count", help="-v: progress lines; -vv: SB3's log too")
    return p


_ALGO_FLAGS = {"lr": "learning_rate", "n_steps": "n_steps", "batch_size": "batch_size", "n_epochs": "n_epochs",
               "ent_coef": "ent_coef", "gamma": "gamma"}


AZ_ONLY = ("iterations", "sims", "rule", "games_per_iteration", "net", "labels", "label_depth", "label_steps",
           "label_quiescence", "label_fast_wins", "ladder_rounds", "ladder_games", "ladder_steps", "ladder_opponents",
           "final_steps", "final_fresh", "learner_threads", "train_steps", "buffer_size", "full_search_prob", "backend",
           "workers", "labels_from")
"""Options only an AlphaZero run reads."""
AZ_SHARED = ("game", "variant", "seed", "out", "max_seconds", "tensorboard", "verbose", "symmetry", "lr",
             "batch_size", "eval_every", "eval_opponents", "eval_games", "eval_exhaustive", "eval_openings",
             "log_every", "algo", "device")
"""Options both kinds of run read (the rest are PPO's only)."""


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def az_config_from_args(args: dict[str, Any], name: str | None) -> Any:
    """The AlphaZeroConfig of ``--algo alphazero`` (or an az_* recipe) and the other options."""
    from zerosum.training.alphazero import AZ_RECIPES, AlphaZeroConfig, az_recipe
    from zerosum.training.recipes import RECIPES

    if args.get("algo", "alphazero") != "alphazero":
        raise UsageError(f"recipe {name!r} is an AlphaZero recipe: give --algo alphazero (or leave --algo out), "
                         f"not --algo {args['algo']}")
    if name is not None and name not in AZ_RECIPES:
        raise UsageError(f"recipe {name!r} is a {RECIPES[name].get('algo', 'maskable_ppo')} recipe, not an AlphaZero "
                         f"one; AlphaZero recipes: {', '.join(sorted(AZ_RECIPES))}")
    ppo_only = sorted(k for k in args if k not in AZ_ONLY and k not in AZ_SHARED)
    if ppo_only:
        raise UsageError(f"{', '.join(_flag(k) for k in ppo_only)}: PPO options; --algo alphazero does not read "
                         f"them (its own: {', '.join(_flag(k) for k in AZ_ONLY)})")
    args.pop("algo", None)
    args.pop("log_every", None)  # an AlphaZero run logs a line per round and iteration with -v
    if "game" in args:
        from zerosum.games.registry import ENVS

        args["game"] = ENVS[args["game"]][1] if args["game"] in ENVS else args["game"]
        if name is not None and args["game"] != AZ_RECIPES[name]["game"]:
            theirs = ", ".join(sorted(n for n, r in AZ_RECIPES.items() if r["game"] == args["game"])) or "none yet"
            raise UsageError(f"recipe {name!r} trains {AZ_RECIPES[name]['game']}, not {args['game']}; drop --game "
                             f"or pick a {args['game']} recipe ({theirs})")
    try:
        if "net" in args:
            net = parse_assignments(args.pop("net"), "--net")
            args["net"] = {k: list(v) if isinstance(v, tuple) else v for k, v in net.items()}
            if isinstance(args["net"].get("hidden"), int):  # hidden=64: one layer
                args["net"]["hidden"] = [args["net"]["hidden"]]
        if "variant" in args:
            args["variant"] = parse_variant(args["variant"])
    except ValueSyntaxError as exc:
        raise UsageError(str(exc)) from None
    for key in ("eval_opponents", "ladder_opponents", "labels_from"):
        if key in args:
            args[key] = list(args[key])
    if "eval_openings" in args:
        if len(args["eval_openings"]) != 1:
            raise UsageError(f"--eval-openings {args['eval_openings']}: --algo alphazero takes one number of plies")
        args["eval_openings"] = args["eval_openings"][0]
    try:
        return az_recipe(name, **args) if name else AlphaZeroConfig(**args)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def config_from_args(ns: argparse.Namespace) -> Any:
    """The TrainConfig (or AlphaZeroConfig) the parsed options describe."""
    from zerosum.training.alphazero import AZ_RECIPES
    from zerosum.training.recipes import RECIPES, recipe
    from zerosum.training.config import TrainConfig

    args = vars(ns).copy()
    name = args.pop("recipe", None)
    for flag in ("json", "resume", "overwrite"):
        args.pop(flag, None)
    if name is not None and name not in RECIPES and name not in AZ_RECIPES:
        raise UsageError(f"unknown recipe {name!r}; available: {', '.join(sorted([*RECIPES, *AZ_RECIPES]))}")
    if args.get("algo") == "alphazero" or name in AZ_RECIPES:
        return az_config_from_args(args, name)
    az_only = sorted(k for k in args if k in AZ_ONLY)
    if az_only:
        raise UsageError(f"{', '.join(_flag(k) for k in az_only)}: AlphaZero options; give --algo alphazero "
                         "(or an az_* recipe) to use them")
    if name is not None and "game" in args:
        from zerosum.games.registry import ENVS

        asked = ENVS[args["game"]][1] if args["game"] in ENVS else args["game"]
        if asked != RECIPES[name]["game"]:
            theirs = ", ".join(sorted(n for n, r in RECIPES.items() if r["game"] == asked)) or "none yet"
            raise UsageError(f"recipe {name!r} trains {RECIPES[name]['game']}, not {asked}; drop --game or pick a "
                             f"{asked} recipe ({theirs})")
    try:
        algo_kwargs = parse_assignments(args.pop("algo_kwarg", []), "--algo-kwarg")
    except ValueSyntaxError as exc:
        raise UsageError(str(exc)) from None
    for flag, key in _ALGO_FLAGS.items():
        if flag in args:
            algo_kwargs[key] = args.pop(flag)
    if algo_kwargs:
        args["algo_kwargs"] = algo_kwargs
    if "variant" in args:
        args["variant"] = parse_variant(args["variant"])
    if "opponent" in args and len(args["opponent"]) == 1:
        args["opponent"] = args["opponent"][0]
    if "self_play" in args:
        args["self_play"] = True
    return recipe(name, **args) if name else TrainConfig(**args)


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

    as_json = getattr(ns, "json", False)
    cfg = config_from_args(ns)
    cfg = dataclasses.replace(cfg, variant=_checked_variant(cfg.game, cfg.variant))
    if getattr(cfg, "algo", None) == "alphazero":
        return _run_alphazero(cfg, ns, as_json)
    from zerosum.training.train import train

    try:
        result = train(cfg, resume=bool(getattr(ns, "resume", False)), overwrite=bool(getattr(ns, "overwrite", False)))
    except TypeError as exc:  # a bad --algo-kwarg reaches SB3's constructor
        raise UsageError(str(exc)) from None
    summary = {"checkpoint": str(result.checkpoint) if result.checkpoint else None, "steps": result.steps,
               "seconds": round(result.seconds, 2), "steps_per_second": round(result.steps_per_second),
               "eval_seconds": round(result.eval_seconds, 2), "training_outcomes": result.outcomes,
               "final_eval": result.metadata.get("eval", []), "best": result.metadata.get("best")}
    if as_json:
        print(json.dumps(summary))
        return 0
    print(f"trained {cfg.algo} on {cfg.game} for {result.steps} steps in {result.seconds:.1f} s "
          f"({result.steps_per_second:,.0f} steps/s; evaluation {result.eval_seconds:.1f} s more)")
    for row in summary["final_eval"]:
        print(f"  vs {row['opponent']:<24} seat {row['seat']}: {row['wins']} won, {row['draws']} drawn, "
              f"{row['losses']} lost of {row['games']}")
    if result.checkpoint:
        print(f"checkpoint: {result.checkpoint}  (play it as \"ppo(path={result.checkpoint})\")")
        best = result.metadata.get("best")
        if best:
            lines = f"{best['lines_lost']} of {best['lines']} lines lost against every opponent move, " \
                if "lines_lost" in best else ""
            print(f"best: {result.checkpoint.with_name('best.zip')}  (evaluation at {best['steps']:,} steps: {lines}"
                  f"{best['losses']} lost of {best['games']} games, mean score {best['score']:.3f})")
    return 0


def _run_alphazero(cfg: Any, ns: argparse.Namespace, as_json: bool) -> int:
    from zerosum.training.alphazero import train_alphazero

    result = train_alphazero(cfg, resume=bool(getattr(ns, "resume", False)),
                             overwrite=bool(getattr(ns, "overwrite", False)))
    best = result.best or {}
    summary = {"out": str(result.out) if result.out else None, "iterations": result.iterations,
               "games": result.games, "seconds": round(result.seconds, 1),
               "last_eval": (result.last_eval or {}).get("rows", []),
               "best": {k: best[k] for k in ("iteration", "score", "losses", "games", "lines", "lines_lost")
                        if k in best}}
    if as_json:
        print(json.dumps(summary))
        return 0
    print(f"trained alphazero on {cfg.game}: {result.iterations} iterations, {result.games:,} self-play games "
          f"in {result.seconds:.1f} s")
    for row in summary["last_eval"]:
        print(f"  network alone (sims=0) vs {row['opponent']:<24}: {row['wins']} won, {row['draws']} drawn, "
              f"{row['losses']} lost of {row['games']} (score {row['score']:.3f})")
    if result.out:
        lines = f", {best['lines_lost']} of {best['lines']} lines lost" if "lines_lost" in best else ""
        where = (f"ladder round {best['ladder_round']}" if best.get("iteration") == 0 and best.get("ladder_round")
                 else f"iteration {best.get('iteration', '?')}") + (", annealed" if best.get("annealed") else "")
        print(f"checkpoint: {result.out / 'model.pt'}; best: {result.out / 'best.pt'} ({where}, "
              f"score {best.get('score', float('nan')):.3f}{lines}); "
              f"play it as \"alphazero(path={result.out / 'best.pt'})\"")
    return 0


main = train_main

__all__ = ["config_from_args", "parser", "train_main"]
