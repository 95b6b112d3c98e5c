"""What changed since the previous comparable run, and whether two runs differ.

A regression is a drop the data shows: significant by the one-sided exact sign test on the
case scores of the cases both runs answered (exact McNemar with one sample per case),
Holm-corrected within Tarone's family of the scaffolds that could reach the level
(:mod:`verification.certify.paired`), so that over a catalog of 33 scaffolds with nothing
changed the gate fires on at most one night in twenty. A status change is listed either way,
regressions first; one the paired test does not back is "changed status, not significant"
and is no regression (no exit 5), whatever rule decided the two statuses (a run recorded
before this gate is compared by the same paired test on its journal).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from verification.certify.input_keys import paired_units, shared_units
from verification.certify.inputs import drawn_inputs
from verification.certify.paired import (
    PairedComparison,
    gate_adjust,
    holm_adjust,
    paired_comparison,
)
from verification.certify.results import ScaffoldResults
from verification.errors import JournalError
from verification.reports.base import (
    Direction,
    PairedRow,
    RunComparison,
    RunEntry,
    StatusChangeRow,
    status_changes,
)
from verification.reports.history import case_scores, entry_results, selection
from verification.store.manifests import RunManifest

__all__ = [
    "ArmAnswers",
    "against_drop",
    "apart_from_redrawn",
    "arm_answers",
    "compare_outcomes",
    "compare_with_previous",
    "edited_scaffolds",
    "entry_arms",
    "input_units",
    "judge",
    "pair_selection",
    "paired_rows",
    "redrawn_cases",
    "withheld_reasons",
]

logger = logging.getLogger(__name__)
_ORDER: dict[Direction, int] = {
    "regression": 0,
    "improvement": 1,
    "not significant": 2,
    "change": 3,
}


@dataclass(frozen=True)
class ArmAnswers:
    """What one run of a compared pair answered of a scaffold, and what it did not: the
    paired test sees only the cases both answered, so a run whose failures came back as
    infrastructure errors would read better than it is (a helper's hunt, F4)."""

    scores: Mapping[str, float]
    """Case id -> case score (:func:`~verification.reports.history.case_scores`)."""
    errors: Mapping[str, int]
    """Case id -> its samples lost to infrastructure errors (a case whose other samples
    were answered keeps a score over those alone, as biased as a case lost whole)."""
    unanswered: frozenset[str]
    """Cases the run meant to ask for its status (its level's plan, up to a look that
    stopped it; a size sweep's cases are decided size by size) with no line."""
    incomplete: bool
    """INCOMPLETE, by its report."""
    short: bool = False
    """More than a tenth of the cases it asked (or every one) without an answer: the
    pairing's own rule, said in its own words (hunt af: a FAILED run, its status decided on
    the look's window, was called INCOMPLETE here)."""

    @property
    def lacking(self) -> bool:
        """Whether no verdict beyond a significant drop holds on these answers."""
        return self.incomplete or self.short

    def losses(self, label: str, other: ArmAnswers) -> list[str]:
        """What this run (called ``label``) lost of the cases ``other`` answered, in words."""
        said = []
        errors = sum(n for case, n in self.errors.items() if case in other.scores)
        unanswered = len(self.unanswered & other.scores.keys())
        if errors:
            said.append(f"{label} lost {errors} answer(s) to infrastructure errors")
        if unanswered:
            said.append(f"{label} left {unanswered} case(s) unanswered")
        if self.incomplete:
            said.append(f"{label} is INCOMPLETE")
        elif self.short:
            said.append(f"{label} left over a tenth of the cases it asked without an answer")
        return said

    def without(self, cases: frozenset[str]) -> ArmAnswers:
        """These answers but those of ``cases``."""
        return replace(
            self,
            scores={case: score for case, score in self.scores.items() if case not in cases},
            errors={case: n for case, n in self.errors.items() if case not in cases},
            unanswered=self.unanswered - cases,
        )

    def lost_of(self, other: ArmAnswers) -> set[str]:
        """The cases ``other`` answered of which this run lost a sample or every one."""
        return (self.errors.keys() | self.unanswered) & other.scores.keys()

    def counts(self) -> str:
        """Its answers, errors and unanswered cases, in words (for a row's detail)."""
        return (
            f"{len(self.scores)} answered, {sum(self.errors.values())} infrastructure "
            f"error(s), {len(self.unanswered)} unanswered"
            + (", INCOMPLETE" if self.incomplete else "")
            + (", over a tenth of its cases without an answer" if self.short else "")
        )


def arm_answers(
    manifest: RunManifest, name: str, results: ScaffoldResults, status: str | None
) -> ArmAnswers:
    """:class:`ArmAnswers` of scaffold ``name`` folded as ``results`` (``status``: the
    scaffold's status as its report gave it, if known)."""
    scores = case_scores(results)
    lined = {r.test_case.id for r in results.results}
    errors = Counter(r.test_case.id for r in results.results if r.outcome == "infra_error")
    planned = manifest.scaffolds[name].case_ids
    split = _level_cases(manifest, name)
    if split is not None:  # as the certification counts them (results._asked)
        planned = [case for case in planned if case in split]
    stop = (manifest.early_stops or {}).get(name)
    asked = planned[: stop.cases] if stop else planned
    unanswered = frozenset(set(asked) - lined)
    lost_whole = {case for case in asked if case in lined and case not in scores}
    short = 10 * (len(lost_whole) + len(unanswered)) > len(asked) or not scores
    return ArmAnswers(scores, dict(errors), unanswered, status == "INCOMPLETE", short)


def _level_cases(manifest: RunManifest, name: str) -> frozenset[str] | None:
    """A swept run's level cases of ``name`` (``None``: it swept no sizes, or the catalog
    no longer has the scaffold): each swept size is asked look by look of its own plan, so
    its cases past a deciding look were never meant to be asked."""
    if not (manifest.sizes or {}).get(name):
        return None
    from verification.catalog import default_catalog
    from verification.certify.envelope import run_split

    spec = default_catalog().get(name)
    split = run_split(spec, manifest) if spec is not None else None
    return split.level if split is not None else None


def redrawn_cases(
    a: Mapping[str, ScaffoldResults], b: Mapping[str, ScaffoldResults]
) -> dict[str, frozenset[str]]:
    """Scaffold -> the cases both runs asked, each with another input: a generator or the
    seed changed between the versions that ran them. Paired by id they are other questions
    (hunt af: after a generator's change half of kmp's "shared" cases were, and A read
    better at p = 0.0001 on answers to inputs B never asked)."""
    found = {}
    for name in a.keys() & b.keys():
        drawn_a, drawn_b = drawn_inputs(a[name].results), drawn_inputs(b[name].results)
        differ = frozenset(case for case, key in drawn_a.items() if drawn_b.get(case, key) != key)
        if differ:
            found[name] = differ
    return found


def apart_from_redrawn(
    a: Mapping[str, ArmAnswers],
    b: Mapping[str, ArmAnswers],
    redrawn: Mapping[str, frozenset[str]],
) -> tuple[dict[str, ArmAnswers], dict[str, ArmAnswers]]:
    """Both runs' answers but those of the cases they drew differently
    (:func:`redrawn_cases`): no pair is made of two questions."""
    empty: frozenset[str] = frozenset()
    return (
        {name: arm.without(redrawn.get(name, empty)) for name, arm in a.items()},
        {name: arm.without(redrawn.get(name, empty)) for name, arm in b.items()},
    )


def withheld_reasons(
    a: Mapping[str, ArmAnswers],
    b: Mapping[str, ArmAnswers],
    *,
    labels: tuple[str, str] = ("A", "B"),
    selected: str | None = None,
    redrawn: Mapping[str, frozenset[str]] | None = None,
) -> dict[str, str]:
    """Scaffold -> why no verdict holds between the runs (``selected``: why the pair's
    cases are a selection, for every scaffold; ``redrawn``: the cases the runs drew with
    different inputs, by scaffold); a scaffold with a verdict is not named."""
    reasons = {}
    redrawn = redrawn or {}
    for name in b.keys() & a.keys():
        said = a[name].losses(labels[0], b[name]) + b[name].losses(labels[1], a[name])
        if name in redrawn:
            said.insert(
                0,
                f"{len(redrawn[name])} case(s) were drawn with other inputs in the two runs (a "
                "generator or the seed changed between them): left out, and no verdict holds "
                "between runs that ask other questions",
            )
        if selected is not None:
            said.insert(0, selected)
        if said:
            reasons[name] = "; ".join(said)
    return reasons


def against_drop(a: ArmAnswers, b: ArmAnswers) -> tuple[dict[str, float], dict[str, float]]:
    """Both runs' case scores with what each lost of the cases the other answered counted
    against a drop from ``a`` to ``b``: ``a``'s as failures, ``b``'s as passes. A drop that
    holds on these holds whatever the lost answers would have been; on the shared cases
    alone, an earlier run whose failures came back as errors read as a baseline of its
    successes, and a later run as good fired the gate (hunt kk 2: 7 vs 0 shared, p 0.008;
    7 vs 3 with the earlier run's 4 lost answers as failures, p 0.17)."""
    before, now = dict(a.scores), dict(b.scores)
    before.update(dict.fromkeys(a.lost_of(b), 0.0))
    now.update(dict.fromkeys(b.lost_of(a), 1.0))
    return before, now


def compare_outcomes(
    a: Mapping[str, ArmAnswers],
    b: Mapping[str, ArmAnswers],
    withheld: Mapping[str, str] | None = None,
    *,
    selected: bool = False,
    units: Mapping[str, Mapping[str, str]] | None = None,
) -> list[PairedRow]:
    """Per scaffold both runs hold (in ``b``'s order), the paired comparison of their case
    scores, case by case or, with ``units`` (:func:`input_units`), input by input:
    two-sided Holm-adjusted across those scaffolds, and the regression gate's one-sided
    test of a drop, where a run lost answers the other gave on its scores
    :func:`against_drop` (``withheld``: scaffold -> why no verdict holds; ``selected``: the
    pair's cases are a selection, see :func:`pair_selection`)."""
    shared = [name for name in b if name in a]
    unit = units or {}

    def paired(before: Mapping[str, float], now: Mapping[str, float], name: str) -> Any:
        return paired_comparison(*paired_units(before, now, unit.get(name, {})))

    comparisons = {name: paired(a[name].scores, b[name].scores, name) for name in shared}
    gated = {
        name: paired(*against_drop(a[name], b[name]), name)
        for name in shared
        if a[name].lost_of(b[name]) or b[name].lost_of(a[name])
    }
    return paired_rows(comparisons, withheld, selected=selected, gated=gated)


def input_units(
    a: Mapping[str, ScaffoldResults], b: Mapping[str, ScaffoldResults]
) -> dict[str, dict[str, str]]:
    """Scaffold -> case id -> the unit a paired test counts the case in
    (:func:`~verification.certify.input_keys.shared_units`). A tier with few possible inputs
    draws some again, and a model that answers one prompt alike each time (temperature 0,
    the response cache within a run) flips all its copies together: counted apart, one
    changed answer read as dozens, and two runs of an unchanged model were judged a
    significant drop (a helper's hunt: 45 copies of one n_queens input)."""
    return {
        name: shared_units(drawn_inputs(a[name].results), drawn_inputs(b[name].results))
        for name in a.keys() & b.keys()
    }


def paired_rows(
    comparisons: Mapping[str, PairedComparison],
    withheld: Mapping[str, str] | None = None,
    *,
    selected: bool = False,
    gated: Mapping[str, PairedComparison] | None = None,
) -> list[PairedRow]:
    """The rows of scaffolds' paired comparisons (in their order): two-sided Holm across
    them, and the regression gate's one-sided test within Tarone's family, of ``gated``'s
    comparison where it holds one (lost answers counted against a drop), else the row's."""
    adjusted = holm_adjust({name: c.p_value for name, c in comparisons.items()})
    tested = {name: (gated or {}).get(name, c) for name, c in comparisons.items()}
    gate = gate_adjust(tested)
    family = sum(p is not None for p in gate.values())
    why = withheld or {}
    return [
        PairedRow(
            name,
            comparison,
            adjusted[name],
            gate[name],
            family,
            why.get(name),
            selected,
            gated=(gated or {}).get(name),
        )
        for name, comparison in comparisons.items()
    ]


def judge(
    previous_run_id: str,
    before: Mapping[str, Any],
    statuses: Mapping[str, str],
    paired: list[PairedRow],
) -> RunComparison:
    """This run's ``statuses`` and ``paired`` rows against the previous run's summary data
    ``before``: each status change backed by the paired test or not, regressions first."""
    rows = {row.scaffold: row for row in paired}
    changes = [_backed(change, rows) for change in status_changes(statuses, before)]
    changes.sort(key=lambda change: _ORDER[change.direction])
    return RunComparison(previous_run_id=previous_run_id, status_changes=changes, paired=paired)


def _backed(change: tuple[str, str, str], rows: Mapping[str, PairedRow]) -> StatusChangeRow:
    """A status change, significant when the paired test finds a move its way."""
    name, before, now = change
    row = rows.get(name)
    plain = StatusChangeRow(name, before, now)
    significant = row is not None and (row.significant if plain.lower else row.rose)
    return StatusChangeRow(name, before, now, significant)


def entry_arms(entry: RunEntry, results: Mapping[str, ScaffoldResults]) -> dict[str, ArmAnswers]:
    """:class:`ArmAnswers` of each scaffold of a run read back (statuses from its report)."""
    reported = entry.summary.scaffolds if entry.summary is not None else {}
    return {
        name: arm_answers(entry.manifest, name, r, getattr(reported.get(name), "status", None))
        for name, r in results.items()
    }


def compare_with_previous(
    previous: RunEntry,
    results: Mapping[str, ScaffoldResults],
    manifest: RunManifest,
    earlier: Sequence[RunEntry] = (),
) -> RunComparison:
    """This run's results (its ``manifest``) against ``previous`` (its summary and its
    journal's outcomes; an unreadable journal leaves the paired part empty, with a
    warning). Where either run lost answers the other gave, is INCOMPLETE, or this run
    asked a selection of cases, the gate claims no rise and no "no drop" for the scaffold
    (:attr:`PairedRow.withheld`); a significant drop on the shared cases still fires.

    A scaffold ``previous`` had INCOMPLETE (an outage that night) is compared with the
    latest run of ``earlier`` (comparable runs before it, newest first) that had it whole
    (:attr:`PairedRow.baseline`): compared with the outage, a real drop went unseen, and
    the next night took the worse run as its baseline (a helper's hunt)."""
    assert previous.summary is not None  # a baseline has one (history.previous_comparable)
    try:
        previous_results = entry_results(previous)
    except (OSError, JournalError) as exc:
        logger.warning(
            "previous run %s: journal unreadable (%s): no paired test", previous.run_id, exc
        )
        previous_results = {}
    arms = entry_arms(previous, previous_results)
    baselines = _whole_before(results, arms, earlier)
    for name, (_, older, arm) in baselines.items():
        previous_results, arms = previous_results | {name: older}, arms | {name: arm}
    statuses = {name: r.shown_status for name, r in results.items()}
    withheld: dict[str, str] = {}
    selected = pair_selection(previous.manifest, manifest, ("the previous run", "this run"))
    now = {name: arm_answers(manifest, name, r, r.status) for name, r in results.items()}
    redrawn = redrawn_cases(previous_results, results)
    arms, now = apart_from_redrawn(arms, now, redrawn)
    if arms:
        withheld = withheld_reasons(
            arms, now, labels=("the previous run", "this run"), selected=selected, redrawn=redrawn
        )
    paired = [
        replace(row, baseline=baselines[row.scaffold][0].run_id)
        if row.scaffold in baselines
        else row
        for row in compare_outcomes(
            arms,
            now,
            withheld,
            selected=selected is not None,
            units=input_units(previous_results, results),
        )
    ]
    judged = judge(previous.run_id, previous.summary.model_dump(), statuses, paired)
    return replace(judged, edited=edited_scaffolds(previous.manifest, manifest))


def edited_scaffolds(a: RunManifest, b: RunManifest) -> list[str]:
    """The scaffolds both runs read whose files differ (their sha256), in ``b``'s order:
    an edited scaffold compared as if unchanged said nothing of the edit (a helper's hunt).
    Runs of two variants (a ``--baseline`` pair) differ in what they showed by design."""
    if a.variant != b.variant:
        return []
    return [
        name
        for name, entry in b.scaffolds.items()
        if name in a.scaffolds and a.scaffolds[name].sha256 != entry.sha256
    ]


def _whole_before(
    results: Mapping[str, ScaffoldResults],
    arms: Mapping[str, ArmAnswers],
    earlier: Sequence[RunEntry],
) -> dict[str, tuple[RunEntry, ScaffoldResults, ArmAnswers]]:
    """For each scaffold of ``results`` the previous run had INCOMPLETE (``arms``), the
    latest run of ``earlier`` that had it whole, with its results and answers."""
    wanted = [name for name in results if name in arms and arms[name].lacking]
    found: dict[str, tuple[RunEntry, ScaffoldResults, ArmAnswers]] = {}
    for entry in earlier:
        if not wanted:
            break
        try:
            older = entry_results(entry)
        except (OSError, JournalError):  # warned of where history reads it
            continue
        older_arms = entry_arms(entry, older)
        for name in [name for name in wanted if name in older_arms]:
            if not older_arms[name].lacking:
                found[name] = (entry, older[name], older_arms[name])
                wanted.remove(name)
    return found


def pair_selection(
    a: RunManifest, b: RunManifest, labels: tuple[str, str] = ("A", "B")
) -> str | None:
    """Why two runs' shared cases are a selection, so that no verdict holds on them: one
    reruns the other's failures (the same model asked again passes some by chance alone:
    regression to the mean), or one asked cases picked by name or tier and the other did
    not pick the same (:func:`~verification.reports.history.selection`, the predicate that
    keeps such a run from being a baseline); ``None`` when both asked their plans, or the
    same selection of them (two runs of the same ``--tier`` or ``-k`` compare as any two)."""
    if b.reruns is not None and b.reruns == a.run_id:
        return f"{labels[1]} asked only the cases {labels[0]} failed (--rerun-failed)"
    if a.reruns is not None and a.reruns == b.run_id:
        return f"{labels[0]} asked only the cases {labels[1]} failed (--rerun-failed)"
    if (a.case_filter, set(a.tiers)) == (b.case_filter, set(b.tiers)) and not (
        a.reruns or b.reruns
    ):
        return None
    for label, manifest in zip(labels, (a, b), strict=True):
        why = selection(manifest)
        if why is not None:
            return f"{label} {why}"
    return None
