"""Reference implementations of string-search algorithms."""

from __future__ import annotations

from typing import Any

__all__ = ["failure_function", "kmp_search"]


def _check_str(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string, got {type(value).__name__}")
    return value


def failure_function(pattern: str) -> list[int]:
    """The KMP failure (prefix) function of ``pattern``.

    Parameters
    ----------
    pattern : str
        A non-empty pattern.

    Returns
    -------
    list of int
        ``fail[i]`` is the length of the longest proper prefix of ``pattern[: i + 1]`` that
        is also a suffix of it (its longest proper border). ``fail[0]`` is always 0.

    Raises
    ------
    ValueError
        If ``pattern`` is not a string or is empty.

    Examples
    --------
    >>> failure_function("AABAAA")
    [0, 1, 0, 1, 2, 2]
    >>> failure_function("ABAB")
    [0, 0, 1, 2]

    Notes
    -----
    O(m) time for a pattern of length m: ``k`` grows by at most one per character and each
    fallback ``k = fail[k - 1]`` shrinks it. The result is unique; there is no tie to break.

    References
    ----------
    .. [1] D. E. Knuth, J. H. Morris, V. R. Pratt, "Fast pattern matching in strings",
       SIAM Journal on Computing 6(2), 1977.
    """
    _check_str(pattern, "pattern")
    if not pattern:
        raise ValueError("pattern must not be empty")
    fail = [0] * len(pattern)
    k = 0
    for i in range(1, len(pattern)):
        while k > 0 and pattern[i] != pattern[k]:
            k = fail[k - 1]
        if pattern[i] == pattern[k]:
            k += 1
        fail[i] = k
    return fail


def kmp_search(text: str, pattern: str) -> dict[str, Any]:
    """Every occurrence of ``pattern`` in ``text`` by Knuth-Morris-Pratt search.

    Parameters
    ----------
    text : str
        The text to scan (may be empty).
    pattern : str
        The non-empty pattern to find.

    Returns
    -------
    dict
        ``{"positions": [...]}``: the 0-based start index of every occurrence, overlapping
        occurrences included, in ascending order (empty when there is none).

    Raises
    ------
    ValueError
        If ``text`` or ``pattern`` is not a string, or ``pattern`` is empty.

    Examples
    --------
    >>> kmp_search(text="AABAACAADAABAAABAA", pattern="AABA")
    {'positions': [0, 9, 13]}
    >>> kmp_search(text="AAAA", pattern="AA")
    {'positions': [0, 1, 2]}
    >>> kmp_search(text="AB", pattern="ABA")
    {'positions': []}

    Notes
    -----
    O(n + m) time: the text index never moves back, and after a full match the scan goes on
    from the pattern's longest proper border, ``fail[m - 1]``, so overlapping occurrences
    are found. The positions come out in ascending order by construction.

    References
    ----------
    .. [1] D. E. Knuth, J. H. Morris, V. R. Pratt, "Fast pattern matching in strings",
       SIAM Journal on Computing 6(2), 1977.
    """
    _check_str(text, "text")
    fail = failure_function(pattern)
    m = len(pattern)
    positions: list[int] = []
    j = 0
    for i, char in enumerate(text):
        while j > 0 and char != pattern[j]:
            j = fail[j - 1]
        if char == pattern[j]:
            j += 1
        if j == m:
            positions.append(i - m + 1)
            j = fail[j - 1]
    return {"positions": positions}
