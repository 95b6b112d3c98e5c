"""The journal's record: one line of ``results.jsonl`` per attempt at one case, and how
a response is capped before it is written."""

from __future__ import annotations

import hashlib
import re
import struct
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from verification.cases import (
    ProgramTask,
    TestCase,
    Tier,
    parse_case_id,
    parse_program_id,
    printable,
)
from verification.errors import RecordMismatch
from verification.store.json_text import JsonText
from verification.store.stored_files import (
    parse_stored_json,
)

__all__ = [
    "DRY_RUN_SOURCES",
    "JOURNAL_SCHEMA",
    "MAX_RAW_RESPONSE_CHARS",
    "MAX_TOKEN_COUNT",
    "PROGRAM_TIER",
    "Arm",
    "AttemptRecord",
    "CaseRun",
    "CaseRunOutcome",
    "Outcome",
    "ProgramFailure",
    "ProgramRun",
    "RecordMismatch",
    "cap_response",
]


JOURNAL_SCHEMA = 1
MAX_RAW_RESPONSE_CHARS = 1024 * 1024
MAX_TOKEN_COUNT = 10**9
"""The most tokens one count of a reply's usage may say: a billion, far past any model's
context, and a sum that prices to a float (a server's 10**400 does not)."""


Outcome = Literal["passed", "failed", "truncated", "refused", "infra_error"]


Arm = Literal["scaffold", "bare", "draft", "current"]
"""Which arm of a ``--baseline`` pair an attempt belongs to: ``bare`` the task alone
(``--baseline none``'s A), ``current`` the catalog's scaffold against a draft
(``--baseline``'s A), ``draft`` a ``--scaffold-file`` (B), ``scaffold`` the catalog's
scaffold as ``--baseline none``'s B."""


DRY_RUN_SOURCES = frozenset({"reference", "replay"})
"""The ``source`` of an answer no model gave: the dry-run providers' (the reference's own
answers, a replay file's lines). A run whose manifest says a model was asked holds none."""

PROGRAM_TIER: Literal["program"] = "program"
"""The ``tier`` of a program's journal record: a program belongs to no tier of cases."""

CaseRunOutcome = Literal["passed", "failed", "not_run"]

_LINE_JSON = JsonText(allow_nan=False, ensure_ascii=True, check_circular=False)
"""A journal line's text (``json.dumps(data, allow_nan=False)``'s). Without json's marks
for cycles (half of the writing's time, an edge list's pairs each marked): a value with a
cycle ends in :class:`RecursionError` rather than :class:`ValueError`, and
:meth:`AttemptRecord.to_line` leaves either to pydantic's conversion, which refuses it."""


class CaseRun(BaseModel):
    """One case of a code-mode program's suite: how its execution was judged."""

    model_config = ConfigDict(frozen=True)

    case_id: str
    tier: str
    size: int | None
    outcome: CaseRunOutcome
    level: int | None
    """The level it failed at (2 contract, 3 behaviour); ``None`` when it passed or was
    not run."""
    reason: str
    seconds: float | None
    """The program's time on the case (its ``solve`` call as the sandbox timed it)."""
    reference_seconds: float
    """The reference implementation's time on the same case."""
    output: str | None = None
    """The value returned, as JSON text, cut as replies are."""


class ProgramFailure(BaseModel):
    """A program's first failing case, with what a reader needs to see it (each cut)."""

    model_config = ConfigDict(frozen=True)

    case_id: str
    level: int | None
    reason: str
    input: str
    expected: str
    actual: str | None


class ProgramRun(BaseModel):
    """What a code-mode program came to on its suite: the journal's record of a program."""

    model_config = ConfigDict(frozen=True)

    source: str | None
    """The program (cut as replies are); ``None`` when the reply held none, or when it is
    another's (``shared_with``), recorded there."""
    source_sha256: str | None = None
    cases: list[CaseRun] = []
    first_failure: ProgramFailure | None = None
    python: str | None = None
    """The Python version the sandbox ran."""
    engine: str | None = None
    """The sandbox engine (``bubblewrap``, ``docker``)."""
    harness_seconds: float = 0.0
    """The harness's own time on the program beyond the program's (judging, sandbox)."""
    shared_with: str | None = None
    """The program id whose identical source was executed once for both: its record
    holds the source and every case's run, which are this program's too (``cases`` is
    then empty here)."""


