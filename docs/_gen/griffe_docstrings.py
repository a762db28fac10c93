"""A griffe extension for the API reference: zerosum's docstrings are written for ``help()``
and doctest, with a few reST habits; this turns them into the Markdown mkdocstrings renders.

- ``>>>`` examples become fenced ``pycon`` blocks (their output is not Markdown);
- ``text::`` followed by an indented block becomes a fenced text block;
- roles such as ``:func:`~zerosum.x.y``` become inline code (``y``), ``:math:`x``` too;
- a ``.. math::`` directive (the formula on its line and the indented lines after it) becomes a
  fenced text block: the site has no TeX renderer, and the LaTeX reads as it is written.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|mod|meth|attr|data|obj|exc|const):`(~?)([^`]+)`")
MATH = re.compile(r":math:`([^`]+)`")
MATH_BLOCK = re.compile(r"^(?P<indent>[ \t]*)\.\. math::[ \t]*(?P<first>.*)\n(?P<rest>(?:(?P=indent)[ \t]+\S.*\n)*)",
                        re.MULTILINE)
LITERAL = re.compile(r"^(?P<lead>.*?)::[ \t]*\n\n(?P<block>(?:(?:[ \t]+.*)?\n)+)", re.MULTILINE)


def _role(m: re.Match[str]) -> str:
    target = m[2]
    return f"`{target.rsplit('.', 1)[-1] if m[1] else target}`"


def _literal(m: re.Match[str]) -> str:
    lead = m["lead"].rstrip()
    lead = lead + ":" if lead and not lead.endswith(":") else lead
    return f"{lead}\n\n```text\n{textwrap.dedent(m['block']).strip(chr(10))}\n```\n\n"


def _math_block(m: re.Match[str]) -> str:
    lines = [m["first"].strip(), *(line.strip() for line in m["rest"].splitlines())]
    return "\n```text\n" + "\n".join(line for line in lines if line) + "\n```\n"


def _doctests(text: str) -> str:
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith(">>>") and (not out or not out[-1].startswith("```")):
            indent = len(lines[i]) - len(lines[i].lstrip())
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][indent:])
                i += 1
            out += ["```pycon", *block, "```"]
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)


def to_markdown(text: str) -> str:
    """One docstring's text as Markdown."""
    text = MATH.sub(r"`\1`", ROLE.sub(_role, text))
    text = MATH_BLOCK.sub(_math_block, text + "\n")
    text = LITERAL.sub(_literal, text).rstrip("\n")
    return _doctests(text)


class MarkdownDocstrings(griffe.Extension):
    """Rewrites every docstring once, when griffe loads it."""

    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)
