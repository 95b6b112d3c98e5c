"""Sharded runs and merge (issue 16 item 5): N shards of a plan, each an ordinary run in its
own results folder (as on N CI machines), merged, give the reports of one run of the plan;
the cut is disjoint, whole and balanced; a shard is never published nor a baseline; merge
refuses shards of different plans, overlapping and missing shards, naming which."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.calibrations import calibrating_each_case_once
from tests.support.draws import drawing_each_case_once
from verification.cases import parse_case_id
from verification.catalog import default_catalog
from verification.cli import main
from verification.cli.run_output import NO_OUTPUTS, finish_run
from verification.config import load_settings, resolve_settings
from verification.reports.history import previous_comparable
from verification.run.plan import FIXED
from verification.runner import VerificationRunner
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file
from verification.store.records import AttemptRecord
from verification.store.summary_file import RunSummary

PLAN = ("kmp", "bfs", "--cases", "12", "--sizes", "6,9", "--samples", "2", "--seed", "7")
"""Two scaffolds, three tiers, a two-size sweep and two samples: every axis a cut balances."""
PLAN_SETTINGS: dict[str, Any] = {"cases": 12, "sizes": [6, 9], "samples": 2, "seed": 7}


@pytest.fixture(scope="module", autouse=True)
def _drawn_once() -> Iterator[None]:
    """The runs and shards here draw the same plan again and again: each case is drawn once
    (tests/support/draws.py), and calibrated once (tests/support/calibrations.py)."""
    with drawing_each_case_once(), calibrating_each_case_once():
        yield


def _asking_all(output: Path, **provider: Any) -> int:
    """A run of :data:`PLAN` that asks every case of it, as its shards together do, and
    decides afterwards, its reports written as the command line writes them. (A run that
    looks as it goes asks each swept size only up to its deciding look: the same verdicts,
    tests/run/test_size_looks.py, on fewer answers.)"""
    settings = load_settings(
        **PLAN_SETTINGS, **provider, results_dir=output, cache=False, concurrency=1
    )
    config = resolve_settings(settings)
    outcome = asyncio.run(VerificationRunner(config, stopping=FIXED).run(["kmp", "bfs"]))
    return finish_run(outcome, NO_OUTPUTS, settings=config, prog="verification")


_RUN_ID = re.compile(r"[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}")


def _verify(output: Path, *options: str) -> int:
    return main(["verify", *options, "--output", str(output), "--no-cache"])


def _run_dirs(output: Path) -> list[Path]:
    return sorted((output / "runs").iterdir())


def _script(dry_run: list[AttemptRecord]) -> list[dict[str, Any]]:
    """Replies for every case and sample: right or, for a mix of cases, one of the spec's
    own mutants (so the scaffolds land on different statuses and intervals)."""
    import random

    catalog = default_catalog()
    lines = []
    for record in dry_run:
        if record.attempt != 1:
            continue
        spec = catalog[record.scaffold]
        wrong = (record.index + record.epoch) % (3 if record.scaffold == "kmp" else 7) == 0
        answer = record.expected
        if wrong:
            answer = spec.mutants(record.test_case(), random.Random(record.case_id))[0]
        lines.append({"case_id": record.case_id, "text": spec.render_answer(answer)})
    return lines


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A replay script answering every case of :data:`PLAN`, drawn from its dry run."""
    root = tmp_path_factory.mktemp("plan")
    assert _asking_all(root / "dry", provider="reference") == 0
    (run_dir,) = _run_dirs(root / "dry")
    records = sorted(read_journal(run_dir / "results.jsonl"), key=lambda r: (r.case_id, r.epoch))
    lines = _script(records)
    # Every sample of a case is served the same script line: one line per case and sample,
    # in sample order, is what the replay provider serves in turn.
    path = root / "replay.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _replay(output: Path, replay: Path, *options: str) -> int:
    """The plan answered from ``replay``, one request at a time (so each case's samples
    are asked, and served their script lines, in sample order)."""
    return _verify(
        output,
        *PLAN,
        "--provider",
        "replay",
        "--replay-file",
        str(replay),
        "--concurrency",
        "1",
        *options,
    )


def _shards(root: Path, replay: Path, count: int) -> list[Path]:
    """Each shard run in a results folder of its own, as on separate machines."""
    dirs = []
    for index in range(1, count + 1):
        output = root / f"shard{index}"
        assert _replay(output, replay, "--shard", f"{index}/{count}") in (0, 1)
        (run_dir,) = _run_dirs(output)
        dirs.append(run_dir)
    return dirs


@pytest.fixture(scope="module")
def three_shards(tmp_path_factory: pytest.TempPathFactory, replay_file: Path) -> list[Path]:
    """The plan's three shards, each in a results folder of its own: read (merged into
    another folder, or refused) by the tests that take them, never changed."""
    return _shards(tmp_path_factory.mktemp("three"), replay_file, 3)


def _without_run(text: str) -> str:
    """A report with what differs between two runs of one plan (ids, times) blanked."""
    text = _RUN_ID.sub("RUN", text)
    return re.sub(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?[^ |)]*", "TIME", text)


