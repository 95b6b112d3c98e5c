"""SVG charts beside the Markdown reports, drawn from one small Jinja2 template.

- ``summary-pass-rates.svg``: each scaffold's pass rate with its 95% interval against the
  two status thresholds;
- ``summary-trend.svg``: the pass rate over all cases of the run's scaffolds in recent
  comparable runs and this one (only when there is an earlier comparable run);
- ``<scaffold>-sizes.svg``: the size envelope, pass rate against input size with intervals
  (``ScaffoldResults.size_points``; only when the run tried two sizes or more).

Each mark carries its figures as ``data-*`` attributes and a ``<title>`` (a tooltip in a
browser), so a reader or a test gets the numbers back without measuring pixels. Names
(scaffolds, run ids) are escaped by the template's XML autoescape and cleared of characters
XML forbids.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from verification.certify.results import THRESHOLDS, ScaffoldResults, wilson_interval
from verification.reports.base import ReportContext, write_report
from verification.reports.compiled import template_bytecode
from verification.reports.xmltext import xml_text

__all__ = [
    "TREND_RUNS",
    "ChartMark",
    "SvgChartReporter",
    "render_chart",
    "scaffold_chart_name",
    "summary_charts",
]

TREND_RUNS = 10
"""Earlier comparable runs the trend shows (and the summary reads)."""
PASS_RATES = "summary-pass-rates.svg"
TREND = "summary-trend.svg"
_COLOURS = {"CERTIFIED": "#2ca02c", "PARTIAL": "#ff7f0e", "FAILED": "#d62728"}
_WIDTH, _TOP, _BOTTOM = 640, 40, 36
_ROW = 22
_LABEL_WIDTH = 180


@dataclass(frozen=True)
class ChartMark:
    """One point with its interval: a scaffold, a run or a size."""

    label: str
    rate: float
    low: float
    high: float
    n: int
    status: str = ""


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("verification.reports", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=True,  # XML: a name holding '<' or '&' stays text
        keep_trailing_newline=True,
        bytecode_cache=template_bytecode("charts"),
    )


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _tooltip(mark: ChartMark) -> str:
    status = f"{mark.status}, " if mark.status else ""
    return (
        f"{mark.label}: {status}{_pct(mark.rate)} (95% interval {_pct(mark.low)} to "
        f"{_pct(mark.high)}, n={mark.n})"
    )


def _common(mark: ChartMark) -> dict[str, Any]:
    return {
        "label": xml_text(mark.label, 60),
        "rate": f"{mark.rate:.6f}",
        "low": f"{mark.low:.6f}",
        "high": f"{mark.high:.6f}",
        "n": mark.n,
        "tooltip": xml_text(_tooltip(mark), 200),
        "colour": _COLOURS.get(mark.status, "#1f77b4" if not mark.status else "#7f7f7f"),
    }


def _thresholds(horizontal: bool, to_px: Any, span: tuple[float, float]) -> list[dict[str, Any]]:
    lines = []
    for name, value in THRESHOLDS.items():
        at = to_px(value)
        colour = _COLOURS[name]
        label = f"{name} {value:.0%}"
        if horizontal:
            lines.append(
                {"value": value, "x1": at, "y1": span[0], "x2": at, "y2": span[1], "colour": colour}
                | {"label": label, "label_x": at, "label_y": span[0] - 4}
            )
        else:
            lines.append(
                {"value": value, "x1": span[0], "y1": at, "x2": span[1], "y2": at, "colour": colour}
                | {"label": label, "label_x": span[1] - 40, "label_y": at - 3}
            )
    return lines


def render_chart(title: str, marks: Sequence[ChartMark], *, horizontal: bool) -> str:
    """An SVG of ``marks`` with their intervals against the status thresholds: one row per
    mark (``horizontal``, rate on the x axis) or one column per mark along a line."""
    if horizontal:
        left, right = _LABEL_WIDTH, _WIDTH - 20
        height = _TOP + _ROW * len(marks) + _BOTTOM

        def x_of(rate: float) -> float:
            return round(left + rate * (right - left), 1)

        rows = []
        for i, mark in enumerate(marks):
            y = _TOP + _ROW * i + _ROW / 2
            rows.append(
                _common(mark)
                | {"x": x_of(mark.rate), "y": y, "low_x": x_of(mark.low), "high_x": x_of(mark.high)}
                | {"low_y": y, "high_y": y, "label_x": left - 8, "label_y": y + 4}
                | {"label_anchor": "end"}
            )
        bottom = height - _BOTTOM + 4
        chart: dict[str, Any] = {
            "thresholds": _thresholds(True, x_of, (_TOP, bottom)),
            "axes": [{"x1": left, "y1": bottom, "x2": right, "y2": bottom}],
            "ticks": [
                {"x": x_of(v / 100), "y": bottom + 14, "label": f"{v}%", "anchor": "middle"}
                for v in range(0, 101, 25)
            ],
            "polyline": "",
            "marks": rows,
        }
    else:
        height = 300
        left, right, top, bottom = 50, _WIDTH - 20, _TOP, height - _BOTTOM
        step = (right - left) / max(len(marks), 1)

        def y_of(rate: float) -> float:
            return round(bottom - rate * (bottom - top), 1)

        columns = []
        for i, mark in enumerate(marks):
            x = round(left + step * (i + 0.5), 1)
            columns.append(
                _common(mark)
                | {"x": x, "y": y_of(mark.rate), "low_x": x, "high_x": x}
                | {"low_y": y_of(mark.low), "high_y": y_of(mark.high)}
                | {"label_x": x, "label_y": bottom + 14, "label_anchor": "middle"}
            )
        chart = {
            "thresholds": _thresholds(False, y_of, (left, right)),
            "axes": [
                {"x1": left, "y1": bottom, "x2": right, "y2": bottom},
                {"x1": left, "y1": top, "x2": left, "y2": bottom},
            ],
            "ticks": [
                {"x": left - 4, "y": y_of(v / 100) + 4, "label": f"{v}%", "anchor": "end"}
                for v in range(0, 101, 25)
            ],
            "polyline": " ".join(f"{c['x']},{c['y']}" for c in columns),
            "marks": columns,
        }
    chart |= {"title": xml_text(title, 120), "width": _WIDTH, "height": height}
    return _environment().get_template("chart.svg.j2").render(c=chart)


def _scaffold_mark(r: ScaffoldResults) -> ChartMark:
    low, high = r.interval
    return ChartMark(r.scaffold, r.pass_rate, low, high, r.n, r.shown_status)


def _size_marks(results: ScaffoldResults) -> list[ChartMark]:
    """The size envelope's points with a rate, as the scaffold report's table shows them: a
    size nothing was counted at (a budget stopped the run before it) has none, and drawn at
    0% it read as a collapse the data does not have (hunt bb)."""
    return [
        ChartMark(str(p.size), p.pass_rate, *p.interval, p.n, p.status)
        for p in results.size_points
        if p.n
    ]


def _pooled(label: str, scores: list[float], ns: list[int]) -> ChartMark:
    score, n = sum(scores), sum(ns)
    return ChartMark(label, score / n if n else 0.0, *wilson_interval(score, n), n)


def _trend_marks(context: ReportContext) -> list[ChartMark]:
    """The pass rate over all cases of this run's scaffolds (score sum over cases, with its
    Wilson interval), in each earlier comparable run that holds them, then in this run."""
    names = list(context.results)
    marks = []
    for entry in context.history:
        if entry.summary is None:
            continue
        held = [entry.summary.scaffolds[n] for n in names if n in entry.summary.scaffolds]
        if held:
            label = entry.run_id[:15]  # the run's time: a full id is too wide for a column
            marks.append(_pooled(label, [s.score for s in held], [s.n for s in held]))
    now = list(context.results.values())
    if marks and now:
        marks.append(_pooled("this run", [r.score for r in now], [r.n for r in now]))
    # A run that counted nothing has no rate: drawn at 0% it read as a collapse (hunt al).
    marks = [mark for mark in marks if mark.n]
    return marks if len(marks) >= 2 else []


def scaffold_chart_name(scaffold: str) -> str:
    """The size curve's file name for ``scaffold``."""
    return f"{scaffold}-sizes.svg"


