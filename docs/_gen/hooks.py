"""MkDocs hooks: the fence options our page tests read (``file=``, ``extra=``, ``output``,
``notest=``) are for the tests; the site shows ``file=PATH`` as the block's title and drops the rest."""

from __future__ import annotations

import re
from typing import Any

FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>\w+)(?P<opts>[ \t]+[^\n`]*)$", re.MULTILINE)


def _fence(m: re.Match[str]) -> str:
    opts = dict(o.split("=", 1) if "=" in o else (o, "") for o in m["opts"].split())
    title = f' title="{opts["file"]}"' if "file" in opts else ""
    return f"{m['indent']}```{m['lang']}{title}"


def on_page_markdown(markdown: str, **_: Any) -> str:
    return FENCE_OPEN.sub(_fence, markdown)
