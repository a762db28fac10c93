"""What a network is: :class:`NetConfig` (:func:`~zerosum.nets.modules.build_network` builds one).

A network reads the env's own observation planes and answers a policy (logits over the
game's actions) and a value (in [-1, 1], for the player whose side the planes show). Only
the observation shape and the number of actions are read from the game, so any kit game, a
user's included, gets a network with no per-game code.

How a ResNet reads an observation of each rank (an MLP flattens every rank):

==============  =========================================================================
observation     what the ResNet's convolutions see
==============  =========================================================================
``(H, W, C)``   the board game planes: an H x W board with C channels
``(H, W)``      an H x W board with one channel
``(N,)``        a flat feature vector has no geometry: a 1 x 1 board with N channels, so
                the residual tower is a residual MLP of ``channels`` units
``(H, W, ...)`` an H x W board; the trailing sizes multiply into the channels
==============  =========================================================================
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from zerosum.nets.errors import NetConfigError


KINDS = ("resnet", "mlp")
"""The network kinds :class:`NetConfig` allows."""

_FIELDS: dict[str, dict[str, Any]] = {
    "resnet": {"blocks": 4, "channels": 64, "policy_channels": 2, "value_hidden": 64, "lines": 0},
    "mlp": {"hidden": (256, 256)},
}


@dataclass(frozen=True)
class NetConfig:
    """A network's architecture. Fields of the other kind stay None; an unset field of this
    kind takes its default (``NetConfig(kind="resnet")`` is 4 blocks of 64 channels).

    >>> NetConfig(kind="resnet", blocks=2, channels=32).to_dict()
    {'kind': 'resnet', 'blocks': 2, 'channels': 32, 'policy_channels': 2, 'value_hidden': 64}
    >>> NetConfig(kind="mlp", hidden=[128, 64]).hidden
    (128, 64)
    """

    kind: str = "resnet"
    """``"resnet"`` (a residual convolutional tower) or ``"mlp"`` (fully connected layers)."""
    blocks: int | None = None
    """ResNet: residual blocks (two 3x3 convolutions each) after the stem; 0 allowed. Default 4."""
    channels: int | None = None
    """ResNet: channels of every convolution in the tower. Default 64."""
    hidden: tuple[int, ...] | None = None
    """MLP: sizes of the hidden layers, first to last; ``()`` is a linear model. Default (256, 256)."""
    policy_channels: int | None = None
    """ResNet: channels of the policy head's 1x1 convolution before its linear layer. Default 2."""
    value_hidden: int | None = None
    """ResNet: units of the value head's hidden layer. Default 64."""
    lines: int | None = None
    """ResNet: line features for games won by ``lines`` stones in a row (Connect Four 4,
    tic-tac-toe 3, Pentago 5); 0, the default, adds none. Fixed convolutions read the board's
    first two planes (the observer's stones, the opponent's) and add four planes to the
    stem's input: for each side, the empty cells that would complete a line (a window of
    ``lines`` cells holding ``lines - 1`` of its stones and none of the other's), and how many
    windows with ``lines - 2`` of its stones and none of the other's pass through each empty
    cell (a quarter each, at most 1). They are a function of the position alone, as the
    planes are: no move is tried. Needs an ``(H, W, C)`` observation with C >= 2 and
    ``lines`` <= max(H, W)."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise NetConfigError(f"kind={self.kind!r} is not allowed: one of {KINDS}")
        own = _FIELDS[self.kind]
        for other_kind, fields in _FIELDS.items():
            for name in fields:
                if other_kind != self.kind and name not in own and getattr(self, name) is not None:
                    raise NetConfigError(f"{name}={getattr(self, name)!r} does not apply to kind={self.kind!r}; "
                                         f"its options are {', '.join(own)}")
        for name, default in own.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, default)
        if self.kind == "resnet":
            _check_int("blocks", self.blocks, low=0)
            _check_int("lines", self.lines, low=0)
            if self.lines == 1:
                raise NetConfigError("lines=1 is not allowed: 0 (no line features) or the length of a winning "
                                     "line, >= 2")
            for name in ("channels", "policy_channels", "value_hidden"):
                _check_int(name, getattr(self, name), low=1)
        else:
            hidden = self.hidden
            if isinstance(hidden, int) or not isinstance(hidden, (tuple, list)):
                raise NetConfigError(f"hidden={hidden!r} is not allowed: a list of layer sizes such as (256, 256)")
            for h in hidden:
                _check_int("a hidden size", h, low=1, given=f"hidden={tuple(hidden)!r}")
            object.__setattr__(self, "hidden", tuple(int(h) for h in hidden))

    def to_dict(self) -> dict[str, Any]:
        """The fields of this kind as plain JSON values (the checkpoint sidecar's ``net``)."""
        out: dict[str, Any] = {"kind": self.kind}
        for name in _FIELDS[self.kind]:
            value = getattr(self, name)
            if name == "lines" and not value:
                continue  # no line features: the dict is the one networks without the option had
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: Any) -> NetConfig:
        """The config a :meth:`to_dict` dict describes; NetConfigError for unknown keys."""
        if not isinstance(data, dict):
            raise NetConfigError(f"a network config is a dict such as {{'kind': 'resnet', 'blocks': 4}}; got {data!r}")
        allowed = [f.name for f in dataclasses.fields(cls)]
        unknown = sorted(set(data) - set(allowed))
        if unknown:
            raise NetConfigError(f"unknown network option(s) {', '.join(unknown)}; allowed: {', '.join(allowed)}")
        values = dict(data)
        if isinstance(values.get("hidden"), list):
            values["hidden"] = tuple(values["hidden"])
        return cls(**values)


def _check_int(name: str, value: Any, *, low: int, given: str | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise NetConfigError(f"{given or f'{name}={value!r}'} is not allowed: {name} is an int >= {low}")


def board_shape(observation_shape: tuple[int, ...]) -> tuple[int, int, int]:
    """(channels, height, width) that a ResNet reads an observation of this shape as (see the module)."""
    shape = tuple(int(n) for n in observation_shape)
    if not shape or any(n < 1 for n in shape):
        raise NetConfigError(f"observation shape {shape} is not allowed: one or more sizes, each >= 1")
    if len(shape) == 1:
        return shape[0], 1, 1
    if len(shape) == 2:
        return 1, shape[0], shape[1]
    return math.prod(shape[2:]), shape[0], shape[1]
