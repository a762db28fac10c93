"""Agents from spec strings, for configs and command lines.

A spec is a name with optional keyword arguments::

    random
    alphabeta(depth=4, heuristic=lines, tt=on, time=0.5)
    mcts(sims=500, rollout=greedy)
    perfect_nim

Values are ints, floats, booleans (on/off, true/false, yes/no), ``none``, or bare words
and paths (``lines``, ``runs/ttt/model.zip``); quote a value that holds a comma.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

from zerosum.agents.base import Agent, RandomAgent
from zerosum.agents.human import HumanAgent
from zerosum.agents.learned import learned_agent  # light: torch/SB3 load only with a checkpoint
from zerosum.agents.noisy import NoisyAgent
from zerosum.agents.search import AlphaBetaAgent, MCTSAgent, MinimaxAgent, PerfectNimAgent
from zerosum.games.base import ZerosumError


class AgentSpecError(ZerosumError, ValueError):
    """A malformed agent spec, an unknown agent name or an unknown option."""


_AB_OPTIONS = ("depth", "time", "nodes", "heuristic", "tie_break", "tt", "tt_size", "ordering", "tt_move",
               "hint", "killers", "history", "history_increment", "iterative")
AGENTS: dict[str, tuple[Callable[..., Agent], tuple[str, ...]]] = {
    "random": (RandomAgent, ()),
    "minimax": (MinimaxAgent, ("depth", "heuristic")),
    "alphabeta": (AlphaBetaAgent, _AB_OPTIONS),
    "mcts": (MCTSAgent, ("sims", "time", "heuristic", "c", "rollout", "rollout_depth", "epsilon", "scale", "max_nodes")),
    "perfect_nim": (PerfectNimAgent, ()),
    "human": (HumanAgent, ()),
    "ppo": (learned_agent, ("path", "deterministic", "masked", "device")),  # any zerosum checkpoint (PPO, DQN)
    "noisy": (NoisyAgent, ("base", "epsilon")),
}


def register_agent(name: str, factory: Callable[..., Agent], options: tuple[str, ...]) -> None:
    """Make ``name(...)`` specs build agents with ``factory(**options, rng=rng)``."""
    AGENTS[name] = (factory, tuple(options))


_SPEC = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$", re.S)
_ARG = re.compile(r"""\s*([A-Za-z_]\w*)\s*=\s*("[^"]*"|'[^']*'|[^,]*?)\s*(?:,|$)""")


def _value(text: str) -> Any:
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "\"'":
        return t[1:-1]
    low = t.lower()
    if low in ("on", "true", "yes"):
        return True
    if low in ("off", "false", "no"):
        return False
    if low == "none":
        return None
    for conv in (int, float):
        try:
            return conv(t)
        except ValueError:
            pass
    if not t:
        raise AgentSpecError("an option has an empty value")
    return t


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name(key=value, ...)`` into the name and its options."""
    if not isinstance(spec, str):
        raise AgentSpecError(f"an agent spec is a string such as 'alphabeta(depth=3)'; got {spec!r}")
    m = _SPEC.match(spec)
    if not m:
        raise AgentSpecError(f"malformed agent spec {spec!r}: write name or name(key=value, ...)")
    name, body = m.group(1), (m.group(2) or "").strip()
    options: dict[str, Any] = {}
    pos = 0
    while pos < len(body):
        a = _ARG.match(body, pos)
        if not a or a.end() == pos:
            raise AgentSpecError(f"malformed agent spec {spec!r} at {body[pos:]!r}: options are key=value, separated by commas")
        key = a.group(1)
        if key in options:
            raise AgentSpecError(f"option {key!r} given twice in {spec!r}")
        try:
            options[key] = _value(a.group(2))
        except AgentSpecError as exc:
            raise AgentSpecError(f"malformed agent spec {spec!r}: {exc}") from None
        pos = a.end()
    return name, options


def make_agent(spec: str | Agent, rng=None) -> Agent:
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
