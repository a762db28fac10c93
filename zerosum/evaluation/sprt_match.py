"""Is A stronger than B? A match of game pairs, stopped by a sequential test (SPRT) or at a fixed length.

    from zerosum.evaluation import sprt
    out = sprt("tictactoe", "alphabeta(depth=9)", "random", elo0=0, elo1=50, workers=1)
    print(out.verdict, out.status.elo)       # H1 accepted  Elo +... [95% interval ..., ...]

A match runs on the tournament core: the two agents are a two-agent tournament
(:func:`~zerosum.evaluation.tournament.schedule` gives pair ``k`` as game ``k`` of both
seat orders, from one opening; :func:`~zerosum.evaluation.tournament.validate` checks the
game, variant and agents; a backend plays the games; the SQLite
:class:`~zerosum.evaluation.store.Store` keeps each finished game at once). After each
completed pair, in pair order, the pentanomial GSPRT of :mod:`zerosum.evaluation.gsprt` is
updated, and the match stops when its log-likelihood ratio crosses a bound. Because the
pairs are taken in their scheduled order, the verdict does not depend on the number of
workers, and re-running the same call resumes from the stored games (a decided match is
only reported again). Another match's database, or a tournament's, is refused before any
game is played.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zerosum.evaluation.config import ConfigError, TournamentConfig, build_config
from zerosum.evaluation.gsprt import EloEstimate, Sprt, check_error_rates, elo_estimate, pair_category
from zerosum.evaluation.store import Store

DEFAULT_SPRT_GAMES = 2000
DEFAULT_FIXED_GAMES = 100
VERDICTS = {"H1": "H1 accepted", "H0": "H0 accepted", None: "inconclusive (max games reached)"}


@dataclass(frozen=True)
class SprtStatus:
    """The match after ``pairs`` completed pairs: counts, A's W/D/L, the LLR and the Elo estimate."""

    pairs: int
    """Completed pairs of games (same opening, seats swapped)."""
    pentanomial: tuple[int, int, int, int, int]
    """How many pairs A scored 0, 1/2, 1, 3/2 and 2 points in."""
    wdl: tuple[int, int, int]
    """A's wins, draws and losses."""
    llr: float | None
    """The log-likelihood ratio of H1 over H0 (None without a test)."""
    bounds: tuple[float, float] | None
    """The LLR bounds: below the first H0 is accepted, above the second H1 (None without a test)."""
    decision: str | None = None
    """``"H0"``, ``"H1"`` or None (not decided)."""

    @functools.cached_property
    def elo(self) -> EloEstimate:
        """A's Elo over B with its 95% interval (computed when first asked for)."""
        return elo_estimate(self.pentanomial)

    def line(self) -> str:
        """One line for the live display."""
        w, d, l_ = self.wdl
        text = (f"pairs {self.pairs:>4}  games {2 * self.pairs:>5}  W/D/L {w}/{d}/{l_}  "
                f"pentanomial {list(self.pentanomial)}")
        if self.llr is not None and self.bounds is not None:
            text += f"  LLR {self.llr:+.2f} [{self.bounds[0]:+.2f}, {self.bounds[1]:+.2f}]"
        return f"{text}  {self.elo}"


@dataclass
class SprtResult:
    """A finished (or decided, or max-length) match and where its games are stored."""

    config: TournamentConfig
    """The match as a two-agent tournament configuration."""
    test: Sprt | None
    """The sequential test, or None for a fixed number of games."""
    status: SprtStatus
    """The counts, LLR and Elo estimate at the end."""
    database: Path
    """The SQLite file holding every game."""
    played: int
    """Games played by this call (a resumed match played fewer)."""
    resumed: bool
    """Whether the match continued games already in the database."""
    seconds: float
    """Wall time of this call."""
    max_games: int
    """The most games the match could play."""

    @property
    def verdict(self) -> str:
        """``H1 accepted``, ``H0 accepted``, ``inconclusive (max games reached)``, or ``fixed length``."""
        return VERDICTS[self.status.decision] if self.test is not None else "fixed length"

    def summary(self) -> str:
        """The final line: the verdict, the evidence, and the Elo estimate with its 95% interval."""
        a, b = (e.name for e in self.config.agents)
        s = self.status
        how = f"after {s.pairs} pairs ({2 * s.pairs} games)"
        if self.test is not None and s.llr is not None:
            lo, hi = self.test.bounds
            how += (f", LLR {s.llr:+.2f} in bounds [{lo:+.2f}, {hi:+.2f}] "
                    f"for Elo {self.test.elo0:g} vs {self.test.elo1:g}")
        w, d, l_ = s.wdl
        return f"{self.verdict} {how}: {a} vs {b} W/D/L {w}/{d}/{l_}, {s.elo}"


def match_config(game: str, a: str, b: str, *, variant: Mapping[str, Any] | None = None, max_games: int,
                 opening_plies: int = 2, seed: int = 0, workers: int | None = None, backend: str = "process",
                 output: str | os.PathLike[str] | None = None) -> TournamentConfig:
    """The two-agent tournament a match plays (checked: types, the game and its variant)."""
    from zerosum.values import variant_game

    if isinstance(max_games, bool) or not isinstance(max_games, int) or max_games < 2 or max_games % 2:
        raise ConfigError(f"max games = {max_games!r} is not allowed: an even number, at least 2 "
                          "(games are played in pairs, both seats from one opening)")
    try:
        built = variant_game(game, variant or {})  # an unknown game or variant key names what is allowed
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    raw = {"game": game, "agents": [a, b], "variant": {k: built.variant[k] for k in (variant or {})},
           "games_per_pairing": max_games // 2, "opening_plies": opening_plies, "seed": seed, "workers": workers,
           "backend": backend, "output": str(output) if output is not None else "results/match-{game}-{hash}",
           "name": f"{a} vs {b}"}
    return build_config({k: v for k, v in raw.items() if v is not None}, "match")


