"""A run's manifest, ``<run>/manifest.json``: what a run asked, of whom, with which
files; the models it is written from and read back into (held to what the harness
writes: anyone may have edited it), and the runs a results folder holds."""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from verification.cases import SCAFFOLD_NAME_FORMAT, Tier, is_scaffold_name
from verification.errors import JournalError, StoredFileError
from verification.store.pricing import TABLES_DATED, ModelPrice
from verification.store.records import Arm
from verification.store.run_ids import is_run_id
from verification.store.stored_files import (
    MAX_MANIFEST_BYTES,
    read_stored_json,
    validation_problems,
)
from verification.store.urls import without_url_credentials

__all__ = [
    "CostBasis",
    "EarlyStop",
    "EnvelopeRecord",
    "PlanRecord",
    "RunManifest",
    "ScaffoldEntry",
    "ShardInfo",
    "WaldRecord",
    "latest_run_id",
    "read_manifest_file",
    "run_manifests",
]


_SHA256 = re.compile(r"[0-9a-f]{64}|unknown")
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 .,_+:=()/-]{0,127}")
"""Text a report shows as it is (versions, labels, tolerances): nothing Markdown reads."""


logger = logging.getLogger(__name__)


class ScaffoldEntry(BaseModel):
    """What a run read for one scaffold, and which cases it planned."""

    file: str
    sha256: str
    case_ids: list[str]
    tolerances: dict[str, str] = {}
    """The validator's numeric tolerances, as the report shows them."""
    prompt_tokens: int | None = Field(default=None, ge=0)
    """The scaffold's length in tokens, estimated (what decides whether it can be cached)."""

    @field_validator("sha256")
    @classmethod
    def _sha256_is_hex(cls, sha256: str) -> str:
        if not _SHA256.fullmatch(sha256):
            raise ValueError("not a sha256 (64 hex digits)")
        return sha256

    @field_validator("tolerances")
    @classmethod
    def _tolerances_are_plain(cls, tolerances: dict[str, str]) -> dict[str, str]:
        for what, bound in tolerances.items():
            if not (_PLAIN.fullmatch(what) and _PLAIN.fullmatch(bound)):
                raise ValueError(f"{what!r:.40}: {bound!r:.40} is not a tolerance")
        return tolerances


class CostBasis(BaseModel):
    """What a run's costs are computed with, fixed when it starts: re-rendering its reports
    after a price change does not reprice it."""

    model: str
    price: ModelPrice | None = None
    """USD per million tokens; ``None`` when no table knows the model."""
    prompt_caching: bool = False
    """The provider marks the scaffold for caching."""
    min_cacheable_tokens: int | None = Field(default=None, ge=0)
    tables_dated: str = Field(default=TABLES_DATED, max_length=40)
    max_cost: float | None = Field(default=None, gt=0.0, allow_inf_nan=False)
    """The run's budget in USD (``--max-cost``), if it had one."""


class EarlyStop(BaseModel):
    """Where a look of the run's certification plan stopped asking a scaffold's cases
    (before issue 23: where ``--early-stop``'s widened intervals did)."""

    cases: int = Field(ge=1)
    """The planned cases asked before the deciding look (the rest are not missing)."""
    look: int = Field(ge=1)
    looks: int = Field(ge=1, le=1000)
    """How many looks were planned."""


class EnvelopeRecord(BaseModel):
    """An envelope search's course for one scaffold (``verify --envelope``)."""

    tried: list[int] = []
    """The sizes it decided, in the order it tried them."""
    stopped: Literal["", "budget", "incomplete"] = ""
    """Why it ended before finding the boundary: ``budget``, the next size's worst case
    would have passed ``--max-cost``; ``incomplete``, a size had too few answers to decide
    (errors); "" when it ran its course (or goes on)."""
    next_size: int | None = Field(default=None, ge=1)
    """The size it would have tried next, when it stopped."""
    next_worst_usd: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    """That size's worst case (every case at the plan's cap), when the budget stopped it."""
    next_beside_usd: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    """What that worst case was added to when the budget stopped it: what the run had spent
    and held, and the worst case of what its stage asks beside the size (the level's cases
    in the first stage, other scaffolds' sizes); ``None`` in manifests before it was kept."""


