"""A spec reads its reference's signature once, and judges inputs by it as before."""

from __future__ import annotations

import inspect
from typing import Any

from verification.cases import generate_case
from verification.catalog import default_catalog
from verification.catalog import spec as module


def _uncached(reference: Any, test_input: dict[str, Any]) -> str | None:
    """``input_problem`` as it was: the signature read on every call."""
    try:
        signature = inspect.signature(reference)
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(**test_input)
    except TypeError as exc:
        return str(exc)
    return None


def test_every_scaffold_judges_inputs_as_a_fresh_signature_does() -> None:
    module._kept_signature.cache_clear()
    catalog = default_catalog()
    for name, spec in catalog.items():
        given = dict(generate_case(spec, "simple", 0, seed=3).input)
        first = next(iter(given))
        inputs = [
            given,
            dict(reversed(given.items())),
            {key: value for key, value in given.items() if key != first},
            {**given, "not_a_parameter": 1},
            {"not_a_parameter": 1, **given},
            {},
        ]
        for test_input in inputs:
            assert spec.input_problem(test_input) == _uncached(spec.reference, test_input), name
        assert spec.input_problem(given) is None
    assert module._kept_signature.cache_info().misses == len(
        {spec.reference for spec in catalog.values()}
    )


def test_a_callable_that_cannot_be_kept_is_read_each_time() -> None:
    class Unhashable:
        __hash__ = None  # type: ignore[assignment]

        def __call__(self, graph: object, source: object) -> None:
            return None

    reference = Unhashable()
    assert module._reference_signature(reference) == inspect.signature(reference)
    assert module._reference_signature(len) == inspect.signature(len)
    assert module._reference_signature(min) is None  # no signature to read: as before
    assert module._reference_signature(min) is None  # and again, kept
