"""The torch modules of a network, and :func:`build_network`, which builds one from a game's spec alone.

Both take float32 observations ``[n, *observation_shape]`` (the env's planes, (H, W, C) for
the board games) and return ``(logits [n, A], value [n])`` with the value squashed by tanh.

* ``ResNet``, AlphaZero's shape: a 3x3 convolution stem, ``blocks`` residual blocks
  (conv-BN-ReLU-conv-BN, skip, ReLU), a policy head (1x1 convolution to
  ``policy_channels``, BN, ReLU, linear to the actions) and a value head (1x1 convolution to
  one channel, BN, ReLU, linear to ``value_hidden``, ReLU, linear to one, tanh);
* with ``lines=K`` the ResNet's stem also reads four fixed planes of line features
  (``LineFeatures``: each side's cells that would complete K in a row, and its open K-2
  windows through each empty cell), computed from the first two planes by convolutions
  with no learned weights;
* ``MLP``: the flattened planes through ``hidden`` layers with ReLU, then a linear policy
  head and a linear value head with tanh.

The classes subclass ``torch.nn.Module``, so they are defined on first use
(``zerosum.nets.modules.ResNet`` imports torch then): importing this module loads no torch.
Once defined they are ordinary module attributes, so networks pickle by reference.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

from zerosum.nets.config import NetConfig, board_shape
from zerosum.nets.errors import NetConfigError, import_torch

if TYPE_CHECKING:
    from zerosum.games.kit import Game

CLASSES = ("ResidualBlock", "LineFeatures", "ResNet", "MLP")
"""The module classes defined on first use."""


def __getattr__(name: str) -> Any:
    if name in CLASSES:
        return _define()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def _define() -> dict[str, Any]:
    """Define the torch module classes (importing torch) and make them attributes of this module."""
    import torch
    import torch.nn.functional as F
    from torch import nn

    class ResidualBlock(nn.Module):
        """Two 3x3 convolutions with batch norm and a skip connection."""

        def __init__(self, channels: int) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(channels)
            self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(channels)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            """The block's output, same shape as ``x``."""
            y = torch.relu(self.bn1(self.conv1(x)))
            return torch.relu(x + self.bn2(self.conv2(y)))

    class LineFeatures(nn.Module):
        """The board's planes followed by four line-feature planes (:attr:`NetConfig.lines`)."""

        kernels: torch.Tensor
        spread: torch.Tensor

        def __init__(self, length: int) -> None:
            super().__init__()
            self.length = length
            # one K x K kernel per direction, anchored at the window's top-left corner: a window's
            # stone count lands on its anchor, and every window on the board has its anchor on the
            # board once the board is padded by K - 1 cells below and to the right
            kernels = torch.zeros(4, 1, length, length)
            for j in range(length):
                kernels[0, 0, 0, j] = kernels[1, 0, j, 0] = kernels[2, 0, j, j] = kernels[3, 0, j, length - 1 - j] = 1
            self.register_buffer("kernels", kernels, persistent=False)  # fixed: not in the state dict
            self.register_buffer("spread", kernels.repeat(2, 1, 1, 1), persistent=False)

        def forward(self, board: torch.Tensor) -> torch.Tensor:
            """``[n, C + 4, H, W]`` for a board ``[n, C, H, W]`` whose planes 0 and 1 are the two sides' stones."""
            n, _, h, w = board.shape
            k = self.length
            mine, theirs = board[:, 0], board[:, 1]
            pad = (0, k - 1, 0, k - 1)
            # each side's stones, and what blocks it (the other side's stones, and off the board)
            own = F.pad(torch.stack([mine, theirs], 1), pad).reshape(2 * n, 1, h + k - 1, w + k - 1)
            other = F.pad(torch.stack([theirs, mine], 1), pad, value=1.0).reshape(2 * n, 1, h + k - 1, w + k - 1)
            count = F.conv2d(own, self.kernels)  # [2n, 4 directions, h, w]: stones in each window
            clean = F.conv2d(other, self.kernels) == 0
            windows = torch.cat([(count == k - 1) & clean, (count == k - 2) & clean], 1).to(board.dtype)
            cells = F.conv_transpose2d(windows, self.spread, groups=2)[:, :, :h, :w]  # windows through each cell
            empty = (1.0 - mine - theirs).unsqueeze(1)
            cells = cells.reshape(n, 2, 2, h, w)  # side, (threat windows, open windows)
            threats = (cells[:, :, 0] > 0).to(board.dtype) * empty
            open_windows = (cells[:, :, 1] / 4).clamp(max=1.0) * empty
            return torch.cat([board, threats[:, :1], open_windows[:, :1], threats[:, 1:], open_windows[:, 1:]], 1)

    class ResNet(nn.Module):
        """AlphaZero's residual network over an observation read as a board (:func:`~zerosum.nets.board_shape`)."""

        def __init__(self, observation_shape: tuple[int, ...], num_actions: int, config: NetConfig) -> None:
            super().__init__()
            self.observation_shape, self.num_actions, self.config = tuple(observation_shape), num_actions, config
            c_in, h, w = self.board = board_shape(self.observation_shape)
            # NetConfig fills every field of its kind, so the `or` never applies
            ch, pc, vh, blocks = (config.channels or 0, config.policy_channels or 0, config.value_hidden or 0,
                                  config.blocks or 0)
            self.lines = LineFeatures(config.lines) if config.lines else None
            self.stem = nn.Sequential(nn.Conv2d(c_in + (4 if config.lines else 0), ch, 3, padding=1, bias=False),
                                      nn.BatchNorm2d(ch), nn.ReLU())
            self.tower = nn.Sequential(*(ResidualBlock(ch) for _ in range(blocks)))
            self.policy_head = nn.Sequential(nn.Conv2d(ch, pc, 1, bias=False), nn.BatchNorm2d(pc), nn.ReLU(),
                                             nn.Flatten(), nn.Linear(pc * h * w, num_actions))
            self.value_head = nn.Sequential(nn.Conv2d(ch, 1, 1, bias=False), nn.BatchNorm2d(1), nn.ReLU(),
                                            nn.Flatten(), nn.Linear(h * w, vh), nn.ReLU(), nn.Linear(vh, 1),
                                            nn.Tanh())

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            """``(logits [n, A], value [n])`` for float32 observations ``[n, *observation_shape]``."""
            n = x.shape[0]
            c, h, w = self.board
            if len(self.observation_shape) == 1:
                board = x.reshape(n, c, 1, 1)
            else:  # (n, H, W, ...) -> (n, C, H, W)
                board = x.reshape(n, h, w, c).permute(0, 3, 1, 2)
            if self.lines is not None:
                board = self.lines(board)
            y = self.tower(self.stem(board))
            return self.policy_head(y), self.value_head(y).reshape(n)

    class MLP(nn.Module):
        """Fully connected layers over the flattened observation, with a policy and a value head."""

        def __init__(self, observation_shape: tuple[int, ...], num_actions: int, config: NetConfig) -> None:
            super().__init__()
            self.observation_shape, self.num_actions, self.config = tuple(observation_shape), num_actions, config
            size = math.prod(self.observation_shape)
            layers: list[nn.Module] = [nn.Flatten()]
            for h in config.hidden or ():
                layers += [nn.Linear(size, h), nn.ReLU()]
                size = h
            self.body = nn.Sequential(*layers)
            self.policy_head = nn.Linear(size, num_actions)
            self.value_head = nn.Sequential(nn.Linear(size, 1), nn.Tanh())

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            """``(logits [n, A], value [n])`` for float32 observations ``[n, *observation_shape]``."""
            y = self.body(x)
            return self.policy_head(y), self.value_head(y).reshape(x.shape[0])

    classes: dict[str, Any] = {"ResidualBlock": ResidualBlock, "LineFeatures": LineFeatures, "ResNet": ResNet,
                               "MLP": MLP}
    for name, cls in classes.items():
        cls.__qualname__ = name  # pickle finds them here, as module attributes
        globals()[name] = cls
    return classes


