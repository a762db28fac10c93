"""Results and search cost from stored games: W/D/L, scores with Wilson intervals, cost per move.

A score counts a win 1, a draw 1/2, a loss 0. Its 95% interval is Wilson's score interval
with the score as the proportion (draws as half a success), which stays inside [0, 1] and
behaves at 0% and 100%, unlike the normal approximation:

>>> lo, hi = wilson_interval(8, 10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9433)
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``successes`` out of ``n`` (fractional successes allowed)."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie in [0, n={n}]; got {successes}")
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Record:
    """Wins, draws and losses of one side, and the score with its 95% interval."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, score: float) -> None:
        """Count one game scored 1, 0.5 or 0."""
        if score > 0.5:
            self.wins += 1
        elif score < 0.5:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """Wins plus half the draws."""
        return self.wins + 0.5 * self.draws

    @property
    def score(self) -> float:
        """Points per game (NaN with no games)."""
        return self.points / self.games if self.games else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the score."""
        return wilson_interval(self.points, self.games)

    def wdl(self) -> str:
        """``W/D/L`` as text."""
        return f"{self.wins}/{self.draws}/{self.losses}"


@dataclass
class AgentResults:
    """One agent's results: overall, as first player (seat 0), as second (seat 1), faults."""

    name: str
    total: Record = field(default_factory=Record)
    first: Record = field(default_factory=Record)
    second: Record = field(default_factory=Record)
    faults: int = 0


@dataclass
class PairResults:
    """Agent ``a`` against agent ``b`` from a's side, overall and with a in the first seat."""

    a: str
    b: str
    total: Record = field(default_factory=Record)
    a_first: Record = field(default_factory=Record)
    a_second: Record = field(default_factory=Record)


def tally(games: Iterable[Mapping[str, Any]], names: Sequence[str]) -> tuple[list[AgentResults], list[PairResults]]:
    """Per-agent and per-pair records from games with seat0, seat1 (agent ids), score0, faulty_seat."""
    agents = [AgentResults(n) for n in names]
    pairs: dict[tuple[int, int], PairResults] = {}
    for g in games:
        s0, s1, score0 = int(g["seat0"]), int(g["seat1"]), float(g["score0"])
        agents[s0].total.add(score0)
        agents[s0].first.add(score0)
        agents[s1].total.add(1 - score0)
        agents[s1].second.add(1 - score0)
        if g.get("faulty_seat") is not None:
            agents[(s0, s1)[int(g["faulty_seat"])]].faults += 1
        a, b = min(s0, s1), max(s0, s1)
        pr = pairs.setdefault((a, b), PairResults(names[a], names[b]))
        score_a = score0 if s0 == a else 1 - score0
        pr.total.add(score_a)
        (pr.a_first if s0 == a else pr.a_second).add(score_a)
    return agents, [pairs[k] for k in sorted(pairs)]


def score_matrix(games: Iterable[Mapping[str, Any]], n: int) -> tuple[np.ndarray, np.ndarray]:
    """(points, games) matrices: points[i, j] is i's total score against j over games[i, j]."""
    points = np.zeros((n, n))
    count = np.zeros((n, n))
    for g in games:
        s0, s1, score0 = int(g["seat0"]), int(g["seat1"]), float(g["score0"])
        points[s0, s1] += score0
        points[s1, s0] += 1 - score0
        count[s0, s1] += 1
        count[s1, s0] += 1
    return points, count


def summarize(values: Sequence[float]) -> dict[str, float]:
    """Mean, median, 95th percentile, max and count of a sample (NaN when empty)."""
    if len(values) == 0:
        nan = float("nan")
        return {"mean": nan, "median": nan, "p95": nan, "max": nan, "n": 0}
    a = np.asarray(values, dtype=float)
    return {"mean": float(a.mean()), "median": float(np.median(a)), "p95": float(np.percentile(a, 95)),
            "max": float(a.max()), "n": int(a.size)}


@dataclass
class Cost:
    """Search cost of one agent: per move and by move number (ply from the initial position)."""

    name: str
    nodes: dict[str, float]
    time: dict[str, float]
    depth: dict[str, float]
    ebf: dict[str, float]
    moves: int
    searched: int
    by_ply: dict[int, dict[str, float]]


def search_cost(moves: Iterable[Mapping[str, Any]], names: Sequence[str]) -> list[Cost]:
    """Cost per agent from move rows (agent id, ply, time, nodes, depth, ebf)."""
    per: dict[int, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    by_ply: dict[int, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for m in moves:
        d = per[int(m["agent"])]
        d["time"].append(float(m["time"]))
        if m.get("nodes") is not None:
            d["nodes"].append(float(m["nodes"]))
            by_ply[int(m["agent"])][int(m["ply"])].append(float(m["nodes"]))
        if m.get("depth") is not None:
            d["depth"].append(float(m["depth"]))
        if m.get("ebf"):
            d["ebf"].append(float(m["ebf"]))
    out = []
    for i, name in enumerate(names):
        d = per.get(i, {})
        curve = {ply: {"mean": float(np.mean(v)), "median": float(np.median(v)), "n": len(v)}
                 for ply, v in sorted(by_ply.get(i, {}).items())}
        out.append(Cost(name, summarize(d.get("nodes", [])), summarize(d.get("time", [])),
                        summarize(d.get("depth", [])), summarize(d.get("ebf", [])),
                        len(d.get("time", [])), len(d.get("nodes", [])), curve))
    return out
