"""Results and search cost from played games: W/D/L, scores with Wilson intervals, cost per move.

One tally serves tournaments (:func:`tally` over stored games) and ``evaluate``
(:func:`opponent_results`, the same tally from the evaluated policy's side).

A score counts a win 1, a draw 1/2, a loss 0. Its 95% interval is Wilson's score interval
with the score as the proportion (draws as half a success), which stays inside [0, 1] and
behaves at 0% and 100%, unlike the normal approximation:

>>> lo, hi = wilson_interval(8, 10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9433)
"""

from __future__ import annotations

import json

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from zerosum.evaluation.match import MatchResult

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
    sims: dict[str, float] = field(default_factory=lambda: summarize([]))
    """Simulations per move (network-guided searches)."""
    batch: dict[str, float] = field(default_factory=lambda: summarize([]))
    """Leaves per evaluator call, per move (network-guided searches)."""
    eval_share: dict[str, float] = field(default_factory=lambda: summarize([]))
    """The evaluator's share of a move's search time (network-guided searches)."""


def search_cost(moves: Iterable[Mapping[str, Any]], names: Sequence[str]) -> list[Cost]:
    """Cost per agent from move rows (agent id, ply, time, nodes, depth, ebf, and optionally
    ``stats``: a mapping or its JSON with a network-guided search's simulations, evaluations,
    batches and eval_time)."""
    per: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
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
        extra = m.get("stats")
        extra = json.loads(extra) if isinstance(extra, str) else extra
        if isinstance(extra, Mapping) and extra.get("batches"):
            d["sims"].append(float(extra["simulations"]))
            d["batch"].append(float(extra["evaluations"]) / float(extra["batches"]))
            if float(extra.get("time") or m["time"]) > 0:
                d["eval_share"].append(float(extra["eval_time"]) / float(extra.get("time") or m["time"]))
    out = []
    for i, name in enumerate(names):
        d = per.get(i, {})
        curve = {ply: {"mean": float(np.mean(v)), "median": float(np.median(v)), "n": len(v)}
                 for ply, v in sorted(by_ply.get(i, {}).items())}
        out.append(Cost(name, summarize(d.get("nodes", [])), summarize(d.get("time", [])),
                        summarize(d.get("depth", [])), summarize(d.get("ebf", [])),
                        len(d.get("time", [])), len(d.get("nodes", [])), curve, summarize(d.get("sims", [])),
                        summarize(d.get("batch", [])), summarize(d.get("eval_share", []))))
    return out


# ---- one policy against opponents (zerosum.evaluate) -------------------------------------------
@dataclass(frozen=True)
class EvaluatedGame:
    """One game of an evaluation: the opponent, the policy's seat, the seed and the match."""

    opponent: str
    """The opponent's name."""
    index: int
    """The game's index against this opponent."""
    seat: int
    """The policy's seat (0 moves first)."""
    seed: int
    """The game's seed."""
    match: MatchResult
    """The game itself."""

    @property
    def score(self) -> float:
        """The policy's score: 1 win, 0.5 draw, 0 loss."""
        s0 = self.match.score0
        return s0 if self.seat == 0 else 1.0 - s0

    @property
    def outcome(self) -> str:
        """``win``, ``draw`` or ``loss`` from the policy's side."""
        return "win" if self.score > 0.5 else ("loss" if self.score < 0.5 else "draw")

    @property
    def policy_fault(self) -> bool:
        """True when the policy lost this game by raising or by an illegal action."""
        return self.match.faulty_seat == self.seat


@dataclass
class OpponentResult:
    """The policy's results against one opponent, and that opponent's search cost."""

    opponent: str
    """The opponent's name."""
    total: Record = field(default_factory=Record)
    """The policy's wins, draws and losses over both seats."""
    first: Record = field(default_factory=Record)
    """The same, in the first seat."""
    second: Record = field(default_factory=Record)
    """The same, in the second seat."""
    faults: list[dict[str, Any]] = field(default_factory=list)
    """The games the policy lost by a fault (an illegal move or an exception), with the message."""
    opponent_faults: int = 0
    """Games the opponent lost by a fault."""
    lengths: list[int] = field(default_factory=list)
    """Each game's length in plies."""
    cost: Cost | None = None
    """The opponent's search cost (nodes, time, depth per move), or None."""
    policy_time: float = float("nan")
    """The policy's mean seconds a move (NaN before any move)."""

    @property
    def mean_length(self) -> float:
        """Mean game length in plies (opening included)."""
        return float(np.mean(self.lengths)) if self.lengths else float("nan")

    def row(self) -> dict[str, Any]:
        """The result as one flat dict (a DataFrame row)."""
        lo, hi = self.total.interval
        c = self.cost
        nan = float("nan")
        return {"opponent": self.opponent, "games": self.total.games, "wins": self.total.wins,
                "draws": self.total.draws, "losses": self.total.losses, "score": self.total.score,
                "score_low": lo, "score_high": hi,
                "first_games": self.first.games, "first_score": self.first.score,
                "second_games": self.second.games, "second_score": self.second.score,
                "policy_faults": len(self.faults), "opponent_faults": self.opponent_faults,
                "mean_length": self.mean_length, "policy_ms_per_move": 1000 * self.policy_time,
                "opponent_nodes_mean": c.nodes["mean"] if c else nan,
                "opponent_nodes_median": c.nodes["median"] if c else nan,
                "opponent_nodes_p95": c.nodes["p95"] if c else nan,
                "opponent_ms_mean": 1000 * c.time["mean"] if c else nan,
                "opponent_ms_p95": 1000 * c.time["p95"] if c else nan,
                "opponent_depth_mean": c.depth["mean"] if c else nan}


def opponent_results(names: Sequence[str], games: Iterable[EvaluatedGame]) -> list[OpponentResult]:
    """The policy's record against each opponent (``names``, distinct), by seat, with faults and costs.

    The records are :func:`tally`'s, with the policy as agent 0 and opponent i as agent i + 1.
    """
    results = {n: OpponentResult(n) for n in names}
    agent = {n: i + 1 for i, n in enumerate(names)}
    rows: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    policy_times: dict[str, list[float]] = {n: [] for n in names}
    for g in games:
        r, o = results[g.opponent], agent[g.opponent]
        rows.append({"seat0": 0 if g.seat == 0 else o, "seat1": o if g.seat == 0 else 0,
                     "score0": g.match.score0, "faulty_seat": g.match.faulty_seat})
        r.lengths.append(g.match.length)
        if g.policy_fault:
            r.faults.append({"opponent": g.opponent, "game": g.index, "seat": g.seat,
                             "termination": g.match.termination, "error": g.match.error or ""})
        for m in g.match.moves:
            if m.player == g.seat:
                policy_times[g.opponent].append(m.time)
            else:
                st = m.stats or {}
                moves.append({"agent": o - 1, "ply": m.ply, "time": m.time, "nodes": st.get("nodes"),
                              "depth": st.get("depth"), "ebf": st.get("ebf"), "stats": st})
    per_agent, pairs = tally(rows, ["policy", *names])
    for p in pairs:  # every pair is (policy, opponent): a is the policy
        results[p.b].total, results[p.b].first, results[p.b].second = p.total, p.a_first, p.a_second
    for n, cost in zip(names, search_cost(moves, names)):
        results[n].cost = cost
        results[n].opponent_faults = per_agent[agent[n]].faults
        if policy_times[n]:
            results[n].policy_time = float(np.mean(policy_times[n]))
    return [results[n] for n in names]
