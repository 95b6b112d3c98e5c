"""``python -m verification``."""

from __future__ import annotations

from verification.cli.entry import exit_with, main

if __name__ == "__main__":
    exit_with(main(prog="python -m verification"))
