"""zerosum: two-player zero-sum perfect-information board games for RL and game-AI research."""

__version__ = "0.1.0"
