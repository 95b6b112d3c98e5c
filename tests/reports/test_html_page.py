"""index.html without a browser: its policy, its data block, the differences it marks and
the ``view`` command (tests/browser/ opens the page in Chromium)."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.support.web_browser import browser_named
from verification.cli import main
from verification.registry import DEFAULT_SEED, get_spec
from verification.reports.html import (
    SHOWN_REPLY_CHARS,
    answer_differences,
    render_page,
    shown_text,
)
from verification.runner import plan_cases

HOSTILE_TEXT = "</script><!-- <script>x</script> \u2028 \u202e \x00 \ud800 & >"


class _Page(HTMLParser):
    """The CSP meta tag and the raw text of each script and style element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.csp = ""
        self.blocks: list[tuple[str, dict[str, str | None], str]] = []
        self._open: tuple[str, dict[str, str | None]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "meta" and named.get("http-equiv") == "Content-Security-Policy":
            self.csp = named["content"] or ""
        if tag in ("script", "style"):
            self._open = (tag, named)
            self.blocks.append((tag, named, ""))

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            tag, named, text = self.blocks[-1]
            self.blocks[-1] = (tag, named, text + data)

    def handle_endtag(self, tag: str) -> None:
        self._open = None


def _data(text: str) -> dict[str, Any]:
    return {
        "title": text,
        "run": {"run_id": "r1", "dry_run": True, "run_label": text, "fields": []},
        "cases": [{"id": "x", "message": text}],
    }


def _parsed(page: str) -> _Page:
    parser = _Page()
    parser.feed(page)
    return parser


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_the_policy_allows_only_the_pages_own_style_and_script() -> None:
    page = _parsed(render_page(_data(HOSTILE_TEXT)))
    (style,) = [text for tag, _, text in page.blocks if tag == "style"]
    (script,) = [text for tag, named, text in page.blocks if tag == "script" and not named]
    assert page.csp.startswith("default-src 'none';")
    assert f"script-src {_hash(script)};" in page.csp
    assert f"style-src {_hash(style)};" in page.csp
    assert "unsafe" not in page.csp and "http" not in page.csp


def test_the_data_block_holds_any_text_and_no_markup() -> None:
    data = _data(HOSTILE_TEXT)
    page = _parsed(render_page(data))
    blocks = [text for tag, named, text in page.blocks if named.get("type") == "application/json"]
    (block,) = blocks
    assert "<" not in block and ">" not in block and "&" not in block
    assert json.loads(block) == data  # a lone surrogate and NUL too
    assert len([b for b in page.blocks if b[0] == "script"]) == 2  # no string opened one


def test_the_page_of_a_replay_says_replay_not_dry_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt pp: the page's "model" field said "none (dry run)" where the reports said REPLAY.
    spec = get_spec("kmp")
    cases = plan_cases(["kmp"], seed=DEFAULT_SEED, cases=2)["kmp"]
    replay = tmp_path / "replay.jsonl"
    replay.write_text(
        "".join(
            json.dumps({"case_id": c.id, "raw_response": spec.render_answer(c.expected)}) + "\n"
            for c in cases
        )
    )
    argv = ("verify", "kmp", "--provider", "replay", "--replay-file", str(replay), "--cases")
    code, _, err = _main(capsys, *argv, "2", "--output", str(tmp_path / "out"))
    assert code == 0, err
    (run,) = (tmp_path / "out" / "runs").iterdir()
    page = _parsed((run / "reports" / "index.html").read_text())
    (block,) = [text for _, named, text in page.blocks if named.get("type") == "application/json"]
    fields = dict(json.loads(block)["run"]["fields"])
    assert fields["model"] == "none (REPLAY)" and fields["provider"] == "replay"


def test_differences_mark_fields_and_positions() -> None:
    expected = {"path": [0, 2, 3], "distance": 5, "order": ["a"]}
    assert answer_differences(dict(expected), expected) == {}
    answer = {"path": [0, 1, 3, 4], "distance": 5.0, "extra": 1}
    assert answer_differences(answer, expected) == {
        "order": None,  # missing from the answer
        "path": [1, 3],
        "distance": None,  # 5.0 is not written as 5
        "extra": None,
    }
    assert answer_differences(None, expected) == {}


def test_shown_text_is_cut_and_escaped() -> None:
    assert shown_text(None) is None
    long = "a\u202eb\x00c\n" + "x" * (2 * SHOWN_REPLY_CHARS)
    shown = shown_text(long)
    assert shown is not None and shown.startswith("a\\u202eb\\x00c\nxxx")
    assert len(shown) == SHOWN_REPLY_CHARS + len("\\u202e\\x00") - 2


def _main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The command line in this process, where no browser is started."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _view(capsys: pytest.CaptureFixture[str], browser: Path, *argv: str) -> tuple[int, str, str]:
    """``view`` with ``argv`` in this process, starting ``browser``: what BROWSER names, read
    afresh as a new interpreter reads it (tests/support/web_browser.py)."""
    with browser_named(str(browser)):
        return _main(capsys, "view", *argv)


@pytest.mark.slow
def test_view_opens_the_index_or_a_page_and_report_writes_it_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "results"
    code, _, err = _main(
        capsys,
        *("verify", "kmp", "--provider", "reference", "--level", "quick"),
        *("--output", str(output)),
    )
    assert code == 0, err
    (run,) = (output / "runs").iterdir()
    page = (run / "reports" / "index.html").resolve()
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\nprintf %s "$1" > {opened}\n')
    browser.chmod(0o755)
    code, out, err = _view(capsys, browser, "--output", str(output))
    assert code == 0, err
    index = (output / "index.html").resolve()  # no run: the index of every run
    assert out.strip() == str(index)
    for _ in range(100):  # the browser is started, not waited for
        if opened.exists() and opened.read_text():
            break
        subprocess.run(["sleep", "0.05"], check=True)
    assert opened.read_text() == index.as_uri()
    code, out, err = _view(capsys, browser, run.name, "--output", str(output))
    assert code == 0 and out.strip() == str(page), err

    page.unlink()
    code, _, err = _main(capsys, "view", run.name, "--output", str(output))  # opens nothing
    assert code == 2 and f"report {run.name}" in err
    code, _, err = _main(capsys, "report", run.name, "--output", str(output))
    assert code == 0 and page.is_file(), err
    code, out, err = _view(capsys, browser, str(run))  # as verify prints it
    assert code == 0 and out.strip() == str(page), err
    code, _, err = _main(capsys, "view", "20200101T000000Z-abcdef", "--output", str(output))
    assert code == 2 and "no run" in err
