"""Placing a policy on a game's rated ladder: :func:`rate`.

>>> import zerosum
>>> r = zerosum.rate("alphabeta(depth=1)", "tictactoe", games=20, seed=1)   # doctest: +SKIP
>>> print(r)                                                                 # doctest: +SKIP
alphabeta(depth=1) on tictactoe_v0: 440 Elo above random, 95% [..., ...] after 20 games

The rungs keep their ratings; only the policy's Elo is fitted (one parameter, by maximum
likelihood). Placement is adaptive: it plays rounds of ``round_games`` games (seats
alternating, pairs of games from one opening) against the rung whose predicted score is
nearest 0.5, refitting after each round, until ``games`` games are played. Its 95% interval
is the likelihood's (Fisher information at the estimate, draws counting half), the rungs
held at their ratings; ``scale_half_width`` says how well the ladder itself is known there.
A policy whose whole interval lies above the top rung or below random is reported as such
(``beyond``), never extrapolated. Such a placement stops early, once at least ``BEYOND_GAMES``
games put the policy's 99.9% interval wholly beyond the scale: more games would only say it again
(an agent above a short ladder's top took 10-18 minutes to be told so in 200 games).

An agent that raises or plays an illegal move ends the placement with a :class:`PlacementError`
that keeps the games played (``error.partial``).

A time-budgeted agent (``alphabeta(time=0.1)``, a default opponent) is as strong as the code it
runs on is fast. So unless ``ZEROSUM_TIER`` says otherwise, its placement runs on the game's own
compiled copy of the search (compiled first, once, if the disk cache lacks it), never on the
slower copy for every game that serves a cold cache while the game's own compiles
(:mod:`zerosum.games.kit.tiers`), where it would search 1.6-1.8x fewer nodes a move and place lower.
Fixed-cost agents play the same moves on either copy, and run as the tier chooses.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from zerosum.agents import Agent, make_agent
from zerosum.agents.checkpoints import jsonable_variant
from zerosum.evaluation.evaluate import EvaluationReport, evaluate, resolve_game
from zerosum.evaluation.ratings import ELO, expected_score, fit_fixed
from zerosum.evaluation.scale import Ladder, LadderError, ladder
from zerosum.games.kit import ZerosumError
from zerosum.games.kit.cache import notice
from zerosum.games.kit.tiers import forced, tier

DEFAULT_GAMES = 200
"""Games a placement plays by default: about +-50 Elo (95%) for a policy inside the ladder's span."""
ROUND_GAMES = 10
"""Games a round against one rung (five pairs from one opening each)."""
BEYOND_GAMES = 40
"""Games a placement plays at least before it stops early for a policy beyond the scale."""
BEYOND_Z = 3.29
"""The early stop's interval, 99.9%: it is checked after every round, so it is stricter than the 95% reported."""


class PlacementError(ZerosumError, RuntimeError):
    """A placement ended by its agent's fault; ``partial`` is the rating from the games played before it."""

    def __init__(self, message: str, partial: Rating | None) -> None:
        super().__init__(message)
        self.partial = partial
        """The rating from the games played before the fault (None if none was played)."""


@dataclass(frozen=True)
class RungGames:
    """The policy's games against one rung."""

    spec: str
    """The rung's spec."""
    elo: float
    """The rung's rating."""
    games: int
    """Games played against it."""
    score: float
    """The policy's score against it: (wins + draws / 2) / games."""
    expected: float
    """The score the policy's fitted Elo predicts against it."""


@dataclass(frozen=True)
class Rating:
    """Where a policy stands on a game's ladder (:func:`rate`)."""

    policy: str
    """The policy's name."""
    env: str
    """The env (with its version) the ladder rates."""
    elo: float
    """Its Elo above random (the top rung's rating when above it, 0 when below random)."""
    low: float
    """The lower end of its 95% interval."""
    high: float
    """The upper end (infinite above the top rung)."""
    games: int
    """Games played."""
    per_rung: tuple[RungGames, ...]
    """The games against each rung played."""
    beyond: str | None = None
    """``above`` (stronger than the top rung can tell), ``below`` (weaker than random), or None."""
    scale_half_width: float = 0.0
    """The ladder's own uncertainty where the policy landed: the half-widths of the rungs it played,
    weighted by its games against each. ``low``/``high`` place the policy against the rungs as rated;
    comparing it with a figure from another ladder (or a rebuilt one) adds this in quadrature."""
    seconds: float = 0.0
    """Wall time of the placement."""
    cost: dict[str, float] = field(default_factory=dict)
    """The policy's search cost a move: ``seconds``, and ``nodes`` where it reports them."""

    @property
    def half_width(self) -> float:
        """Half the interval's width (the ``+-`` of the Elo)."""
        return (self.high - self.low) / 2.0

    def __str__(self) -> str:
        if self.beyond == "above":
            head = f"above the top rung ({self.elo:.0f} Elo): the ladder cannot tell how far"
        elif self.beyond == "below":
            head = "below random (0 Elo)"
        else:
            head = (f"{self.elo:.0f} Elo above random, 95% [{self.low:.0f}, {self.high:.0f}] "
                    f"(the ladder's own +-{self.scale_half_width:.0f} there)")
        lines = [f"{self.policy} on {self.env}: {head} after {self.games} games"]
        for r in self.per_rung:
            lines.append(f"  vs {r.spec:<36} ({r.elo:>6.0f}) {r.games:>4} games  score {r.score:.3f}  "
                         f"expected {r.expected:.3f}")
        if self.cost:
            nodes = f", {self.cost['nodes']:,.0f} nodes" if "nodes" in self.cost else ""
            lines.append(f"  search cost a move: {self.cost['seconds']:.4f} s{nodes}")
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        """The rating as JSON types (an infinite bound as None)."""
        def num(x: float) -> float | None:
            return None if math.isinf(x) else round(x, 1)

        return {"policy": self.policy, "env": self.env, "elo": round(self.elo, 1), "low": num(self.low),
                "high": num(self.high), "scale_half_width": round(self.scale_half_width, 1), "games": self.games,
                "beyond": self.beyond, "seconds": round(self.seconds, 1),
                "cost": self.cost, "per_rung": [{"spec": r.spec, "elo": r.elo, "games": r.games,
                                                  "score": round(r.score, 3), "expected": round(r.expected, 3)}
                                                 for r in self.per_rung]}


