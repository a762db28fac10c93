"""Frozen records every search returns: the value, the move, the line, and the cost."""

from __future__ import annotations

from dataclasses import dataclass, field

WIN = 1_000_000.0
"""A win at ply p scores WIN - p (a faster win is better, a slower loss is better)."""
WIN_BOUND = WIN - 10_000.0
"""Any |value| at or above this is a proven win or loss."""


@dataclass(frozen=True)
class SearchStats:
    """What one search (or one iteration of iterative deepening) cost.

    ``nodes``: positions visited (MCTS: tree nodes); ``leaves``: positions scored without a
    search below them (alpha-beta, minimax); ``simulations``: MCTS simulations run.
    Alpha-beta also counts ``qnodes`` (nodes of the quiescence search, within ``nodes``),
    ``reduced`` (late moves searched at reduced depth) and ``researched`` (searches repeated
    with a wider window or at full depth); ``value`` is the iteration's value. The
    network-guided search counts ``evaluations`` (leaves it sent to the evaluator),
    ``batches`` (evaluator calls, which may hold other searches' leaves too) and
    ``eval_time`` (seconds in the evaluator, the rest of ``time`` being the tree's).
    """

    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    tt_probes: int = 0
    tt_hits: int = 0
    depth: int = 0
    time: float = 0.0
    simulations: int = 0
    qnodes: int = 0
    reduced: int = 0
    researched: int = 0
    value: float = 0.0
    evaluations: int = 0
    batches: int = 0
    eval_time: float = 0.0

    @property
    def ebf(self) -> float:
        """Effective branching factor: nodes ** (1 / depth)."""
        return float(self.nodes) ** (1.0 / self.depth) if self.depth > 0 and self.nodes > 0 else 0.0

    @property
    def nodes_per_second(self) -> float:
        """Nodes divided by wall time."""
        return self.nodes / self.time if self.time > 0 else 0.0

    @property
    def mean_batch(self) -> float:
        """Leaves per evaluator call: evaluations / batches (for one of several lanes, its share)."""
        return self.evaluations / self.batches if self.batches > 0 else 0.0

    @property
    def tree_time(self) -> float:
        """Seconds outside the evaluator: time - eval_time."""
        return max(self.time - self.eval_time, 0.0)

    def as_dict(self) -> dict[str, float]:
        """Plain numbers, for logs and stores."""
        return {
            "nodes": self.nodes, "leaves": self.leaves, "cutoffs": self.cutoffs,
            "tt_probes": self.tt_probes, "tt_hits": self.tt_hits, "depth": self.depth,
            "time": self.time, "ebf": self.ebf, "simulations": self.simulations, "qnodes": self.qnodes,
            "reduced": self.reduced, "researched": self.researched, "evaluations": self.evaluations,
            "batches": self.batches, "eval_time": self.eval_time,
        }


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search from one position.

    ``value`` is from the point of view of the player to move at the root; ``action`` is
    the move chosen; ``pv`` the principal variation (starting with ``action``);
    ``stats`` the totals over all iterations; ``iterations`` the per-depth records of
    iterative deepening (one entry for a fixed-depth search).
    """

    value: float
    action: int
    pv: tuple[int, ...]
    stats: SearchStats
    iterations: tuple[SearchStats, ...] = field(default_factory=tuple)
    algorithm: str = "alphabeta"

    @property
    def is_proven(self) -> bool:
        """True when the value is a forced win or loss."""
        return abs(self.value) >= WIN_BOUND

    @property
    def plies_to_end(self) -> int | None:
        """For a proven result, the number of plies to the end of the game."""
        return round(WIN - abs(self.value)) if self.is_proven else None

    def as_dict(self) -> dict[str, object]:
        """Plain data, for logs and stores."""
        return {"value": self.value, "action": self.action, "pv": list(self.pv),
                "algorithm": self.algorithm, **self.stats.as_dict()}
