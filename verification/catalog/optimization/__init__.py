"""Optimization scaffolds: descent, hill climbing, annealing, a genetic algorithm."""

from __future__ import annotations

__all__: list[str] = []
