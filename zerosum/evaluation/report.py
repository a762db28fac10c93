"""The views of played games: tables in the terminal, Markdown, plain rows for DataFrames.

Tournaments: ``summarize_store(Store(path))`` reads a finished (or partial) tournament;
``print_summary`` shows it as rich tables; ``write_outputs`` writes report.md, the PNG
plots and games.csv / moves.csv next to the database. ``evaluate``: the text table,
Markdown and rows of an :class:`~zerosum.evaluation.evaluate.EvaluationReport`
(``evaluation_text``, ``evaluation_markdown``, ``evaluation_records``). Plots are in
:mod:`zerosum.evaluation.plots`.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from zerosum.evaluation.ratings import Ratings, SkillRating, bootstrap_ratings, openskill_ratings
from zerosum.evaluation.stats import AgentResults, Cost, PairResults, Record, score_matrix, search_cost, tally
from zerosum.evaluation.store import Store


@dataclass
class Summary:
    """Everything the report shows, computed from the store."""

    label: str
    game: str
    variant: dict[str, Any]
    names: list[str]
    specs: list[str]
    config: dict[str, Any]
    games: int
    agents: list[AgentResults]
    pairs: list[PairResults]
    ratings: Ratings
    skill: list[SkillRating]
    cost: list[Cost]
    points: np.ndarray
    count: np.ndarray
    faults: list[dict[str, Any]]
    terminations: dict[str, int]
    mean_length: float

    def order(self) -> list[int]:
        """Agent indices from the best to the worst (score, then Elo)."""
        def key(i: int) -> tuple[float, float]:
            s = self.agents[i].total.score
            return (-(s if not math.isnan(s) else -1.0), -float(self.ratings.elo[i]))
        return sorted(range(len(self.names)), key=key)

    def standings(self) -> list[dict[str, Any]]:
        """One plain dict per agent, best first (for printing, JSON or a DataFrame)."""
        rows = []
        for rank, i in enumerate(self.order(), 1):
            a, c, sk = self.agents[i], self.cost[i], self.skill[i]
            lo, hi = a.total.interval
            rows.append({
                "rank": rank, "agent": a.name, "games": a.total.games, "wins": a.total.wins,
                "draws": a.total.draws, "losses": a.total.losses, "score": a.total.score, "score_low": lo,
                "score_high": hi, "first_score": a.first.score, "second_score": a.second.score,
                "elo": float(self.ratings.elo[i]), "elo_low": float(self.ratings.low[i]),
                "elo_high": float(self.ratings.high[i]), "openskill_mu": sk.mu, "openskill_sigma": sk.sigma,
                "faults": a.faults, "nodes_mean": c.nodes["mean"], "time_mean": c.time["mean"]})
        return rows


def summarize_store(store: Store, bootstrap: int = 200, seed: int = 0) -> Summary:
    """Tally, rate and cost the games in ``store`` (games taken in (game index, pairing) order)."""
    cfg = store.config().get("config", {})
    agents = store.agents()
    names = [n for n, _ in agents]
    games = sorted(store.games(), key=lambda g: (g["game_index"], g["pairing"]))
    per_agent, pairs = tally(games, names)
    scored = [(int(g["seat0"]), int(g["seat1"]), float(g["score0"])) for g in games]
    ratings = bootstrap_ratings(scored, names, samples=bootstrap, seed=seed)
    skill = openskill_ratings(scored, names)
    cost = search_cost(store.moves(["agent", "ply", "time", "nodes", "depth", "ebf", "stats"]), names)
    points, count = score_matrix(games, len(names))
    faults = [{"game_id": g["id"], "agent": names[(g["seat0"], g["seat1"])[g["faulty_seat"]]],
               "termination": g["termination"], "error": g["error"]} for g in games if g["faulty_seat"] is not None]
    terms: dict[str, int] = {}
    for g in games:
        terms[g["termination"]] = terms.get(g["termination"], 0) + 1
    mean_len = float(np.mean([g["length"] for g in games])) if games else float("nan")
    return Summary(cfg.get("name", cfg.get("game", "")), cfg.get("game", ""), dict(cfg.get("variant", {})), names,
                   [s for _, s in agents], cfg, len(games), per_agent, pairs, ratings, skill, cost, points, count,
                   faults, terms, mean_len)


# ---- formatting ---------------------------------------------------------------------------------
def _fmt(x: float | None, spec: str) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, spec)


def _f(x: float, digits: int = 2) -> str:
    return _fmt(x, f".{digits}f")


def _n(x: float) -> str:
    if x is None or math.isnan(x):
        return "-"
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def _ms(x: float) -> str:
    return "-" if x is None or math.isnan(x) else f"{1000 * x:.2f}"


def _score(r: Record) -> str:
    if not r.games:
        return "-"
    lo, hi = r.interval
    return f"{r.score:.3f} [{lo:.2f}, {hi:.2f}]"


STANDINGS_HEAD = ["#", "agent", "games", "W/D/L", "score [95% CI]", "first", "second", "Elo [95% CI]",
                  "openskill", "faults"]
PAIRS_HEAD = ["A", "B", "W/D/L (A)", "score A [95% CI]", "A first", "A second"]
COST_HEAD = ["agent", "moves", "nodes mean", "median", "p95", "ms mean", "median", "p95", "depth mean",
             "max", "EBF", "sims mean", "batch mean", "eval share"]


def standings_rows(s: Summary) -> list[list[str]]:
    """The standings table as text cells, best first."""
    rows = []
    for rank, i in enumerate(s.order(), 1):
        a, sk = s.agents[i], s.skill[i]
        elo = f"{s.ratings.elo[i]:+.0f} [{s.ratings.low[i]:+.0f}, {s.ratings.high[i]:+.0f}]"
        rows.append([str(rank), a.name, str(a.total.games), a.total.wdl(), _score(a.total), _f(a.first.score, 3),
                     _f(a.second.score, 3), elo, f"{sk.mu:.1f} ± {sk.sigma:.1f}", str(a.faults)])
    return rows


def pair_rows(s: Summary) -> list[list[str]]:
    """Each pair of agents from the first-named agent's side."""
    return [[p.a, p.b, p.total.wdl(), _score(p.total), _f(p.a_first.score, 3), _f(p.a_second.score, 3)]
            for p in s.pairs]


