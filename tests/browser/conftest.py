"""A real headless Chromium (Debian's ``chromium`` driven by Playwright's client) and replay
runs whose pages it opens.

Locally the browser tests are skipped, with the reason, when Playwright or
``/usr/bin/chromium`` is missing; under CI (``CI=true``) a missing browser fails them.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.support.disk import no_fsync  # noqa: F401  (the runs' files need not reach the disk)
from verification.cli import main
from verification.registry import DEFAULT_SEED, get_spec
from verification.runner import plan_cases

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "html"
"""Screenshots the tests write (named in .gitignore; CI uploads the folder)."""

SCAFFOLDS = ("dijkstra", "lcs", "kmp")
CASES = 8
MEGABYTE_REPLY = 1_000_000
HOSTILE = (
    "</script><script>window.__pwned = 1</script>"
    '<img src="https://example.invalid/x.png" onerror="window.__pwned = 2">'
    "<style>body{display:none}</style></details></pre><!-- "
    "\u202eDELIAF\u202c \u2066x\u2069 \x00 NUL \x1b[31m red " + "W" * 5_000 + "\n"
)


def _unavailable() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright's Python client is not installed (pip install -e '.[dev]')"
    if not CHROMIUM.is_file():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """One Chromium for this package's tests, closed when a test outside it comes next
    (``tests/browser`` is a package for that): Playwright's client keeps an event loop
    running in this thread while it is open, where the other tests run their own."""
    reason = _unavailable()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests cannot run in CI: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def axe() -> Any:
    """axe-core, the engine of the browsers' accessibility audits, as
    ``axe-playwright-python`` bundles it for Playwright (skipped locally without it, failed
    under CI, as the browser is)."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        reason = "axe-playwright-python is not installed (pip install -e '.[dev]')"
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests cannot run in CI: {reason}")
        pytest.skip(reason)
    return Axe()


AXE_BLOCKING = ("serious", "critical")
"""The impacts no page may have (axe's others: minor, moderate)."""
AXE_NAMED = ("nested-interactive", "svg-img-alt", "landmark-one-main", "region", "empty-heading")
"""The rules axe found broken on the run's page (issue 27 item 6b): none at any impact."""
AXE_OPTIONS = {"resultTypes": ["violations"]}
"""axe-playwright-python's default options for ``axe.run``: every rule, violations listed."""


def axe_violations(axe: Any, page: Any) -> list[str]:
    """axe-core's serious and critical violations on ``page``, and any of the rules
    :data:`AXE_NAMED`, one line per rule.

    What ``axe.run(page)`` does, with axe-core injected once per document rather than on
    every audit (its half-megabyte script costs a fraction of a second to evaluate, and a
    page audited before and after its cases are opened is one document): the same
    ``axe.run`` with the same options on the same page."""
    if not page.evaluate("typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
        page.evaluate(axe.axe_script)
    response = page.evaluate("options => axe.run(options)", AXE_OPTIONS)
    return [
        f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes: {v['nodes'][0]['target']})"
        for v in response["violations"]
        if v["impact"] in AXE_BLOCKING or v["id"] in AXE_NAMED
    ]


@dataclass
class Watched:
    """A page with every console message, page error and request beyond the file seen."""

    page: Any
    console: list[str]
    errors: list[str]
    requests: list[str]

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.page.wait_for_selector("body[data-ready=true]")


@pytest.fixture(scope="package")
def browser_context(browser: Any) -> Iterator[Any]:
    """One browser context for the package's watched pages: making a context costs about a
    second of CPU (Chromium's profile for it, a renderer started anew), a page in an open
    one about half of that. The pages keep nothing in it they read back (the report pages
    use no cookies or storage); the watched tests share one tab in it (:func:`_tab`), each
    on a document of its own with its own lists of what it saw."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context
    context.close()


@dataclass
class _Tab:
    """The package's one tab and the :class:`Watched` of the test now using it."""

    page: Any
    current: Watched | None = None


