"""What a model call costs, and where prompt caching can apply: two dated tables in one place.

:data:`PRICES` holds each model family's list price in US dollars per million tokens, and
:data:`MIN_CACHEABLE_TOKENS` the shortest prefix each family caches, both as Anthropic
published them on :data:`TABLES_DATED`. A model is matched to its family by the longest
table key its id starts with (``claude-haiku-4-5-20251001`` is ``claude-haiku-4-5``).
Settings override or extend either table (``VERIFY_PRICES``, ``VERIFY_MIN_CACHEABLE_TOKENS``)
without a release when a price changes.

A call's cost comes from the usage the API recorded for it, never from an estimate:
uncached input, cache writes (1.25 times input), cache reads (a tenth of input) and output.
Thinking tokens are billed as output, and the Messages API already counts them in
``output_tokens``. An OpenAI-compatible server reports ``prompt_tokens`` and
``completion_tokens``; they are read as input and output.
"""

from __future__ import annotations

import json
import math
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass

from verification.cases import printable

__all__ = [
    "BATCH_PRICE_SHARE",
    "CACHE_READ_FACTOR",
    "CACHE_WRITE_FACTOR",
    "MIN_CACHEABLE_TOKENS",
    "PRICES",
    "TABLES_DATED",
    "THINKING_FAMILIES",
    "WORST_CASE_USAGE",
    "ModelPrice",
    "TokenCounts",
    "estimate_tokens",
    "family_of",
    "free_price",
    "min_cacheable_for",
    "price_for",
    "supports_thinking",
    "tokens_of_chars",
]

TABLES_DATED = "2025-11-24"
BATCH_PRICE_SHARE = 0.5
"""Message Batches bill this share of the list price, every kind of token alike."""
"""When both tables were last checked against Anthropic's published pricing and
prompt-caching pages."""

CACHE_WRITE_FACTOR = 1.25
"""A 5-minute cache write costs this many times the input price."""
CACHE_READ_FACTOR = 0.1
"""A cache read costs this share of the input price."""


@dataclass(frozen=True)
class ModelPrice:
    """US dollars per million tokens."""

    input: float
    output: float
    cache_write: float | None = None
    """Default: :data:`CACHE_WRITE_FACTOR` times ``input``."""
    cache_read: float | None = None
    """Default: :data:`CACHE_READ_FACTOR` times ``input``."""

    def __post_init__(self) -> None:
        for name in ("input", "output", "cache_write", "cache_read"):
            value = getattr(self, name)
            if value is not None and not (math.isfinite(value) and 0 <= value <= 1_000):
                raise ValueError(f"{name} price must be 0 to 1000 USD per MTok, got {value!r}")

    @property
    def write(self) -> float:
        """Cache-write price per million tokens."""
        return self.cache_write if self.cache_write is not None else self.input * CACHE_WRITE_FACTOR

    @property
    def read(self) -> float:
        """Cache-read price per million tokens."""
        return self.cache_read if self.cache_read is not None else self.input * CACHE_READ_FACTOR

    def dearest(self, prompt_tokens: int, output_tokens: int) -> TokenCounts:
        """A call's most: its prompt at the dearer of the input and cache-write prices (a
        write, at the list prices; hunt ak: a ``VERIFY_PRICES`` write below input made the
        budget's holds no worst case), and its output."""
        if self.write >= self.input:
            return TokenCounts(output=output_tokens, cache_write=prompt_tokens)
        return TokenCounts(output=output_tokens, input=prompt_tokens)

    def cost(self, tokens: TokenCounts) -> float:
        """US dollars for ``tokens``."""
        return (
            tokens.input * self.input
            + tokens.output * self.output
            + tokens.cache_write * self.write
            + tokens.cache_read * self.read
        ) / 1_000_000