def cost_rows(s: Summary) -> list[list[str]]:
    """Search cost per agent (agents without search statistics show '-')."""
    return [[c.name, str(c.moves), _n(c.nodes["mean"]), _n(c.nodes["median"]), _n(c.nodes["p95"]),
             _ms(c.time["mean"]), _ms(c.time["median"]), _ms(c.time["p95"]), _f(c.depth["mean"], 1),
             _f(c.depth["max"], 0), _f(c.ebf["mean"], 2), _n(c.sims["mean"]), _f(c.batch["mean"], 1),
             _f(c.eval_share["mean"], 2)] for c in s.cost]


def print_summary(s: Summary, console: Any = None) -> None:
    """The standings, pairings and search cost as rich tables in the terminal."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    variant = ", ".join(f"{k}={v}" for k, v in s.variant.items())
    for title, head, rows in (
        (f"{s.label}: {s.game}{f' ({variant})' if variant else ''}, {s.games} games",
         STANDINGS_HEAD, standings_rows(s)),
        ("pairings", PAIRS_HEAD, pair_rows(s)),
        ("search cost per move", COST_HEAD, cost_rows(s)),
    ):
        t = Table(title=title, title_justify="left")
        for h in head:
            t.add_column(h, justify="left" if h in ("agent", "A", "B") else "right")
        for r in rows:
            t.add_row(*r)
        console.print(t)
    if s.faults:
        console.print(f"[red]{len(s.faults)} game(s) lost by a faulty agent[/red] (see the report)")


def text_table(head: list[str], rows: list[list[str]]) -> str:
    """Plain-text columns: the first left-aligned, the rest right-aligned, a rule under the head."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(head)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in rows])


