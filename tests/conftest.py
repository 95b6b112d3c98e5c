"""Shared fixtures: an isolated environment for every test, the scaffold tests' oracles,
a judge of one answer as a run judges it, and the fake model server (``tests/support``)."""

from __future__ import annotations

import gc
import importlib.util
import itertools
import os
import signal
import sys
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from _pytest.doctest import DoctestModule
from hypothesis import settings

# Fixtures of the test-support package, offered to every folder (the provider tests, the
# runs in run/ and compose/, the cache tests): imported here, defined there.
from tests.support.fake_server import anthropic_env, fake_server  # noqa: F401
from tests.support.memory_temp import MEMORY_TEMP, memory_temp_fits

# The fork server (tests/support/preloaded.py) that starts command lines as processes without
# a fresh interpreter's imports: one per session, which its xdist workers share, serves every
# folder.
from tests.support.preloaded import fork_server  # noqa: F401
from tests.support.rewrite_cache import write_rewritten_modules

# The cyclic collector's youngest generation collected every 10,000 allocations instead of
# every 700: a test process holds a large heap that stays (every module, scipy, the catalog,
# hypothesis's strategies, the collected items), which each full collection walked again, and
# full collections follow from young ones (one per hundred). Measured in process at the lowest
# versions on tests/llm, tests/validators and tests/certify: 1.8 s of collecting in 25 s of CPU
# before, 0.9 s after. Cyclic garbage is still collected, young, as before; only less often.
gc.set_threshold(10_000, *gc.get_threshold()[1:])

TESTS = Path(__file__).parent
CATALOG_TESTS = TESTS / "catalog"
_TEST_NUMBERS = itertools.count()

# Fixtures that start a server or a process: a test using one is slow whatever its module
# says, so the fast lane (pytest -m "not slow") never waits on one. Tests that start a
# process themselves carry the mark in their module.
SLOW_FIXTURES = frozenset(
    {
        "fake_server",  # the fake model server (tests/support/fake_server.py), a thread
        "browser",  # Chromium (tests/browser/)
        "cli_several",  # command lines forked as processes (tests/catalog/plugins/)
        "plugin_forks",  # the plugin tests' fork server, a process
        "fork_server",  # command lines forked as processes (tests/support/preloaded.py)
    }
)

# CI draws the same examples on every run, so a landing is judged on the code, not on the
# luck of the draw; a developer's runs keep exploring, and what they find is kept as an
# @example. HYPOTHESIS_PROFILE=explore asks for fresh draws under CI too.
# No deadline per example: hypothesis's default (200 ms) is a wall-clock limit, which a
# loaded machine or a parallel run crosses with no fault in the code (speed lives in
# benchmarks/).
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
settings.register_profile("explore", print_blob=True, deadline=None)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "explore")
)


