"""The registry of agent kinds and :func:`make_agent`, which builds an agent from a spec string.

The built-in kinds are registered by :mod:`zerosum.agents.spec` (which the package imports, so
the registry is full once ``zerosum.agents`` is); :func:`register_agent` adds one.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from typing import Any

from zerosum.agents.base import Agent, Rng
from zerosum.games.kit import ZerosumError
from zerosum.values import ValueSyntaxError, parse_options


class AgentSpecError(ZerosumError, ValueError):
    """A malformed agent spec, an unknown agent name or an unknown option."""


AGENTS: dict[str, tuple[Callable[..., Agent], tuple[str, ...]]] = {}
"""The agent kinds an agent spec may name: kind -> (its class or factory, the options it accepts)."""


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


__all__ = ["AGENTS", "AgentSpecError", "describe_agents", "make_agent", "parse_spec", "register_agent"]
