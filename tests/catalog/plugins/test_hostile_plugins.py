"""Plugins cannot take the process down or lie: a throwaway distribution whose entry points
exit, interrupt, raise, never end or break their spec's contract, at load and at verify
time, through the real command line in a child process.

A plugin's failure is the plugin's: it is reported naming the distribution and the
scaffold; a broken entry is skipped at load, and a scaffold whose plugin fails at verify
time is INCOMPLETE with the plugin's error as the reason (exit 3) while the others run. No
attack exits 4, changes another command's exit code, or hangs; a real Ctrl-C still exits 130.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from verification.cases import is_scaffold_name
from verification.catalog.plugins import MAX_SPECS_PER_ENTRY

RunSeveral = Callable[..., list[subprocess.CompletedProcess[str]]]
InstallPlugin = Callable[..., dict[str, str]]
PLUGIN = "demo-scaffolds"

_SPECS = '''
import dataclasses
import itertools

from pydantic import field_validator

from demo_scaffolds import SPEC, LargestAnswer
from verification.validators.base import ValidationResult, Validator


def spec(name, **changes):
    return dataclasses.replace(SPEC, name=name, **changes)


def bypass(**fields):
    """A spec changed after it was made, past ScaffoldSpec.__post_init__."""
    made = spec("bypassed")
    for field, value in fields.items():
        object.__setattr__(made, field, value)
    return made


def broken(*args, **kwargs):
    raise RuntimeError("plugin bug")


def interrupts(*args, **kwargs):
    raise KeyboardInterrupt


class RaisingIterable:
    def __iter__(self):
        raise RuntimeError("iterable broke")


def raising_midway():
    yield spec("first_of_two")
    raise OSError("generator broke halfway")


class NoCase(Validator):
    kind = "no_case"

    def validate(self, actual, expected):
        return ValidationResult(actual == expected, "compared")


class ReturnsNone(Validator):
    kind = "returns_none"

    def validate(self, actual, expected, *, case=None):
        return None


class MessageNone(Validator):
    kind = "message_none"

    def validate(self, actual, expected, *, case=None):
        return ValidationResult(True, None)


class SaysFalse(Validator):
    kind = "says_false"

    def validate(self, actual, expected, *, case=None):
        return ValidationResult("False", "a string that reads as a pass")


class Exits(Validator):
    kind = "exits"

    def validate(self, actual, expected, *, case=None):
        raise SystemExit(0)


class Touchy(LargestAnswer):
    @field_validator("largest")
    @classmethod
    def touchy(cls, value):
        raise RuntimeError("schema bug")


# Broken at load: each entry is skipped with its reason.
RAISING_ITERABLE = RaisingIterable()
RAISING_MIDWAY = raising_midway()
REPEATS = itertools.repeat(SPEC)
COUNTS = itertools.count()
ENDLESS = (spec(f"endless_{i}") for i in itertools.count())
MARKDOWN_STR = bypass(markdown=str(SPEC.markdown))
MARKDOWN_BYTES = bypass(markdown=str(SPEC.markdown).encode())
NO_BUDGET = bypass(max_output_tokens=0)
NON_ASCII = bypass(name="gr\\u00f6\\u00dfe")
NO_CASE_VALIDATOR = spec("no_case_validator", validator=NoCase())
TITLE_ESCAPE = bypass(title="Largest\\x1b[2J number")

# Broken at verify time: each scaffold is INCOMPLETE with the plugin's error.
GENERATOR_RAISES = spec("generator_raises", generator=broken)
GENERATOR_LIST = spec("generator_list", generator=lambda rng, tier, size: [1, 2])
REFERENCE_SET = spec("reference_set", reference=lambda numbers: {"largest": {max(numbers)}})
VALIDATOR_NONE = spec("validator_none", validator=ReturnsNone())
VALIDATOR_MESSAGE_NONE = spec("validator_message_none", validator=MessageNone())
VALIDATOR_SAYS_FALSE = spec("validator_says_false", validator=SaysFalse())
VALIDATOR_EXITS = spec("validator_exits", validator=Exits())
RENDER_RAISES = spec("render_raises", render_answer=broken)
FORMAT_RAISES = spec("format_raises", format_input=broken)
SCHEMA_RAISES = spec("schema_raises", answer_schema=Touchy)
GENERATOR_INTERRUPTS = spec("generator_interrupts", generator=interrupts)
'''

_MADE = """
import dataclasses

