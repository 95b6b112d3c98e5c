"""The binomial probabilities the operating characteristic is built on, held to
``scipy.stats.binom``; and a run that imports no ``scipy.stats`` for them."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from scipy.stats import binom

from verification.certify.binomial import binomial_pmf

TRIALS = (0, 1, 2, 7, 20, 180, 1000, 3000)
CHANCES = (0.0, 1e-6, 0.001, 0.3, 0.5, 0.85, 0.95, 0.999, 1.0)


@pytest.mark.parametrize("n", TRIALS)
@pytest.mark.parametrize("p", CHANCES)
def test_the_probabilities_are_scipys(n: int, p: float) -> None:
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


@pytest.mark.slow  # starts an interpreter
def test_a_dry_run_and_its_reports_import_no_scipy_stats(tmp_path: object) -> None:
    argv = ["verify", "dijkstra", "--provider", "reference", "--output", str(tmp_path)]
    code = (
        "import contextlib, io, sys\n"
        "from verification.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({argv!r})\n"
        "    except SystemExit as done:\n"
        "        assert done.code in (0, None), done.code\n"
        "print('scipy.stats' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False", done.stderr[-2000:]
