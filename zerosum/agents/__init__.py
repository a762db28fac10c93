"""Agents behind one interface: ``act(game, state) -> action``, built from spec strings.

>>> from zerosum.agents import make_agent
>>> make_agent("alphabeta(depth=3, tt=on)").name
'alphabeta(depth=3, tt=on)'

Every agent spec (``random``, ``alphabeta(...)``, ``noisy(...)``, ``ppo(path=...)``, ...)
is available once this package is imported. :mod:`~zerosum.agents.policies` turns a
function, an SB3 model or a checkpoint into an agent; :mod:`~zerosum.agents.checkpoints`
reads and writes checkpoints.
"""

from zerosum.agents.base import Agent, RandomAgent, as_generator
from zerosum.agents.human import HumanAgent
from zerosum.agents.noisy import NoisyAgent
from zerosum.agents.search import AlphaBetaAgent, MCTSAgent, MinimaxAgent, PerfectNimAgent
from zerosum.agents.spec import AGENTS, AgentSpecError, describe_agents, make_agent, parse_spec, register_agent

__all__ = [
    "AGENTS", "Agent", "AgentSpecError", "AlphaBetaAgent", "HumanAgent", "MCTSAgent", "MinimaxAgent",
    "NoisyAgent", "PerfectNimAgent", "RandomAgent", "as_generator", "describe_agents", "make_agent", "parse_spec",
    "register_agent",
]