@pytest.mark.slow
def test_n_shards_merged_give_the_reports_of_one_run(
    tmp_path: Path, replay_file: Path, three_shards: list[Path]
) -> None:
    whole = tmp_path / "whole"
    code = _asking_all(whole, provider="replay", replay_file=replay_file)
    shard_dirs = three_shards
    merged = tmp_path / "merged"
    assert main(["merge", *map(str, shard_dirs), "--output", str(merged)]) == code
    (one,) = _run_dirs(whole)
    (made,) = _run_dirs(merged)
    expected = RunSummary.from_json((one / "reports" / "summary.json").read_text())
    got = RunSummary.from_json((made / "reports" / "summary.json").read_text())
    assert {s.status for s in expected.scaffolds.values()} != {"CERTIFIED"}  # a real mix
    assert got.scaffolds == expected.scaffolds
    for name in ("kmp", "bfs", "summary"):
        report = f"{name}.md"
        assert _without_run((made / "reports" / report).read_text()) == _without_run(
            (one / "reports" / report).read_text()
        ), report
    # The merged run is the plan's: its manifest plans the whole run's cases in its order.
    whole_manifest = read_manifest_file(one / "manifest.json")
    merged_manifest = read_manifest_file(made / "manifest.json")
    assert merged_manifest.scaffolds == whole_manifest.scaffolds
    assert merged_manifest.shard is None
    assert merged_manifest.merged_shards == [d.name for d in shard_dirs]
    assert (merged / "reports" / "summary.json").exists()  # the merged run is published


@pytest.mark.slow
def test_the_cut_is_disjoint_whole_and_balanced(tmp_path: Path) -> None:
    count = 4
    shard_ids: list[list[str]] = []
    for index in range(1, count + 1):
        output = tmp_path / f"s{index}"
        assert _verify(output, *PLAN, "--provider", "reference", "--shard", f"{index}/{count}") == 0
        (run_dir,) = _run_dirs(output)
        manifest = read_manifest_file(run_dir / "manifest.json")
        assert manifest.shard is not None and manifest.shard.index == index
        shard_ids.append([i for entry in manifest.scaffolds.values() for i in entry.case_ids])
        assert not (output / "reports").exists()  # a shard alone is never published
        summary = (run_dir / "reports" / "summary.md").read_text()
        assert f"**Shard {index} of {count}** of plan `{manifest.shard.plan_sha256[:12]}`" in (
            summary
        )
    assert _verify(tmp_path / "whole", *PLAN, "--provider", "reference") == 0
    (run_dir,) = _run_dirs(tmp_path / "whole")
    whole = read_manifest_file(run_dir / "manifest.json")
    planned = [i for entry in whole.scaffolds.values() for i in entry.case_ids]
    every = [i for ids in shard_ids for i in ids]
    assert sorted(every) == sorted(planned) and len(set(every)) == len(every)

    def group(identifier: str) -> tuple[str, str, int | None]:
        key = parse_case_id(identifier)
        assert key is not None
        return key.scaffold, key.tier, key.size

    sizes = [len(ids) for ids in shard_ids]
    assert max(sizes) - min(sizes) <= 1
    for name in Counter(group(i) for i in planned):
        per_shard = [sum(group(i) == name for i in ids) for ids in shard_ids]
        assert max(per_shard) - min(per_shard) <= 1, (name, per_shard)


