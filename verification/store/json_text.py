"""JSON text exactly as :meth:`json.JSONEncoder.encode` writes it, without that method's
Python layer: ``encode`` calls ``iterencode``, which sets up json's C encoder before the C
encoder writes the value, and on a short value (one edge of a graph's input, as prompts
write them an edge a line) that layer costs more than the writing. An attempt writes a dozen
such values (its prompt's input, its journal line, a dry run's answer, its calibration's
keys)."""

from __future__ import annotations

import json.encoder
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["JsonText"]

_PROBE: Any = {"b": [1, -2.5, None, True, "caf\u00e9 \U0001f600"], "a": {"\u00e9": []}}
"""A value every option can write, written both ways when a :class:`JsonText` is made."""


class JsonText:
    """``json.JSONEncoder(allow_nan=..., ensure_ascii=..., sort_keys=...,
    check_circular=..., separators=..., default=...).encode`` as a function: the same text
    and the same errors, the C encoder set up as ``iterencode`` sets it up, without
    ``iterencode``.

    With ``check_circular`` (the default) a C encoder is made per value, so no value's
    circular-reference marks meet another's; without it one is made once and serves every
    value (a cycle then ends in :class:`RecursionError`, where ``encode`` raises
    :class:`ValueError`: for values known to be JSON data, which hold none). Where json has
    no C encoder, or its C encoder is not the one this was written against (it is called
    by its position arguments, which json does not promise: checked on a probe value when
    the object is made), it is ``encode`` itself."""

    def __init__(
        self,
        *,
        allow_nan: bool = True,
        ensure_ascii: bool = True,
        sort_keys: bool = False,
        check_circular: bool = True,
        separators: tuple[str, str] | None = None,
        default: Callable[[Any], Any] | None = None,
    ) -> None:
        self._encoder = json.JSONEncoder(
            allow_nan=allow_nan,
            ensure_ascii=ensure_ascii,
            sort_keys=sort_keys,
            check_circular=check_circular,
            separators=separators,
            default=default,
        )
        self._once: Callable[[Any, int], Iterator[str]] | None = None
        self._fast = False
        try:
            write = self._make()
            self._fast = "".join(write(_PROBE, 0)) == self._encoder.encode(_PROBE)
        except (TypeError, ValueError):  # no C encoder, or another one's arguments
            self._fast = False
        if self._fast and not check_circular:
            self._once = write

    def _make(self, make: Any = None) -> Callable[[Any, int], Iterator[str]]:
        # Read per call, as iterencode reads it (typeshed does not declare it).
        make = make or json.encoder.c_make_encoder  # type: ignore[attr-defined]
        if make is None:
            raise TypeError("json has no C encoder")
        encoder = self._encoder
        write: Callable[[Any, int], Iterator[str]] = make(
            {} if encoder.check_circular else None,
            encoder.default,
            json.encoder.encode_basestring_ascii
            if encoder.ensure_ascii
            else json.encoder.encode_basestring,
            None,
            encoder.key_separator,
            encoder.item_separator,
            encoder.sort_keys,
            encoder.skipkeys,
            encoder.allow_nan,
        )
        return write

    def __call__(self, value: Any) -> str:
        if not self._fast or isinstance(value, str):
            return self._encoder.encode(value)
        if self._once is not None:
            return "".join(self._once(value, 0))
        make = json.encoder.c_make_encoder  # type: ignore[attr-defined]
        if make is None:  # the C accelerator taken away since (a test's monkeypatch)
            return self._encoder.encode(value)
        return "".join(self._make(make)(value, 0))