from demo_scaffolds import SPEC

SPEC = dataclasses.replace(SPEC, {change})
"""

LOAD_ATTACKS = {
    # entry point name: (what it resolves to, what the warning says)
    "exits": ("demo_scaffolds.exits:SPEC", "does not load (SystemExit: 0)"),
    "interrupts": (
        "demo_scaffolds.interrupts:SPEC",
        "raised KeyboardInterrupt while loading, with no Ctrl-C pressed",
    ),
    "raising_iterable": (
        "demo_scaffolds.specs:RAISING_ITERABLE",
        "does not load (RuntimeError: iterable broke)",
    ),
    "raising_midway": (
        "demo_scaffolds.specs:RAISING_MIDWAY",
        "does not load (OSError: generator broke halfway)",
    ),
    "repeats": ("demo_scaffolds.specs:REPEATS", "'largest_number' is declared twice"),
    "counts": ("demo_scaffolds.specs:COUNTS", "holds int, not a ScaffoldSpec"),
    "endless": ("demo_scaffolds.specs:ENDLESS", f"more than {MAX_SPECS_PER_ENTRY} specs"),
    "markdown_str": ("demo_scaffolds.specs:MARKDOWN_STR", "markdown must be a pathlib.Path"),
    "markdown_bytes": ("demo_scaffolds.specs:MARKDOWN_BYTES", "markdown must be a pathlib.Path"),
    "no_budget": ("demo_scaffolds.specs:NO_BUDGET", "max_output_tokens must be"),
    "non_ascii": ("demo_scaffolds.specs:NON_ASCII", "must be an ASCII lower-case identifier"),
    "made_markdown_str": (
        "demo_scaffolds.made_markdown_str:SPEC",
        "does not load (ValueError: spec 'largest_number': markdown must be a pathlib.Path",
    ),
    "made_no_budget": (
        "demo_scaffolds.made_no_budget:SPEC",
        "does not load (ValueError: spec 'largest_number': max_output_tokens must be",
    ),
    "made_non_ascii": (
        "demo_scaffolds.made_non_ascii:SPEC",
        "does not load (ValueError: scaffold name 'größe' must be an ASCII",
    ),
    "title_escape": ("demo_scaffolds.specs:TITLE_ESCAPE", "its title must be one line"),
    "no_case_validator": (
        "demo_scaffolds.specs:NO_CASE_VALIDATOR",
        "NoCase.validate must accept the test case",
    ),
}

VERIFY_ATTACKS = {
    # scaffold: what its cases' reason says, after "plugin demo-scaffolds, scaffold 'NAME': "
    "generator_raises": "its generator raised RuntimeError: plugin bug",
    "generator_list": "its generator returned list: not a JSON object",
    "reference_set": "its reference returned dict: Object of type set is not JSON serializable",
    "validator_none": "its validator returned NoneType: not a ValidationResult",
    # A message of None reached the journal's record (exit 4); "False" read as a pass.
    "validator_message_none": "its message is NoneType, not str",
    "validator_says_false": "its is_valid is str, not bool",
    "validator_exits": "its validator raised SystemExit: 0",
    "render_raises": "its render_answer raised RuntimeError: plugin bug",
    "format_raises": "its input formatter raised RuntimeError: plugin bug",
    "schema_raises": "its answer schema raised RuntimeError: schema bug",
    "generator_interrupts": "its generator raised KeyboardInterrupt",
}

_MODULES = {
    "specs": _SPECS,
    "exits": "import sys\nsys.exit(0)\n",
    "interrupts": "raise KeyboardInterrupt\n",
    "made_markdown_str": _MADE.format(change="markdown=str(SPEC.markdown)"),
    "made_no_budget": _MADE.format(change="max_output_tokens=0"),
    "made_non_ascii": _MADE.format(change='name="gr\\u00f6\\u00dfe"'),
}


ESCAPING = "esc\x1b[31mname"
"""An entry point named with a terminal escape code: shown escaped, never raw."""


@pytest.fixture(scope="module")
def hostile_env(
    tmp_path_factory: pytest.TempPathFactory, install_plugin: InstallPlugin
) -> dict[str, str]:
    """The demo plugin's good scaffold beside every attack."""
    entries = ["largest_number = demo_scaffolds:SPEC"]
    entries += [f"{name} = {target}" for name, (target, _) in LOAD_ATTACKS.items()]
    entries += [f"{name} = demo_scaffolds.specs:{name.upper()}" for name in VERIFY_ATTACKS]
    entries.append(f"{ESCAPING} = demo_scaffolds.specs:COUNTS")
    return install_plugin(tmp_path_factory.mktemp("site"), "\n".join(entries) + "\n", _MODULES)


