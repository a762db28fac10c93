"""The project facts a user looks for agree with each other: the version (pyproject, the package,
CITATION.cff, the changelog's newest entry) and the license (pyproject, LICENSE)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import zerosum

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]


def test_the_version_is_the_same_everywhere():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert zerosum.__version__ == project["version"]
    assert f"\nversion: {zerosum.__version__}\n" in (ROOT / "CITATION.cff").read_text()
    newest = re.search(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert newest is not None and newest[1] == zerosum.__version__


def test_the_license_file_is_the_one_pyproject_names():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    text = (ROOT / "LICENSE").read_text()
    assert project["license"]["text"] == "MIT" and text.startswith("MIT License")
    assert "Copyright (c) 2026 the zerosum developers" in text
    assert "license: MIT" in (ROOT / "CITATION.cff").read_text()
