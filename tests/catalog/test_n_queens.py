"""What is peculiar to ``n_queens``: its oracle (every permutation of the columns tried, by
``itertools``, kept when it keeps the placed queens) and the reference's cross-checks
against it."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, permutations
from typing import Any

import pytest

from tests.support.stress import stress_case, stress_cells
from verification.cases import TestCase, Tier
from verification.catalog.backtracking.n_queens import (
    MAX_SOLUTIONS,
    SEARCH_BUDGET,
    NQueensValidator,
    generate_n_queens,
    search_lines,
)
from verification.reference.backtracking import n_queens


@cache
def _all_solutions_by_brute_force(n: int) -> frozenset[tuple[int, ...]]:
    """Brute force: a permutation of the columns is a solution when no two rows share a
    diagonal."""
    return frozenset(
        p
        for p in permutations(range(n))
        if all(abs(p[i] - p[j]) != j - i for i, j in combinations(range(n), 2))
    )


def _solutions_keeping(n: int, placed: dict[int, int]) -> frozenset[tuple[int, ...]]:
    """The brute force's solutions that keep the ``placed`` queens (row: column), found
    without visiting every permutation: the permutations are built row by row, and a column
    sharing a diagonal with an earlier row's is never extended (at 10 the brute force took
    seconds; it is checked against this up to 8)."""
    found: set[tuple[int, ...]] = set()

    def extend(prefix: tuple[int, ...]) -> None:
        row = len(prefix)
        if row == n:
            found.add(prefix)
            return
        for column in [placed[row]] if row in placed else range(n):
            if column not in prefix and all(abs(column - prefix[i]) != row - i for i in range(row)):
                extend((*prefix, column))

    extend(())
    return frozenset(found)


@cache
def _all_solutions(n: int) -> frozenset[tuple[int, ...]]:
    """Every solution of the empty board of side ``n``."""
    return _solutions_keeping(n, {})


def test_the_row_by_row_search_finds_the_brute_force_s_solutions() -> None:
    rng = random.Random(8)
    for n in range(1, 9):
        everything = _all_solutions_by_brute_force(n)
        assert _all_solutions(n) == everything, n
        for _ in range(5):
            placed = {row: rng.randrange(n) for row in rng.sample(range(n), rng.randint(1, n))}
            kept = {s for s in everything if all(s[r] == c for r, c in placed.items())}
            assert _solutions_keeping(n, placed) == kept, (n, placed)


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()  # every solution, in any order


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``solutions`` lists exactly the brute-force solution set, each once, as
    lists of integers, and ``count`` is its size."""
    solutions, count = answer.get("solutions"), answer.get("count")
    if set(answer) != {"solutions", "count"} or not isinstance(solutions, list):
        return False
    if isinstance(count, bool) or not isinstance(count, int):
        return False
    for solution in solutions:
        if not isinstance(solution, list):
            return False
        if any(isinstance(c, bool) or not isinstance(c, int) for c in solution):
            return False
    listed = [tuple(s) for s in solutions]
    placed = test_input.get("placed") or []
    truth = {s for s in _all_solutions(test_input["n"]) if all(s[r] == c for r, c in placed)}
    return len(set(listed)) == len(listed) == count == len(truth) and set(listed) == truth


def test_the_oracle_wants_every_solution_once() -> None:
    four = {"n": 4}
    assert oracle(four, {"solutions": [[2, 0, 3, 1], [1, 3, 0, 2]], "count": 2})
    assert not oracle(four, {"solutions": [[1, 3, 0, 2]], "count": 1})
    assert not oracle(four, {"solutions": [[1, 3, 0, 2], [1, 3, 0, 2]], "count": 2})
    assert not oracle(four, {"solutions": [[2, 0, 3, 1], [1, 3, 0, 2]], "count": 3})
    assert not oracle({"n": 3}, {"solutions": [[0, 2, 1]], "count": 1})
    kept = {"n": 4, "placed": [[0, 1]]}
    assert oracle(kept, {"solutions": [[1, 3, 0, 2]], "count": 1})
    assert not oracle(kept, {"solutions": [[2, 0, 3, 1], [1, 3, 0, 2]], "count": 2})


@pytest.mark.parametrize("n", range(1, 9))
def test_the_reference_matches_brute_force(n: int) -> None:
    answer = n_queens(n)
    assert oracle({"n": n}, answer)
    # The search order makes the listing lexicographic.
    assert answer["solutions"] == sorted(answer["solutions"])


@pytest.mark.parametrize("n", range(4, 9))
def test_the_reference_with_placed_queens_matches_brute_force(n: int) -> None:
    rng = random.Random(n)
    for _ in range(25):
        rows = sorted(rng.sample(range(n), rng.randint(1, 3)))
        placed = [[row, rng.randrange(n)] for row in rows]
        answer = n_queens(n, placed)
        assert oracle({"n": n, "placed": placed}, answer), placed
        assert answer["solutions"] == sorted(answer["solutions"])


def test_known_counts() -> None:
    # OEIS A000170, computed here by brute force rather than typed.
    assert [n_queens(n)["count"] for n in range(1, 9)] == [
        len(_all_solutions_by_brute_force(n)) for n in range(1, 9)
    ]


@pytest.mark.parametrize("tier", ["simple", "standard", "edge"])
def test_the_reference_agrees_with_the_oracle_on_generated_inputs(tier: Any) -> None:
    low, high = {"simple": (4, 6), "standard": (6, 8), "edge": (1, 8)}[tier]
    for k in range(30):
        rng = random.Random(f"nq:{tier}:{k}")
        test_input = generate_n_queens(rng, tier, rng.randint(low, high))
        assert oracle(test_input, n_queens(**test_input)), test_input


