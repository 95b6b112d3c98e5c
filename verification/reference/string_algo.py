"""Reference implementations of string-search algorithms."""

from __future__ import annotations

from typing import Any

__all__ = [
    "TRIE_OPERATIONS",
    "failure_function",
    "kmp_search",
    "rabin_karp",
    "trie_operations",
    "window_hashes",
]


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


def _check_int(value: Any, name: str, least: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < least:
        raise ValueError(f"{name} must be at least {least}, got {value}")
    return value


def window_hashes(text: str, length: int, base: int, modulus: int) -> list[int]:
    """The Rabin-Karp hash of every ``length``-letter window of ``text``, by rolling.

    Parameters
    ----------
    text : str
        The text.
    length : int
        The window length (at least 1).
    base, modulus : int
        As for :func:`rabin_karp`.

    Returns
    -------
    list of int
        ``hashes[s]`` is ``(ord(text[s]) * base**(length-1) + ... + ord(text[s+length-1]))
        mod modulus``; empty when the text is shorter than ``length``.

    Raises
    ------
    ValueError
        If ``text`` is not a string, or ``length``, ``base`` or ``modulus`` is too small.

    Examples
    --------
    >>> window_hashes("ABCA", 2, 10, 13)
    [1, 12, 7]

    Notes
    -----
    O(n): each window's hash comes from the previous one by removing the leading letter
    (times ``base**(length-1) mod modulus``), shifting, and adding the next letter.

    References
    ----------
    .. [1] R. M. Karp, M. O. Rabin, "Efficient randomized pattern-matching algorithms",
       IBM Journal of Research and Development 31(2), 1987.
    """
    _check_str(text, "text")
    _check_int(length, "length", 1)
    _check_int(base, "base", 2)
    _check_int(modulus, "modulus", 2)
    if len(text) < length:
        return []
    high = pow(base, length - 1, modulus)
    current = 0
    for char in text[:length]:
        current = (current * base + ord(char)) % modulus
    hashes = [current]
    for s in range(len(text) - length):
        current = ((current - ord(text[s]) * high) * base + ord(text[s + length])) % modulus
        hashes.append(current)
    return hashes


def rabin_karp(text: str, pattern: str, base: int = 256, modulus: int = 101) -> dict[str, Any]:
    """Every occurrence of ``pattern`` in ``text`` by Rabin-Karp search, with the
    spurious hits (equal hashes, different letters) the search had to rule out.

    Parameters
    ----------
    text : str
        The text to scan (may be empty).
    pattern : str
        The non-empty pattern to find.
    base : int
        The hash's base (at least 2); a letter's value is its code point, ``ord(c)``.
    modulus : int
        The hash's modulus (at least 2); a small one makes spurious hits.

    Returns
    -------
    dict
        ``{"positions": [...], "spurious_hits": [...]}``: the 0-based start of every window
        whose hash equals the pattern's and whose letters equal it (overlapping occurrences
        included), and of every window whose hash equals the pattern's but whose letters do
        not; both ascending, both empty when the pattern is longer than the text.

    Raises
    ------
    ValueError
        If ``text`` or ``pattern`` is not a string, ``pattern`` is empty, or ``base`` or
        ``modulus`` is not an integer of at least 2.

    Examples
    --------
    >>> rabin_karp(text="ABCAB", pattern="AB", base=10, modulus=13)
    {'positions': [0, 3], 'spurious_hits': []}
    >>> rabin_karp(text="ABCAB", pattern="AB", base=10, modulus=11)
    {'positions': [0, 3], 'spurious_hits': [1]}
    >>> rabin_karp(text="AB", pattern="ABA", base=10, modulus=13)
    {'positions': [], 'spurious_hits': []}

    Notes
    -----
    O(n + m) expected, O(n m) in the worst case: each window's hash is rolled from the
    previous one in O(1), and only a window whose hash equals the pattern's is compared
    letter by letter. The hash of ``s`` is ``sum(ord(s[i]) * base**(m-1-i)) mod
    modulus``. Every occurrence has the pattern's hash, so ``positions`` is exact whatever
    the modulus; ``spurious_hits`` depends on the base and modulus.

    References
    ----------
    .. [1] R. M. Karp, M. O. Rabin, "Efficient randomized pattern-matching algorithms",
       IBM Journal of Research and Development 31(2), 1987.
    """
    _check_str(text, "text")
    _check_str(pattern, "pattern")
    if not pattern:
        raise ValueError("pattern must not be empty")
    _check_int(base, "base", 2)
    _check_int(modulus, "modulus", 2)
    m = len(pattern)
    target = window_hashes(pattern, m, base, modulus)[0]
    positions: list[int] = []
    spurious: list[int] = []
    for s, value in enumerate(window_hashes(text, m, base, modulus)):
        if value == target:
            (positions if text[s : s + m] == pattern else spurious).append(s)
    return {"positions": positions, "spurious_hits": spurious}


TRIE_OPERATIONS = ("insert", "search", "starts_with", "count_prefix")
"""The operations :func:`trie_operations` understands."""


def trie_operations(operations: list[list[str]]) -> dict[str, Any]:
    """Run insert / search / prefix operations on an initially empty trie.

    Parameters
    ----------
    operations : list of [str, str]
        Each an ``[operation, word]`` pair, ``operation`` one of ``"insert"``,
        ``"search"``, ``"starts_with"`` and ``"count_prefix"``, ``word`` a non-empty
        string.

    Returns
    -------
    dict
        ``{"results": [...], "node_count": int}``. One result per operation, in order:
        ``insert`` gives ``True`` when the word was new and ``False`` when it was already
        stored; ``search`` whether the word itself was inserted; ``starts_with`` whether
        some inserted word starts with the prefix; ``count_prefix`` how many distinct
        inserted words start with it (a word is its own prefix). ``node_count`` is the
        number of trie nodes after all operations, the root not counted: the number of
        distinct non-empty prefixes of the inserted words.

    Raises
    ------
    ValueError
        If ``operations`` is not a list of ``[operation, word]`` pairs with a known
        operation and a non-empty string word.

    Examples
    --------
    >>> trie_operations([["insert", "car"], ["search", "ca"], ["starts_with", "ca"],
    ...                  ["insert", "ca"], ["search", "ca"], ["count_prefix", "c"]])
    {'results': [True, False, True, True, True, 2], 'node_count': 3}
    >>> trie_operations([["search", "a"], ["insert", "a"], ["insert", "a"]])
    {'results': [False, True, False], 'node_count': 1}

    Notes
    -----
    Each operation walks one node per letter: O(L) for a word of L letters, and
    ``count_prefix`` reads a counter kept on each node (incremented along the path of
    every new word), so it is O(L) as well. Children are keyed by letter; no order or tie
    arises.

    References
    ----------
    .. [1] E. Fredkin, "Trie memory", Communications of the ACM 3(9), 1960.
    """
    if isinstance(operations, str | bytes) or not isinstance(operations, list):
        raise ValueError(f"operations must be a list, got {type(operations).__name__}")
    parsed: list[tuple[str, str]] = []
    for i, item in enumerate(operations):
        if not isinstance(item, list | tuple) or len(item) != 2:
            raise ValueError(f"operations[{i}] must be an [operation, word] pair, got {item!r}")
        op, word = item
        if op not in TRIE_OPERATIONS:
            raise ValueError(f"operations[{i}]: unknown operation {op!r}")
        if not isinstance(word, str) or not word:
            raise ValueError(f"operations[{i}]: the word must be a non-empty string")
        parsed.append((op, word))

    # A node is [children, words passing through or ending below it, ends a word here].
    Node = list[Any]
    root: Node = [{}, 0, False]
    node_count = 0

    def walk(word: str) -> Node | None:
        node = root
        for char in word:
            node = node[0].get(char)
            if node is None:
                return None
        return node

    results: list[bool | int] = []
    for op, word in parsed:
        if op == "insert":
            found = walk(word)
            if found is not None and found[2]:
                results.append(False)
                continue
            node = root
            for char in word:
                if char not in node[0]:
                    node[0][char] = [{}, 0, False]
                    node_count += 1
                node = node[0][char]
                node[1] += 1
            node[2] = True
            results.append(True)
        else:
            found = walk(word)
            if op == "search":
                results.append(found is not None and bool(found[2]))
            elif op == "starts_with":
                results.append(found is not None)
            else:
                results.append(0 if found is None else int(found[1]))
    return {"results": results, "node_count": node_count}
