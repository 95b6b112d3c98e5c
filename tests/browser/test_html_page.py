"""The run's page in a real headless Chromium: figures, filters, links, hostile replies,
offline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS, ReplayPair, ReplayRun, Watched, reply, run_cli
from verification.registry import DEFAULT_SEED
from verification.reports.html import render_page
from verification.runner import plan_cases

pytestmark = pytest.mark.slow  # Chromium

PAGE_TIMEOUT_MS = 10_000


def _first_answers(run: ReplayRun) -> dict[str, dict[str, Any]]:
    """Each case's first answer (sample 1, attempt 1) from the journal."""
    first: dict[str, dict[str, Any]] = {}
    for line in run.journal():
        if line["attempt"] == 1 and line["case_id"] not in first:
            first[line["case_id"]] = line
    return first


def _shown_ids(page: Any) -> list[str]:
    return page.eval_on_selector_all("details.case", "nodes => nodes.map(n => n.dataset.id)")


def test_summary_figures_are_summary_json(watched: Watched, replay_run: ReplayRun) -> None:
    watched.open(replay_run.page.as_uri())
    summary = replay_run.summary()
    rows = watched.page.locator("#summary tbody tr")
    assert rows.count() == len(summary["scaffolds"])
    for name, figures in summary["scaffolds"].items():
        row = watched.page.locator(f'#summary tbody tr[data-scaffold="{name}"]')
        assert row.locator(".status").inner_text().startswith(figures["status"])
        assert row.locator(".rate").inner_text() == f"{100 * figures['pass_rate']:.1f}%"
        low, high = figures["interval_95"]
        assert row.locator(".interval").inner_text() == f"{100 * low:.1f}% - {100 * high:.1f}%"
        score = figures["score"]
        shown_score = str(int(score)) if float(score).is_integer() else f"{score:.2f}"
        assert row.locator(".score").inner_text() == f"{shown_score} / {figures['n']}"
    assert watched.page.locator("#shown").inner_text() == (
        f"{len(replay_run.kinds)} of {len(replay_run.kinds)} cases"
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    watched.page.screenshot(path=str(ARTIFACTS / "summary.png"))
    assert not watched.errors and not watched.requests


def test_what_a_status_claims_is_said_beside_the_statuses(
    watched: Watched, replay_run: ReplayRun, tmp_path: Path
) -> None:
    watched.open(replay_run.page.as_uri())
    oc = {figures["plan"]["oc"] for figures in replay_run.summary()["scaffolds"].values()}
    (sentence,) = oc  # one plan for every scaffold: said once
    claims = watched.page.locator("#claims p.claim").all_inner_texts()
    assert claims == [f"What a status claims. {sentence}"]
    summary_md = (replay_run.page.parent / "summary.md").read_text()
    assert f"> **What a status claims.** {sentence}" in summary_md
    # A run that certifies nothing because of what it asked claims nothing.
    page = replay_run.page.read_text()
    data = json.loads(page.split('id="run-data">')[1].split("</script>")[0])
    for figures in data["summary"]["scaffolds"].values():
        figures["uncertified"] = "the quick level certifies nothing"
    (tmp_path / "index.html").write_text(render_page(data))
    watched.open((tmp_path / "index.html").as_uri())
    assert watched.page.locator("#claims p").count() == 0
    assert watched.page.locator("#summary tbody tr").count() == len(data["summary"]["scaffolds"])
    assert not watched.errors and not watched.requests


def test_the_heading_names_the_run_its_scaffolds_and_its_model(
    watched: Watched, replay_run: ReplayRun
) -> None:
    watched.open(replay_run.page.as_uri())
    manifest = json.loads((replay_run.run_dir / "manifest.json").read_text("utf-8"))
    heading = watched.page.locator("#run h1").inner_text()
    who = manifest["model_requested"] or manifest["run_label"]  # a replay asks no model
    assert replay_run.run_id in heading and who in heading
    assert all(name in heading for name in manifest["scaffolds"])
    assert watched.page.title().startswith(heading)


def test_a_case_asked_several_times_shows_its_score(watched: Watched, tmp_path: Path) -> None:
    # Hunt pp: a case whose samples went 2 of 3 showed only "failed" in its row.
    cases = plan_cases(["kmp"], seed=DEFAULT_SEED, cases=2)["kmp"]
    kinds = [("right", "wrong", "right"), ("right", "right", "right")]
    lines = [
        {"case_id": case.id, "raw_response": reply(kind, "kmp", case.expected)}
        for case, said in zip(cases, kinds, strict=True)
        for kind in said
    ]
    replay = tmp_path / "samples.jsonl"
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    argv = ["kmp", "--provider", "replay", "--replay-file", str(replay), "--samples", "3"]
    done = run_cli("verify", *argv, "--cases", "2", "--output", str(tmp_path / "out"))
    assert done.returncode in (0, 1), done.stderr
    (run,) = (tmp_path / "out" / "runs").iterdir()
    watched.open((run / "reports" / "index.html").as_uri())
    shown = {
        case.id: watched.page.locator(f'details.case[data-id="{case.id}"] .outcome').inner_text()
        for case in cases
    }
    assert shown[cases[0].id].endswith(", 2 of 3 samples passed")
    assert shown[cases[1].id] == "passed, 3 of 3 samples passed"
    assert not watched.errors and not watched.requests


def test_filtering_by_outcome_shows_exactly_the_failing_cases(
    watched: Watched, replay_run: ReplayRun
) -> None:
    watched.open(replay_run.page.as_uri())
    first = _first_answers(replay_run)
    failing = {case for case, line in first.items() if line["outcome"] != "passed"}
    assert failing and failing != set(first), "the scripted mix has passing and failing cases"
    watched.page.select_option("#f-outcome", "!passed")
    assert set(_shown_ids(watched.page)) == failing
    assert len(_shown_ids(watched.page)) == len(failing)
    watched.page.select_option("#f-outcome", "failed")
    assert set(_shown_ids(watched.page)) == {
        case for case, line in first.items() if line["outcome"] == "failed"
    }
    # The failures are the cases scripted wrong or unparseable (hostile ones may pass:
    # the right answer sits inside their megabyte).
    scripted_bad = {c for c, kind in replay_run.kinds.items() if kind in ("wrong", "unparseable")}
    assert scripted_bad <= failing
    watched.page.select_option("#f-outcome", "*")
    watched.page.fill("#f-search", sorted(failing)[0])
    assert _shown_ids(watched.page) == [sorted(failing)[0]]


def test_a_case_link_opens_that_case_and_survives_reload(
    watched: Watched, replay_run: ReplayRun
) -> None:
    first = _first_answers(replay_run)
    case_id = max(c for c, line in first.items() if line["outcome"] != "passed")
    watched.open(replay_run.page.as_uri() + "#" + case_id)
    for _ in range(2):  # as opened, then after a reload
        case = watched.page.locator(f'details.case[data-id="{case_id}"]')
        assert case.get_attribute("open") is not None
        assert "target" in (case.get_attribute("class") or "")
        assert case.is_visible()
        assert case_id in case.locator("> summary").inner_text()
        body = case.locator(".body")
        assert first[case_id]["reason"][:40] in body.inner_text()
        watched.page.reload()
        watched.page.wait_for_selector("body[data-ready=true]")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    watched.page.locator(f'details.case[data-id="{case_id}"]').screenshot(
        path=str(ARTIFACTS / "failing-case.png")
    )


@pytest.mark.parametrize("fragment", ["%E0%A4%A", "%", "%ZZ"])
def test_a_malformed_fragment_names_no_case_and_the_page_still_starts(
    watched: Watched, replay_run: ReplayRun, fragment: str
) -> None:
    # Hunt pp: decodeURIComponent threw on a bad percent escape, during the page's start:
    # data-ready was never set, and each later change of fragment threw again.
    watched.open(replay_run.page.as_uri() + "#" + fragment)  # waits for data-ready
    watched.page.evaluate("location.hash = '#%E0%A4%A'")
    first = next(iter(replay_run.kinds))
    watched.page.evaluate(f"location.hash = '#{first}'")
    watched.page.wait_for_selector(f'details.case.target[data-id="{first}"]')
    assert watched.errors == []
    assert watched.page.locator("details.case.target").count() == 1


def test_hostile_replies_are_shown_not_run(watched: Watched, replay_run: ReplayRun) -> None:
    watched.open(replay_run.page.as_uri())
    page = watched.page
    hostile = sorted(
        c for c, kind in replay_run.kinds.items() if kind in ("hostile", "unparseable")
    )
    for case_id in hostile:
        page.goto(replay_run.page.as_uri() + "#" + case_id)
        page.wait_for_selector("body[data-ready=true]")
        case = page.locator(f'details.case[data-id="{case_id}"]')
        case.locator("details.raw").first.evaluate("node => node.open = true")
        raw = case.locator("details.raw pre").first.text_content() or ""
        assert "</script>" in raw and "<script>window.__pwned" in raw, "shown as the text it is"
        if replay_run.kinds[case_id] == "hostile":
            assert len(raw) <= 20_000 + 20_000 // 4  # cut, escapes added
            assert "\\u202e" in raw and "\\x00" in raw and "\u202e" not in raw
            note = case.locator("details.raw .note").first.inner_text()
            assert "of " in note and "results.jsonl" in note
    assert page.evaluate("window.__pwned") is None
    assert page.locator("script").count() == 2  # the data block and the page's own
    assert page.locator("img, iframe, object, embed").count() == 0
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], "a long line widened the page"
    assert page.locator("#summary").is_visible()
    assert not watched.errors, watched.errors
    assert not [m for m in watched.console if m.startswith("error")], watched.console
    assert not watched.requests


