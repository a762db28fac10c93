"""The declarative variant schema: each rule variant a game offers, checked in one place.

A game lists its variants once::

    variants = (
        Variant("piles", "ints", (1, 3, 5, 7), "the starting piles", range=(1, 1000), length=(1, 16)),
        Variant("misere", bool, False, "the player who takes the last object loses"),
    )

and the kit validates what a user passes (unknown names, wrong types, values out of
range) before the game is built, with an error that names the variant, the value given
and what is allowed. Kinds: ``bool``, ``int``, ``float``, ``str`` (with ``choices``) and
``"ints"`` (a sequence of ints, stored as a tuple).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from zerosum.games.kit.errors import VariantError

KINDS = (bool, int, float, str, "ints")


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


@dataclass(frozen=True)
class Variant:
    """One rule variant: its name, kind, default, meaning and what values are allowed.

    ``range`` bounds an int or float (inclusive), or each item of ``"ints"``; ``length``
    bounds the number of items of ``"ints"``; ``choices`` lists the allowed values;
    ``optional`` allows ``None`` (the game then derives the value, e.g. from another).
    """

    name: str
    """The keyword argument's name."""
    kind: Any
    """Its type: ``bool``, ``int``, ``float``, ``str`` or ``"ints"`` (a tuple of ints)."""
    default: Any
    """The value when none is given."""
    doc: str
    """What the variant changes, in one line."""
    range: tuple[Any, Any] | None = None
    """Inclusive bounds of an int or float (of each item of ``"ints"``); None: unbounded."""
    choices: tuple[Any, ...] | None = None
    """The allowed values; None: any value of the kind (within ``range``)."""
    length: tuple[int, int] | None = None
    """Inclusive bounds on the number of items of ``"ints"``."""
    optional: bool = False
    """Whether ``None`` is allowed (the game then derives the value)."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise TypeError(f"variant {self.name!r}: kind must be one of bool, int, float, str, 'ints'; "
                            f"got {self.kind!r}")
        if self.default is not None or not self.optional:
            self.check(self.default)

    @property
    def allowed(self) -> str:
        """What values are allowed, in words."""
        if self.choices is not None:
            text = "one of " + ", ".join(repr(c) for c in self.choices)
        elif self.kind is bool:
            text = "True or False"
        elif self.kind == "ints":
            lo, hi = self.length or (1, None)
            count = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
            each = f", each {self.range[0]}..{self.range[1]}" if self.range else ""
            text = f"a sequence of {count} ints{each}"
        elif self.kind in (int, float):
            name = "an int" if self.kind is int else "a number"
            text = f"{name} from {self.range[0]} to {self.range[1]}" if self.range else name
        else:
            text = "a string"
        return text + (", or None" if self.optional else "")

    def check(self, value: Any) -> Any:
        """The value normalised (ints as int, sequences as tuples); VariantError if not allowed."""
        if value is None and self.optional:
            return None
        ok, out = self._normalise(value)
        if not ok or (self.choices is not None and out not in self.choices):
            raise VariantError(f"{self.name}={value!r} is not allowed: {self.allowed}")
        return out

    def _normalise(self, v: Any) -> tuple[bool, Any]:
        if self.kind is bool:
            return isinstance(v, (bool, np.bool_)), bool(v) if isinstance(v, (bool, np.bool_)) else v
        if self.kind is int:
            return _is_int(v) and self._in_range(int(v)), int(v) if _is_int(v) else v
        if self.kind is float:
            num = _is_int(v) or isinstance(v, (float, np.floating))
            return num and self._in_range(float(v)), float(v) if num else v
        if self.kind is str:
            return isinstance(v, str), v
        if isinstance(v, (str, bytes)) or not isinstance(v, (Sequence, np.ndarray)):
            return False, v
        items = tuple(v)
        lo, hi = self.length or (1, None)
        ok = all(_is_int(x) and self._in_range(int(x)) for x in items) and len(items) >= lo \
            and (hi is None or len(items) <= hi)
        return ok, tuple(int(x) for x in items) if ok else v

    def _in_range(self, x: float) -> bool:
        return self.range is None or self.range[0] <= x <= self.range[1]


def resolve(game: str, schema: Sequence[Variant], args: Sequence[Any], kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The full variant in force: defaults, then ``args`` in schema order, then ``kwargs``.

    Raises VariantError for an unknown name, a value given twice, or a value not allowed.
    """
    names = [v.name for v in schema]
    if len(args) > len(schema):
        raise VariantError(f"{game} takes at most {len(schema)} positional variants ({', '.join(names) or 'none'}); "
                           f"got {len(args)}")
    given = dict(zip(names, args))
    for k, value in kwargs.items():
        if k not in names:
            raise VariantError(f"bad variant for {game}: unknown name {k!r}; variants: "
                               + (", ".join(f"{v.name} ({v.allowed})" for v in schema) or "none"))
        if k in given:
            raise VariantError(f"variant {k!r} of {game} is given twice")
        given[k] = value
    return {v.name: v.check(given[v.name]) if v.name in given else v.default for v in schema}


def check_variant(name: str, value: Any, allowed: str, ok: bool) -> None:
    """Raise VariantError naming the variant, the value and what is allowed, unless ``ok``
    (for rules that tie variants together, checked in a game's ``layout``)."""
    if not ok:
        raise VariantError(f"{name}={value!r} is not allowed: {allowed}")
