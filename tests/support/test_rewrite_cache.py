"""The rewritten test modules the xdist controller writes before its workers start
(``tests/support/rewrite_cache.py``) are the ones pytest itself would write and then read
instead of rewriting: at the versions this lane runs, the lowest declared among them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.support.rewrite_cache import stale_modules, write_rewritten_modules

MODULE = "def check():\n    seen = 1\n    assert seen == 2\n"


@pytest.fixture
def bytecode_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bytecode written, whatever the environment says (PYTHONDONTWRITEBYTECODE)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def _modules(folder: Path, count: int) -> list[Path]:
    paths = [folder / f"test_sample_{index}.py" for index in range(count)]
    for path in paths:
        path.write_text(MODULE, "utf-8")
    (folder / "helper.py").write_text(MODULE, "utf-8")  # no test module: not rewritten
    (folder / "test_broken.py").write_text("def (:\n", "utf-8")  # left for its import
    return paths


def _assertion_message(path: Path) -> str:
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, get_cache_dir

    code = _read_pyc(path, get_cache_dir(path) / (path.name[:-3] + PYC_TAIL))
    assert code is not None, f"pytest finds no rewritten module for {path.name}"
    namespace: dict[str, object] = {}
    exec(code, namespace)  # our own module's code, as pytest would run it
    check = namespace["check"]
    assert callable(check)
    with pytest.raises(AssertionError) as raised:
        check()
    return str(raised.value)


@pytest.mark.usefixtures("bytecode_written")
def test_pytest_reads_the_rewritten_modules_instead_of_rewriting(
    pytestconfig: pytest.Config, tmp_path: Path
) -> None:
    paths = _modules(tmp_path, 2)
    assert stale_modules(pytestconfig, [tmp_path]) == [tmp_path / "test_broken.py", *paths]
    assert write_rewritten_modules(pytestconfig, [tmp_path], processes=1) == 2
    assert stale_modules(pytestconfig, [tmp_path]) == [tmp_path / "test_broken.py"]
    # Rewritten: the failed assertion explains itself as pytest's rewriting has it do.
    assert "assert 1 == 2" in _assertion_message(paths[0])
    assert not list((tmp_path / "__pycache__").glob("helper.*"))


@pytest.mark.slow
@pytest.mark.usefixtures("bytecode_written")
def test_forked_writers_share_the_modules_out(pytestconfig: pytest.Config, tmp_path: Path) -> None:
    paths = _modules(tmp_path, 5)
    assert write_rewritten_modules(pytestconfig, [tmp_path], processes=2) == 5
    for path in paths:
        assert "assert 1 == 2" in _assertion_message(path)


def test_nothing_is_written_where_bytecode_is_not(
    pytestconfig: pytest.Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    _modules(tmp_path, 1)
    assert write_rewritten_modules(pytestconfig, [tmp_path], processes=1) == 0
    assert not (tmp_path / "__pycache__").exists()
