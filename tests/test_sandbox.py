"""The sandbox: agent Python runs confined, every escape is refused, every limit ends cleanly."""

from __future__ import annotations

import platform
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from toolgym.tools.errors import CATEGORIES
from toolgym.tools.sandbox import Sandbox, SandboxLimits

CANARY = Path("/tmp/toolgym-sandbox-canary")


@pytest.fixture(scope="module")
def box() -> Sandbox:
    sandbox = Sandbox(limits=SandboxLimits(cpu_s=1.0, wall_s=1.5, memory_mb=256))
    yield sandbox
    sandbox.close()


def ok(box: Sandbox) -> None:
    """The worker still answers after whatever came before."""
    result = box.run("state = state + 1", 41)
    assert result.error is None and result.state == 42


def test_functions_print_to_the_same_output(box: Sandbox) -> None:
    result = box.run("def f(x):\n  print('in f', x)\n  return x\nprint('top', f(1))", None)
    assert result.error is None and result.stdout == "in f 1\ntop 1\n"


def test_a_caught_time_limit_still_fails_and_keeps_nothing(box: Sandbox) -> None:
    code = "try:\n  while True: pass\nexcept BaseException:\n  state = 'changed'"
    result = box.run(code, "before")
    assert result.error is not None and result.error["category"] == "timeout"
    assert result.state is None
    ok(box)


def test_state_output_and_warm_imports(box: Sandbox) -> None:
    result = box.run(
        textwrap.dedent(
            """
            import pandas as pd
            import numpy as np
            df = pd.DataFrame(state)
            df["price"] *= 1.1
            df.loc[df["item"] == "beef", "stock"] += 5
            state = df.round(2).to_dict(orient="list")
            print(len(df), np.mean([1, 2, 3]))
            """
        ),
        {"item": ["beef", "milk"], "price": [10.0, 2.0], "stock": [1, 2]},
    )
    assert result.error is None, result.error
    assert result.state == {"item": ["beef", "milk"], "price": [11.0, 2.2], "stock": [6, 2]}
    assert result.stdout == "2 2.0\n"


@pytest.mark.parametrize(
    ("code", "category"),
    [
        ("def f(:\n  pass", "non_executable"),
        ("x = 1/0", "runtime_error"),
        ("state = object()", "runtime_error"),  # not plain data
        ("while True:\n  pass", "timeout"),
        ("x = 0\nwhile True:\n  x += 1", "timeout"),
        ("try:\n  while True: pass\nexcept BaseException:\n  while True: pass", "timeout"),
        ("try:\n  while True: pass\nexcept BaseException:\n  state = 'kept'", "timeout"),
        (
            "n = 0\nwhile True:\n  try:\n    while True: n += 1\n  except BaseException:\n    pass",
            "timeout",
        ),
        ("raise SystemExit(0)", "runtime_error"),
        ("raise KeyboardInterrupt", "runtime_error"),
        ("class E(BaseException):\n  pass\nraise E('x')", "runtime_error"),
    ],
)
def test_limits_end_cleanly(box: Sandbox, code: str, category: str) -> None:
    result = box.run(code, {})
    assert result.error is not None and result.error["category"] == category, result.error
    assert category in CATEGORIES
    ok(box)


@pytest.fixture(scope="module")
def roomy_box() -> Sandbox:
    """A sandbox whose clock outlasts any memory or output limit, even on a loaded machine."""
    sandbox = Sandbox(limits=SandboxLimits(cpu_s=20.0, wall_s=30.0, memory_mb=256))
    yield sandbox
    sandbox.close()


@pytest.mark.parametrize(
    "code",
    [
        "x = [0] * (10 ** 10)",
        "import numpy as np\nx = np.ones((30000, 30000))",
        "s = 'x'\nwhile True:\n  s = s + s",
        "print('x' * 100000)",
        "for i in range(10**6):\n  print(i)",
        "def f(n):\n  return f(n + 1)\nf(0)",
        "state = 'x' * 9000000",
    ],
)
def test_resource_limits_end_cleanly(roomy_box: Sandbox, code: str) -> None:
    """Memory, output and recursion limits end a program as such, not as a timeout.

    In a sandbox whose clock is long: on a loaded machine, a short clock may run out before
    a program that doubles a string reaches the memory limit.
    """
    result = roomy_box.run(code, {})
    assert result.error is not None and result.error["category"] == "resource_limit", result.error
    ok(roomy_box)