@pytest.mark.slow
def test_no_plugin_can_end_or_stop_a_command_while_it_loads(
    hostile_env: dict[str, str], cli_several: RunSeveral, tmp_path: Path
) -> None:
    # Each command a process of its own that loads the plugins, forked from the module's
    # preloaded interpreter (the attacks act at load, after an interpreter's start).
    dry_run = ["--provider", "reference", "--cases", "3", "--output", str(tmp_path / "out")]
    listed, done = cli_several(
        hostile_env, tmp_path, ["list"], ["verify", "largest_number", *dry_run]
    )
    assert listed.returncode == 0, listed.stderr
    assert "largest_number" in listed.stdout and "dijkstra" in listed.stdout
    for name, (_, reason) in LOAD_ATTACKS.items():
        assert f"plugin {name!r} from {PLUGIN} skipped" in listed.stderr, name
        assert reason in listed.stderr, (name, reason)
        assert f"skipped plugin {name} ({PLUGIN})" in listed.stdout
    assert "\x1b" not in listed.stdout + listed.stderr
    assert "skipped plugin esc\\x1b[31mname" in listed.stdout
    rows = listed.stdout.splitlines()[1:]
    listed_names = {row.split()[0] for row in rows if not row.startswith("skipped plugin")}
    assert all(is_scaffold_name(name) for name in listed_names)
    assert not any(name.startswith("endless_") for name in listed_names)
    # Well-formed specs whose calls fail later are listed.
    assert set(VERIFY_ATTACKS) <= listed_names
    assert done.returncode == 0, done.stderr  # CERTIFIED, as if the broken ones were absent
    assert "CERTIFIED" in done.stdout


@pytest.fixture(scope="module")
def output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostile") / "out"


@pytest.fixture(scope="module")
def runs(
    hostile_env: dict[str, str], cli_several: RunSeveral, output: Path
) -> dict[str, subprocess.CompletedProcess[str]]:
    """The dry run of every verify-time attack, check of them and show-prompt of one, run
    one after another, each forked (cli_several); the tests only read them."""
    commands = {
        "verified": [
            "verify",
            "largest_number",
            *VERIFY_ATTACKS,
            "--cases",
            "3",
            "--provider",
            "reference",
            "--output",
            str(output),
        ],
        "checked": ["check", *VERIFY_ATTACKS, "--cases", "3"],
        "shown": ["show-prompt", "generator_raises", "--case", "generator_raises-simple-000"],
    }
    done = cli_several(hostile_env, output.parent, *commands.values())
    return dict(zip(commands, done, strict=True))


@pytest.mark.slow
def test_a_plugin_failing_at_verify_time_makes_its_scaffold_incomplete_and_the_rest_run(
    hostile_env: dict[str, str],
    cli_several: RunSeveral,
    tmp_path: Path,
    runs: dict[str, subprocess.CompletedProcess[str]],
    output: Path,
) -> None:
    argv = ["--provider", "reference", "--output", str(output)]
    done = runs["verified"]
    assert done.returncode == 3, done.stdout + done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    (run,) = (output / "runs").iterdir()
    # The summary, not the terminal's table: the terminal also says why cases went uncounted.
    summary = json.loads((run / "reports" / "summary.json").read_text())
    statuses = {name: entry["status"] for name, entry in summary["scaffolds"].items()}
    assert statuses == {"largest_number": "CERTIFIED"} | dict.fromkeys(VERIFY_ATTACKS, "INCOMPLETE")
    records = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    for name, reason in VERIFY_ATTACKS.items():
        mine = [r for r in records if r["scaffold"] == name]
        assert len(mine) == 3, name  # every planned case is accounted for
        blamed = f"plugin {PLUGIN}, scaffold {name!r}: "
        assert all(r["outcome"] == "infra_error" for r in mine), name
        assert all(r["reason"].startswith(blamed) for r in mine), (name, mine[0]["reason"])
        assert all(reason in r["reason"] for r in mine), (name, mine[0]["reason"])
    report = (run / "reports" / "generator_raises.md").read_text(encoding="utf-8")
    assert "INCOMPLETE" in report
    # The run re-renders and resumes like any other: the plugin's cases are tried again.
    reported, resumed = cli_several(
        hostile_env,
        tmp_path,
        ["report", run.name, *argv[2:]],
        ["verify", "--resume", run.name, *argv],
    )
    assert reported.returncode == 3
    assert resumed.returncode == 3, resumed.stderr
    again = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    assert len(again) == len(records) + 3 * len(VERIFY_ATTACKS)


