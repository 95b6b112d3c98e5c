"""What a status claims (issue 23 item 2): ``plan`` prints a level's plan and its OC table
from the functions the runner decides by, docs/VERIFICATION.md shows those tables as the
code computes them, and reports and ``summary.json`` carry the OC sentence."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from verification.certify.operating import oc_sentence, oc_table, operating_characteristic
from verification.certify.sequential import fixed_plan, plan_for
from verification.cli import main
from verification.reports.plan_text import oc_markdown_table, plan_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("level", ["standard", "thorough"])
def test_the_user_guide_shows_each_plans_oc_table_as_computed(level: str) -> None:
    guide = (ROOT / "docs" / "VERIFICATION.md").read_text(encoding="utf-8")
    found = re.search(rf"<!-- oc-table {level} -->\n(.*?)<!-- /oc-table -->", guide, re.S)
    assert found, f"docs/VERIFICATION.md has no OC table of the {level} plan"
    assert found.group(1) == oc_markdown_table(plan_for(level))
    assert oc_sentence(plan_for("standard")) in guide.replace("\n  ", " ")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    certified = math.ceil(operating_characteristic(plan_for("standard"), 0.85).certified * 100)
    assert f"certified in at most {certified} runs of 100" in readme
    assert f"at most {plan_for('standard').cap} (standard) or {plan_for('thorough').cap}" in readme


def test_the_table_rows_are_the_exact_oc_at_rates_from_one_half_to_one() -> None:
    plan = plan_for("standard")
    rows = oc_markdown_table(plan).splitlines()[2:]
    rates = [float(row.split("|")[1]) for row in rows]
    assert rates == [round(0.5 + k / 20, 2) for k in range(11)]
    for row, oc in zip(rows, oc_table(plan), strict=True):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert float(cells[1]) == pytest.approx(oc.certified, abs=5e-4)
        assert float(cells[3]) == pytest.approx(oc.failed, abs=5e-4)
        assert float(cells[4]) == pytest.approx(oc.expected_cases, abs=0.05)


def test_plan_prints_the_levels_plan_its_risks_and_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["plan", "--level", "standard"]) == 0
    out = capsys.readouterr().out
    assert out == plan_text(plan_for("standard"))
    assert oc_markdown_table(plan_for("standard")) in out
    assert "| 0.50 |" in out and "| 1.00 |" in out
    assert out.count("(kept)") == len(plan_for("standard").risks)
    assert main(["plan", "--cases", "3"]) == 0
    small = capsys.readouterr().out
    assert "weak" in small and oc_markdown_table(fixed_plan(3)) in small


@pytest.mark.slow
def test_reports_and_summary_say_what_the_status_claims(tmp_path: Path) -> None:
    assert main(["verify", "kmp", "--provider", "reference", "--output", str(tmp_path)]) == 0
    plan = plan_for("standard")
    summary = json.loads((tmp_path / "reports" / "summary.json").read_text())
    kmp = summary["scaffolds"]["kmp"]
    assert kmp["plan"]["oc"] == oc_sentence(plan) == summary["plan"]["oc"]
    assert (kmp["plan"]["cap"], kmp["plan"]["looks"]) == (plan.cap, list(plan.looks))
    assert kmp["plan"]["decided_at"] == kmp["n"] == operating_characteristic(plan, 1.0).max_cases
    assert kmp["plan"]["look"] == plan.looks.index(kmp["n"]) + 1
    report = (tmp_path / "reports" / "kmp.md").read_text()
    assert oc_sentence(plan) in report
    summary_md = (tmp_path / "reports" / "summary.md").read_text()
    assert oc_sentence(plan) in summary_md
    assert f"up to {plan.cap} cases per scaffold" in summary_md
    small = tmp_path / "small"
    assert (
        main(["verify", "kmp", "--provider", "reference", "--cases", "3", "--output", str(small)])
        == 0
    )
    data = json.loads((small / "reports" / "summary.json").read_text())
    assert data["scaffolds"]["kmp"]["plan"]["oc"] == oc_sentence(fixed_plan(3))
    assert "weak" in (small / "reports" / "kmp.md").read_text()
