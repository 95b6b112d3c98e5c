"""Reading back the files the harness wrote earlier, as the untrusted input they are.

A manifest, a summary or a journal may have been edited by hand, cut short by a full disk,
replaced by a folder, a FIFO or a symbolic link to ``/dev/zero``, or copied from a stranger's
results folder. Whatever it holds, reading it ends in its data or in a
:class:`~verification.errors.StoredFileError` that names the file: only regular files are
read, never more than a stated number of bytes, and JSON nested deeper than
:data:`MAX_JSON_DEPTH` is refused before anything recurses into it.
"""

from __future__ import annotations

import errno
import json
import os
import shlex
import stat
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from verification.cases import printable
from verification.errors import StoredFileError

__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_MANIFEST_BYTES",
    "check_own_file",
    "json_depth_exceeds",
    "open_own_file",
    "open_regular_file",
    "parse_stored_json",
    "read_stored_json",
    "read_stored_text",
    "replace_atomically",
    "validation_problems",
]

MAX_JSON_DEPTH = 64
"""The deepest nesting a stored JSON document may have (ours reach about 8)."""
MAX_MANIFEST_BYTES = 64 * 1024 * 1024
"""A manifest lists every planned case id: megabytes for the largest catalog runs."""


def open_regular_file(path: Path) -> int:
    """A read-only descriptor of ``path``, which must be a regular file (a symbolic link to
    one is followed). Opened without blocking, so a FIFO cannot hang the open; checked
    through the descriptor, so the file cannot be swapped between the check and the read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise StoredFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise StoredFileError(f"{path}: not a regular file, so it is not read")
    return fd


def open_own_file(path: Path, flags: int, mode: int = 0o644, *, writes: bool = True) -> int:
    """A descriptor of ``path``, a file the harness writes in a run folder (its lock, its
    journal), opened with ``flags``: never through a symbolic link (one planted there would
    have a resume truncate or append to a file outside the results folder) and only onto a
    regular file (a FIFO would hold the open, or the lock's ``flock`` fail with "Invalid
    argument") that is its own (a hard link makes what is written there change the file's
    other names too: another run's journal, or a backup taken with ``cp -al``; ``writes``
    false: only read or locked, as one that looks whether a run is in use does, where other
    names change nothing); otherwise a :class:`StoredFileError` naming it and what to do."""
    nofollow = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags | nofollow | getattr(os, "O_BINARY", 0), mode)
    except OSError as exc:
        if path.is_symlink():
            raise StoredFileError(
                f"{path} is a symbolic link, which the harness does not follow: remove it"
            ) from None
        if exc.errno == errno.ENXIO:  # a FIFO no process reads, opened for writing
            raise StoredFileError(f"{path}: not a regular file, so it is not used") from None
        raise
    refused = _not_own(path, os.fstat(fd), writes=writes)
    if refused is not None:
        os.close(fd)
        raise StoredFileError(refused)
    return fd


def check_own_file(path: Path) -> None:
    """What :func:`open_own_file` would refuse of ``path`` as it is now, refused before
    anything else is written (a resume rewrites its manifest before it appends to its
    journal); nothing there yet is no refusal."""
    try:
        status = path.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISLNK(status.st_mode):
        raise StoredFileError(
            f"{path} is a symbolic link, which the harness does not follow: remove it"
        )
    refused = _not_own(path, status)
    if refused is not None:
        raise StoredFileError(refused)


def _not_own(path: Path, status: os.stat_result, *, writes: bool = True) -> str | None:
    """Why the harness uses no file with ``status`` at ``path``: not a regular file, or
    (``writes``) one with other names; ``None`` when it may."""
    if not stat.S_ISREG(status.st_mode):
        return f"{path}: not a regular file, so it is not used"
    if writes and status.st_nlink > 1:
        named, copy = shlex.quote(str(path)), shlex.quote(f"{path}.own")
        return (
            f"{path} has {status.st_nlink} hard links, so writing it would change the file "
            "under its other names too (another run's, or a backup's): give it a file of its "
            f"own (cp -p {named} {copy} && mv {copy} {named}) and try again"
        )
    return None


def replace_atomically(path: Path, text: str, *, sync: bool = True) -> None:
    """Put ``text`` at ``path`` whole or not at all: written to a temporary file of a new,
    random name beside it (created exclusively, so nothing planted there, a symbolic link or
    a FIFO, is written through or waited on), forced to the disk with ``sync``, then renamed
    over ``path`` (a symbolic link there is replaced, never followed). The temporary file is
    removed when anything fails, and the error raised."""
    temporary = path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")
    try:
        with temporary.open("x", encoding="utf-8") as file:
            file.write(text)
            if sync:
                file.flush()
                os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def read_stored_text(path: Path, *, max_bytes: int) -> str:
    """The UTF-8 text of the regular file ``path``, refused when longer than ``max_bytes``.
    A missing file raises :class:`FileNotFoundError` (callers say what is missing)."""
    fd = open_regular_file(path)
    with os.fdopen(fd, "rb") as file:
        data = file.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise StoredFileError(f"{path}: longer than {max_bytes} bytes, so it is not read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StoredFileError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def json_depth_exceeds(value: Any, max_depth: int) -> bool:
    """Whether ``value`` nests lists and objects deeper than ``max_depth`` (a walk level by
    level, with no recursion: it cannot overflow Python's stack). Every journal line read
    back passes here, so it walks each level in one comprehension rather than an item at a
    time (a third of the time on a dijkstra record)."""
    level: list[Any] = [value]
    depth = 0
    while True:
        level = [item for item in level if isinstance(item, dict | list)]
        if not level:
            return False
        depth += 1
        if depth > max_depth:
            return True
        children: list[Any] = []
        for item in level:
            children.extend(item.values() if isinstance(item, dict) else item)
        level = children


def parse_stored_json(text: str, *, where: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``text`` as JSON; :class:`StoredFileError` naming ``where`` when it is not JSON or
    nests deeper than ``max_depth``."""
    try:
        # json's own parser keeps lone surrogate escapes (model text may hold them).
        value = json.loads(text)
    except RecursionError:
        raise StoredFileError(f"{where}: JSON nested too deeply, so it is not read") from None
    except ValueError as exc:
        raise StoredFileError(f"{where}: not JSON ({exc})") from None
    if json_depth_exceeds(value, max_depth):
        raise StoredFileError(
            f"{where}: JSON nested deeper than {max_depth} levels, so it is not read"
        )
    return value


def read_stored_json(path: Path, *, max_bytes: int, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The JSON document in the regular file ``path`` (see :func:`read_stored_text`)."""
    return parse_stored_json(
        read_stored_text(path, max_bytes=max_bytes), where=str(path), max_depth=max_depth
    )


def validation_problems(exc: ValidationError, *, whole: str = "the document") -> str:
    """Where and how a value breaks its model, in one line: the first three errors' places
    (``whole`` where the value itself is wrong) and messages, and how many more there are,
    not pydantic's many-line dump with its links."""
    shown = [
        f"{'.'.join(map(str, error['loc'])) or whole}: {error['msg']}" for error in exc.errors()[:3]
    ]
    more = exc.error_count() - len(shown)
    return printable("; ".join(shown) + (f" (and {more} more)" if more > 0 else ""), limit=300)