class WaldRecord(BaseModel):
    """One of a plan's Wald tests: ``p0`` against ``p1`` at risks ``alpha`` and ``beta``."""

    p0: float = Field(gt=0.0, lt=1.0)
    p1: float = Field(gt=0.0, lt=1.0)
    alpha: float = Field(gt=0.0, lt=1.0)
    beta: float = Field(gt=0.0, lt=1.0)


class PlanRecord(BaseModel):
    """The certification plan a run followed (:mod:`verification.certify.sequential`),
    so that its statuses are decided by it whatever the code's plans are later."""

    name: str = Field(max_length=40, pattern=r"^[a-z0-9 ]+$")
    looks: list[int] = Field(min_length=1, max_length=1000)
    cap: int = Field(ge=1, le=100_000)
    upper: WaldRecord | None = None
    """The test at the 0.90 threshold (``None``: a fixed plan, the point cut alone)."""
    lower: WaldRecord | None = None
    """The test at the 0.50 threshold."""

    @field_validator("looks")
    @classmethod
    def _looks_ascend(cls, looks: list[int]) -> list[int]:
        if looks[0] < 1 or any(b <= a for a, b in itertools.pairwise(looks)):
            raise ValueError("looks must be case counts from 1, ascending")
        return looks

    @model_validator(mode="after")
    def _the_cap_is_the_last_look(self) -> PlanRecord:
        if self.looks[-1] != self.cap:
            raise ValueError(f"the last look ({self.looks[-1]}) is not the cap ({self.cap})")
        return self


class ShardInfo(BaseModel):
    """Which slice of a plan a sharded run answered (``verify --shard I/N``)."""

    index: int = Field(ge=1)
    """I, from 1."""
    count: int = Field(ge=1)
    """N: how many shards the plan was cut into."""
    plan_sha256: str
    """The whole plan's digest (:func:`~verification.run.shards.plan_sha256`): shards of one
    plan, and only those, merge."""
    positions: dict[str, list[int]]
    """Per scaffold, where each of this shard's cases stands in the whole plan's list."""
    planned: dict[str, int]
    """Per scaffold, how many cases the whole plan holds."""

    @field_validator("plan_sha256")
    @classmethod
    def _plan_is_a_digest(cls, digest: str) -> str:
        if not re.fullmatch(r"[0-9a-f]{64}", digest):
            raise ValueError("not a sha256 (64 hex digits)")
        return digest

    @model_validator(mode="after")
    def _one_of_its_count(self) -> ShardInfo:
        if self.index > self.count:  # as --shard I/N refuses it
            raise ValueError(f"shard {self.index} of {self.count} is none of them")
        return self