class AttemptRecord(BaseModel):
    """One line of ``results.jsonl``: one attempt at one case."""

    # ``model_asked`` is a field, not pydantic API: older pydantic warns without this.
    model_config = ConfigDict(frozen=True, protected_namespaces=())

    schema_version: int = JOURNAL_SCHEMA
    scaffold: str
    case_id: str
    index: int = Field(ge=0)
    epoch: int = Field(ge=0)
    """Which sample of the case (0-based)."""
    attempt: int = Field(ge=1)
    """1 for the first answer; 2 and 3 are repair attempts."""
    tier: Tier | Literal["program"]
    """The case's tier; :data:`PROGRAM_TIER` for a code-mode program's record."""
    input: dict[str, Any]
    expected: dict[str, Any]
    outcome: Outcome
    level: int | None = Field(ge=1)
    """The level an unsuccessful attempt failed at: 1, 2 or 3."""
    reason: str
    leniency: list[str]
    answer: Any
    raw_response: str | None
    raw_response_chars: int = Field(ge=0)
    raw_response_sha256: str | None
    stop_reason: str | None
    usage: dict[str, Annotated[int, Field(ge=0, le=MAX_TOKEN_COUNT)]]
    latency_s: float = Field(ge=0.0, allow_inf_nan=False)
    model: str | None
    finished_at: str
    size: int | None = Field(default=None, ge=0)
    """The size the case was drawn at (``None`` in journals from before sizes were kept:
    the case id's ``s<size>`` or the tier's default size says it)."""
    source: str | None = None
    """Where the answer came from (``live``, ``cache``, ``batch``, ``reference``,
    ``replay``, or ``journal``: a code-mode program's reply run again on resume); ``None``
    when no answer came."""
    model_asked: str | None = None
    """The model the request named (``model`` is what the server says answered); ``None``
    in journals from before it was kept (the manifest's ``model_requested`` then)."""
    batch_id: str | None = None
    """The Message Batch the attempt's answer (or its failure) came from: a batch's results
    read again after a crash are journalled only where this is not already written."""
    program: ProgramRun | None = None
    """Code mode: the program's executions on its suite (a record of a program, whose
    ``case_id`` is a program id and ``tier`` :data:`PROGRAM_TIER`)."""
    arm: Arm | None = None
    """The arm of a ``--baseline`` pair the attempt was asked in (:data:`Arm`); ``None`` in
    a run of no pair. A replay provider serves each arm the lines of its own arm."""
    # Kept beside the fields, out of pydantic (no private attributes: pydantic would set
    # them up for every record made or read, a third of making one): ``_where`` is where
    # the record was read (``<journal>:<line>``, for messages naming a bad line; unset for
    # a record made in this process), ``_made`` the case :meth:`test_case` made, with the
    # field values it was made from. Neither is written, nor part of what the record is.
    __slots__ = ("_made", "_where")

    def __eq__(self, other: object) -> bool:
        # Where a record was read is no part of it: a record read back equals the one written.
        if not isinstance(other, AttemptRecord):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def __copy__(self) -> AttemptRecord:
        copied = super().__copy__()
        _keep_where(copied, self)
        return copied

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> AttemptRecord:
        copied = super().__deepcopy__(memo)
        _keep_where(copied, self)
        return copied

    def __getstate__(self) -> dict[Any, Any]:
        return {**super().__getstate__(), _WHERE: getattr(self, "_where", None)}

    def __setstate__(self, state: dict[Any, Any]) -> None:
        state = dict(state)
        where = state.pop(_WHERE, None)
        super().__setstate__(state)
        if where is not None:
            object.__setattr__(self, "_where", where)

    @property
    def reply_edited(self) -> bool:
        """Whether the journalled reply is not what was written (:func:`cap_response`): a
        reply kept whole that lost the length or the sha256 written beside it, or a capped
        one that is not the cap's length (a capped reply's digest is the whole reply's, so
        no more of it can be checked; a pruned one is gone)."""
        raw, chars = self.raw_response, self.raw_response_chars
        if raw is None or self.raw_response_sha256 is None:
            return False
        if chars > MAX_RAW_RESPONSE_CHARS:  # cut at the cap, as written or in code units
            cap = MAX_RAW_RESPONSE_CHARS
            return len(raw) != cap and (raw.isascii() or len(_code_units(raw)) != cap)
        if len(raw) == chars and _digest(raw) == self.raw_response_sha256:
            return False  # as written: every line of this code
        if raw.isascii():
            return True
        units = _code_units(raw)  # a line from before pairs were joined: measured in these
        return not (len(units) == chars and _digest(units) == self.raw_response_sha256)

    @property
    def line(self) -> str:
        """Where the record was read, or its case id for a record made in this process."""
        where: str | None = getattr(self, "_where", None)
        return where or f"the record of {self.case_id}"

    @property
    def undrawn(self) -> bool:
        """Whether this record is of a case that could not be drawn (its plugin's generator
        or reference failed): an infrastructure error with no input, its reason the
        plugin's error, and nothing to calibrate or measure."""
        return self.outcome == "infra_error" and not self.input

    @property
    def is_program(self) -> bool:
        """Whether this record is a code-mode program's, not a case's."""
        return parse_program_id(self.case_id) is not None

    def test_case(self) -> TestCase:
        """The case this record answers, as the journal holds it (a program's record: its
        :class:`~verification.cases.ProgramTask`, suite not kept). Made once: folding a
        journal asks each record twice (the cases calibrated, the answers shown), and
        the case is frozen, as the record is; a copy with other values
        (``model_copy(update=...)``) makes its own."""
        kept: tuple[dict[str, Any], TestCase] | None = getattr(self, "_made", None)
        if kept is not None and kept[0] is self.__dict__:
            return kept[1]
        case = self._made_case()
        object.__setattr__(self, "_made", (self.__dict__, case))
        return case

    def keep_case(self, case: TestCase) -> None:
        """Take ``case``, the one this record was made from, as :meth:`test_case`'s: the run
        that drew it folds its answers without making it again from the record (the same
        values: the record holds the case's). A program's task, whose suite the record does
        not keep, or another case, is not taken."""
        if (
            type(case) is TestCase
            and case.id == self.case_id
            and (case.tier, case.index, case.size) == (self.tier, self.index, self.size)
        ):
            object.__setattr__(self, "_made", (self.__dict__, case))

    def _made_case(self) -> TestCase:
        if self.tier == PROGRAM_TIER or self.is_program:
            return ProgramTask(
                id=self.case_id,
                scaffold=self.scaffold,
                tier="standard",
                index=self.index,
                input=self.input,
                expected=self.expected,
            )
        return TestCase(
            id=self.case_id,
            scaffold=self.scaffold,
            tier=self.tier,
            index=self.index,
            input=self.input,
            expected=self.expected,
            size=self.size,
        )

    def to_line(self) -> str:
        """The record as one JSON line (``schema`` is the field's name on disk): the line of
        :meth:`dumped_line`, written without pydantic's JSON conversion wherever that
        conversion changes nothing (a record of plain JSON data: every record the harness
        makes but a code-mode program's)."""
        if self.program is None:
            values = self.__dict__
            data = {"schema": self.schema_version}
            for name in _LINE_FIELDS:
                data[name] = values[name]
            try:
                line = _LINE_JSON(data)
            except (TypeError, ValueError, RecursionError):
                pass  # a value JSON has no spelling for (NaN, a set): pydantic's conversion
            else:
                # A key ``None`` (pydantic writes "None", json "null") and a key with a lone
                # surrogate (pydantic refuses it) show in the line as these; either is left
                # to pydantic (so is any text that merely looks like them).
                if _NONE_KEY not in line and _SURROGATE not in line:
                    return line + "\n"
        return self.dumped_line()

    def dumped_line(self) -> str:
        """The record as one JSON line through pydantic's JSON conversion (NaN written as
        ``null``, a set as a list): what :meth:`to_line` writes, by the shorter way where
        it can."""
        data = self.model_dump(mode="json")
        data = {"schema": data.pop("schema_version"), **data}
        # ASCII escapes: any model text, lone surrogates included, survives the round trip.
        return _LINE_JSON(data) + "\n"

    @classmethod
    def from_line(cls, line: str, where: str | None = None) -> AttemptRecord:
        """Read a line written by :meth:`to_line` (bounded in depth, as any stored JSON):
        :class:`~verification.errors.StoredFileError` or :class:`ValueError` when it is no
        JSON object, :class:`pydantic.ValidationError` when the object is no record, and
        :class:`RecordMismatch` when the record's fields disagree (see
        :meth:`check_case_id`). ``where`` names the line in later messages."""
        data = parse_stored_json(line, where=where or "the line")
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        data["schema_version"] = data.pop("schema", JOURNAL_SCHEMA)
        record = cls.model_validate(data)
        record.check_case_id()
        if where is not None:
            object.__setattr__(record, "_where", where)
        return record

    def check_case_id(self) -> None:
        """:class:`RecordMismatch` when the case id names another scaffold, tier, index or
        size than the record's own fields (a hand edit, or lines of two runs mixed): such
        a line answers no case for sure. An id of another form is left to the plan."""
        key = parse_case_id(self.case_id)
        program = parse_program_id(self.case_id)
        said: dict[str, object] = {
            "scaffold": self.scaffold,
            "tier": self.tier,
            "index": self.index,
        }
        named: dict[str, object]
        if program is not None:  # a code-mode program's line: of no tier but its own
            named = {"scaffold": program[0], "tier": PROGRAM_TIER, "index": program[1]}
        elif key is None:
            return
        else:
            named = {"scaffold": key.scaffold, "tier": key.tier, "index": key.index}
        if key is not None and key.size is not None and self.size is not None:
            said["size"], named["size"] = self.size, key.size
        for field, value in said.items():
            if named[field] != value:
                raise RecordMismatch(
                    f"its case {self.case_id} is of {field} {named[field]!r}, the line says "
                    f"'{printable(str(value), 80)}'"
                )


