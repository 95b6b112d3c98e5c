"""The core types every layer shares: tiers, test cases, case ids and seeding, and text from
outside made safe to print (:func:`printable`).

This module imports nothing else of the package, so any layer may use it.

Case ``k`` of a tier at the tier's default size is drawn from
``random.Random(f"{seed}:{scaffold}:{tier}:{k}")`` and its id is ``{scaffold}-{tier}-{k:03d}``.
At another size ``s`` the seed string is ``{seed}:{scaffold}:{tier}:s{s}:{k}`` and the id
``{scaffold}-{tier}-s{s}-{k:03d}``, so journals, resume, replay, caches and batch ids never
confuse two sizes. The same seed gives the same cases on every machine, whatever ``--cases``
is.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable, Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeAlias, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = [
    "DEFAULT_SEED",
    "PROGRAM_ID_FORMAT",
    "SCAFFOLD_NAME_FORMAT",
    "TIERS",
    "CaseKey",
    "CaseRandom",
    "CaseSource",
    "Planned",
    "PlannedCase",
    "ProgramTask",
    "TestCase",
    "TestSuite",
    "Tier",
    "case_id",
    "case_rng",
    "drawn",
    "generate_case",
    "is_scaffold_name",
    "parse_case_id",
    "parse_program_id",
    "printable",
    "program_id",
    "to_json_data",
]

Tier = Literal["simple", "standard", "edge"]
TIERS: tuple[Tier, ...] = ("simple", "standard", "edge")

DEFAULT_SEED = 20261122
"""The suite seed when none is given."""

SCAFFOLD_NAME_FORMAT = "[a-z][a-z0-9_]*"
"""What a scaffold name is: ASCII lower-case letters, digits and ``_``, a letter first. It
names files, case ids and report paths, so nothing else is allowed."""
_SCAFFOLD_NAME = re.compile(SCAFFOLD_NAME_FORMAT)
_CASE_ID = re.compile(
    rf"^(?P<scaffold>{SCAFFOLD_NAME_FORMAT})-(?P<tier>simple|standard|edge)"
    r"(?:-s(?P<size>\d{1,6}))?-(?P<index>\d{1,9})$"
)
CASE_ID_FORMAT = "<scaffold>-<tier>-<NNN> or <scaffold>-<tier>-s<size>-<NNN>"
_PROGRAM_ID = re.compile(rf"^(?P<scaffold>{SCAFFOLD_NAME_FORMAT})-program-(?P<index>\d{{1,9}})$")
PROGRAM_ID_FORMAT = "<scaffold>-program-<NNN>"
"""The request id of a code-mode program (``dijkstra-program-000``): one request, run on the
whole case suite, not a case of a tier."""


@dataclass(frozen=True)
class CaseKey:
    """What a case id names: a scaffold, a tier, a size (``None``: the tier's default) and
    an index."""

    scaffold: str
    tier: Tier
    index: int
    size: int | None = None


def is_scaffold_name(text: object) -> bool:
    """Whether ``text`` is a scaffold name (see :data:`SCAFFOLD_NAME_FORMAT`; at most 100
    characters)."""
    return isinstance(text, str) and len(text) <= 100 and bool(_SCAFFOLD_NAME.fullmatch(text))


def case_id(scaffold: str, tier: str, index: int, size: int | None = None) -> str:
    """The stable id of case ``index`` of ``tier`` (at ``size``, when not the default)."""
    if size is None:
        return f"{scaffold}-{tier}-{index:03d}"
    return f"{scaffold}-{tier}-s{size}-{index:03d}"


def parse_case_id(text: str) -> CaseKey | None:
    """The parts of a case id, or ``None`` when ``text`` is not one (see
    :data:`CASE_ID_FORMAT`)."""
    match = _CASE_ID.match(text)
    if match is None:
        return None
    size = match["size"]
    return CaseKey(
        scaffold=match["scaffold"],
        tier=cast(Tier, match["tier"]),
        index=int(match["index"]),
        size=None if size is None else int(size),
    )


def program_id(scaffold: str, index: int) -> str:
    """The request id of program ``index`` of ``scaffold`` in code mode."""
    return f"{scaffold}-program-{index:03d}"


def parse_program_id(text: str) -> tuple[str, int] | None:
    """The scaffold and index a program id names, or ``None`` when ``text`` is not one
    (see :data:`PROGRAM_ID_FORMAT`)."""
    match = _PROGRAM_ID.match(text)
    return None if match is None else (match["scaffold"], int(match["index"]))


_T = TypeVar("_T")
_SEQUENCES = frozenset({list, tuple, range, str})
_T_co = TypeVar("_T_co", covariant=True)


class _Indexable(Protocol[_T_co]):
    """What :meth:`CaseRandom.choice` takes, as :meth:`random.Random.choice` does."""

    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> _T_co: ...


class CaseRandom(random.Random):
    """:class:`random.Random` whose ``randint``, ``randrange`` (step 1), ``choice``,
    ``sample`` and ``shuffle`` give the same numbers from the same ``getrandbits`` calls,
    in one call instead of three or four (``randint`` calls ``randrange``, which checks
    its arguments and calls ``_randbelow``).

    Generators draw thousands of numbers per case, most of them by ``randint``,
    ``choice`` and ``sample``: the layers of calls were much of their cost. Anything but
    plain ``int`` arguments, and every error, is left to :class:`random.Random` itself.
    """

    def randint(self, a: int, b: int) -> int:
        """:meth:`random.Random.randint`, which is ``randrange(a, b + 1)``."""
        if type(a) is int and type(b) is int:
            return self.randrange(a, b + 1)
        return super().randint(a, b)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """:meth:`random.Random.randrange`."""
        if type(start) is int and type(step) is int and step == 1:
            if stop is None:
                low, n = 0, start
            elif type(stop) is int:
                low, n = start, stop - start
            else:
                return super().randrange(start, stop, step)
            if n > 0:
                bits = n.bit_length()
                getrandbits = self.getrandbits
                r = getrandbits(bits)
                while r >= n:
                    r = getrandbits(bits)
                return low + r
        return super().randrange(start, stop, step)

    def choice(self, seq: _Indexable[_T]) -> _T:
        """:meth:`random.Random.choice`."""
        n = len(seq)
        if not n:
            return super().choice(seq)  # its error
        bits = n.bit_length()
        getrandbits = self.getrandbits
        r = getrandbits(bits)
        while r >= n:
            r = getrandbits(bits)
        return seq[r]

    def sample(
        self, population: Sequence[_T], k: int, *, counts: Iterable[int] | None = None
    ) -> list[_T]:
        """:meth:`random.Random.sample`: its two ways (a pool for a population not much
        larger than ``k``, else redrawing an index already taken) with ``_randbelow``
        inline, and a list, tuple, range or str taken for a sequence without asking the
        ABC."""
        if counts is not None or type(k) is not int:
            return super().sample(population, k, counts=counts)
        if type(population) not in _SEQUENCES and not isinstance(population, Sequence):
            return super().sample(population, k)  # its error
        n = len(population)
        if not 0 <= k <= n:
            return super().sample(population, k)  # its error
        result: list[Any] = [None] * k
        setsize = 21  # as random.Random.sample decides between its two ways
        if k > 5:
            setsize += 4 ** math.ceil(math.log(k * 3, 4))
        getrandbits = self.getrandbits
        if n <= setsize:
            pool = list(population)
            for i in range(k):
                left = n - i
                bits = left.bit_length()
                j = getrandbits(bits)
                while j >= left:
                    j = getrandbits(bits)
                result[i] = pool[j]
                pool[j] = pool[left - 1]
        else:
            selected: set[int] = set()
            bits = n.bit_length()
            for i in range(k):
                j = getrandbits(bits)
                while j >= n or j in selected:  # out of range, or taken: drawn again
                    j = getrandbits(bits)
                selected.add(j)
                result[i] = population[j]
        return result

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """:meth:`random.Random.shuffle`."""
        getrandbits = self.getrandbits
        for i in reversed(range(1, len(x))):
            n = i + 1
            bits = n.bit_length()
            j = getrandbits(bits)
            while j >= n:
                j = getrandbits(bits)
            x[i], x[j] = x[j], x[i]


def case_rng(
    seed: int, scaffold: str, tier: str, index: int, size: int | None = None
) -> random.Random:
    """The random source of one case (a :class:`CaseRandom`); a string seed hashes the same
    on every machine."""
    if size is None:
        return CaseRandom(f"{seed}:{scaffold}:{tier}:{index}")
    return CaseRandom(f"{seed}:{scaffold}:{tier}:s{size}:{index}")


_TO_JSON = json.JSONEncoder(allow_nan=False)
"""``json.dumps(value, allow_nan=False)`` builds this encoder per call; made once, it
writes the same text (twice per case drawn)."""


class _NotPlain(Exception):
    """A value :func:`_plain` leaves to the JSON round trip."""


_PLAIN_DEPTH = 64
"""How deep :func:`_plain` copies before it leaves a value to the JSON round trip: a case is
a few levels deep; a circular or very deep value (an error or a RecursionError of the
encoder) gets the round trip's own error."""


_SHORT_INT = 1 << 1900
"""Integers strictly between minus this and this have at most 572 digits, fewer than any
limit ``sys.set_int_max_str_digits`` accepts (640 at least): JSON writes them whatever the
limit. A longer one is left to the round trip, which refuses it past the limit."""


def _plain(value: Any, depth: int) -> Any:
    """``json.loads(json.dumps(value))`` for the plain data cases are made of (dicts with
    ``str`` keys, lists, tuples, ``str``, ``int`` short of :data:`_SHORT_INT`, ``bool``,
    ``None`` and finite ``float``, exactly those types): new dicts and lists, the same
    scalars, which is what the round trip gives them (a finite double's repr reads back as
    itself). Anything else raises :class:`_NotPlain`."""
    kind = type(value)
    if depth > _PLAIN_DEPTH:
        raise _NotPlain
    if kind is list or kind is tuple:
        items = []
        for item in value:
            of = type(item)
            short = of is str or of is bool or (of is int and -_SHORT_INT < item < _SHORT_INT)
            items.append(item if short else _plain(item, depth + 1))
        return items
    if kind is dict:
        fields = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            of = type(item)
            short = of is str or of is bool or (of is int and -_SHORT_INT < item < _SHORT_INT)
            fields[key] = item if short else _plain(item, depth + 1)
        return fields
    if kind is float:
        if math.isfinite(value):
            return value
        raise _NotPlain
    if kind is str or kind is bool or value is None:
        return value
    if kind is int and -_SHORT_INT < value < _SHORT_INT:
        return value
    raise _NotPlain


def to_json_data(value: Any) -> Any:
    """Round-trip through JSON: tuples become lists, and NaN or infinity is an error."""
    # Plain data is copied by a walk, about a third of the round trip's time on a case's
    # input or answer (twice per case drawn); anything else (NaN, a set, a key that is no
    # str, a subclass, a deep or circular value) takes the round trip, and its errors.
    try:
        return _plain(value, 0)
    except _NotPlain:
        pass
    return json.loads(_TO_JSON.encode(value))


class TestCase(BaseModel):
    """One input for one scaffold with its ground truth."""

    __test__ = False  # not a pytest test class
    model_config = ConfigDict(frozen=True)

    id: str
    """``{scaffold}-{tier}-{index:03d}`` (or with ``-s{size}``); also a batch ``custom_id``."""
    scaffold: str
    tier: Tier
    index: int
    """``k``; taken from the id when not given."""
    input: dict[str, Any]
    """Plain JSON data; ``reference(**input)`` computes ``expected``."""
    expected: dict[str, Any]
    """The reference's answer: one right answer among possibly several."""
    size: int | None = None
    """The size the generator was asked for (``None`` when not recorded)."""

    @model_validator(mode="before")
    @classmethod
    def _index_from_id(cls, data: Any) -> Any:
        if isinstance(data, dict) and "index" not in data and isinstance(data.get("id"), str):
            key = parse_case_id(data["id"])
            if key is not None:
                index = key.index
            else:  # a hand-made id such as "dijkstra_simple_01": its trailing number
                last = data["id"].replace("_", "-").rsplit("-", 1)[-1]
                index = int(last) if last.isdigit() else 0
            data = {**data, "index": index}
        return data


class ProgramTask(TestCase):
    """One program asked in code mode: its id is a program id, its ``suite`` the cases the
    program is run on (kept out of any serialization: the journal records each case's
    result, not the suite). Its ``tier`` is a placeholder: a program belongs to no tier."""

    suite: tuple[TestCase, ...] = Field(default=(), exclude=True, repr=False)
    reference_seconds: tuple[float, ...] = Field(default=(), exclude=True, repr=False)
    """The reference's seconds on each case of ``suite``, in order (its time limits')."""


class TestSuite(BaseModel):
    """The cases of one scaffold."""

    __test__ = False
    model_config = ConfigDict(frozen=True)

    scaffold: str
    test_cases: list[TestCase]


class PlannedCase:
    """A case a run plans by what identifies it (id, scaffold, tier, index, size), drawn
    the first time its input or answer is needed, when it is about to be asked: a run of
    thousands of cases sends its first request long before its last case is drawn, and
    draws each case once (:attr:`case` keeps it). Two are equal when they name the same
    case drawn from the same seed."""

    __slots__ = ("_case", "_draw", "id", "index", "named_size", "scaffold", "seed", "size", "tier")

    def __init__(
        self,
        identifier: str,
        key: CaseKey,
        size: int,
        draw: Callable[[], TestCase],
        *,
        seed: int,
    ) -> None:
        self.id = identifier
        self.seed = seed
        self.scaffold = key.scaffold
        self.tier: Tier = key.tier
        self.index = key.index
        self.size: int | None = size
        """The size the generator is asked for (the tier's default when the id names none)."""
        self.named_size = key.size
        """The size the id names (``None``: the tier's default), without parsing the id."""
        self._draw = draw
        self._case: TestCase | None = None

    @property
    def is_drawn(self) -> bool:
        """Whether the case has been drawn yet."""
        return self._case is not None

    @property
    def case(self) -> TestCase:
        """The case, drawn on first use (whatever drawing it raises is raised here)."""
        if self._case is None:
            self._case = self._draw()
        return self._case

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlannedCase):
            return NotImplemented
        return (self.id, self.seed) == (other.id, other.seed)

    def __hash__(self) -> int:
        return hash((self.id, self.seed))

    def __repr__(self) -> str:
        return f"PlannedCase({self.id!r}, seed={self.seed}, drawn={self.is_drawn})"


