"""The results folder's index (issue 27 item 11): ``<output>/index.html`` lists every run,
newest first, with its status per scaffold, model, level and start, linked to its page and
to the comparison pages it is part of; each run writes it again. Files read back are
untrusted: a run folder that cannot be read is a row saying so, never a stop, and a model's
name or a scaffold's name edited into them is shown escaped."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

import pytest

from verification.cli import main
from verification.reports import results_index
from verification.reports.results_index import INDEX_NAME, render_index, write_results_index
from verification.store.manifests import MAX_MANIFEST_BYTES


class _Index(HTMLParser):
    """The rows (``data-run``), the links and the text of an index page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.rows: list[str] = []
        self.broken: list[str] = []
        self.links: list[str] = []
        self.scripts = 0
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "tr" and named.get("data-run"):
            self.rows.append(str(named["data-run"]))
            if named.get("class") == "broken":
                self.broken.append(str(named["data-run"]))
        if tag == "a" and named.get("href"):
            self.links.append(str(named["href"]))
        self.scripts += tag == "script"

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    @property
    def shown(self) -> str:
        return " ".join(" ".join(self.text).split())


def _dry_run(output: Path, *names: str) -> Path:
    before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
    argv = ["verify", *names, "--provider", "reference", "--cases", "3", "--output", str(output)]
    assert main(argv) == 0
    (run,) = set((output / "runs").iterdir()) - before
    return run


def _index(output: Path) -> _Index:
    return _Index((output / INDEX_NAME).read_text(encoding="utf-8"))


def test_each_run_writes_the_index_of_every_run(tmp_path: Path) -> None:
    output = tmp_path / "results"
    first = _dry_run(output, "kmp")
    assert _index(output).rows == [first.name]
    second = _dry_run(output, "kmp", "lcs")
    index = _index(output)
    assert index.rows == [second.name, first.name]  # newest first
    for run in (first, second):
        assert f"runs/{run.name}/reports/index.html" in index.links
        summary = json.loads((run / "reports" / "summary.json").read_text(encoding="utf-8"))
        manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
        started = datetime.fromisoformat(manifest["created_at"]).astimezone(UTC)
        assert started.strftime("%Y-%m-%d %H:%M:%S UTC") in index.shown
        for name, figures in summary["scaffolds"].items():
            assert f"{name} {figures['status']} {100 * figures['pass_rate']:.1f}%" in index.shown
    for link in index.links:
        assert (output / link).is_file(), link
    assert index.scripts == 0 and index.broken == []


def test_a_broken_run_folder_is_listed_as_broken(tmp_path: Path) -> None:
    output = tmp_path / "results"
    good = _dry_run(output, "kmp")
    runs = output / "runs"
    damaged = {
        "20200101T000000Z-aaaaaa": '{"run_id": ',  # cut short
        "20200102T000000Z-bbbbbb": "[1, 2, 3]",  # JSON, no manifest
        "20200103T000000Z-cccccc": " " * (MAX_MANIFEST_BYTES + 1),  # too large to read
    }
    for name, text in damaged.items():
        (runs / name).mkdir()
        (runs / name / "manifest.json").write_text(text, encoding="utf-8")
    (runs / "20200104T000000Z-dddddd").mkdir()  # no manifest at all
    (runs / "20200105T000000Z-eeeeee").mkdir()
    (runs / "20200105T000000Z-eeeeee" / "manifest.json").mkdir()  # a folder in its place
    (runs / ".partial").mkdir()  # no run id: not listed
    (runs / "notes.txt").write_text("a file, no run folder", encoding="utf-8")
    unreported = runs / "20200106T000000Z-ffffff"  # a readable run without its reports
    unreported.mkdir()
    (unreported / "manifest.json").write_bytes((good / "manifest.json").read_bytes())
    (good / "reports" / "summary.json").write_text("{}", encoding="utf-8")  # damaged

    write_results_index(output)
    index = _index(output)
    broken = sorted([*damaged, "20200104T000000Z-dddddd", "20200105T000000Z-eeeeee"])
    assert sorted(index.broken) == broken
    assert index.rows == sorted([*broken, unreported.name, good.name], reverse=True)
    assert "not reported" in index.shown and "summary.json damaged" in index.shown
    assert f"no page: `report {unreported.name}` writes it" in index.shown
    assert all(f"runs/{name}/" not in " ".join(index.links) for name in broken)
    assert str(tmp_path) not in index.shown  # reasons name the run folder, not the disk


def test_model_and_scaffold_names_edited_in_are_shown_escaped(tmp_path: Path) -> None:
    output = tmp_path / "results"
    run = _dry_run(output, "kmp")
    hostile = '<script>window.__pwned = 1</script><img src=x onerror="alert(1)">\u202e\x1b[31m'
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    manifest.update(dry_run=False, run_label=None, model_requested=hostile + "x" * 5_000)
    (run / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    summary_path = run / "reports" / "summary.json"
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    summary["scaffolds"] = {hostile: summary["scaffolds"]["kmp"]}
    summary_path.write_text(json.dumps(summary), encoding="utf-8")

    page = render_index(output)
    assert "<script" not in page and "<img" not in page
    assert "\u202e" not in page and "\x1b" not in page
    shown = _Index(page).shown
    assert shown.count("<script>window.__pwned = 1</script><img src=x") == 2  # as text
    assert "\\u202e\\x1b[31m" in shown
    assert "x" * 1_000 not in shown  # cut


def test_past_the_cap_the_older_runs_are_counted_not_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    output = tmp_path / "results"
    runs = [_dry_run(output, "kmp") for _ in range(3)]
    monkeypatch.setattr(results_index, "MAX_LISTED", 2)
    index = _Index(render_index(output))
    assert index.rows == [runs[2].name, runs[1].name]
    assert "1 older run(s) not listed" in index.shown


def test_view_without_a_run_writes_the_index_and_opens_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    output = tmp_path / "results"
    run = _dry_run(output, "kmp")
    (output / INDEX_NAME).unlink()
    monkeypatch.setenv("BROWSER", "true")  # a browser that opens nothing
    capsys.readouterr()
    assert main(["view", "--output", str(output)]) == 0
    index = (output / INDEX_NAME).resolve()
    assert capsys.readouterr().out.strip() == str(index)
    assert _index(output).rows == [run.name]
    assert main(["view", "--output", str(tmp_path / "none")]) == 2
    assert "no results folder" in capsys.readouterr().err


def test_compare_and_prune_write_the_index_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "results"
    first, second = _dry_run(output, "kmp"), _dry_run(output, "kmp")
    argv = ["compare", first.name, second.name, "--html", "--output", str(output)]
    assert main(argv) == 0
    page = f"comparisons/{first.name}-vs-{second.name}/index.html"
    assert _index(output).links.count(page) == 3  # both runs' rows and the table
    assert (output / page).is_file()

    assert main(["prune", "--keep", "1", "--output", str(output)]) == 0
    index = _index(output)
    assert f"runs/{first.name}/reports/index.html" not in index.links  # pruned: no page
    assert f"no page: `report {first.name}` writes it" in index.shown
    assert f"runs/{second.name}/reports/index.html" in index.links
    capsys.readouterr()
