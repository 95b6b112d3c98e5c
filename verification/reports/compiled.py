"""The reports' compiled Jinja2 templates, kept between processes as Python keeps a module's
bytecode.

Compiling the report templates costs a process about 0.13 s of CPU the first time it writes
reports, more than writing the reports of a thousand answers. Each environment keeps the
code it compiled in ``reports/templates/__pycache__``, and the next process reads it back
instead of compiling again. A file is used only by the environment that wrote it, with the
Jinja2 version and the interpreter's bytecode (its magic number) that wrote it, and only
for the template source it was compiled from (Jinja2's checksum) under the same environment
settings (autoescaping, whitespace, syntax, filters); any other file, or a
damaged one, is compiled again and replaced. A folder that cannot be written (a package
installed by another user, or in a zip) or ``PYTHONDONTWRITEBYTECODE`` leaves each process
compiling as it did before. The rendered reports are the same text either way.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import marshal
import os
import sys
import uuid
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket

__all__ = ["FOLDER", "TemplateBytecode", "template_bytecode"]

FOLDER = Path(__file__).resolve().parent / "templates" / "__pycache__"
"""Where the package's environments keep their compiled templates."""
_MAGIC = importlib.util.MAGIC_NUMBER + f"jinja2 {jinja2.__version__}\n".encode()


class TemplateBytecode(jinja2.BytecodeCache):
    """Compiled templates of the environment ``name``, one file each in ``folder``."""

    def __init__(self, folder: Path, name: str) -> None:
        self.folder = folder
        self.name = name

    def _path(self, bucket: Bucket) -> Path:
        return self.folder / f"{self.name}-{bucket.key}.{sys.implementation.cache_tag}.jinja"

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            data = self._path(bucket).read_bytes()
        except OSError:  # none yet, or unreadable: compiled
            return
        if not data.startswith(_MAGIC):
            return  # another interpreter's or Jinja2's: compiled again
        stamp, newline, code = data[len(_MAGIC) :].partition(b"\n")
        if not newline or stamp != _stamp(bucket):
            return  # compiled from another source or environment: compiled again
        try:
            bucket.code = marshal.loads(code)
        except (EOFError, ValueError, TypeError):  # damaged: compiled again
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        if sys.dont_write_bytecode or bucket.code is None:
            return
        path = self._path(bucket)
        temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
        data = _MAGIC + _stamp(bucket) + b"\n" + marshal.dumps(bucket.code)
        try:
            self.folder.mkdir(exist_ok=True)
            with temporary.open("xb") as file:
                file.write(data)
            os.replace(temporary, path)  # a reader sees the whole file or none
        except OSError:  # a folder that cannot be written: each process compiles
            with contextlib.suppress(OSError):
                temporary.unlink(missing_ok=True)

    def clear(self) -> None:
        for path in self.folder.glob(f"{self.name}-*.jinja"):
            with contextlib.suppress(OSError):
                path.unlink()


def _stamp(bucket: Bucket) -> bytes:
    """The template source's checksum and a digest of the environment's settings that go
    into the compiled code (its syntax, whitespace handling, autoescaping, finalizer,
    extensions, filters and tests): code compiled under other settings, by an older
    version of the package from the same template, is never read back."""
    env = bucket.environment
    settings = (
        env.block_start_string,
        env.block_end_string,
        env.variable_start_string,
        env.variable_end_string,
        env.comment_start_string,
        env.comment_end_string,
        env.line_statement_prefix,
        env.line_comment_prefix,
        env.trim_blocks,
        env.lstrip_blocks,
        env.newline_sequence,
        env.keep_trailing_newline,
        env.optimized,
        env.is_async,
        _named(env.autoescape),
        _named(env.finalize),
        sorted(env.extensions),
        sorted(env.filters),
        sorted(env.tests),
    )
    digest = hashlib.sha256(repr(settings).encode()).hexdigest()
    return f"{bucket.checksum} {digest}".encode()


def _named(value: object) -> object:
    """A setting as it can be compared between processes: a function by its name."""
    if callable(value):
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', value)}"
    return value


def template_bytecode(name: str) -> TemplateBytecode:
    """The compiled templates of the package's environment ``name`` (``markdown``,
    ``pages``, ``charts``): each environment its own files."""
    return TemplateBytecode(FOLDER, name)