@pytest.mark.slow
def test_merge_refuses_other_plans_overlaps_and_gaps(
    tmp_path: Path, three_shards: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    first, second, third = three_shards
    other = tmp_path / "other"
    assert _verify(other, *PLAN, "--provider", "reference", "--seed", "8", "--shard", "3/3") == 0
    (other_dir,) = _run_dirs(other)
    capsys.readouterr()

    def refused(*dirs: Path) -> str:
        output = tmp_path / "merged"
        assert main(["merge", *map(str, dirs), "--output", str(output)]) == 2
        assert not (output / "runs").exists()  # nothing is written for a refused merge
        return capsys.readouterr().err

    message = refused(first, second, other_dir)
    assert "different plans" in message and str(other_dir) in message
    message = refused(first, second, third, second)
    assert "overlapping shards: 2/3" in message and message.count(str(second)) == 2
    message = refused(first, third)
    assert "missing shard(s)" in message and "2/3" in message
    message = refused(tmp_path / "nowhere")
    assert "nowhere" in message
    # Hunt h, F10: shards priced differently were merged at the first shard's price, which
    # reported what no one paid.
    edited = tmp_path / "elsewhere" / "runs" / third.name
    shutil.copytree(third, edited)
    manifest = json.loads((edited / "manifest.json").read_text(encoding="utf-8"))
    basis = manifest.get("cost_basis") or {"model": "replayed"}
    manifest["cost_basis"] = basis | {"price": {"input": 10.0, "output": 50.0}}
    (edited / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    message = refused(first, second, edited)
    assert "a merged run has one price" in message and str(edited) in message


@pytest.mark.slow
def test_a_shard_is_never_a_baseline_but_the_merged_run_is(
    tmp_path: Path, replay_file: Path, three_shards: list[Path]
) -> None:
    output = tmp_path / "results"
    # The plan's shards in the results folder the whole runs below write to, as when every
    # machine wrote its shard there (copies: the module's shards are only read).
    for shard in three_shards:
        shutil.copytree(shard, output / "runs" / shard.name)
    shards = _run_dirs(output)
    assert _replay(output, replay_file) in (0, 1)
    (latest,) = set(_run_dirs(output)) - set(shards)
    manifest = read_manifest_file(latest / "manifest.json")
    assert previous_comparable(output, manifest) is None
    assert main(["merge", *map(str, shards), "--output", str(output)]) in (0, 1)
    (merged,) = set(_run_dirs(output)) - {*shards, latest}
    assert _replay(output, replay_file) in (0, 1)
    (newest,) = set(_run_dirs(output)) - {*shards, latest, merged}
    found = previous_comparable(output, read_manifest_file(newest / "manifest.json"))
    assert found is not None and found.run_id in {merged.name, latest.name}


def test_estimate_prices_the_whole_plan_not_a_shard(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _verify(tmp_path, "kmp", "--estimate", "--shard", "1/2") == 2
    assert "leave out --shard" in capsys.readouterr().err


@pytest.mark.slow  # three shard runs and a merge: about 3 s
def test_a_merge_that_cannot_write_leaves_no_run_and_says_to_merge_again(
    tmp_path: Path, three_shards: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt o: a merge stopped by a full disk said "continue with --resume MERGED", and that
    # resume asked the model again for the 157 answers the shards held. The disk fills here
    # as the merged journal is written: the process may write no file past a few KiB.
    import resource
    import signal

    merged = tmp_path / "merged"
    merge = ["merge", *map(str, three_shards), "--output", str(merged)]
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    before = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails, no signal
    resource.setrlimit(resource.RLIMIT_FSIZE, (16 * 1024, hard))
    try:
        assert main(merge) == 2
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, before)
    err = capsys.readouterr().err
    assert "run the same merge again" in err and "--resume" not in err
    assert list((merged / "runs").iterdir()) == []  # the partial run is gone
    # Merged again with room, it is whole: a resume of it asks nothing.
    code = main(merge)
    (made,) = _run_dirs(merged)
    lines = (made / "results.jsonl").read_bytes()
    assert main(["verify", "--resume", made.name, "--output", str(merged)]) == code
    assert (made / "results.jsonl").read_bytes() == lines


def test_a_merge_killed_before_its_end_leaves_no_run_to_resume(
    tmp_path: Path, three_shards: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hunt s: a partial merged run that --resume could take would pay again for answers the
    # shards hold; its manifest is written last, so a merge killed before it leaves none.
    from verification.store.paths import RunPaths

    def killed(self: RunPaths, manifest: object) -> None:
        raise KeyboardInterrupt  # as a kill right before the manifest

    monkeypatch.setattr(RunPaths, "write_manifest", killed)
    merged = tmp_path / "merged"
    assert main(["merge", *map(str, three_shards), "--output", str(merged)]) == 130
    monkeypatch.undo()
    (made,) = (merged / "runs").iterdir()
    assert not (made / "manifest.json").exists()
    assert main(["verify", "--resume", made.name, "--output", str(merged)]) == 2


@pytest.mark.slow
def test_shards_an_older_harness_wrote_merge_and_an_edited_one_is_named(
    tmp_path: Path, three_shards: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Hunt af: shards written before ``code_format_version`` was a plan field were refused
    ("the shards' manifests do not rebuild the plan they name"), as if edited: an older
    harness named its plan by a digest taken without that field."""
    from verification.run.shards import ADDED_LATER, PLAN_FIELDS, plan_sha256

    merged = tmp_path / "now"
    assert main(["merge", *map(str, three_shards), "--output", str(merged)]) in (0, 1)
    (whole,) = _run_dirs(merged)
    older = [name for name in PLAN_FIELDS if name not in ADDED_LATER]
    digest = plan_sha256(read_manifest_file(whole / "manifest.json"), fields=older)
    copies = []
    for shard in three_shards:
        copy = tmp_path / "old" / shard.parent.parent.name / "runs" / shard.name
        shutil.copytree(shard, copy)
        manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
        for name in ADDED_LATER:
            del manifest[name]  # as the older harness wrote it: no such key
        manifest["shard"]["plan_sha256"] = digest
        (copy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        copies.append(copy)
    capsys.readouterr()
    output = tmp_path / "then"
    assert main(["merge", *map(str, copies), "--output", str(output)]) in (0, 1)
    (run,) = _run_dirs(output)
    assert _without_run((run / "reports" / "summary.md").read_text()) == _without_run(
        (whole / "reports" / "summary.md").read_text()
    )
    # A manifest edited since: refused, and said to be.
    manifest = json.loads((copies[0] / "manifest.json").read_text(encoding="utf-8"))
    manifest["samples"] = 3
    (copies[0] / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    capsys.readouterr()
    assert main(["merge", *map(str, copies), "--output", str(tmp_path / "edited")]) == 2
    said = capsys.readouterr().err
    assert "do not rebuild the plan they name" in said and "edited since they were written?" in said
