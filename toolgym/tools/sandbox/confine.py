"""The worker process's confinement: resource limits and a system-call filter.

Installed once in the worker, after its imports are done and before any agent code runs:

* ``RLIMIT_AS`` (address space: the process's size now plus the memory budget), ``RLIMIT_NPROC``
  (no new processes), ``RLIMIT_CORE`` 0;
* a seccomp filter (through ``pyseccomp`` and the system's libseccomp) that answers ``EPERM`` to
  running programs (``execve``), creating processes (``fork``, ``vfork``, ``clone`` without
  ``CLONE_THREAD``; ``clone3`` answers ``ENOSYS`` so the C library falls back to ``clone``),
  sockets, ``ptrace``, signalling other processes (``kill``, ``tgkill`` elsewhere, pidfds),
  opening, creating, renaming or removing files for writing (``openat2``, which the filter cannot
  inspect, answers ``ENOSYS``), io_uring, extended attributes and times of files, and the
  kernel's administration calls.

Where seccomp cannot be installed (another OS, no libseccomp, a kernel without it),
:func:`install_filter` says why; the sandbox then warns once and still enforces the restricted
language, the whitelisted imports, the resource limits and the wall clock.
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource

CLONE_THREAD = 0x00010000

DENIED_CALLS: tuple[str, ...] = (
    "execve", "execveat", "fork", "vfork", "ptrace", "kill", "socket", "socketpair", "connect",
    "bind", "listen", "accept", "accept4", "creat", "rename", "renameat", "renameat2", "unlink",
    "unlinkat", "mkdir", "mkdirat", "rmdir", "truncate", "ftruncate", "chmod", "fchmod",
    "fchmodat", "chown", "fchown", "lchown", "fchownat", "link", "linkat", "symlink",
    "symlinkat", "mknod", "mknodat", "setuid", "setgid", "mount", "umount2", "pivot_root",
    "chroot", "process_vm_writev", "process_vm_readv", "io_uring_setup", "io_uring_enter",
    "io_uring_register", "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "tkill", "setxattr",
    "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr", "utime", "utimes",
    "utimensat", "futimesat", "memfd_create", "open_by_handle_at", "name_to_handle_at", "bpf",
    "perf_event_open", "userfaultfd", "unshare", "setns", "keyctl", "add_key", "request_key",
    "mq_open", "fanotify_init", "inotify_init", "inotify_init1", "kexec_load", "init_module",
    "finit_module", "delete_module", "reboot", "swapon", "swapoff", "acct", "quotactl",
    "sethostname", "setdomainname", "personality", "syslog", "process_madvise", "seccomp",
)  # fmt: skip
"""System calls the worker may never make (answered with ``EPERM``)."""


def limit_resources(memory_bytes: int) -> None:
    """Cap the address space at its current size plus ``memory_bytes``; no processes, no cores."""
    with open("/proc/self/statm") as handle:
        size = int(handle.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (size + memory_bytes, size + memory_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    with contextlib.suppress(ValueError, OSError):  # refused on some systems; seccomp remains
        resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))


def install_filter() -> str | None:
    """Install the seccomp filter; ``None`` when it is in place, else why it is not."""
    try:
        import pyseccomp as seccomp
    except ImportError as e:
        return f"pyseccomp is not installed ({e})"
    try:
        rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
        deny = seccomp.ERRNO(errno.EPERM)
        for name in DENIED_CALLS:
            try:
                rules.add_rule(deny, name)
            except (ValueError, OSError, RuntimeError):
                continue  # a call this architecture does not have
        # clone without CLONE_THREAD makes a process; with it, a thread (the runtime needs those).
        rules.add_rule(deny, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "openat2")  # the C library uses openat
        # Signals only to the worker itself.
        rules.add_rule(deny, "tgkill", seccomp.Arg(0, seccomp.NE, os.getpid()))
        for flag in (os.O_WRONLY, os.O_RDWR, os.O_CREAT, os.O_TRUNC, os.O_APPEND):
            rules.add_rule(deny, "open", seccomp.Arg(1, seccomp.MASKED_EQ, flag, flag))
            rules.add_rule(deny, "openat", seccomp.Arg(2, seccomp.MASKED_EQ, flag, flag))
        rules.load()
    except Exception as e:
        return f"seccomp could not be installed ({type(e).__name__}: {e})"
    return None
