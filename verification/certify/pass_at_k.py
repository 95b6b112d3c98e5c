"""pass@k of code-mode programs: the unbiased estimator of Chen et al. (2021).

With ``n`` programs asked of one scaffold and ``c`` of them passing every case, the chance
that at least one of ``k`` programs drawn without replacement from the ``n`` passes is
``1 - C(n - c, k) / C(n, k)``: unbiased for the pass@k of the model, unlike ``1 - (1 -
c/n)^k``. pass@1 is ``c / n``, the share of programs that pass.
"""

from __future__ import annotations

from math import comb

__all__ = ["pass_at_k", "pass_at_ks"]


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k of ``c`` passing programs among ``n`` (Chen et al. 2021, eq. 1).

    Examples
    --------
    >>> round(pass_at_k(10, 3, 1), 4)
    0.3
    >>> round(pass_at_k(10, 3, 5), 4)
    0.9167
    >>> pass_at_k(5, 0, 5)
    0.0
    """
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n, got n={n} c={c} k={k}")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_at_ks(n: int, c: int) -> dict[int, float]:
    """pass@k at k = 1 and at each k of 5, 10, 20, ... up to ``n`` (and at ``n``)."""
    if n < 1:
        return {}
    ks = sorted({1, n, *(k for k in (5, 10, 20, 50, 100) if k <= n)})
    return {k: pass_at_k(n, c, k) for k in ks}
