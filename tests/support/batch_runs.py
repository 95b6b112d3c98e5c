"""A ``--batch`` run of kmp through the real ``anthropic`` SDK against the stand-in Batches
server: the seed, the cases and the model the batch tests share, a Batches API that answers
every request right, and the command that starts the run."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from verification.cli import main

if TYPE_CHECKING:
    from tests.support.fake_server import FakeBatchAPI, FakeModelServer

__all__ = ["CASES", "MODEL", "SEED", "answering_right", "verify_batch"]

SEED, CASES = 13, 6
MODEL = "claude-haiku-4-5"


def answering_right(server: FakeModelServer, *, polls: int | None = 1) -> FakeBatchAPI:
    """Install on ``server`` a Batches API whose every request succeeds with kmp's right
    answer to its case."""
    right = server.right_kmp_replies(SEED, CASES)
    api = server.FakeBatchAPI(
        lambda cid, params: server.batch_succeeded(right[str(params["messages"][0]["content"])]),
        polls=polls,
    )
    server.batches = api
    return api


def verify_batch(output: Path, *extra: str) -> int:
    """``verify kmp --batch`` of :data:`CASES` cases at :data:`SEED` into ``output``."""
    return main(
        [
            *("verify", "kmp", "--provider", "anthropic", "--model", MODEL, "--batch"),
            *("--cases", str(CASES), "--seed", str(SEED), "--output", str(output), *extra),
        ]
    )
