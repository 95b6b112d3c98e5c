"""The envelope search as a run asks it (issue 25 item 2): the ``envelope`` stopping rule
draws each size the search names, asks it look by look of its plan and climbs or narrows
on the decision, within ``--max-cost``. Built on a variant of ``merge_sort`` with a stress
range (its generator draws an array of any length) and a provider that answers right below
a threshold size and wrong from it; every expectation is computed from that threshold and
the search itself."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.calibrations import calibrating_each_case_once
from tests.support.draws import drawing_each_case_once
from verification.cases import parse_case_id
from verification.catalog import Catalog, default_catalog
from verification.catalog.sizes import in_units
from verification.catalog.spec import OutputBudget, ScaffoldSpec
from verification.certify.envelope import honoured_sizes, run_split
from verification.certify.envelope_search import envelope_result, search_for
from verification.certify.sequential import CAPS, decide
from verification.cli import main
from verification.config import load_settings, resolve_settings
from verification.errors import ConfigurationError, LLMError
from verification.llm.base import LLMRequest, LLMResponse
from verification.llm.dry_run import ReferenceProvider
from verification.reports.generator import write_run_reports
from verification.run.attempts import Attempts
from verification.run.estimate import envelope_paths
from verification.run.plan import ENVELOPE, FIXED
from verification.runner import RunResult, VerificationRunner
from verification.store.journal import read_journal
from verification.store.pricing import TokenCounts, price_for
from verification.store.summary_file import RunSummary

BASE = default_catalog()["merge_sort"]
TOP = BASE.size.ranges["standard"][1]
SPEC: ScaffoldSpec = dataclasses.replace(
    BASE,
    size=dataclasses.replace(BASE.size, stress=(TOP + 1, 2 * TOP)),
    output_budget=OutputBudget(per_unit=100.0, exponent=1.0, base=500),
)
CATALOG = Catalog([SPEC])
THRESHOLD = TOP + TOP // 2 + 3
"""Right below it, wrong from it: past the standard maximum, inside the stress range."""


@pytest.fixture(scope="module", autouse=True)
def _drawn_once() -> Iterator[None]:
    """The searches here climb the same sizes of :data:`SPEC` from the same seed: each case
    is drawn once (tests/support/draws.py), and calibrated once (tests/support/calibrations.py)."""
    with drawing_each_case_once(), calibrating_each_case_once():
        yield


class Threshold(ReferenceProvider):
    """The reference's answer below ``threshold`` (by the size the case id names), none
    from it; ``paid`` makes it a priced model rather than a dry run."""

    def __init__(self, threshold: int, *, paid: bool = False) -> None:
        super().__init__(CATALOG)
        self.threshold = threshold
        self.dry_run = not paid
        self.asked: list[str] = []

    async def generate(self, request: LLMRequest) -> LLMResponse:
        self.asked.append(request.case_id or "")
        key = parse_case_id(request.case_id or "")
        if key is not None and key.size is not None and key.size >= self.threshold:
            return LLMResponse(content="no answer", model="m", stop_reason="end_turn")
        answer = await super().generate(request)
        # A priced model's answers, from the response cache (free, as the reference's are):
        # a run said to ask a model refuses a dry run's lines when it reads them back.
        return answer if self.dry_run else answer.model_copy(update={"source": "cache"})


def _run(tmp_path: Path, model: Threshold, **settings: Any) -> RunResult:
    config = resolve_settings(
        load_settings(results_dir=tmp_path, cache=False, envelope=True, **settings)
    )
    return asyncio.run(VerificationRunner(config, model, catalog=CATALOG).run([SPEC.name]))


@pytest.mark.slow  # eight sizes, about ten seconds
def test_the_search_finds_the_threshold_asking_each_size_only_to_its_deciding_look(
    tmp_path: Path,
) -> None:
    provider = Threshold(THRESHOLD)
    run = _run(tmp_path, provider, provider="reference")
    results = run.results[SPEC.name]
    sizes = honoured_sizes(SPEC, stress=True)
    assert results.certified_up_to == max(s for s in sizes if s < THRESHOLD)
    assert results.fails_from == THRESHOLD
    assert run.manifest.envelope is not None
    course = run.manifest.envelope[SPEC.name]
    # The course is the search's own, on the threshold's verdicts.
    verdicts: dict[int, bool] = {}
    expected = []
    search = search_for(SPEC)
    while (size := search.next_size(verdicts)) is not None:
        verdicts[size] = size < THRESHOLD
        expected.append(size)
    assert course.tried == expected and not course.stopped
    assert run.manifest.sizes == {SPEC.name: sorted(expected)}
    split = run_split(SPEC, run.manifest)
    assert split is not None
    assert len(provider.asked) == len(set(provider.asked))  # no sample asked twice
    asked = set(provider.asked)
    for size, ids in split.sizes.items():
        decision = decide(split.plan, [1.0 if size < THRESHOLD else 0.0] * len(ids))
        assert [i for i in ids if i in asked] == ids[: decision.n]
    swept = {parse_case_id(i).size for i in asked} - {None}  # type: ignore[union-attr]
    assert swept <= set(expected)
    outcome = envelope_result(results, run.manifest, read_journal(run.paths.journal))
    assert outcome is not None
    assert [t.size for t in outcome.tried] == expected
    assert outcome.certified_up_to == results.certified_up_to
    assert all(t.usd is None for t in outcome.tried)  # a dry run pays nothing
    # The reports: summary.json's envelope_search, the section in the order tried, the plot.
    write_run_reports(run.paths, run.manifest, run.results)
    summary = RunSummary.from_json((run.paths.reports / "summary.json").read_text())
    searched = summary.scaffolds[SPEC.name].envelope_search
    assert searched is not None and [t.size for t in searched.tried] == expected
    assert (searched.certified_up_to, searched.fails_from) == (
        results.certified_up_to,
        results.fails_from,
    )
    assert [t.n for t in searched.tried] == [
        {p.size: p.n for p in results.size_points}[size] for size in expected
    ]
    report = (run.paths.reports / f"{SPEC.name}.md").read_text()
    rows = [line for line in report.splitlines() if re.match(r"\| \d+ \| \d+ \| [A-Z]", line)]
    assert [int(row.split("|")[2]) for row in rows] == expected
    assert outcome.sentence[1:] in report
    chart = (run.paths.reports / f"{SPEC.name}-sizes.svg").read_text()
    assert all(f">{size}<" in chart for size in expected)


def test_a_dry_run_climbs_to_the_largest_honoured_size_and_stops(tmp_path: Path) -> None:
    totals: list[int] = []
    config = resolve_settings(
        load_settings(results_dir=tmp_path, cache=False, envelope=True, provider="reference")
    )
    model = Threshold(10**6)
    runner = VerificationRunner(config, model, catalog=CATALOG, planned=totals.append)
    run = asyncio.run(runner.run([SPEC.name]))
    # The progress bar's total grows with each size the search adds, and is never passed.
    assert totals == sorted(totals) and len(totals) > 1 and totals[-1] >= len(model.asked)
    results = run.results[SPEC.name]
    largest = honoured_sizes(SPEC, stress=True)[-1]
    assert results.certified_up_to == largest and results.fails_from is None
    assert run.manifest.envelope is not None
    assert run.manifest.envelope[SPEC.name].tried[-1] == largest


def test_the_climb_stops_and_says_so_when_the_next_size_would_pass_the_budget(
    tmp_path: Path,
) -> None:
    settings = resolve_settings(load_settings(results_dir=tmp_path / "price", cache=False))
    price = price_for(settings.model_name, None)
    assert price is not None
    # Less than the worst case of the first size's cases (each at its whole budget).
    first = search_for(SPEC).start
    per_case = price.cost(TokenCounts(output=SPEC.max_output_tokens_at(first)))
    limit = per_case * 10
    provider = Threshold(10**6, paid=True)
    run = _run(tmp_path, provider, max_cost=limit)
    assert run.manifest.envelope is not None
    course = run.manifest.envelope[SPEC.name]
    assert course.stopped == "budget" and course.next_size == first and course.tried == []
    assert course.next_worst_usd is not None and course.next_worst_usd > limit
    assert all(parse_case_id(i).size is None for i in provider.asked)  # type: ignore[union-attr]
    outcome = envelope_result(run.results[SPEC.name], run.manifest, read_journal(run.paths.journal))
    assert outcome is not None and "--max-cost" in outcome.stopped
    # --resume without the limit goes on where the search stopped, to the largest size.
    again = resolve_settings(load_settings(results_dir=tmp_path, cache=False))
    resumed = asyncio.run(
        VerificationRunner(again, Threshold(10**6, paid=True), catalog=CATALOG).run(
            [SPEC.name], resume=run.run_id
        )
    )
    assert resumed.manifest.envelope is not None
    course = resumed.manifest.envelope[SPEC.name]
    assert not course.stopped and course.tried[0] == first
    assert course.tried[-1] == honoured_sizes(SPEC, stress=True)[-1]
    assert resumed.results[SPEC.name].certified_up_to == course.tried[-1]


def test_the_first_size_starts_only_if_it_fits_beside_the_level_s_cases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A helper's hunt: the first stage asks the level's cases with the first size, but only
    # the size's worst case was held to the budget: the size was started, paid for in part
    # and left INCOMPLETE. Every attempt's worst case is one dollar here, so a count of
    # cases is their worst case (the dry answers are free: only the holds count).
    monkeypatch.setattr(Attempts, "worst_case", lambda self, job, attempts=None: 1.0)
    level = CAPS["standard"]
    limit = level + 0.5  # the level's cases fit, and no size beside them
    run = _run(tmp_path, Threshold(10**6, paid=True), max_cost=limit)
    assert len(run.manifest.scaffolds[SPEC.name].case_ids) == level  # no size was added
    assert run.manifest.envelope is not None
    course = run.manifest.envelope[SPEC.name]
    assert course.tried == [] and course.stopped == "budget"
    assert course.next_size == search_for(SPEC).start
    # The size alone would have fitted: what was left out is what came with it.
    assert course.next_worst_usd is not None and course.next_worst_usd <= limit
    assert course.next_beside_usd == level  # the level's cases, held beside it
    # Before: "its worst case ($20.0000 at worst) would pass the --max-cost budget of
    # $180.50: none" - a sum short of the budget, and no sizes tried, named "none".
    outcome = envelope_result(run.results[SPEC.name], run.manifest, read_journal(run.paths.journal))
    assert outcome is not None
    total = course.next_worst_usd + level
    assert (
        f"its worst case (${course.next_worst_usd:.4f}) on top of ${level:.4f} already "
        f"spent, held or asked beside it comes to ${total:.4f}, past the --max-cost budget "
        f"of ${limit:.2f}"
    ) in outcome.stopped
    assert outcome.listed == outcome.sentence  # no size tried: no list, and no "none"
    assert not outcome.listed.endswith(": none")
    # Resumed, the level a look decided is asked no more: the size now fits beside nothing
    # pending (a helper's hunt: the level's never-to-be-asked cases were still held).
    assert run.manifest.early_stops and SPEC.name in run.manifest.early_stops
    config = resolve_settings(
        load_settings(results_dir=tmp_path, cache=False, envelope=True, max_cost=limit)
    )
    resumed = asyncio.run(
        VerificationRunner(config, Threshold(10**6, paid=True), catalog=CATALOG).run(
            [SPEC.name], resume=run.run_id
        )
    )
    assert resumed.manifest.envelope is not None
    assert resumed.manifest.envelope[SPEC.name].tried[0] == search_for(SPEC).start


def test_a_run_asked_all_at_once_sweeps_its_fixed_sizes_and_refuses_envelope(
    tmp_path: Path,
) -> None:
    config = resolve_settings(
        load_settings(results_dir=tmp_path, cache=False, provider="reference", envelope=True)
    )
    runner = VerificationRunner(config, Threshold(10**6), catalog=CATALOG, stopping=FIXED)
    with pytest.raises(ConfigurationError, match="--envelope is refused"):
        asyncio.run(runner.run([SPEC.name]))
    thorough = resolve_settings(
        load_settings(results_dir=tmp_path, cache=False, provider="reference", level="thorough")
    )
    from verification.run.plan import plan_run

    plan = plan_run(
        thorough,
        [SPEC.name],
        catalog=CATALOG,
        prompt_builder=VerificationRunner(thorough, catalog=CATALOG).prompt_builder,
    )
    assert plan.stopping == ENVELOPE and plan.sweep == {SPEC.name: []}


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--sizes", "4,8"], "--sizes"),
        (["--size", "8"], "--size, --case or -k"),
        (["--batch"], "--batch"),
        (["--shard", "1/2"], "--shard"),
    ],
)
def test_envelope_is_refused_where_the_run_cannot_decide_size_after_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], said: str
) -> None:
    argv = ["verify", "kmp", "--envelope", "--provider", "reference", "--no-cache", *extra]
    assert main([*argv, "--output", str(tmp_path)]) == 2
    assert f"--envelope is refused with {said}" in capsys.readouterr().err


def test_estimate_envelope_names_the_costliest_course(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "kmp", "--envelope", "--estimate", "--provider", "reference"]) == 0
    paths = envelope_paths(
        resolve_settings(load_settings(provider="reference", envelope=True)),
        ["kmp"],
        catalog=default_catalog(),
    )
    assert paths is not None
    course = ", ".join(map(str, paths["kmp"]))
    assert f"at worst {len(paths['kmp'])} size(s) (kmp {course})" in capsys.readouterr().out


class Erring(Threshold):
    """The reference's answer below the threshold, an error from it (no answer at all)."""

    async def generate(self, request: LLMRequest) -> LLMResponse:
        key = parse_case_id(request.case_id or "")
        if key is not None and key.size is not None and key.size >= self.threshold:
            raise LLMError("the stand-in cannot answer this size")
        return await super().generate(request)


@pytest.mark.slow  # the erring size asks all its cases: no look decides on errors
def test_a_size_left_incomplete_by_errors_stops_the_search_saying_so(tmp_path: Path) -> None:
    run = _run(tmp_path, Erring(search_for(SPEC).start + 1), provider="reference", max_retries=0)
    assert run.manifest.envelope is not None
    course = run.manifest.envelope[SPEC.name]
    first = search_for(SPEC).start
    climbed = search_for(SPEC).next_size({first: True})
    assert course.tried == [first, climbed] and course.stopped == "incomplete"
    assert course.next_size == climbed
    outcome = envelope_result(run.results[SPEC.name], run.manifest, ())
    said = f"stopped at {in_units(climbed, SPEC.size.unit)}"
    assert outcome is not None and said in outcome.stopped
    assert outcome.tried[-1].status == "INCOMPLETE"
