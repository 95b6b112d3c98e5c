"""The seccomp filter the bubblewrap engine loads: no child processes, no threads, no memory
outside the address space.

RLIMIT_NPROC does not bind uid 0, and a user namespace maps the sandbox's uid to the caller's,
so a harness run as root (as CI runs) would leave a fork or thread bomb bounded by nothing but
the machine's pid table (threads of 32 KiB stacks fit by the ten thousand in the address space
limit). A classic BPF filter closes that for root and every other user alike, as the Code
Format's rules say ("no processes or threads"): ``fork``, ``vfork`` and ``clone`` fail with
EPERM (a thread too), ``clone3`` (whose flags a filter cannot read) fails with ENOSYS so the C
library falls back to ``clone``, and ``ptrace`` fails, as do ``process_vm_readv`` and
``process_vm_writev`` (another process of the sandbox, bubblewrap's init, is outside the
interpreter's CPU clock: writing into it ran a program on unmetered; hunt jj 1). Memory
the address-space limit does not count is refused too: System V shared memory, message
queues and semaphores, and ``memfd_create`` (a program filled gigabytes of each,
certified). Calls of another ABI than the machine's (x32, or 32-bit calls on x86_64) end the
process. Supported machines: x86_64 and aarch64; elsewhere :func:`seccomp_filter` returns
``None`` and the engine refuses to run as root, where nothing else would contain forks.
"""

from __future__ import annotations

import errno
import platform
import struct

__all__ = ["seccomp_filter"]

# Classic BPF opcodes (linux/filter.h, linux/bpf_common.h) and seccomp's return values.
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_RET_K = 0x06
_RET_KILL_PROCESS = 0x80000000
_RET_ERRNO = 0x00050000
_RET_ALLOW = 0x7FFF0000
_X32_SYSCALL_BIT = 0x40000000

# seccomp_data: int nr at 0, u32 arch at 4 (u64 ip at 8, u64 args[6] from 16).
_NR, _ARCH = 0, 4

_MACHINES: dict[str, tuple[int, dict[str, int]]] = {
    # machine: (AUDIT_ARCH_*, the syscall numbers of its ABI)
    "x86_64": (
        0xC000003E,
        {
            "clone": 56,
            "fork": 57,
            "vfork": 58,
            "ptrace": 101,
            "clone3": 435,
            "shmget": 29,
            "shmat": 30,
            "semget": 64,
            "msgget": 68,
            "msgsnd": 69,
            "memfd_create": 319,
            "process_vm_readv": 310,
            "process_vm_writev": 311,
        },
    ),
    "aarch64": (
        0xC00000B7,
        {
            "clone": 220,
            "ptrace": 117,
            "clone3": 435,
            "msgget": 186,
            "msgsnd": 189,
            "semget": 190,
            "shmget": 194,
            "shmat": 196,
            "memfd_create": 279,
            "process_vm_readv": 270,
            "process_vm_writev": 271,
        },
    ),
}
_DENIED = (
    *("fork", "vfork", "clone", "ptrace", "process_vm_readv", "process_vm_writev"),
    *("shmget", "shmat", "semget", "msgget", "msgsnd", "memfd_create"),
)
"""The calls that fail with EPERM (``clone3`` fails with ENOSYS instead)."""


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def seccomp_filter(machine: str | None = None) -> bytes | None:
    """The filter as bubblewrap's ``--seccomp`` reads it, or ``None`` on another machine."""
    known = _MACHINES.get(machine or platform.machine())
    if known is None:
        return None
    arch, numbers = known
    eperm = _RET_ERRNO | errno.EPERM
    denied = [numbers[name] for name in _DENIED if name in numbers]
    # Jump offsets count the instructions skipped after the jump.
    program = [
        _op(_LD_W_ABS, _ARCH),
        _op(_JEQ_K, arch, jt=1),
        _op(_RET_K, _RET_KILL_PROCESS),
        _op(_LD_W_ABS, _NR),
        _op(_JGE_K, _X32_SYSCALL_BIT, jf=1),
        _op(_RET_K, _RET_KILL_PROCESS),
    ]
    for number in denied:
        program += [_op(_JEQ_K, number, jf=1), _op(_RET_K, eperm)]
    program += [
        _op(_JEQ_K, numbers["clone3"], jf=1),
        _op(_RET_K, _RET_ERRNO | errno.ENOSYS),
        _op(_RET_K, _RET_ALLOW),
    ]
    return b"".join(program)
