"""A journal line's ``finished_at`` is formatted once per second: the text is what
``datetime.now(UTC).isoformat(timespec="seconds")`` gives at that moment."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from verification.run.attempt_records import _now

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def test_the_time_is_what_datetime_says_around_it() -> None:
    for _ in range(1000):
        before = datetime.now(UTC).isoformat(timespec="seconds")
        now = _now()
        after = datetime.now(UTC).isoformat(timespec="seconds")
        assert before <= now <= after
        assert now in (before, after)


@pytest.mark.parametrize(
    "nanoseconds",
    [
        1_795_000_000_000_000_000 - 1,  # the last nanosecond of a second
        1_795_000_000_000_000_000,
        1_795_000_000_999_999_999,
        1_795_000_001_000_000_000,
        1_795_000_000_999_999_500,  # rounded half up to the microsecond, past the second
    ],
)
def test_each_second_is_the_clock_floored(
    nanoseconds: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # datetime.now reads the clock's nanoseconds and floors them to the microsecond.
    expected = (_EPOCH + timedelta(microseconds=nanoseconds // 1000)).isoformat(timespec="seconds")
    monkeypatch.setattr(time, "time_ns", lambda: nanoseconds)
    assert _now() == expected
    monkeypatch.setattr(time, "time_ns", lambda: nanoseconds + 1_000_000_000)
    assert _now() == (_EPOCH + timedelta(seconds=1, microseconds=nanoseconds // 1000)).isoformat(
        timespec="seconds"
    )
