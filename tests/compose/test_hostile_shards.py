"""``merge`` reads shard run folders as untrusted input: a shard manifest edited to claim any
plan size or shard count is refused naming what does not fit (exit 2), quickly, without
allocating or looping over what the manifest claims; nothing is merged and no run written.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from verification.cli import main

NAME = "bfs"
HUGE = 10**18


@pytest.fixture
def shards(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> list[Path]:
    """Both shards of a quick dry run of one scaffold, under ``tmp_path/results/runs``."""
    output = tmp_path / "results"
    for shard in ("1/2", "2/2"):
        dry_run = ["verify", NAME, "--provider", "reference", "--level", "quick"]
        code = main([*dry_run, "--shard", shard, "--output", str(output)])
        assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    return sorted((output / "runs").iterdir())


def _edit_shard(run: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    path = run / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data["shard"])
    path.write_text(json.dumps(data), encoding="utf-8")


def _set_planned(shard: dict[str, Any]) -> None:
    shard["planned"][NAME] = HUGE


def _set_count(shard: dict[str, Any]) -> None:
    shard["count"] = HUGE


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (_set_planned, f"the shards hold 5 case(s) of {NAME}, their plan {HUGE}"),
        (_set_count, f"3/{HUGE},"),
    ],
    ids=["plan-size", "shard-count"],
)
def test_a_shard_claiming_a_huge_plan_is_refused(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    shards: list[Path],
    edit: Callable[[dict[str, Any]], None],
    said: str,
) -> None:
    # Before: a huge planned total raised MemoryError (exit 4); a huge count looped for ever.
    for run in shards:
        _edit_shard(run, edit)
    code = main(["merge", "--output", str(tmp_path / "results"), *map(str, shards)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert said in err
    assert sorted((tmp_path / "results" / "runs").iterdir()) == shards  # no merged run
