"""The core types: case ids (written and read in one place), seeding, and sizes."""

from __future__ import annotations

import dataclasses
import random
import shutil
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import overload

import pytest

from verification.cases import (
    CaseRandom,
    case_id,
    case_rng,
    generate_case,
    parse_case_id,
    printable,
)
from verification.catalog import default_catalog
from verification.certify import checks
from verification.certify.case_checks import calibration_cases, check_tolerances
from verification.certify.hash_seed import hash_seed_verdicts
from verification.cli import main
from verification.config import packaged_scaffolds_dir
from verification.errors import VerificationError
from verification.store.journal import read_journal
from verification.validators.exact_match import ExactMatchValidator

CATALOG = default_catalog()


@pytest.mark.parametrize("size", [None, 3, 120])
def test_a_case_id_reads_back_what_it_says(size: int | None) -> None:
    key = parse_case_id(case_id("knapsack_01", "edge", 7, size))
    assert key is not None
    assert (key.scaffold, key.tier, key.index, key.size) == ("knapsack_01", "edge", 7, size)


@pytest.mark.parametrize("text", ["dijkstra", "dijkstra-hard-001", "Dijkstra-simple-001", "x-s-1"])
def test_a_malformed_case_id_is_none(text: str) -> None:
    assert parse_case_id(text) is None


def test_default_size_cases_keep_their_ids_and_seeds() -> None:
    spec = CATALOG["dijkstra"]
    default = generate_case(spec, "standard", 4, seed=9)
    named = generate_case(spec, "standard", 4, seed=9, size=spec.sizes["standard"])
    assert default == named and default.id == "dijkstra-standard-004"
    expected_input = spec.generator(case_rng(9, "dijkstra", "standard", 4), "standard", 8)
    assert default.input == expected_input


# Ranges at and either side of powers of two (where the draw's bit count changes), one,
# negative, and past 64 bits.
_BOUNDS = [(0, 0), (1, 2), (-6, 6), (0, 7), (0, 8), (-9, 9), (3, 1 << 20), (0, (1 << 70) + 3)]


class _Rows(Sequence[int]):
    """A sequence that is neither a list, a tuple, a range nor a str."""

    def __len__(self) -> int:
        return 1000

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...
    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return range(1000)[index]
        if not 0 <= index < 1000:
            raise IndexError(index)
        return index * 3


def _calls(rng: random.Random) -> list[object]:
    """Every call :class:`CaseRandom` makes faster, its error cases and the arguments it
    leaves to :class:`random.Random` (floats, bools, a step), interleaved on one rng."""
    drawn: list[object] = []
    for low, high in _BOUNDS:
        drawn += [rng.randint(low, high), rng.randrange(low, high + 1)]
        drawn += [rng.randrange(high + 1), rng.randrange(low, high + 5, 2)]
        drawn.append(rng.choice(range(low, min(high, 1 << 20) + 1)))
    items = list(range(37))
    rng.shuffle(items)
    drawn += [items, rng.choice("abc"), rng.choice((True,)), rng.randint(True, 3)]
    drawn.append(rng.random())
    # Both of sample's ways (a pool up to 21 items, more for k > 5; else redrawing), at
    # and past their borders, from every kind of sequence and one of its own.
    for population in (items, tuple(items), range(5, 400), "abcdefghijklmnopqrstuvwxyz"):
        for k in (0, 1, 5, 6, 7, 21, 22, len(population)):
            drawn.append(rng.sample(population, min(k, len(population))))
    drawn += [rng.sample(items[:21], 3), rng.sample(items[:22], 3), rng.sample(_Rows(), 40)]
    drawn.append(rng.sample(["a", "b"], 3, counts=[2, 1]))
    refused: list[Callable[[], object]] = [
        lambda: rng.randint(2, 1),
        lambda: rng.randrange(0),
        lambda: rng.randrange(4, 4),
        lambda: rng.choice([]),
        lambda: rng.sample(items, 38),
        lambda: rng.sample(items, -1),
        lambda: rng.sample(set(items), 2),  # type: ignore[arg-type]
        lambda: rng.randint(1.5, 3),  # type: ignore[arg-type]
        lambda: rng.randrange(1, 2.5),  # type: ignore[arg-type]
    ]
    for call in refused:
        try:
            drawn.append(call())
        except (ValueError, IndexError, TypeError) as error:
            drawn.append((type(error), str(error)))
    return drawn


def test_a_case_rng_draws_what_random_random_draws() -> None:
    """The faster calls of a case's rng (:class:`CaseRandom`) give the numbers and the
    errors of the standard library's, from the same seed, and leave it in the same state."""
    for seed in range(40):
        text = f"{seed}:scaffold:standard:{seed * 7}"
        fast, standard = CaseRandom(text), random.Random(text)
        with warnings.catch_warnings():  # float arguments: deprecated, then refused
            warnings.simplefilter("ignore", DeprecationWarning)
            fast_calls, standard_calls = _calls(fast), _calls(standard)
        assert fast_calls == standard_calls, seed
        assert fast.getstate() == standard.getstate(), seed
    assert type(case_rng(7, "scaffold", "standard", 1)) is CaseRandom