class _Tally:
    """Pairs in scheduled order: the pentanomial counts and A's games, the test after each pair."""

    def __init__(self, test: Sprt | None, max_pairs: int) -> None:
        self.test, self.max_pairs = test, max_pairs
        self.scores: dict[tuple[int, int], float] = {}  # (pairing, game index) -> A's score
        self.counts = [0] * 5
        self.wdl = [0, 0, 0]
        self.pairs = 0
        self.llr: float | None = None
        self.decision: str | None = None

    def add(self, pairing: int, game_index: int, seat0: int, score0: float) -> bool:
        """Record one game; True when the completed prefix of pairs grew."""
        self.scores[(pairing, game_index)] = score0 if seat0 == 0 else 1.0 - score0
        grew = False
        while self.decision is None and self.pairs < self.max_pairs and \
                (0, self.pairs) in self.scores and (1, self.pairs) in self.scores:
            pair = (self.scores[(0, self.pairs)], self.scores[(1, self.pairs)])
            self.counts[pair_category(sum(pair))] += 1
            for x in pair:
                self.wdl[0 if x > 0.5 else 2 if x < 0.5 else 1] += 1
            self.pairs += 1
            if self.test is not None:
                self.llr = float(self.test.llr(self.counts))
                self.decision = self.test.decide(self.llr)
            grew = True
        return grew

    @property
    def finished(self) -> bool:
        return self.decision is not None or self.pairs >= self.max_pairs

    def status(self) -> SprtStatus:
        return SprtStatus(self.pairs, tuple(self.counts), tuple(self.wdl), self.llr,  # type: ignore[arg-type]
                          self.test.bounds if self.test else None, self.decision)


def sprt(game: str, a: str, b: str, *, elo0: float | None = None, elo1: float | None = None,
         alpha: float = 0.05, beta: float = 0.05, variant: Mapping[str, Any] | None = None,
         max_games: int | None = None, opening_plies: int = 2, seed: int = 0, workers: int | None = None,
         backend: str = "process", output: str | os.PathLike[str] | None = None,
         on_pair: Callable[[SprtStatus], None] | None = None, note: Callable[[str], None] = print) -> SprtResult:
    """Play pairs of games between agent specs ``a`` and ``b`` until the SPRT decides (or ``max_games``).

    With ``elo0`` and ``elo1`` (logistic Elo of A over B; H0: ``elo0``, H1: ``elo1``) the
    match is a sequential test with error rates ``alpha`` and ``beta``; without them it
    plays ``max_games`` games. ``on_pair(status)`` is called after each completed pair.
    Every error in the arguments is raised before any game is played.
    """
    from zerosum.evaluation.backends import make_backend
    from zerosum.evaluation.tournament import pairings, schedule, validate

    if (elo0 is None) != (elo1 is None):
        raise ConfigError("give both Elo bounds of the test (elo0 and elo1), or neither for a fixed-length match")
    check_error_rates(alpha, beta)
    test = Sprt(elo0, elo1, alpha, beta) if elo0 is not None and elo1 is not None else None
    max_games = max_games if max_games is not None else DEFAULT_SPRT_GAMES if test else DEFAULT_FIXED_GAMES
    cfg = match_config(game, a, b, variant=variant, max_games=max_games, opening_plies=opening_plies, seed=seed,
                       workers=workers, backend=backend, output=output)
    prep = validate(cfg, note)
    if prep is None:  # pragma: no cover - only optional games are skipped, and a match's game is not optional
        raise ConfigError(f"game {game!r} is not available")
    store = Store(cfg.output_dir() / "match.sqlite")
    fingerprint = {**cfg.fingerprint(), "kind": "match"}  # a tournament's database is another configuration
    info = {**cfg.as_dict(), "kind": "match", "max_games": max_games,
            "sprt": None if test is None else {"elo0": test.elo0, "elo1": test.elo1, "alpha": alpha, "beta": beta}}
    names = [e.name for e in cfg.agents]
    try:
        resumed = store.init(info, fingerprint, [(e.name, e.spec) for e in cfg.agents], pairings(2))
        tally = _Tally(test, max_games // 2)
        for pairing, index, seat0, score0 in store.scores():
            tally.add(pairing, index, seat0, score0)
        if resumed:
            note(f"resuming {store.path}: {len(tally.scores)} games stored")
        if on_pair is not None and tally.pairs:
            on_pair(tally.status())
        todo = [t for t in schedule(cfg, prep.game) if (t.pairing, t.game_index) not in tally.scores]
        payload = {"game": cfg.game, "variant": dict(cfg.variant), "names": names,
                   "specs": [e.spec for e in cfg.agents]}
        start, played = time.perf_counter(), 0
        if not tally.finished and todo:
            games = make_backend(cfg.backend, cfg.n_workers(), cfg.address).run(payload, todo)
            try:
                for task, match in games:
                    if store.add_game(task, match) is not None:
                        played += 1
                    if tally.add(task.pairing, task.game_index, task.seats[0], match.score0) and on_pair:
                        on_pair(tally.status())
                    if tally.finished:
                        break
            except KeyboardInterrupt:
                note(f"\ninterrupted; {store.count()} games are stored in {store.path}; "
                     "run the same command again to resume")
                raise
            finally:
                games.close()  # stops the workers still playing games the test no longer needs
        return SprtResult(cfg, test, tally.status(), store.path, played, resumed, time.perf_counter() - start,
                          max_games)
    finally:
        store.close()
