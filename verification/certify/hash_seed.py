"""The determinism checks: a scaffold's suite is the same under two ``PYTHONHASHSEED`` values,
and the same when drawn again in one process.

Each digest is drawn in a fresh interpreter (the hash seed is fixed when one starts).
``check`` of several scaffolds draws them all in one interpreter per seed, two in all,
rather than two per scaffold: starting one and importing the harness costs about as much
as drawing a scaffold's suite. Two fresh interpreters each draw a case first, so a generator
that counts its calls in a module's global passes there: :func:`redrawn_verdict` draws
``check``'s cases again in its own process, where the count goes on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence

from verification.cases import CaseSource, TestCase, printable
from verification.catalog import plugin_clock
from verification.catalog.drawing import draw_case
from verification.errors import VerificationError

__all__ = ["HASH_SEEDS", "hash_seed_verdicts", "redrawn_verdict", "suite_digest", "suite_digests"]

HASH_SEEDS = ("1", "4242")
"""The two ``PYTHONHASHSEED`` values a suite is drawn under."""

_MARK = "suite-digests: "
"""Starts the line the child reports on: a plugin may print to stdout while it draws."""

_DRAW = (
    "import hashlib, json\n"
    # case_plan, not runner: the lighter import, the same plan_cases.
    "from verification.run.case_plan import plan_cases\n"
    "def digest(names, cases):\n"
    "    planned = plan_cases(names, seed=7, cases=cases)\n"
    "    data = {n: [c.model_dump() for c in cs] for n, cs in planned.items()}\n"
    "    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()\n"
)


def _run(code: str, hash_seed: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    # The child reads no settings: it draws under this process's limit on plugin calls.
    limit = f"plugin_clock.PLUGIN_CALL_SECONDS = {plugin_clock.PLUGIN_CALL_SECONDS!r}\n"
    code = "from verification.catalog import plugin_clock\n" + limit + code
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )


def _failed(stderr: str) -> VerificationError:
    """The child's failure in one line: its exception's, as the traceback ends it (the
    frames above it are the harness's and the plugin's code, not a check's words)."""
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    said = printable(lines[-1].strip() if lines else "(nothing on standard error)", limit=300)
    return VerificationError(f"drawing the suite failed: {said}")


def suite_digest(names: list[str], hash_seed: str, *, cases: int = 10) -> str:
    """A digest of the named scaffolds' suites, drawn in a fresh interpreter with
    ``PYTHONHASHSEED=hash_seed``."""
    done = _run(_DRAW + f"print(digest({names!r}, {cases!r}))\n", hash_seed)
    if done.returncode != 0:
        raise _failed(done.stderr)
    return done.stdout.strip()


def suite_digests(
    names: Sequence[str], hash_seed: str, *, cases: int = 10
) -> dict[str, str | VerificationError]:
    """Each named scaffold's :func:`suite_digest` of its own suite, all drawn in one fresh
    interpreter; a scaffold whose draw fails maps to the error, its traceback's end."""
    code = _DRAW + (
        "import traceback\n"
        "found = {}\n"
        f"for name in {list(names)!r}:\n"
        "    try:\n"
        f"        found[name] = ['ok', digest([name], {cases!r})]\n"
        "    except BaseException:  # a plugin's draw may raise anything: its verdict\n"
        "        found[name] = ['failed', traceback.format_exc()]\n"
        f"print({_MARK!r} + json.dumps(found))\n"
    )
    done = _run(code, hash_seed)
    lines = [line for line in done.stdout.splitlines() if line.startswith(_MARK)]
    if done.returncode != 0 or not lines:
        # The child itself died (a plugin ended the interpreter): each scaffold on its own.
        return {name: _alone(name, hash_seed, cases) for name in names}
    found = json.loads(lines[-1][len(_MARK) :])
    return {
        name: value if kind == "ok" else _failed(value) for name, (kind, value) in found.items()
    }


def _alone(name: str, hash_seed: str, cases: int) -> str | VerificationError:
    try:
        return suite_digest([name], hash_seed, cases=cases)
    except VerificationError as exc:
        return exc


def hash_seed_verdicts(names: Sequence[str]) -> dict[str, str | VerificationError]:
    """The hash-seed check's verdict on each scaffold: what it passes with, or why it fails."""
    first, second = (suite_digests(names, seed) for seed in HASH_SEEDS)
    verdicts: dict[str, str | VerificationError] = {}
    for name in names:
        one, other = first[name], second[name]
        if isinstance(one, VerificationError):
            verdicts[name] = one
        elif isinstance(other, VerificationError):
            verdicts[name] = other
        elif one != other:
            verdicts[name] = VerificationError(
                f"the suite differs between PYTHONHASHSEED {HASH_SEEDS[0]} and {HASH_SEEDS[1]}"
            )
        else:
            verdicts[name] = f"suite digest {one[:12]} under both hash seeds"
    return verdicts


def redrawn_verdict(spec: CaseSource, cases: Sequence[TestCase], *, seed: int) -> str:
    """``cases``, drawn with ``seed`` in this process, drawn again in the same order: what
    it passes with, or a ``VerificationError`` naming the first case that differs (a
    generator or reference that keeps state between calls, or draws from a source other
    than the case's rng: a resumed run, a replay or a shard would ask other cases)."""
    for case in cases:
        again = draw_case(spec, case.tier, case.index, seed=seed, size=case.size)
        if again != case:
            part = "input" if again.input != case.input else "expected answer"
            raise VerificationError(
                f"{printable(case.id, 120)} differs when drawn again in the same process (its "
                f"{part}): the generator or reference keeps state between calls or draws from "
                "a source other than the case's rng"
            )
    return f"{len(cases)} cases drawn again in this process, each the same"
