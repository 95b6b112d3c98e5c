"""The report templates' compiled code is kept between processes (issue 27 item 16: about
0.13 s of CPU per process that writes reports): read back by the next environment, never
by another environment, never for another source, and a damaged file, a folder that cannot
be written or ``PYTHONDONTWRITEBYTECODE`` only mean compiling as before."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import jinja2
import pytest

from verification.reports import compiled
from verification.reports.compiled import TemplateBytecode, template_bytecode
from verification.reports.generator import _environment
from verification.reports.html import page_template

SOURCE = "{% for x in xs %}{{ x | upper }},{% endfor %}"


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates compiled from now on."""
    compiled_names: list[str] = []
    compile_template: Any = jinja2.Environment.compile

    def counted(self: jinja2.Environment, source: str, name: str | None = None, *a: Any) -> Any:
        compiled_names.append(str(name))
        return compile_template(self, source, name, *a)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return compiled_names


def _environment_with(cache: TemplateBytecode, source: str = SOURCE) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.DictLoader({"t.j2": source}), bytecode_cache=cache)


def test_the_package_s_environments_keep_their_code_beside_the_package_s_bytecode() -> None:
    assert Path(compiled.__file__).parent / "templates" / "__pycache__" == compiled.FOLDER
    assert _environment().bytecode_cache is not None
    assert isinstance(_environment().bytecode_cache, TemplateBytecode)
    assert page_template().environment.bytecode_cache is not None
    names = {template_bytecode(name).name for name in ("markdown", "pages", "charts")}
    assert len(names) == 3


def test_a_template_compiled_once_is_read_back_by_the_next_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    compiled_names = _counting(monkeypatch)
    first = _environment().overlay(
        bytecode_cache=TemplateBytecode(tmp_path, "markdown"), cache_size=0
    )
    text = first.get_template("cost.md.j2")
    assert compiled_names == ["cost.md.j2"]
    assert [p.name.split("-")[0] for p in tmp_path.iterdir()] == ["markdown"]
    again = _environment().overlay(
        bytecode_cache=TemplateBytecode(tmp_path, "markdown"), cache_size=0
    )
    read_back = again.get_template("cost.md.j2")
    assert compiled_names == ["cost.md.j2"]  # read, not compiled
    assert read_back.root_render_func.__code__.co_code == text.root_render_func.__code__.co_code
    # Another environment (other settings, say) never runs code this one compiled.
    other = _environment().overlay(bytecode_cache=TemplateBytecode(tmp_path, "pages"))
    other.get_template("cost.md.j2")
    assert compiled_names == ["cost.md.j2", "cost.md.j2"]


def test_code_read_back_renders_what_compiled_code_renders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    compiled_names = _counting(monkeypatch)
    values = {"xs": ["a", "<b>", "ç"]}
    fresh = _environment_with(TemplateBytecode(tmp_path, "t")).get_template("t.j2")
    read = _environment_with(TemplateBytecode(tmp_path, "t")).get_template("t.j2")
    assert len(compiled_names) == 1
    plain = jinja2.Environment(loader=jinja2.DictLoader({"t.j2": SOURCE})).get_template("t.j2")
    assert fresh.render(values) == read.render(values) == plain.render(values) == "A,<B>,Ç,"


def test_a_changed_source_or_a_damaged_file_is_compiled_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    compiled_names = _counting(monkeypatch)
    _environment_with(TemplateBytecode(tmp_path, "t")).get_template("t.j2")
    changed = _environment_with(TemplateBytecode(tmp_path, "t"), "{{ xs | length }}")
    assert changed.get_template("t.j2").render(xs=[1, 2]) == "2"
    assert len(compiled_names) == 2
    (path,) = tmp_path.iterdir()
    whole = path.read_bytes()
    for damaged in (whole[: len(whole) // 2], whole[:10], b"", b"\x00" * 40, whole[:-1] + b"!"):
        path.write_bytes(damaged)
        environment = _environment_with(TemplateBytecode(tmp_path, "t"), "{{ xs | length }}")
        assert environment.get_template("t.j2").render(xs=[1, 2, 3]) == "3"
    assert path.read_bytes() == whole  # written again whole
    # Another interpreter's file (another magic number) is compiled again too.
    path.write_bytes(b"\x00\x00\r\n" + whole[4:])
    count = len(compiled_names)
    _environment_with(TemplateBytecode(tmp_path, "t"), "{{ xs | length }}").get_template("t.j2")
    assert len(compiled_names) == count + 1
    assert path.read_bytes() == whole


def test_code_compiled_under_other_settings_is_compiled_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same template source, an environment changed by a newer version of the package:
    # autoescaping and whitespace handling are compiled into the code.
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    source = "{{ x }}|\n{% if 1 %}\nA\n{% endif %}\n"
    loader = jinja2.DictLoader({"t.j2": source})
    cache = TemplateBytecode(tmp_path, "t")
    jinja2.Environment(loader=loader, bytecode_cache=cache).get_template("t.j2")
    changed = {"autoescape": True, "trim_blocks": True}
    read = jinja2.Environment(loader=loader, bytecode_cache=cache, **changed).get_template("t.j2")
    fresh = jinja2.Environment(loader=loader, **changed).get_template("t.j2")
    assert read.render(x="<b>") == fresh.render(x="<b>") == "&lt;b&gt;|\nA\n"
    # Read back by an environment with the settings it was compiled under (the same key).
    again = jinja2.Environment(loader=loader, bytecode_cache=cache, **changed)
    compiled_names = _counting(monkeypatch)
    assert again.get_template("t.j2").render(x="<b>") == fresh.render(x="<b>")
    assert compiled_names == []


def test_a_folder_that_cannot_be_written_or_no_bytecode_only_means_compiling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled_names = _counting(monkeypatch)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    folder = tmp_path / "cache"
    for _ in range(2):
        template = _environment_with(TemplateBytecode(folder, "t")).get_template("t.j2")
        assert template.render(xs=["a"]) == "A,"
    assert not folder.exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder", encoding="utf-8")
    for _ in range(2):
        template = _environment_with(TemplateBytecode(blocked, "t")).get_template("t.j2")
        assert template.render(xs=["b"]) == "B,"
    assert blocked.read_text(encoding="utf-8") == "not a folder"
    assert len(compiled_names) == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a file"]  # no temporary left
