"""Agents from spec strings, for configs and command lines.

A spec is a name with optional keyword arguments::

    random
    alphabeta(depth=4, heuristic=lines, tt=on, time=0.5)
    mcts(sims=500, rollout=greedy)
    alphazero(path=runs/c4/net.pt, sims=64)
    perfect_nim

Option values follow the one value grammar of :mod:`zerosum.values`: ints, floats,
booleans (on/off, true/false, yes/no), ``none``, lists in brackets (``[64, 64]``), bare
words and paths (``lines``, ``runs/ttt/model.zip``), a nested spec
(``noisy(base=alphabeta(depth=2), epsilon=0.1)``); quote a value that holds a comma.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from typing import Any

from zerosum.agents.alphazero import alphazero_agent  # light: torch loads only with a checkpoint
from zerosum.agents.base import Agent, RandomAgent, Rng
from zerosum.agents.human import HumanAgent
from zerosum.agents.learned import learned_agent  # light: torch/SB3 load only with a checkpoint
from zerosum.agents.noisy import NoisyAgent
from zerosum.agents.search import AlphaBetaAgent, MCTSAgent, MinimaxAgent, PerfectNimAgent
from zerosum.agents.solved import SolvedAgent
from zerosum.games.kit import ZerosumError
from zerosum.values import ValueSyntaxError, parse_options


class AgentSpecError(ZerosumError, ValueError):
    """A malformed agent spec, an unknown agent name or an unknown option."""


_AB_OPTIONS = ("depth", "time", "nodes", "heuristic", "tie_break", "tt", "tt_size", "ordering", "tt_move",
               "hint", "killers", "history", "history_increment", "iterative", "pvs", "aspiration", "eval_order",
               "lmr", "quiescence", "quiescence_plies")
AGENTS: dict[str, tuple[Callable[..., Agent], tuple[str, ...]]] = {
    "random": (RandomAgent, ()),
    "minimax": (MinimaxAgent, ("depth", "heuristic")),
    "alphabeta": (AlphaBetaAgent, _AB_OPTIONS),
    "mcts": (MCTSAgent, ("sims", "time", "heuristic", "c", "rollout", "rollout_depth",
                         "epsilon", "scale", "max_nodes")),
    "perfect_nim": (PerfectNimAgent, ()),
    "human": (HumanAgent, ()),
    "ppo": (learned_agent, ("path", "deterministic", "masked", "device")),  # any zerosum checkpoint (PPO, DQN)
    "noisy": (NoisyAgent, ("base", "epsilon")),
    "solved": (SolvedAgent, ("max_states",)),
    "alphazero": (alphazero_agent, ("path", "sims", "rule", "c_puct", "temperature", "device", "leaves")),
}


def register_agent(name: str, factory: Callable[..., Agent], options: tuple[str, ...]) -> None:
    """Make ``name(...)`` specs build agents with ``factory(**options, rng=rng)``."""
    AGENTS[name] = (factory, tuple(options))


_SPEC = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$", re.S)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name(key=value, ...)`` into the name and its options (values as in :mod:`zerosum.values`)."""
    if not isinstance(spec, str):
        raise AgentSpecError(f"an agent spec is a string such as 'alphabeta(depth=3)'; got {spec!r}")
    name, options = _parse_spec(spec)
    return name, dict(options)


@functools.lru_cache(maxsize=256)
def _parse_spec(spec: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """parse_spec's work, kept per spec: a training env with a fresh opponent per episode
    builds the same spec thousands of times (values are immutable: numbers, strings, tuples)."""
    m = _SPEC.match(spec)
    if not m:
        raise AgentSpecError(f"malformed agent spec {spec!r}: write name or name(key=value, ...)")
    try:
        return m.group(1), tuple(parse_options(m.group(2) or "").items())
    except ValueSyntaxError as exc:
        raise AgentSpecError(f"malformed agent spec {spec!r}: {exc}") from None


def make_agent(spec: str | Agent, rng: Rng = None) -> Agent:
    """Build an agent from a spec string (an Agent passes through, reseeded if rng is given)."""
    if isinstance(spec, Agent):
        if rng is not None:
            spec.seed(rng)
        return spec
    name, options = parse_spec(spec)
    try:
        factory, allowed = AGENTS[name]
    except KeyError:
        raise AgentSpecError(f"unknown agent {name!r} in {spec!r}; available: {', '.join(sorted(AGENTS))}") from None
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        allowed_text = ", ".join(allowed) if allowed else "none"
        raise AgentSpecError(f"unknown option(s) {', '.join(unknown)} for {name!r}; allowed: {allowed_text}")
    try:
        agent = factory(**options, rng=rng)
    except (TypeError, ValueError) as exc:
        raise AgentSpecError(f"bad options in {spec!r}: {exc}") from None
    agent.name = spec.strip() if options else name
    return agent


def describe_agents() -> str:
    """One line per agent name with its options (for --help texts and errors)."""
    lines = []
    for name, (factory, allowed) in sorted(AGENTS.items()):
        doc = (inspect.getdoc(factory) or "").splitlines()[0] if inspect.getdoc(factory) else ""
        lines.append(f"{name}({', '.join(allowed)}): {doc}" if allowed else f"{name}: {doc}")
    return "\n".join(lines)
