"""Cold start of the commands that ask no model: ``list``, ``--help``, ``show-prompt``.

Run: ``python benchmarks/cold_start.py [--repeat 15]``. Each command runs as a fresh
``python -m verification`` process; printed are the median and best wall time, beside a bare
``python -c pass`` (the interpreter's own start), how many modules ``list`` imports, and
those it imports that it should not need (SDKs, numerics and statistics, pydantic and
``importlib.metadata``, rich, jinja2). The target for ``list`` is under 0.2 s on a 2-core
machine: it prints the catalog's index (``verification/cli/listing.py``) and loads no
scaffold. On a loaded machine read the CPU column; ``python -X importtime -m verification
list`` says what each import costs.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "list": [sys.executable, "-m", "verification", "list"],
    "--help": [sys.executable, "-m", "verification", "--help"],
    "show-prompt": [
        *(sys.executable, "-m", "verification", "show-prompt", "kmp"),
        *("--case", "kmp-standard-000", "--part", "user"),
    ],
}
HEAVY = (
    *("anthropic", "openai", "numpy", "scipy", "statsmodels", "pandas", "networkx"),
    *("pydantic", "importlib.metadata", "rich", "jinja2", "httpx", "tenacity"),
)


def run_times(argv: list[str], repeat: int) -> tuple[list[float], list[float]]:
    """Wall and CPU (user + system) seconds of each of ``repeat`` runs of ``argv``, after
    one unmeasured run (which writes the bytecode cache). On a loaded machine the wall time
    grows with the load; the CPU time is what the command costs."""
    # As an installed package runs: compiled modules cached in __pycache__ (without it,
    # every module is compiled from source on every start).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def imports_of_list() -> tuple[int, list[str]]:
    """How many modules a ``list`` process has imported when it ends, and which of them are
    heavy packages."""
    probe = (
        "import sys, contextlib, io\n"
        "from verification.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['list'])\n"
        f"print(len(sys.modules), *(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True, env=env
    )
    count, *heavy = done.stdout.split()
    return int(count), heavy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs per command (15)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'command':<18} {'wall median':>11} {'wall best':>9} {'CPU median':>10}")
    for name, argv in COMMANDS.items():
        walls, cpus = run_times(argv, args.repeat)
        print(
            f"{name:<18} {statistics.median(walls):>11.3f} {min(walls):>9.3f} "
            f"{statistics.median(cpus):>10.3f}"
        )
    print("(seconds; bytecode and list's index written, as an installed package has them)")
    count, heavy = imports_of_list()
    print(f"list imports {count} modules; heavy ones:", " ".join(heavy) or "none")


if __name__ == "__main__":
    main()
