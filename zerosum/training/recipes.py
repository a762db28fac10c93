"""Named training recipes (tuned settings) and the checkpoints ``make run`` trains on first use.

>>> from zerosum.training.recipes import RECIPES
>>> sorted(RECIPES)  # doctest: +NORMALIZE_WHITESPACE
['connect_four', 'pentago', 'pentago_curriculum', 'tictactoe', 'tictactoe_dqn', 'tictactoe_quick',
 'tictactoe_self_play']

``zerosum train --recipe tictactoe --out runs/ttt`` runs one; any other option on the
command line overrides the recipe's value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

RECIPES: dict[str, dict[str, Any]] = {
    # MaskablePPO against a mixture: random (wins to learn from), perfect play (`solved`: random
    # among the best moves; never lose to it), perfect play that blunders 30% of the time (threats
    # of every kind to answer) and alphabeta(depth=9) itself (it always opens in the centre and
    # takes the fastest win); half the games begin with one random ply. Every 25k steps the policy
    # is walked against every opponent move (a proof for tic-tac-toe); a quarter of the games are
    # then against an exploiter that plays into the lines found lost; best.zip: the evaluation
    # with the fewest lines lost, then losses. What each ingredient gave: the CHANGELOG's measurements.
    # The 8 envs are the lanes of one compiled vector env (random and alpha-beta compiled inside its
    # step; solved, its noisy form and the exploiter answer through Python); `--vec dummy` trains on
    # single-agent envs instead.
    "tictactoe": {
        "game": "tictactoe",
        "opponent": ["random", "solved", "noisy(base=solved, epsilon=0.3)", "alphabeta(depth=9)"],
        "opponent_weights": [0.2, 0.3, 0.4, 0.1], "random_opening": 0.5, "steps": 300_000, "n_envs": 8,
        "vec": "zerosum",
        "net_arch": (128, 128), "lr_schedule": "linear",
        "algo_kwargs": {"n_steps": 256, "batch_size": 512, "n_epochs": 10, "learning_rate": 1e-3, "ent_coef": 0.01},
        "eval_opponents": ["random"], "eval_games": 100, "eval_openings": [0, 1], "eval_exhaustive": True,
        "exploiter": 0.25,
        "eval_every": 25_000,
    },
    # The same for 30k steps (about 10-20 s): what `make run` trains for its tournament. Its 8 envs
    # are the lanes of one compiled vector env (zerosum.envs.make_vec), the opponent inside.
    "tictactoe_quick": {
        "game": "tictactoe", "opponent": "random", "steps": 30_000, "n_envs": 8, "vec": "zerosum",
        "net_arch": (64, 64),
        "algo_kwargs": {"n_steps": 128, "batch_size": 256, "n_epochs": 10, "learning_rate": 3e-3, "ent_coef": 0.0},
        "eval_opponents": ["random"], "eval_games": 0,
    },
    # Masked DQN (Q-values of illegal actions never chosen or backed up) against random.
    "tictactoe_dqn": {
        "game": "tictactoe", "opponent": "random", "algo": "maskable_dqn", "steps": 100_000, "n_envs": 8,
        "net_arch": (128, 128),
        "algo_kwargs": {"train_freq": 1, "gradient_steps": 2, "batch_size": 128, "learning_rate": 1e-3,
                        "target_update_interval": 500, "exploration_fraction": 0.2, "exploration_final_eps": 0.02,
                        "buffer_size": 100_000},
        "eval_opponents": ["random", "alphabeta(depth=9)"], "eval_games": 100, "eval_every": 25_000,
    },
    # Self-play against frozen snapshots, a fifth of the games against random.
    "tictactoe_self_play": {
        "game": "tictactoe", "opponent": "random", "self_play": True, "snapshot_every": 10_000, "steps": 200_000,
        "n_envs": 8, "net_arch": (128, 128),
        "algo_kwargs": {"n_steps": 128, "batch_size": 256, "n_epochs": 10, "learning_rate": 3e-3, "ent_coef": 0.01},
        "eval_opponents": ["random", "alphabeta(depth=9)"], "eval_games": 100, "eval_every": 50_000,
    },
    # Connect Four (PettingZoo's MaskablePPO tutorial game) against random, one-ply alpha-beta and
    # two-ply alpha-beta that blunders a quarter of the time; 600k steps (370 s of CPU for 567k). The
    # 8 envs are the lanes of one compiled vector env, the opponents (all three compiled) inside.
    "connect_four": {
        "game": "connect_four",
        "opponent": ["random", "alphabeta(depth=1)", "noisy(base=alphabeta(depth=2), epsilon=0.25)"],
        "opponent_weights": [0.3, 0.35, 0.35], "steps": 600_000, "n_envs": 8, "vec": "zerosum",
        "net_arch": (256, 256),
        "lr_schedule": "linear",
        "algo_kwargs": {"n_steps": 256, "batch_size": 512, "n_epochs": 4, "learning_rate": 1e-3, "ent_coef": 0.01},
        "eval_opponents": ["random", "alphabeta(depth=1)"], "eval_games": 50,
        "eval_every": 100_000,
    },
    # Pentago up a ladder of opponents (random; depth 1 blundering half and a quarter of the time;
    # depth 1; depth 2 blundering half, a quarter and a tenth of the time; depth 2), each game's
    # opponent drawn by the learner's recent score against each (prioritized: s(1-s), the games it
    # wins about half of; a tenth of the games spread evenly), every game under a random symmetry
    # of the board (8). Long: pass --max-seconds; its figures are on docs/results/maskable-ppo.md.
    # The 16 envs are the lanes of one compiled vector env: every opponent and the symmetries
    # inside its step, the priorities moved from its finished episodes (zerosum.training.vector_sources).
    "pentago": {
        "game": "pentago",
        "opponent": ["random", "noisy(base=alphabeta(depth=1), epsilon=0.5)",
                     "noisy(base=alphabeta(depth=1), epsilon=0.25)", "alphabeta(depth=1)",
                     *(f"noisy(base=alphabeta(depth=2), epsilon={e})" for e in (0.5, 0.25, 0.1)),
                     "alphabeta(depth=2)"],
        "opponent_priority": "learnable", "window": 200, "symmetry": True,
        "steps": 3_000_000, "n_envs": 16, "vec": "zerosum", "net_arch": (256, 256),
        "algo_kwargs": {"n_steps": 128, "batch_size": 512, "n_epochs": 4, "learning_rate": 5e-4, "ent_coef": 0.01},
        "eval_opponents": ["alphabeta(depth=1)", "alphabeta(depth=2)"], "eval_games": 50, "eval_every": 200_000,
        "save_every": 500_000,
    },
    # The same through a curriculum: random until 90% of wins, then alphabeta(depth=1), then depth 2.
    "pentago_curriculum": {
        "game": "pentago", "curriculum": ["random", "alphabeta(depth=1)", "alphabeta(depth=2)"], "threshold": 0.9,
        "window": 1000, "steps": 3_000_000, "n_envs": 16, "vec": "zerosum", "net_arch": (256, 256),
        "algo_kwargs": {"n_steps": 128, "batch_size": 512, "n_epochs": 4, "learning_rate": 5e-4, "ent_coef": 0.01},
        "eval_opponents": ["alphabeta(depth=1)"], "eval_games": 50, "eval_every": 100_000, "save_every": 250_000,
    },
}
"""Name -> TrainConfig fields. No reward shaping anywhere: the reward is the game's +1/0/-1."""


