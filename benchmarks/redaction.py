"""Redacting a key from what a server or a model sends back, on ordinary and hostile text.

Run: ``python benchmarks/redaction.py [--repeat 3]``. Times
:func:`verification.llm.credentials.redact` (every reply, error and log line passes through
it before a journal, a report or the terminal holds it) with a 108-character key on: 8 MB of
random printable text (a huge reply), the key echoed 20,000 times (2 MB: a server that knows
the key sends it back), one 6-character block of the key repeated over 8 MB (a hit every 6
characters, each at another alignment, none long enough to redact), and 1 MB of zeros
against a key holding a run of 30 zeros (the degenerate case: every position is a hit of a
block at another alignment of the key, each grown on its own). Prints the best of
``--repeat`` per text and checks the key is gone.
"""

from __future__ import annotations

import argparse
import random
import string
import time

from verification.llm.credentials import redact


def _texts(seed: int) -> dict[str, tuple[str, str]]:
    """Each case's name: (its text, the key redacted from it)."""
    rng = random.Random(seed)
    key = "sk-ant-api03-" + "".join(rng.choices(string.ascii_letters + string.digits, k=95))
    zeros_key = "sk-ant-api03-" + "0" * 30 + "".join(rng.choices(string.ascii_letters, k=65))
    return {
        "8 MB of random printable text": ("".join(rng.choices(string.printable, k=8_000_000)), key),
        "the key echoed 20,000 times (2 MB)": (key * 20_000, key),
        "one 6-character block of the key repeated (8 MB)": (key[12:18] * 1_333_333, key),
        "1 MB of zeros, a key with 30 zeros in a row": ("0" * 1_000_000, zeros_key),
    }


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--repeat", type=int, default=3)
    options.add_argument("--seed", type=int, default=0)
    args = options.parse_args()
    for name, (text, key) in _texts(args.seed).items():
        times = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            cleaned = redact(text, [key])
            times.append(time.perf_counter() - started)
        assert key not in cleaned and key[20:32] not in cleaned, name
        print(
            f"{name}: {min(times):.2f} s (best of {args.repeat}), {len(cleaned):,} characters left"
        )


if __name__ == "__main__":
    main()