@pytest.fixture(scope="package")
def _tab(browser_context: Any) -> Iterator[_Tab]:
    """One tab for the package's watched pages, its listeners and route set once: a tab
    opened and closed per test cost about half a second of CPU each (a renderer started and
    ended; its first load a process swap), a navigation in an open one a fraction of that.
    What a test reads is the document it opened (each test starts on a blank one, see
    :func:`watched`); the report pages keep nothing in the tab (no storage, no history)."""
    page = browser_context.new_page()
    tab = _Tab(page)

    def seen() -> Watched | None:
        return tab.current

    def console(message: Any) -> None:
        if (watching := seen()) is not None:
            watching.console.append(f"{message.type}: {message.text}")

    def error(error: Any) -> None:
        if (watching := seen()) is not None:
            watching.errors.append(str(error))

    def request(request: Any) -> None:  # opening the page itself is the only request
        if (watching := seen()) is not None and not (
            request.is_navigation_request() and request.url.startswith("file:")
        ):
            watching.requests.append(request.url)

    def route(route: Any) -> None:  # the page's own file loads; any other request fails
        if route.request.is_navigation_request() and route.request.url.startswith("file:"):
            route.continue_()
        else:
            route.abort()

    page.on("console", console)
    page.on("pageerror", error)
    page.on("request", request)
    page.route("**/*", route)
    yield tab
    page.close()


@pytest.fixture
def watched(_tab: _Tab) -> Iterator[Watched]:
    """The package's tab on a blank document, with this test's own lists of what it sees:
    the last test's document is gone (a fresh load, not a fragment change on the page it
    left), and nothing it saw is counted here."""
    _tab.current = None
    _tab.page.goto("about:blank")
    seen = Watched(_tab.page, [], [], [])
    _tab.current = seen
    yield seen
    _tab.current = None


