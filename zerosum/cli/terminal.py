"""Text for a terminal of any encoding: what it cannot show falls back to ASCII.

``zerosum play`` and ``zerosum replay`` draw boards with ``game.render``, which may use Unicode
(chess's figurines ``♔ ♟``, the empty square ``·``). A terminal whose encoding lacks them
(``PYTHONIOENCODING=latin-1``, a Windows code page, ``LANG=C``) would stop the program with a
UnicodeEncodeError; :func:`for_terminal` gives the same text with ASCII pieces and stones
(``K Q R B N P`` for white, lower case for black, ``.`` for an empty point, ``X O`` for
stones), and ``?`` for anything else the encoding cannot write.
"""

from __future__ import annotations

import sys
from typing import TextIO

ASCII = str.maketrans({
    "♔": "K", "♕": "Q", "♖": "R", "♗": "B", "♘": "N", "♙": "P",
    "♚": "k", "♛": "q", "♜": "r", "♝": "b", "♞": "n", "♟": "p",
    "·": ".", "●": "X", "○": "O", "◯": "O", "⚫": "X", "⚪": "O",
    "—": "-", "–": "-", "…": "...", "×": "x", "→": "->", "±": "+-",
})
"""Each Unicode piece, stone or sign the boards and messages use, and its ASCII stand-in."""


def encoding_of(stream: TextIO | None = None) -> str:
    """The encoding text written to ``stream`` (standard output by default) is encoded in."""
    stream = sys.stdout if stream is None else stream
    return getattr(stream, "encoding", None) or "ascii"


def for_terminal(text: str, encoding: str | None = None) -> str:
    """``text`` unchanged where ``encoding`` (standard output's by default) can write it; else
    with ASCII pieces and stones, and ``?`` for what is still left."""
    encoding = encoding or encoding_of()
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        pass
    except LookupError:  # an encoding Python does not know: ASCII is safe
        encoding = "ascii"
    ascii_text = text.translate(ASCII)
    return ascii_text.encode(encoding, errors="replace").decode(encoding, errors="replace")


def say(text: str = "") -> None:
    """Print ``text`` to standard output in a form its encoding can write, and flush."""
    print(for_terminal(text), flush=True)


__all__ = ["ASCII", "encoding_of", "for_terminal", "say"]
