"""The network of a run: built from its config, passed between processes as bytes."""

from __future__ import annotations

import io
from typing import Any


from zerosum.games import Game
from zerosum.training.rundir import TrainingSetupError


def build_net(game: Game, net: dict[str, Any]) -> Any:
    """The network for ``game`` (``net``: :class:`zerosum.nets.NetConfig` fields); TrainingSetupError
    when the config does not fit the game."""
    from zerosum.nets import NetConfig, build_network

    try:
        return build_network(game, NetConfig.from_dict(dict(net)))
    except (TypeError, ValueError) as exc:
        raise TrainingSetupError(f"network {net!r} does not fit {game.name} "
                                 f"(observation {tuple(game.observation_shape)}): {exc}") from None


def state_bytes(state_dict: dict[str, Any]) -> bytes:
    """A network's weights as bytes (what crosses a pipe or goes to a Ray actor)."""
    import torch

    buf = io.BytesIO()
    torch.save(state_dict, buf)
    return buf.getvalue()


def weights_of(net: Any) -> bytes:
    """:func:`state_bytes` of a copy of ``net``'s weights now."""
    return state_bytes({k: v.detach().clone() for k, v in net.state_dict().items()})


def load_weights(net: Any, weights: bytes) -> None:
    """Give ``net`` the weights of :func:`state_bytes` (and put it in eval mode)."""
    import torch

    net.load_state_dict(torch.load(io.BytesIO(weights), weights_only=True))
    net.eval()


__all__ = ["build_net", "load_weights", "state_bytes", "weights_of"]