_LINE_FIELDS = tuple(name for name in AttemptRecord.model_fields if name != "schema_version")
"""A journal line's fields after ``schema``, in the order pydantic dumps them."""
_WHERE = "where the record was read"
"""The key of :attr:`AttemptRecord.line`'s place in a pickled record's state."""


def _keep_where(copied: AttemptRecord, record: AttemptRecord) -> None:
    """A copy of a record read from a journal was read there too."""
    where = getattr(record, "_where", None)
    if where is not None:
        object.__setattr__(copied, "_where", where)


_NONE_KEY = '"null": '
_SURROGATE = "\\ud"


_SURROGATES = re.compile("[\ud800-\udfff]")


def _pairs_joined(text: str) -> str:
    """``text`` with each high and low surrogate side by side made the one character they
    encode, as the journal's JSON gives it back (a reply joined from parts that split an
    emoji between them had two characters where its journal line had one; hunt ll 1)."""
    if text.isascii() or not _SURROGATES.search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _code_units(text: str) -> str:
    """``text`` with every character past U+FFFF split into its two surrogates: the form
    a journal line written before :func:`_pairs_joined` may have been measured in."""
    data = text.encode("utf-16-le", "surrogatepass")
    return "".join(map(chr, struct.unpack(f"<{len(data) // 2}H", data)))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def cap_response(text: str | None) -> tuple[str | None, int, str | None]:
    """The response as journalled (first MiB), its full length, and its sha256, each of
    it as the journal gives it back (surrogate pairs joined)."""
    if text is None:
        return None, 0, None
    text = _pairs_joined(text)
    return text[:MAX_RAW_RESPONSE_CHARS], len(text), _digest(text)
