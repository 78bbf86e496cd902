"""The host as agent code sees it: fixed, so no program learns the machine it runs on.

Libraries a program may import read the host while they run (``requests.help.info()`` reports
the kernel release, ``platform.platform()`` the distribution). After the worker has confined
itself and before any program runs, :func:`mask_host_facts` makes every such reading answer
:data:`SANDBOX_UNAME` and :data:`SANDBOX_HOSTNAME`, whatever the machine: ``os.uname()``,
``platform.uname()`` and everything in :mod:`platform` built on it (``system``, ``node``,
``release``, ``version``, ``machine``, ``processor``, ``platform``), ``platform.libc_ver()``,
``platform.freedesktop_os_release()`` and ``socket.gethostname()``.
The policy refuses the readers that exist only to report the host (:mod:`requests.help`,
``numpy.show_runtime``, ``numpy.show_config``, ``pandas.show_versions``); this layer covers
what libraries read on their own behalf.
"""

from __future__ import annotations

import os
import platform
import socket
from typing import Any

SANDBOX_UNAME = ("Linux", "toolgym-sandbox", "0", "#0", "x86_64")
"""What the host reports itself as inside the sandbox: system, node, release, version, machine."""
SANDBOX_HOSTNAME = SANDBOX_UNAME[1]


def _os_uname() -> Any:
    return os.uname_result(SANDBOX_UNAME)


def _platform_uname() -> platform.uname_result:
    return platform.uname_result(*SANDBOX_UNAME)


def _no_os_release() -> dict[str, str]:
    raise OSError("the sandbox has no os-release file")


def mask_host_facts() -> None:
    """Make the host's readers answer the fixed values (in the worker process only)."""
    os.uname = _os_uname
    platform.uname = _platform_uname
    platform.processor = lambda: SANDBOX_UNAME[4]
    platform.libc_ver = lambda *args, **kwargs: ("glibc", "0")
    platform.freedesktop_os_release = _no_os_release
    socket.gethostname = lambda: SANDBOX_HOSTNAME
