"""The one grammar of values written as text: command-line options, ``--variant``, agent specs.

Every front end reads values through this module: ``zerosum play | replay | tournament |
match | train`` (``--variant KEY=VALUE [KEY=VALUE ...]``, ``--algo-kwarg``, ``--net-arch``)
and the options of agent specs (``alphabeta(depth=4, tt=on)``, :mod:`zerosum.agents.spec`).

==================  =======================================================================
text                value
==================  =======================================================================
``true`` ``on``     ``True`` (also ``yes``; any case); ``false`` ``off`` ``no`` are ``False``
``none`` ``null``   ``None``
``3`` ``-2``        int; ``0.5``, ``1e-3``, ``inf`` are floats
``3,4,5``           a tuple ``(3, 4, 5)``: bare commas only where a value is a whole KEY=VALUE
``[3,4,5]``         a tuple, also ``(3, 4, 5)``, ``()``, ``(2,)``; nested ``[[1, 2], [3]]``
``{a: 1, b: on}``   a dict (``=`` may replace ``:``; keys are words or quoted)
``'a, b'``          the text between the quotes, commas and brackets included (no escapes)
``lines``           any other word is text, spaces inside kept: ``runs/ttt/model.zip``,
                    ``alphabeta(depth=2)`` (balanced parentheses inside a word are text)
==================  =======================================================================

Lists come back as tuples, since rule variants are frozen values.

>>> parse_value("3,4,5"), parse_value("[3, 4]"), parse_value("on"), parse_value("'a, b'")
((3, 4, 5), (3, 4), True, 'a, b')
>>> parse_assignments(["misere=true", "piles=3,4,5"])
{'misere': True, 'piles': (3, 4, 5)}
>>> parse_options("depth=4, heuristic=lines, base=alphabeta(depth=2)")
{'depth': 4, 'heuristic': 'lines', 'base': 'alphabeta(depth=2)'}
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from zerosum.games import UnknownGameError, VariantError, ZerosumError
from zerosum.games.registry import IMPORT_HINT

if TYPE_CHECKING:
    from zerosum.games import Game

_WORDS: dict[str, Any] = {"true": True, "on": True, "yes": True, "false": False, "off": False, "no": False,
                          "none": None, "null": None}
_CLOSE = {"(": ")", "[": "]", "{": "}"}
_QUOTES = "'\""


class ValueSyntaxError(ZerosumError, ValueError):
    """Text that the value grammar cannot read; the message says where and what is allowed."""


class _Reader:
    """A recursive-descent reader over one text; ``pos`` is the next character."""

    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def fail(self, message: str) -> ValueSyntaxError:
        return ValueSyntaxError(f"{message} at position {self.pos + 1} of {self.text!r}")

    def skip(self) -> str:
        """Skip blanks; the next character, or '' at the end."""
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def value(self, stop: str) -> Any:
        """One value ending before a character of ``stop`` (or the end)."""
        c = self.skip()
        if c in _CLOSE:
            return self.collection(c)
        if c and c in _QUOTES:
            end = self.text.find(c, self.pos + 1)
            if end < 0:
                raise self.fail(f"unclosed quote {c}")
            quoted = self.text[self.pos + 1:end]
            self.pos = end + 1
            return quoted
        return self.word(stop)

    def word(self, stop: str) -> Any:
        start, depth = self.pos, 0
        while self.pos < len(self.text):
            c = self.text[self.pos]
            if depth == 0 and c in stop:
                break
            if c in _QUOTES or c in "[]{}" or (c == ")" and depth == 0):
                raise self.fail(f"unexpected {c!r} inside a word (quote text that holds it)")
            depth += {"(": 1, ")": -1}.get(c, 0)
            self.pos += 1
        if depth:
            raise self.fail("unbalanced '(' in a word")
        text = self.text[start:self.pos].strip()
        if not text:
            raise self.fail("an empty value")
        return scalar(text)

    def collection(self, opener: str) -> Any:
        closer = _CLOSE[opener]
        self.pos += 1
        items: list[Any] = []
        mapping: dict[Any, Any] = {}
        while True:
            c = self.skip()
            if c == closer:
                self.pos += 1
                return mapping if opener == "{" else tuple(items)
            if not c:
                raise self.fail(f"missing {closer!r}")
            if opener == "{":
                key = self.value(":=,}")
                if self.skip() not in (":", "="):
                    raise self.fail("a dict entry is key: value")
                self.pos += 1
                if key in mapping:
                    raise self.fail(f"key {key!r} given twice")
                mapping[key] = self.value(",}")
            else:
                items.append(self.value("," + closer))
            c = self.skip()
            if c == ",":
                self.pos += 1
            elif c != closer:
                raise self.fail(f"expected ',' or {closer!r}, found {repr(c) if c else 'the end'}")

    def end(self) -> None:
        c = self.skip()
        if c:
            raise self.fail(f"unexpected {c!r} after the value")


def scalar(text: str) -> Any:
    """A single word: boolean, none, int, float, or the text itself."""
    low = text.lower()
    if low in _WORDS:
        return _WORDS[low]
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse_value(text: str) -> Any:
    """A whole value from text; top-level commas make a tuple (``3,4,5``)."""
    reader = _Reader(text)
    items = [reader.value(",")]
    trailing = False
    while reader.skip() == ",":
        reader.pos += 1
        trailing = not reader.skip()
        if not trailing:
            items.append(reader.value(","))
    reader.end()
    return items[0] if len(items) == 1 and not trailing else tuple(items)


def split_assignment(item: str, what: str = "--variant") -> tuple[str, str]:
    """``"key=value"`` -> (key, value text); a clear error when it is not that shape."""
    key, sep, value = item.partition("=")
    key = key.strip()
    if not sep or not key.isidentifier() or not value.strip():
        raise ValueSyntaxError(f"bad {what} {item!r}: write key=value, e.g. piles=3,4,5 or misere=true")
    return key, value


def parse_assignments(items: Iterable[str], what: str = "--variant") -> dict[str, Any]:
    """``["piles=3,4,5", "misere=on"]`` -> ``{"piles": (3, 4, 5), "misere": True}``."""
    out: dict[str, Any] = {}
    for item in items:
        key, text = split_assignment(item, what)
        if key in out:
            raise ValueSyntaxError(f"{what} {key} given twice")
        try:
            out[key] = parse_value(text)
        except ValueSyntaxError as exc:
            raise ValueSyntaxError(f"bad {what} {item!r}: {exc}") from None
    return out


def parse_options(body: str) -> dict[str, Any]:
    """The ``key=value, key=value`` inside an agent spec's parentheses (commas separate options)."""
    reader = _Reader(body)
    out: dict[str, Any] = {}
    while reader.skip():
        start = reader.pos
        while reader.pos < len(body) and (body[reader.pos].isalnum() or body[reader.pos] == "_"):
            reader.pos += 1
        key = body[start:reader.pos]
        if not key.isidentifier() or reader.skip() != "=":
            reader.pos = start
            raise reader.fail("options are key=value, separated by commas")
        reader.pos += 1
        if reader.skip() in (",", ""):
            raise reader.fail(f"option {key!r} has an empty value")
        if key in out:
            raise ValueSyntaxError(f"option {key!r} given twice")
        out[key] = reader.value(",")
        c = reader.skip()
        if c == ",":
            reader.pos += 1
        elif c:
            raise reader.fail(f"expected ',' after option {key!r}, found {c!r}")
    return out


