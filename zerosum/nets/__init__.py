"""Networks for search: a ResNet or an MLP built from any game's spec, evaluating leaves for
the batched search, saved as checkpoints with a JSON sidecar.

>>> from zerosum.games.registry import make_game
>>> from zerosum.nets import NetConfig, build_network, NetworkEvaluator
>>> game = make_game("connect_four")
>>> net = build_network(game, NetConfig(kind="resnet", blocks=1, channels=8))
>>> ev = NetworkEvaluator(net)
>>> state = game.initial_state()
>>> obs, mask = game.observation(state, 0)[None], game.legal_mask(state)[None]
>>> logits, values = ev(obs, mask)
>>> logits.shape, values.shape
((1, 7), (1,))

Torch is imported only when a network is built, loaded or run: ``import zerosum.nets`` is
light, and without torch the error names ``pip install 'zerosum[train]'``.
"""

from zerosum.nets.checkpoint import (
    FORMAT, FORMAT_VERSION, ZOO, check_network_game, checkpoint_path, load_network, read_sidecar, save_network,
    zoo_names,
)
from zerosum.nets.config import KINDS, NetConfig, board_shape
from zerosum.nets.modules import build_network, network_for
from zerosum.nets.errors import CheckpointError, MissingExtraError, NetConfigError
from zerosum.nets.evaluator import NetworkEvaluator, greedy_moves, legal_logits, resolve_device

__all__ = [
    "FORMAT", "FORMAT_VERSION", "KINDS", "ZOO", "CheckpointError", "MissingExtraError", "NetConfig",
    "NetConfigError", "NetworkEvaluator", "board_shape", "build_network", "check_network_game", "checkpoint_path",
    "greedy_moves", "legal_logits", "load_network", "network_for", "read_sidecar", "resolve_device", "save_network",
    "zoo_names",
]
