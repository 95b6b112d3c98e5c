"""A plugin call that never returns is stopped at its time limit (a helper's hunt: a
generator looping for ever hung ``verify`` and ``check``, and only SIGKILL ended the run,
since SIGTERM is handled on the event loop the generator blocked). Run in process with the
limit lowered; the plugin's spec is guarded as loading it does, nothing installed."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from verification.cases import Tier
from verification.catalog import Catalog, default_catalog, plugin_clock
from verification.catalog.plugins import guarded_spec
from verification.catalog.spec import ScaffoldSpec
from verification.cli import main
from verification.config import load_settings
from verification.errors import PluginError
from verification.runner import VerificationRunner

DISTRIBUTION = "demo-scaffolds"
BASE = default_catalog()["kmp"]
LIMIT = 0.2


@pytest.fixture(autouse=True)
def _short_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugin_clock, "PLUGIN_CALL_SECONDS", LIMIT)


def _plugin(**changes: Any) -> ScaffoldSpec:
    return guarded_spec(dataclasses.replace(BASE, **changes), DISTRIBUTION)


def _loops(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    while True:
        pass


def _sleeps(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    time.sleep(3600)
    raise AssertionError("slept an hour")


@pytest.mark.parametrize("generator", [_loops, _sleeps])
def test_a_generator_that_never_returns_is_stopped_and_named(generator: Any) -> None:
    spec = _plugin(generator=generator)
    started = time.monotonic()
    with pytest.raises(PluginError) as raised:
        spec.generator(random.Random(1), "simple", 4)
    assert time.monotonic() - started < LIMIT + 2
    assert (raised.value.distribution, raised.value.scaffold) == (DISTRIBUTION, BASE.name)
    assert f"its generator did not return within {LIMIT:g} s and was" in str(raised.value)
    # Not called again: every later case would wait out the limit as well. A later call
    # says the overrun was an earlier call's, the generator's own too (hunt ff).
    started = time.monotonic()
    with pytest.raises(PluginError, match="its generator did not return") as again:
        spec.reference(text="ab", pattern="a")
    assert time.monotonic() - started < LIMIT
    assert "in an earlier call" in str(again.value)
    assert "its reference is not called again" in str(again.value)
    with pytest.raises(PluginError, match="in an earlier call and was stopped") as later:
        spec.generator(random.Random(2), "simple", 4)
    assert "its generator is not called again" in str(later.value)


def test_a_call_within_the_limit_leaves_no_alarm_behind() -> None:
    spec = _plugin()
    case_input = spec.generator(random.Random(1), "simple", BASE.sizes["simple"])
    assert spec.reference(**case_input) == BASE.reference(**case_input)
    time.sleep(2 * LIMIT)  # an alarm left armed would raise here, outside any plugin call


def test_a_run_whose_generator_hangs_ends_incomplete_naming_it(tmp_path: Path) -> None:
    spec = _plugin(generator=_loops)
    catalog = Catalog([spec, default_catalog()["bfs"]], origins={spec.name: DISTRIBUTION})
    settings = load_settings(results_dir=tmp_path, cases=6, provider="reference")
    started = time.monotonic()
    run = asyncio.run(VerificationRunner(settings, catalog=catalog).run([spec.name, "bfs"]))
    # One call waits out the limit; the rest of the plugin's cases fail at once.
    assert time.monotonic() - started < 10 * LIMIT + 5
    hung, other = run.results[spec.name], run.results["bfs"]
    assert hung.status == "INCOMPLETE"
    assert hung.infra_errors == hung.planned > 0
    assert all("did not return within" in r.error for r in hung.results if r.error)
    assert other.status == "CERTIFIED" and other.infra_errors == 0


def test_the_limit_is_a_setting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("VERIFY_PLUGIN_CALL_SECONDS", "7.5")
    assert main(["plan"]) == 0
    assert plugin_clock.PLUGIN_CALL_SECONDS == 7.5
    monkeypatch.setenv("VERIFY_PLUGIN_CALL_SECONDS", "0")
    assert main(["plan"]) == 2
    assert "bad setting: VERIFY_PLUGIN_CALL_SECONDS" in capsys.readouterr().err


_SWALLOWS = """
import dataclasses, random
from verification.catalog import default_catalog, plugin_clock
from verification.catalog.plugins import guarded_spec

def swallows(rng, tier, size):
    while True:
        try:
            while True:
                pass
        except BaseException:  # what a plugin may do with any exception: go on
            pass

plugin_clock.PLUGIN_CALL_SECONDS, plugin_clock.GIVE_UP_AFTER = 0.2, 2
spec = default_catalog()["kmp"]
guarded_spec(dataclasses.replace(spec, generator=swallows), "demo-scaffolds").generator(
    random.Random(1), "simple", 4
)
print("returned")
"""


@pytest.mark.slow
def test_a_generator_that_swallows_every_stop_ends_the_process_with_its_error() -> None:
    # Nothing in-process stops code that catches every exception and goes on: the process
    # ends, with the plugin's error and its exit code, rather than hang for ever.
    done = subprocess.run(
        [sys.executable, "-c", _SWALLOWS], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == PluginError.exit_code, done.stderr
    assert "returned" not in done.stdout
    assert done.stderr.startswith(
        f"error: plugin demo-scaffolds, scaffold '{BASE.name}': its generator did not return "
        "within 0.2 s and went on for 2 s more"
    )
    assert "Traceback" not in done.stderr


def test_no_limit_where_the_platform_has_no_alarm(monkeypatch: pytest.MonkeyPatch) -> None:
    # Hunt j: on Windows (no SIGALRM) every plugin call failed, blamed on the plugin.
    import signal

    monkeypatch.setattr(plugin_clock, "_HAS_TIMER", False)
    monkeypatch.delattr(signal, "SIGALRM")
    monkeypatch.delattr(signal, "setitimer")
    spec = _plugin()
    case_input = spec.generator(random.Random(1), "simple", BASE.sizes["simple"])
    assert spec.reference(**case_input) == BASE.reference(**case_input)


def test_a_timer_the_process_armed_itself_is_left_running() -> None:
    # Hunt j: a plugin call cancelled the host's own interval timer (a watchdog such as
    # pytest-timeout's signal method): its alarm never came.
    import signal

    fired: list[int] = []
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: fired.append(signum))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        spec = _plugin()
        spec.generator(random.Random(1), "simple", BASE.sizes["simple"])
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0
        time.sleep(0.5)
        assert fired == [signal.SIGALRM]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_check_s_fresh_interpreters_draw_under_the_same_limit() -> None:
    # Hunt j: the hash-seed check's child processes read no settings and kept 60 s.
    from verification.certify import hash_seed

    done = hash_seed._run("print(plugin_clock.PLUGIN_CALL_SECONDS)", "1")
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) == LIMIT