def fit_policy(lad: Ladder, results: Mapping[str, tuple[float, int]]) -> tuple[float, float]:
    """(Elo, standard error in Elo) of a policy from its (points, games) against rungs of ``lad``.

    One virtual draw against each rung played keeps the estimate finite when the policy won
    or lost every game; the error is the inverse square root of the Fisher information.
    """
    specs = [s for s, (_, n) in results.items() if n > 0]
    if not specs:
        return 0.0, math.inf
    n = len(specs) + 1
    wins, count = np.zeros((n, n)), np.zeros((n, n))
    fixed = {}
    for k, spec in enumerate(specs, start=1):
        points, games = results[spec]
        wins[0, k], wins[k, 0] = points, games - points
        count[0, k] = count[k, 0] = games
        fixed[k] = lad.rung(spec).elo / ELO
    r = fit_fixed(wins, count, fixed, virtual_draws=1.0)
    info = 0.0
    for k in range(1, n):
        p = 1.0 / (1.0 + math.exp(r[k] - r[0]))
        info += (count[0, k] + 1.0) * p * (1.0 - p)
    return float(r[0] * ELO), ELO / math.sqrt(info) if info > 0 else math.inf


def next_rung(lad: Ladder, elo: float) -> str:
    """The rung whose predicted score against a policy of ``elo`` is nearest 0.5 (the most informative)."""
    return min(lad.rungs, key=lambda r: abs(expected_score(elo, r.elo) - 0.5)).spec


def _round_seed(seed: int, k: int) -> int:
    return int(np.random.SeedSequence([seed, 11, k]).generate_state(1, np.uint32)[0])


def _policy_cost(reports: list[EvaluationReport]) -> dict[str, float]:
    times, nodes = [], []
    for rep in reports:
        for g in rep.games:
            for m in g.match.moves:
                if m.player == g.seat:
                    times.append(m.time)
                    if m.stats and m.stats.get("nodes") is not None:
                        nodes.append(float(m.stats["nodes"]))
    out = {"seconds": round(float(np.mean(times)), 6) if times else 0.0}
    if nodes:
        out["nodes"] = round(float(np.mean(nodes)), 1)
    return out


PlayRound = Callable[[str, int, int], tuple[float, int, str | None]]
"""``play(rung spec, games, round index) -> (the policy's points, games played, a fault message or None)``."""


def place(lad: Ladder, play: PlayRound, games: int, round_games: int = ROUND_GAMES,
          progress: Callable[[int, int], None] | None = None) -> tuple[float, float, dict[str, tuple[float, int]]]:
    """The adaptive placement loop: rounds against the most informative rung, refitting after each.

    Returns (Elo, its standard error, {rung: (points, games)}). It stops before ``games`` once
    ``BEYOND_GAMES`` or more put the policy's ``BEYOND_Z`` interval wholly above the top rung or below
    random. A round that reports a fault raises :class:`PlacementError` with the games played so far
    (``partial``; its env is the ladder's).
    """
    results: dict[str, tuple[float, int]] = {}
    elo, se = lad.top.elo / 2.0, math.inf
    played, k = 0, 0
    while played < games:
        rung = next_rung(lad, elo)
        n = min(round_games, games - played)
        points, count, fault = play(rung, n + n % 2, k)
        old = results.get(rung, (0.0, 0))
        results[rung] = (old[0] + points, old[1] + count)
        played += count
        k += 1
        elo, se = fit_policy(lad, results)
        if progress is not None:
            progress(played, games)
        if fault is not None:
            raise PlacementError(f"{fault} (against {rung}, after {played} games); the games played are kept in "
                                 f"error.partial", _rating(lad, "policy", elo, se, results))
        if played >= BEYOND_GAMES and beyond_scale(lad, elo, BEYOND_Z * se) is not None:
            break
    return elo, se, results