AZ_RECIPES: dict[str, dict[str, Any]] = {
    # Tic-tac-toe: exact labels first (alpha-beta to the end: depth 9), then PUCT self-play
    # with 32 simulations and the 8 symmetries; every 2 iterations the network alone is walked
    # against every opponent reply in both seats (best.pt: the fewest lines lost).
    "az_tictactoe": {
        "game": "tictactoe", "net": {"kind": "mlp", "hidden": [128, 128]}, "rule": "puct", "sims": 32,
        "lanes": 64, "games_per_iteration": 64, "temperature_moves": 3, "symmetry": True, "buffer_size": 20_000,
        "batch_size": 256, "train_steps": 40, "lr": 2e-3, "labels": 4000, "label_depth": 9, "label_steps": 800,
        "iterations": 40, "max_seconds": 300.0, "eval_every": 2, "eval_opponents": ["alphabeta(depth=9)", "random"],
        "eval_games": 20, "eval_openings": 1, "eval_exhaustive": True,
    },
    # Connect Four: ladder rounds (expert iteration on the network's own games, DAgger's rule)
    # with depth-10 quiescence labels, and a 3 x 48 ResNet with line features (lines=4). The
    # rounds' networks only choose which positions get labelled: at the end, 12,000 steps with
    # the learning rate annealed to 0 train the run's initial weights afresh on the whole buffer
    # (final_fresh), with both cores (learner_threads=2). A round is started only if it ends
    # within the hour with the final steps' time kept. Its figures: docs/results/alphazero.md.
    # The self-play settings below apply only with --iterations N after the rounds.
    "az_connect_four": {
        "game": "connect_four", "net": {"kind": "resnet", "blocks": 3, "channels": 48, "lines": 4},
        "rule": "puct", "sims": 32, "gumbel_k": 8, "lanes": 128, "games_per_iteration": 128, "temperature_moves": 6,
        "full_search_prob": 0.5, "cheap_sims": 8, "symmetry": True, "buffer_size": 200_000, "batch_size": 256,
        "train_steps": 200, "lr": 1e-3, "labels": 0, "label_depth": 10, "label_quiescence": True, "label_steps": 0,
        "ladder_rounds": 30, "ladder_games": 400, "ladder_steps": 1000, "final_steps": 12_000, "final_fresh": True,
        "learner_threads": 2, "iterations": 0,
        "max_seconds": 3600.0, "eval_every": 5, "eval_opponents": ["alphabeta(depth=2)", "alphabeta(depth=4)"],
        "eval_games": 40, "eval_openings": 2,
    },
    # Pentago: ladder rounds (as Connect Four's) with depth-3 labels (no quiescence: 6x cheaper)
    # and a 3 x 48 ResNet with line features (lines=5). Its figures: docs/results/alphazero.md.
    # The self-play settings below apply only with --iterations N after the rounds.
    "az_pentago": {
        "game": "pentago", "net": {"kind": "resnet", "blocks": 3, "channels": 48, "lines": 5}, "rule": "gumbel",
        "sims": 16, "gumbel_k": 8, "lanes": 128, "games_per_iteration": 128, "temperature_moves": 8,
        "full_search_prob": 0.5, "cheap_sims": 4, "symmetry": True, "buffer_size": 200_000, "batch_size": 256,
        "train_steps": 100, "lr": 1e-3, "labels": 0, "label_depth": 3, "label_quiescence": False, "label_steps": 0,
        "ladder_rounds": 40, "ladder_games": 400, "ladder_steps": 1000, "iterations": 0, "max_seconds": 3600.0,
        "eval_every": 5, "eval_opponents": ["alphabeta(depth=2)", "alphabeta(depth=3)"], "eval_games": 40,
        "eval_openings": 2,
    },
}
"""Named AlphaZero settings (``zerosum train --algo alphazero --recipe NAME``)."""