ESCAPES = [
    "import os\nos.system('touch /tmp/toolgym-sandbox-canary')",
    "import subprocess",
    "import sys",
    "import ctypes",
    "import importlib",
    "import builtins",
    "import gc",
    "import signal",
    "import threading",
    "import socket",
    "import multiprocessing",
    "import pickle",
    "from os import system",
    "__import__('os')",
    "import numpy.ctypeslib",
    "import numpy as np\nnp.ctypeslib.load_library('libc', '/lib')",
    "import pandas as pd\npd.io.common.os.system('touch /tmp/toolgym-sandbox-canary')",
    "import pandas as pd\npd.core.common.np.ctypeslib",
    "import numpy as np\nnp.lib.npyio.os.system('id')",
    "import json\njson.decoder.re.sys",
    "import re\nre.enum.sys",
    "import datetime\ndatetime.sys",
    "import pandas as pd\npd.eval('1+1')",
    "import pandas as pd\npd.DataFrame({'a': [1]}).query('a > 0')",
    "import pandas as pd\npd.read_pickle('/tmp/x.pkl')",
    "import pandas as pd\npd.DataFrame({'a': [1]}).to_csv('/tmp/toolgym-sandbox-canary')",
    "import numpy as np\nnp.save('/tmp/toolgym-sandbox-canary', np.zeros(2))",
    "import numpy as np\nnp.zeros(2).tofile('/tmp/toolgym-sandbox-canary')",
    "open('/tmp/toolgym-sandbox-canary', 'w').write('x')",
    "open('/etc/passwd').read()",
    "().__class__.__base__.__subclasses__()",
    "getattr((), '__class__')",
    "getattr(getattr((), 'mro'), '__self__')",
    "x = (i for i in [1])\ngetattr(x, 'gi_frame')",
    "x = (i for i in [1])\ngetattr(x, 'gi' + '_frame').f_globals",
    "try:\n  1/0\nexcept Exception as e:\n  getattr(e, '__traceback__')",
    "'{0.__class__}'.format(1)",
    "'{x.__globals__}'.format_map({'x': len})",
    "exec('import os')",
    "eval('1')",
    "compile('1', 'x', 'eval')",
    "globals()['__builtins__']",
    "vars()",
    "import math\nmath.__loader__",
    "import numpy as np\ngetattr(np, '__builtins__')",
    "import numpy as np\nnp.zeros = None",
    "import math\nsetattr(math, 'pi', 3)",
    "def f(): pass\nf.__code__",
    "def f(): pass\ngetattr(f, '__globals__')",
    "class A:\n  pass\nA.mro()",
    "import requests\nrequests.utils.os",
    # Deserializers and template engines reached through whitelisted libraries.
    "import numpy as np\nclass F:\n  def read(self, n=-1):\n    return b''\nnp.load(F(), allow_pickle=True)",
    "from numpy import load",
    "from numpy.lib import format",
    "from pandas import read_pickle",
    "from pandas import eval as e",
    "import pandas as pd\npd.DataFrame({'a': [1]}).style.env",
    "import pandas as pd\npd.io.formats.style",
    "import pandas as pd\npd.compat.pickle_compat",
    "f = str.format\nf('{0.__class__}', 1)",
    "import pandas as pd\nstr.format('{0.__globals__}', pd.io.common.get_handle)",
    # Files read through libraries.
    "import pandas as pd\npd.read_csv('/etc/hostname')",
    "import numpy as np\nnp.loadtxt('/etc/hostname')",
    "import numpy as np\nnp.fromfile('/etc/hostname')",
    # States that are not plain data.
    "class D(dict):\n  pass\nstate = D()",
    "state = [float('nan')]",
    "state = {1: 'a'}",
    "x = []\nfor i in range(100):\n  x = [x]\nstate = x",
    "state = '\ud800'",
]


@pytest.mark.parametrize("code", ESCAPES, ids=range(len(ESCAPES)))
def test_escapes_are_refused(box: Sandbox, code: str) -> None:
    CANARY.unlink(missing_ok=True)
    result = box.run(code, {})
    assert result.error is not None, f"ran: {code!r} -> {result.stdout!r}"
    assert result.error["category"] in ("forbidden", "non_executable", "runtime_error")
    assert not CANARY.exists()
    ok(box)


