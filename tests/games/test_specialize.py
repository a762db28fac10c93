"""The kit's one specialisation mechanism: one copy per game, named by everything it compiles.

A toy game is written to a temporary directory (rules in one file, a table and a helper
in two others) so that real edits can be made to real files; shared files (the kit, the
search modules) are edited through the text the mechanism reads.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.games import make_game
from zerosum.games.kit import Kernels
from zerosum.games.kit import specialize as sp
from zerosum.games.kit.errors import KernelError
from zerosum.games.tictactoe import KERNELS as TTT_KERNELS
from zerosum.search import compiled

RULES = '''
from zerosum.games.kit import APPLY, KEY, LEGAL, OBSERVE, ONGOING, P0_WINS, P1_WINS, PLAYER, STATUS, Kernels, kernel
from {prefix}_tables import TARGET
from {prefix}_steps import step


@kernel(LEGAL)
def legal(params, s, out):
    if s[0] >= TARGET:
        return 0
    out[0] = 0
    out[1] = 1
    return 2


@kernel(APPLY)
def apply(params, s, a, child):
    child[0] = s[0] + step(a)
    child[1] = 1 - s[1]


@kernel(STATUS)
def status(params, s):
    if s[0] < TARGET:
        return ONGOING
    return P0_WINS if s[1] == 1 else P1_WINS


@kernel(PLAYER)
def player(params, s):
    return s[1]


@kernel(KEY)
def key(params, s):
    return s[0] * 2 + s[1]


@kernel(OBSERVE)
def observe(params, s, p, out):
    out[0] = s[0]


KERNELS = Kernels(legal=legal, apply=apply, status=status, player=player, key=key, observe=observe)
'''
TABLES = "TARGET = 3\n"  # data only: nothing in the rules' globals points back to this file
STEPS = "from zerosum.games.kit import helper\n\n\n@helper\ndef step(a):\n    return a + 1\n"


def write_toy(root: Path, prefix: str) -> dict[str, Path]:
    """The toy game's three files under ``root`` (module names start with ``prefix``)."""
    files = {"rules": RULES.format(prefix=prefix), "tables": TABLES, "steps": STEPS}
    paths = {}
    for part, text in files.items():
        paths[part] = root / f"{prefix}_{part}.py"
        paths[part].write_text(text)
    return paths


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy game importable as ``<prefix>_rules``; its modules are forgotten afterwards."""
    prefix = f"zs_toy_{abs(hash(str(tmp_path))) % 10**8}"
    paths = write_toy(tmp_path, prefix)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield prefix, paths
    for name in [n for n in sys.modules if n.startswith(prefix)]:
        del sys.modules[name]


def stem(template: Path, module: str) -> str:
    return sp.copy_source(template, module, "KERNELS")[0]


def test_one_copy_per_game_named_by_content():
    ttt = compiled.for_game(make_game("tictactoe"))
    nim = compiled.for_game(make_game("nim"))
    assert ttt is compiled.for_game(make_game("tictactoe")) and ttt is not nim
    for mod, game_module in ((ttt, "zerosum.games.tictactoe"), (nim, "zerosum.games.nim")):
        path = Path(mod.__file__)
        assert path.parent == sp.cache_dir() / "compiled"
        assert path.stem == stem(compiled.TEMPLATE, game_module)  # the name is the content
        text = path.read_text()
        assert f"from {game_module} import KERNELS as _RULES" in text
        assert "zerosum.games.kit.placeholder" not in text
    assert [len(m.negamax.nopython_signatures) for m in (ttt, nim)] == [1, 1]  # compiled (or loaded) copies


def test_every_source_the_copy_compiles_is_in_its_name(toy, tmp_path, monkeypatch):
    prefix, paths = toy
    template = tmp_path / "_template.py"
    template.write_text(compiled.TEMPLATE.read_text())
    module = f"{prefix}_rules"
    first = stem(template, module)
    assert stem(template, module) == first  # stable
    for part in ("template", "rules", "tables", "steps"):
        path = template if part == "template" else paths[part]
        original = path.read_text()
        path.write_text(original + "\n# edited\n")
        assert stem(template, module) != first, f"an edit to the {part} file left the name unchanged"
        path.write_text(original)
        assert stem(template, module) == first  # the same content, the same copy
    # Shared modules: the kit, and what the template imports (edited as the mechanism reads them).
    read_text = Path.read_text
    for shared in ("zerosum.games.kit.kernels", "zerosum.games.kit.toolkit", "zerosum.search._flags",
                   "zerosum.search._arrays", "zerosum.search.result"):
        target = Path(sys.modules[shared].__file__)
        monkeypatch.setattr(Path, "read_text", lambda p, *a, t=target, **k: read_text(p, *a, **k)
                            + ("#" if p == t else ""))
        assert stem(template, module) != first, f"an edit to {shared} left the name unchanged"
        monkeypatch.setattr(Path, "read_text", read_text)
    assert stem(template, module) == first


def test_the_name_does_not_depend_on_what_else_is_loaded(toy, tmp_path):
    prefix, _ = toy
    package = tmp_path / f"{prefix}_pkg"
    package.mkdir()
    (package / "__init__.py").write_text(f"from {prefix}_rules import KERNELS\n")
    (package / "unrelated.py").write_text("X = 1\n")
    before = stem(compiled.TEMPLATE, f"{prefix}_pkg")
    __import__(f"{prefix}_pkg.unrelated")  # now an attribute of the package, imported by no rules
    assert stem(compiled.TEMPLATE, f"{prefix}_pkg") == before


def test_a_template_needs_its_rules_line_once(tmp_path):
    template = tmp_path / "_bad.py"
    for text in ("import numpy\n", f"{sp.RULES_LINE}\n{sp.RULES_LINE}\n"):
        template.write_text(text)
        with pytest.raises(RuntimeError, match="rules line exactly once"):
            sp.copy_source(template, "zerosum.games.tictactoe", "KERNELS")


def test_kernels_must_be_importable():
    loose = Kernels(**{f: getattr(TTT_KERNELS, f) for f in ("legal", "apply", "status", "player", "key", "observe")})
    assert sp.kernels_origin(TTT_KERNELS) == ("zerosum.games.tictactoe", "KERNELS")
    with pytest.raises(KernelError, match=r"module-level Kernels object \(KERNELS = Kernels\(...\)\)"):
        sp.kernels_origin(loose)
    with pytest.raises(KernelError, match="importable module"):
        sp.specialize(compiled.TEMPLATE, loose)


TINY_TEMPLATE = f'''
from numba import njit
{sp.RULES_LINE}

status = _RULES.status


@njit(cache=True)
def outcome(params, s):
    return status(params, s)
'''
RUN = '''
import sys
from pathlib import Path
import numpy as np
sys.path.insert(0, {root!r})
from zerosum.games.kit.specialize import specialize
from {prefix}_rules import KERNELS
params = np.zeros(1, np.int64)
params.setflags(write=False)
print(specialize(Path({template!r}), KERNELS).outcome(params, np.array([3, 0], np.int64)))
'''


def test_an_edited_table_reaches_the_compiled_code(toy, tmp_path):
    prefix, paths = toy
    template = tmp_path / "_tiny_template.py"
    template.write_text(TINY_TEMPLATE)
    script = RUN.format(root=str(tmp_path), prefix=prefix, template=str(template))
    env = {**os.environ, "ZEROSUM_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> int:
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr
        return int(out.stdout.split()[-1])

    assert run() == 2  # [3, 0]: total 3 reached, player 1 made the last move and wins
    paths["tables"].write_text("TARGET = 4\n")
    assert run() == 0  # the game goes on below 4


# ---- the cache's safety: every case compiles or loads correct code, and none crashes ---------------------------
def run_tiny(tmp_path, prefix, cache, preamble="", template_text=TINY_TEMPLATE):
    """Run the tiny template's copy for the toy game in a fresh process; (outcome, stderr)."""
    template = tmp_path / "_tiny_template.py"
    if not template.exists() or template.read_text() != template_text:
        template.write_text(template_text)
    script = preamble + RUN.format(root=str(tmp_path), prefix=prefix, template=str(template))
    env = {**os.environ, "ZEROSUM_CACHE_DIR": str(cache), "ZEROSUM_QUIET": "0"}
    out = subprocess.run([sys.executable, "-W", "always", "-c", script], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    return int(out.stdout.split()[-1]), out.stderr


def test_a_first_compile_says_so_once_and_a_warm_cache_says_nothing(toy, tmp_path):
    prefix, _ = toy
    result, err = run_tiny(tmp_path, prefix, tmp_path / "cache")
    assert result == 2
    notices = [line for line in err.splitlines() if line.startswith("zerosum: compiling") and prefix in line]
    assert len(notices) == 2, err  # the toy's kernels, then the template's copy: one line each
    assert "kernels of" in notices[0] and "tiny_template for" in notices[1] and "load it from" in notices[1]
    result, err = run_tiny(tmp_path, prefix, tmp_path / "cache")
    assert result == 2 and "zerosum:" not in err, err


def test_a_corrupt_cache_file_is_compiled_again(toy, tmp_path):
    prefix, _ = toy
    cache = tmp_path / "cache"
    assert run_tiny(tmp_path, prefix, cache)[0] == 2
    files = [p for p in cache.rglob("*") if p.suffix in (".nbi", ".nbc")]
    assert files, "the copy's compiled code is cached under ZEROSUM_CACHE_DIR"
    for path in files:
        path.write_bytes(b"\x80\x04not a pickle")  # as a disk full or a killed write could leave it
    result, err = run_tiny(tmp_path, prefix, cache)
    assert result == 2 and "could not be read" in err and "CompileCacheWarning" in err, err
    result, err = run_tiny(tmp_path, prefix, cache)  # the entry compiled again was saved in its place
    assert result == 2 and "CompileCacheWarning" not in err, err


def test_an_unwritable_cache_dir_compiles_in_memory_with_one_warning(toy, tmp_path):
    prefix, _ = toy
    blocker = tmp_path / "a-file"
    blocker.write_text("")  # a folder below a file can never be made, whoever runs the test (root too)
    result, err = run_tiny(tmp_path, prefix, blocker / "cache")
    assert result == 2
    assert err.count("cannot write zerosum's compile cache") == 1, err
    assert "compiling in memory" in err


FULL_DISK = '''
import errno
from numba.core import caching
def full(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")
caching.IndexDataCacheFile._save_index = full
caching.IndexDataCacheFile._save_data = full
'''


def test_a_full_disk_keeps_the_compiled_code_in_memory_with_a_warning(toy, tmp_path):
    prefix, _ = toy
    result, err = run_tiny(tmp_path, prefix, tmp_path / "cache", preamble=FULL_DISK)
    assert result == 2
    assert "No space left on device" in err and "stays in memory" in err, err


def test_a_cache_entry_naming_a_missing_module_is_a_miss(tmp_path, recwarn):
    """Last round an edit during a test run left entries whose code named a specialised copy
    that no longer existed (ModuleNotFoundError: zerosum_compiled_template_...): such an entry
    is removed and compiled again, with a warning."""
    from types import SimpleNamespace

    from numba.core import caching

    from zerosum.games.kit.cache import CompileCacheWarning, guard_numba_cache

    guard_numba_cache()
    index = tmp_path / "negamax-1.py311.nbi"
    index.write_bytes(b"an index naming a module that is gone")

    class Stale(caching.Cache):
        def __init__(self):  # no numba function behind it: only what load_overload reads
            self._cache_file = SimpleNamespace(_index_path=str(index))
            self._enabled = True

        def _load_overload(self, sig, target_context):
            raise ModuleNotFoundError("No module named 'zerosum_compiled_template_gone'")

    assert Stale().load_overload(None, SimpleNamespace(refresh=lambda: None)) is None
    assert not index.exists()  # removed, so that the code compiled now is saved in its place
    assert any(issubclass(w.category, CompileCacheWarning) and "zerosum_compiled_template_gone" in str(w.message)
               for w in recwarn)


def test_two_processes_compiling_at_once_both_end_correct(toy, tmp_path):
    prefix, _ = toy
    cache = tmp_path / "cache"
    template = tmp_path / "_tiny_template.py"
    template.write_text(TINY_TEMPLATE)
    script = RUN.format(root=str(tmp_path), prefix=prefix, template=str(template))
    env = {**os.environ, "ZEROSUM_CACHE_DIR": str(cache)}
    procs = [subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0 and int(out.split()[-1]) == 2, err
    result, err = run_tiny(tmp_path, prefix, cache)  # and the cache they left serves a third
    assert result == 2 and "zerosum:" not in err and "Warning" not in err, err


def test_an_upgrade_with_the_old_cache_in_place_runs_the_new_code(toy, tmp_path):
    prefix, _ = toy
    cache = tmp_path / "cache"
    assert run_tiny(tmp_path, prefix, cache)[0] == 2
    upgraded = TINY_TEMPLATE.replace("return status(params, s)", "return status(params, s) + 10")
    result, err = run_tiny(tmp_path, prefix, cache, template_text=upgraded)
    assert result == 12 and "Warning" not in err, err
