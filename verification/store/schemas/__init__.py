"""JSON Schemas of the files other tools read: a run's ``manifest.json``, each line of its
``results.jsonl`` and its ``summary.json``, generated from the pydantic models that write
them and shipped in the package (``verification/store/schemas/*.schema.json``).

``python -m verification.store.schemas`` rewrites the files; a test fails, naming that command,
when a model changed and they were not rewritten. Each file names the format version it
describes (``x-schema-version``): the journal's ``schema`` field, the summary's
``schema_version``; a field added later is optional, so a reader of an older version can
still read a newer file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from verification.store.manifests import RunManifest
from verification.store.records import JOURNAL_SCHEMA, AttemptRecord
from verification.store.summary_file import SUMMARY_SCHEMA, RunSummary

__all__ = ["SCHEMAS", "SCHEMAS_DIR", "schema_text", "write_schemas"]

SCHEMAS_DIR = Path(__file__).resolve().parent
"""Where the schema files live (in the installed package too)."""


def _manifest() -> dict[str, Any]:
    return RunManifest.model_json_schema(mode="serialization")


def _journal_line() -> dict[str, Any]:
    schema = AttemptRecord.model_json_schema(mode="serialization")
    # On disk the version is written first, as "schema" (AttemptRecord.to_line).
    properties = schema["properties"]
    schema["properties"] = {"schema": properties.pop("schema_version"), **properties}
    schema["properties"]["schema"]["title"] = "Schema"
    schema["required"] = ["schema" if r == "schema_version" else r for r in schema["required"]]
    return schema


def _summary() -> dict[str, Any]:
    return RunSummary.model_json_schema(mode="serialization")


SCHEMAS: dict[str, tuple[str, Callable[[], dict[str, Any]], int | None]] = {
    "manifest": ("runs/<run-id>/manifest.json", _manifest, None),
    "journal-line": ("each line of runs/<run-id>/results.jsonl", _journal_line, JOURNAL_SCHEMA),
    "summary": ("runs/<run-id>/reports/summary.json", _summary, SUMMARY_SCHEMA),
}
"""Each schema's name (its file is ``<name>.schema.json``), the file it describes, the
function making it and the format version it describes."""


def schema_text(name: str) -> str:
    """The schema file ``name`` as it should read."""
    describes, make, version = SCHEMAS[name]
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": f"{describes}; written by `python -m verification.store.schemas`",
        **({"x-schema-version": version} if version is not None else {}),
        **make(),
    }
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def write_schemas(folder: Path = SCHEMAS_DIR) -> list[Path]:
    """Write every schema file into ``folder``; the paths written."""
    written = []
    for name in SCHEMAS:
        path = folder / f"{name}.schema.json"
        path.write_text(schema_text(name), "utf-8")
        written.append(path)
    return written