def build_network(game: Game, config: NetConfig | None = None) -> Any:
    """A fresh torch network for ``game`` (a ``torch.nn.Module``), in evaluation mode.

    ``forward(x)`` takes float32 observations ``[n, *game.observation_shape]`` and returns
    ``(logits [n, game.num_actions], value [n])``, the value in [-1, 1].
    """
    return network_for(tuple(game.observation_shape), int(game.num_actions), config or NetConfig())


def network_for(observation_shape: tuple[int, ...], num_actions: int, config: NetConfig) -> Any:
    """:func:`build_network` from the two numbers it reads (a checkpoint stores them)."""
    if not isinstance(config, NetConfig):
        raise NetConfigError(f"config is a NetConfig, such as NetConfig(kind='resnet', blocks=4, channels=64); "
                             f"got {config!r}")
    if isinstance(num_actions, bool) or not isinstance(num_actions, int) or num_actions < 1:
        raise NetConfigError(f"num_actions={num_actions!r} is not allowed: an int >= 1")
    if config.lines:
        shape = tuple(int(n) for n in observation_shape)
        if len(shape) < 3 or math.prod(shape[2:]) < 2:
            raise NetConfigError(f"lines={config.lines} needs a board observation (H, W, C) whose first two planes "
                                 f"are the two sides' stones; this game's observation shape is {shape}")
        if config.lines > max(shape[:2]):
            raise NetConfigError(f"lines={config.lines} does not fit a {shape[0]}x{shape[1]} board: a line is at "
                                 f"most {max(shape[:2])} cells (or 0 for no line features)")
    import_torch()
    cls = _define()["ResNet" if config.kind == "resnet" else "MLP"]  # defined on first use, with torch
    return cls(tuple(observation_shape), num_actions, config).eval()