PRICES: dict[str, ModelPrice] = {
    "claude-opus-4-5": ModelPrice(5.0, 25.0),
    "claude-opus-4-1": ModelPrice(15.0, 75.0),
    "claude-opus-4": ModelPrice(15.0, 75.0),
    "claude-sonnet-4-5": ModelPrice(3.0, 15.0),
    "claude-sonnet-4": ModelPrice(3.0, 15.0),
    "claude-3-7-sonnet": ModelPrice(3.0, 15.0),
    "claude-haiku-4-5": ModelPrice(1.0, 5.0),
    "claude-3-5-haiku": ModelPrice(0.8, 4.0),
    "claude-3-haiku": ModelPrice(0.25, 1.25),
}
"""List prices (standard, not batch) per model family, as of :data:`TABLES_DATED`."""

MIN_CACHEABLE_TOKENS: dict[str, int] = {
    "claude-opus-4-5": 4096,
    "claude-opus-4-1": 1024,
    "claude-opus-4": 1024,
    "claude-sonnet-4-5": 1024,
    "claude-sonnet-4": 1024,
    "claude-3-7-sonnet": 1024,
    "claude-haiku-4-5": 4096,
    "claude-3-5-haiku": 2048,
    "claude-3-haiku": 2048,
}
"""The shortest prompt prefix each family caches, as of :data:`TABLES_DATED`: a shorter
one is sent uncached at no error, so only the usage counters would tell."""

THINKING_FAMILIES: frozenset[str] = frozenset(
    {
        "claude-opus-4-5",
        "claude-opus-4-1",
        "claude-opus-4",
        "claude-sonnet-4-5",
        "claude-sonnet-4",
        "claude-3-7-sonnet",
        "claude-haiku-4-5",
    }
)
"""The families that take extended thinking (``thinking`` in a Messages API request), as
of :data:`TABLES_DATED`: the 3.5 and 3 Haiku models refuse the field."""


WORST_CASE_USAGE = "worst_case_usage"
"""The key marking a recorded usage as counts filled at their most: the server gave none
readable (:meth:`TokenCounts.worst_case_of`)."""


@dataclass(frozen=True)
class TokenCounts:
    """The four kinds of token a call is billed for."""

    input: int = 0
    """Input not read from or written to the prompt cache."""
    output: int = 0
    """Output, thinking included."""
    cache_write: int = 0
    cache_read: int = 0

    @staticmethod
    def worst_case_of(
        usage: Mapping[str, int], *, prompt_tokens: int, max_tokens: int
    ) -> dict[str, int]:
        """``usage`` of a call whose counts are not :meth:`readable`, each missing count
        filled with its most (the prompt, estimated; the whole output budget) and marked
        :data:`WORST_CASE_USAGE`: what the budget and the reports count it at, rather than
        as free, and what a resume counts it at again."""
        filled = dict(usage)
        if "input_tokens" not in usage and "prompt_tokens" not in usage:
            filled["input_tokens"] = prompt_tokens
        if "output_tokens" not in usage and "completion_tokens" not in usage:
            filled["output_tokens"] = max_tokens
        filled[WORST_CASE_USAGE] = 1
        return filled

    @staticmethod
    def credible(usage: Mapping[str, int], *, has_text: bool) -> dict[str, int]:
        """``usage`` less the counts no billed call has: no output tokens for a reply with
        text, no input tokens with none read from or written to the prompt cache (a prompt is
        never empty). Some proxies send zeros where their upstream gave no usage: taken as
        given, a priced model's calls were free and ``--max-cost`` never bound."""
        kept = dict(usage)
        zero = [("output_tokens", "completion_tokens")] if has_text else []
        if not usage.get("cache_read_input_tokens") and not usage.get(
            "cache_creation_input_tokens"
        ):
            zero.append(("input_tokens", "prompt_tokens"))
        for names in zero:
            if any(kept.get(name) == 0 for name in names):
                for name in names:
                    kept.pop(name, None)
        return kept

    @staticmethod
    def readable(usage: Mapping[str, int]) -> bool:
        """Whether a live call's recorded ``usage`` says what it was billed: an input and
        an output count (a server may give none, or counts a reply's reader refused: a
        string, a float, one past :data:`~verification.store.records.MAX_TOKEN_COUNT`)."""
        return ("input_tokens" in usage or "prompt_tokens" in usage) and (
            "output_tokens" in usage or "completion_tokens" in usage
        )

    @classmethod
    def from_usage(cls, usage: Mapping[str, int]) -> TokenCounts:
        """The counts in a recorded ``usage`` (Messages API or OpenAI-compatible keys)."""
        return cls(
            input=usage.get("input_tokens", usage.get("prompt_tokens", 0)),
            output=usage.get("output_tokens", usage.get("completion_tokens", 0)),
            cache_write=usage.get("cache_creation_input_tokens", 0),
            cache_read=usage.get("cache_read_input_tokens", 0),
        )

    def __add__(self, other: TokenCounts) -> TokenCounts:
        return TokenCounts(
            self.input + other.input,
            self.output + other.output,
            self.cache_write + other.cache_write,
            self.cache_read + other.cache_read,
        )

    @property
    def prompt(self) -> int:
        """Every input token, however billed."""
        return self.input + self.cache_write + self.cache_read


