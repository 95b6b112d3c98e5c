"""Numerical-method scaffolds: roots, integrals and other computations with tolerances."""

from __future__ import annotations

__all__: list[str] = []
