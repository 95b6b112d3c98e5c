"""Text made fit for XML 1.0 (SVG charts, JUnit files).

XML 1.0 forbids most control characters, lone surrogates and U+FFFE/U+FFFF even as
character references; a model reply holding one would make the whole file unreadable. Each
is replaced by ``?`` with its code point beside it (``?[U+0007]``), so the place stays
visible; so are DEL and the C1 controls, which XML allows but a terminal may obey. Markup
(``<``, ``&``) is the serializer's job, not this one's.
"""

from __future__ import annotations

import re

__all__ = ["xml_text"]

_FORBIDDEN = re.compile("[^\t\n\r\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""What XML 1.0 forbids, and DEL and the C1 controls, which it allows but asks authors to
avoid: a CI log that prints a JUnit failure would pass U+009B (a terminal escape's start)
on to the terminal."""


def xml_text(value: object, limit: int | None = None) -> str:
    """``value`` as text XML 1.0 may hold (at most ``limit`` characters, when given).

    Examples
    --------
    >>> xml_text("bell\\x07 and \\ud800")
    'bell?[U+0007] and ?[U+D800]'
    """
    text = _FORBIDDEN.sub(lambda match: f"?[U+{ord(match.group()):04X}]", str(value))
    return text if limit is None or len(text) <= limit else text[: limit - 3] + "..."
