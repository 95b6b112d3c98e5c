"""Trie insert, search and prefix queries: the ``trie`` scaffold."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pydantic import NonNegativeInt

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.string_algo import random_word
from verification.reference.string_algo import trie_operations
from verification.validators.exact_match import ExactMatchValidator

__all__ = ["EDGE_KINDS_TRIE", "SPEC", "TrieAnswer", "generate_trie", "operation_count"]


class TrieAnswer(AnswerSchema):
    """``{"results": [bool | int, ...], "node_count": int}``: one result per operation."""

    results: list[bool | NonNegativeInt]
    node_count: NonNegativeInt


EDGE_KINDS_TRIE = ("prefix_words", "absent_prefixes", "duplicates", "empty_trie_queries")
"""The degenerate trie instances the edge tier draws from."""

_QUERIES = ("search", "starts_with", "count_prefix")
_MAX_TRIES = 2000

Operation = list[str]


def _word(rng: random.Random, alphabet: str, low: int = 1, high: int = 4) -> str:
    return random_word(rng, alphabet, rng.randint(low, high))


def _prefix_family(rng: random.Random, alphabet: str) -> list[str]:
    """Words that are prefixes of each other (``ab``, ``abc``, ``abca``) and a sibling."""
    stem = _word(rng, alphabet, 1, 2)
    longer = stem + _word(rng, alphabet, 1, 2)
    longest = longer + _word(rng, alphabet, 1, 1)
    sibling = stem + _word(rng, alphabet, 1, 2)
    return [stem, longer, longest, sibling]


def _query(
    rng: random.Random, words: Sequence[str], alphabet: str, kinds: Sequence[str]
) -> Operation:
    """A query on an inserted word, a proper prefix of one, an extension or a stranger."""
    word = rng.choice(words)
    choice = rng.randrange(4)
    if choice == 0:
        target = word
    elif choice == 1 and len(word) > 1:
        target = word[: rng.randint(1, len(word) - 1)]
    elif choice == 2:
        target = word + _word(rng, alphabet, 1, 1)
    else:
        target = _word(rng, alphabet + "d", 1, 3)
    return [rng.choice(list(kinds)), target]


def _interleaved(
    rng: random.Random, size: int, words: Sequence[str], alphabet: str, kinds: Sequence[str]
) -> list[Operation]:
    """Inserts of ``words`` (in order) spread over the first two thirds, queries between
    and after them; ``size`` operations in all, the first an insert, the last a query."""
    inserts = min(len(words), max(1, size // 2))
    # Inserts lean early and the last operation is a query, so no insert goes unasked.
    early = range(1, max(2, (2 * size) // 3))
    slots = rng.sample(early, min(inserts - 1, len(early))) if inserts > 1 else []
    at = {0, *slots}
    operations: list[Operation] = []
    pending = list(words[:inserts])
    inserted: list[str] = []
    for index in range(size):
        if index in at and pending:
            word = pending.pop(0)
            inserted.append(word)
            operations.append(["insert", word])
        else:
            operations.append(_query(rng, inserted, alphabet, kinds))
    return operations


def _varied(
    answer: Mapping[str, Any], operations: Sequence[Operation], kinds: Sequence[str]
) -> bool:
    """Both outcomes of each of ``kinds`` that is asked appear among the results."""
    seen = {(op, result) for (op, _), result in zip(operations, answer["results"], strict=True)}
    needed = {op for op, _ in operations if op in kinds}
    return all((op, True) in seen and (op, False) in seen for op in needed)


def _regular(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    simple = tier == "simple"
    alphabet = "ab" if simple else "abc"
    kinds = ("search", "starts_with") if simple else _QUERIES
    for _ in range(_MAX_TRIES):
        words: list[str] = []
        while len(words) < size:
            if not simple and rng.random() < 0.3:
                words += _prefix_family(rng, alphabet)
            else:
                words.append(_word(rng, alphabet, 2, 4))
        words = list(dict.fromkeys(words))  # distinct, first occurrence kept
        operations = _interleaved(rng, size, words, alphabet, kinds)
        asked = {op for op, _ in operations}
        # Simple: both answers of each query kind asked. Standard: every query kind asked,
        # and search answered both ways (a prefix that is not a word is its classic slip).
        varied = ("search", "starts_with") if simple else ("search",)
        answer = trie_operations(operations)
        if _varied(answer, operations, varied) and (simple or asked >= set(kinds)):
            return {"operations": operations}
    raise RuntimeError(f"could not draw a {tier} trie instance of size {size}")


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kind = rng.choice(EDGE_KINDS_TRIE)
    alphabet = "abc"
    if kind == "prefix_words":
        # Search a prefix before and after it is inserted itself.
        family = _prefix_family(rng, alphabet)
        stem = family[0]
        operations = [["insert", family[2]], ["search", stem], ["starts_with", stem]]
        operations += [["insert", stem], ["search", stem], ["count_prefix", stem]]
        operations += [["insert", family[1]], ["search", family[1][:-1] or stem]]
    elif kind == "absent_prefixes":
        words = _prefix_family(rng, alphabet)[:2]
        operations = [["insert", w] for w in words]
        operations += [["starts_with", "d"], ["count_prefix", "d" + words[0]]]
        operations += [["search", words[1] + "a"], ["starts_with", words[1] + "b"]]
        operations += [["count_prefix", words[0]]]
    elif kind == "duplicates":
        word = _word(rng, alphabet, 2, 3)
        operations = [["insert", word], ["insert", word], ["count_prefix", word[0]]]
        operations += [["insert", word[:1]], ["insert", word[:1]], ["count_prefix", word[0]]]
        operations += [["search", word]]
    else:
        word = _word(rng, alphabet, 2, 3)
        operations = [["search", word], ["starts_with", word[0]], ["count_prefix", word[0]]]
        operations += [["insert", word], ["starts_with", word[0]], ["search", word[0]]]
    # Pad or cut to the asked size: an edge case's point is its first operations.
    while len(operations) < size:
        operations.append(
            _query(rng, [w for op, w in operations if op == "insert"] or ["a"], alphabet, _QUERIES)
        )
    return {"operations": operations[:size]}


def generate_trie(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """A trie input ``{"operations": [[operation, word], ...]}`` of ``size`` operations on
    lower-case words, starting from an empty trie.

    ``simple``: words of 2-4 letters over "ab", inserts and ``search`` / ``starts_with``
    queries, each query kind asked answered both true and false. ``standard``: words over
    "abc", among them families that are prefixes of each other, all four operations (every
    query kind at least once, ``search`` answered both true and false), interleaved. Both
    start with an insert and end with a query.
    ``edge``: one of :data:`EDGE_KINDS_TRIE` (prefix words searched before and after their
    own insert, absent prefixes and extensions, duplicate inserts, queries on an empty
    trie), padded with queries or cut to ``size``.
    """
    least = {"simple": 4, "standard": 8}.get(tier, 1)
    if size < least:
        raise ValueError(f"{tier} trie needs at least {least} operations, got {size}")
    if tier in ("simple", "standard"):
        return _regular(rng, tier, size)
    if tier == "edge":
        return _edge(rng, size)
    raise ValueError(f"unknown tier {tier!r}")


def operation_count(test_input: Mapping[str, Any]) -> int:
    """A trie input's size: its number of operations."""
    return len(test_input["operations"])


