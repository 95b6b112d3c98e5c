"""The catalog as documentation: ``docs/CATALOG.md``, written from the specs themselves
(``python -m verification list --markdown``) and kept in step by a test, so no page lists
the scaffolds by hand."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from verification.cases import TIERS
from verification.catalog import Catalog
from verification.catalog.spec import SWEEP_TIERS, ScaffoldSpec

__all__ = ["answer_shape", "catalog_json", "catalog_markdown", "json_type"]

_SCALARS = {"integer": "int", "number": "number", "string": "string", "boolean": "bool"}


def json_type(schema: Mapping[str, Any], definitions: Mapping[str, Any]) -> str:
    """A JSON schema as a short type: ``list[int]``, ``dict[str, int | null]``,
    ``[string, string, int]``."""
    if "$ref" in schema:
        return json_type(definitions[schema["$ref"].rsplit("/", 1)[-1]], definitions)
    if "anyOf" in schema:
        return " | ".join(json_type(option, definitions) for option in schema["anyOf"])
    kind = schema.get("type")
    if kind == "null":
        return "null"
    if kind == "array":
        if "prefixItems" in schema:
            items = ", ".join(json_type(item, definitions) for item in schema["prefixItems"])
            return f"[{items}]"
        return f"list[{json_type(schema.get('items', {}), definitions)}]"
    if kind == "object":
        values = schema.get("additionalProperties")
        if isinstance(values, Mapping):
            return f"dict[str, {json_type(values, definitions)}]"
        return "object"
    if isinstance(kind, str):
        return _SCALARS.get(kind, kind)
    return "any"


def answer_shape(spec: ScaffoldSpec) -> str:
    """The answer object's keys and their JSON types, in the schema's order."""
    schema = spec.answer_schema.model_json_schema()
    definitions = schema.get("$defs", {})
    fields = schema.get("properties", {})
    return ", ".join(f"{name}: {json_type(field, definitions)}" for name, field in fields.items())


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _size_options(spec: ScaffoldSpec) -> dict[str, list[list[int]]]:
    """The sizes each option accepts, as ascending ``[low, high]`` runs: ``size`` (``--size
    N`` on a run of every tier; empty when the tiers share none) and ``sizes``
    (``--sizes``, over the sweep's tiers)."""
    return {
        "size": [list(run) for run in spec.size.shared(TIERS)],
        "sizes": [list(run) for run in spec.size.spanned(SWEEP_TIERS)],
    }


def catalog_json(catalog: Catalog, names: Sequence[str]) -> str:
    """``list --json``: the scaffolds ``names`` of ``catalog`` and the skipped plugins, as
    one JSON document other tools read."""
    scaffolds = []
    for name in names:
        spec = catalog[name]
        ranges: dict[str, list[int] | None] = {t: list(spec.size.ranges[t]) for t in TIERS}
        ranges["stress"] = list(spec.size.stress) if spec.size.stress else None
        scaffolds.append(
            {
                "name": name,
                "category": spec.category,
                "title": spec.title,
                "description": spec.description,
                "validator": spec.validator.kind,
                "size": {
                    "unit": spec.size.unit,
                    "ranges": ranges,
                    "stress_limit": spec.size.stress_limit or None,
                    "options": _size_options(spec),
                },
                "answer_schema": spec.answer_schema.model_json_schema(),
                "tolerances": {what: str(bound) for what, bound in spec.tolerances.items()},
                "max_output_tokens": spec.max_output_tokens,
            }
        )
    skipped = [
        {"name": s.name, "distribution": s.distribution, "reason": s.reason}
        for s in catalog.skipped.values()
    ]
    return json.dumps({"scaffolds": scaffolds, "skipped": skipped}, indent=2, ensure_ascii=False)


def catalog_markdown(catalog: Catalog) -> str:
    """Every scaffold of ``catalog`` by category: what it asks, its answer shape, its size
    axis per tier, its validator and its tolerances."""
    lines = [
        "# Scaffold catalog",
        "",
        "Written by `python -m verification list --markdown` from the scaffolds' specs; a test",
        "keeps this page in step with them. `python -m verification show-prompt NAME --case",
        "NAME-standard-000` prints what a model is sent.",
        "",
    ]
    for category in sorted({catalog[name].category for name in catalog}):
        lines += [
            f"## {category}",
            "",
            "| scaffold | asks | answer (JSON object) | size: "
            + " / ".join(TIERS)
            + " | validator | tolerances |",
            "|---|---|---|---|---|---|",
        ]
        for name in catalog.by_category(category):
            spec = catalog[name]
            ranges = " / ".join(
                f"{low}-{high}" for low, high in (spec.size.ranges[t] for t in TIERS)
            )
            tolerances = "; ".join(f"{what}: {bound}" for what, bound in spec.tolerances.items())
            cells = [
                f"`{name}`",
                _cell(spec.description or spec.title),
                f"`{{{_cell(answer_shape(spec))}}}`",
                f"{spec.size.unit}: {ranges}",
                spec.validator.kind,
                tolerances or "exact",
            ]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines + _code_ladders(catalog))


def _code_ladders(catalog: Catalog) -> list[str]:
    """Code mode's size ladders: the standard-tier sizes every program runs at, and why a
    ladder stops short of 1,000."""
    lines = [
        "## Code mode's size ladders",
        "",
        "`verify --answer code` runs every program at these standard-tier sizes besides the",
        "level's cases (two cases each); where a ladder stops short of 1,000, why.",
        "",
        "| scaffold | sizes | why not 1,000 |",
        "|---|---|---|",
    ]
    for name in sorted(catalog):
        spec = catalog[name]
        sizes = ", ".join(f"{size:,}" for size in spec.code_ladder)
        lines.append(f"| `{name}` | {sizes} | {_cell(spec.code_size_limit) or '-'} |")
    return [*lines, ""]
