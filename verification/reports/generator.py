"""Markdown and JSON certification reports, rendered with Jinja2 from results.

Model text is data: every model-written string lands in a code fence longer than any run of
backticks it holds, or in a table cell with ``|``, ``<`` and line breaks escaped, so no reply
can break a report's layout.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from verification.journal import RunManifest, RunPaths, ScaffoldEntry, read_manifest_file
from verification.results import ScaffoldResults

__all__ = ["ReportGenerator", "md_cell", "md_code", "md_fence", "write_run_reports"]

SHOWN_RESPONSE_CHARS = 20_000
_MARKER = ".verification-reports"
"""Marks a folder the harness wrote, so that only such a folder is ever replaced."""
logger = logging.getLogger(__name__)
_MARKDOWN_PUNCTUATION = re.compile(r"[\\\[\]()!*_~#|>]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _printable(text: str) -> str:
    """Control characters dropped; lone surrogates (not Unicode) written as escapes."""
    return _CONTROL.sub("", text.encode("utf-8", "backslashreplace").decode("utf-8"))


def md_cell(value: object, limit: int = 300) -> str:
    """A value made safe for one Markdown table cell or line."""
    text = _printable(str(value)).replace("\r", " ").replace("\n", " ")
    text = text.replace("`", "'").replace("<", "&lt;")
    # Backslash-escape what Markdown could turn into links, images, emphasis or columns.
    text = _MARKDOWN_PUNCTUATION.sub(r"\\\g<0>", text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def md_code(value: object, limit: int = 300) -> str:
    """A value as an inline code span (safe in a table cell: ``|`` escaped)."""
    text = _printable(str(value)).replace("\r", " ").replace("\n", " ").replace("`", "'")
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return "`" + text.replace("|", "\\|") + "`"


def md_fence(text: str, info: str = "") -> str:
    """``text`` in a fence no line of it can close (longer than its longest backtick run)."""
    body = _printable(text)
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    marker = "`" * max(3, longest + 1)
    return f"{marker}{info}\n{body}\n{marker}"


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("verification.reports", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # Markdown; escaping is done by md_cell and md_fence
        trim_blocks=False,
        keep_trailing_newline=True,
    )
    env.globals.update(
        pct=_pct, cell=md_cell, code=md_code, fence=md_fence, shown_chars=SHOWN_RESPONSE_CHARS
    )
    env.filters["cell"] = md_cell
    env.filters["code"] = md_code
    env.policies["json.dumps_kwargs"] = {"sort_keys": False, "ensure_ascii": False}
    return env


def summary_data(manifest: RunManifest, results: Sequence[ScaffoldResults]) -> dict[str, Any]:
    """The run's summary as JSON data (``summary.json``)."""
    return {
        "run_id": manifest.run_id,
        "dry_run": manifest.dry_run,
        "run_label": manifest.run_label,
        "provider": manifest.provider.get("provider"),
        "model_requested": None if manifest.dry_run else manifest.model_requested,
        "models_returned": manifest.models_returned,
        "seed": manifest.seed,
        "scaffolds": {
            r.scaffold: {
                "status": r.status,
                "run_label": manifest.run_label,
                "pass_rate": r.pass_rate,
                "passed": r.passed,
                "n": r.n,
                "planned": r.planned,
                "interval_95": list(r.interval),
                "borderline": r.borderline,
                "pass_rate_after_repair": r.repaired_pass_rate,
                "per_tier": {tier: {"passed": p, "n": n} for tier, (p, n) in r.per_tier.items()},
                "failures_by_level": {str(k): v for k, v in r.failures_by_level.items()},
                "truncated": r.truncated,
                "infra_errors": r.infra_errors,
                "missing": r.missing,
                "usage": r.usage,
            }
            for r in results
        },
    }


