"""The hostile programs of issue 26 item 5, and a runner of them all that prints its results.

Not a test module: ``test_hostile.py`` runs :func:`run_all` in its own process (as whoever
runs the tests, root under CI) and runs this file as an ordinary user (``setpriv`` to
``nobody``, with the system's Python) where the machine allows it. It imports only the
standard library and the sandbox, so it runs under any Python 3.11+ that can read the
project. Each program does one hostile thing and lets what stops it raise; ``EXPECTED``
says how each must end.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import asdict
from typing import Any

from verification.run.sandbox import Limits, Outcome, available_engine, run_programs

__all__ = ["EXPECTED", "PROGRAMS", "run_all"]

PROGRAMS: dict[str, str] = {
    "read_home": "def solve(i):\n    return {'text': open(i['home_file']).read()}\n",
    "list_home": (
        "import os\n"
        "def solve(i):\n"
        "    found = [n for n in os.listdir(i['home']) if n.startswith('.sandbox-canary')]\n"
        "    return {'text': open(os.path.join(i['home'], found[0])).read()}\n"
    ),
    "read_project": "def solve(i):\n    return {'text': open(i['project_file']).read()}\n",
    "read_outside": "def solve(i):\n    return {'text': open(i['outside_file']).read()}\n",
    "read_harness_proc": (
        "def solve(i):\n    return {'env': open(f\"/proc/{i['harness_pid']}/environ\").read()}\n"
    ),
    "search_proc_for_key": (
        "import os\n"
        "def solve(i):\n"
        "    for pid in filter(str.isdigit, os.listdir('/proc')):\n"
        "        for part in ('environ', 'cmdline'):\n"
        "            try:\n"
        "                text = open(f'/proc/{pid}/{part}', 'rb').read()\n"
        "            except OSError:\n"
        "                continue\n"
        "            if b'ANTHROPIC_API_KEY' in text:\n"
        "                return {'found': text.decode(errors='replace')}\n"
        "    raise LookupError('no process here holds the key')\n"
    ),
    "read_key": "import os\ndef solve(i):\n    return {'key': os.environ['ANTHROPIC_API_KEY']}\n",
    "write_outside": (
        "def solve(i):\n    open(i['marker'], 'w').write('escaped')\n    return {}\n"
    ),
    "connect": (
        "import socket\n"
        "def solve(i):\n"
        "    s = socket.create_connection(('127.0.0.1', i['port']), timeout=1)\n"
        "    s.sendall(b'escaped')\n"
        "    return {}\n"
    ),
    "fork_bomb": "import os\ndef solve(i):\n    while True:\n        os.fork()\n",
    "thread_bomb": (
        "import threading, time\n"
        "def solve(i):\n"
        "    while True:\n"
        "        threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
    ),
    "subprocess": (
        "import subprocess\ndef solve(i):\n    subprocess.run(['/bin/true'])\n    return {}\n"
    ),
    "endless_loop": "def solve(i):\n    while True:\n        pass\n",
    "allocate_10gb": "def solve(i):\n    return {'x': len(bytearray(10 * 1024 ** 3))}\n",
    "grow_until_full": (
        "def solve(i):\n    x = []\n    while True:\n        x.append(bytes(10 ** 8))\n"
    ),
    "print_gigabyte": (
        "import sys\ndef solve(i):\n    for _ in range(1024):\n"
        "        sys.stdout.write('x' * 1024 * 1024)\n    return {}\n"
    ),
    "kill_parent": (
        "import os, signal\n"
        "def solve(i):\n"
        "    os.kill(os.getppid(), signal.SIGKILL)\n"
        "    os.kill(i['harness_pid'], signal.SIGKILL)\n"
        "    return {}\n"
    ),
    "kill_everything": (
        "import os, signal\n"
        "def solve(i):\n"
        "    try:\n"
        "        os.kill(-1, signal.SIGKILL)  # every process it may signal: none but itself\n"
        "    except ProcessLookupError:\n"
        "        pass\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
    ),
    "sys_exit": "import sys\ndef solve(i):\n    sys.exit(0)\n",
    "close_stdout": (
        "import os, sys\n"
        "def solve(i):\n"
        "    sys.stdout.close()\n"
        "    for fd in (0, 1, 2):\n"
        "        try:\n"
        "            os.close(fd)\n"
        "        except OSError:\n"
        "            pass\n"
        "    return {'answer': 42}\n"
    ),
    "close_every_descriptor": (
        "import os\ndef solve(i):\n    os.closerange(0, 1024)\n    return {'answer': 42}\n"
    ),
    "huge_object": "def solve(i):\n    return {'x': ['y' * 1000] * 100000}\n",
    "deeply_nested": (
        "def solve(i):\n"
        "    x = []\n"
        "    for _ in range(100000):\n"
        "        x = [x]\n"
        "    return {'x': x}\n"
    ),
    "monkeypatch_json": (
        "import json\n"
        "json.dumps = lambda *a, **k: 'forged'\n"
        'json.JSONEncoder.encode = lambda self, o: \'{"forged": 1}\\n{"status": "ok"\'\n'
        "def solve(i):\n    return {'answer': 42}\n"
    ),
    # Damage the driver's encoder from inside solve, so the forged text is the answer.
    "forged_deep_reply": (
        "import json\n"
        "def solve(i):\n"
        "    deep = '[' * 500 + ']' * 500\n"
        "    json.JSONEncoder.iterencode = lambda self, o, _one_shot=False: [deep]\n"
        "    return {'answer': 42}\n"
    ),
    "forged_surrogate_reply": (
        "import json\n"
        "def solve(i):\n"
        "    json.JSONEncoder.iterencode = lambda self, o, _one_shot=False: ['\"\\\\ud800\"']\n"
        "    return {'answer': 42}\n"
    ),
    "sleep": "import time\ndef solve(i):\n    time.sleep(3600)\n",
    # Hunt jj 1: bubblewrap's init (pid 1) ran the same uid as the interpreter, outside its
    # CPU clock; a program wrote code into it through /proc/1/mem and ran on unmetered.
    "write_pid1_memory": (
        "def solve(i):\n"
        "    with open('/proc/1/maps') as maps:\n"
        "        address = int(maps.readline().split('-')[0], 16)\n"
        "    with open('/proc/1/mem', 'r+b') as memory:\n"
        "        memory.seek(address)\n"
        "        byte = memory.read(1)\n"
        "        memory.seek(address)\n"
        "        memory.write(byte)  # the same byte: had it worked, any code would do\n"
        "    return {'answer': 42}\n"
    ),
    # Hunt jj 6: the installation's site-packages were bound into the sandbox, left off
    # sys.path alone; one append imported the harness's own packages.
    "import_site_packages": (
        "import os\n"
        "def solve(i):\n"
        "    seen = [n for f in i['site_packages'] if os.path.isdir(f) for n in os.listdir(f)]\n"
        "    if not seen:\n"
        "        raise LookupError('no package to import')\n"
        "    return {'answer': 42, 'seen': seen[:3]}\n"
    ),
    # The same calls reach another process's memory without /proc: refused, even one's own.
    "process_vm_readv_self": (
        "import ctypes, os\n"
        "def solve(i):\n"
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    source = ctypes.create_string_buffer(b'x' * 8)\n"
        "    target = ctypes.create_string_buffer(8)\n"
        "    local = (ctypes.c_size_t * 2)(ctypes.addressof(target), 8)\n"
        "    remote = (ctypes.c_size_t * 2)(ctypes.addressof(source), 8)\n"
        "    number = {'x86_64': 310, 'aarch64': 270}[os.uname().machine]\n"
        "    if libc.syscall(number, os.getpid(), local, 1, remote, 1, 0) != 8:\n"
        "        raise OSError(ctypes.get_errno(), 'process_vm_readv refused')\n"
        "    return {'answer': 42}\n"
    ),
    "fill_tmp": (
        "def solve(i):\n"
        "    with open(i['tmp_file'], 'wb') as f:\n"
        "        while True:\n"
        "            f.write(b'x' * 1024 * 1024)\n"
    ),
    "many_tmp_files": (
        "def solve(i):\n"
        "    for k in range(10 ** 6):\n"
        "        open(f\"/tmp/f{k}\", 'wb').write(b'x' * 65536)\n"
    ),
}
"""Each hostile program, by what it tries."""

EXCEPTION = {Outcome.EXCEPTION.value}
EXPECTED: dict[str, set[str]] = {
    "read_home": EXCEPTION,
    "list_home": EXCEPTION,
    "read_project": EXCEPTION,
    "read_outside": EXCEPTION,
    "read_harness_proc": EXCEPTION,
    "search_proc_for_key": EXCEPTION,
    "read_key": EXCEPTION,
    "write_outside": EXCEPTION,
    "connect": EXCEPTION,
    "fork_bomb": EXCEPTION,
    "thread_bomb": EXCEPTION,  # each thread's stack counts against the address space
    "subprocess": EXCEPTION,
    "endless_loop": {Outcome.TIMEOUT.value},
    "allocate_10gb": {Outcome.MEMORY.value},
    "grow_until_full": {Outcome.MEMORY.value},
    "print_gigabyte": {Outcome.OUTPUT_LIMIT.value},
    "kill_parent": EXCEPTION,
    "kill_everything": {Outcome.CRASH.value},
    "sys_exit": EXCEPTION,
    # The protocol is on private descriptors: closing the program's own ends nothing.
    "close_stdout": {Outcome.OK.value},
    "close_every_descriptor": {Outcome.CRASH.value},
    "huge_object": {Outcome.OUTPUT_LIMIT.value, Outcome.BAD_VALUE.value},
    "deeply_nested": {Outcome.BAD_VALUE.value},
    # The driver bound its encoder before the program ran: the answer comes through intact.
    "monkeypatch_json": {Outcome.OK.value},
    "forged_deep_reply": {Outcome.BAD_VALUE.value},
    "forged_surrogate_reply": {Outcome.BAD_VALUE.value},
    "sleep": {Outcome.TIMEOUT.value},
    "import_site_packages": EXCEPTION,  # an empty folder in their place
    "write_pid1_memory": EXCEPTION,  # no /proc in the sandbox
    "process_vm_readv_self": EXCEPTION,  # refused by the seccomp filter
    "fill_tmp": EXCEPTION,
    "many_tmp_files": EXCEPTION,
}
"""The outcomes each may end with (every case of it)."""

LIMITS = Limits(
    # What ends `endless_loop` (twice): a quarter of a second of CPU proves it as well as a
    # whole one did; the rest use a few hundredths at most.
    cpu_seconds=0.25,
    wall_seconds=2,  # what ends `sleep` (twice); the rest end in well under a second
    address_space=1024**3,
    tmp_bytes=16 * 1024**2,
    file_bytes=64 * 1024**2,
    output_bytes=1024**2,
    value_bytes=4 * 1024**2,
)


def run_all(context: dict[str, Any], cases: int = 2) -> dict[str, list[dict[str, Any]]]:
    """Every hostile program on ``cases`` copies of ``context`` (the paths, port and pid it
    aims at); each one's executions as plain data."""
    engine = available_engine("bubblewrap")
    names = list(PROGRAMS)
    results = asyncio.run(
        run_programs(
            [PROGRAMS[name] for name in names],
            [context] * cases,
            limits=LIMITS,
            engine=engine,
            parallel=2,
        )
    )
    return {
        name: [{**asdict(e), "outcome": e.outcome.value, "output": e.output} for e in executions]
        for name, executions in zip(names, results, strict=True)
    }


if __name__ == "__main__":
    print(json.dumps(run_all(json.loads(sys.argv[1])), default=str))