Planned: TypeAlias = TestCase | PlannedCase
"""A planned case: drawn already, or drawn when it is asked."""


def drawn(case: Planned) -> TestCase:
    """``case`` drawn (a :class:`PlannedCase` is drawn now, once)."""
    return case.case if isinstance(case, PlannedCase) else case


class CaseSource(Protocol):
    """What :func:`generate_case` needs of a scaffold's spec."""

    @property
    def name(self) -> str: ...
    @property
    def sizes(self) -> Mapping[Tier, int]: ...
    @property
    def generator(self) -> Callable[[random.Random, Tier, int], dict[str, Any]]: ...
    @property
    def reference(self) -> Callable[..., dict[str, Any]]: ...


def generate_case(
    spec: CaseSource, tier: Tier, index: int, *, seed: int, size: int | None = None
) -> TestCase:
    """Draw case ``index`` of ``tier`` (at ``size``, default: the tier's) and compute its
    ground truth with the reference."""
    default = spec.sizes[tier]
    named_size = None if size is None or size == default else size
    actual_size = default if named_size is None else named_size
    rng = case_rng(seed, spec.name, tier, index, named_size)
    drawn = spec.generator(rng, tier, actual_size)
    test_input = to_json_data(drawn)
    # The reference is handed a copy of its own: one that sorts or edits what it is handed
    # would otherwise change the case's input, and the model be shown it (a hunt's
    # newcomer's reference sorted its array in place: the prompts showed sorted arrays).
    expected = to_json_data(spec.reference(**to_json_data(drawn)))
    return TestCase(
        id=case_id(spec.name, tier, index, named_size),
        scaffold=spec.name,
        tier=tier,
        index=index,
        input=test_input,
        expected=expected,
        size=actual_size,
    )


