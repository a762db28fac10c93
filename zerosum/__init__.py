"""zerosum: two-player zero-sum perfect-information board games for RL and game-AI research."""

from typing import Any

__version__ = "0.3.0"
"""The installed version of zerosum (also in pyproject.toml and CHANGELOG.md)."""


def __getattr__(name: str) -> Any:
    """``zerosum.evaluate``, ``zerosum.ladder`` and ``zerosum.rate`` load on first use, so ``import zerosum``
    stays light."""
    if name == "evaluate":
        from zerosum.evaluation.evaluate import evaluate

        return evaluate
    if name == "ladder":
        from zerosum.evaluation.scale import ladder

        return ladder
    if name == "rate":
        from zerosum.evaluation.placement import rate

        return rate
    raise AttributeError(f"module 'zerosum' has no attribute {name!r}")


__all__ = ["__version__", "evaluate", "ladder", "rate"]