class ReportGenerator:
    """Writes ``<scaffold>.md``, ``summary.md`` and ``summary.json`` into ``output_dir``."""

    def __init__(
        self,
        output_dir: str | Path = "verification_results/reports",
        *,
        manifest: RunManifest | None = None,
    ) -> None:
        self.output_dir = Path(output_dir)
        self.manifest = manifest

    def _manifest_for(self, results: Sequence[ScaffoldResults]) -> RunManifest:
        if self.manifest is not None:
            return self.manifest
        # Reports built outside a run (the API reference's usage): describe what we know.
        label = next((r.run_label for r in results if r.run_label), None)
        return RunManifest(
            run_id="ad-hoc",
            created_at="",
            provider={"provider": "unknown" if label is None else label.lower()},
            dry_run=label is not None,
            run_label=label,
            model_requested="unknown",
            settings={},
            seed=0,
            cases=0,
            samples=1,
            tiers=[],
            template_version="",
            code_version="",
            scaffolds={
                r.scaffold: ScaffoldEntry(file="unknown", sha256="unknown", case_ids=[])
                for r in results
            },
        )

    def render_scaffold_report(self, results: ScaffoldResults) -> str:
        """The Markdown report of one scaffold."""
        template = _environment().get_template("scaffold.md.j2")
        return template.render(r=results, m=self._manifest_for([results]))

    def generate_scaffold_report(self, results: ScaffoldResults) -> Path:
        """Write ``<scaffold>.md``; returns its path."""
        self.output_dir.mkdir(parents=True, exist_ok=True)
        path = self.output_dir / f"{results.scaffold}.md"
        path.write_text(self.render_scaffold_report(results), encoding="utf-8")
        return path

    def generate_summary_report(
        self, all_results: Sequence[ScaffoldResults], *, previous: dict[str, Any] | None = None
    ) -> Path:
        """Write ``summary.md`` and ``summary.json``; returns the Markdown's path."""
        manifest = self._manifest_for(all_results)
        self.output_dir.mkdir(parents=True, exist_ok=True)
        data = summary_data(manifest, all_results)
        changes = []
        if previous:
            for name, now in data["scaffolds"].items():
                before = previous.get("scaffolds", {}).get(name, {}).get("status")
                if before and before != now["status"]:
                    changes.append((name, before, now["status"]))
            data["previous_run_id"] = previous.get("run_id")
            data["status_changes"] = [{"scaffold": n, "before": b, "now": a} for n, b, a in changes]
        totals = Counter(r.status for r in all_results)
        markdown = (
            _environment()
            .get_template("summary.md.j2")
            .render(
                m=manifest,
                results=all_results,
                totals=dict(totals),
                previous=previous,
                changes=changes,
            )
        )
        (self.output_dir / "summary.json").write_text(
            json.dumps(data, indent=2, allow_nan=False) + "\n", encoding="utf-8"
        )
        path = self.output_dir / "summary.md"
        path.write_text(markdown, encoding="utf-8")
        return path


def _previous_summary(paths: RunPaths, manifest: RunManifest) -> dict[str, Any] | None:
    """The summary of the latest run of the same provider and model created before this one."""
    candidates: list[tuple[str, dict[str, Any]]] = []
    runs = paths.results_dir / "runs"
    for run_dir in runs.iterdir() if runs.is_dir() else []:
        try:
            other = read_manifest_file(run_dir / "manifest.json")
            summary = json.loads((run_dir / "reports" / "summary.json").read_text())
        except (OSError, ValueError):
            continue
        same = (other.provider.get("provider"), other.model_requested) == (
            manifest.provider.get("provider"),
            manifest.model_requested,
        )
        if same and other.created_at < manifest.created_at and isinstance(summary, dict):
            candidates.append((other.created_at, summary))
    return max(candidates, key=lambda pair: pair[0])[1] if candidates else None


def write_run_reports(
    paths: RunPaths, manifest: RunManifest, results: dict[str, ScaffoldResults]
) -> Path:
    """Render a run's reports into its folder and copy them to ``<results_dir>/reports``."""
    generator = ReportGenerator(paths.reports, manifest=manifest)
    for scaffold_results in results.values():
        generator.generate_scaffold_report(scaffold_results)
    summary = generator.generate_summary_report(
        list(results.values()), previous=_previous_summary(paths, manifest)
    )
    (paths.reports / _MARKER).write_text("written by the scaffold certification harness\n")
    latest = paths.latest_reports
    if latest.exists() and not (latest / _MARKER).exists():
        logger.warning(
            "%s was not written by the harness: left alone, latest reports not copied there",
            latest,
        )
        return summary
    if latest.exists():
        shutil.rmtree(latest)
    shutil.copytree(paths.reports, latest)
    return summary
