"""Every name the API reference shows has a description: every name in an ``__all__``, and every public
method, property and field of the classes among them (a field's description is the string literal on the
line after it, which griffe reads). Read through griffe as the site's mkdocstrings reads it, over every
module with an ``__all__`` (docs/_gen/api.py finds them), so a new module is covered as soon as it exists."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

GEN = Path(__file__).resolve().parents[2] / "docs" / "_gen"


@pytest.fixture(scope="module")
def api():
    pytest.importorskip("griffe", reason="the docs extra: pip install -e '.[docs]'")
    sys.path.insert(0, str(GEN))
    try:
        import api
    finally:
        sys.path.remove(str(GEN))
    return api


def test_every_public_name_and_field_has_a_description(api):
    package = api.load_package()
    shown = [path for path, _ in api.documented(package)]
    assert len(shown) > 500  # every module with an __all__, and the members of its classes
    missing = api.undocumented(package)
    assert not missing, (f"{len(missing)} of {len(shown)} names the API reference shows have no description "
                         "(a docstring; for a field or constant, a string literal on the line after it):\n  "
                         + "\n  ".join(missing))