def split_top_level(text: str, separators: str = ",;") -> list[str]:
    """Split a list of agent specs at separators outside parentheses, brackets and quotes.

    >>> split_top_level("random; alphabeta(depth=1, tt=on), mcts(sims=5)")
    ['random', 'alphabeta(depth=1, tt=on)', 'mcts(sims=5)']
    """
    out: list[str] = []
    cur: list[str] = []
    depth, quote = 0, ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in _QUOTES:
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch in separators and depth == 0 and not quote:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    return [s for s in out if s]


def available_games() -> list[str]:
    """The registered games whose module is installed here, sorted."""
    from zerosum.games.registry import GAMES

    def present(entry: Any) -> bool:
        return not isinstance(entry, str) or importlib.util.find_spec(entry.partition(":")[0]) is not None
    return sorted(name for name, entry in GAMES.items() if present(entry))


def variant_game(name: str, variant: Mapping[str, Any] | None = None) -> Game:
    """The game ``name`` under ``variant`` as read from text, or a VariantError naming what is allowed.

    A single value where the rules take a tuple is a one-item tuple (``piles=5`` is one pile
    of 5); a list read from a file (TOML, JSON) is a tuple.
    """
    from zerosum.games.registry import make_game

    games = available_games()
    if name not in games:
        raise UnknownGameError(f"unknown game {name!r}; available: {', '.join(games)}. {IMPORT_HINT}")
    try:
        defaults = make_game(name).variant
    except Exception as exc:  # noqa: BLE001 - a game that cannot be built at all is not available
        raise VariantError(f"game {name!r} cannot be built here: {type(exc).__name__}: {exc}") from None
    unknown = sorted(set(variant or {}) - set(defaults))
    if unknown:
        allowed = ", ".join(f"{k} (default {v!r})" for k, v in defaults.items()) or "none"
        raise VariantError(f"bad variant for {name}: unknown key(s) {', '.join(unknown)}; allowed: {allowed}")
    fixed = {}
    for key, value in (variant or {}).items():
        if isinstance(value, list):
            value = tuple(value)
        if isinstance(defaults[key], tuple) and not isinstance(value, tuple):
            value = (value,)
        fixed[key] = value
    try:
        return make_game(name, **fixed)
    except (ZerosumError, ValueError, TypeError) as exc:
        text = str(exc)
        raise VariantError(text if text.startswith("bad variant") else f"bad variant for {name}: {text}") from None


__all__ = ["ValueSyntaxError", "available_games", "parse_assignments", "parse_options", "parse_value", "scalar",
           "split_assignment", "split_top_level", "variant_game"]
