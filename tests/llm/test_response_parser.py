"""The response parser on a corpus of realistic replies: where the answer is found, which
leniencies it records, and how hostile or broken output fails at level 1 or 2 without ever
raising.

Expected answers come from the reference (``plan_cases`` gives ``case.expected``); only the
tiny JSON snippets that are themselves the subject of a parsing test are written out here.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verification.cases import drawn, parse_case_id, to_json_data
from verification.config import load_settings
from verification.errors import ParseError
from verification.generators.base import TestCase
from verification.llm.response_parser import (
    _STRING_OR_DANGLING_COMMA,
    LENIENCIES,
    MAX_ANSWER_CHARS,
    MAX_DEPTH,
    MAX_INT_DIGITS,
    UNFENCED_WINDOW,
    ParsedAnswer,
    ResponseParser,
    fenced_blocks,
)
from verification.registry import DEFAULT_SEED, SPECS, get_spec
from verification.run.case_plan import planned_cases
from verification.runner import plan_cases

SCAFFOLDS = tuple(SPECS)
"""Every registered scaffold: the parser's properties hold for each, with no list kept."""
HELPER_ANSWERS = Path(__file__).parent / "fixtures" / "helper_answers"
PARSER = ResponseParser()
FIVE_MB = 5 * 1024 * 1024

WORK = """\
Following the scaffold step by step.

Step 1: the neighbour lists are A: B (4), C (1); B: A (4). Components: {A, C} {B}.
Step 2: `d(A) = 0`, so `max(3, R1[2]+4=7) = 7` and i=5 'A': j 3→1→0.

| k | x | f(x) |
|---|---|---|
| 1 | 2.5 | 3.625 |

The check passes. The answer:
"""


@cache
def reference_cases() -> dict[str, list[TestCase]]:
    """Six cases per scaffold (every tier) with the suite seed; called inside tests only,
    after the autouse fixture has cleared any ``VERIFY_*`` variable."""
    return plan_cases(SCAFFOLDS, seed=load_settings().seed, cases=6)


def case_of(name: str, index: int = 0) -> TestCase:
    return reference_cases()[name][index]


def expected(name: str, index: int = 0) -> dict[str, Any]:
    return copy.deepcopy(case_of(name, index).expected)


def another_expected(name: str) -> dict[str, Any]:
    """A reference answer of the same scaffold that differs from ``expected(name)``."""
    first = expected(name)
    return next(
        copy.deepcopy(case.expected) for case in reference_cases()[name] if case.expected != first
    )


def fenced(answer: Any, tag: str = "json", *, indent: int | None = None) -> str:
    return f"```{tag}\n{json.dumps(answer, indent=indent)}\n```"


def extract(name: str, text: str | None) -> ParsedAnswer:
    parsed = PARSER.extract(name, text)
    assert isinstance(parsed, ParsedAnswer)
    assert set(parsed.leniency) <= set(LENIENCIES)
    assert parsed.ok == (parsed.failed_level is None)
    return parsed


def assert_level_1(parsed: ParsedAnswer, *words: str) -> None:
    assert parsed.failed_level == 1, parsed
    assert parsed.answer is None
    assert not parsed.ok
    for word in words:
        assert word in parsed.reason, parsed.reason


def test_the_leniencies_are_a_closed_list() -> None:
    assert set(LENIENCIES) == {
        "untagged_fence",
        "no_fence",
        "trailing_comma",
        "two_final_blocks",
        "text_after_answer",
    }


# --- where the answer is -------------------------------------------------------------------


@pytest.mark.parametrize("name", SCAFFOLDS)
def test_every_reference_answer_in_the_output_format_is_usable(name: str) -> None:
    spec = get_spec(name)
    for case in reference_cases()[name]:
        parsed = extract(name, WORK + spec.render_answer(case.expected))
        assert parsed.failed_level is None, parsed.reason
        assert parsed.answer == case.expected
        assert parsed.leniency == ()


@pytest.mark.parametrize("name", SCAFFOLDS)
@pytest.mark.parametrize(
    "after",
    ["", "\n", "\n\nI hope this helps! Let me know if {anything} is unclear.\n", "\n---\n"],
)
def test_prose_before_and_after_the_block(name: str, after: str) -> None:
    """Text after the block breaks "nothing after it": forgiven, and recorded."""
    answer = expected(name)
    parsed = extract(name, WORK + "\n" + fenced(answer, indent=2) + after)
    assert parsed.failed_level is None
    assert parsed.answer == answer
    assert parsed.leniency == (("text_after_answer",) if after.strip() else ())


