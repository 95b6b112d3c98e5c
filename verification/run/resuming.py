"""Going on with a stopped run: the command that does it, the scaffold files it reads, what
it must not change and which of its cases are answered.

A run records each scaffold file it read and that file's sha256. When it is resumed, a
scaffold it read from somewhere other than where the harness would look today (a draft given
with ``--scaffold-file``, or another ``--scaffolds-dir``) is read from that stored path again,
but only when the file there still hashes to the manifest's sha256: the manifest is a file
anyone may edit, so a path in it is trusted for nothing but text the run already hashed.

A run of a ``--baseline`` pair goes on as the arm it is (:func:`resumed_arm`): a bare arm
is asked the bare prompt again, and every arm's new lines name it, whoever resumes it.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from verification.cases import Planned, ProgramTask, drawn, printable
from verification.catalog.code_format import CODE_FORMAT_VERSION
from verification.certify.answers import standing_chains
from verification.certify.input_keys import input_key
from verification.config import RunConfig
from verification.errors import ConfigurationError, VerificationError
from verification.llm.bare_prompt import BarePromptBuilder
from verification.llm.base import LLMProvider
from verification.llm.prompt_builder import USER_TEMPLATE_VERSION, PromptBuilder
from verification.store.manifests import RunManifest
from verification.store.records import Arm, AttemptRecord
from verification.store.urls import (
    on_this_machine,
    same_server,
    url_credentials,
    without_credentials,
)

__all__ = [
    "BASE_URL_SETTINGS",
    "adopt_stored_scaffolds",
    "answered_samples",
    "check_resumable",
    "check_same_draws",
    "owed_repairs",
    "recorded_arm",
    "rerun_arm",
    "resume_command",
    "resumed_arm",
]


def check_same_draws(
    cases: Mapping[str, Sequence[Planned]], records: Iterable[AttemptRecord], run_id: str
) -> None:
    """:class:`~verification.errors.ConfigurationError` where a journalled case would now be
    drawn with another input than the one it was asked with: the generator or the seed
    changed since the run began (code pulled between a stop and its resume, a manifest
    edited), and the resume would put two draws under one id and one seed, whose status no
    draw stands for (hunt hh: a resume read CERTIFIED over cases drawn two ways). Each
    journalled case is drawn once to compare; a program is its own request."""
    planned = {case.id: case for planned in cases.values() for case in planned}
    seen: set[str] = set()
    for record in records:
        case = planned.get(record.case_id)
        if case is None or record.case_id in seen or record.undrawn:
            continue
        seen.add(record.case_id)
        now = drawn(case)
        if isinstance(now, ProgramTask) or input_key(now.input) == input_key(record.input):
            continue
        raise ConfigurationError(
            f"--resume {run_id}: case {printable(record.case_id, 80)} was asked with the input "
            f"{printable(input_key(record.input), 120)} and is now drawn with "
            f"{printable(input_key(now.input), 120)}: its generator or the run's seed changed "
            "since the run began (was the code updated?), and a resume would mix two draws "
            "in one status: start a new run (or resume with the code the run began with)"
        )


def resumed_arm(
    manifest: RunManifest,
    builder: PromptBuilder,
    arm: Arm | None,
    journalled: Iterable[AttemptRecord] = (),
) -> tuple[PromptBuilder, Arm | None]:
    """The prompt builder and arm a resumed run asks with: the arm its manifest records (a
    run of no pair keeps ``arm``), and for the bare arm a :class:`BarePromptBuilder` reading
    the same scaffolds, so a resumed bare arm stays bare (the scaffold sent in its place
    would mix two questions in one run; its manifest's sha256 is of the bare text). A
    manifest from before arms were kept names the bare arm by its ``variant`` once its pair
    was linked, and a run stopped before that by the arm its journal's lines name
    (``journalled``)."""
    recorded = recorded_arm(manifest)
    if recorded is None and manifest.linked_run is None:
        recorded = next((r.arm for r in journalled if r.arm is not None), None)
    if recorded is None:
        return builder, arm
    return (_bare(builder) if recorded == "bare" else builder), recorded


def rerun_arm(manifest: RunManifest, builder: PromptBuilder) -> tuple[PromptBuilder, Arm | None]:
    """The prompt builder and arm a new run asking ``manifest``'s failures again
    (``--rerun-failed``) asks with: a bare arm's failures are asked bare again, the
    question they failed (with the scaffold they would be another question, a pair's: hunt
    ll); any other run's with the scaffold, as any new run, and of no arm."""
    if recorded_arm(manifest) != "bare":
        return builder, None
    return _bare(builder), "bare"


def recorded_arm(manifest: RunManifest) -> Arm | None:
    """The arm ``manifest`` records (before arms were kept, a linked bare arm's variant)."""
    return manifest.arm or ("bare" if manifest.variant == "bare" else None)


def _bare(builder: PromptBuilder) -> PromptBuilder:
    """``builder``'s bare twin, reading the same scaffolds (the bare prompt's task part)."""
    if isinstance(builder, BarePromptBuilder):
        return builder
    return BarePromptBuilder(
        builder.scaffolds_dir, overrides=builder.overrides, catalog=builder.catalog
    )


def adopt_stored_scaffolds(manifest: RunManifest, builder: PromptBuilder) -> list[str]:
    """Make ``builder`` read each scaffold of ``manifest`` from the file the run read, where
    that differs from the builder's own choice and still holds the text the run hashed.
    Scaffolds the command line gave a file for are left as given. Returns the names whose
    stored file is used."""
    adopted = []
    for name, entry in manifest.scaffolds.items():
        if name in builder.overrides:
            continue
        stored = Path(entry.file)
        try:
            if stored == builder.scaffold_path(name):
                continue
            probe = PromptBuilder(
                builder.scaffolds_dir, overrides={name: stored}, catalog=builder.catalog
            )
            matches = probe.scaffold_sha256(name) == entry.sha256
        except (VerificationError, OSError, ValueError):
            continue  # gone, changed or unreadable: the resume check says the scaffold changed
        if matches:
            builder.overrides[name] = stored
            adopted.append(name)
    return adopted


def resume_command(
    run_id: str,
    settings: RunConfig,
    *,
    prog: str,
    model: str | None,
    max_cost: float | None = None,
) -> str:
    """The command that goes on with ``run_id`` as today's command line reads it: the
    provider, model, replay file, cache choice and results folder the run needs, stated (so
    a resume from another shell, without the same ``VERIFY_*`` variables, still finds the
    run, passes its checks and asks as it asked). ``model`` is ``None`` for a provider that
    asks no model; ``max_cost`` is the budget to go on with (default: the run's own)."""
    words = [*shlex.split(prog), "verify", "--resume", run_id, "--provider", settings.provider]
    # A resume takes a server on this machine from the manifest; another only from the
    # user's own setting (a manifest may have been edited), so the command states it.
    # One whose URL holds a user name or password is left to the user's own variable: the
    # command must not show them, and without them it would not reach the server.
    setting, variables = BASE_URL_SETTINGS.get(settings.provider, ("", ()))
    given = getattr(settings, setting, None) if setting else None
    url = without_credentials(given) if given and not url_credentials(given) else None
    server = f"{variables[-1]}={shlex.quote(url)} " if url and not on_this_machine(url) else ""
    if model is not None:
        words += ["--model", model]
    if settings.replay_file is not None:
        words += ["--replay-file", str(settings.replay_file)]
    if not settings.cache:
        words.append("--no-cache")
    budget = settings.max_cost if max_cost is None else max_cost
    if budget is not None:
        words += ["--max-cost", f"{budget:g}"]
    words += ["--output", str(settings.results_dir)]
    return server + shlex.join(words)


BASE_URL_SETTINGS: dict[str, tuple[str, tuple[str, ...]]] = {
    "anthropic": ("anthropic_base_url", ("VERIFY_ANTHROPIC_BASE_URL", "ANTHROPIC_BASE_URL")),
    "openai": ("openai_base_url", ("VERIFY_OPENAI_BASE_URL",)),
}
"""Per provider that asks a server: the setting of its base URL and the variables that set
it, the first the settings read first."""


def check_resumable(
    manifest: RunManifest,
    provider: LLMProvider,
    model: str,
    prompt_builder: PromptBuilder,
    thinking_budget: int | None = None,
) -> None:
    """Refuse to mix answers of another provider, model, thinking budget, server or scaffold
    text into a run (a resume given no budget keeps the run's). Only the server can be given
    back: that refusal alone says how, not to start a new run."""
    problems = []
    if thinking_budget is not None and thinking_budget != manifest.thinking_budget:
        problems.append(f"thinking budget {manifest.thinking_budget}, now {thinking_budget}")
    if manifest.provider.get("provider") != provider.name:
        problems.append(f"provider {manifest.provider.get('provider')!r}, now {provider.name!r}")
    if not manifest.dry_run and manifest.model_requested != model:
        problems.append(f"model {manifest.model_requested!r}, now {model!r}")
    # The replay file may change on resume (it scripts answers); a server may not. The
    # command line takes the run's own (cli/resume_options.py); a caller that gives
    # another is told to give the run's back, not to throw away what it paid for.
    then_url, now_url = manifest.provider.get("base_url"), provider.describe().get("base_url")
    server = None
    if not same_server(then_url, now_url):
        server = (
            f"base URL {then_url!r}, now {now_url!r} (ask the run's server to go on: "
            "unset the base URL's variable, or set it back to the run's)"
        )
    if manifest.template_version != USER_TEMPLATE_VERSION:
        problems.append(f"prompt template {manifest.template_version}, now {USER_TEMPLATE_VERSION}")
    if manifest.code_format_version not in (None, CODE_FORMAT_VERSION):
        problems.append(
            f"Code Format {manifest.code_format_version}, now {CODE_FORMAT_VERSION} (its "
            "programs were asked in other words)"
        )
    for name, info in manifest.scaffolds.items():
        if info.sha256 != prompt_builder.scaffold_sha256(prompt_builder.spec(name)):
            problems.append(
                f"scaffold {name} changed since (sha256 differs from the text read then from "
                f"{info.file}; --scaffold-file with that text resumes it)"
            )
    if problems:
        raise ConfigurationError(
            f"cannot resume run {manifest.run_id}: it was started with "
            + "; ".join([*problems, *([server] if server else [])])
            + ". Start a new run instead."
        )
    if server:
        raise ConfigurationError(
            f"cannot resume run {manifest.run_id} here: it was started with {server}."
        )


def owed_repairs(
    records: Iterable[AttemptRecord],
    next_attempt: Callable[[Mapping[int, AttemptRecord]], int | None],
) -> dict[tuple[str, int], list[AttemptRecord]]:
    """The case samples of a journal that owe a repair, each with its attempts before the
    one owed, in order: a run stopped after a reply it could not read and before its
    repair, or a repair lost to an infrastructure error (asked again: a code-mode program's
    from the reply the journal holds). The attempt owed is ``next_attempt``'s of the chain
    (an answer standing against a later infrastructure error on its attempt, as a batch
    resume and the certification read it); a first attempt is the plan's to ask, and a
    chain with a gap is left as it is."""
    owed = {}
    for sample, chain in standing_chains(records).items():
        attempt = next_attempt(chain)
        if attempt is None or attempt < 2 or any(n not in chain for n in range(1, attempt)):
            continue
        owed[sample] = [chain[n] for n in range(1, attempt)]
    return owed


def answered_samples(records: Iterable[AttemptRecord]) -> set[tuple[str, int]]:
    """The case samples, as (case id, sample) pairs, that a journal holds an answer for
    (what a resumed run does not ask again). An answer stands against a later
    infrastructure error on the same attempt, as the certification folds the journal
    (:func:`~verification.certify.answers.attempt_chains`): asked again, a second answer
    that differs would make the journal one no status is read from."""
    return {
        (record.case_id, record.epoch)
        for record in records
        if record.attempt == 1 and record.outcome != "infra_error"
    }
