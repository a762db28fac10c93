"""The vector env's opponents: an opponent spec (or mixture) compiled into the table the
vector step reads (:mod:`zerosum.envs._vector_template`), with a search record per alpha-beta
component and the agents that answer through Python."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numba.typed import List as TypedList

from zerosum.agents.base import Agent, RandomAgent
from zerosum.agents.noisy import NoisyAgent
from zerosum.agents.search import AlphaBetaAgent
from zerosum.agents.spec import make_agent
from zerosum.games import Game
from zerosum.games.kit import Heuristic, ZerosumError
from zerosum.search._arrays import NegamaxArrays, tt_arrays
from zerosum.search._flags import C_EPOCH, C_FLAGS, C_GEN, C_HIST_MODE, C_QS_PLIES, N_CFG, N_STATS
from zerosum.search.alphabeta import MIN_TT_SLOTS
from zerosum.search.functions import heuristic_ref, resolve_heuristic


class VectorEnvError(ZerosumError, ValueError):
    """Bad input to a vector env: the message names the lane, the value and what is allowed."""


def _mixture(opponent: Any, weights: Sequence[float] | None) -> tuple[list[Any], np.ndarray]:
    if isinstance(opponent, Mapping):
        if weights is not None:
            raise VectorEnvError("give the mixture's weights either in the dict or as opponent_weights, not both")
        items, weights = list(opponent), list(opponent.values())
    elif isinstance(opponent, (str, Agent)):
        items = [opponent]
    elif isinstance(opponent, Sequence) and opponent:
        items = list(opponent)
    else:
        raise VectorEnvError(f"opponent={opponent!r}: an agent spec, an Agent, a list of them or a dict "
                             "{spec: weight} is allowed")
    w = np.ones(len(items)) if weights is None else np.asarray(list(weights), dtype=np.float64)
    if w.shape != (len(items),) or not np.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
        raise VectorEnvError(f"opponent_weights={weights!r}: {len(items)} non-negative numbers, not all 0")
    return items, w


class Opponents:
    """An opponent mixture compiled for the vector step: a table row per component, the
    alpha-beta components' search records, the Python agents."""

    def __init__(self, game: Game, opponent: Any, weights: Sequence[float] | None = None) -> None:
        items, w = _mixture(opponent, weights)
        self.game = game
        """The game the opponents play."""
        self.names: list[str] = []
        """Each component's name (its spec, or the agent's name)."""
        self.table = np.zeros((len(items), 8), np.int64)
        """Per component: kind, record, depth, iterative, aspiration, tie_break, follow_tt, tt_slots."""
        self.eps = np.zeros(len(items), np.float64)
        """Per component: the chance of a uniformly random move instead of its own."""
        self.cum = np.cumsum(w / w.sum())
        """The mixture's cumulative weights (each lane draws a component per episode)."""
        self.agents: dict[int, Agent] = {}
        """The components that play through Python, by component index."""
        self.records: list[NegamaxArrays] = []
        """The alpha-beta components' search records (tables), one per component."""
        self.heuristics: list[Heuristic] = []
        """Each record's heuristic, in the order of ``records``."""
        for k, item in enumerate(items):
            self._add(k, item)
        if not self.records:  # the compiled step takes a list of records: one unused
            self.records.append(self._record(AlphaBetaAgent(depth=1), 1))
        self.typed_records = TypedList(self.records)
        """``records`` as a numba typed List, the form the compiled step takes them in (never empty: an unused
        record stands in where no component searches)."""

    def _add(self, k: int, item: Any) -> None:
        if isinstance(item, Agent):
            agent, name, compiled = item, item.name, False
        elif isinstance(item, str):
            try:
                agent = make_agent(item)
            except ValueError as exc:
                raise VectorEnvError(f"opponent {item!r}: {exc}") from None
            name, compiled = item, True
        else:
            raise VectorEnvError(f"opponent {item!r}: an agent spec string or an Agent is allowed")
        try:
            agent.prepare(self.game)
        except (ValueError, TypeError) as exc:
            raise VectorEnvError(f"opponent {name!r} cannot play {self.game.name}: {exc}") from None
        self.names.append(name)
        inner, eps = agent, 0.0
        if isinstance(agent, NoisyAgent) and compiled:
            inner, eps = agent.inner, agent.epsilon
        kind = 2
        if compiled and type(inner) is RandomAgent:
            kind = 0
        elif compiled and type(inner) is AlphaBetaAgent and inner.time is None and inner.nodes is None:
            kind = 1
        self.table[k, 0] = kind
        if kind == 2:
            self.agents[k] = agent
            return
        self.eps[k] = eps
        if kind == 1:
            ab: AlphaBetaAgent = inner  # type: ignore[assignment]
            depth = int(ab.depth or 1)
            try:
                ab.config.check(self.game, depth)
            except ValueError as exc:
                raise VectorEnvError(f"opponent {name!r} cannot play {self.game.name}: {exc}") from None
            self.table[k, 1] = len(self.records)
            self.records.append(self._record(ab, depth))
            cfg = ab.config
            slots = min(int(self.records[-1].tt.shape[0]),
                        max(MIN_TT_SLOTS, 1 << (4 * int(self.game.max_moves) ** (depth - 1) - 1).bit_length()))
            self.table[k, 2:] = (depth, cfg.iterative, cfg.aspiration, 1 if ab.tie_break else 0, cfg.tt, slots)

    def _record(self, ab: AlphaBetaAgent, depth: int) -> NegamaxArrays:
        """A search record of the agent's options: as AlphaBeta builds one, a table of its own."""
        g, cfg = self.game, ab.config
        self.heuristics.append(resolve_heuristic(g, ab.heuristic))
        heur = heuristic_ref(self.heuristics[-1])
        kept = {**tt_arrays(cfg.tt_size if cfg.tt else 1), "history": np.zeros(g.num_actions, np.float64),
                "noise": np.zeros(g.num_actions, np.float64), "root_values": np.zeros(g.num_actions, np.float64),
                "cfg": np.zeros(N_CFG, np.int64), "stats": np.zeros(N_STATS, np.int64)}
        w = NegamaxArrays.sized(g.state_size, g.max_moves, g.num_actions, depth + cfg.quiescence_plies, heur, **kept)
        w.cfg[C_FLAGS] = cfg.search_flags(g, depth, None, None)
        w.cfg[C_QS_PLIES] = cfg.quiescence_plies
        w.cfg[C_HIST_MODE] = 0 if cfg.history_increment == "pow2" else 1
        w.cfg[C_GEN], w.cfg[C_EPOCH] = 0, 1
        return w

    def set_weights(self, weights: Sequence[float]) -> None:
        """Replace the mixture's weights (one non-negative number per component, not all 0): the
        episodes that start from now on draw by them."""
        w = np.asarray(list(weights), dtype=np.float64)
        if w.shape != self.cum.shape or not np.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
            raise VectorEnvError(f"opponent weights {list(weights)!r}: {self.cum.shape[0]} non-negative numbers "
                                 f"(one per opponent: {', '.join(self.names)}), not all 0")
        self.cum[:] = np.cumsum(w / w.sum())

    def seed(self, rng: np.random.Generator) -> None:
        """Give each Python opponent a generator drawn from ``rng``."""
        for agent in self.agents.values():
            agent.seed(np.random.default_rng(int(rng.integers(2**63))))

    def moves(self, k: int, states: np.ndarray) -> np.ndarray:
        """Python opponent ``k``'s moves in ``states`` (one row each): one call of its
        :meth:`~zerosum.agents.Agent.act_batch` (an agent without its own plays ``act`` row by row)."""
        agent = self.agents[k]
        out = np.asarray(agent.act_batch(self.game, states), dtype=np.int64)
        if out.shape != (states.shape[0],):
            raise VectorEnvError(f"opponent {self.names[k]}: act_batch answered shape {out.shape} for "
                                 f"{states.shape[0]} states; one action per state is required")
        return out


__all__ = ["Opponents", "VectorEnvError"]
