"""``compare RUN_A RUN_B`` and ``history`` as text: what the command line prints.

``compare`` (and ``verify --baseline``) pairs the two runs per scaffold on the cases both
answered, by case score (the share of each case's samples that pass: every sample counts):
both runs' pass rates on those cases, their paired difference with its 95% interval
(Newcombe's paired score interval), the cases only A and only B scored higher, the exact
sign test on that split (exact McNemar with one sample) and a verdict, Holm-corrected when
several scaffolds are compared at once.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from verification.cases import printable
from verification.errors import JournalError
from verification.reports.base import PairedRow, RunEntry, shown_rate
from verification.reports.history import (
    comparability,
    entry_results,
    read_entry,
    status_rates,
)
from verification.reports.regressions import (
    ArmAnswers,
    apart_from_redrawn,
    compare_outcomes,
    edited_scaffolds,
    entry_arms,
    input_units,
    pair_selection,
    redrawn_cases,
    withheld_reasons,
)
from verification.store.manifests import RunManifest
from verification.store.paths import RunPaths

__all__ = ["RunPairing", "compare_runs", "render_history", "render_pairing"]


@dataclass(frozen=True)
class RunPairing:
    """Two runs compared scaffold by scaffold."""

    a: RunEntry
    b: RunEntry
    rows: list[PairedRow]
    differences: list[str]
    """What makes the runs not comparable as history means it (empty when they are)."""
    answers: dict[str, tuple[ArmAnswers, ArmAnswers]] = field(default_factory=dict)
    """Scaffold -> what A and B answered of it, and what each lost (errors, unanswered)."""
    redrawn: dict[str, frozenset[str]] = field(default_factory=dict)
    """Scaffold -> the cases the runs drew with other inputs: no pair of them is made."""

    def losses(self, a: str = "A", b: str = "B") -> list[str]:
        """A line per scaffold where either run lost answers or is INCOMPLETE: each run's
        answers, errors and unanswered cases (the pairing sees only the shared ones)."""
        lines = []
        for name, (arm_a, arm_b) in self.answers.items():
            if (
                arm_a.errors
                or arm_a.unanswered
                or arm_a.lacking
                or arm_b.errors
                or (arm_b.unanswered or arm_b.lacking)
            ):
                lines.append(f"{printable(name, 100)}: {a} {arm_a.counts()}; {b} {arm_b.counts()}")
        return lines

    @property
    def labels(self) -> tuple[str, str]:
        """What A and B are called: the arms of a ``--baseline`` pair (``no scaffold`` and
        ``scaffold`` or ``draft``; ``current`` and ``draft``), as ``verify --baseline``
        printed them, when the runs are that pair; else ``A`` and ``B``."""
        return pair_labels(self.a.manifest, self.b.manifest)


def pair_labels(a: RunManifest, b: RunManifest) -> tuple[str, str]:
    """What runs ``a`` and ``b`` are called (:attr:`RunPairing.labels`)."""
    if not _linked(a, b):
        return ("A", "B")
    # Either way round: given scaffold run first, the pair lost its names (hunt kk 7).
    variants = {a.variant, b.variant}
    if "bare" in variants:
        names = {"bare": "no scaffold", "draft": "draft", None: "scaffold"}
    elif variants == {None, "draft"}:
        names = {None: "current", "draft": "draft"}
    else:
        return ("A", "B")
    return (names[a.variant], names[b.variant])


def _linked(a: RunManifest, b: RunManifest) -> bool:
    """Whether ``a`` and ``b`` are the two runs of one ``--baseline`` pair."""
    return a.linked_run == b.run_id and b.linked_run == a.run_id


def load_run(results_dir: Path, run_id: str) -> RunEntry:
    """A run by id, or a :class:`JournalError` naming what is wrong with it."""
    paths = RunPaths(results_dir, run_id)
    try:
        return read_entry(paths.run_dir)  # a damaged one: StoredFileError, naming the file
    except FileNotFoundError:
        raise JournalError(f"no run {run_id!r} in {results_dir / 'runs'}") from None


def compare_runs(results_dir: Path, run_a: str, run_b: str) -> RunPairing:
    """Pair run ``run_a`` (A) with run ``run_b`` (B) on their shared cases."""
    a, b = load_run(results_dir, run_a), load_run(results_dir, run_b)
    results_a, results_b = entry_results(a), entry_results(b)
    arms_a, arms_b = entry_arms(a, results_a), entry_arms(b, results_b)
    labels = pair_labels(a.manifest, b.manifest)
    selected = pair_selection(a.manifest, b.manifest, labels)
    redrawn = redrawn_cases(results_a, results_b)
    arms_a, arms_b = apart_from_redrawn(arms_a, arms_b, redrawn)
    withheld = withheld_reasons(arms_a, arms_b, labels=labels, selected=selected, redrawn=redrawn)
    rows = compare_outcomes(
        arms_a,
        arms_b,
        withheld,
        selected=selected is not None,
        units=input_units(results_a, results_b),
    )
    # A --baseline pair differs in what it showed in place of the scaffold by design: its
    # labels say so, and a note would flag every pair.
    own = ("variant",) if _linked(a.manifest, b.manifest) else ()
    answers = {row.scaffold: (arms_a[row.scaffold], arms_b[row.scaffold]) for row in rows}
    differences = comparability(a.manifest, b.manifest, ignoring=own) + [
        f"the file of scaffold {name} (edited between them)"
        for name in edited_scaffolds(a.manifest, b.manifest)
    ]
    return RunPairing(a, b, rows, differences, answers, redrawn)


def render_pairing(pairing: RunPairing, *, a: str | None = None, b: str | None = None) -> str:
    """The comparison as a text table, one line per scaffold both runs hold (the runs called
    ``a`` and ``b``, by default their :attr:`RunPairing.labels`)."""
    a = a or pairing.labels[0]
    b = b or pairing.labels[1]
    lines = [f"{a}: run {pairing.a.run_id}", f"{b}: run {pairing.b.run_id}"]
    if pairing.differences:  # they quote the manifests, which anyone may have edited
        lines.append("note: the runs differ in " + printable("; ".join(pairing.differences)))
    if not pairing.rows:
        lines.append("no scaffold in common: nothing to compare")
        return "\n".join(lines) + "\n"
    width = max(len("SCAFFOLD"), *(len(row.scaffold) for row in pairing.rows))
    # "ONLY A" beside SHARED read as "cases only A holds" (a helper's hunt): these are the
    # shared cases A scored higher on, and those B did.
    better_a, better_b = f"{a} BETTER", f"{b} BETTER"
    wide_a, wide_b = max(9, len(better_a)), max(9, len(better_b))
    lines.append(
        f"{'SCAFFOLD':<{width}}  SHARED  {better_a:>{wide_a}}  {better_b:>{wide_b}}  "
        f"{'P':>7}  {'P HOLM':>7}  "
        f"{'RATE ' + a:>9}  {'RATE ' + b:>9}  {b + ' - ' + a + ' (95% CI)':<28}  VERDICT"
    )
    for row in pairing.rows:
        c = row.comparison
        low, high = c.interval
        difference = f"{_points(c.difference)} ({_points(low)} to {_points(high)})"
        rate_a, rate_b = shown_rate(c.rate_a, c.shared), shown_rate(c.rate_b, c.shared)
        if not c.shared:  # no case shared: no difference on them either (hunt ah)
            difference = "-"
        lines.append(
            f"{row.scaffold:<{width}}  {c.shared:>6}  {c.only_a:>{wide_a}}  {c.only_b:>{wide_b}}  "
            f"{c.p_value:>7.4f}  {row.p_holm:>7.4f}  {rate_a:>9}  {rate_b:>9}  "
            f"{difference:<28}  {row.verdict(a, b)}"
        )
    lines.append(
        f"({a} BETTER, {b} BETTER: the shared cases each run scored higher on, with one "
        "sample the cases only it passed; "
        "case scores, every sample of each case both runs answered, copies of one input "
        "counted once; rates on those cases; "
        "difference: Newcombe's paired score interval; exact sign test (McNemar with one "
        f"sample), two-sided, Holm-corrected across {len(pairing.rows)} scaffold(s))"
    )
    losses = pairing.losses(a, b)
    if losses:
        lines.append("answers each run lost (the pairing above sees only the shared cases):")
        lines += [f"  {line}" for line in losses]
    return "\n".join(lines) + "\n"


def _points(difference: float) -> str:
    """A difference of rates in percentage points, signed."""
    return f"{100 * difference:+.1f}pp"


def render_history(
    entries: Sequence[RunEntry], scaffold: str | None = None, output: Path | None = None
) -> str:
    """``history``: one line per run, newest first, then each scaffold's status and rate
    (``output``: the results folder read, named in the commands a line gives)."""
    where = f" --output {shlex.quote(str(output))}" if output is not None else ""
    if not entries:
        return "no runs\n"
    lines = []
    for entry in reversed(entries):
        data = entry.as_json()
        # A manifest's text is printed as a server's model names are: escaped, one line.
        # Each field cut too (hunt yy: a server's 200,000-character model name, whole).
        model, provider = (
            printable(str(data["model"] or "none"), 100),
            printable(str(data["provider"]), 40),
        )
        lines.append(
            printable(
                f"{data['run_id']}  {data['created_at'][:19]}  model {model}  "
                f"provider {provider}  level {data['level'] or '-'}  "
                f"seed {data['seed']}  code {data['code_version'] or '-'}",
                400,
            )
        )
        rates = status_rates(entry, scaffold)
        if entry.summary is None:
            run = shlex.quote(data["run_id"])
            if entry.manifest.finished_at is not None:  # its reports removed since
                said = f"no summary: report {run}{where} writes it again"
            else:  # stopped (Ctrl-C, a kill, a full disk) or still running: what goes on
                said = (
                    "no summary: the run was stopped before it was reported, or is still "
                    f"running; verify --resume {run}{where} goes on with it, report "
                    f"{run}{where} reports what it has"
                )
            lines.append(printable(f"    ({said})"))
        for name, (status, rate) in rates.items():
            # A summary's names are read back too: one line each, escaped.
            shown, said = printable(name, 100), printable(status, 40)
            lines.append(f"    {shown:<24} {said:<11} {shown_rate(rate):>6}")
    return "\n".join(lines) + "\n"
