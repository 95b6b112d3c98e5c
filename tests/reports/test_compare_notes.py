"""What ``compare`` notes when two runs are not comparable: each field that differs, its
values in words (never Python's ``None`` or a dict's repr), and nothing for the difference a
``--baseline`` pair is made of."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from verification.cli import main
from verification.reports.history import SHOWN_VALUE, comparability
from verification.store.manifests import EnvelopeRecord, RunManifest, read_manifest_file

ARGV = ["verify", "kmp", "--provider", "reference", "--cases", "2"]


def _runs(output: Path) -> dict[str, Path]:
    """The runs in ``output`` by what each showed in place of the scaffold."""
    runs = {}
    for run in sorted((output / "runs").iterdir()):
        runs[read_manifest_file(run / "manifest.json").variant or "scaffold"] = run
    return runs


def _notes(output: Path, a: Path, b: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    assert main(["compare", a.name, b.name, "--output", str(output)]) == 0
    captured = capsys.readouterr()
    return [line for line in (captured.out + captured.err).splitlines() if "differ in" in line]


@pytest.fixture
def pair(tmp_path: Path) -> dict[str, Path]:
    """A dry ``--baseline none`` pair of kmp at the default seed."""
    assert main([*ARGV, "--baseline", "none", "--output", str(tmp_path)]) == 0
    return _runs(tmp_path)


def test_a_baseline_pair_is_compared_without_a_note(
    pair: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _notes(tmp_path, pair["bare"], pair["scaffold"], capsys) == []


def test_unlinked_runs_are_noted_field_by_field_in_words(
    pair: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*ARGV, "--seed", "7", "--output", str(tmp_path)]) == 0
    (seven,) = set((tmp_path / "runs").iterdir()) - set(pair.values())
    seed = read_manifest_file(pair["bare"] / "manifest.json").seed
    assert _notes(tmp_path, pair["scaffold"], seven, capsys) == [
        f"note: the runs differ in seed {seed} != 7"
    ]
    assert _notes(tmp_path, pair["bare"], seven, capsys) == [
        f"note: the runs differ in seed {seed} != 7; variant bare != the catalog's scaffold"
    ]


def test_swept_sizes_and_a_dry_run_s_model_are_said_in_words(pair: dict[str, Path]) -> None:
    dry = read_manifest_file(pair["scaffold"] / "manifest.json")
    swept = dry.model_copy(update={"sizes": {"kmp": [8, 16]}})
    asked = dry.model_copy(update={"dry_run": False, "model_requested": "claude-x"})
    assert comparability(dry, swept) == ["sizes none != kmp at 8,16"]
    assert comparability(dry, asked) == ["model none (a dry run) != claude-x"]


def test_an_edited_manifest_s_values_are_shown_short_and_escaped(pair: dict[str, Path]) -> None:
    dry = read_manifest_file(pair["scaffold"] / "manifest.json")
    hostile = dry.model_copy(
        update={"dry_run": False, "model_requested": "x\x1b[31m\n" + "y" * 100_000}
    )
    swept = dry.model_copy(update={"sizes": {"kmp": list(range(1, 50_000))}})
    for note in comparability(dry, hostile) + comparability(dry, swept):
        assert note.isprintable() and len(note) < 2 * SHOWN_VALUE + 40, note[:200]
    assert "x\\x1b[31m\\x0ayyy" in comparability(dry, hostile)[0]


def test_the_discordant_columns_say_which_run_did_better_and_line_up(
    pair: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt t: "SHARED  ONLY A  ONLY B" read as "cases only A holds"; they are the shared
    # cases each run scored higher on.
    capsys.readouterr()
    argv = ["compare", pair["bare"].name, pair["scaffold"].name, "--output", str(tmp_path)]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    (header,) = [line for line in lines if line.startswith("SCAFFOLD")]
    (row,) = [line for line in lines if line.startswith("kmp ")]
    a, b = (line.split(":")[0] for line in lines[:2])
    columns = re.split(r"  +", header)
    assert columns[1:4] == ["SHARED", f"{a} BETTER", f"{b} BETTER"]
    assert any(f"{a} BETTER, {b} BETTER: the shared cases each run" in line for line in lines)
    # Each count ends where its heading does, up to the rates.
    for heading, value in zip(columns[1:6], re.split(r" +", row)[1:6], strict=True):
        end = header.index(heading) + len(heading)
        assert row[:end].endswith(value), (heading, value, header, row)


def test_a_scaffold_one_run_does_not_hold_leaves_the_others_comparable(
    pair: dict[str, Path],
) -> None:
    # Hunt v: a scaffold added to the catalog gave the thorough night's sizes a new key, and
    # no earlier run was comparable: the gate said nothing for every other scaffold.
    dry = read_manifest_file(pair["scaffold"] / "manifest.json")
    entry = dry.scaffolds["kmp"]
    swept = dry.model_copy(update={"sizes": {"kmp": [8, 16]}})
    added = swept.model_copy(
        update={"sizes": {"kmp": [8, 16], "new": [4]}, "scaffolds": {"kmp": entry, "new": entry}}
    )
    assert comparability(swept, added) == []
    # What the runs share still counts, and the note names only where they differ.
    other = added.model_copy(update={"sizes": {"kmp": [8, 32], "new": [4]}})
    assert comparability(swept, other) == ["sizes kmp at 8,16 != kmp at 8,32"]


def test_an_edited_scaffold_is_named_by_the_summary_and_compare(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt v: a night with kmp.md edited was compared as if unchanged, and nothing said so.
    import shutil

    from verification.config import packaged_scaffolds_dir
    from verification.store.summary_file import RunSummary

    edited = tmp_path / "scaffolds"
    shutil.copytree(packaged_scaffolds_dir(), edited)
    (kmp,) = edited.rglob("kmp.md")
    with kmp.open("a", encoding="utf-8") as scaffold:
        scaffold.write("\nOne more line of advice.\n")
    output = tmp_path / "out"
    assert main([*ARGV, "--output", str(output)]) == 0
    assert main([*ARGV, "--scaffolds-dir", str(edited), "--output", str(output)]) == 0
    first, second = sorted((output / "runs").iterdir(), key=lambda run: run.stat().st_mtime_ns)
    summary = RunSummary.from_json((second / "reports" / "summary.json").read_bytes())
    assert summary.regression_gate is not None and summary.regression_gate.edited == ["kmp"]
    report = (second / "reports" / "summary.md").read_text("utf-8")
    assert f"Edited since run `{first.name}`: kmp (the scaffold file changed" in report
    assert _notes(output, first, second, capsys) == [
        "note: the runs differ in the file of scaffold kmp (edited between them)"
    ]


def test_two_envelope_searches_compare_whatever_sizes_their_courses_tried(
    tmp_path: Path,
) -> None:
    # Hunt kk 1: each size a search tried was a swept size, and swept sizes had to match:
    # a boundary that moved (the regression to catch) made the runs not comparable, and
    # the gate silent for every scaffold of the run.
    assert main([*ARGV, "--output", str(tmp_path)]) == 0
    (run,) = (tmp_path / "runs").iterdir()
    plain = read_manifest_file(run / "manifest.json")

    def searched(tried: list[int]) -> RunManifest:
        return plain.model_copy(
            update={
                "sizes": {"kmp": sorted(tried)},
                "envelope": {"kmp": EnvelopeRecord(tried=tried)},
            }
        )

    before, after = searched([16, 32, 24, 20]), searched([16, 32, 24, 28, 30])
    assert comparability(before, after) == []
    fixed = plain.model_copy(update={"sizes": {"kmp": [16, 20, 24, 32]}})
    assert comparability(before, fixed) == ["sizes kmp at an envelope search != kmp at 16,20,24,32"]
    assert comparability(fixed, plain) != []  # a fixed sweep's sizes are still compared


def test_a_pair_compared_either_way_round_keeps_its_arms_names_and_its_lift(
    pair: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt kk 7: given the scaffold's run first, compare said plain "A"/"B" and left the
    # lift out, though the two runs were the pair.
    shown = {}
    for first, second in (("bare", "scaffold"), ("scaffold", "bare")):
        capsys.readouterr()
        argv = ["compare", pair[first].name, pair[second].name, "--output", str(tmp_path)]
        assert main(argv) == 0
        shown[first] = capsys.readouterr().out
    names = {"bare": "no scaffold", "scaffold": "scaffold"}
    for first, out in shown.items():
        second = "scaffold" if first == "bare" else "bare"
        assert out.splitlines()[:2] == [
            f"{names[first]}: run {pair[first].name}",
            f"{names[second]}: run {pair[second].name}",
        ], out
        assert "lift of kmp" in out, out


def test_an_arm_whose_pair_was_never_linked_is_still_no_ordinary_run(
    pair: dict[str, Path], tmp_path: Path
) -> None:
    # Hunt ll 4: a pair whose second arm stopped is never linked, and its bare arm (no
    # variant written yet) was comparable with ordinary runs: one's regression baseline.
    assert main([*ARGV, "--output", str(tmp_path)]) == 0
    (ordinary,) = set((tmp_path / "runs").iterdir()) - set(pair.values())
    plain = read_manifest_file(ordinary / "manifest.json")
    bare = read_manifest_file(pair["bare"] / "manifest.json")
    unlinked = bare.model_copy(update={"linked_run": None, "variant": None})
    assert unlinked.arm == "bare"
    assert comparability(unlinked, plain) == ["variant bare != the catalog's scaffold"]
    scaffold = read_manifest_file(pair["scaffold"] / "manifest.json")
    unlinked_b = scaffold.model_copy(update={"linked_run": None})
    assert comparability(unlinked_b, plain) == []  # the scaffold's arm asked as any run