@pytest.mark.parametrize("name", list(CATALOG))
def test_another_size_has_its_own_id_and_seed(name: str) -> None:
    spec = CATALOG[name]
    low, high = spec.size.ranges["standard"]
    size = next(s for s in (high, low) if s != spec.sizes["standard"])
    case = generate_case(spec, "standard", 2, seed=9, size=size)
    assert case.id == f"{name}-standard-s{size}-002" and case.size == size
    assert spec.size.measure(case.input) == size
    rng = random.Random(f"9:{name}:standard:s{size}:2")
    assert (
        case.input
        == generate_case(spec, "standard", 2, seed=9)
        .model_copy(update={"input": spec.generator(rng, "standard", size)})
        .input
    )


def test_verify_and_show_prompt_take_a_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["verify", "bfs", "--provider", "reference", "--cases", "4", "--size", "12"]
    assert main([*argv, "--tier", "standard", "--output", str(tmp_path)]) == 0
    (run,) = (tmp_path / "runs").iterdir()
    ids = {record.case_id for record in read_journal(run / "results.jsonl")}
    assert ids == {f"bfs-standard-s12-{k:03d}" for k in range(4)}
    capsys.readouterr()
    assert main(["show-prompt", "bfs", "--case", "bfs-standard-000", "--size", "12"]) == 0
    shown = capsys.readouterr().out
    assert "case bfs-standard-s12-000" in shown
    assert main(["show-prompt", "bfs", "--case", "bfs-standard-s12-000", "--part", "user"]) == 0
    assert capsys.readouterr().out.strip() in shown


def test_a_size_out_of_range_names_the_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "bfs", "--provider", "reference", "--size", "500"]) == 2
    err = capsys.readouterr().err
    assert "size 500 is outside the simple range" in err and "vertices" in err


@pytest.mark.slow
def test_check_passes_a_sound_scaffold_and_fails_a_broken_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each check draws kmp's suite under two hash seeds, in two fresh interpreters, from the
    # catalog's code; the drafts change only kmp's Markdown, so the second check is given
    # the verdict the first drew rather than starting both interpreters again.
    drawn: dict[tuple[str, ...], dict[str, str | VerificationError]] = {}

    def once(names: Sequence[str]) -> dict[str, str | VerificationError]:
        if tuple(names) not in drawn:
            drawn[tuple(names)] = hash_seed_verdicts(names)
        return drawn[tuple(names)]

    monkeypatch.setattr(checks, "hash_seed_verdicts", once)
    assert main(["check", "kmp", "--cases", "5"]) == 0
    assert "all checks passed" in capsys.readouterr().out
    drafts = tmp_path / "scaffolds"
    shutil.copytree(packaged_scaffolds_dir(), drafts)
    kmp = drafts / "string" / "kmp.md"
    text = kmp.read_text(encoding="utf-8")
    start = text.index("```json worked-example-answer")
    end = text.index("```", start + 3)
    kmp.write_text(
        text[:start] + '```json worked-example-answer\n{"positions": [99]}\n' + text[end:]
    )
    assert main(["check", "kmp", "--cases", "5", "--scaffolds-dir", str(drafts)]) == 1
    out = capsys.readouterr().out
    assert "FAIL kmp: worked example" in out and "1 check(s) failed" in out
    assert list(drawn) == [("kmp",)]  # both checks ran the hash-seed check, drawn once


def test_a_numeric_answer_without_a_stated_tolerance_fails_the_check() -> None:
    monte_carlo = default_catalog()["monte_carlo"]
    exact = dataclasses.replace(monte_carlo, validator=ExactMatchValidator())
    cases = list(calibration_cases(exact, 2))
    with pytest.raises(VerificationError, match="states no tolerance"):
        check_tolerances(exact, cases)
    assert "estimate: absolute" in check_tolerances(monte_carlo, cases)


_HOSTILE = [
    "",
    "plain",
    "größe",
    "\x1b[31mred",
    "a\nb",
    "\u202eevil",
    "\ud800",
    "\x00",
    "\U000e0001",
]


def _walked(text: str) -> str:
    """The escape of each character on its own, as ``repr`` spells codes by their width."""
    width = {True: "\\x{:02x}", False: "\\u{:04x}"}
    return "".join(
        c
        if c.isprintable()
        else (width[ord(c) <= 0xFF] if ord(c) <= 0xFFFF else "\\U{:08x}").format(ord(c))
        for c in text
    )


@pytest.mark.parametrize("text", [*_HOSTILE, "".join(_HOSTILE), "x" * 20])
@pytest.mark.parametrize("limit", [None, 0, 3, 6, 12])
def test_printable_escapes_each_unprintable_character(text: str, limit: int | None) -> None:
    walked = _walked(text)
    if limit is not None and len(walked) > limit:
        walked = walked[: max(limit - 3, 0)] + "..."
    assert printable(text, limit) == walked


def test_printable_text_is_returned_as_it_is_not_rebuilt() -> None:
    text = "a reply of " + "printable words " * 50
    assert printable(text) is text
