"""``python -m verification``."""

from __future__ import annotations

import sys

from verification.cli import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m verification"))
