# The two commands of the README: `make run` and `make test`. Both work on a fresh
# machine with only python3 and make: they create .venv and install what they need.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip --disable-pip-version-check -q
BUILD  := pyproject.toml setup.py zerosum/games/_native.c

.PHONY: run test lint bench docs clean-cache

$(PY):
	$(PYTHON) -m venv $(VENV)

# Stamps re-install only when the build changes (setup.py builds the C module of the
# Game API's hot calls, zerosum/games/_native.c).
$(VENV)/.core: $(BUILD) | $(PY)
	$(PIP) install -e .
	touch $@

# The main job's tournament includes a learned agent: torch (the pinned CPU build),
# stable-baselines3 and sb3-contrib come with it.
$(VENV)/.train: $(BUILD) | $(PY)
	$(PIP) install -e ".[train]"
	touch $@ $(VENV)/.core

# The site's tools: MkDocs, Material for MkDocs, mkdocstrings, mkdocs-gen-files.
$(VENV)/.docs: $(BUILD) | $(PY)
	$(PIP) install -e ".[docs]"
	touch $@ $(VENV)/.core

# The tests cover every part, training, the Ray backend and the site's build included: install them all.
$(VENV)/.dev: $(BUILD) | $(PY)
	$(PIP) install -e ".[all]"
	touch $@ $(VENV)/.core $(VENV)/.train $(VENV)/.docs

# `zerosum warmup` first compiles what the tournament's games use, in one process a core (a
# warm cache makes it a second's check): the searches' copy for every game and each game's
# rules, so the tournament's workers load compiled code; each game's own, faster copies then
# compile in the background, one at a time, for the workers that come later.
run: $(VENV)/.train
	$(PY) -m zerosum warmup --tier generic --parts rules,alphabeta,mcts,guided
	$(PY) -m zerosum tournament --config configs/default.toml

# Two workers (pytest-xdist), one test file each. On a fresh machine most of the suite's
# time is numba compiling: the tests run the searches on the generic tier (one compiled
# copy for every game: tests/conftest.py), and `zerosum warmup --tier generic` compiles it
# and each game's rules first, a process a core, so that no two test files compile the same
# code (each loads it from the disk cache) and the time does not grow with the games.
test: $(VENV)/.dev
	-$(PY) -m zerosum warmup --tier generic  # a part that fails to compile fails its tests too, with their message
	$(PY) -m pytest -q -n 2 --dist loadfile

# ruff (rules in pyproject.toml) over the code, tests, benchmarks and the docs build scripts; mypy, strict for
# zerosum.games and zerosum.search (pyproject.toml). Both come with the dev extra.
lint: $(VENV)/.dev
	$(PY) -m ruff check zerosum tests bench experiments docs
	$(PY) -m mypy

# Every script in bench/ at quick settings (about 20 minutes); FULL=1: their own settings, and the
# comparisons with earlier builds of zerosum (hours). The studies of docs/experiments.md are in experiments/.
bench: $(VENV)/.dev
	$(PY) bench/run_all.py $(if $(FULL),--full)

# The documentation site into site/ (open site/index.html); any warning fails the build.
# The game pages draw their boards with the envs, so a fresh install compiles the games first.
# docs/_gen/build.py runs `mkdocs build --strict` and, when it passed, records a digest of the
# site's inputs in site/.inputs: the site test checks this site while the digest still holds.
docs: $(VENV)/.docs
	ZEROSUM_BACKGROUND_COMPILE=0 $(PY) docs/_gen/build.py site

# numba caches compiled rules next to the sources, and the per-game compiled copies (hot
# calls, search) in ~/.cache/zerosum/compiled, named by a hash of every source they depend
# on (zerosum/games/kit/specialize.py; numba keys the kernels by their imports too,
# zerosum/games/kit/toolkit.py), so they are never stale: this only frees the disk.
clean-cache:
	find zerosum -name '*.nbi' -delete -o -name '*.nbc' -delete
	rm -rf "$${ZEROSUM_CACHE_DIR:-$${XDG_CACHE_HOME:-$$HOME/.cache}/zerosum}"
