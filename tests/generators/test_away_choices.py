"""draw_away_from's table is made in one pass over the two-decimal draws made once: the
same draws, in the same order, as the table made before (kept here), for any threshold,
margin and side, so rng.choice draws the same number from it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from verification.generators.optimization import _away_choices, away_choices, draw_away_from


def _by_division(threshold: float, margin: float, below: bool | None) -> tuple[float, ...]:
    choices = [u / 100 for u in range(100) if abs(u / 100 - threshold) >= margin]
    return tuple(u for u in choices if below is None or (u < threshold) == below)


@given(
    st.floats(-0.5, 1.5) | st.integers(0, 100).map(lambda v: v / 100),
    st.sampled_from([0.0, 0.01, 0.02, 0.03, 0.05, 0.1]) | st.floats(0, 1),
    st.sampled_from([None, True, False]),
)
def test_the_table_is_the_one_made_by_division(
    threshold: float, margin: float, below: bool | None
) -> None:
    assert _away_choices(threshold, margin, below) == _by_division(threshold, margin, below)


def test_a_threshold_with_no_draw_far_enough_is_refused() -> None:
    import random

    import pytest

    with pytest.raises(ValueError, match=r"no two-decimal draw is 0\.6 away from 0\.5"):
        away_choices(0.5, 0.6)
    with pytest.raises(ValueError, match=r"no two-decimal draw is 0\.6 away from 0\.5"):
        draw_away_from(random.Random(1), 0.5, 0.6)