class RunManifest(BaseModel):
    """What a run asked, of whom, with which files: enough to reproduce and compare."""

    # ``model_requested`` is a field, not pydantic API: older pydantic warns without this.
    model_config = ConfigDict(protected_namespaces=())

    run_id: str
    created_at: str
    """When the run was made: an ISO 8601 time with its offset, read back in UTC to the
    microsecond as the harness writes it, so that runs sort by the instant (a hand-edited
    offset sorted as text made the gate pick another previous run, and ``prune`` strip the
    newest: hunt hh)."""
    provider: dict[str, Any]
    dry_run: bool
    run_label: str | None
    """``DRY RUN`` or ``REPLAY`` for providers that certify no model."""
    model_requested: str | None
    """The model asked; ``None`` in a dry run, which asks none."""
    models_returned: list[str] = []
    settings: dict[str, Any]
    seed: int
    # Bounded as the settings bound them: a manifest edited past them was read as if a
    # user had given --cases 0 or --samples 0 (hunt yy), or planned no sample it holds.
    cases: int = Field(ge=1, le=10_000)
    samples: int = Field(ge=1, le=20)
    tiers: list[Tier]
    case_filter: list[str] | None = None
    scaffolds: dict[str, ScaffoldEntry]
    """Per scaffold: file path, sha256, planned case ids."""
    template_version: str
    code_version: str
    finished_at: str | None = None
    interrupted: bool = False
    cost_basis: CostBasis | None = None
    """Prices and caching facts of the run (absent in manifests older than cost figures)."""
    stopped_by_budget: bool = False
    """The run stopped starting cases at its ``--max-cost`` budget; cases are left to ask."""
    level: str | None = None
    """``quick``, ``standard`` or ``thorough`` (``None``: a run from before levels)."""
    sizes: dict[str, list[int]] | None = None
    """Per scaffold, the sizes swept (thorough level or ``--sizes``); ``None``: no sweep."""
    sweep_cases: int | None = Field(default=None, ge=1)
    """The cases planned at each swept size (``None``: 35, all a sweep asked before the
    count was recorded)."""
    seed_private: bool = False
    """The cases came from the private cert seed; ``seed`` is then 0, not the seed."""
    seed_sha256: str | None = None
    """The private seed's sha256, so that runs on the same secret can be told apart."""
    variant: Literal["bare", "draft"] | None = None
    """What the model was shown in place of the catalog's scaffold: ``bare`` the task and
    Output Format only (``verify --baseline none``), ``draft`` a ``--scaffold-file`` compared
    with ``--baseline``; ``None`` the scaffold files as they are. Part of comparability."""
    linked_run: str | None = None
    """The other run of a ``--baseline`` pair (same cases)."""
    arm: Arm | None = None
    """The arm of a ``--baseline`` pair this run is (written when it starts, so that a
    resume, even of a run stopped before its pair was linked, asks as that arm did);
    ``None``: no pair, or a run from before arms were kept."""
    reruns: str | None = None
    """The run whose failed or errored cases this run asked again (``--rerun-failed``)."""
    keyword: str | None = None
    """The ``-k`` expression that chose this run's cases (``None``: no ``-k``, or one that
    kept every planned case of the scaffolds it touched, which then run as if named)."""
    shard: ShardInfo | None = None
    """The slice of a plan this run answered (``--shard I/N``): never published, never a
    baseline; ``merge`` makes one run of a plan's shards."""
    merged_shards: list[str] | None = None
    """The shard runs ``merge`` made this run of, in shard order."""
    early_stops: dict[str, EarlyStop] | None = None
    """The scaffolds a look of the plan decided before its cap, and where (``None``: the
    run asked its whole plan, looking afterwards; ``{}``: it looked as it went, and no
    look decided before the cap)."""
    plan: PlanRecord | None = None
    """The certification plan its statuses are decided by (``None``: a run from before
    plans, decided by the point cut on every case it counted)."""
    model_runs: dict[str, str] | None = None
    """With several models (``--model A --model B``): every model the invocation asked, in
    order, and the run that asked it, this one included (``None``: one model)."""
    envelope: dict[str, EnvelopeRecord] | None = None
    """Per scaffold, its envelope search (``--envelope``): the sizes tried and why it
    stopped (``None``: no search; its sizes are then ``sizes``' fixed sweep)."""
    thinking_budget: int | None = Field(default=None, ge=1)
    """Extended thinking's budget per request (``--thinking-budget``); ``None``: none.
    Part of comparability and of every request's cache key."""
    code_format_version: str | None = Field(default=None, max_length=40)
    """The Code Format's wording a code-mode run asked with (``CODE_FORMAT_VERSION``; a
    resume under another is refused); ``None`` in trace mode and in runs before it was kept."""

    # A manifest is read back from disk, where anyone may have edited it: the names in it
    # become file names and report lines, so they are held to what the harness writes.
    @field_validator("run_id", "linked_run", "reruns")
    @classmethod
    def _run_id_is_a_name(cls, run_id: str | None) -> str | None:
        if run_id is not None and not is_run_id(run_id):
            raise ValueError("not a run id (letters, digits, '.', '_', '-')")
        return run_id

    @field_validator("created_at")
    @classmethod
    def _an_instant(cls, created_at: str) -> str:
        try:
            when = datetime.fromisoformat(created_at)
        except ValueError:
            raise ValueError("not an ISO 8601 time") from None
        if when.tzinfo is None:
            raise ValueError("an ISO 8601 time with no offset (the harness writes UTC's)")
        try:
            return when.astimezone(UTC).isoformat(timespec="microseconds")
        except OverflowError:  # year 9999 an hour west of UTC: no date holds it in UTC
            return created_at  # shown as written (tests/store/test_hunted_files.py)

    @field_validator("model_runs")
    @classmethod
    def _model_runs_are_run_ids(cls, runs: dict[str, str] | None) -> dict[str, str] | None:
        for run_id in (runs or {}).values():
            cls._run_id_is_a_name(run_id)
        return runs

    @field_validator("merged_shards")
    @classmethod
    def _shards_are_run_ids(cls, run_ids: list[str] | None) -> list[str] | None:
        for run_id in run_ids or ():
            cls._run_id_is_a_name(run_id)
        return run_ids

    @field_validator("provider")
    @classmethod
    def _provider_is_named(cls, provider: dict[str, Any]) -> dict[str, Any]:
        if not (
            isinstance(provider.get("provider"), str) and _PLAIN.fullmatch(provider["provider"])
        ):
            raise ValueError("names no provider (a 'provider' name)")
        return dict(without_url_credentials(provider))

    @field_validator("settings")
    @classmethod
    def _settings_hold_no_credentials(cls, settings: dict[str, Any]) -> dict[str, Any]:
        # The harness writes URLs without credentials; a hand edit may have put them back,
        # and reports copy what a manifest says: they are stripped on every read.
        return dict(without_url_credentials(settings))

    @field_validator("run_label", "template_version", "code_version", "code_format_version")
    @classmethod
    def _plain_text(cls, text: str | None) -> str | None:
        if text and not _PLAIN.fullmatch(text):
            raise ValueError(f"{text!r:.80} holds more than letters, digits and punctuation")
        return text

    @field_validator("scaffolds")
    @classmethod
    def _scaffolds_are_names(cls, scaffolds: dict[str, ScaffoldEntry]) -> dict[str, ScaffoldEntry]:
        for name in scaffolds:
            if not is_scaffold_name(name):
                raise ValueError(f"{name!r:.80} is not a scaffold name ({SCAFFOLD_NAME_FORMAT})")
        return scaffolds


