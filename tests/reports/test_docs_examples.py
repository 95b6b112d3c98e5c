"""docs/examples/ is what the harness renders today: two replay runs with a scripted mix of
right and wrong answers (the second regresses on kmp and improves on bfs), rendered again
here and compared with the files, which a test would otherwise let go stale.

To rewrite the files after a deliberate change of the reports::

    REGENERATE_EXAMPLES=1 pytest tests/reports/test_docs_examples.py
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from verification import __version__
from verification.store.manifests import read_manifest_file
from verification.store.paths import RunPaths

ScriptedRun = Callable[..., tuple[int, str]]  # the scripted_run fixture (conftest.py)
CHECKOUT = Path(__file__).resolve().parents[2]
EXAMPLES = CHECKOUT / "docs" / "examples"
COMMAND = "REGENERATE_EXAMPLES=1 pytest tests/reports/test_docs_examples.py"


def _render(tmp_path: Path, scripted_run: ScriptedRun) -> dict[str, str]:
    """The second run's reports, with what differs from one rendering to the next (run ids,
    folders, the harness's version) replaced by fixed words."""
    output = tmp_path / "out"
    _, first = scripted_run(output, {"kmp": 12, "bfs": 6}, 12)
    _, second = scripted_run(output, {"kmp": 5, "bfs": 12}, 12)
    reports = RunPaths(output, second).reports
    manifest = read_manifest_file(RunPaths(output, second).manifest)
    replacements = {
        str(tmp_path): "/tmp/example",
        str(CHECKOUT): "/path/to/scaffold-verification",  # scaffold files are named in full
        first: "20261124T030000Z-000001",
        second: "20261125T030000Z-000002",
        first[:15]: "20261124T030000",  # the trend chart labels runs by their time
        manifest.code_version: "0.1.0",
        __version__: "0.1.0",
    }
    rendered = {}
    for path in sorted(reports.iterdir()):
        if path.suffix in (".md", ".svg"):
            text = path.read_text(encoding="utf-8")
            for old, new in replacements.items():
                text = text.replace(old, new)
            rendered[path.name] = text
    return rendered


def test_the_example_reports_are_what_the_harness_renders(
    tmp_path: Path, scripted_run: ScriptedRun
) -> None:
    rendered = _render(tmp_path, scripted_run)
    assert {"summary.md", "kmp.md", "summary-pass-rates.svg", "summary-trend.svg"} <= set(rendered)
    if os.environ.get("REGENERATE_EXAMPLES"):
        EXAMPLES.mkdir(parents=True, exist_ok=True)
        for old in EXAMPLES.iterdir():
            if old.suffix in (".md", ".svg") and old.name not in rendered:
                old.unlink()
        for name, text in rendered.items():
            (EXAMPLES / name).write_text(text, encoding="utf-8")
    on_disk = {
        p.name: p.read_text(encoding="utf-8")
        for p in sorted(EXAMPLES.glob("*"))
        if p.suffix in (".md", ".svg")
    }
    stale = sorted(n for n in rendered.keys() | on_disk.keys() if rendered.get(n) != on_disk.get(n))
    assert not stale, f"docs/examples/ is stale ({', '.join(stale)}): run {COMMAND}"
    summary = on_disk["summary.md"]
    assert "| kmp | CERTIFIED | FAILED | regression |" in summary
    assert "| bfs | PARTIAL | CERTIFIED | improvement |" in summary
