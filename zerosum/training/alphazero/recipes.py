"""AlphaZero's named settings (``zerosum train --algo alphazero --recipe NAME``, or ``--recipe
az_NAME`` alone): flat names, as the CLI's flags and run.json name them.

>>> from zerosum.training.alphazero.recipes import az_recipe
>>> az_recipe("az_tictactoe", sims=16).selfplay.sims
16
"""

from __future__ import annotations

from typing import Any

from zerosum.training.alphazero.config import AlphaZeroConfig
from zerosum.training.methods import recipe_base

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



def az_recipe(name: str, **overrides: Any) -> AlphaZeroConfig:
    """The AlphaZeroConfig of a named recipe (:data:`AZ_RECIPES`) with overrides by flat name (a
    ``game`` must be the recipe's)."""
    return AlphaZeroConfig(**{**recipe_base(AZ_RECIPES, name, overrides, "AlphaZero "), **overrides})


__all__ = ["AZ_RECIPES", "AZ_RECIPE_NOTES", "az_recipe"]
