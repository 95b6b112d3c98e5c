"""Text from outside (a model's reply, a server's model ids, a stored file's names) made safe
to print in one line of a terminal or a log."""

from __future__ import annotations

__all__ = ["printable"]


# to print in one line of a terminal or a log: every character that is not printable (control
# and terminal escape codes, line breaks, bidirectional overrides, lone surrogates) is written
# as a visible escape, as ``repr`` writes it; nothing is dropped but what a length limit cuts.
def _escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def printable(text: str, limit: int | None = None) -> str:
    """``text`` with each non-printable character escaped (``\\x1b``, ``\\u202e``,
    ``\\ud800``), cut to at most ``limit`` characters (``...`` marking a cut).

    Examples
    --------
    >>> printable("qwen\\x1b[31m-7b\\n")
    'qwen\\\\x1b[31m-7b\\\\x0a'
    >>> printable("größe \\ud800")
    'größe \\\\ud800'
    >>> printable("x" * 10, limit=6)
    'xxx...'
    """
    if limit is not None:
        text = text[: limit + 1]  # escaping only lengthens: no need to look further
    # Most text is printable as it is: one pass in C instead of one call per character (the
    # page of a run escapes every line of every reply).
    shown = (
        text
        if text.isprintable()
        else "".join(char if char.isprintable() else _escape(char) for char in text)
    )
    if limit is not None and len(shown) > limit:
        shown = shown[: max(limit - 3, 0)] + "..."
    return shown