def _sloppy(operations: Sequence[Operation], slip: str) -> dict[str, Any]:
    """The answer a classic slip gives: ``search`` answered as a prefix test, duplicates
    inserted (and counted) again, or nodes counted per word without sharing."""
    words: list[str] = []
    results: list[bool | int] = []
    for op, word in operations:
        if op == "insert":
            results.append(slip == "duplicates" or word not in words)
            if slip == "duplicates" or word not in words:
                words.append(word)
        elif op == "search":
            if slip == "search_as_prefix":
                results.append(any(w.startswith(word) for w in words))
            else:
                results.append(word in words)
        elif op == "starts_with":
            results.append(any(w.startswith(word) for w in words))
        else:
            results.append(sum(w.startswith(word) for w in words))
    prefixes = {w[:i] for w in words for i in range(1, len(w) + 1)}
    nodes = sum(len(w) for w in set(words)) if slip == "no_sharing" else len(prefixes)
    return {"results": results, "node_count": nodes}


@LazyHook
def trie_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """A flipped boolean, a count one off, the node count one off, and the answers of the
    slips in :func:`_sloppy`."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    results: list[bool | int] = case.expected["results"]
    nodes: int = case.expected["node_count"]
    operations = case.input["operations"]
    for slip in ("search_as_prefix", "duplicates", "no_sharing"):
        yield _sloppy(operations, slip)
    yield {"results": results, "node_count": nodes + 1}
    if nodes > 0:
        yield {"results": results, "node_count": nodes - 1}
    indices = list(range(len(results)))
    rng.shuffle(indices)
    for index in indices[:3]:
        value = results[index]
        changed: bool | int = not value if isinstance(value, bool) else value + 1
        yield {**case.expected, "results": [*results[:index], changed, *results[index + 1 :]]}
    if results:
        yield {**case.expected, "results": results[:-1]}


SPEC = ScaffoldSpec(
    name="trie",
    category="string",
    title="Trie operations",
    graded_conventions={
        "in order": "each seeing only the inserts before it",
        "node count": "the root not counted",
    },
    description="insert, search and prefix queries on a trie, with its node count",
    reference=trie_operations,
    generator=generate_trie,
    answer_schema=TrieAnswer,
    validator=ExactMatchValidator(),
    sizes={"simple": 6, "standard": 14, "edge": 8},
    size=SizeAxis(
        unit="operations",
        measure=operation_count,
        ranges={"simple": (4, 12), "standard": (8, 24), "edge": (1, 24)},
        stress=(25, 96),
    ),
    mutants=trie_mutants,
    max_output_tokens=6144,
    # The work is a table row per operation: 500 tokens at 24, 1,923 at 96 (python
    # benchmarks/stress_budgets.py trie). The flat budget holds the standard maximum; each size
    # past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=30.9, base=5402),
    code_sizes=(48, 100, 300, 1000),
)
