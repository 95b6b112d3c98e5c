"""``python -m verification.store.schemas``: rewrite the JSON Schema files from the models."""

from __future__ import annotations

from verification.store.schemas import write_schemas

for path in write_schemas():
    print(path)