def _md_table(head: list[str], rows: list[list[str]]) -> str:
    def esc(c: str) -> str:
        return c.replace("|", "\\|")
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(esc(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def markdown(s: Summary, database: str | os.PathLike[str] | None = None, plots: dict[str, Path] | None = None,
             max_plies: int = 40) -> str:
    """The report as Markdown: configuration, standings, pairings, score matrix, ratings, cost, faults."""
    variant = json.dumps(s.variant) if s.variant else "default rules"
    out = [f"# Tournament: {s.label}", "",
           f"Game **{s.game}** ({variant}); {s.games} games; "
           f"{s.config.get('games_per_pairing', '?')} per pairing (ordered pair of agents); "
           f"openings of {s.config.get('opening_plies', '?')} random plies; seed {s.config.get('seed', '?')}; "
           f"mean length {_f(s.mean_length, 1)} plies; endings {json.dumps(s.terminations)}."]
    if database:
        out += ["", f"Database: `{database}`."]
    out += ["", "Agents: " + ", ".join(f"`{n}` = `{sp}`" if n != sp else f"`{n}`" for n, sp in zip(s.names, s.specs)),
            "", "## Standings", "",
            "Score = (wins + draws/2) / games with a 95% Wilson interval; first/second = score in seat 0 / seat 1; "
            f"Elo = Bradley-Terry maximum likelihood (mean 0) with {s.ratings.samples}-sample bootstrap 95% "
            "intervals; openskill = Plackett-Luce mu ± sigma.", "",
            _md_table(STANDINGS_HEAD, standings_rows(s)), "", "## Pairings", "",
            _md_table(PAIRS_HEAD, pair_rows(s)), "", "## Score matrix", "",
            "Row agent's score against the column agent (both seats).", ""]
    head = ["", *s.names]
    rows = [[s.names[i]] + [("-" if i == j or not s.count[i, j] else f"{s.points[i, j] / s.count[i, j]:.2f}")
                            for j in range(len(s.names))] for i in range(len(s.names))]
    out += [_md_table(head, rows), "", "## Search cost per move", "",
            "Nodes and wall time per decision (ms); depth reached; effective branching factor "
            "(nodes^(1/depth)); for network-guided searches, simulations per move, leaves per evaluator "
            "call and the evaluator's share of the time.", "", _md_table(COST_HEAD, cost_rows(s)), ""]
    searched = [c for c in s.cost if c.by_ply]
    if searched:
        plies = sorted({p for c in searched for p in c.by_ply})[:max_plies]
        out += ["### Mean nodes by move number (ply from the start)", "",
                _md_table(["ply"] + [c.name for c in searched],
                          [[str(p)] + [_n(c.by_ply[p]["mean"]) if p in c.by_ply else "-" for c in searched]
                           for p in plies]), ""]
    if plots:
        out += ["## Plots", ""] + [f"![{k}](plots/{v.name})" for k, v in plots.items()] + [""]
    if s.faults:
        out += ["## Faults", "", "Games lost because an agent raised or returned an illegal action.", "",
                _md_table(["game", "agent", "how", "error"],
                          [[str(f["game_id"]), f["agent"], f["termination"], (f["error"] or "")[:200]]
                           for f in s.faults]), ""]
    return "\n".join(out)


def write_outputs(s: Summary, store: Store, out_dir: str | os.PathLike[str], plots: bool = True) -> dict[str, Path]:
    """Write report.md, summary.json, games.csv, moves.csv and (unless plots=False) plots/*.png."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {"database": Path(store.path)}
    files["games_csv"], files["moves_csv"] = store.export_csv(out)
    pngs: dict[str, Path] = {}
    if plots and s.games:
        from zerosum.evaluation.plots import write_plots

        pngs = write_plots(s, out / "plots")
        files.update({f"plot_{k}": v for k, v in pngs.items()})
    report = out / "report.md"
    report.write_text(markdown(s, store.path, pngs))
    files["report"] = report
    summary = out / "summary.json"
    summary.write_text(json.dumps({"label": s.label, "game": s.game, "variant": s.variant, "games": s.games,
                                   "standings": s.standings()}, indent=1, default=float))
    files["summary"] = summary
    return files


# ---- one policy against opponents (zerosum.evaluate) -------------------------------------------
EVALUATION_HEAD = ["opponent", "games", "W/D/L", "score [95% CI]", "as first", "as second", "faults", "len",
                   "opp nodes/move", "opp ms/move", "opp depth"]


def evaluation_rows(report: Any) -> list[list[str]]:
    """An evaluation's table as text cells, one row per opponent."""
    out = []
    for r in report.results:
        c = r.cost
        out.append([r.opponent, str(r.total.games), r.total.wdl(), _score(r.total), _f(r.first.score, 3),
                    _f(r.second.score, 3), str(len(r.faults)), _f(r.mean_length, 1),
                    _fmt(c.nodes["mean"], ",.0f") if c else "-", _ms(c.time["mean"]) if c else "-",
                    _f(c.depth["mean"], 1) if c else "-"])
    return out


def evaluation_title(report: Any) -> str:
    """One line: the policy, the env, the variant and how the games were played."""
    variant = ", ".join(f"{k}={v}" for k, v in report.variant.items())
    return (f"{report.policy} on {report.env}{f' ({variant})' if variant else ''}: {report.games_per_opponent} "
            f"games per opponent, seats alternating, seed {report.seed}, {report.seconds:.1f} s")


def evaluation_text(report: Any) -> str:
    """The title, the table and the overall line (with the first fault, if any)."""
    t = report.total
    lo, hi = t.interval
    faults = report.faults
    return "\n".join([evaluation_title(report), text_table(EVALUATION_HEAD, evaluation_rows(report)),
                      f"overall {t.wdl()}, score {t.score:.3f} [{lo:.2f}, {hi:.2f}]"
                      + (f"; {len(faults)} game(s) lost by the policy's faults, e.g. {faults[0]['error']}"
                         if faults else "")])


def evaluation_markdown(report: Any) -> str:
    """The table (and any faults) as Markdown."""
    out = [f"**{evaluation_title(report)}**", "",
           ("Score = (wins + draws/2) / games, 95% Wilson interval; "
            "opponents' search cost per move (nodes, ms, depth reached)."), "",
           _md_table(EVALUATION_HEAD, evaluation_rows(report))]
    if report.faults:
        out += ["", "Games the policy lost by a fault:", "",
                _md_table(["opponent", "game", "seat", "how", "reason"],
                          [[f["opponent"], str(f["game"]), str(f["seat"]), f["termination"], f["error"][:200]]
                           for f in report.faults])]
    return "\n".join(out)


EVALUATION_LEVELS = ("opponents", "games", "moves")


def evaluation_records(report: Any, level: str = "opponents") -> list[dict[str, Any]]:
    """Plain dict rows: ``opponents`` (one each), ``games`` (one per game) or ``moves`` (one per move)."""
    if level == "opponents":
        return [r.row() for r in report.results]
    if level == "games":
        return [{"opponent": g.opponent, "game": g.index, "seat": g.seat, "seed": g.seed, "score": g.score,
                 "outcome": g.outcome, "length": g.match.length, "termination": g.match.termination,
                 "policy_fault": g.policy_fault, "error": g.match.error, "opening": list(g.match.opening),
                 "actions": g.match.actions, "seconds": g.match.duration} for g in report.games]
    if level == "moves":
        return [{"opponent": g.opponent, "game": g.index, "ply": m.ply,
                 "mover": "policy" if m.player == g.seat else "opponent", "action": m.action, "move": m.move,
                 "time": m.time, "nodes": (m.stats or {}).get("nodes"), "depth": (m.stats or {}).get("depth"),
                 "value": (m.stats or {}).get("value")} for g in report.games for m in g.match.moves]
    raise ValueError(f"level={level!r} is not allowed: one of {', '.join(EVALUATION_LEVELS)}")


def dataframe(rows: list[dict[str, Any]]) -> Any:
    """A pandas DataFrame of plain dict rows (pandas is the ``analysis`` extra)."""
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("to_dataframe() needs pandas: pip install 'zerosum[analysis]' (or use as_rows(), "
                          "plain dicts)") from None
    return pd.DataFrame(rows)
