"""Which cases a new run asks when the user picks them: by name (``-k EXPR``) or as the
failures of an earlier run (``--rerun-failed RUN_ID``).

``-k`` reads pytest's ``-k`` grammar and matches as pytest does: a word matches a case whose
id holds it (case-insensitively), and ``and``, ``or``, ``not`` and parentheses combine words
(``not`` binds tightest, then ``and``, then ``or``)::

    expression := or_expr
    or_expr    := and_expr ("or" and_expr)*
    and_expr   := not_expr ("and" not_expr)*
    not_expr   := "not" not_expr | "(" or_expr ")" | word

The expression is parsed into a tree of closures by a small recursive-descent parser: it is
never evaluated as Python, so what the user types can only ever select cases.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import partial

from verification.cases import TIERS, Tier, parse_case_id, printable
from verification.catalog import Catalog, default_catalog
from verification.certify.answers import check_journal
from verification.config import RunConfig
from verification.errors import ConfigurationError
from verification.run.case_plan import packaged
from verification.run.plan import new_planned, resumed_seed
from verification.store.journal import read_journal
from verification.store.locks import check_not_in_use
from verification.store.manifests import RunManifest
from verification.store.paths import RunPaths
from verification.store.records import AttemptRecord

__all__ = [
    "MAX_NESTING",
    "Matcher",
    "check_rerun_seed",
    "failed_case_ids",
    "keyword_case_ids",
    "parse_keyword",
    "rerun_case_ids",
    "rerun_seed",
]

Matcher = Callable[[str], bool]
"""Whether a case id is selected."""

_TOKEN = re.compile(r"\s*(?:(?P<paren>[()])|(?P<word>[\w:+\-.\[\]\\/]+)|(?P<other>\S))")
_KEYWORDS = {"and", "or", "not"}
MAX_NESTING = 100
"""Parentheses and ``not`` nested at most this deep: the parser and the matcher it builds
recurse once per level, and Python's stack is finite (a few hundred levels crashed)."""


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[str] = []
        for match in _TOKEN.finditer(text):
            if match.group("other") is not None:
                self._fail(f"{match.group('other')!r} is no part of a -k expression")
            token = match.group("paren") or match.group("word")
            if token:
                self.tokens.append(token)
        self.position = 0
        self.depth = 0

    def _fail(self, why: str) -> None:
        raise ConfigurationError(
            f"bad -k expression '{printable(self.text, 120)}': {why} (words joined by and, "
            "or, not and parentheses, as pytest's -k)"
        )

    def _peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def _next(self) -> str | None:
        token = self._peek()
        self.position += 1
        return token

    def parse(self) -> Matcher:
        if not self.tokens:
            self._fail("it is empty")
        matcher = self._or()
        if self._peek() is not None:
            self._fail(f"unexpected {self._peek()!r}")
        return matcher

    def _or(self) -> Matcher:
        parts = [self._and()]
        while self._peek() == "or":
            self._next()
            parts.append(self._and())
        return parts[0] if len(parts) == 1 else lambda case: any(p(case) for p in parts)

    def _and(self) -> Matcher:
        parts = [self._not()]
        while self._peek() == "and":
            self._next()
            parts.append(self._not())
        return parts[0] if len(parts) == 1 else lambda case: all(p(case) for p in parts)

    def _not(self) -> Matcher:
        token = self._next()
        if token in ("not", "("):
            self.depth += 1
            if self.depth > MAX_NESTING:
                self._fail(f"it nests 'not' and '(' deeper than {MAX_NESTING} levels")
        if token == "not":
            inner = self._not()
            self.depth -= 1
            return lambda case: not inner(case)
        if token == "(":
            inner = self._or()
            if self._next() != ")":
                self._fail("a '(' is never closed")
            self.depth -= 1
            return inner
        if token is None:
            self._fail("it ends where a word was expected")
        if token in _KEYWORDS or token == ")":
            self._fail(f"{token!r} where a word was expected")
        word = str(token).lower()
        return lambda case: word in case.lower()


def parse_keyword(text: str) -> Matcher:
    """The matcher of ``-k`` expression ``text``; a :class:`ConfigurationError` naming what
    is wrong when it is not one."""
    return _Parser(text).parse()


