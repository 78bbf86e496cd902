"""The sandbox processes' confinement: resource limits, readable files, a system-call filter.

Installed in the warm sandbox process (:mod:`.zygote`) after its imports, before any agent code
runs, and inherited by every child that runs a program:

* ``RLIMIT_AS`` (address space: the process's size now plus the memory budget), ``RLIMIT_CORE``
  0;
* Landlock (:func:`restrict_files`, Linux 5.13+, no privileges needed): files and folders can be
  read only under Python's own folders (the standard library, the site-packages, the toolgym
  package) and the system's libraries and time zones; nothing can be written, created or
  executed anywhere. ``/proc`` (another process's memory or environment), ``/etc``, home folders
  and the working folder are out of reach;
* a seccomp filter (through ``pyseccomp`` and the system's libseccomp) that answers ``EPERM`` to
  running programs (``execve``), sockets, ``ptrace``, opening, creating, renaming or removing
  files for writing (``openat2``, which the filter cannot inspect, answers ``ENOSYS``), io_uring,
  extended attributes and times of files, and the kernel's administration calls;
* in each child (:func:`confine_child`), a second filter stacked on the first: no new processes
  (``fork``, ``vfork``, ``clone`` without ``CLONE_THREAD``; ``clone3`` answers ``ENOSYS`` so the
  C library falls back to ``clone``), no signals to other processes, and ``RLIMIT_NPROC`` 0.

Where Landlock or seccomp cannot be installed (another OS, no libseccomp, an older kernel), the
functions say why; the sandbox then warns once and still enforces the rest (the restricted
language, the whitelisted imports, the resource limits, the wall clock, one process per program).
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import sys
from typing import Any

CLONE_THREAD = 0x00010000

DENIED_CALLS: tuple[str, ...] = (
    "execve", "execveat", "ptrace", "socket", "socketpair", "connect",
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
    "sethostname", "setdomainname", "personality", "syslog", "process_madvise",
    "clock_settime", "clock_adjtime", "settimeofday", "adjtimex", "setreuid", "setregid",
    "setresuid", "setresgid", "setfsuid", "setfsgid", "setgroups", "capset", "kcmp",
    "migrate_pages", "move_pages", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "ioprio_set",
    "lookup_dcookie", "vhangup", "iopl", "ioperm", "shmget", "shmat", "shmdt", "shmctl",
    "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semtimedop", "semctl", "ipc",
    "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr", "mq_unlink",
)  # fmt: skip
"""System calls no sandbox process may make (answered with ``EPERM``)."""

SIGNAL_OWNER_COMMANDS: tuple[tuple[str, int], ...] = (
    ("fcntl", 8),  # F_SETOWN: a descriptor's owner gets SIGIO (or F_SETSIG's signal)
    ("fcntl", 10),  # F_SETSIG
    ("fcntl", 15),  # F_SETOWN_EX
    ("fcntl", 1024),  # F_SETLEASE
    ("fcntl", 1026),  # F_NOTIFY
    ("ioctl", 0x8901),  # FIOSETOWN
    ("ioctl", 0x8902),  # SIOCSPGRP
    ("ioctl", 0x5410),  # TIOCSPGRP
    ("ioctl", 0x5412),  # TIOCSTI
)
"""``fcntl`` and ``ioctl`` commands that would let a process signal another one (refused)."""

CHILD_DENIED_CALLS: tuple[str, ...] = ("fork", "vfork", "kill")
"""System calls a program's child may not make either (the zygote forks and kills children)."""

CHILD_SELF_ONLY_CALLS: tuple[str, ...] = (
    "prlimit64", "sched_setaffinity", "sched_setscheduler", "sched_setparam",
    "sched_setattr", "setpriority", "getpriority",
)  # fmt: skip
"""Calls a child may make on itself only (their first argument, a process id, must be 0):
otherwise a program could lower the environment's own limits or priority."""