@pytest.mark.parametrize("name", SCAFFOLDS)
def test_the_last_json_block_wins_and_an_intermediate_state_is_not_taken(name: str) -> None:
    intermediate, final = another_expected(name), expected(name)
    text = (
        "State after the first phase:\n\n"
        + fenced(intermediate)
        + "\n\nContinuing the scan, the state changes again:\n\n"
        + fenced(intermediate, indent=2)
        + "\n\nFinal answer:\n\n"
        + fenced(final)
        + "\n"
    )
    parsed = extract(name, text)
    assert parsed.failed_level is None
    assert parsed.answer == final


def test_the_position_decides_not_the_content() -> None:
    first, second = expected("kmp"), another_expected("kmp")
    assert extract("kmp", fenced(first) + "\n" + fenced(second)).answer == second
    assert extract("kmp", fenced(second) + "\n" + fenced(first)).answer == first


def test_two_final_blocks_are_taken_last_and_recorded() -> None:
    first, second = expected("kmp"), another_expected("kmp")
    back_to_back = extract("kmp", WORK + fenced(first) + "\n\n" + fenced(second))
    assert back_to_back.answer == second
    assert back_to_back.leniency == ("two_final_blocks",)
    same_twice = extract("kmp", WORK + fenced(first) + "\n" + fenced(first, tag=""))
    assert same_twice.leniency == ("two_final_blocks", "untagged_fence")
    # A draft block followed by prose and then the answer is ordinary work, not a repeat.
    drafted = extract("kmp", fenced(first) + "\nChecking again, the answer:\n" + fenced(second))
    assert (drafted.answer, drafted.leniency) == (second, ())


def test_an_untagged_fence_is_forgiven_and_recorded() -> None:
    answer = expected("kmp")
    parsed = extract("kmp", WORK + fenced(answer, tag=""))
    assert parsed.failed_level is None
    assert parsed.answer == answer
    assert parsed.leniency == ("untagged_fence",)


def test_the_tag_is_case_insensitive_and_tilde_fences_count() -> None:
    answer = expected("bfs")
    for text in (fenced(answer, tag="JSON"), "~~~json\n" + json.dumps(answer) + "\n~~~"):
        parsed = extract("bfs", WORK + text)
        assert (parsed.answer, parsed.leniency) == (answer, ())


def test_a_later_tagged_block_wins_over_an_earlier_untagged_one() -> None:
    earlier, final = another_expected("dijkstra"), expected("dijkstra")
    parsed = extract("dijkstra", fenced(earlier, tag="") + "\n" + fenced(final))
    assert (parsed.answer, parsed.leniency) == (final, ("two_final_blocks",))


@pytest.mark.parametrize("indent", [None, 2])
def test_no_fence_at_all_is_forgiven_and_recorded(indent: int | None) -> None:
    answer = expected("kruskal")
    text = WORK + "\nFinal answer: " + json.dumps(answer, indent=indent) + "\n"
    parsed = extract("kruskal", text)
    assert parsed.failed_level is None
    assert parsed.answer == answer
    assert parsed.leniency == ("no_fence",)


def test_a_bare_answer_after_sets_written_in_braces_is_found() -> None:
    answer = expected("kruskal")
    text = "Components: {A, C} {B} {D, E}.\nMerged: {A, B, C, D, E}.\n" + json.dumps(answer)
    assert extract("kruskal", text).answer == answer