AZ_RECIPE_NOTES: dict[str, str] = {
    "az_tictactoe": "AlphaZero tic-tac-toe: exact alpha-beta labels, then PUCT 32 sims, symmetries; never loses",
    "az_connect_four": "AlphaZero Connect Four: ladder rounds on depth-10 quiescence labels, line features, "
                       "a network trained afresh at the end (<= 60 min)",
    "az_pentago": "AlphaZero Pentago: ladder rounds on depth-3 labels, line features (<= 60 min)",
}
"""One line per recipe for ``zerosum train --help``."""


def describe_recipes() -> str:
    """One line per recipe: its name and what it trains (for ``zerosum train --help``), the
    AlphaZero recipes (``--algo alphazero``) too."""
    notes = {**{name: RECIPE_NOTES.get(name, RECIPES[name]["game"]) for name in RECIPES}, **AZ_RECIPE_NOTES}
    return "\n".join(f"  {name:<20} {notes[name]}" for name in sorted(notes))


def recipe_base(table: dict[str, dict[str, Any]], name: str, overrides: dict[str, Any],
                kind: str = "") -> dict[str, Any]:
    """The fields of recipe ``name`` in ``table`` (PPO's or AlphaZero's: ``kind`` names it in the
    error); ValueError for an unknown name or an override of the recipe's game."""
    try:
        base = table[name]
    except KeyError:
        raise ValueError(f"unknown {kind}recipe {name!r}; available: {', '.join(sorted(table))}") from None
    if "game" in overrides and overrides["game"] != base["game"]:
        raise ValueError(f"recipe {name!r} trains {base['game']}, not {overrides['game']}")
    return base


def recipe(name: str, **overrides: Any) -> Any:
    """The TrainConfig of a named recipe, with overrides (a ``game`` must be the recipe's)."""
    from zerosum.training.config import TrainConfig

    base = recipe_base(RECIPES, name, overrides)
    fields = {**base, **overrides}
    if "algo_kwargs" in overrides:
        fields["algo_kwargs"] = {**base.get("algo_kwargs", {}), **overrides["algo_kwargs"]}
    return TrainConfig(**fields)