_RELEASE = re.compile(r"(?:-0)?(?:[-@](?:\d{8}|\d{4}-\d{2}-\d{2})|-latest)?")
"""What may follow a family's id in one of its models' ids: ``-0`` (Anthropic's alias of a
family's first version, ``claude-sonnet-4-0``), then a release date (Anthropic's
``-20250929``, Vertex AI's ``@20250929``, OpenAI's ``-2024-08-06``) or ``-latest``."""


def _of_family(model: str, family: str, released: bool) -> bool:
    if not model.startswith(family):
        return False
    if released:
        return _RELEASE.fullmatch(model, len(family)) is not None
    return len(model) == len(family) or model[len(family)] in "-@"


def family_of(model: str, table: Mapping[str, object], *, released: bool = False) -> str | None:
    """The longest key of ``table`` that ``model`` starts with (a dated id or an alias);
    with ``released``, only a key that ``model`` is, or is with a release date or
    ``-latest`` after it: ``claude-opus-4-6`` is then no model of ``claude-opus-4``."""
    keys = [key for key in table if _of_family(model, key, released)]
    return max(keys, key=len) if keys else None


def free_price(model: str) -> str:
    """How to price ``model`` at nothing, as a message says it: what a model on one's own
    server costs, which no table can know. A ``VERIFY_PRICES`` value quoted for a shell,
    ready to paste; in words where the name would not print whole (a control character,
    or a name too long to show).

    Examples
    --------
    >>> print(free_price("qwen3:8b"))
    VERIFY_PRICES='{"qwen3:8b": {"input": 0, "output": 0}}'
    >>> free_price("m" * 500)
    'a price of 0 (input and output) for it in VERIFY_PRICES'
    """
    value = shlex.quote(json.dumps({model: {"input": 0, "output": 0}}))
    if printable(value, 200) != value:
        return "a price of 0 (input and output) for it in VERIFY_PRICES"
    return f"VERIFY_PRICES={value}"


def price_for(model: str, overrides: Mapping[str, ModelPrice] | None = None) -> ModelPrice | None:
    """The price of ``model`` (``overrides`` first), or ``None`` when no table knows it. A
    model is priced as a family only when it is one of the family's releases: a newer
    version priced as an older family's could cost more than a budget holds for it."""
    table = {**PRICES, **(overrides or {})}
    family = family_of(model, table, released=True)
    return table[family] if family is not None else None


def min_cacheable_for(model: str, overrides: Mapping[str, int] | None = None) -> int | None:
    """The shortest cacheable prefix of ``model`` in tokens, or ``None`` when unknown."""
    table = {**MIN_CACHEABLE_TOKENS, **(overrides or {})}
    family = family_of(model, table)
    return table[family] if family is not None else None


def supports_thinking(model: str) -> bool:
    """Whether ``model`` belongs to a family of :data:`THINKING_FAMILIES`."""
    return family_of(model, dict.fromkeys(THINKING_FAMILIES)) is not None


def estimate_tokens(text: str) -> int:
    """A rough token count of ``text`` with no tokenizer at hand: four characters a token,
    the usual rule for English prose (the scaffolds' Markdown measures 3.7 to 4)."""
    return tokens_of_chars(len(text))


def tokens_of_chars(chars: int) -> int:
    """:func:`estimate_tokens` of a text of ``chars`` characters."""
    return math.ceil(chars / 4)
