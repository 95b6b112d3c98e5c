"""Test support shared across the suite's folders: fakes and helpers imported as a library,
never from another test's ``conftest.py``.

- :mod:`tests.support.fake_server`: a scripted Anthropic/OpenAI-compatible model server with
  Message Batches, on ``127.0.0.1``, and the ``fake_server``/``anthropic_env`` fixtures that
  ``tests/conftest.py`` makes available everywhere.
- :mod:`tests.support.disk`: ``os.fsync`` returning at once while a test process writes.
- :mod:`tests.support.scaffolds`: the packaged scaffolds' Markdown, by section.
- :mod:`tests.support.stress`: cases across a scaffold's stress range, for its oracle.
"""

from __future__ import annotations

__all__: list[str] = []
