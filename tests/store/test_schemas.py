"""The JSON Schemas shipped for other tools (issue 17 item 2): in step with the models that
write the files, and met by the files a real run writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic.version import VERSION

from verification.cli import main
from verification.store.records import JOURNAL_SCHEMA
from verification.store.schemas import SCHEMAS, SCHEMAS_DIR, schema_text
from verification.store.summary_file import SUMMARY_SCHEMA

PYDANTIC_VERSION = tuple(int(part) for part in VERSION.split(".")[:2])


def _without_version_noise(value: object) -> object:
    """A schema without what older pydantic releases leave out of the same model's schema
    (``additionalProperties: true``, JSON Schema's default, docstring descriptions, and the
    one-value ``enum`` a newer release writes beside a ``const`` of that value)."""
    if isinstance(value, dict):
        return {
            key: _without_version_noise(item)
            for key, item in value.items()
            if key != "description"
            and not (key == "additionalProperties" and item is True)
            and not (key == "enum" and "const" in value and item == [value["const"]])
        }
    if isinstance(value, list):
        return [_without_version_noise(item) for item in value]
    return value


@pytest.mark.parametrize("name", list(SCHEMAS))
def test_each_schema_file_is_in_step_with_its_model(name: str) -> None:
    path = SCHEMAS_DIR / f"{name}.schema.json"
    assert path.is_file()
    stale = f"{path} is stale: run `python -m verification.store.schemas`"
    if PYDANTIC_VERSION >= (2, 9):  # the files are written by a current pydantic, letter for letter
        assert path.read_text("utf-8") == schema_text(name), stale
    else:  # the lowest declared pydantic: the same fields, types and requirements
        on_disk = json.loads(path.read_text("utf-8"))
        assert _without_version_noise(on_disk) == _without_version_noise(
            json.loads(schema_text(name))
        ), stale


def _schema(name: str) -> dict[str, object]:
    # jsonschema is imported where it is used: only this module needs it, and each xdist
    # worker collects every module (0.15 s of CPU a worker, most of which run none of these).
    import jsonschema

    schema = json.loads((SCHEMAS_DIR / f"{name}.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def _validate(instance: object, schema: dict[str, object]) -> None:
    """``jsonschema.validate`` on a schema :func:`_schema` has checked: the same validator
    class and error, without checking the schema again (0.06 to 0.2 s a call)."""
    import jsonschema

    error = jsonschema.exceptions.best_match(
        jsonschema.validators.validator_for(schema)(schema).iter_errors(instance)
    )
    if error is not None:
        raise error


@pytest.mark.slow
def test_a_run_s_files_meet_their_schemas(tmp_path: Path) -> None:
    argv = ["verify", "kmp", "bfs", "--provider", "reference", "--cases", "3", "--samples", "2"]
    assert main([*argv, "--output", str(tmp_path)]) == 0
    (run,) = (tmp_path / "runs").iterdir()
    manifest = json.loads((run / "manifest.json").read_text("utf-8"))
    _validate(manifest, _schema("manifest"))
    lines = (run / "results.jsonl").read_text("utf-8").splitlines()
    assert len(lines) == 12
    journal_schema = _schema("journal-line")
    assert journal_schema["x-schema-version"] == JOURNAL_SCHEMA
    for line in lines:
        _validate(json.loads(line), journal_schema)
    summary = json.loads((run / "reports" / "summary.json").read_text("utf-8"))
    summary_schema = _schema("summary")
    assert summary["schema_version"] == summary_schema["x-schema-version"] == SUMMARY_SCHEMA
    _validate(summary, summary_schema)


def test_a_schema_rejects_what_its_file_never_holds() -> None:
    import jsonschema

    with pytest.raises(jsonschema.ValidationError):
        _validate({"schema": 1, "scaffold": 7}, _schema("journal-line"))
    with pytest.raises(jsonschema.ValidationError):
        _validate({"run_id": "x"}, _schema("summary"))  # no dry_run


def test_a_dry_run_s_manifest_names_no_model_it_never_asked(tmp_path: Path) -> None:
    from verification.config import load_settings

    argv = ["verify", "kmp", "--provider", "reference", "--cases", "2"]
    assert main([*argv, "--output", str(tmp_path)]) == 0
    (run,) = (tmp_path / "runs").iterdir()
    text = (run / "manifest.json").read_text("utf-8")
    manifest = json.loads(text)
    assert manifest["dry_run"] and manifest["model_requested"] is None
    settings = load_settings()
    for model in (settings.dev_model, settings.cert_model):
        assert model not in text
    summary = json.loads((run / "reports" / "summary.json").read_text("utf-8"))
    assert summary["model_requested"] is None