# Text from outside (a model's reply, a server's model ids, a stored file's names) made safe
# to print in one line of a terminal or a log: every character that is not printable (control
# and terminal escape codes, line breaks, bidirectional overrides, lone surrogates) is written
# as a visible escape, as ``repr`` writes it; nothing is dropped but what a length limit cuts.
def _escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def printable(text: str, limit: int | None = None) -> str:
    """``text`` with each non-printable character escaped (``\\x1b``, ``\\u202e``,
    ``\\ud800``), cut to at most ``limit`` characters (``...`` marking a cut).

    Examples
    --------
    >>> printable("qwen\\x1b[31m-7b\\n")
    'qwen\\\\x1b[31m-7b\\\\x0a'
    >>> printable("größe \\ud800")
    'größe \\\\ud800'
    >>> printable("x" * 10, limit=6)
    'xxx...'
    """
    if limit is not None:
        text = text[: limit + 1]  # escaping only lengthens: no need to look further
    # Most text is printable as it is: one pass in C instead of one call per character (the
    # page of a run escapes every line of every reply).
    shown = (
        text
        if text.isprintable()
        else "".join(char if char.isprintable() else _escape(char) for char in text)
    )
    if limit is not None and len(shown) > limit:
        shown = shown[: max(limit - 3, 0)] + "..."
    return shown
