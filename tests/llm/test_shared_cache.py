"""The response cache every run of a user shares (issue 17 item 1): in the user's cache
folder whatever the run's --output, ``VERIFY_CACHE_DIR`` over it, ``cache stats``, ``clear``
and ``prune --older-than``, and the ``VERIFY_CACHE_MAX_MB`` cap evicting the least recently
used answers. Driven through the CLI against the fake Messages API server."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.fake_server import kmp_messages
from verification.cli import main
from verification.llm.cache.responses import CACHE_FILE
from verification.store.journal import read_journal

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer

MODEL = "claude-test-model"
SEED = 5


@pytest.fixture
def anthropic_env(fake_server: FakeModelServer, monkeypatch: pytest.MonkeyPatch) -> FakeModelServer:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-shared-cache-canary-77")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_server.base_url)
    return fake_server


def _verify(output: Path, cases: int, seed: int = SEED) -> int:
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", MODEL, "--seed", str(seed)]
    return main([*argv, "--cases", str(cases), "--output", str(output)])


def _sources(output: Path) -> list[str]:
    (run,) = (output / "runs").iterdir()
    return [record.source for record in read_journal(run / "results.jsonl")]


def _rows(path: Path) -> list[tuple[str, str]]:
    with closing(sqlite3.connect(path)) as db:
        return db.execute("SELECT key, used_at FROM responses ORDER BY used_at").fetchall()


def test_runs_with_different_outputs_share_the_cache_in_verify_cache_dir(
    anthropic_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "shared"))
    anthropic_env.script([kmp_messages(SEED, 3)] * 3)
    assert _verify(tmp_path / "first", 3) == 0
    assert _verify(tmp_path / "second", 3) == 0
    assert len(anthropic_env.requests) == 3, "the second results folder started warm"
    assert _sources(tmp_path / "second") == ["cache"] * 3
    assert (tmp_path / "shared" / CACHE_FILE).is_file()
    assert not (tmp_path / "first" / CACHE_FILE).exists()


@pytest.mark.slow
def test_the_default_cache_is_in_xdg_cache_home(
    anthropic_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VERIFY_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    anthropic_env.script([kmp_messages(SEED, 2)] * 2)
    assert _verify(tmp_path / "out", 2) == 0
    path = tmp_path / "xdg" / "scaffold-verification" / CACHE_FILE
    assert len(_rows(path)) == 2
    # A fresh process finds it too: the location is the platform's, not the test's.
    stats = subprocess.run(
        [sys.executable, "-m", "verification", "cache", "stats"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert stats.stdout.startswith(f"{path}: 2 answers")


def test_prune_removes_answers_unused_for_days_and_keeps_the_rest(
    anthropic_env: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    anthropic_env.script([kmp_messages(SEED, 4)] * 4)
    assert _verify(tmp_path / "out", 4) == 0
    rows = _rows(tmp_path / CACHE_FILE)
    with closing(sqlite3.connect(tmp_path / CACHE_FILE)) as db, db:
        for key, _ in rows[:3]:  # three answers last used 10 days ago
            db.execute(
                "UPDATE responses SET used_at = datetime('now', '-10 days') WHERE key = ?", (key,)
            )
    capsys.readouterr()
    assert main(["cache", "prune", "--older-than", "30"]) == 0
    assert "removed 0 answer(s)" in capsys.readouterr().out
    assert main(["cache", "prune", "--older-than", "7"]) == 0
    assert "removed 3 answer(s) unused for 7 day(s)" in capsys.readouterr().out
    assert [key for key, _ in _rows(tmp_path / CACHE_FILE)] == [rows[3][0]]


def test_prune_wants_its_days_and_nothing_else_takes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cache", "prune"]) == 2
    assert "cache prune needs --older-than DAYS" in capsys.readouterr().err
    assert main(["cache", "stats", "--older-than", "3"]) == 2
    assert "--older-than goes with cache prune" in capsys.readouterr().err


def test_the_size_cap_evicts_the_least_recently_used_answers(
    anthropic_env: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    anthropic_env.script([kmp_messages(SEED, 6)] * 6)
    assert _verify(tmp_path / "a", 6) == 0
    rows = _rows(tmp_path / CACHE_FILE)
    assert len(rows) == 6
    # Serve the oldest answer again: it becomes the most recently used.
    with closing(sqlite3.connect(tmp_path / CACHE_FILE)) as db:
        sizes = dict(db.execute("SELECT key, LENGTH(key) + LENGTH(response) + 128 FROM responses"))
    with closing(sqlite3.connect(tmp_path / CACHE_FILE)) as db, db:
        db.execute(
            "UPDATE responses SET used_at = strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now', "
            "'+1 day') WHERE key = ?",
            (rows[0][0],),
        )
    # A cap that holds the answer just used and the newest one of the rest, no more.
    by_recency = [rows[0][0], *(key for key, _ in reversed(rows[1:]))]
    cap = sizes[by_recency[0]] + sizes[by_recency[1]]
    monkeypatch.setenv("VERIFY_CACHE_MAX_MB", str(cap / 1024 / 1024))
    assert main(["cache", "prune", "--older-than", "365"]) == 0
    assert "and 4 beyond the size cap" in capsys.readouterr().out
    assert {key for key, _ in _rows(tmp_path / CACHE_FILE)} == set(by_recency[:2])
    assert main(["cache", "stats"]) == 0
    assert "2 answers" in capsys.readouterr().out


def test_a_capped_cache_stays_under_its_cap_while_a_run_keeps_answers(
    anthropic_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    anthropic_env.script([kmp_messages(SEED, 3)] * 3)
    assert _verify(tmp_path / "a", 3) == 0
    with closing(sqlite3.connect(tmp_path / CACHE_FILE)) as db:
        (largest,) = db.execute("SELECT MAX(LENGTH(key) + LENGTH(response) + 128) FROM responses")
    # Room for one answer: the next run's first kept answer evicts the older ones.
    monkeypatch.setenv("VERIFY_CACHE_MAX_MB", str(largest[0] * 1.5 / 1024 / 1024))
    anthropic_env.script([kmp_messages(SEED + 1, 1)])
    assert _verify(tmp_path / "b", 1, seed=SEED + 1) == 0
    assert len(_rows(tmp_path / CACHE_FILE)) == 1


def test_cache_stats_on_a_folder_with_no_cache_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cache", "stats", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"{tmp_path} holds no response cache; the shared one is " in out
    assert not (tmp_path / CACHE_FILE).exists()


@pytest.mark.parametrize("action", ["stats", "clear"])
def test_cache_refuses_output_which_names_a_results_folder_elsewhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], action: str
) -> None:
    # --output is the results folder for every other command; the cache is shared whatever
    # it is, so `cache clear --output R` must not act on some other file or clear the
    # shared cache: it is refused, naming the shared cache and --cache-dir.
    legacy = tmp_path / "results"
    legacy.mkdir()
    (legacy / CACHE_FILE).write_bytes(b"kept")
    assert main(["cache", action, "--output", str(legacy)]) == 2
    err = capsys.readouterr().err
    shared = Path(os.environ["VERIFY_CACHE_DIR"]) / CACHE_FILE  # set by conftest
    assert "cache takes no --output" in err and f"--cache-dir {legacy}" in err, err
    assert str(shared) in err, err
    assert (legacy / CACHE_FILE).read_bytes() == b"kept"