RECIPE_NOTES: dict[str, str] = {
    "tictactoe": "tic-tac-toe that never loses: perfect, blundering and exploiting opponents (300k steps, ~4 min)",
    "tictactoe_quick": "tic-tac-toe against random, 30k steps (~20 s): beats random, loses to perfect play",
    "tictactoe_dqn": "tic-tac-toe, masked DQN against random (100k steps)",
    "tictactoe_self_play": "tic-tac-toe, self-play snapshots plus random (200k steps)",
    "connect_four": "Connect Four against random and (noisy) alpha-beta (600k steps, 6-13 min)",
    "pentago": "Pentago up a ladder to alpha-beta depth 2, prioritized by score, board symmetries "
               "(long; give --max-seconds)",
    "pentago_curriculum": "Pentago through random, alpha-beta depth 1, depth 2 by win rate (long)",
}
"""What each recipe trains and reaches, in one line (``zerosum train --help``)."""


def _existing_tictactoe(path: str | Path) -> tuple[Path, bool]:
    """The checkpoint path for ``path`` and whether a tic-tac-toe checkpoint is already there
    (a file there that is not one is a CheckpointError: it is never overwritten)."""
    from zerosum.agents.checkpoints import CheckpointError, checkpoint_paths, read_metadata

    zip_path, sidecar = checkpoint_paths(path)
    if not (zip_path.exists() or sidecar.exists()):
        return zip_path, False
    meta = read_metadata(zip_path)
    if meta["game"] != "tictactoe":
        raise CheckpointError(f"{zip_path} is a {meta['game']} checkpoint, not tic-tac-toe")
    return zip_path, True


def ensure_tictactoe_checkpoint(path: str | Path = "runs/tictactoe/model.zip", *, seed: int = 0,
                                steps: int | None = None, verbose: int = 0) -> Path:
    """The tic-tac-toe checkpoint at ``path``, trained first (MaskablePPO against random) if missing.

    A readable checkpoint is returned as is; a missing one is trained with the
    ``tictactoe_quick`` recipe (30k steps, 10-20 s on 2 cores) and saved there. A file that
    exists but is not a readable checkpoint is an error, never overwritten.
    """
    from zerosum.agents.checkpoints import save_checkpoint

    zip_path, found = _existing_tictactoe(path)
    if found:
        return zip_path
    from zerosum.training.train import train

    overrides: dict[str, Any] = {"seed": seed, "out": None, "verbose": verbose, "eval_every": 0, "eval_games": 0}
    if steps is not None:
        overrides["steps"] = steps
    result = train(recipe("tictactoe_quick", **overrides))
    print(f"note: {zip_path}: the quick tic-tac-toe agent (recipe tictactoe_quick, {result.steps:,} steps against "
          "random; it loses to perfect play): `zerosum train --recipe tictactoe` trains the one that never loses",
          flush=True)
    return save_checkpoint(result.model, zip_path, result.metadata)


def ensure_never_losing_tictactoe(path: str | Path = "runs/tictactoe/best.zip", *, seed: int = 0,
                                  verbose: int = 0) -> Path:
    """The tic-tac-toe checkpoint at ``path``, trained first with the ``tictactoe`` recipe if missing.

    The recipe's run goes to ``<path's folder>/tictactoe_run`` and its ``best.zip`` (the
    periodic evaluation with the fewest losses) is copied to ``path``. An existing readable
    checkpoint is returned as is; a file that is not one is an error, never overwritten.
    """
    import shutil

    zip_path, found = _existing_tictactoe(path)
    if found:
        return zip_path
    from zerosum.agents.checkpoints import checkpoint_paths
    from zerosum.training.train import train

    sidecar = checkpoint_paths(zip_path)[1]
    run = zip_path.parent / "tictactoe_run"
    result = train(recipe("tictactoe", seed=seed, out=str(run), verbose=verbose), overwrite=True)
    best = result.metadata.get("best") or {}
    source = run / ("best.zip" if best else "model.zip")
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source.with_suffix(".json"), sidecar.with_name(sidecar.name + ".tmp"))
    shutil.copyfile(source, zip_path.with_name(zip_path.stem + ".tmp.zip"))
    sidecar.with_name(sidecar.name + ".tmp").replace(sidecar)
    zip_path.with_name(zip_path.stem + ".tmp.zip").replace(zip_path)
    print(f"note: {zip_path}: the never-losing tic-tac-toe agent (recipe tictactoe, {source.name} of {result.steps:,} "
          f"steps, picked at {best.get('steps', result.steps):,}: {best.get('losses', '?')} lost of "
          f"{best.get('games', '?')} evaluation games)", flush=True)
    return zip_path


__all__ = [
    "AZ_RECIPES",
    "AZ_RECIPE_NOTES",
    "RECIPES",
    "RECIPE_NOTES",
    "describe_recipes",
    "ensure_never_losing_tictactoe",
    "ensure_tictactoe_checkpoint",
    "recipe",
    "recipe_base",
]
