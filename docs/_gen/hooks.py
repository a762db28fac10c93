"""MkDocs hooks.

- The fence options our page tests read (``file=``, ``extra=``, ``output``, ``notest=``) are for the
  tests; the site shows ``file=PATH`` as the block's title and drops the rest.
- The nav's Reference section lists one page per module with an ``__all__`` (``api.py`` finds them),
  so a new module gets its page and its place in the nav without an edit to ``mkdocs.yml``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from api import page_of, reference_modules  # the site's own helpers

FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>\w+)(?P<opts>[ \t]+[^\n`]*)$", re.MULTILINE)


def _fence(m: re.Match[str]) -> str:
    opts = dict(o.split("=", 1) if "=" in o else (o, "") for o in m["opts"].split())
    title = f' title="{opts["file"]}"' if "file" in opts else ""
    return f"{m['indent']}```{m['lang']}{title}"


def on_page_markdown(markdown: str, **_: Any) -> str:
    return FENCE_OPEN.sub(_fence, markdown)


def on_config(config: Any, **_: Any) -> Any:
    for section in config["nav"]:
        if isinstance(section, dict) and "Reference" in section:
            section["Reference"] = ["reference/index.md", "reference/cli.md",
                                    *({m: f"reference/{page_of(m)}.md"} for m in reference_modules())]
    return config
