"""Oracles for answers that cluster by case: the one-way ANOVA intra-class correlation and the
design-effect number of answers, written from their textbook definitions with numpy."""

from __future__ import annotations

import numpy as np

__all__ = ["anova_icc", "design_effect_answers"]


def anova_icc(answers: np.ndarray) -> float:
    """``(MSB - MSW) / (MSB + (K - 1) MSW)`` of a cases x samples array of 0/1 answers,
    clipped to [0, 1] (1.0 when there is no variation at all)."""
    n, k = answers.shape
    case_means = answers.mean(axis=1)
    msb = k * float(((case_means - answers.mean()) ** 2).sum()) / (n - 1)
    msw = float(((answers - case_means[:, None]) ** 2).sum()) / (n * (k - 1))
    if msb + (k - 1) * msw == 0:
        return 1.0
    return float(np.clip((msb - msw) / (msb + (k - 1) * msw), 0.0, 1.0))


def design_effect_answers(answers: np.ndarray) -> float:
    """``n K / (1 + (K - 1) rho)``: what ``n`` cases of ``K`` samples are worth."""
    n, k = answers.shape
    return float(n * k / (1 + (k - 1) * anova_icc(answers)))