def test_a_killed_worker_is_replaced(box: Sandbox) -> None:
    ok(box)
    assert box._process is not None
    box._process.kill()
    box._process.wait()
    result = box.run("state = 1", None)
    assert result.state == 1 and result.restarted


def test_a_worker_that_stops_answering_is_killed_and_replaced() -> None:
    with Sandbox(limits=SandboxLimits(cpu_s=30, wall_s=1.0)) as sandbox:
        sandbox.run("state = 0", None)  # warm
        # A long computation in C never lets the in-program timer raise: only the parent's
        # deadline ends it.
        result = sandbox.run("state = sum(range(10 ** 11))", None)
        assert result.error is not None and result.error["category"] == "timeout"
        assert result.seconds < 6.0  # the program's process is killed, the sandbox stays
        again = sandbox.run("state = 2", None)
        assert again.state == 2 and not again.restarted


PROBE = """
import ctypes, glob, json, os, resource, socket, sys, threading, time
sys.path.insert(0, sys.argv[1])
from toolgym.tools.sandbox.confine import (
    child_filter, confine_child, drop_capabilities, install_filter, restrict_files,
)
import pyseccomp
data = glob.glob(os.path.join(sys.argv[1], "toolgym", "families", "*", "data", "*.jsonl"))[0]
caps = drop_capabilities()
landlock = restrict_files()
problem = install_filter()
parent = os.getppid()
prepared = child_filter() if sys.argv[2] == "prepared" else None
r, w = os.pipe()
if os.fork() == 0:  # a program's process, as the sandbox makes it
    confine_child(prepared)
    results = {"problem": problem, "landlock": landlock, "caps": caps}
    def attempt(name, fn):
        try:
            fn()
            results[name] = "allowed"
        except OSError as e:
            results[name] = e.errno
        except ValueError as e:
            results[name] = str(e)
    attempt("fork", os.fork)
    attempt("exec", lambda: os.execv("/bin/true", ["true"]))
    attempt("socket", lambda: socket.socket())
    attempt("write", lambda: open("/tmp/toolgym-sandbox-canary", "w"))
    attempt("read", lambda: open("/etc/hostname").read())
    attempt("proc", lambda: open(f"/proc/{parent}/environ").read())
    attempt("tasks", lambda: open(data).read())
    attempt("library", lambda: open(json.__file__).read())
    attempt("signal", lambda: os.kill(parent, 0))
    attempt("limit_other", lambda: resource.prlimit(parent, resource.RLIMIT_CPU, (1, 1)))
    attempt("clock", lambda: time.clock_settime(time.CLOCK_REALTIME, 1e9))
    import fcntl
    pr, pw = os.pipe()
    attempt("signal_owner", lambda: fcntl.fcntl(pr, fcntl.F_SETOWN, parent))
    libc = ctypes.CDLL(None, use_errno=True)
    def shm():
        if libc.shmget(0, 4096, 0o1600) < 0:
            raise OSError(ctypes.get_errno(), "shmget")
    attempt("shared_memory", shm)
    def tgkill():  # a signal to another process's thread (x86-64's call number)
        if os.uname().machine == "x86_64" and libc.syscall(234, parent, parent, 0) < 0:
            raise OSError(ctypes.get_errno(), "tgkill")
    attempt("tgkill", tgkill)
    t = threading.Thread(target=lambda: None)
    t.start(); t.join()
    results["thread"] = "allowed"
    os.write(w, json.dumps(results).encode())
    os._exit(0)
os.close(w)
print(os.read(r, 100000).decode())
"""


@pytest.mark.parametrize("built", ["prepared", "in_child"])
def test_the_process_confinement(built: str) -> None:
    """Even code that escaped the language cannot reach the system (as a program's process).

    The children's filter is built before the fork (as the zygote does) or in the child.
    """
    root = str(Path(__file__).resolve().parents[1])
    out = subprocess.run(
        [sys.executable, "-c", PROBE, root, built], capture_output=True, text=True, timeout=60
    )
    import json

    results = json.loads(out.stdout.strip().splitlines()[-1])
    if results["problem"]:
        pytest.skip(f"no seccomp on this machine: {results['problem']}")
    eperm, eacces = 1, 13
    assert results["fork"] == results["exec"] == results["socket"] == eperm
    assert results["write"] in (eperm, eacces) and not CANARY.exists()
    assert results["signal"] == results["limit_other"] == results["clock"] == eperm
    assert results["signal_owner"] == results["shared_memory"] == eperm
    if platform.machine() == "x86_64":  # the probe knows this architecture's call number
        assert results["tgkill"] == eperm
    assert results["library"] == "allowed" and results["thread"] == "allowed"
    if results["landlock"]:
        pytest.skip(f"no Landlock on this machine: {results['landlock']}")
    assert results["read"] == results["proc"] == results["tasks"] == eacces


