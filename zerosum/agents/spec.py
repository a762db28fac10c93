"""Agents from spec strings, for configs and command lines.

A spec is a name with optional keyword arguments::

    random
    alphabeta(depth=4, heuristic=lines, tt=on, time=0.5)
    mcts(sims=500, rollout=greedy)
    alphazero(path=runs/c4/net.pt, sims=64)
    perfect_nim
    stockfish(nodes=20000)        # outside engines, where installed (zerosum.agents.engines)
    gnugo(level=5)

Option values follow the one value grammar of :mod:`zerosum.values`: ints, floats,
booleans (on/off, true/false, yes/no), ``none``, lists in brackets (``[64, 64]``), bare
words and paths (``lines``, ``runs/ttt/model.zip``), a nested spec
(``noisy(base=alphabeta(depth=2), epsilon=0.1)``); quote a value that holds a comma.

The registry and the parser are :mod:`zerosum.agents.registry`; this module registers the
built-in kinds.
"""

from __future__ import annotations

from collections.abc import Callable

from zerosum.agents.alphazero import alphazero_agent  # light: torch loads only with a checkpoint
from zerosum.agents.base import Agent, RandomAgent
from zerosum.agents.engines import GnuGoAgent, StockfishAgent
from zerosum.agents.human import HumanAgent
from zerosum.agents.learned import learned_agent  # light: torch/SB3 load only with a checkpoint
from zerosum.agents.noisy import NoisyAgent
from zerosum.agents.registry import AGENTS, AgentSpecError, describe_agents, make_agent, parse_spec, register_agent
from zerosum.agents.search import AlphaBetaAgent, MCTSAgent, MinimaxAgent, PerfectNimAgent
from zerosum.agents.solved import SolvedAgent

_AB_OPTIONS = ("depth", "time", "nodes", "heuristic", "tie_break", "tt", "tt_size", "ordering", "tt_move",
               "hint", "killers", "history", "history_increment", "iterative", "pvs", "aspiration", "eval_order",
               "lmr", "quiescence", "quiescence_plies")
BUILT_IN: dict[str, tuple[Callable[..., Agent], tuple[str, ...]]] = {
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
    "stockfish": (StockfishAgent, ("nodes", "skill", "path")),  # chess, Debian's stockfish
    "gnugo": (GnuGoAgent, ("level", "path")),  # Go, Debian's gnugo
}
"""The built-in agent kinds: kind -> (its class or factory, the options it accepts)."""

for _name, (_factory, _options) in BUILT_IN.items():
    register_agent(_name, _factory, _options)

__all__ = ["AGENTS", "BUILT_IN", "AgentSpecError", "describe_agents", "make_agent", "parse_spec", "register_agent"]