def summary_charts(context: ReportContext) -> list[Path]:
    """The summary's charts that exist in the run's reports folder, in the order shown."""
    return [p for p in (context.output_dir / n for n in (PASS_RATES, TREND)) if p.is_file()]


class SvgChartReporter:
    """The summary's charts and each scaffold's size curve (see the module docstring)."""

    name = "svg-charts"

    def write(self, context: ReportContext) -> list[Path]:
        context.output_dir.mkdir(parents=True, exist_ok=True)
        written = []
        results = list(context.results.values())
        # A scaffold nothing was counted at has no rate: drawn at 0% it read as all wrong.
        (context.output_dir / PASS_RATES).unlink(missing_ok=True)  # none left to draw
        if marks := [_scaffold_mark(r) for r in results if r.n]:
            title = f"Pass rate per scaffold, run {context.manifest.run_id}"
            chart = render_chart(title, marks, horizontal=True)
            written.append(self._write(context, PASS_RATES, chart))
        trend = context.output_dir / TREND
        trend.unlink(missing_ok=True)  # a re-rendered run may have lost its history
        if marks := _trend_marks(context):
            title = "Pass rate over the run's scaffolds, recent comparable runs"
            chart = render_chart(title, marks, horizontal=False)
            written.append(self._write(context, TREND, chart))
        for r in results:
            if len(sizes := _size_marks(r)) >= 2:
                title = f"{r.scaffold}: pass rate by size"
                chart = render_chart(title, sizes, horizontal=False)
                written.append(self._write(context, scaffold_chart_name(r.scaffold), chart))
        return written

    @staticmethod
    def _write(context: ReportContext, name: str, text: str) -> Path:
        return write_report(context.output_dir / name, text)
