"""Prompts written from a plain template's pieces are the text jinja renders."""

from __future__ import annotations

from importlib.resources import files

import jinja2
import pytest

from verification.llm import prompt_builder
from verification.registry import SPECS

TEMPLATES = sorted(
    entry.name
    for entry in files("verification.llm").joinpath("templates").iterdir()
    if entry.name.endswith(".j2")
)
AWKWARD = ["", "{{ title }}", "a\r\nb\rc\n", "{% raw %}", "\u2028 é \x00", "trailing\n\n", "<b>&"]


@pytest.mark.parametrize("name", TEMPLATES)
def test_a_plain_template_writes_what_jinja_renders(name: str) -> None:
    plain = prompt_builder._plain_template(name)
    assert plain is not None  # every prompt template is plain: none pays for jinja's render
    template = prompt_builder._templates().get_template(name)
    titles = [spec.title for spec in SPECS.values()]
    for index, text in enumerate(titles + AWKWARD):
        values = {key: AWKWARD[(index + n) % len(AWKWARD)] for n, key in enumerate(plain[1])}
        values["title"] = text
        assert prompt_builder._render(name, **values) == template.render(**values)


def test_a_missing_variable_is_jinja_s_error() -> None:
    with pytest.raises(jinja2.UndefinedError):
        prompt_builder._render("user_v1.md.j2", title="x")
