"""The ``alphazero`` agent: a network checkpoint playing alone or guiding the batched search.

>>> from zerosum.agents import make_agent
>>> agent = make_agent("alphazero(path=runs/c4/net.pt, sims=64)")        # doctest: +SKIP
>>> agent = make_agent("alphazero(path=zoo:connect_four, sims=0)")      # doctest: +SKIP

* ``sims=0`` plays the network's policy over the legal moves, with no search: the most
  likely move, or with ``temperature`` T > 0 a move drawn with probability
  ``softmax(logits / T)`` from the agent's generator.
* ``sims=N > 0`` runs :class:`~zerosum.search.guided.BatchedSearch` on one lane, ``N``
  simulations a move, ``leaves`` (8) leaves evaluated together per step (virtual loss), with
  the selection ``rule`` (``puct``: ``c_puct``, the move ~ visits^(1/T), T = 0 the most
  visited; ``gumbel``: the sequential-halving winner) and no root noise. The tree is kept
  between the agent's own moves: the next search starts from the subtree of the moves played
  since (found by replaying the opponent's moves from the last root), or from a fresh root
  when the position is not a descendant (a new game, an undo, a hint anywhere).

The checkpoint (``path``: a ``.pt`` with its ``.json`` sidecar, see
:mod:`zerosum.nets.checkpoint`, or ``zoo:NAME``) is loaded once when the agent is built;
:meth:`~AlphaZeroAgent.spawn` copies share it. A missing checkpoint, ``sims`` below 0 or an
unknown rule fail when the agent is built, a checkpoint for another game, variant or
observation shape when it is prepared for a game: before any game starts.
"""

from __future__ import annotations

import copy
import math
import time
from collections import deque
from typing import Any

import numpy as np

from zerosum.agents.base import Agent, Rng, batch_states, sample_rows
from zerosum.games.kit import ONGOING, Action, Game, GameOverError, State
from zerosum.nets.checkpoint import check_network_game, checkpoint_path, load_network
from zerosum.nets.evaluator import greedy_moves, legal_logits
from zerosum.nets.errors import CheckpointError
from zerosum.search.result import SearchResult, SearchStats

RULES = ("puct", "gumbel")
"""The selection rules ``rule`` allows."""
MAX_REPLAY = 20_000
"""Positions tried, at most, when looking for the moves played since the last search."""


def _number(name: str, value: Any, *, low: float, inclusive: bool) -> float:
    ok = (not isinstance(value, bool) and isinstance(value, (int, float, np.integer, np.floating))
          and math.isfinite(value) and (value >= low if inclusive else value > low))
    if not ok:
        raise ValueError(f"{name}={value!r} is not allowed: a number {'>=' if inclusive else '>'} {low:g}")
    return float(value)


