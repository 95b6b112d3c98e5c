"""The model x scaffold table of runs that asked several models at once
(:mod:`verification.compose.multimodel`): each cell one (model, scaffold) pair's own certification.

The table is folded from the runs' journals, as every figure of a report is: this run's
results as the reporters have them, each other model's run read back from its manifest and
journal (untrusted files: a run that cannot be read is named, its cells left empty, and the
reports still written). Its data goes to ``models.json`` beside the summary.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from verification.certify.results import ScaffoldResults, results_from_journal
from verification.errors import ConfigurationError, JournalError, StoredFileError
from verification.reports.base import ReportContext, write_report
from verification.store.journal import read_journal
from verification.store.paths import RunPaths
from verification.store.run_ids import is_run_id

__all__ = ["ModelCell", "ModelTable", "ModelTableReporter", "model_table"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ModelCell:
    """One (model, scaffold) pair's certification."""

    status: str
    pass_rate: float
    interval: tuple[float, float]
    n: int
    borderline: bool

    @classmethod
    def of(cls, results: ScaffoldResults) -> ModelCell:
        r = results
        return cls(r.shown_status, r.pass_rate, r.interval, r.n, r.borderline)


@dataclass(frozen=True)
class ModelTable:
    """Every model's run and its certification of each scaffold."""

    runs: dict[str, str]
    """Model -> the run that asked it, in the order the models were given."""
    scaffolds: list[str]
    cells: dict[str, dict[str, ModelCell]]
    """Model -> scaffold -> cell (a model whose run could not be read has none)."""
    unreadable: dict[str, str]
    """Model -> why its run could not be read."""

    def as_json(self) -> dict[str, Any]:
        """What ``models.json`` holds."""
        return {
            "models": [
                {
                    "model": model,
                    "run_id": run_id,
                    "unreadable": self.unreadable.get(model),
                    "scaffolds": {
                        name: {
                            "status": cell.status,
                            "pass_rate": cell.pass_rate,
                            "interval": list(cell.interval),
                            "n": cell.n,
                            "borderline": cell.borderline,
                        }
                        for name, cell in self.cells.get(model, {}).items()
                    },
                }
                for model, run_id in self.runs.items()
            ]
        }


def model_table(context: ReportContext) -> ModelTable | None:
    """The table of the run in ``context`` and the runs asked with it; ``None`` for a run
    that asked one model."""
    runs = context.manifest.model_runs
    if not runs:
        return None
    results_dir = context.output_dir.parent.parent.parent  # <results>/runs/<id>/reports
    cells: dict[str, dict[str, ModelCell]] = {}
    unreadable: dict[str, str] = {}
    for model, run_id in runs.items():
        if run_id == context.manifest.run_id:
            results: dict[str, ScaffoldResults] = dict(context.results)
        else:
            try:
                results = _read_results(RunPaths(results_dir, run_id))
            except (ConfigurationError, StoredFileError, JournalError, OSError, ValueError) as exc:
                logger.warning("the run %s of model %s cannot be read: %s", run_id, model, exc)
                unreadable[model] = str(exc)[:300]
                continue
        cells[model] = {name: ModelCell.of(r) for name, r in results.items()}
    scaffolds = list(context.results)
    for model_cells in cells.values():
        scaffolds += [name for name in model_cells if name not in scaffolds]
    return ModelTable(dict(runs), scaffolds, cells, unreadable)


def _read_results(paths: RunPaths) -> dict[str, ScaffoldResults]:
    if not is_run_id(paths.run_id):
        raise ValueError(f"{paths.run_id!r:.80} is not a run id")
    manifest = paths.read_manifest()
    return results_from_journal(manifest, read_journal(paths.journal))


class ModelTableReporter:
    """``models.json``: the model x scaffold table, for a run asked with other models."""

    name = "models-json"

    def write(self, context: ReportContext) -> list[Path]:
        table = model_table(context)
        if table is None:
            return []
        context.output_dir.mkdir(parents=True, exist_ok=True)
        text = json.dumps(table.as_json(), indent=2, allow_nan=False, ensure_ascii=True)
        return [write_report(context.output_dir / "models.json", text + "\n")]
