"""The response cache: a provider that wraps another and remembers its complete answers.

A repeated run (same scaffold text, inputs, model and request parameters) is answered from
``cache.sqlite3`` in the user's cache folder (``VERIFY_CACHE_DIR``, by default
the platform's user cache folder), shared by every run whatever its results
folder, and makes no network call at all. ``VERIFY_CACHE_MAX_MB`` caps it: past the cap the
least recently used answers are evicted. The key is a SHA-256 over a
canonical JSON of the cache format, the provider's name, its base URL without credentials,
query or fragment, and every field of the request but ``case_id`` and ``arm`` (system
prompt, prompt, model, output budget, temperature, the sample index, and any field added
later), so a changed scaffold or input is a miss, never a stale hit. Only complete answers
are kept: the model ended its turn (``end_turn`` or ``stop_sequence``) with some text;
errors, refusals, replies cut off by the output budget or the context window, and empty
replies are asked again next time. A request asked while the same one is out, or answered
and not yet kept (a copy of an input in one segment of the plan), waits for that answer
and is served it as from the cache, instead of being paid again. Dry runs are never
wrapped. No secret is written: the key is a hash, and an entry holds the answer, the
provider's name, the model and the credential-free URL.

The wrapped provider's preflight is put off until the first request that has to go out,
unless nothing from its server is cached yet (then every request will go out, and the
preflight runs at once, before the run starts, as it would uncached) or it settles the
model. A preflight that fails fails every later request with the same error.

SQLite in WAL mode with a busy timeout and one short transaction per read or write: runs
sharing a cache neither corrupt it nor wait on each other for long. A cache that cannot be
opened or read (damaged, a folder, a dangling link, a table of another program, a lock
another process keeps past :data:`LOCK_TIMEOUT_S`) is reported once, with the command that
mends it, and the run goes on without it.

A live answer is kept only when the runner says it is journalled (:meth:`CachingProvider.keep`),
so a cache write that fails can cost a warning, never a paid answer. Model text is stored as
ASCII JSON (lone surrogates and other odd code points escaped, never dropped); the columns
``cache stats`` groups by hold the same text with such code points as backslash escapes.

The package, by responsibility: :mod:`.keys` (what an answer is found by, and which are
kept), :mod:`.schema` (the file's table and format), :mod:`.responses` (the file itself:
:class:`~verification.llm.cache.responses.ResponseCache`), :mod:`.eviction` (the size cap
and ``cache prune``), :mod:`.stats` (``cache stats``) and :mod:`.provider` (the wrapping
:class:`~verification.llm.cache.provider.CachingProvider`).
"""

from __future__ import annotations

__all__: list[str] = []