def rate(agent: Any, game: Any, games: int = DEFAULT_GAMES, seed: int = 0, *, ladder_path: Any = None,
         round_games: int = ROUND_GAMES, opening_plies: int | None = None, workers: int = 1,
         name: str | None = None, progress: Callable[[int, int], None] | None = None) -> Rating:
    """Place ``agent`` (anything :func:`zerosum.evaluate` takes) on the ladder of ``game`` (see the module)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise LadderError(f"games is the number of games to play, an int >= 2; got {games!r}")
    if isinstance(round_games, bool) or not isinstance(round_games, int) or round_games < 2 or round_games % 2:
        raise LadderError(f"round_games is an even int >= 2 (seats alternate in pairs); got {round_games!r}")
    _, g = resolve_game(game)
    lad = ladder(g, ladder_path)
    if lad.variant != jsonable_variant(g.variant):
        raise LadderError(f"the {lad.game} ladder rates the variant {lad.variant}; this game is "
                          f"{jsonable_variant(g.variant)}: place a policy on the variant a ladder was built for")
    plies = int(lad.built.get("opening_plies", 2) if opening_plies is None else opening_plies)
    reports: list[EvaluationReport] = []
    start = time.perf_counter()

    def play(rung: str, n: int, k: int) -> tuple[float, int, str | None]:
        rep = evaluate(agent, g, opponents=[rung], games=n, seed=_round_seed(seed, k), workers=workers,
                       opening_plies=plies, name=name or (reports[0].policy if reports else None))
        reports.append(rep)
        rec = rep.results[0].total
        fault = None
        if rep.faults:
            f = rep.faults[0]
            fault = f"{rep.policy} lost game {f['game']} by a fault ({f['termination']}): {f['error']}"
        return rec.wins + rec.draws / 2.0, rec.games, fault

    policy = name
    own_copy = tier() == "auto" and time_budgeted(agent)
    if own_copy:
        notice(f"placement-tier:{g.name}", f"placing a time-budgeted agent on {g.name}'s own compiled search "
               "(compiled first, once, if need be): a time budget's strength is the speed of the code it runs on")
    try:
        with forced("inline") if own_copy else nullcontext():
            elo, se, results = place(lad, play, games, round_games, progress)
    except PlacementError as exc:
        if exc.partial is not None:
            exc.partial = _finish(exc.partial, reports, start)
        raise
    if reports:
        policy = reports[0].policy
    return _finish(_rating(lad, policy or "policy", elo, se, results), reports, start)


def time_budgeted(agent: Any) -> bool:
    """Whether ``agent`` (a spec string or an :class:`Agent`) searches on a time budget, itself or the
    agent it wraps (``noisy(base=alphabeta(time=0.1), ...)``); False for a spec that does not parse, which
    :func:`zerosum.evaluate` then reports."""
    if isinstance(agent, str):
        try:
            agent = make_agent(agent, rng=0)
        except Exception:  # noqa: BLE001 - evaluate() reports a bad spec with what is allowed
            return False
    for _ in range(16):  # wrappers of wrappers, never a loop
        if not isinstance(agent, Agent):
            return False
        budget = getattr(agent, "time", None)
        if isinstance(budget, (int, float)) and not isinstance(budget, bool):
            return True
        agent = getattr(agent, "inner", None)
    return False


def beyond_scale(lad: Ladder, elo: float, half_width: float) -> str | None:
    """``above`` if ``elo`` +- ``half_width`` lies wholly above the ladder's top rung, ``below`` if wholly
    below random (0), else None."""
    if elo - half_width > lad.top.elo:
        return "above"
    if elo + half_width < 0.0:
        return "below"
    return None


def _finish(r: Rating, reports: list[EvaluationReport], start: float) -> Rating:
    return replace(r, policy=reports[0].policy if reports else r.policy, seconds=time.perf_counter() - start,
                   cost=_policy_cost(reports))


def _rating(lad: Ladder, policy: str, elo: float, se: float, results: Mapping[str, tuple[float, int]]) -> Rating:
    per = tuple(RungGames(s, lad.rung(s).elo, n, p / n, expected_score(elo, lad.rung(s).elo))
                for s, (p, n) in results.items() if n)
    played = sum(r.games for r in per)
    # the rungs' own uncertainty, weighted by the games against each
    rung_hw = sum(lad.rung(r.spec).half_width * r.games for r in per) / max(played, 1)
    hw = 1.959964 * se
    low, high = elo - hw, elo + hw
    beyond = beyond_scale(lad, elo, hw)
    if beyond == "above":
        elo, low, high = lad.top.elo, lad.top.elo, math.inf
    elif beyond == "below":
        elo, low, high = 0.0, -math.inf, 0.0
    return Rating(policy, lad.env, elo, low, high, played, per, beyond, scale_half_width=rung_hw)


__all__ = ["BEYOND_GAMES", "BEYOND_Z", "DEFAULT_GAMES", "PlacementError", "PlayRound", "Rating", "RungGames",
           "beyond_scale", "fit_policy", "next_rung", "place", "rate", "time_budgeted"]
