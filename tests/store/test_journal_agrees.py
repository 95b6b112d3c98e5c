"""A journal read back agrees with its manifest and with its own digests (hunt hh 6 and 7): a
dry run's manifest relabelled as a model's run, a bare arm's run relabelled as the
scaffold's, and a reply edited after it was written are each refused as files that disagree
(exit 2, the line named), by every command that folds the journal; the unedited run, a
pruned reply and a capped one are not.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from verification.cases import DEFAULT_SEED, generate_case
from verification.catalog import default_catalog
from verification.cli import main
from verification.config import load_settings
from verification.runner import VerificationRunner
from verification.store.journal import read_journal
from verification.store.records import DRY_RUN_SOURCES, MAX_RAW_RESPONSE_CHARS, cap_response
from verification.validators.base import passes

NAME = "kmp"
DRY_RUN = (NAME, "--provider", "reference", "--cases", "4")
PAIR = (*DRY_RUN, "--baseline", "none")
MadeRuns = Callable[..., list[Path]]


def _edit_json(path: Path, edit: Callable[[dict[str, Any]], None], line: int | None = None) -> None:
    """``edit`` the manifest at ``path``, or line ``line`` (from 1) of the journal there."""
    if line is None:
        data = json.loads(path.read_text(encoding="utf-8"))
        edit(data)
        path.write_text(json.dumps(data), encoding="utf-8")
        return
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    data = json.loads(lines[line - 1])
    edit(data)
    lines[line - 1] = json.dumps(data) + "\n"
    path.write_text("".join(lines), encoding="utf-8")


def _said_live(manifest: dict[str, Any]) -> None:
    manifest.update(dry_run=False, run_label=None, model_requested="claude-opus-4-1")
    manifest["provider"]["name"] = "anthropic"


def _reply_edited(line: dict[str, Any]) -> None:
    line["raw_response"] = line["raw_response"].replace("Reference", "A model's")


def _refused(capsys: pytest.CaptureFixture[str], run: Path, output: Path, said: str) -> None:
    for argv in (["report", run.name], ["compare", run.name, run.name]):
        code = main([*argv, "--output", str(output)])
        err = capsys.readouterr().err
        assert code == 2, (argv, err)
        assert said in err and "results.jsonl:1" in err and "no status is given" in err


@pytest.mark.parametrize(
    ("where", "edit", "said"),
    [
        ("manifest.json", _said_live, "answered by the reference provider (no model)"),
        ("results.jsonl", _reply_edited, "no longer matches its sha256"),
    ],
    ids=["relabelled live", "reply edited"],
)
def test_a_run_whose_files_disagree_is_refused_and_the_unedited_one_reports(
    capsys: pytest.CaptureFixture[str],
    made_runs: MadeRuns,
    tmp_path: Path,
    where: str,
    edit: Callable[[dict[str, Any]], None],
    said: str,
) -> None:
    output = tmp_path / "results"
    (run,) = made_runs(output, DRY_RUN)
    assert main(["report", run.name, "--output", str(output)]) == 0
    capsys.readouterr()
    _edit_json(run / where, edit, None if where == "manifest.json" else 1)
    _refused(capsys, run, output, said)


def test_a_bare_arm_relabelled_as_the_scaffold_s_is_refused(
    capsys: pytest.CaptureFixture[str], made_runs: MadeRuns, tmp_path: Path
) -> None:
    output = tmp_path / "results"
    runs = made_runs(output, PAIR)
    (bare,) = [
        run
        for run in runs
        if json.loads((run / "manifest.json").read_text(encoding="utf-8"))["arm"] == "bare"
    ]
    assert {r.arm for r in read_journal(bare / "results.jsonl")} == {"bare"}

    def relabelled(manifest: dict[str, Any]) -> None:
        manifest.update(arm="scaffold", variant=None)

    _edit_json(bare / "manifest.json", relabelled)
    _refused(capsys, bare, output, "answers the bare arm of a pair")


def test_a_pruned_reply_and_a_capped_one_are_no_edit(made_runs: MadeRuns, tmp_path: Path) -> None:
    (run,) = made_runs(tmp_path / "results", DRY_RUN)
    record = read_journal(run / "results.jsonl")[0]
    assert record.raw_response is not None and not record.reply_edited
    for raw in (record.raw_response + " ", record.raw_response.replace("R", "r", 1)):
        assert record.model_copy(update={"raw_response": raw}).reply_edited  # longer, or not
    assert not record.model_copy(update={"raw_response": None}).reply_edited  # pruned
    raw, chars, digest = cap_response("x" * (MAX_RAW_RESPONSE_CHARS + 1))
    capped = {"raw_response": raw, "raw_response_chars": chars, "raw_response_sha256": digest}
    assert not record.model_copy(update=capped).reply_edited  # its digest is the whole reply's
    shortened = {**capped, "raw_response": raw[:-1]}
    assert record.model_copy(update=shortened).reply_edited  # no cap cut it there


def test_the_dry_run_providers_answer_with_the_sources_a_live_manifest_refuses(
    tmp_path: Path,
) -> None:
    reference = load_settings(results_dir=tmp_path, provider="reference", cases=4, cache=False)
    first = asyncio.run(VerificationRunner(reference).run([NAME]))
    replay = load_settings(
        results_dir=tmp_path,
        provider="replay",
        replay_file=first.paths.journal,
        cases=4,
        cache=False,
    )
    second = asyncio.run(VerificationRunner(replay).run([NAME]))
    for run, source in ((first, "reference"), (second, "replay")):
        assert run.manifest.dry_run
        assert {r.source for r in read_journal(run.paths.journal)} == {source}
        assert source in DRY_RUN_SOURCES


@pytest.mark.parametrize("written", ["joined", "in code units"])
def test_a_reply_whose_parts_split_an_emoji_is_no_edit_once_read_back(
    made_runs: MadeRuns, tmp_path: Path, written: str
) -> None:
    # Hunt ll 1: a server's reply in parts, one ending in an emoji's high surrogate and the
    # next starting with its low one, was measured as two characters; its journal line
    # reads back as one, and the untouched run was refused as edited. A line written before
    # pairs were joined (its length and digest in code units) reads as unedited too.
    from hashlib import sha256

    from verification.store.journal import JournalWriter

    (run,) = made_runs(tmp_path / "results", DRY_RUN)
    record = read_journal(run / "results.jsonl")[0]
    parts = ["Half an emoji: \U0001f600 and \ud83d", "\ude00 then the answer."]
    reply = "".join(parts)
    if written == "joined":
        raw, chars, digest = cap_response(reply)
        assert chars == len(reply) - 1  # the pair is one character, as JSON gives it back
    else:
        units = reply.replace("\U0001f600", "\ud83d\ude00")
        raw, chars = units, len(units)
        digest = sha256(units.encode("utf-8", "surrogatepass")).hexdigest()
    fields = {"raw_response": raw, "raw_response_chars": chars, "raw_response_sha256": digest}
    journal = tmp_path / "one.jsonl"
    writer = JournalWriter(journal)
    writer.append(record.model_copy(update=fields))
    writer.close()
    (back,) = read_journal(journal)
    assert back.raw_response == "Half an emoji: \U0001f600 and \U0001f600 then the answer."
    assert not back.reply_edited
    edited = back.raw_response.replace("answer", "ANSWER")
    assert back.model_copy(update={"raw_response": edited}).reply_edited


def test_a_replay_line_holding_a_line_separator_unescaped_is_one_line(tmp_path: Path) -> None:
    # Hunt ll 3: the replay file was split with splitlines(), which breaks at U+2028,
    # U+2029 and U+0085 too, though a JSON string may hold them as they are.
    first = asyncio.run(
        VerificationRunner(
            load_settings(results_dir=tmp_path, provider="reference", cases=4, cache=False)
        ).run([NAME])
    )
    lines = []
    for record in read_journal(first.paths.journal):
        text = "Worked\u2028through\u2029it\x85.\n\n" + (record.raw_response or "")
        lines.append(json.dumps({"case_id": record.case_id, "text": text}, ensure_ascii=False))
    replay = tmp_path / "replay.jsonl"
    replay.write_text("\n".join(lines) + "\n", encoding="utf-8")
    settings = load_settings(
        results_dir=tmp_path, provider="replay", replay_file=replay, cases=4, cache=False
    )
    second = asyncio.run(VerificationRunner(settings).run([NAME]))
    records = read_journal(second.paths.journal)
    assert [r.outcome for r in records] == ["passed"] * len(lines)
    assert all("\u2028" in (r.raw_response or "") for r in records)


def test_a_failure_edited_to_passed_is_refused_by_every_command_that_folds_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Hunts hh 7 and ll 2: a failed line's "outcome" set to "passed" turned a PARTIAL run
    # CERTIFIED; the line's answer is judged again by its scaffold's validator.
    output = tmp_path / "results"
    dry = asyncio.run(
        VerificationRunner(
            load_settings(results_dir=tmp_path / "dry", provider="reference", cases=6)
        ).run([NAME])
    )
    wrong = '```json\n{"positions": [99]}\n```'
    lines = [
        json.dumps({"case_id": r.case_id, "text": wrong if k % 2 else r.raw_response})
        for k, r in enumerate(read_journal(dry.paths.journal))
    ]
    replay = tmp_path / "replay.jsonl"
    replay.write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = ["verify", NAME, "--provider", "replay", "--replay-file", str(replay)]
    assert main([*argv, "--cases", "6", "--output", str(output)]) == 1
    (run,) = (output / "runs").iterdir()
    journal = run / "results.jsonl"
    failed = [k for k, r in enumerate(read_journal(journal), 1) if r.outcome == "failed"]
    assert failed
    _edit_json(journal, lambda line: line.update(outcome="passed", level=None), failed[0])
    capsys.readouterr()
    for command in (["report", run.name], ["compare", run.name, run.name]):
        assert main([*command, "--output", str(output)]) == 2
        err = capsys.readouterr().err
        assert f"results.jsonl:{failed[0]}" in err
        assert "says its answer passed, and its validator rejects that answer" in err
    # --resume and --rerun-failed read it the same way, before asking anything.
    assert main([*argv, "--rerun-failed", run.name, "--output", str(output)]) == 2
    assert "its validator rejects that answer" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(default_catalog()))
def test_every_scaffold_s_passed_lines_can_be_judged_again(name: str) -> None:
    # The review of hunt nn: kruskal's expected edges, tuples in its schema and lists once
    # read back, fitted nothing in Python's strict mode, so its lines were never judged.
    spec = default_catalog()[name]
    case = generate_case(spec, "standard", 0, seed=DEFAULT_SEED)
    read_back = json.loads(json.dumps(case.expected))
    assert spec.answer_misfit(read_back) is None
    assert passes(spec.validator, read_back, read_back, case=case)