@pytest.mark.slow
def test_check_and_show_prompt_blame_the_plugin(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    checked, shown = runs["checked"], runs["shown"]
    assert checked.returncode == 1, checked.stdout + checked.stderr
    # check draws, judges and renders answers, but writes no prompt: format_raises passes it.
    for name in set(VERIFY_ATTACKS) - {"format_raises"}:
        assert f"FAIL {name}: " in checked.stdout, name
    assert f"plugin {PLUGIN}, scaffold 'generator_raises'" in checked.stdout
    # The suites are drawn under two hash seeds in one interpreter each, not two per
    # scaffold: a plugin's failing draw fails its own scaffold's check, not the others'.
    assert (
        "FAIL generator_raises: hash seed: VerificationError: drawing the suite" in checked.stdout
    )
    assert "ok   format_raises: hash seed: suite digest " in checked.stdout
    assert shown.returncode == 2
    assert (
        f"plugin {PLUGIN}, scaffold 'generator_raises': cannot draw simple case 0" in shown.stderr
    )
    assert "its generator raised RuntimeError: plugin bug" in shown.stderr


def test_the_catalog_names_obey_the_rules_the_plugins_are_held_to() -> None:
    """The 33 built-in specs pass the same rules (checked again here, not only at import)."""
    from verification.catalog import default_catalog

    for spec in default_catalog().values():
        spec.check_rules()
        assert is_scaffold_name(spec.name)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
def test_a_real_ctrl_c_while_a_plugin_loads_still_exits_130(
    tmp_path_factory: pytest.TempPathFactory, install_plugin: InstallPlugin, tmp_path: Path
) -> None:
    started = tmp_path / "loading"
    slow = f"import pathlib, time\npathlib.Path({str(started)!r}).touch()\ntime.sleep(60)\n"
    env = install_plugin(
        tmp_path_factory.mktemp("site"), "slow = demo_scaffolds.slow:SPEC\n", {"slow": slow}
    )
    child = subprocess.Popen(
        [sys.executable, "-m", "verification", "list"],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A terminal's Ctrl-C finds SIGINT at its default; where this suite runs with it
        # ignored (a shell's background job: `pytest &`), the child would inherit that, and
        # an ignored SIGINT at start keeps Python from raising KeyboardInterrupt on one.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60
        while not started.exists():
            assert child.poll() is None and time.monotonic() < deadline, "never loaded"
            time.sleep(0.05)
        os.kill(child.pid, signal.SIGINT)
        _, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 130, err
    assert "interrupted" in err


def test_a_size_axis_past_a_million_is_a_spec_error() -> None:
    # A plugin's range to 10**9 took every byte of memory at `list` (each size is listed).
    from verification.catalog.sizes import MAX_AXIS_SIZE, SizeAxis
    from verification.errors import SpecError

    ranges = {"simple": (1, 8), "standard": (8, 10**9), "edge": (1, 8)}
    with pytest.raises(SpecError, match="past 1,000,000"):
        SizeAxis(unit="items", measure=len, ranges=ranges)
    with pytest.raises(SpecError, match="past 1,000,000"):
        SizeAxis(
            unit="items",
            measure=len,
            ranges={**ranges, "standard": (8, 10)},
            stress=(11, MAX_AXIS_SIZE + 1),
        )
