"""The binomial probabilities the operating characteristic and the paired drop test are
built on, held to ``scipy.stats``; and a run that imports no ``scipy.stats`` for them."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from verification.certify.binomial import binomial_pmf
from verification.certify.paired import ALPHA, DROP_BEFORE, DROP_SIZE, drop_p_value, drop_power

TRIALS = (0, 1, 2, 7, 20, 180, 1000, 3000)
CHANCES = (0.0, 1e-6, 0.001, 0.3, 0.5, 0.85, 0.95, 0.999, 1.0)


@pytest.mark.parametrize("n", TRIALS)
@pytest.mark.parametrize("p", CHANCES)
def test_the_probabilities_are_scipys(n: int, p: float) -> None:
    from scipy.stats import binom

    ours = binomial_pmf(n, p)
    theirs = binom.pmf(np.arange(n + 1), n, p)
    assert ours.shape == theirs.shape
    # Relative agreement wherever scipy's value is a normal float; far-tail values below
    # that are both next to nothing.
    normal = theirs > 1e-290
    np.testing.assert_allclose(ours[normal], theirs[normal], rtol=1e-9)
    assert np.all(ours[~normal] < 1e-280)
    assert abs(float(ours.sum()) - 1.0) < 1e-9


@pytest.mark.parametrize(("n", "p"), [(-1, 0.5), (3, -0.1), (3, 1.5), (3, float("nan"))])
def test_a_bad_count_or_chance_is_refused(n: int, p: float) -> None:
    with pytest.raises(ValueError):
        binomial_pmf(n, p)


def test_the_drop_tests_p_value_is_scipys_binomtest() -> None:
    from scipy.stats import binomtest

    for only_a in range(40):
        for only_b in range(40):
            if only_a + only_b:
                n = only_a + only_b
                theirs = binomtest(only_a, n, 0.5, alternative="greater").pvalue
                assert drop_p_value(only_a, only_b) == pytest.approx(theirs, rel=1e-12)


def _scipy_drop_power(n: int, level: float) -> float:
    """The power of the drop test as scipy's quantiles and tails give it."""
    from scipy.stats import binom

    after = DROP_BEFORE - DROP_SIZE
    only_a, only_b = DROP_BEFORE * (1 - after), (1 - DROP_BEFORE) * after
    share = only_a / (only_a + only_b)
    d = np.arange(1, n + 1)
    k = binom.ppf(1 - level, d, 0.5) + 1
    k = np.where(binom.sf(k - 2, d, 0.5) <= level, k - 1, k)
    k = np.where(binom.sf(k - 1, d, 0.5) > level, k + 1, k)
    caught = np.where(k <= d, binom.sf(k - 1, d, share), 0.0)
    return min(1.0, float(np.sum(binom.pmf(d, n, only_a + only_b) * caught)))


@pytest.mark.parametrize("n", [1, 5, 20, 40, 100, 300])
@pytest.mark.parametrize("level", [ALPHA, 0.01, ALPHA / 7])
def test_the_drop_tests_power_is_what_scipys_tails_give(n: int, level: float) -> None:
    assert drop_power(n, level) == pytest.approx(_scipy_drop_power(n, level), abs=1e-9)


@pytest.mark.slow  # starts an interpreter
def test_a_dry_run_and_its_reports_import_no_scipy_stats(tmp_path: object) -> None:
    # Twice into one folder: the second run is compared with the first (the drop test).
    argv = ["verify", "dijkstra", "--provider", "reference", "--output", str(tmp_path)]
    code = (
        "import contextlib, io, sys\n"
        "from verification.cli import main\n"
        "for _ in range(2):\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        try:\n"
        f"            main({argv!r})\n"
        "        except SystemExit as done:\n"
        "            assert done.code in (0, None), done.code\n"
        "print('scipy.stats' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False", done.stderr[-2000:]
