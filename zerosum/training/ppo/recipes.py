"""PPO's named recipes (tuned settings) and the checkpoints ``make run`` trains on first use.

>>> from zerosum.training.ppo.recipes import RECIPES
>>> sorted(RECIPES)  # doctest: +NORMALIZE_WHITESPACE
['connect_four', 'pentago', 'pentago_curriculum', 'tictactoe', 'tictactoe_dqn', 'tictactoe_quick',
 'tictactoe_self_play']

``zerosum train --recipe tictactoe --out runs/ttt`` runs one; any other option on the
command line overrides the recipe's value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from zerosum.training.methods import recipe_base

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


def recipe(name: str, **overrides: Any) -> Any:
    """The TrainConfig of a named recipe, with overrides (a ``game`` must be the recipe's)."""
    from zerosum.training.ppo.config import TrainConfig

    base = recipe_base(RECIPES, name, overrides)
    fields = {**base, **overrides}
    if "algo_kwargs" in overrides:
        fields["algo_kwargs"] = {**base.get("algo_kwargs", {}), **overrides["algo_kwargs"]}
    return TrainConfig(**fields)


RECIPE_NOTES: dict[str, str] = {
    "tictactoe": "tic-tac-toe against perfect, blundering and exploiting opponents; no loss on seeds 0-2, one seed "
                 "lost 1 of 2,000 to random (300k steps, ~4 min)",
    "tictactoe_quick": "tic-tac-toe against random, 30k steps (~20 s): beats random, loses to perfect play",
    "tictactoe_dqn": "tic-tac-toe, masked DQN against random (100k steps)",
    "tictactoe_self_play": "tic-tac-toe, self-play snapshots plus random (200k steps)",
    "connect_four": "Connect Four against random and (noisy) alpha-beta (600k steps, 6-13 min)",
    "pentago": "Pentago up a ladder to alpha-beta depth 2, prioritized by score, board symmetries "
               "(3M steps, ~15 min): 824 Elo on Pentago's ladder",
    "pentago_curriculum": "Pentago through random, alpha-beta depth 1, depth 2 by win rate (3M steps, ~19 min): "
                          "forgets depth 1 once at depth 2; best.zip -21 Elo, model.zip 99",
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
    from zerosum.training.ppo.train import train

    overrides: dict[str, Any] = {"seed": seed, "out": None, "verbose": verbose, "eval_every": 0, "eval_games": 0}
    if steps is not None:
        overrides["steps"] = steps
    result = train(recipe("tictactoe_quick", **overrides))
    print(f"note: {zip_path}: the quick tic-tac-toe agent (recipe tictactoe_quick, {result.steps:,} steps against "
          "random; it loses to perfect play): `zerosum train --recipe tictactoe` trains the stronger one",
          flush=True)
    return save_checkpoint(result.model, zip_path, result.metadata)


def ensure_never_losing_tictactoe(path: str | Path = "runs/tictactoe/best.zip", *, seed: int = 0,
                                  verbose: int = 0) -> Path:
    """The tic-tac-toe checkpoint at ``path``, trained first with the ``tictactoe`` recipe if missing.

    (The name is kept for the configs that name it; the recipe lost no game on seeds 0-2, and one
    other seed lost 1 of 2,000 to random: see the MaskablePPO results page.)

    The recipe's run goes to ``<path's folder>/tictactoe_run`` and its ``best.zip`` (the
    periodic evaluation with the fewest losses) is copied to ``path``. An existing readable
    checkpoint is returned as is; a file that is not one is an error, never overwritten.
    """
    import shutil

    zip_path, found = _existing_tictactoe(path)
    if found:
        return zip_path
    from zerosum.agents.checkpoints import checkpoint_paths
    from zerosum.training.ppo.train import train

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
    "RECIPES",
    "RECIPE_NOTES",
    "ensure_never_losing_tictactoe",
    "ensure_tictactoe_checkpoint",
    "recipe",
]
