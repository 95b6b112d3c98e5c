"""Going on with a stopped run: the command that does it, and the scaffold files it reads.

A run records each scaffold file it read and that file's sha256. When it is resumed, a
scaffold it read from somewhere other than where the harness would look today (a draft given
with ``--scaffold-file``, or another ``--scaffolds-dir``) is read from that stored path again,
but only when the file there still hashes to the manifest's sha256: the manifest is a file
anyone may edit, so a path in it is trusted for nothing but text the run already hashed.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from verification.config import VerificationSettings
from verification.errors import VerificationError
from verification.journal import RunManifest
from verification.llm.prompt_builder import PromptBuilder

__all__ = ["adopt_stored_scaffolds", "resume_command"]


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
    run_id: str, settings: VerificationSettings, *, prog: str, model: str | None
) -> str:
    """The command that goes on with ``run_id`` as today's command line reads it: the
    provider, model, replay file and results folder the run needs, stated (so a resume
    from another shell, without the same ``VERIFY_*`` variables, still finds the run and
    passes its checks). ``model`` is ``None`` for a provider that asks no model."""
    words = [*shlex.split(prog), "verify", "--resume", run_id, "--provider", settings.provider]
    if model is not None:
        words += ["--model", model]
    if settings.replay_file is not None:
        words += ["--replay-file", str(settings.replay_file)]
    words += ["--output", str(settings.results_dir)]
    return shlex.join(words)