def run_cli(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m verification`` with ``argv`` (and ``env`` on top of this environment), run
    in this process but in a thread of its own: Playwright's client keeps an event loop
    running in the test's thread, where the command's ``asyncio.run`` cannot start one, while
    a fresh thread has none. What it prints is captured; an error it raises is raised here."""
    out, err = io.StringIO(), io.StringIO()
    result: list[int] = []
    raised: list[BaseException] = []

    def command() -> None:
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                result.append(main(list(argv)))
        except SystemExit as stop:  # argparse's usage errors
            code = stop.code
            result.append(code if isinstance(code, int) else 0 if code is None else 2)
        except BaseException as error:  # raised again in the test's thread
            raised.append(error)

    with _environment(env or {}):
        thread = threading.Thread(target=command, name=f"verification {' '.join(argv[:2])}")
        thread.start()
        thread.join()
    if raised:
        raise raised[0]
    return subprocess.CompletedProcess(
        ["verification", *argv], result[0], out.getvalue(), err.getvalue()
    )


@contextlib.contextmanager
def _environment(env: dict[str, str]) -> Iterator[None]:
    """``os.environ`` with ``env`` set, as it was after."""
    before = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def cli(*argv: str) -> None:
    """``python -m verification`` with ``argv`` (:func:`run_cli`), exiting 0 or 1."""
    done = run_cli(*argv)
    assert done.returncode in (0, 1), done.stderr


def reply(kind: str, name: str, expected: dict[str, Any]) -> str:
    """A scripted reply: ``right`` (the reference's answer), ``wrong`` (``{}``, rejected by
    the schema), ``unparseable`` (no JSON) or ``hostile`` (about 1 MB of markup, script
    ends, bidi controls, NUL and very long lines around the reference's answer)."""
    spec = get_spec(name)
    if kind == "right":
        return spec.render_answer(expected)
    if kind == "wrong":
        return "```json\n{}\n```\n<b>wrong</b> on purpose"
    if kind == "unparseable":
        return "I cannot answer that </script> <script>window.__pwned = 3</script>"
    body = HOSTILE * (MEGABYTE_REPLY // len(HOSTILE) + 1)
    return body[: MEGABYTE_REPLY // 2] + spec.render_answer(expected) + body[: MEGABYTE_REPLY // 2]


KINDS = ("right", "wrong", "unparseable", "hostile")


@dataclass(frozen=True)
class ReplayRun:
    output: Path
    run_id: str
    run_dir: Path
    kinds: dict[str, str]
    """Case id -> the kind of reply it was given."""

    @property
    def page(self) -> Path:
        return self.run_dir / "reports" / "index.html"

    def summary(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.run_dir / "reports" / "summary.json").read_text())
        return data

    def journal(self) -> list[dict[str, Any]]:
        lines = (self.run_dir / "results.jsonl").read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]


def replay(folder: Path, output: Path, shift: int = 0) -> ReplayRun:
    """A replay run of three scaffolds into ``output`` whose cases get right, wrong,
    unparseable and hostile replies in turn (two of each per scaffold), starting ``shift``
    kinds along."""
    planned = plan_cases(list(SCAFFOLDS), seed=DEFAULT_SEED, cases=CASES)
    kinds, lines = {}, []
    for name in SCAFFOLDS:
        for k, case in enumerate(planned[name]):
            kinds[case.id] = KINDS[(k + shift) % len(KINDS)]
            text = reply(kinds[case.id], name, case.expected)
            lines.append({"case_id": case.id, "raw_response": text})
    replay = folder / f"replay-{shift}.jsonl"
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    argv = [*SCAFFOLDS, "--provider", "replay", "--replay-file", str(replay)]
    before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
    done = run_cli("verify", *argv, "--cases", str(CASES), "--output", str(output))
    assert done.returncode in (0, 1), done.stderr
    (run_dir,) = set((output / "runs").iterdir()) - before
    return ReplayRun(output, run_dir.name, run_dir, kinds)


@dataclass(frozen=True)
class ReplayPair:
    """Two replay runs of the scripted mix into one results folder, the second given each
    case the next kind of reply (``shift`` 1), and ``compare --html`` of the two."""

    a: ReplayRun
    b: ReplayRun
    compared: subprocess.CompletedProcess[str]

    @property
    def compare_page(self) -> Path:
        folder = f"{self.a.run_id}-vs-{self.b.run_id}"
        return self.a.output / "comparisons" / folder / "index.html"


@pytest.fixture(scope="session")
def replay_pair(tmp_path_factory: pytest.TempPathFactory) -> ReplayPair:
    """One :class:`ReplayPair` for the session: the tests only read it (a run with its
    megabyte replies costs seconds)."""
    folder = tmp_path_factory.mktemp("replay")
    output = folder / "results"
    run_a, run_b = replay(folder, output, shift=0), replay(folder, output, shift=1)
    compared = run_cli("compare", run_a.run_id, run_b.run_id, "--html", "--output", str(output))
    return ReplayPair(run_a, run_b, compared)


@pytest.fixture(scope="session")
def replay_run(replay_pair: ReplayPair) -> ReplayRun:
    """A replay run of the scripted mix (:func:`replay`, ``shift`` 0)."""
    return replay_pair.a


@dataclass(frozen=True)
class Swept:
    """A dry run of kmp at the quick level swept over lengths 8 and 16 (its page draws a
    size curve), alone in its results folder."""

    done: subprocess.CompletedProcess[str]
    output: Path

    @property
    def run_dir(self) -> Path:
        (run_dir,) = (self.output / "runs").iterdir()
        return run_dir


@pytest.fixture(scope="session")
def kmp_sweep(tmp_path_factory: pytest.TempPathFactory) -> Swept:
    """One :class:`Swept` for the session, which the tests only read."""
    output = tmp_path_factory.mktemp("swept") / "results"
    argv = ["kmp", "--provider", "reference", "--level", "quick", "--sizes", "8,16"]
    return Swept(run_cli("verify", *argv, "--output", str(output)), output)