def test_a_bare_answer_far_from_the_end_is_not_taken() -> None:
    text = json.dumps(expected("kmp")) + "\n" + "and so on, " * (UNFENCED_WINDOW // 10)
    assert_level_1(extract("kmp", text))


def test_an_object_inside_an_earlier_one_is_never_the_answer_however_long_the_reply() -> None:
    # The reply's own answer (another case's) holds the right one, and so much text that
    # the object starts before the reply's last UNFENCED_WINDOW characters.
    right, wrong = expected("kmp"), another_expected("kmp")
    pad = "x" * (UNFENCED_WINDOW + 1024)
    outer = json.dumps(wrong)[:-1] + f', "pad": "{pad}", "z": ' + json.dumps(right)
    for text in ("Final answer: " + outer + "}", "Final answer: " + outer):
        parsed = extract("kmp", text)
        assert not parsed.ok and parsed.answer != right, parsed.reason
    assert_level_1(extract("kmp", "Final answer: " + outer), "never closed")


def test_a_bare_answer_longer_than_the_window_is_taken_whole() -> None:
    answer = {"positions": list(range(UNFENCED_WINDOW // 4))}
    assert len(json.dumps(answer)) > UNFENCED_WINDOW
    parsed = extract("kmp", "The matches, all of them:\n" + json.dumps(answer))
    assert (parsed.answer, parsed.failed_level) == (answer, None)


def test_a_string_left_open_takes_the_rest_of_the_text_once() -> None:
    # Escaped quotes and no closing one: each quote began a string scanned to the end
    # again, so a reply of a few hundred KiB took minutes (now one match, linear).
    body = "{" + '"\\' * 20_000
    matches = [m.span() for m in _STRING_OR_DANGLING_COMMA.finditer(body)]
    assert matches == [(1, len(body))]
    assert_level_1(extract("dijkstra", fenced_text(body)), "invalid JSON")


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x1e"])
def test_a_line_break_commonmark_does_not_count_moves_no_block(separator: str) -> None:
    # str.splitlines breaks at these characters; CommonMark, and so the blocks' line
    # numbers, do not: a right answer was read as cut off, and a cut-off one passed.
    answer = expected("kmp")
    prose = f"Step 1 done.{separator}Step 2 done.\n\n"
    parsed = extract("kmp", prose + fenced(answer))
    assert (parsed.answer, parsed.leniency) == (answer, ())
    assert_level_1(extract("kmp", prose + fenced(answer) + "\n```\ncut off"), "unclosed")
    assert fenced_blocks(prose + "```python\nprint(1)\n```") == [("python", "print(1)\n", True)]


def test_a_fence_in_another_language_is_not_the_answer() -> None:
    answer = expected("knapsack_01")
    code = "```python\nbest = max(row)\nprint(best)\n```"
    dict_code = "```python\nanswer = " + json.dumps(another_expected("knapsack_01")) + "\n```"
    for text, leniency in (
        (WORK + fenced(answer) + "\n\nTo double-check:\n\n" + code, ("text_after_answer",)),
        (WORK + dict_code + "\n\n" + fenced(answer), ()),
    ):
        parsed = extract("knapsack_01", text)
        assert (parsed.answer, parsed.leniency) == (answer, leniency)


@pytest.mark.parametrize(
    "after",
    [
        '```text\n{"max_value": 0}\n```',
        '```javascript\n{"max_value": 0, "selected_items": []}\n```',
        'Wait, correction: {"max_value": 0, "selected_items": []}',
        '```json5\n{"max_value": 0,',
    ],
)
def test_json_after_the_final_answer_makes_it_ambiguous(after: str) -> None:
    text = WORK + fenced(expected("knapsack_01")) + "\n\n" + after
    assert_level_1(extract("knapsack_01", text))


def test_prose_braces_after_the_final_answer_are_harmless() -> None:
    answer = expected("knapsack_01")
    parsed = extract("knapsack_01", WORK + fenced(answer) + "\n\nSo the set {1, 2} is optimal.")
    assert parsed.answer == answer and parsed.ok
    assert parsed.leniency == ("text_after_answer",)


@pytest.mark.parametrize(
    "body",
    ['{"positions": [0, 1, 2], "positions": [3, 4]}', '{"positions": [0], "x": "\\ud800"}'],
)
def test_repeated_keys_and_lone_surrogates_are_level_1(body: str) -> None:
    assert_level_1(extract("kmp", "```json\n" + body + "\n```"))


def test_a_dict_inside_a_python_fence_alone_is_no_answer() -> None:
    text = WORK + "```python\nanswer = " + json.dumps(expected("kmp")) + "\nprint(answer)\n```\n"
    assert_level_1(extract("kmp", text))
    text = WORK + "~~~text\n" + json.dumps(expected("kmp")) + "\n~~~\nThat is all."
    assert_level_1(extract("kmp", text))


def test_a_one_line_fence_is_not_an_unclosed_fence() -> None:
    answer = expected("kmp")
    parsed = extract("kmp", WORK + "```json " + json.dumps(answer) + " ```\n")
    assert (parsed.answer, parsed.leniency) == (answer, ("no_fence",))


# --- trailing commas and syntax errors -------------------------------------------------------


def test_trailing_commas_are_forgiven_and_recorded() -> None:
    parsed = extract("kmp", '```json\n{"positions": [20, 22,],}\n```')
    assert (parsed.answer, parsed.failed_level) == ({"positions": [20, 22]}, None)
    assert parsed.leniency == ("trailing_comma",)


def test_a_trailing_comma_in_a_multiline_reference_answer() -> None:
    answer = expected("dijkstra")
    body = json.dumps(answer, indent=2).replace("\n  }", ",\n  }")
    assert body.count(",\n  }") == 1
    parsed = extract("dijkstra", "```json\n" + body + "\n```")
    assert (parsed.answer, parsed.leniency) == (answer, ("trailing_comma",))


def test_leniencies_combine_in_a_fixed_order() -> None:
    untagged = extract("kmp", '```\n{"positions": [1,]}\n```')
    assert untagged.leniency == ("untagged_fence", "trailing_comma")
    bare = extract("kmp", 'So: {"positions": [1,]}')
    assert bare.leniency == ("no_fence", "trailing_comma")
    noted = extract("kmp", '```\n{"positions": [1]}\n```\n```\n{"positions": [1,]}\n```\nDone.')
    assert noted.leniency == (
        "two_final_blocks",
        "untagged_fence",
        "trailing_comma",
        "text_after_answer",
    )


@pytest.mark.parametrize(
    "after",
    [
        "\nDone.",
        "\n```python\nprint(1)\n```",
        "\n<!-- checked -->",
        "\n> The positions are 20 and 22.",
    ],
)
@pytest.mark.parametrize("form", ["tagged", "bare"])
def test_text_after_the_answer_is_forgiven_and_recorded(after: str, form: str) -> None:
    answer = expected("kmp")
    parsed = extract("kmp", WORK + FORMS[form](answer) + "\n" + after)
    assert (parsed.answer, parsed.failed_level) == (answer, None)
    assert parsed.leniency == (*FORM_LENIENCY[form], "text_after_answer")
    # Blank lines after it are nothing.
    blank = extract("kmp", WORK + FORMS[form](answer) + "\n \n\t\n")
    assert blank.leniency == FORM_LENIENCY[form]


def test_a_second_answer_object_after_the_block_is_still_refused() -> None:
    answer = expected("kmp")
    for form in ("tagged", "tagged-indented", "untagged"):
        text = WORK + FORMS[form](answer) + "\nOr rather: " + json.dumps(another_expected("kmp"))
        assert_level_1(extract("kmp", text))


def test_a_comma_inside_a_string_is_left_alone() -> None:
    parsed = extract("bfs", '```json\n{"order": ["A, ]"], "distances": {"A, ]": 0},}\n```')
    assert parsed.failed_level is None
    assert parsed.answer == {"order": ["A, ]"], "distances": {"A, ]": 0}}


@pytest.mark.parametrize(
    "body",
    [
        '{"positions": [20 22]}',
        '{"positions": [20,, 22]}',
        '{"positions": [20, 22],,}',
        "{'positions': [20, 22]}",
        "{positions: [20, 22]}",
        '{"positions": [20, 22]} // the answer',
        '{"positions": [20, 22]',
        '{"positions": [0x14]}',
        '{"positions": [020]}',
        '{"positions": [20, 22]}}',
    ],
)
def test_a_real_syntax_error_is_level_1(body: str) -> None:
    assert_level_1(extract("kmp", f"Answer:\n```json\n{body}\n```\n"))


def test_a_broken_bare_answer_does_not_fall_back_to_an_intermediate_one() -> None:
    for final in ('{"positions": [20, 22}', '{"positions": [20 22]}', "{'positions': [20, 22]}"):
        text = 'After step 3: {"positions": [20]}\n\nFinal answer: ' + final + "\n"
        assert_level_1(extract("kmp", text))


def test_with_no_fence_the_last_braces_are_the_answer_even_if_they_are_prose() -> None:
    """Braces after a bare answer break "nothing after it": the reply fails, rather than the
    parser guessing which earlier object was meant."""
    text = json.dumps(expected("kruskal")) + "\nThe components were {A, C} and {B}."
    assert_level_1(extract("kruskal", text))


# --- truncation and empty replies ------------------------------------------------------------


@pytest.mark.parametrize("tag", ["json", ""])
def test_a_reply_cut_inside_the_final_fence_is_level_1(tag: str) -> None:
    answer = expected("dijkstra")
    complete = fenced(another_expected("dijkstra"))
    cut = f"```{tag}\n" + json.dumps(answer)[:-7]
    parsed = extract("dijkstra", WORK + complete + "\n\nCorrected answer:\n\n" + cut)
    assert_level_1(parsed, "unclosed")


def test_a_reply_cut_right_after_the_opening_fence_is_level_1() -> None:
    assert_level_1(extract("kmp", WORK + fenced({"positions": [1]}) + "\n```json\n"), "unclosed")


def test_a_bare_answer_cut_short_is_level_1() -> None:
    assert_level_1(extract("kmp", 'Final: {"positions": [20, 2'))


@pytest.mark.parametrize("text", [None, "", " ", "\n\n", " \t\r\n \u3000\n"])
def test_an_empty_reply_is_level_1(text: str | None) -> None:
    assert_level_1(extract("bfs", text), "empty")
    with pytest.raises(ParseError) as caught:
        PARSER.parse("bfs", text)
    assert caught.value.level == 1


def test_prose_without_any_answer_is_level_1() -> None:
    assert_level_1(extract("kmp", WORK.replace("{", "").replace("}", "")), "no JSON object")


# --- hostile output --------------------------------------------------------------------------


def test_five_megabytes_of_prose_then_the_answer() -> None:
    answer = expected("bfs")
    sentence = "The queue is [D, E] and the set {A, B} is visited. "
    prose = sentence * (FIVE_MB // len(sentence) + 1)
    assert len(prose) >= FIVE_MB
    for tail in (fenced(answer), json.dumps(answer)):
        parsed = extract("bfs", prose + "\n" + tail + "\n")
        assert parsed.failed_level is None
        assert parsed.answer == answer


GARBAGE = ("abc 123,:[]\"'\\\n`~#", '{}[]":,0123 \n`\\tnule')
"""The alphabets of the garbage: no braces, and JSON's punctuation and words."""


def _choices(rng: random.Random, alphabet: str, k: int) -> str:
    """``"".join(rng.choices(alphabet, k=k))`` for an ASCII alphabet, the same text and the
    same state of ``rng`` after it, drawn by numpy from the same Mersenne Twister state (its
    doubles are Python's, 53 bits from two words): a quarter of the time for five megabytes.
    numpy is imported here: collecting the module (every xdist worker does) need not pay."""
    import numpy as np

    version, internal, gauss = rng.getstate()
    twister = np.random.RandomState()
    twister.set_state(("MT19937", np.array(internal[:-1], dtype=np.uint32), internal[-1]))
    picks = np.floor(twister.random_sample(k) * len(alphabet)).astype(np.intp)
    _, key, position, _, _ = twister.get_state()
    rng.setstate((version, (*(int(word) for word in key), int(position)), gauss))
    letters = np.frombuffer(alphabet.encode("ascii"), dtype="S1")
    return letters[picks].tobytes().decode("ascii")


@pytest.mark.parametrize("k", [0, 1, 7, 1000, 65_537])
def test_the_numpy_draw_is_random_choices(k: int) -> None:
    ours, theirs = random.Random(k), random.Random(k)
    for alphabet in GARBAGE:
        assert _choices(ours, alphabet, k) == "".join(theirs.choices(alphabet, k=k))
    assert ours.getstate() == theirs.getstate()


@pytest.mark.slow
def test_five_megabytes_of_garbage_with_no_answer() -> None:
    rng = random.Random(5)
    no_braces = _choices(rng, GARBAGE[0], FIVE_MB)
    assert_level_1(extract("kmp", no_braces))
    jsonish = _choices(rng, GARBAGE[1], FIVE_MB)
    assert not extract("kmp", jsonish).ok
    assert not extract("kmp", "```json\n" + "{" * FIVE_MB).ok
    assert not extract("kmp", "{" * FIVE_MB).ok
    assert not extract("kmp", '{"' * (FIVE_MB // 2)).ok


def test_an_answer_block_over_the_size_limit_is_level_1() -> None:
    padded = '{"positions": [' + " " * MAX_ANSWER_CHARS + "1]}"
    assert_level_1(extract("kmp", "```json\n" + padded + "\n```"), "larger than")


@pytest.mark.parametrize(
    "body",
    [
        '{"a": ' * 10_000 + "1" + "}" * 10_000,
        '{"positions": ' + "[" * 10_000 + "]" * 10_000 + "}",
        "[" * 10_000 + "]" * 10_000,
        '{"positions": ' + "[" * 10_000,
    ],
    ids=["objects", "arrays-in-object", "arrays", "unclosed"],
)
@pytest.mark.parametrize("fence", [True, False])
def test_json_nested_ten_thousand_deep_is_level_1(body: str, fence: bool) -> None:
    assert_level_1(extract("kmp", f"```json\n{body}\n```" if fence else body))


def test_nesting_just_past_the_limit_is_refused() -> None:
    deep = '{"positions": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}"
    assert_level_1(extract("kmp", fenced_text(deep)), "nested deeper")


def fenced_text(body: str) -> str:
    return f"```json\n{body}\n```"


@pytest.mark.parametrize(
    "number",
    [
        "7" * 5000,
        "-" + "7" * 5000,
        "7" * 5000 + ".5",
        "1e" + "9" * 5000,
        "7" * (MAX_INT_DIGITS + 1),
    ],
    ids=["int", "negative", "float", "exponent", "just-over"],
)
def test_a_huge_number_is_level_1(number: str) -> None:
    assert_level_1(extract("kmp", fenced_text(f'{{"positions": [{number}]}}')))
    assert_level_1(extract("kmp", f'Final: {{"positions": [{number}]}}'))


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999", "-1e999"])
def test_nan_and_infinity_are_refused(literal: str) -> None:
    body = f'{{"root": {literal}, "iterations": 20, "converged": false}}'
    assert_level_1(extract("newton_raphson", fenced_text(body)))
    assert_level_1(extract("newton_raphson", "Result: " + body))


@pytest.mark.parametrize("body", ["[20, 22]", "[]", '"positions"', "20", "null", "true"])
def test_a_value_that_is_not_an_object_is_level_1(body: str) -> None:
    assert_level_1(extract("kmp", fenced_text(body)))


def test_an_array_holding_the_answer_is_level_1() -> None:
    assert_level_1(extract("kmp", fenced([expected("kmp")])))


def test_model_text_is_never_evaluated() -> None:
    body = '{"positions": [__import__("os").getpid()]}'
    assert_level_1(extract("kmp", fenced_text(body)))


# --- level 2: the contract -------------------------------------------------------------------


Mutation = Callable[[dict[str, Any]], None]


def _set(path: tuple[Any, ...], value: Any) -> Mutation:
    def mutate(answer: dict[str, Any]) -> None:
        target: Any = answer
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return mutate


def _first_key(name: str) -> str:
    return sorted(expected(name)["distances"])[0]


def _pop(key: str) -> Mutation:
    def mutate(answer: dict[str, Any]) -> None:
        del answer[key]

    return mutate


def _to_float(key: str) -> Mutation:
    return lambda answer: answer.update({key: float(answer[key])})


def _to_str(key: str) -> Mutation:
    return lambda answer: answer.update({key: str(answer[key])})


def _first_distance(value: Any) -> Callable[[], Mutation]:
    return lambda: _set(("distances", _first_key("dijkstra")), value)


CONTRACT_BREAKS: list[tuple[str, str, Callable[[], Mutation]]] = [
    ("kmp", "string-for-int", lambda: _set(("positions",), ["3"])),
    ("knapsack_01", "string-for-int", lambda: _to_str("max_value")),
    ("dijkstra", "string-for-int", _first_distance("3")),
    ("kmp", "fraction-for-int", lambda: _set(("positions",), [3.5])),
    ("knapsack_01", "fraction-for-int", lambda: _set(("max_value",), 3.5)),
    ("knapsack_01", "float-for-int", lambda: _to_float("max_value")),
    ("newton_raphson", "float-for-int", lambda: _to_float("iterations")),
    ("kmp", "bool-for-int", lambda: _set(("positions",), [True])),
    ("newton_raphson", "string-for-bool", lambda: _set(("converged",), "true")),
    ("bfs", "int-for-string", lambda: _set(("order",), [0])),
    ("dijkstra", "negative-distance", _first_distance(-1)),
    ("kmp", "negative-position", lambda: _set(("positions",), [-1])),
    ("kruskal", "edge-of-two", lambda: _set(("edges",), [["A", "B"]])),
    ("kruskal", "weight-as-string", lambda: _set(("edges",), [["A", "B", "4"]])),
    ("knapsack_01", "null", lambda: _set(("max_value",), None)),
    ("kmp", "null", lambda: _set(("positions",), None)),
    ("bfs", "null", lambda: _set(("order",), None)),
    ("kruskal", "null", lambda: _set(("total_weight",), None)),
    ("newton_raphson", "null", lambda: _set(("converged",), None)),
    ("knapsack_01", "missing-key", lambda: _pop("selected_items")),
    ("newton_raphson", "missing-key", lambda: _pop("converged")),
    ("bfs", "missing-key", lambda: _pop("order")),
    ("kmp", "extra-key", lambda: _set(("explanation",), "overlaps included")),
    ("kruskal", "extra-key", lambda: _set(("mst",), True)),
    ("dijkstra", "renamed-key", lambda: lambda answer: answer.update(dist=answer.pop("distances"))),
]


@pytest.mark.parametrize(
    ("name", "mutation"),
    [(name, make) for name, _, make in CONTRACT_BREAKS],
    ids=[f"{name}-{label}" for name, label, _ in CONTRACT_BREAKS],
)
def test_a_contract_failure_is_level_2_and_keeps_the_answer(
    name: str, mutation: Callable[[], Mutation]
) -> None:
    answer = expected(name)
    mutation()(answer)
    parsed = extract(name, WORK + fenced(answer))
    assert parsed.failed_level == 2, parsed
    assert parsed.answer == answer
    assert parsed.reason.startswith("schema:")
    with pytest.raises(ParseError) as caught:
        PARSER.parse(name, WORK + fenced(answer))
    assert caught.value.level == 2


def test_null_is_allowed_where_the_schema_allows_it() -> None:
    answer = expected("dijkstra")
    answer["distances"][_first_key("dijkstra")] = None
    assert extract("dijkstra", fenced(answer)).failed_level is None
    newton = expected("newton_raphson") | {"root": None}
    assert extract("newton_raphson", fenced(newton)).failed_level is None


@pytest.mark.parametrize("name", SCAFFOLDS)
def test_parse_returns_the_answer_or_raises_with_the_level(name: str) -> None:
    answer = expected(name)
    assert PARSER.parse(name, WORK + fenced(answer)) == answer
    with pytest.raises(ParseError) as caught:
        PARSER.parse(name, WORK + fenced(answer)[:-3])
    assert caught.value.level == 1


# --- properties ------------------------------------------------------------------------------


@given(st.text(), st.sampled_from(SCAFFOLDS))
def test_extract_never_raises_on_any_text(text: str, name: str) -> None:
    parsed = extract(name, text)
    assert parsed.failed_level in (None, 1, 2)
    if parsed.failed_level is None:
        assert isinstance(parsed.answer, dict)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
TOKENS = [
    "{",
    "}",
    "[",
    "]",
    '"',
    ",",
    ":",
    " ",
    "\n",
    "\\",
    "\\u",
    "\\ud800",
    "NaN",
    "-Infinity",
    "1e999",
    "99999999999999999999",
    "null",
    "true",
    "```json\n",
    "```\n",
    "\n```",
    "```",
    "~~~",
    "```python\n",
    '"positions"',
    '"distances"',
    "[0, 1]",
    "-",
    "0.5",
    "e",
    "//",
]
JSONISH = st.lists(
    st.sampled_from(TOKENS)
    | JSON_VALUES.map(json.dumps)
    | st.text(alphabet='{}[]",:0123456789 \n`\\', max_size=12),
    max_size=40,
).map("".join)


@pytest.mark.slow
@given(JSONISH, st.sampled_from(SCAFFOLDS))
def test_extract_never_raises_on_json_ish_text(text: str, name: str) -> None:
    parsed = extract(name, text)
    assert parsed.failed_level in (None, 1, 2)


@pytest.mark.slow
@given(JSON_VALUES, st.sampled_from(["```json\n{}\n```", "```\n{}\n```", "Answer: {}"]))
def test_any_decodable_object_reaches_the_contract_check(value: Any, template: str) -> None:
    """Whatever object decodes is handed to the schema: level 2 or usable, never level 1."""
    answer = {"positions": value}
    parsed = extract("kmp", template.replace("{}", json.dumps(answer)))
    assert parsed.failed_level in (None, 2)
    assert parsed.answer == answer


PROSE = st.text(
    alphabet=st.characters(
        codec="utf-8",
        categories=["L", "N", "P", "Zs", "S"],
        exclude_characters="`~",
    )
    | st.sampled_from(["\n", "{", "}", '"', "'"]),
    max_size=200,
)
FORMS = {
    "tagged": lambda a: fenced(a),
    "tagged-indented": lambda a: fenced(a, indent=2),
    "untagged": lambda a: fenced(a, tag=""),
    "bare": lambda a: json.dumps(a),
}
FORM_LENIENCY = {
    "tagged": (),
    "tagged-indented": (),
    "untagged": ("untagged_fence",),
    "bare": ("no_fence",),
}


@given(
    st.sampled_from(SCAFFOLDS),
    st.integers(min_value=0, max_value=5),
    st.sampled_from(sorted(FORMS)),
    PROSE,
    PROSE,
)
def test_a_reference_answer_in_random_prose_is_extracted_exactly(
    name: str, index: int, form: str, before: str, after: str
) -> None:
    answer = expected(name, index)
    if form == "bare":
        # A bare answer is "the last object in the text": braces and quotes around it are
        # other candidates by design, so this form gets plain prose.
        before, after = _plain(before), _plain(after)
    # Prose after the answer opens no object: JSON after the final answer is refused by
    # design (the reply would be ambiguous), which other tests pin down.
    after = after.replace("{", "")
    text = before + "\n" + FORMS[form](answer) + "\n" + after
    parsed = extract(name, text)
    assert parsed.failed_level is None, parsed.reason
    assert parsed.answer == answer
    noted = ("text_after_answer",) if after.strip() else ()
    assert parsed.leniency == FORM_LENIENCY[form] + noted


def _plain(prose: str) -> str:
    return "".join(char for char in prose if char not in '{}"')


# --- the helper answers (hand-written replies to real prompts) -------------------------------


@pytest.mark.parametrize("case_id", sorted(p.stem for p in HELPER_ANSWERS.glob("*.txt")))
def test_helper_answers_parse(case_id: str) -> None:
    """Each reply parses (or, where ``<id>.case.json`` records ``"parses": false``, fails
    to, with a reason); judged against the input it answered, the validator gives the
    verdict recorded there (a wrong cold answer stays a fixture)."""
    key = parse_case_id(case_id)
    assert key is not None, f"{case_id}: a fixture is named after the case it answers"
    text = (HELPER_ANSWERS / f"{case_id}.txt").read_text(encoding="utf-8")
    recorded = json.loads((HELPER_ANSWERS / f"{case_id}.case.json").read_text(encoding="utf-8"))
    parsed = extract(key.scaffold, text)
    if not recorded.get("parses", True):
        assert not parsed.ok and parsed.reason, "a reply recorded as unreadable now parses"
        return
    assert parsed.failed_level is None, parsed.reason
    assert list(parsed.leniency) == recorded.get("leniency", [])
    assert PARSER.parse(key.scaffold, text) == parsed.answer
    spec = get_spec(key.scaffold)
    case = TestCase(
        id=case_id,
        scaffold=key.scaffold,
        tier=key.tier,
        input=recorded["input"],
        expected=to_json_data(spec.reference(**recorded["input"])),
    )
    verdict = spec.validator.validate(parsed.answer, case.expected, case=case)
    assert verdict.is_valid == recorded["passes"], verdict.message


# --- a right draft followed by a wrong final answer must never pass ---------------------------


def _nudged(case: TestCase) -> dict[str, Any]:
    """A wrong answer to ``case``: its spec's first mutant (validators reject it)."""
    return dict(get_spec(case.scaffold).mutants(case, random.Random(0))[0])


@cache
def _tenth_case(name: str) -> TestCase:
    """The tenth of 30 cases planned with the suite seed, drawn once for all five shapes:
    the plan is made with every case drawn lazily, and only the tenth is drawn (the same
    draw as ``plan_cases``'s, without the other 29: about a second of the fast lane)."""
    planned = planned_cases([name], seed=DEFAULT_SEED, cases=30, lazily=lambda _: True)
    return drawn(planned[name][9])


def test_the_tenth_case_is_the_tenth_of_thirty_drawn() -> None:
    """The lazily planned tenth case is the one ``plan_cases`` draws tenth of 30."""
    assert _tenth_case("kmp") == plan_cases(["kmp"], seed=DEFAULT_SEED, cases=30)["kmp"][9]


@pytest.mark.parametrize("name", sorted(SPECS))
@pytest.mark.parametrize("shape", ["js_tag", "list_fence", "comment", "quote", "html_comment"])
def test_a_wrong_final_answer_after_a_right_draft_never_passes(name: str, shape: str) -> None:
    case = _tenth_case(name).model_copy(deep=True)  # a mutant may not touch the next shape's
    right, wrong = json.dumps(case.expected), json.dumps(_nudged(case))
    quoted = json.dumps(_nudged(case), indent=1).replace("\n", "\n> ")
    text = {
        "js_tag": f"Running result: {right}\n\nFinal answer:\n```javascript\n{wrong}\n```\n",
        "list_fence": f"Draft:\n- ```json\n  {right}\n  ```\n\nFinal:\n```json\n{wrong}\n```\n",
        "comment": f"```json\n{right}\n```\nWait, corrected:\n```json\n// fixed\n{wrong}\n```\n",
        "quote": f"```json\n{right}\n```\n> Correction:\n> ```json\n> {quoted}\n> ```\n",
        "html_comment": f"```json\n{right}\n```\n<!-- final: {wrong} -->\n",
    }[shape]
    parsed = extract(name, text)
    if parsed.ok:
        verdict = SPECS[name].validator.validate(parsed.answer, case.expected, case=case)
        assert not verdict.is_valid, (shape, parsed.answer)


def test_a_fence_inside_a_list_item_is_a_fence() -> None:
    answer = expected("kmp")
    text = "Steps:\n\n1. The answer:\n\n   ```json\n   " + json.dumps(answer) + "\n   ```\n"
    parsed = extract("kmp", text)
    assert parsed.ok and parsed.answer == answer


# --- hunt oo: replies written cold -------------------------------------------------------


@pytest.mark.parametrize("gap", ["", "\n"], ids=["next line", "after a blank line"])
def test_a_closing_fence_written_twice_is_a_stray_closer_not_an_answer_cut_off(gap: str) -> None:
    answer = expected("kmp")
    parsed = extract("kmp", WORK + fenced(answer) + "\n" + gap + "```\n")
    assert (parsed.failed_level, parsed.answer, parsed.leniency) == (None, answer, ())


def test_an_empty_fence_opened_after_prose_is_an_answer_cut_off() -> None:
    # Hunt rr: the stray-closer rule took the draft the model had just withdrawn.
    draft = fenced(another_expected("kmp"))
    text = WORK + draft + "\n\nWait, that is wrong. The correct answer is:\n\n```\n"
    assert_level_1(extract("kmp", text), "unclosed")


def test_a_closing_fence_on_the_answer_s_last_line_says_so() -> None:
    text = WORK + "```json\n" + json.dumps(expected("kmp")) + "```\n"
    assert_level_1(extract("kmp", text), "closing ``` stands on its last line")


def test_a_block_of_work_before_the_answer_block_is_no_second_answer() -> None:
    answer = expected("kmp")
    rows = "```\n[0, 1, 2]\n[1, 1, 2]\n```\n\n"
    parsed = extract("kmp", WORK + rows + fenced(answer))
    assert (parsed.failed_level, parsed.answer, parsed.leniency) == (None, answer, ())
    earlier = fenced(another_expected("kmp")) + "\n\n"
    assert extract("kmp", WORK + earlier + fenced(answer)).leniency == ("two_final_blocks",)
    broken = '```json\n{"positions": [1\n```\n\n'  # an answer begun, even broken (hunt rr)
    assert extract("kmp", WORK + broken + fenced(answer)).leniency == ("two_final_blocks",)