def read_manifest_file(path: Path) -> RunManifest:
    """A manifest from disk: a regular file, bounded in size and depth, validated; a
    :class:`StoredFileError` naming the file otherwise (a missing one is
    :class:`FileNotFoundError`)."""
    data = read_stored_json(path, max_bytes=MAX_MANIFEST_BYTES)
    try:
        return RunManifest.model_validate(data)
    except ValidationError as exc:
        raise StoredFileError(f"{path}: not a run manifest ({validation_problems(exc)})") from None


def run_manifests(results_dir: Path) -> Iterator[RunManifest]:
    """The manifest of every run under ``<results_dir>/runs`` that can be read. A damaged
    one (or a folder that is not a run) is skipped with a warning naming it: an earlier
    run never stops a new one. Each manifest's ``run_id`` is its folder's name."""
    runs = results_dir / "runs"
    if not runs.is_dir() and (runs.exists() or runs.is_symlink()):
        # A file, or a link to nothing or to itself: "no runs" alone read as an empty folder.
        logger.warning(
            "%s is no folder (a file, or a link that leads nowhere): no run is read", runs
        )
        return
    try:
        folders = sorted(runs.iterdir()) if runs.is_dir() else []
    except OSError as exc:
        logger.warning("%s cannot be listed (%s): earlier runs are not read", runs, exc)
        return
    for run_dir in folders:
        if not is_run_id(run_dir.name) or not run_dir.is_dir():
            continue
        try:
            manifest = read_manifest_file(run_dir / "manifest.json")
        except FileNotFoundError:
            # A run whose provider could not start leaves no manifest, and no journal: one
            # with answers has lost its manifest, which `report` names too (hunt hh).
            if (run_dir / "results.jsonl").exists():
                logger.warning(
                    "run %s skipped: it has a journal but no manifest.json (deleted?)",
                    run_dir.name,
                )
            continue
        except (OSError, StoredFileError) as exc:
            logger.warning("run %s skipped: %s", run_dir.name, exc)
            continue
        yield manifest.model_copy(update={"run_id": run_dir.name})


def latest_run_id(results_dir: Path) -> str:
    """The id of the most recently created run in ``results_dir``."""
    created = [(m.created_at, m.run_id) for m in run_manifests(results_dir)]
    if not created:
        raise JournalError(f"no runs in {results_dir / 'runs'}")
    return max(created)[1]
