"""Plots of played games (matplotlib, headless Agg backend, imported only when plotting).

A tournament's PNGs:

- ``nodes_by_ply.png``: mean nodes per move by move number, log scale, one line per agent
  that searches (the seed studies' figure);
- ``score_matrix.png``: each agent's score against each other agent, as a heatmap;
- ``ratings.png``: Bradley-Terry Elo ratings with their 95% bootstrap intervals.

An evaluation's figure (:func:`plot_evaluation`): the policy's score by seat against each
opponent, and the opponents' nodes per move by move number.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.evaluation.stats import Cost


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def draw_nodes_by_ply(ax: Any, costs: Iterable[Cost | None]) -> bool:
    """One line per cost with search statistics: mean nodes per move by ply, log y; False if none has any."""
    drawn = False
    for c in costs:
        if c is not None and c.by_ply:
            plies = sorted(c.by_ply)
            ax.plot(plies, [max(c.by_ply[p]["mean"], 1.0) for p in plies], marker="o", ms=3, label=c.name)
            drawn = True
    if drawn:
        ax.set_yscale("log")
    return drawn


def plot_nodes_by_ply(summary: Any, path: str | os.PathLike[str]) -> Path | None:
    """Mean nodes per move against the ply (log y); None when no agent reports nodes."""
    if not any(c.by_ply for c in summary.cost):
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.2))
    draw_nodes_by_ply(ax, summary.cost)
    ax.set_xlabel("move number (ply from the initial position)")
    ax.set_ylabel("nodes per move (mean)")
    ax.set_title(f"{summary.label}: search cost by move number")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return Path(path)


def plot_score_matrix(summary: Any, path: str | os.PathLike[str]) -> Path:
    """Row agent's score against the column agent, both seats together."""
    plt = _pyplot()
    n = len(summary.names)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = np.where(summary.count > 0, summary.points / np.maximum(summary.count, 1), np.nan)
    fig, ax = plt.subplots(figsize=(1.2 * n + 3, 1.0 * n + 2))
    im = ax.imshow(m, cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(n), summary.names, rotation=35, ha="right", fontsize=8)
    ax.set_yticks(range(n), summary.names, fontsize=8)
    for i in range(n):
        for j in range(n):
            if not np.isnan(m[i, j]):
                ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize=8)
    ax.set_title(f"{summary.label}: score of row against column")
    fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return Path(path)


def plot_ratings(summary: Any, path: str | os.PathLike[str]) -> Path:
    """Elo ratings with bootstrap 95% intervals, best at the top."""
    plt = _pyplot()
    r = summary.ratings
    order = np.argsort(r.elo)
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(order) + 1.5))
    y = np.arange(len(order))
    elo = r.elo[order]
    err = np.vstack([elo - r.low[order], r.high[order] - elo]).clip(min=0)
    ax.errorbar(elo, y, xerr=err, fmt="o", capsize=4)
    ax.set_yticks(y, [r.names[i] for i in order], fontsize=8)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel("Elo (Bradley-Terry, mean 0), 95% bootstrap interval")
    ax.set_title(f"{summary.label}: ratings")
    ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return Path(path)


def write_plots(summary: Any, directory: str | os.PathLike[str]) -> dict[str, Path]:
    """All three plots into ``directory``; returns name -> path of those written."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    files = {}
    p = plot_nodes_by_ply(summary, out / "nodes_by_ply.png")
    if p is not None:
        files["nodes_by_ply"] = p
    files["score_matrix"] = plot_score_matrix(summary, out / "score_matrix.png")
    files["ratings"] = plot_ratings(summary, out / "ratings.png")
    return files


def plot_evaluation(report: Any, path: str | os.PathLike[str] | None = None) -> Any:
    """An evaluation's figure: the policy's score by seat against each opponent with 95% intervals,
    and the opponents' nodes per move by move number (log scale). Saved to ``path`` if given."""
    plt = _pyplot()
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    x = np.arange(len(report.results))
    for shift, label, pick in ((-0.25, "both seats", "total"), (0.0, "as first", "first"),
                               (0.25, "as second", "second")):
        recs = [getattr(r, pick) for r in report.results]
        score = np.array([rec.score if rec.games else np.nan for rec in recs])
        iv = np.array([rec.interval for rec in recs]).reshape(-1, 2)
        err = np.vstack([score - iv[:, 0], iv[:, 1] - score]).clip(min=0)
        ax.errorbar(x + shift, score, yerr=np.nan_to_num(err), fmt="o", capsize=4, label=label)
    ax.set_xticks(x, [r.opponent for r in report.results], rotation=20, ha="right", fontsize=8)
    ax.set_ylim(-0.02, 1.02)
    ax.set_ylabel("policy's score (95% Wilson interval)")
    ax.set_title(f"{report.policy} on {report.env}")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    if draw_nodes_by_ply(ax2, [r.cost for r in report.results]):
        ax2.legend(fontsize=8)
    else:
        ax2.text(0.5, 0.5, "no opponent reports search statistics", ha="center", va="center", transform=ax2.transAxes)
    ax2.set_xlabel("move number (ply)")
    ax2.set_ylabel("opponent's nodes per move (mean)")
    ax2.set_title("opponents' search cost")
    ax2.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110)
    return fig
