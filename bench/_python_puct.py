"""A plain-Python PUCT, AlphaZero's, for reference: the part the Python peers of issue 29 play.

OpenSpiel's Python AlphaZero and alpha-zero-general search like this: a tree of Python
objects, one leaf at a time, each leaf evaluated alone by the network (a batch of one), the
rules reached through the Game API. ``bench/`` times it beside the compiled batched search
on the same network; it is not part of zerosum.

    visits = python_puct(game, state, evaluator, sims=800)

``evaluator(obs, mask) -> (logits, values)`` is the batched search's evaluator
(:class:`zerosum.nets.NetworkEvaluator`, or any function of that shape), called here with
batches of one. Values follow ``current_player`` (a player may move twice in a row, as in
Nine Men's Morris removals), terminal positions are scored by the rules, and unvisited
children count as Q = 0 (AlphaZero's choice).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

Evaluator = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


class Node:
    """A position in the tree: its prior, its visit count, and the sum of the values seen
    through it, from the side of ``by``, the player whose move led here."""

    __slots__ = ("by", "children", "prior", "state", "value_sum", "visits")

    def __init__(self, prior: float, by: int) -> None:
        self.prior, self.by = prior, by
        self.visits, self.value_sum = 0, 0.0
        self.state = None
        self.children: dict[int, Node] = {}

    def q(self) -> float:
        """The mean value for ``by``; 0 before the first visit."""
        return self.value_sum / self.visits if self.visits else 0.0


def expand(game, node: Node, evaluator: Evaluator) -> list[float]:
    """Evaluate ``node.state`` and give it one child per legal move; the value for each player."""
    s = node.state
    if game.is_terminal(s):
        return [float(r) for r in game.returns(s)]
    player = game.current_player(s)
    mask = game.legal_mask(s)
    logits, values = evaluator(game.observation(s, player)[None], mask[None])
    legal = np.flatnonzero(mask)
    scores = logits[0, legal].astype(np.float64)
    priors = np.exp(scores - scores.max())
    priors /= priors.sum()
    node.children = {int(a): Node(float(p), player) for a, p in zip(legal, priors)}
    v = float(values[0])
    return [v, -v] if player == 0 else [-v, v]


def select(node: Node, c_puct: float) -> tuple[int, Node]:
    """The child maximising Q + c_puct * prior * sqrt(N) / (1 + n)."""
    root_n = math.sqrt(node.visits)
    best, best_score = None, -math.inf
    for a, child in node.children.items():
        score = child.q() + c_puct * child.prior * root_n / (1 + child.visits)
        if score > best_score:
            best, best_score = (a, child), score
    assert best is not None  # an expanded, non-terminal node has a legal move
    return best


def python_puct(game, state, evaluator: Evaluator, sims: int, c_puct: float = 1.25) -> np.ndarray:
    """Root visit counts (int64 ``[game.num_actions]``, summing to ``sims``) after ``sims``
    simulations of PUCT from ``state``, one network evaluation per new leaf."""
    if game.is_terminal(state):
        raise ValueError("python_puct needs a position that is not over")
    root = Node(1.0, by=-1)
    root.state = state
    expand(game, root, evaluator)
    root.visits = 1  # so that the first selection already weighs the priors
    for _ in range(sims):
        node, path = root, [root]
        while node.children:
            a, child = select(node, c_puct)
            if child.state is None:
                child.state = game.apply_unchecked(node.state, a)
            node = child
            path.append(node)
        value = expand(game, node, evaluator)  # a new leaf, or a terminal one scored again by the rules
        for n in path:
            n.visits += 1
            if n.by >= 0:
                n.value_sum += value[n.by]
    visits = np.zeros(game.num_actions, dtype=np.int64)
    for a, child in root.children.items():
        visits[a] = child.visits
    return visits
