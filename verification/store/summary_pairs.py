"""The parts of ``summary.json`` that compare a run with another: its status changes and
rate drops since the previous run, how the regression gate decided, and a ``--baseline
none`` pair's lift (each read back, as the rest of the summary is, by
:class:`~verification.store.summary_file.RunSummary`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, NonNegativeInt

__all__ = [
    "TOLERANT",
    "LiftRowSummary",
    "LiftSummary",
    "RateDrop",
    "RegressionGate",
    "StatusChange",
]

TOLERANT = ConfigDict(extra="ignore", protected_namespaces=())
"""Every part of a summary's: a newer harness's extra fields are ignored, not refused, so
old readers keep working."""


class _Tolerant(BaseModel):
    model_config = TOLERANT


class StatusChange(_Tolerant):
    """A scaffold whose status differs from the previous run's."""

    scaffold: str
    before: str
    now: str
    direction: str | None = None
    """``regression`` or ``improvement`` (backed by the paired test), ``not significant``
    (changed status, not significant: no regression) or ``change`` (to or from a status
    that is no grade)."""


class RateDrop(_Tolerant):
    """A scaffold that scored lower on more of the cases both runs answered (case scores:
    every sample counts)."""

    scaffold: str
    shared: int
    only_before: int
    """Shared cases the previous run scored higher (one sample: passed, now failed)."""
    only_now: int
    p_value: float
    """The one-sided exact sign test of the drop (exact McNemar with one sample); summaries
    written before the regression gate hold the two-sided value here."""
    p_holm: float
    """Holm-adjusted within Tarone's family (1.0 when out of it: out of reach at this n);
    before the gate: two-sided, across the run's scaffolds."""
    significant: bool
    """A regression: ``p_holm`` at most 0.05."""
    verdict: str
    rate_before: float | None = None
    """The previous run's pass rate on the shared cases."""
    rate_now: float | None = None
    difference_interval_95: tuple[float, float] | None = None
    """The 95% interval of ``rate_now - rate_before`` (Newcombe's paired score interval)."""
    power_drop_010: float | None = None
    """The gate's power to catch a drop from 0.90 to 0.80 at ``shared`` cases."""
    against_drop: tuple[NonNegativeInt, NonNegativeInt] | None = None
    """Where a run lost answers the other gave: the split the gate tested (``p_value`` and
    ``p_holm`` are its), those answers counted against a drop (the previous run's as
    failures, this run's as passes); ``None``: the shared cases' split, as above."""


class RegressionGate(_Tolerant):
    """How the regression gate decided, and what it could have seen."""

    test: str = "one-sided exact sign test on case scores (exact McNemar with one sample)"
    alpha: float = 0.05
    """The family-wise error rate over the scaffolds compared."""
    compared: int = 0
    """Scaffolds compared on shared cases."""
    family: list[str] = []
    """Tarone's family: the scaffolds whose split could reach the level (Holm within it)."""
    power_drop_010: dict[str, float] = {}
    """Scaffold -> the chance of catching a drop from 0.90 to 0.80 at its shared cases
    (exact; answers independent between runs), at the level of Holm's first step."""
    shared: dict[str, int] = {}
    """Scaffold -> shared cases."""
    edited: list[str] = []
    """Scaffolds whose file changed since the previous run (its sha256)."""
    baselines: dict[str, str] = {}
    """Scaffold -> the earlier run it was compared with, where the previous run had it
    INCOMPLETE (an outage): the latest comparable run that had it whole."""
    withheld: dict[str, str] = {}
    """Scaffold -> why the gate gives no verdict on it beyond a significant drop: either run
    lost answers the other gave, is INCOMPLETE, or this run asked a selection of cases; its
    status change reads no improvement, and its quiet pairing proves no "no regression"."""


class LiftRowSummary(_Tolerant):
    """A ``--baseline none`` pair at one size (``size`` ``None``: every case both arms
    answered): the bare arm against the scaffold arm on their shared cases."""

    size: int | None = None
    shared: int
    bare_pass_rate: float | None = None
    """On the shared cases; where the arms share none, on the arm's own cases at the size
    (``None``: the arm did not try it: an envelope search of each arm may differ)."""
    scaffold_pass_rate: float | None = None
    difference: float | None = None
    """Scaffold - bare, on the shared cases (``None``: none shared)."""
    difference_interval_95: tuple[float, float] | None = None
    """Newcombe's paired score interval of the difference."""
    p_value: float
    """Exact sign test of the discordant split, two-sided (exact McNemar with one sample)."""
    p_holm: float
    """``p_value`` Holm-corrected across the sizes (the row of every case: uncorrected)."""
    bare_status: str | None = None
    """The size's decision in each arm's envelope (``None`` in the row of every case)."""
    scaffold_status: str | None = None
    bare_output_tokens_per_case: float | None = None
    scaffold_output_tokens_per_case: float | None = None
    token_ratio: float | None = None
    """Scaffold arm's output tokens per case over the bare arm's."""
    tokens_estimated: bool = False
    """Some reply recorded no usage: its length (four characters a token) stands for it."""


class LiftSummary(_Tolerant):
    """One scaffold's lift over no scaffold, from a ``verify --baseline none`` pair."""

    bare_run: str
    scaffold_run: str
    unit: str = "size"
    sentence: str
    """The lift as the reports say it: both envelopes, what the scaffold adds, its price."""
    bare_certified_up_to: int | None = None
    bare_fails_from: int | None = None
    scaffold_certified_up_to: int | None = None
    scaffold_fails_from: int | None = None
    bare_stopped: str = ""
    """Why the bare arm's envelope search ended short of its boundary ("" when it ran its
    course, or the arm swept fixed sizes)."""
    scaffold_stopped: str = ""
    sizes: list[LiftRowSummary] = []
    """One row per swept size, ascending (empty: the pair swept no size)."""
    overall: LiftRowSummary
