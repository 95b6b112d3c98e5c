"""Huffman coding: the ``huffman`` scaffold (any prefix-free code of optimal total length)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from itertools import pairwise
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import (
    LazyHook,
    drawing_first,
    each_distinct,
)
from verification.catalog.spec import (
    STRESS_FACTOR,
    AnswerSchema,
    OutputBudget,
    ScaffoldSpec,
    SizeAxis,
)
from verification.generators.graph import vertex_labels
from verification.reference.greedy import huffman_coding
from verification.validators.base import ValidationResult, Validator, pick
from verification.validators.form import FormRule, with_form_rules

__all__ = [
    "HUFFMAN_EDGE_KINDS",
    "LONE_SYMBOL_ZERO",
    "MAX_SYMBOLS",
    "SPEC",
    "HuffmanAnswer",
    "HuffmanValidator",
    "count_symbols",
    "generate_huffman",
    "merge_weights",
    "random_optimal_code",
]

HUFFMAN_EDGE_KINDS = (
    "empty",
    "single",
    "two",
    "equal_frequencies",
    "many_ties",
    "powers_of_two",
    "one_dominant",
)
"""The degenerate instances the edge tier draws from."""

MAX_SYMBOLS = 16
"""The standard tier's largest size."""
MOST_SYMBOLS = STRESS_FACTOR * MAX_SYMBOLS
"""The most symbols the generator draws: the top of the stress range."""
_ATTEMPTS = 2000


class HuffmanAnswer(AnswerSchema):
    """``{"codes": {"A": "0", "B": "10", "C": "11"}, "total_bits": 12}``."""

    codes: dict[str, str]
    total_bits: int


def count_symbols(test_input: Mapping[str, Any]) -> int:
    """A Huffman input's size (``SizeAxis.measure``): its number of symbols."""
    return len(test_input["frequencies"])


def merge_weights(frequencies: Sequence[int]) -> list[tuple[int, int, list[int]]]:
    """Huffman's merges on plain weights: per step, the two weights taken and the weights
    left before it (sorted). Ties need not be broken to know the weights."""
    pool = sorted(frequencies)
    steps = []
    while len(pool) > 1:
        first, second = pool[0], pool[1]
        steps.append((first, second, list(pool)))
        pool = sorted([*pool[2:], first + second])
    return steps


def _without_ties(frequencies: Sequence[int]) -> bool:
    """Every step of Huffman's algorithm sees distinct weights, so each merge is forced."""
    return all(len(set(pool)) == len(pool) for _, _, pool in merge_weights(frequencies))


def _table(frequencies: Sequence[int]) -> dict[str, Any]:
    """Symbols ``A``, ``B``, ..., ``Z``, ``AA``, ``AB``, ... in order, with the frequencies
    as drawn."""
    labels = vertex_labels(len(frequencies), least=0)
    return {"frequencies": dict(zip(labels, frequencies, strict=True))}


