"""Shared input-generator helpers for string scaffolds: random words over small alphabets,
planting a word into a text, overlap tests.

Alphabets are small ("AB", "ABC") so that occurrences happen and borders matter.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Mapping
from typing import Any

from verification.cases import CaseRandom

__all__ = ["has_overlap", "plant", "random_word", "text_length"]


def random_word(rng: random.Random, alphabet: str, length: int) -> str:
    """``length`` letters drawn uniformly from ``alphabet``: the letters, and the state
    ``rng`` is left in, of ``"".join(rng.choice(alphabet) for _ in range(length))``."""
    size = len(alphabet)
    plain = type(rng) is CaseRandom or type(rng) is random.Random  # choice as random's
    # A word of a few letters (a trie's) costs less drawn a letter at a time.
    if length <= _BY_LETTER or not plain or not 0 < size < 256 or not alphabet.isascii():
        return "".join([rng.choice(alphabet) for _ in range(length)])
    keep, rejected = _letter_tables(alphabet)
    # choice(alphabet) takes the top k bits of the generator's next 32-bit word (k the
    # bit length of the alphabet's size) and draws again while they are not below it.
    # getrandbits(32 * m) is the next m words, the first lowest: each word's top byte is
    # every fourth byte from the fourth, little-endian. Asking only as many words as
    # letters are still missing never takes a word choice would not have taken.
    drawn: list[bytes] = []
    missing = length
    while missing > 0:
        words = rng.getrandbits(32 * missing).to_bytes(4 * missing, "little")
        letters = words[3::4].translate(keep, rejected)
        drawn.append(letters)
        missing -= len(letters)
    return b"".join(drawn).decode("ascii")


_BY_LETTER = 4
"""Up to this many letters, :func:`random_word` calls ``choice`` per letter."""


@functools.cache
def _letter_tables(alphabet: str) -> tuple[bytes, bytes]:
    """For a word's top byte: the letter its top bits choose, and the bytes whose top bits
    are past the alphabet (``choice`` draws again)."""
    shift = 8 - len(alphabet).bit_length()
    keep = bytes(
        ord(alphabet[top >> shift]) if top >> shift < len(alphabet) else 0 for top in range(256)
    )
    rejected = bytes(top for top in range(256) if top >> shift >= len(alphabet))
    return keep, rejected


def plant(text: list[str], at: int, word: str) -> None:
    """Overwrite ``text`` (a list of letters) with ``word`` from position ``at``."""
    text[at : at + len(word)] = list(word)


def has_overlap(positions: list[int], length: int) -> bool:
    """Whether two consecutive match positions of a ``length``-letter pattern overlap."""
    return any(b - a < length for a, b in itertools.pairwise(positions))


def text_length(test_input: Mapping[str, Any]) -> int:
    """A text-search input's size (``SizeAxis.measure``): the length of its text."""
    return len(test_input["text"])
