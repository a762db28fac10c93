"""The torch modules behind :func:`zerosum.nets.build_network` (this module imports torch).

Both take float32 observations ``[n, *observation_shape]`` (the env's planes, (H, W, C) for
the board games) and return ``(logits [n, A], value [n])`` with the value squashed by tanh.

* :class:`ResNet`, AlphaZero's shape: a 3x3 convolution stem, ``blocks`` residual blocks
  (conv-BN-ReLU-conv-BN, skip, ReLU), a policy head (1x1 convolution to
  ``policy_channels``, BN, ReLU, linear to the actions) and a value head (1x1 convolution to
  one channel, BN, ReLU, linear to ``value_hidden``, ReLU, linear to one, tanh).
* :class:`MLP`: the flattened planes through ``hidden`` layers with ReLU, then a linear
  policy head and a linear value head with tanh.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from zerosum.nets.config import NetConfig, board_shape


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


class ResNet(nn.Module):
    """AlphaZero's residual network over an observation read as a board (:func:`~zerosum.nets.board_shape`)."""

    def __init__(self, observation_shape: tuple[int, ...], num_actions: int, config: NetConfig) -> None:
        super().__init__()
        self.observation_shape, self.num_actions, self.config = tuple(observation_shape), num_actions, config
        c_in, h, w = self.board = board_shape(self.observation_shape)
        # NetConfig fills every field of its kind, so the `or` never applies
        ch, pc, vh, blocks = (config.channels or 0, config.policy_channels or 0, config.value_hidden or 0,
                              config.blocks or 0)
        self.stem = nn.Sequential(nn.Conv2d(c_in, ch, 3, padding=1, bias=False), nn.BatchNorm2d(ch), nn.ReLU())
        self.tower = nn.Sequential(*(ResidualBlock(ch) for _ in range(blocks)))
        self.policy_head = nn.Sequential(nn.Conv2d(ch, pc, 1, bias=False), nn.BatchNorm2d(pc), nn.ReLU(),
                                         nn.Flatten(), nn.Linear(pc * h * w, num_actions))
        self.value_head = nn.Sequential(nn.Conv2d(ch, 1, 1, bias=False), nn.BatchNorm2d(1), nn.ReLU(), nn.Flatten(),
                                        nn.Linear(h * w, vh), nn.ReLU(),
                                        nn.Linear(vh, 1), nn.Tanh())

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits [n, A], value [n])`` for float32 observations ``[n, *observation_shape]``."""
        n = x.shape[0]
        c, h, w = self.board
        if len(self.observation_shape) == 1:
            board = x.reshape(n, c, 1, 1)
        else:  # (n, H, W, ...) -> (n, C, H, W)
            board = x.reshape(n, h, w, c).permute(0, 3, 1, 2)
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
