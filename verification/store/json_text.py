"""JSON text exactly as :meth:`json.JSONEncoder.encode` writes it, without that method's
Python layer: ``encode`` calls ``iterencode``, which sets up json's C encoder before the C
encoder writes the value, and on a short value (one edge of a graph's input, as prompts
write them an edge a line) that layer costs more than the writing. An attempt writes a dozen
such values (its prompt's input, its journal line, a dry run's answer)."""

from __future__ import annotations

import json.encoder
from typing import Any

__all__ = ["JsonText"]


class JsonText:
    """``json.JSONEncoder(allow_nan=..., ensure_ascii=...).encode`` as a function: the same
    text and the same errors, the C encoder set up as ``iterencode`` sets it up (a new one
    per value, so no value's circular-reference marks meet another's), without ``iterencode``
    (where json has no C encoder, ``encode`` itself)."""

    def __init__(self, *, allow_nan: bool = True, ensure_ascii: bool = True) -> None:
        self._encoder = json.JSONEncoder(allow_nan=allow_nan, ensure_ascii=ensure_ascii)

    def __call__(self, value: Any) -> str:
        encoder = self._encoder
        # Read per call, as iterencode reads it (typeshed does not declare it).
        make = json.encoder.c_make_encoder  # type: ignore[attr-defined]
        if make is None or isinstance(value, str):
            return encoder.encode(value)
        write = make(
            {},
            encoder.default,
            json.encoder.encode_basestring_ascii
            if encoder.ensure_ascii
            else json.encoder.encode_basestring,
            None,
            encoder.key_separator,
            encoder.item_separator,
            False,
            False,
            encoder.allow_nan,
        )
        return "".join(write(value, 0))