def test_the_page_loads_offline(browser_context: Any, replay_run: ReplayRun) -> None:
    # The package's context taken offline for this page (a context of its own, made offline,
    # cost about a second of Chromium's CPU more), and online again after.
    browser_context.set_offline(True)
    try:
        page = browser_context.new_page()
        page.goto(replay_run.page.as_uri())
        page.wait_for_selector("body[data-ready=true]", timeout=PAGE_TIMEOUT_MS)
        assert page.locator("details.case").count() == len(replay_run.kinds)
        page.close()
    finally:
        browser_context.set_offline(False)


def test_a_dry_run_of_every_scaffold_writes_a_page(watched: Watched, tmp_path: Path) -> None:
    output = tmp_path / "results"
    argv = ["--all", "--provider", "reference", "--level", "quick", "--output", str(output)]
    done = run_cli("verify", *argv)
    assert done.returncode == 0, done.stderr
    summary = json.loads((output / "reports" / "summary.json").read_text())
    watched.open((output / "reports" / "index.html").resolve().as_uri())
    assert "DRY RUN" in watched.page.locator("#run .dry").inner_text()
    cases = sum(s["n"] for s in summary["scaffolds"].values())
    assert watched.page.locator("#shown").inner_text() == f"{cases} of {cases} cases"
    assert watched.page.locator("#summary tbody tr").count() == len(summary["scaffolds"])
    watched.page.select_option("#f-outcome", "!passed")
    assert watched.page.locator("details.case").count() == 0  # the reference is right
    assert not watched.errors and not watched.requests