def limit_resources(memory_bytes: int) -> None:
    """Cap the address space at its current size plus ``memory_bytes``; no core files."""
    with open("/proc/self/statm") as handle:
        size = int(handle.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (size + memory_bytes, size + memory_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def readable_paths() -> list[str]:
    """Where sandbox processes may read: Python's folders, the package, system libraries."""
    import site
    import sysconfig

    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    paths.update(sysconfig.get_paths().values())
    with contextlib.suppress(AttributeError):
        paths.update(site.getsitepackages())
    with contextlib.suppress(AttributeError):
        paths.add(site.getusersitepackages())
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    # the code a program's process may still import; not the tasks and their golds
    paths.update(os.path.join(package, part) for part in ("tools", "simulators"))
    paths.update(
        os.path.join(package, name) for name in os.listdir(package) if name.endswith(".py")
    )
    paths.update(
        ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib", "/usr/share/zoneinfo")
    )
    paths.update(("/dev/null", "/dev/urandom"))
    return sorted(p for p in paths if p and os.path.exists(p))


_LANDLOCK_CREATE, _LANDLOCK_ADD_RULE, _LANDLOCK_RESTRICT = 444, 445, 446
_FS_EXECUTE, _FS_READ_FILE, _FS_READ_DIR = 1 << 0, 1 << 2, 1 << 3


def restrict_files(paths: list[str] | None = None) -> str | None:
    """Make files readable only under ``paths`` (default :func:`readable_paths`), for good.

    Returns ``None`` when Landlock is in place, else why it is not.
    """
    import ctypes

    if not sys.platform.startswith("linux"):
        return f"file access cannot be restricted on {sys.platform} (no Landlock)"
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        syscall = libc.syscall
        syscall.restype = ctypes.c_long
        abi = syscall(_LANDLOCK_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
        if abi < 1:
            return f"Landlock is not available ({os.strerror(ctypes.get_errno())})"
        handled = (1 << 13) - 1  # every file right of the first version
        handled |= (1 << 13) if abi >= 2 else 0  # moving files between folders
        handled |= (1 << 14) if abi >= 3 else 0  # truncating
        attr = ctypes.c_uint64(handled)
        ruleset = syscall(_LANDLOCK_CREATE, ctypes.byref(attr), ctypes.c_size_t(8), 0)
        if ruleset < 0:
            return f"Landlock refused the rules ({os.strerror(ctypes.get_errno())})"

        class PathBeneath(ctypes.Structure):
            _pack_ = 1
            _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

        try:
            for path in paths if paths is not None else readable_paths():
                try:
                    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                except OSError:
                    continue
                folder = os.path.isdir(path)
                rights = _FS_READ_FILE | (_FS_READ_DIR | _FS_EXECUTE if folder else 0)
                rule = PathBeneath(rights, fd)
                syscall(_LANDLOCK_ADD_RULE, ruleset, 1, ctypes.byref(rule), 0)
                os.close(fd)
            if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
                return "Landlock needs no_new_privs, which was refused"
            if syscall(_LANDLOCK_RESTRICT, ruleset, 0) != 0:
                return f"Landlock could not be applied ({os.strerror(ctypes.get_errno())})"
        finally:
            os.close(ruleset)
    except (OSError, AttributeError) as e:
        return f"file access could not be restricted ({e})"
    return None


def install_filter() -> str | None:
    """Install the sandbox's seccomp filter; ``None`` when it is in place, else why it is not."""
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
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")  # the C library falls back to clone
        for call, command in SIGNAL_OWNER_COMMANDS:
            rules.add_rule(deny, call, seccomp.Arg(1, seccomp.EQ, command))
        rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "openat2")  # the C library uses openat
        for flag in (os.O_WRONLY, os.O_RDWR, os.O_CREAT, os.O_TRUNC, os.O_APPEND):
            rules.add_rule(deny, "open", seccomp.Arg(1, seccomp.MASKED_EQ, flag, flag))
            rules.add_rule(deny, "openat", seccomp.Arg(2, seccomp.MASKED_EQ, flag, flag))
        rules.load()
    except Exception as e:
        return f"seccomp could not be installed ({type(e).__name__}: {e})"
    return None


def child_filter() -> Any:
    """The children's filter without its one rule about the child itself (or ``None``).

    Built once in the zygote: each child adds :func:`confine_child`'s rule about its own process
    id to its copy and loads it, instead of building the whole filter (0.4-0.7 ms) again.
    """
    try:
        import pyseccomp as seccomp

        rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
        deny = seccomp.ERRNO(errno.EPERM)
        for name in CHILD_DENIED_CALLS:
            with contextlib.suppress(ValueError, OSError, RuntimeError):
                rules.add_rule(deny, name)
        # clone without CLONE_THREAD makes a process; with it, a thread (the runtime needs those)
        rules.add_rule(deny, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
        for name in CHILD_SELF_ONLY_CALLS:
            with contextlib.suppress(ValueError, OSError, RuntimeError):
                index = 1 if name in ("setpriority", "getpriority") else 0  # (which, who, ...)
                rules.add_rule(deny, name, seccomp.Arg(index, seccomp.NE, 0))
    except Exception:
        return None  # the zygote has reported that there is no filter
    return rules


def confine_child(prepared: Any = None) -> None:
    """In a program's child: no processes, no signals to others (a second, stacked filter).

    Args:
        prepared: :func:`child_filter`'s result, built before the fork (default: built here).

    Without seccomp, ``RLIMIT_NPROC`` 0 still keeps an unprivileged child from forking.
    """
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
    rules = prepared if prepared is not None else child_filter()
    if rules is None:
        return
    try:
        import pyseccomp as seccomp

        deny = seccomp.ERRNO(errno.EPERM)
        rules.add_rule(deny, "tgkill", seccomp.Arg(0, seccomp.NE, os.getpid()))
        rules.load()
    except Exception:
        pass  # the zygote has reported that there is no filter


def drop_capabilities() -> str | None:
    """Give up every Linux capability (a sandbox started as root keeps root's uid only).

    Without ``CAP_SYS_RESOURCE`` limits cannot be raised again, without ``CAP_SYS_TIME`` the
    clock cannot be set, without ``CAP_KILL`` other users' processes cannot be signalled, and so
    on. ``None`` when done (or there was nothing to drop), else why not.
    """
    import ctypes

    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(47, 4, 0, 0, 0)  # PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL
        for cap in range(64):
            libc.prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP (refused without CAP_SETPCAP)

        class Header(ctypes.Structure):
            _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

        class Data(ctypes.Structure):
            _fields_ = [
                ("effective", ctypes.c_uint32),
                ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32),
            ]

        header = Header(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
        data = (Data * 2)()
        if libc.capset(ctypes.byref(header), data) != 0:
            return f"capabilities could not be dropped ({os.strerror(ctypes.get_errno())})"
    except (OSError, AttributeError) as e:
        return f"capabilities could not be dropped ({e})"
    return None