def keyword_case_ids(
    settings: RunConfig,
    scaffold_names: Sequence[str],
    expression: str,
    *,
    catalog: Catalog,
    tiers: Sequence[Tier] = TIERS,
    case_ids: Sequence[str] = (),
    size: int | None = None,
) -> tuple[list[str], list[str]]:
    """The scaffolds and case ids ``expression`` selects among the cases a new run of these
    options would plan (or among ``case_ids`` when given). Where it selects every planned
    case of each scaffold it selects (``-k dijkstra``), the ids are empty: those scaffolds
    are run as if named, under the level's own plan, not as chosen cases. None selected is
    an error naming how many there were."""
    matches = parse_keyword(expression)
    if case_ids:
        planned = {"": list(case_ids)}
    else:
        # Ids only: the package's cases need not be drawn to be chosen by id.
        lazily = partial(packaged, catalog)
        cases = new_planned(
            settings, scaffold_names, catalog=catalog, tiers=tiers, size=size, lazily=lazily
        )
        planned = {name: [case.id for case in chosen] for name, chosen in cases.items()}
    chosen = {name: [i for i in ids if matches(i)] for name, ids in planned.items()}
    selected = [i for ids in chosen.values() for i in ids]
    if not selected:
        candidates = [i for ids in planned.values() for i in ids]
        raise ConfigurationError(
            f"-k {expression!r} selects none of the {len(candidates)} cases planned "
            f"(ids such as {candidates[0] if candidates else 'kmp-simple-000'})"
        )
    whole = not case_ids and all(
        len(ids) == len(planned[name]) for name, ids in chosen.items() if ids
    )
    return [name for name, ids in chosen.items() if ids], [] if whole else selected


def failed_case_ids(records: Iterable[AttemptRecord]) -> list[str]:
    """The cases of a run's journal that failed or errored: those where a sample's last
    answer did not pass (a truncation, a refusal, an infrastructure error too), in the
    journal's order. A code-mode program is no case to ask again."""
    last: dict[tuple[str, int], AttemptRecord] = {}
    for record in records:
        last[(record.case_id, record.epoch)] = record  # later lines answer later
    failed = [key[0] for key, record in last.items() if record.outcome != "passed"]
    return [i for i in dict.fromkeys(failed) if parse_case_id(i) is not None]


def rerun_seed(manifest: RunManifest, given: int | None) -> int | None:
    """The seed a rerun of ``manifest``'s failures is drawn with (case ids name cases of
    one seed): its own unless private (then ``VERIFY_CERT_SEED`` must be given again, and
    :func:`check_rerun_seed` says so). A ``given`` seed that differs is refused."""
    if manifest.seed_private:
        return given
    if given is not None and given != manifest.seed:
        raise ConfigurationError(
            f"--rerun-failed {manifest.run_id} asks that run's cases, drawn from its seed "
            f"{manifest.seed}, and --seed {given} says otherwise: leave it out"
        )
    return manifest.seed


def check_rerun_seed(manifest: RunManifest, settings: RunConfig) -> None:
    """Refuse a rerun whose settings would draw other cases under the same ids."""
    if resumed_seed(manifest, settings) != settings.case_seed:
        raise ConfigurationError(
            f"--rerun-failed {manifest.run_id} asks that run's cases, and this "
            "configuration draws its cases from another seed (VERIFY_CERT_SEED, --mode): "
            "give the run's own"
        )


def rerun_case_ids(settings: RunConfig, run_id: str) -> list[str]:
    """The ids of run ``run_id``'s failed or errored cases (:func:`failed_case_ids`), once
    ``settings`` draw them as that run did."""
    paths = RunPaths(settings.results_dir, run_id)
    manifest = paths.read_manifest()
    if manifest.settings.get("answer") == "code":
        # Its programs are no cases: "no failed case" said of a run whose programs all
        # failed read as if nothing had (a helper's hunt).
        raise ConfigurationError(
            f"--rerun-failed {run_id}: a code-mode run's programs are not asked again by id "
            "(each program runs on the whole suite): start a new run with --answer code"
        )
    check_rerun_seed(manifest, settings)
    # A run still being asked has failed only some of what it will: rerun once it ends.
    check_not_in_use(paths.run_dir, run_id, then="rerun its failures")
    journal = read_journal(paths.journal)
    # As `report` reads it: no failures of a refused one.
    check_journal(manifest, journal, default_catalog())
    return failed_case_ids(journal)