def test_the_comparison_page_lists_discordant_cases_first(
    watched: Watched, replay_pair: ReplayPair
) -> None:
    # Two replay runs, each case given the next kind of reply in the second, and
    # `compare --html` of them: the session's, read here.
    run_a, run_b, done = replay_pair.a, replay_pair.b, replay_pair.compared
    assert done.returncode == 0, done.stderr
    page = replay_pair.compare_page
    assert f"page: {page}" in done.stdout
    first_a, first_b = _first_answers(run_a), _first_answers(run_b)
    passed_a = {c: line["outcome"] == "passed" for c, line in first_a.items()}
    passed_b = {c: line["outcome"] == "passed" for c, line in first_b.items()}
    only_a = {c for c in passed_b if passed_a[c] and not passed_b[c]}
    only_b = {c for c in passed_b if passed_b[c] and not passed_a[c]}
    assert only_a and only_b

    watched.open(page.resolve().as_uri())
    heading = watched.page.locator("#run h1").inner_text()
    manifest = json.loads((run_a.run_dir / "manifest.json").read_text("utf-8"))
    model = f"{manifest['run_label']}, no model asked"  # a replay
    assert f"run {run_a.run_id} (A, {model}) against {run_b.run_id} (B, {model})" in heading
    assert all(f"{name}" in heading for name in {line["scaffold"] for line in first_b.values()})
    for name in {line["scaffold"] for line in first_b.values()}:
        row = watched.page.locator(f'#summary tbody tr[data-scaffold="{name}"]')
        assert row.locator(".only-a").inner_text() == str(
            sum(1 for c in only_a if first_b[c]["scaffold"] == name)
        )
        assert row.locator(".only-b").inner_text() == str(
            sum(1 for c in only_b if first_b[c]["scaffold"] == name)
        )
        shared = [c for c in first_b if first_b[c]["scaffold"] == name]
        rate_a = sum(passed_a[c] for c in shared) / len(shared)
        rate_b = sum(passed_b[c] for c in shared) / len(shared)
        assert row.locator(".rate-a").inner_text() == f"{100 * rate_a:.1f}%"
        assert row.locator(".rate-b").inner_text() == f"{100 * rate_b:.1f}%"
        assert (
            row.locator(".difference")
            .inner_text()
            .startswith(f"{100 * (rate_b - rate_a):+.1f}pp (")
        )
    shown = _shown_ids(watched.page)
    assert set(shown[: len(only_a)]) == only_a
    assert set(shown[len(only_a) : len(only_a) + len(only_b)]) == only_b
    case_id = sorted(only_a)[0]
    watched.page.goto(page.resolve().as_uri() + "#" + case_id)
    # A new fragment on the open page is no load: the page's hashchange handler draws the
    # case after goto returns, so wait for it (failing at Playwright's timeout).
    selector = f'details.case[data-id="{case_id}"] .side'
    watched.page.wait_for_selector(selector, state="attached")
    sides = watched.page.locator(selector)
    assert sides.count() == 2
    assert sides.nth(0).locator("h3").inner_text().startswith("Run A: passed")
    assert not sides.nth(1).locator("h3").inner_text().startswith("Run B: passed")
    assert not watched.errors and not watched.requests