def _temporary_folders_in_memory(config: pytest.Config) -> None:
    """The tests' temporary folders in memory where the machine has room for them: the runs
    they make write journals, manifests and reports that are read back at once, and on a
    disk's file system each write, rename and removal costs system time (in process on a
    disk: 18 s of CPU for tests/reports/test_regression_gate_runs.py and tests/run/test_shards.py,
    14-15 s in memory). pytest's own ``PYTEST_DEBUG_TEMPROOT`` says where; it keeps its last
    three sessions' folders there as it does in the system's temp folder. ``--basetemp`` or
    the variable set by hand still decide."""
    if config.option.basetemp or os.environ.get("PYTEST_DEBUG_TEMPROOT"):
        return
    if memory_temp_fits():
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(MEMORY_TEMP)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``slow`` every test that uses a fixture of :data:`SLOW_FIXTURES` (directly or
    through another fixture, as ``anthropic_env`` uses ``fake_server``), then run the
    modules that hold a slow test first.

    Slow tests wait (on a sandbox's wall-clock limit, a child process, a server, Chromium);
    started first, their waits overlap the other workers' computing, and the run ends on
    short tests that the workers share out. In collection order the sandbox's tests came
    last and one worker waited on them for ten seconds with both cores idle (measured with
    ``vmstat`` on two cores: 21 core-seconds idle in a run, 4 with this order). Whole
    modules move, each in its own order, so no module's fixtures are set up twice; the
    tests do not depend on their order."""
    for item in items:
        if SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    waiting = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in waiting)  # stable: modules stay whole


class _DoctestsWhereExamplesAre:
    """``--doctest-modules`` (addopts) searches every module collected, every object of it,
    for examples, at collection in every worker. No doctest module for a file under
    ``tests/`` (the tests hold no examples) or for a module of the package whose text holds
    no ``>>>`` (no example to find: 34 of the package's 230-odd modules have one)."""

    @pytest.hookimpl(wrapper=True)
    def pytest_collect_file(
        self, file_path: Path
    ) -> Generator[None, list[pytest.Collector], list[pytest.Collector]]:
        collected: list[pytest.Collector] = yield
        if not any(isinstance(node, DoctestModule) for node in collected):
            return collected
        if TESTS in file_path.parents or ">>>" not in file_path.read_text("utf-8"):
            return [node for node in collected if not isinstance(node, DoctestModule)]
        return collected


def pytest_configure(config: pytest.Config) -> None:
    """A plugin for every folder collected (a conftest's hooks see only its own folder)."""
    config.pluginmanager.register(_DoctestsWhereExamplesAre(), "doctests-where-examples-are")
    _temporary_folders_in_memory(config)
    # The xdist controller (it has no workerinput), before it starts the workers: each
    # would otherwise rewrite every test module a fresh checkout has not rewritten yet.
    if getattr(config.option, "dist", "no") != "no" and not hasattr(config, "workerinput"):
        write_rewritten_modules(config, [TESTS])


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (addopts): a worker per core for the fast lane, and half as many again
    when slow tests run too. Slow tests spend much of their time waiting (on a child
    process, a server's reply, a sandbox, Chromium), which leaves a core idle with one
    worker per core; fast tests compute, where a worker more only adds its own collection
    and fixtures (the fork servers are the session's, shared). Measured on two cores with
    the slow modules first (:func:`pytest_collection_modifyitems`), whole suite,
    alternated: three workers 118, 120, 118 and 134 s (208 to 230 s of CPU, 4.5 to 7
    core-seconds idle), four 111, 127 and 124 s (192 to 226 s of CPU, 3 idle), where
    collection order with three left 21 core-seconds idle (129 and 137 s); the machine's
    speed moved by a tenth between runs, so the choice of three rests on the CPU a worker
    costs more than on these walls. Two workers against three, alternated later: 119 and
    117 s with 32 to 33 core-seconds idle, against 115 and 107 s with 6.5 idle (a worker less
    saves 10 s of CPU and leaves three times that idle).
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when set (pytest-xdist reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cores = cores or 1
    fast_lane_only = "not slow" in (config.getoption("markexpr") or "")
    return cores if fast_lane_only else cores + (cores + 1) // 2


@pytest.fixture
def sigint_heard() -> Iterator[None]:
    """SIGINT taken as Python's default handler takes it (``KeyboardInterrupt``) for the
    test, whatever the suite inherited: a shell's background job (CI, ``pytest &``) runs it
    with SIGINT ignored, and a test that sends itself Ctrl-C must hear it."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture(scope="session")
def _isolation_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder under which each test gets its own folders (one of pytest's per session)."""
    return tmp_path_factory.mktemp("isolated")


@pytest.fixture(autouse=True)
def _isolated_environment(_isolation_root: Path) -> Iterator[None]:
    """No test sees the developer's keys, settings, results folder or response cache.

    The environment is set and put back by hand, not with ``monkeypatch``: this runs for
    every test, and most request no ``monkeypatch`` of their own, whose setting up and
    tearing down cost more than the few variables changed here."""
    before = dict(os.environ)
    for name in before:
        if name.startswith(("VERIFY_", "ANTHROPIC_", "OPENAI_")):
            del os.environ[name]
    # Under GitHub Actions, runs the tests start must not write the job's own summary.
    os.environ.pop("GITHUB_STEP_SUMMARY", None)
    # A folder of its own per test, named but not made: the harness makes what it writes
    # into (a user's first run has none of these folders either), and most tests write
    # nothing there. Making four folders a test cost a second or more of system time per
    # thousand tests on an ext4 /tmp; tmp_path_factory.mktemp also lists every folder it
    # made before, which made the suite quadratic at pytest 8.0.
    own = f"{_isolation_root}{os.sep}test-{next(_TEST_NUMBERS)}{os.sep}"
    os.environ["VERIFY_RESULTS_DIR"] = own + "results"
    # The shared response cache and anything else kept in the user's cache folder.
    os.environ["XDG_CACHE_HOME"] = own + "xdg-cache"
    os.environ["VERIFY_CACHE_DIR"] = own + "cache"
    yield
    # Back to the environment before the test: what it set (by hand or by monkeypatch, whose
    # undoing came first) goes, what it or this fixture removed or changed comes back.
    for name in [name for name in os.environ if name not in before]:
        del os.environ[name]
    for name, value in before.items():
        if os.environ.get(name) != value:
            os.environ[name] = value


@pytest.fixture(scope="session")
def scaffold_tests() -> dict[str, ModuleType]:
    """Each packaged scaffold's test module ``tests/catalog/test_<name>.py``, by name.

    Each holds the scaffold's ``oracle(input, answer)``, written from the scaffold and
    independent of its validator and reference, which other tests reuse. All are loaded
    at once, before any test body runs: each declares hypothesis tests, which hypothesis
    refuses to build inside a running one.
    """
    from verification.catalog import default_catalog

    modules = {}
    for name in default_catalog():
        path = CATALOG_TESTS / f"test_{name}.py"
        if not path.is_file():  # a plugin's scaffold: its tests live with the plugin
            continue
        # The module pytest collected from that file, when it did (every xdist worker
        # collects every module): executing it again cost a second or more per process.
        collected = sys.modules.get(f"tests.catalog.test_{name}")
        if getattr(collected, "__file__", None) == str(path):
            modules[name] = collected
            continue
        spec = importlib.util.spec_from_file_location(f"_scaffold_test_of_{name}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules[name] = module
    return modules


@pytest.fixture(scope="session")
def judge() -> Callable[[str, dict[str, Any], Any], bool]:
    """``judge(name, input, answer)``: whether scaffold ``name``'s validator accepts
    ``answer`` to ``input``, the expected answer computed by the reference (as a run judges
    an edge case)."""
    from verification.cases import TestCase, to_json_data
    from verification.catalog import default_catalog

    def verdict(name: str, test_input: dict[str, Any], answer: Any) -> bool:
        spec = default_catalog()[name]
        expected = to_json_data(spec.reference(**test_input))
        case = TestCase(
            id=f"{name}-edge-000", scaffold=name, tier="edge", input=test_input, expected=expected
        )
        return spec.validator.validate(answer, expected, case=case).is_valid

    return verdict