@pytest.mark.slow
def test_tiers_keep_their_promises() -> None:
    kinds = set()
    for k in range(25):
        for tier, size in (("simple", 5), ("standard", 8), ("standard", 10)):
            test_input = generate_n_queens(random.Random(k), tier, size)
            assert test_input["n"] == size and test_input["placed"], test_input
            assert 1 <= n_queens(**test_input)["count"] <= MAX_SOLUTIONS
            assert search_lines(**test_input) <= SEARCH_BUDGET[tier]
        edge = generate_n_queens(random.Random(k), "edge", 5)
        count = n_queens(**edge)["count"]
        if edge["n"] < 4:
            kinds.add(f"n={edge['n']}")
        elif len(edge["placed"]) == edge["n"] - 1:
            kinds.add("one row left")
            assert count == 1
        else:
            kinds.add("blocked")
            assert count == 0 and len(edge["placed"]) == 2
        assert search_lines(**edge) <= SEARCH_BUDGET["edge"]
    assert kinds == {"n=1", "n=2", "n=3", "one row left", "blocked"}
    assert {generate_n_queens(random.Random(k), "edge", 1)["n"] for k in range(20)} == {1}


def _case(n: int) -> TestCase:
    return TestCase(
        id="n_queens-standard-000",
        scaffold="n_queens",
        tier="standard",
        index=0,
        input={"n": n, "placed": []},
        expected=n_queens(n),
    )


def test_the_validator_agrees_with_the_oracle_on_partial_and_padded_lists() -> None:
    validator = NQueensValidator()
    rng = random.Random(3)
    for n in (1, 3, 4, 5, 6):
        case = _case(n)
        truth = sorted(list(s) for s in _all_solutions(n))
        attacked = [list(p) for p in permutations(range(n)) if tuple(p) not in _all_solutions(n)]
        for _ in range(40):
            listed = rng.sample(truth, rng.randint(0, len(truth)))
            if attacked and rng.random() < 0.3:
                listed.append(rng.choice(attacked))
            rng.shuffle(listed)
            answer = {"solutions": listed, "count": len(listed)}
            verdict = validator.validate(answer, case.expected, case=case)
            assert verdict.is_valid is oracle(case.input, answer), (n, listed, verdict)


@pytest.mark.parametrize(
    ("n", "solutions"),
    [(1, [[0]]), (2, []), (3, [])],
)
def test_edge_boards(n: int, solutions: list[list[int]]) -> None:
    assert n_queens(n) == {"solutions": solutions, "count": len(solutions)}
    assert oracle({"n": n}, n_queens(n))


@pytest.mark.parametrize("n", [0, -3, True, 4.0, "4", None])
def test_bad_inputs_raise(n: Any) -> None:
    with pytest.raises(ValueError, match="n must be an integer"):
        n_queens(n)


@pytest.mark.parametrize(
    ("placed", "message"),
    [([[4, 0]], "off the 4x4 board"), ([[0, 1], [0, 2]], "share row 0"), ([[1, -1]], "off")],
)
def test_bad_placed_queens_raise(placed: list[list[int]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        n_queens(4, placed)


def test_placed_queens_that_attack_each_other_leave_no_solution() -> None:
    assert n_queens(6, [[0, 0], [3, 3]]) == {"solutions": [], "count": 0}


def test_the_validator_refuses_a_solution_that_moves_a_placed_queen() -> None:
    test_input = {"n": 5, "placed": [[2, 0]]}
    case = TestCase(
        id="n_queens-standard-000",
        scaffold="n_queens",
        tier="standard",
        index=0,
        input=test_input,
        expected=n_queens(**test_input),
    )
    moved = {"solutions": [[0, 2, 4, 1, 3]], "count": 1}
    verdict = NQueensValidator().validate(moved, case.expected, case=case)
    assert not verdict.is_valid and "moves the placed queen [2, 0]" in verdict.message


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("n_queens"))
def test_a_stress_board_keeps_its_answer_capped_and_the_reference_holds(
    tier: Tier, size: int, index: int
) -> None:
    case = stress_case("n_queens", tier, size, index)
    assert case.input["n"] == size
    budget = SEARCH_BUDGET[tier]
    assert search_lines(size, case.input["placed"], budget) <= budget
    assert 1 <= case.expected["count"] <= MAX_SOLUTIONS  # the placed queens' solution, at least
    # The oracle's brute force over every permutation is out of reach at 12: the row-by-row
    # search over the permutations that keep the placed queens.
    placed = {row: column for row, column in case.input["placed"]}
    truth = _solutions_keeping(size, placed)
    assert {tuple(s) for s in case.expected["solutions"]} == truth, case.id


def test_the_kept_placement_verdict_is_the_search_and_the_count() -> None:
    """The generator keeps, per board and budget, whether a placement fits (the search
    within the budget, at most MAX_SOLUTIONS solutions): the kept verdict is the one the
    search and the reference give, whichever case asks first."""
    from verification.catalog.backtracking.n_queens import MAX_SOLUTIONS, _fits, _placed_from

    rng = random.Random(27)
    for _ in range(120):
        size = rng.choice((6, 8))
        placed = _placed_from(rng, size, rng.randint(1, 3))
        budget = rng.choice(list(SEARCH_BUDGET.values()))
        fits = (
            search_lines(size, placed, budget) <= budget
            and n_queens(size, placed)["count"] <= MAX_SOLUTIONS
        )
        key = tuple(map(tuple, placed))
        assert _fits(size, key, budget) == fits
        assert _fits(size, key, budget) == fits  # kept
