"""A method's settings as command-line options, read from its config's dataclasses.

>>> from zerosum.training.alphazero import AlphaZeroConfig
>>> opt = {o.name: o for o in AlphaZeroConfig.options()}["label_depth"]
>>> opt.flag, opt.kind, opt.group, opt.help
('--label-depth', 'int', 'teacher', "The labels' alpha-beta depth (label_depth).")

Each setting is one :class:`Option`: its flat name (the flag, the recipes' and run.json's key),
the stage it belongs to, its kind (how its text is read, from the field's annotation or its
``metadata["kind"]``), its choices (``metadata["choices"]``) and its help: the field's
docstring, the one the reference documents too. ``zerosum train`` builds its flags from the
options of every method (:mod:`zerosum.training.methods`) and reads each given value with
:func:`read_option`, so a new setting is a new field with a docstring, and nothing else.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from zerosum.values import ValueSyntaxError, parse_assignments, parse_value, split_top_level

KINDS = ("bool", "int", "float", "str", "specs", "spec_or_specs", "ints", "floats", "widths", "assignments",
         "files", "count")
"""How an option's text is read: a switch, a number, a word, agent specs (``a; b``), numbers
(``64,64``), layer widths, ``KEY=VALUE`` pairs, file names, or a count (``-vv``)."""

ANNOTATION_KINDS = {"bool": "bool", "int": "int", "float": "float", "float | None": "float", "int | None": "int",
                    "str": "str", "str | None": "str", "list[str]": "specs", "list[str] | None": "specs",
                    "str | list[str]": "spec_or_specs", "list[int]": "ints", "list[float]": "floats",
                    "list[float] | None": "floats", "tuple[int, ...]": "widths", "dict[str, Any]": "assignments"}
"""A field's annotation -> its kind (a field may say otherwise in ``metadata["kind"]``)."""


class OptionError(ValueError):
    """A value given to an option that its kind or choices do not allow."""


@dataclass(frozen=True)
class Option:
    """One setting of a method as a command-line option."""

    name: str
    """The flat name (``label_depth``): the recipes' and run.json's key."""
    group: str
    """The stage of a run that reads it (``teacher``)."""
    kind: str
    """How its text is read, one of :data:`KINDS`."""
    help: str
    """What it does: the field's docstring, as plain text."""
    choices: tuple[Any, ...] = ()
    """The values it allows (empty: any of its kind)."""
    into: str = ""
    """A dict setting this option is one key of (``algo_kwargs``; empty: a setting of its own)."""
    key: str = ""
    """With ``into``: the key (``learning_rate``)."""
    flag: str = ""
    """The flag (``--label-depth``; default: the name with dashes)."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if not self.flag:
            object.__setattr__(self, "flag", "--" + self.name.replace("_", "-"))

    @property
    def action(self) -> str:
        """How argparse collects it: ``bool`` (``--x``/``--no-x``), ``count``, ``many`` (several words) or ``one``."""
        return {"bool": "bool", "count": "count", "assignments": "many", "files": "many"}.get(self.kind, "one")


def plain(doc: str) -> str:
    """A docstring as one line of plain text (reST roles and literals unwrapped)."""
    text = re.sub(r":\w+:`~?([^`<]*?)(?:\s*<[^>]*>)?`", lambda m: m.group(1).rsplit(".", 1)[-1], doc)
    return " ".join(text.replace("``", "").split())


@cache
def field_docs(cls: type) -> dict[str, str]:
    """The docstring under each annotated field of class ``cls`` (its source read once)."""
    tree = ast.parse(inspect.getsource(cls).strip() + "\n")
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for node, after in itertools.pairwise(body):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str)):
            docs[node.target.id] = plain(after.value.value)
    return docs


def field_option(cls: type, field: str, name: str, group: str) -> Option:
    """The option of field ``field`` of dataclass ``cls``, under the flat name ``name``."""
    f = {x.name: x for x in dataclasses.fields(cls)}[field]
    annotation = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
    kind = f.metadata.get("kind") or ANNOTATION_KINDS.get(annotation)
    if kind is None:
        raise TypeError(f"{cls.__name__}.{field}: annotation {annotation!r} has no option kind; give "
                        "metadata={'kind': ...}, one of " + ", ".join(KINDS))
    return Option(name, group, kind, field_docs(cls).get(field, ""), tuple(f.metadata.get("choices", ())),
                  flag=f.metadata.get("flag", ""))


def _specs(text: str) -> list[str]:
    specs = split_top_level(text)
    if not specs:
        raise OptionError(f"no agent spec in {text!r}")
    return specs


def _numbers(text: str, kind: type, what: str) -> list[Any]:
    try:
        value = parse_value(text)
    except ValueSyntaxError as exc:
        raise OptionError(f"{what} {text!r}: {exc}") from None
    items = list(value) if isinstance(value, tuple) else [value]
    if not items or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in items):
        raise OptionError(f"{what} {text!r}: give numbers such as 64,64")
    return [kind(x) for x in items]


def read_option(opt: Option, raw: Any) -> Any:
    """The value of ``opt`` given ``raw`` (the text argparse collected; a list for ``many``, a bool or
    an int for switches and counts); OptionError saying what is allowed."""
    what = opt.flag.lstrip("-").replace("-", " ")
    if opt.kind in ("bool", "count"):
        value: Any = raw
    elif opt.kind in ("int", "float"):
        try:
            value = (int if opt.kind == "int" else float)(raw)
        except ValueError:
            raise OptionError(f"argument {opt.flag}: invalid {opt.kind} value: {raw!r}") from None
    elif opt.kind == "str":
        value = raw
    elif opt.kind in ("specs", "spec_or_specs"):
        value = _specs(raw)
        if opt.kind == "spec_or_specs" and len(value) == 1:
            value = value[0]
    elif opt.kind in ("ints", "floats"):
        value = _numbers(raw, int if opt.kind == "ints" else float, what)
    elif opt.kind == "widths":
        value = tuple(_numbers(raw, int, what))
        if min(value) < 1:
            raise OptionError(f"{what} {raw!r}: give layer widths such as 64,64")
    elif opt.kind == "assignments":
        try:
            value = parse_assignments(list(raw), opt.flag)
        except ValueSyntaxError as exc:
            raise OptionError(str(exc)) from None
    else:  # files
        value = list(raw)
    if opt.choices and opt.kind != "bool":
        named = {str(c): c for c in opt.choices}
        if str(value) not in named:
            allowed = ", ".join(map(str, opt.choices[:-1])) + f" or {opt.choices[-1]}"
            raise OptionError(f"{what} {raw!r} is not allowed: {allowed}")
        value = named[str(value)]
    return value


__all__ = ["ANNOTATION_KINDS", "KINDS", "Option", "OptionError", "field_docs", "field_option", "plain", "read_option"]