def test_programmer_mistakes_raise() -> None:
    with pytest.raises(ValueError, match=r"package\.module:attribute"):
        Sandbox(adapter="nonsense")
    with Sandbox() as sandbox, pytest.raises(TypeError, match="a program is a string"):
        sandbox.run(b"print(1)")  # type: ignore[arg-type]


def test_what_a_call_returns_is_guarded_like_what_an_attribute_holds() -> None:
    import os

    from toolgym.tools.sandbox.policy import (
        Forbidden,
        compile_program,
        make_printer,
        restricted_globals,
    )

    handed = {"give_module": lambda: os, "give_reader": lambda: os.open, "give_int": lambda: 7}
    for program in ("x = give_module()", "x = give_reader()", "x = [give_module()][0]"):
        namespace = restricted_globals(make_printer(100), dict(handed))
        with pytest.raises(Forbidden):
            exec(compile_program(program), namespace)  # the sandbox's own compiled test program
    namespace = restricted_globals(make_printer(100), dict(handed))
    exec(compile_program("x = give_int() + len(*[[1, 2]])"), namespace)
    assert namespace["x"] == 9


HOST_READERS = [
    "from requests import help as h\nprint(h.info())",
    "import requests.help as h\nprint(h.info())",
    "from requests.help import info\nprint(info())",
    "import numpy as np\nnp.show_runtime()",
    "import numpy as np\nnp.show_config()",
    "import pandas as pd\npd.show_versions()",
]


@pytest.mark.parametrize("code", HOST_READERS, ids=range(len(HOST_READERS)))
def test_readers_of_the_host_are_refused(box: Sandbox, code: str) -> None:
    result = box.run(code, None)
    assert result.error is not None, result.stdout
    assert result.error["category"] in ("forbidden", "runtime_error"), result.error
    assert "Linux" not in result.stdout and not result.stdout.strip()
    ok(box)


def test_what_libraries_read_of_the_host_is_fixed() -> None:
    """In the worker, the host's readers answer the documented values (run here in a child)."""
    code = textwrap.dedent(
        """
        import os, platform, socket
        real = os.uname()
        from toolgym.tools.sandbox.host_facts import SANDBOX_UNAME, mask_host_facts
        mask_host_facts()
        assert tuple(os.uname()) == SANDBOX_UNAME, os.uname()
        assert tuple(platform.uname())[:5] == SANDBOX_UNAME
        assert platform.release() == "0" and platform.node() == socket.gethostname()
        assert real.release not in platform.platform() or real.release == "0"
        print("fixed")
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "fixed", done.stderr


def test_a_fork_that_fails_closes_its_pipes_and_a_spare_that_fails_is_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A spare child's fork that fails leaves no descriptor behind, and fails no program."""
    import collections
    import errno
    import os

    from toolgym.tools.sandbox import zygote

    def no_fork() -> int:
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(zygote.os, "fork", no_fork)
    monkeypatch.setattr(zygote.gc, "freeze", lambda: None)  # this test's process is no zygote
    before = sorted(os.listdir("/proc/self/fd"))
    with open(os.devnull, "rb") as devnull:
        open_before = sorted(os.listdir("/proc/self/fd"))
        with pytest.raises(OSError):
            zygote.spawn(None, devnull.fileno())
        assert sorted(os.listdir("/proc/self/fd")) == open_before  # its four pipe ends closed
        ready: collections.deque = collections.deque()
        zygote.top_up(ready, lambda: zygote.spawn(None, devnull.fileno()))  # does not raise
        assert not ready and sorted(os.listdir("/proc/self/fd")) == open_before
    assert sorted(os.listdir("/proc/self/fd")) == before

    made: list[str] = []
    ready = collections.deque(["spare"] * zygote.SPARES_AT_ONCE)
    zygote.top_up(ready, lambda: made.append("forked") or "new")  # enough spares: no fork
    assert not made and len(ready) == zygote.SPARES_AT_ONCE
    ready.popleft()
    zygote.top_up(ready, lambda: made.append("forked") or "new")
    assert made == ["forked"] and ready[-1] == "new"