class AlphaZeroAgent(Agent):
    """A network checkpoint as a player, alone (``sims=0``) or guiding the batched search."""

    def __init__(self, path: str, sims: int = 0, rule: str = "puct", c_puct: float = 1.25, temperature: float = 0.0,
                 device: str = "cpu", leaves: int = 8, rng: Rng = None) -> None:
        from zerosum.nets.evaluator import NetworkEvaluator

        super().__init__(rng)
        if isinstance(sims, bool) or not isinstance(sims, (int, np.integer)) or sims < 0:
            raise ValueError(f"sims={sims!r} is not allowed: an int >= 0 (0 plays the network's policy alone)")
        if rule not in RULES:
            raise ValueError(f"rule={rule!r} is not allowed: one of {RULES}")
        if isinstance(leaves, bool) or not isinstance(leaves, (int, np.integer)) or leaves < 1:
            raise ValueError(f"leaves={leaves!r} is not allowed: an int >= 1")
        if not isinstance(path, str) or not path:
            raise CheckpointError(f"alphazero needs path=<network .pt> or path=zoo:NAME; got {path!r}")
        self.sims = int(sims)
        """Simulations a move (0: the network's policy alone)."""
        self.rule = rule
        """The search's selection rule, one of :data:`RULES`."""
        self.leaves = int(leaves)
        """Leaves evaluated together per search step (virtual loss keeps them apart)."""
        self.c_puct = _number("c_puct", c_puct, low=0.0, inclusive=False)
        """PUCT's exploration constant."""
        self.temperature = _number("temperature", temperature, low=0.0, inclusive=True)
        """0 plays the best move; T > 0 draws it with probability policy^(1/T) (sims=0) or visits^(1/T) (PUCT)."""
        self.path = path
        """The checkpoint as given (a path or ``zoo:NAME``)."""
        net, meta = load_network(path, device=device)
        self.net = net
        """The network (a ``torch.nn.Module`` in evaluation mode), shared by spawned copies."""
        self.metadata = meta
        """The checkpoint's sidecar (game, variant, network config, training steps, ...)."""
        self.evaluator = NetworkEvaluator(self.net, device=device)
        """The network as the search's evaluator."""
        self.name = f"alphazero({checkpoint_path(path).name}, sims={self.sims})"
        """The agent's name (the spec, when built from one)."""
        self._checked: set[int] = set()
        self._search: Any = None  # (game, BatchedSearch) of the game being played
        self._root: State | None = None  # the position the kept tree is rooted at
        self._played: Action | None = None  # the move this agent played there

    def reset(self) -> None:
        """Forget the last game's tree."""
        super().reset()
        self._root = self._played = None

    def spawn(self, rng: Rng) -> AlphaZeroAgent:
        """A copy for one game sharing the (read-only) network, with no tree and its own generator."""
        clone = copy.copy(self)
        clone._checked = set(self._checked)
        clone._search = None
        clone.reset()
        clone.seed(rng)
        return clone

    def prepare(self, game: Game) -> None:
        """Refuse a game, variant, observation shape or action count the network was not made for."""
        check_network_game(self.metadata, game, where=f"alphazero checkpoint {checkpoint_path(self.path)}")
        self._checked.add(id(game))

    def act(self, game: Game, state: State) -> Action:
        """The network's move (``sims=0``) or the search's (``sims>0``) in ``state``."""
        if id(game) not in self._checked:
            self.prepare(game)
        if game.is_terminal(state):
            raise GameOverError("alphazero was asked to move in a finished game")
        return self._policy_move(game, state) if self.sims == 0 else self._search_move(game, state)

    # ---- sims=0: the network alone ------------------------------------------------------
    def _policy_move(self, game: Game, state: State) -> Action:
        start = time.perf_counter()
        mask = game.legal_mask(state)
        obs = game.observation(state, game.current_player(state))
        logits, values = self.evaluator(obs[None], mask[None])
        if self.temperature == 0.0:
            action = int(greedy_moves(logits, mask[None])[0])
        else:
            scores = legal_logits(logits[0], mask)
            p = np.exp((scores - scores.max()) / self.temperature)
            action = int(self.rng.choice(len(p), p=p / p.sum()))
        stats = SearchStats(nodes=1, leaves=1, time=time.perf_counter() - start)
        self.last_stats = SearchResult(float(values[0]), action, (action,), stats, algorithm="alphazero(policy)")
        return action

    def act_batch(self, game: Game, states: np.ndarray) -> np.ndarray:
        """Moves for many states (one a row). With ``sims=0``, every row from ONE network call:
        the moves :meth:`act` chooses row by row (with a temperature, one uniform number drawn a
        row, in order; ``last_stats`` is then None). With ``sims>0``, :meth:`act` row by row."""
        if self.sims > 0:
            return super().act_batch(game, states)
        if id(game) not in self._checked:
            self.prepare(game)
        from zerosum.games.kit.batched import batched

        s = batch_states(game, states)
        if s.shape[0] == 0:
            return np.empty(0, np.int64)
        rules = batched(game)
        over = rules.status(s) != ONGOING
        if over.any():
            raise GameOverError(f"alphazero was asked to move in a finished game (row {int(np.flatnonzero(over)[0])})")
        masks = rules.masks(s)
        logits, _ = self.evaluator(rules.observe(s, rules.players(s)), masks)
        self.last_stats = None
        if self.temperature == 0.0:
            return greedy_moves(logits, masks)
        scores = legal_logits(logits, masks)
        p = np.exp((scores - scores.max(axis=1, keepdims=True)) / self.temperature)
        return sample_rows(p / p.sum(axis=1, keepdims=True), self.rng)

    # ---- sims>0: the batched search, one lane --------------------------------------------
    def _tree(self, game: Game) -> Any:
        from zerosum.search.guided import BatchedSearch, GuidedConfig

        if self._search is None or self._search[0] != game:
            config = GuidedConfig(rule=self.rule, c_puct=self.c_puct, temperature=self.temperature,
                                  dirichlet_fraction=0.0, leaves=self.leaves)
            search = BatchedSearch(game, lanes=1, config=config, seed=0)  # set_root reseeds from self.rng
            self._search = (game, search)
            self._root = self._played = None
        return self._search[1]

    def _moves_since(self, game: Game, state: State) -> list[Action] | None:
        """The moves from the kept root to ``state`` (this agent's, then the others'), or None."""
        if self._root is None:
            return None
        if np.array_equal(self._root, state):
            return []
        if self._played is None:
            return None
        mover = game.current_player(state)
        start = game.apply_unchecked(self._root, self._played)
        queue: deque[tuple[State, list[Action]]] = deque([(start, [self._played])])
        tried = 0
        while queue and tried < MAX_REPLAY:
            s, line = queue.popleft()
            if np.array_equal(s, state):
                return line
            if game.is_terminal(s) or (len(line) > 1 and game.current_player(s) == mover):
                continue  # only the other side's moves lie between two of this agent's turns
            for a in game.legal_actions(s):
                queue.append((game.apply_unchecked(s, int(a)), [*line, int(a)]))
                tried += 1
        return None

    def _search_move(self, game: Game, state: State) -> Action:
        search = self._tree(game)
        line = self._moves_since(game, state)
        if line is None:  # a fresh tree, its generator drawn from the agent's (reseeded per game)
            search.set_root(0, state, seed=int(self.rng.integers(1 << 31)))
        else:
            for a in line:
                search.advance(0, a)
        res = search.run(self.evaluator, sims=self.sims)
        action = int(res.action[0])
        self._root, self._played = state, action
        result = res.result(0)
        self.last_stats = SearchResult(result.value, action, result.pv, result.stats, result.iterations,
                                       algorithm=f"alphazero({self.rule})")
        return action


def alphazero_agent(path: str | None = None, sims: int = 0, rule: str = "puct", c_puct: float = 1.25,
                    temperature: float = 0.0, device: str = "cpu", leaves: int = 8,
                    rng: Rng = None) -> AlphaZeroAgent:
    """A network checkpoint as an agent: ``alphazero(path=net.pt, sims=64, rule=puct)``."""
    if path is None:
        raise CheckpointError("alphazero needs path=<network .pt> or path=zoo:NAME, "
                              "e.g. alphazero(path=runs/c4/net.pt, sims=64)")
    return AlphaZeroAgent(str(path), sims=sims, rule=rule, c_puct=c_puct, temperature=temperature, device=device,
                          leaves=leaves, rng=rng)


__all__ = ["MAX_REPLAY", "RULES", "AlphaZeroAgent", "alphazero_agent"]
