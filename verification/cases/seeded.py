"""The random source of a case, drawn from a string seed that hashes the same on every
machine."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, MutableSequence, Sequence
from typing import Any, Protocol, TypeVar

__all__ = ["CaseRandom", "case_rng"]

_T = TypeVar("_T")
_SEQUENCES = frozenset({list, tuple, range, str})
_T_co = TypeVar("_T_co", covariant=True)


class _Indexable(Protocol[_T_co]):
    """What :meth:`CaseRandom.choice` takes, as :meth:`random.Random.choice` does."""

    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> _T_co: ...


class CaseRandom(random.Random):
    """:class:`random.Random` whose ``randint``, ``randrange`` (step 1), ``choice``,
    ``sample`` and ``shuffle`` give the same numbers from the same ``getrandbits`` calls,
    in one call instead of three or four (``randint`` calls ``randrange``, which checks
    its arguments and calls ``_randbelow``).

    Generators draw thousands of numbers per case, most of them by ``randint``,
    ``choice`` and ``sample``: the layers of calls were much of their cost. Anything but
    plain ``int`` arguments, and every error, is left to :class:`random.Random` itself.
    """

    def randint(self, a: int, b: int) -> int:
        """:meth:`random.Random.randint`, which is ``randrange(a, b + 1)``."""
        if type(a) is int and type(b) is int:
            return self.randrange(a, b + 1)
        return super().randint(a, b)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """:meth:`random.Random.randrange`."""
        if type(start) is int and type(step) is int and step == 1:
            if stop is None:
                low, n = 0, start
            elif type(stop) is int:
                low, n = start, stop - start
            else:
                return super().randrange(start, stop, step)
            if n > 0:
                bits = n.bit_length()
                getrandbits = self.getrandbits
                r = getrandbits(bits)
                while r >= n:
                    r = getrandbits(bits)
                return low + r
        return super().randrange(start, stop, step)

    def choice(self, seq: _Indexable[_T]) -> _T:
        """:meth:`random.Random.choice`."""
        n = len(seq)
        if not n:
            return super().choice(seq)  # its error
        bits = n.bit_length()
        getrandbits = self.getrandbits
        r = getrandbits(bits)
        while r >= n:
            r = getrandbits(bits)
        return seq[r]

    def sample(
        self, population: Sequence[_T], k: int, *, counts: Iterable[int] | None = None
    ) -> list[_T]:
        """:meth:`random.Random.sample`: its two ways (a pool for a population not much
        larger than ``k``, else redrawing an index already taken) with ``_randbelow``
        inline, and a list, tuple, range or str taken for a sequence without asking the
        ABC."""
        if counts is not None or type(k) is not int:
            return super().sample(population, k, counts=counts)
        if type(population) not in _SEQUENCES and not isinstance(population, Sequence):
            return super().sample(population, k)  # its error
        n = len(population)
        if not 0 <= k <= n:
            return super().sample(population, k)  # its error
        result: list[Any] = [None] * k
        setsize = 21  # as random.Random.sample decides between its two ways
        if k > 5:
            setsize += 4 ** math.ceil(math.log(k * 3, 4))
        getrandbits = self.getrandbits
        if n <= setsize:
            pool = list(population)
            for i in range(k):
                left = n - i
                bits = left.bit_length()
                j = getrandbits(bits)
                while j >= left:
                    j = getrandbits(bits)
                result[i] = pool[j]
                pool[j] = pool[left - 1]
        else:
            selected: set[int] = set()
            bits = n.bit_length()
            for i in range(k):
                j = getrandbits(bits)
                while j >= n or j in selected:  # out of range, or taken: drawn again
                    j = getrandbits(bits)
                selected.add(j)
                result[i] = population[j]
        return result

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """:meth:`random.Random.shuffle`."""
        getrandbits = self.getrandbits
        for i in reversed(range(1, len(x))):
            n = i + 1
            bits = n.bit_length()
            j = getrandbits(bits)
            while j >= n:
                j = getrandbits(bits)
            x[i], x[j] = x[j], x[i]


def case_rng(
    seed: int, scaffold: str, tier: str, index: int, size: int | None = None
) -> random.Random:
    """The random source of one case (a :class:`CaseRandom`); a string seed hashes the same
    on every machine."""
    if size is None:
        return CaseRandom(f"{seed}:{scaffold}:{tier}:{index}")
    return CaseRandom(f"{seed}:{scaffold}:{tier}:s{size}:{index}")
