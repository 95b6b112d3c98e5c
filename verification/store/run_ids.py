"""What may name a run: a folder name under ``<results>/runs/``, never a path, and how a
new run is named."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime

from verification.errors import ConfigurationError

__all__ = ["check_run_id", "is_run_id", "new_run_id"]


_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


def new_run_id(now: datetime | None = None) -> str:
    """A sortable, unique run id: ``20261122T031500Z-3f9a1c``."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return f"{stamp}-{secrets.token_hex(3)}"


def is_run_id(text: object) -> bool:
    """Whether ``text`` may name a run: a folder name under ``runs/``, never a path."""
    return isinstance(text, str) and bool(_RUN_ID.fullmatch(text)) and ".." not in text


def check_run_id(run_id: str) -> str:
    """``run_id`` when it names a run (a folder name under ``runs/``); a
    :class:`ConfigurationError` for a path, ``..`` or anything else."""
    if not is_run_id(run_id):
        raise ConfigurationError(
            f"{run_id!r:.80} is not a run id: a run id is the name of a folder under "
            "<results>/runs/ (letters, digits, '.', '_', '-'), never a path; choose the "
            "results folder with --output"
        )
    return run_id