def test_many_cases_are_drawn_in_windows(watched: Watched, tmp_path: Path) -> None:
    output = tmp_path / "results"
    argv = ["kmp", "--cases", "450", "--provider", "reference", "--output", str(output)]
    done = run_cli("verify", *argv)
    assert done.returncode == 0, done.stderr
    (run,) = (output / "runs").iterdir()
    ids = json.loads((run / "manifest.json").read_text())["scaffolds"]["kmp"]["case_ids"]
    page = (output / "reports" / "index.html").resolve().as_uri()
    watched.open(page)
    drawn = _shown_ids(watched.page)
    assert watched.page.locator("#shown").inner_text() == f"{len(ids)} of {len(ids)} cases"
    assert drawn == ids[: len(drawn)] and len(drawn) < len(ids)
    watched.page.locator("#more").scroll_into_view_if_needed()  # the next window comes
    watched.page.wait_for_selector(f"#cases > details.case:nth-child({len(drawn) + 1})")
    assert _shown_ids(watched.page) == ids[: len(_shown_ids(watched.page))]

    watched.page.goto(page + "#" + ids[-1])  # a link deep in draws from its case
    # No load on the open page: its hashchange handler draws that window after goto returns.
    watched.page.wait_for_selector(f'details.case[data-id="{ids[-1]}"]', state="attached")
    window = _shown_ids(watched.page)
    assert window[-1] == ids[-1] and window == ids[len(ids) - len(window) :]
    earlier = watched.page.locator("#earlier")
    assert earlier.is_visible()
    earlier.click()
    more = _shown_ids(watched.page)
    assert len(more) > len(window) and more == ids[len(ids) - len(more) :]
    assert not watched.errors and not watched.requests
