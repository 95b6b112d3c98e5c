"""The page draws size curves from a size sweep only (issue 27 item 7): a run without one
has its tiers at their own sizes (kmp: 8, 10, 24), which read as a curve would say "breaks
at length 10"; in a real headless Chromium."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Swept, Watched, run_cli

pytestmark = pytest.mark.slow  # Chromium


def _run(output: Path, *extra: str) -> tuple[Path, dict[str, Any]]:
    argv = ["kmp", "--provider", "reference", *extra, "--output", str(output)]
    done = run_cli("verify", *argv)
    assert done.returncode == 0, done.stderr
    return _page(output)


def _page(output: Path) -> tuple[Path, dict[str, Any]]:
    (run_dir,) = (output / "runs").iterdir()
    summary = json.loads((run_dir / "reports" / "summary.json").read_text())
    return run_dir / "reports" / "index.html", summary["scaffolds"]["kmp"]


def test_tiers_at_their_own_sizes_draw_no_curve(watched: Watched, tmp_path: Path) -> None:
    page, kmp = _run(tmp_path / "results")
    assert len(kmp["per_size"]) >= 2 and not kmp["sweep"]  # sizes by tier, no sweep
    watched.open(page.as_uri())
    assert watched.page.locator("#curves figure.curve").count() == 0
    assert "No scaffold was swept" in watched.page.locator("#curves").inner_text()
    assert not watched.errors


def test_a_sweep_draws_its_curve_from_its_sizes(watched: Watched, kmp_sweep: Swept) -> None:
    # kmp at the quick level swept over lengths 8 and 16 (the session's dry run).
    assert kmp_sweep.done.returncode == 0, kmp_sweep.done.stderr
    page, kmp = _page(kmp_sweep.output)
    watched.open(page.as_uri())
    (figure,) = watched.page.locator('#curves figure.curve[data-scaffold="kmp"]').all()
    dots = figure.locator("circle.dot").all()
    drawn = [(int(d.get_attribute("data-size")), float(d.get_attribute("data-rate"))) for d in dots]
    assert drawn == [(p["size"], pytest.approx(p["pass_rate"])) for p in kmp["sweep"]]
    assert not watched.errors


def test_a_size_nothing_was_counted_at_is_not_drawn(
    watched: Watched, kmp_sweep: Swept, tmp_path: Path
) -> None:
    # Hunt bb: a size a budget left unasked (n 0) was drawn at 0%, a collapse there is not.
    from verification.reports.html import render_page

    page = (kmp_sweep.run_dir / "reports" / "index.html").read_text()
    data = json.loads(page.split('id="run-data">')[1].split("</script>")[0])
    sweep = data["summary"]["scaffolds"]["kmp"]["sweep"]
    sweep.append({**sweep[-1], "size": sweep[-1]["size"] * 2, "n": 0, "pass_rate": 0.0})
    (tmp_path / "index.html").write_text(render_page(data))
    watched.open((tmp_path / "index.html").as_uri())
    (figure,) = watched.page.locator('#curves figure.curve[data-scaffold="kmp"]').all()
    sizes = [int(d.get_attribute("data-size")) for d in figure.locator("circle.dot").all()]
    assert sizes == [p["size"] for p in sweep if p["n"]] and len(sizes) == len(sweep) - 1
    assert not watched.errors