def generate_huffman(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """``{"frequencies": {symbol: count}}``: symbols ``A``, ``B``, ... in order, positive
    integer counts.

    ``simple``: ``size`` symbols (3 or more), counts 1..20. ``standard``: ``size`` symbols
    (5 or more), counts 1..40 (past 16 symbols, the stress sizes, both 1..n**2 / 4), and
    the code lengths differ by at least two (the tree is
    lopsided, so a balanced code is not optimal). In both, no two counts are equal and no
    step of the algorithm sees two equal weights, so every merge is forced. ``edge``: at
    most ``size`` symbols, one of :data:`HUFFMAN_EDGE_KINDS` (``equal_frequencies`` and
    ``many_ties`` have ties at many steps; ``single`` gets the code ``"0"``).
    """
    if not 1 <= size <= MOST_SYMBOLS:
        raise ValueError(f"huffman needs 1..{MOST_SYMBOLS} symbols, got {size}")
    if tier == "simple":
        return _untied(rng, max(size, 3), top=20, spread=0)
    if tier == "standard":
        return _untied(rng, max(size, 5), top=40, spread=2)
    return _edge(rng, size)


def _untied(rng: random.Random, n: int, *, top: int, spread: int) -> dict[str, Any]:
    for _ in range(_ATTEMPTS):
        # Past the standard maximum, counts of 1..2n tie at some step almost always: there
        # they are drawn from 1..n**2 / 4 (1,024 at 64 symbols).
        high = max(top, 2 * n) if n <= MAX_SYMBOLS else n * n // 4
        frequencies = rng.sample(range(1, high + 1), n)
        if not _without_ties(frequencies):
            continue
        lengths = [len(c) for c in huffman_coding(**_table(frequencies))["codes"].values()]
        if max(lengths) - min(lengths) >= spread:
            return _table(frequencies)
    raise RuntimeError(f"no untied huffman instance of {n} symbols")


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kinds = [k for k in HUFFMAN_EDGE_KINDS if size >= 3 or k in ("empty", "single", "two")]
    if size < 2:
        kinds.remove("two")
    kind = rng.choice(kinds)
    if kind == "empty":
        return {"frequencies": {}}
    if kind == "single":
        return _table([rng.randint(1, 20)])
    if kind == "two":
        return _table([rng.randint(1, 20), rng.randint(1, 20)])
    n = rng.randint(3, size)
    if kind == "equal_frequencies":
        return _table([rng.randint(1, 9)] * n)
    if kind == "many_ties":
        return _table([rng.randint(1, 3) for _ in range(n)])
    if kind == "powers_of_two":
        # 1, 1, 2, 4, ...: each merge joins the previous one, the deepest tree there is.
        n = min(n, 8)
        weights = [1] + [2**k for k in range(n - 1)]
        rng.shuffle(weights)
        return _table(weights)
    others = [rng.randint(1, 6) for _ in range(n - 1)]
    dominant = sum(others) + rng.randint(1, 10)
    weights = [*others, dominant]
    rng.shuffle(weights)
    return _table(weights)


def _prefix_clash(codes: Sequence[str]) -> tuple[str, str] | None:
    """Two codewords one of which starts the other (or two equal ones), if any: in sorted
    order such a pair always has a neighbouring pair of the same kind."""
    for first, second in pairwise(sorted(codes)):
        if second.startswith(first):
            return first, second
    return None


class HuffmanValidator(Validator):
    """Any prefix-free binary code of optimal total length, checked against the input.

    With ``case``: ``codes`` has exactly the input's symbols as keys, each codeword a
    non-empty string of ``0`` and ``1``, none a prefix of another (nor equal); ``total_bits``
    is the sum of frequency times codeword length, and that is the optimum
    ``expected["total_bits"]``. So any tie-break or branch labelling is accepted; a lone
    symbol, with no branch to label, gets ``"0"`` as the scaffold says. Without ``case``:
    the same codes as ``expected``.
    """

    kind = "prefix_code"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        codes, total = pick(actual, "codes"), pick(actual, "total_bits")
        optimum = pick(expected, "total_bits")
        if not isinstance(codes, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in codes.items()
        ):
            return ValidationResult(False, "codes must map each symbol to a string of bits")
        if isinstance(total, bool) or not isinstance(total, int):
            return ValidationResult(False, f"total_bits must be an integer, got {total!r:.40}")
        for symbol, code in codes.items():
            if not code or set(code) - {"0", "1"}:
                return ValidationResult(
                    False, f"the code of {symbol!r} is {code!r:.40}: not a non-empty bit string"
                )
        clash = _prefix_clash(list(codes.values()))
        if clash is not None:
            return ValidationResult(
                False, f"not prefix-free: {clash[0]!r} begins {clash[1]!r}", {"pair": clash}
            )
        if case is None:
            note = "(no test input: compared with the expected answer only)"
            if dict(codes) != pick(expected, "codes") or total != optimum:
                return ValidationResult(False, f"codes differ from the expected ones {note}")
            return ValidationResult(True, f"the expected code {note}")
        frequencies: Mapping[str, int] = case.input["frequencies"]
        if len(frequencies) == 1 and list(codes.values()) != ["0"]:
            return ValidationResult(False, f'a lone symbol\'s code is "0", not {codes}')
        if set(codes) != set(frequencies):
            missing = sorted(set(frequencies) - set(codes))
            unknown = sorted(set(codes) - set(frequencies))
            return ValidationResult(
                False,
                "codes must cover exactly the symbols: "
                + ", ".join(
                    f"{what} {names}"
                    for what, names in (("missing", missing), ("unknown", unknown))
                    if names
                ),
            )
        bits = sum(frequencies[s] * len(code) for s, code in codes.items())
        details = {"bits": bits, "optimum": optimum}
        if bits != total:
            return ValidationResult(
                False, f"the codes take {bits} bits, but total_bits says {total}", details
            )
        if total != optimum:
            return ValidationResult(
                False, f"total_bits is {total}; the optimum is {optimum}", details
            )
        return ValidationResult(True, f"a prefix-free code of optimal length {total}", details)


def random_optimal_code(frequencies: Mapping[str, int], rng: random.Random) -> dict[str, str]:
    """An optimal code by Huffman's algorithm with ties broken at random and each merge's
    branches labelled at random."""
    if len(frequencies) == 1:
        return {symbol: "0" for symbol in frequencies}
    pool: list[tuple[int, float, Any]] = [(f, rng.random(), s) for s, f in frequencies.items()]
    while len(pool) > 1:
        pool.sort(key=lambda node: node[:2])
        (w1, _, a), (w2, _, b) = pool[0], pool[1]
        pair = (a, b) if rng.random() < 0.5 else (b, a)
        pool = [*pool[2:], (w1 + w2, rng.random(), pair)]
    codes: dict[str, str] = {}
    stack: list[tuple[Any, str]] = [(pool[0][2], "")] if pool else []
    while stack:
        tree, prefix = stack.pop()
        if isinstance(tree, str):
            codes[tree] = prefix
        else:
            stack += [(tree[0], prefix + "0"), (tree[1], prefix + "1")]
    return {symbol: codes[symbol] for symbol in frequencies}


def _answer(codes: Mapping[str, str], frequencies: Mapping[str, int]) -> dict[str, Any]:
    total = sum(frequencies.get(s, 0) * len(c) for s, c in codes.items())
    return {"codes": dict(codes), "total_bits": total}


@drawing_first
def huffman_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """``total_bits`` one off; two codewords of different lengths swapped between symbols
    of different counts (prefix-free, not optimal); a codeword lengthened (prefix-free, not
    optimal), shortened or with its last bit flipped (a prefix clash); a symbol left out or
    an unknown one added; a lone symbol given the empty code, two bits or ``"1"``."""
    codes, total = case.expected["codes"], case.expected["total_bits"]
    changed = (a for a in _wrong(case, rng) if a["codes"] != codes or a["total_bits"] != total)
    return each_distinct(changed, unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Every draw first (the alternatives draw after these), then the answers one at a
    # time: a run's calibration judges the first few and makes no more.
    codes: dict[str, str] = case.expected["codes"]
    total: int = case.expected["total_bits"]
    frequencies: Mapping[str, int] = case.input["frequencies"]
    symbols = list(codes)
    pairs = [
        (a, b)
        for a in symbols
        for b in symbols
        if frequencies[a] < frequencies[b] and len(codes[a]) < len(codes[b])
    ]
    swaps = rng.sample(pairs, min(2, len(pairs)))
    changed = [(symbol, rng.choice("01")) for symbol in rng.sample(symbols, min(2, len(symbols)))]
    left_out = rng.choice(symbols) if symbols else None
    yield {"codes": codes, "total_bits": total + 1}
    if total:
        yield {"codes": codes, "total_bits": total - 1}
    for a, b in swaps:
        yield _answer({**codes, a: codes[b], b: codes[a]}, frequencies)
    for symbol, bit in changed:
        code = codes[symbol]
        yield _answer({**codes, symbol: code + bit}, frequencies)
        yield _answer({**codes, symbol: code[:-1]}, frequencies)
        if len(symbols) > 1:
            flipped = code[:-1] + ("1" if code[-1] == "0" else "0")
            yield _answer({**codes, symbol: flipped}, frequencies)
    if symbols:
        yield _answer({s: c for s, c in codes.items() if s != left_out}, frequencies)
    extra = "1" * (max((len(c) for c in codes.values()), default=0) + 1)
    yield {"codes": {**codes, "ZZ": extra}, "total_bits": total}
    if len(symbols) == 1:
        yield _answer({symbols[0]: "1"}, frequencies)


@LazyHook.capped(6)
def huffman_alternatives(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Every bit flipped; codewords swapped between symbols of equal count or equal
    length; Huffman's algorithm with random tie-breaks and branch labels."""
    return each_distinct(_right(case, rng), unlike=[case.expected])


def _right(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    codes: dict[str, str] = case.expected["codes"]
    frequencies: Mapping[str, int] = case.input["frequencies"]
    if not codes:
        return
    flip = str.maketrans("01", "10")
    if len(codes) > 1:  # a lone symbol has no branch to label: its code is "0"
        yield _answer({s: c.translate(flip) for s, c in codes.items()}, frequencies)
    symbols = list(codes)
    same = [
        (a, b)
        for a in symbols
        for b in symbols
        if a < b and (frequencies[a] == frequencies[b] or len(codes[a]) == len(codes[b]))
    ]
    for a, b in rng.sample(same, min(2, len(same))):
        yield _answer({**codes, a: codes[b], b: codes[a]}, frequencies)
    for _ in range(4):
        yield _answer(random_optimal_code(frequencies, rng), frequencies)


def _lone_zero(answer: Any) -> Any:
    codes = answer["codes"]
    if len(codes) == 1 and list(codes.values()) == ["1"]:
        return {**answer, "codes": dict.fromkeys(codes, "0")}
    return answer


def _lone_one(answer: Any, rng: random.Random) -> Any:
    codes = answer["codes"]
    return {**answer, "codes": dict.fromkeys(codes, "1")} if len(codes) == 1 else None


LONE_SYMBOL_ZERO = FormRule('a lone symbol\'s code is "0"', _lone_zero, _lone_one)
"""A lone symbol coded ``"1"`` is as short as ``"0"``: a form breach (level 2)."""


SPEC = ScaffoldSpec(
    name="huffman",
    category="greedy",
    title="Huffman coding",
    description="optimal prefix-free binary code from symbol frequencies, merging the two lightest",
    graded_conventions={
        "any optimal code": "any prefix-free binary code of least total length is right",
        "a lone symbol": 'a lone symbol gets the code "0"',
        "no symbols": "no symbols give no codes and total_bits 0",
    },
    reference=huffman_coding,
    generator=generate_huffman,
    answer_schema=HuffmanAnswer,
    validator=with_form_rules(HuffmanValidator(), LONE_SYMBOL_ZERO),
    sizes={"simple": 4, "standard": 8, "edge": 6},
    size=SizeAxis(
        unit="symbols",
        measure=count_symbols,
        ranges={"simple": (3, 10), "standard": (5, MAX_SYMBOLS), "edge": (1, MAX_SYMBOLS)},
        stress=(MAX_SYMBOLS + 1, MOST_SYMBOLS),
    ),
    mutants=huffman_mutants,
    alternatives=huffman_alternatives,
    max_output_tokens=6144,
    # The work is a line per round with the whole pool and a line per node's codes: 747 tokens
    # at 16, 7,448 at 64 (python benchmarks/stress_budgets.py huffman). The flat
    # budget holds the standard maximum; each size past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=209.5, base=2792),
    code_rules={
        "codes": (
            "the codes of the scaffold's construction: the two lightest nodes merged each "
            "time, ties taken oldest first (symbols in input order, then merged nodes in "
            "the order made), the first taken on the 0 side; a lone symbol's code is "
            '"0"'
        ),
    },
    code_sizes=(MAX_SYMBOLS, MOST_SYMBOLS),
    code_size_limit=(
        "the generator draws at most 64 symbols (MOST_SYMBOLS), their weights kept free of ties"
    ),
)
