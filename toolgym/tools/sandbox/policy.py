"""What agent Python may do, enforced at compile time and at every attribute access.

This is the language layer of the sandbox (:mod:`toolgym.tools.sandbox`); the worker process's
limits and system-call filter (:mod:`.confine`) are the layers below it. It runs in the worker.

* **Restricted compilation** (RestrictedPython): no names or attributes starting with ``_``, no
  frame and code attributes (``gi_frame``, ``f_globals``, ...), no ``exec``/``eval``/``open``.
* **Imports from a whitelist** (:data:`ALLOWED_MODULES`): an import returns a
  :class:`ModuleProxy`, never the module. A proxy shows the module's public attributes; a
  submodule is shown only inside a whitelisted package and outside :data:`DENIED_MODULES`, so
  ``pd.io.common.os`` (the ``os`` module pandas imported) is refused.
* **Guarded attribute access** (``_getattr_``, ``getattr`` and ``from m import name``): private
  names, the frame and code attributes and :data:`DENIED_ATTRIBUTES` (evaluators of strings and
  templates, deserializers that run code, file readers and writers) are refused whatever the
  object, ``str.format`` is refused on strings and on the ``str`` type, and a module reached
  through any object is proxied or refused.
* **Writes** go to data objects only: never to modules, classes or functions.
* **Output** (``print``) is collected up to a budget.

A refusal raises :class:`Forbidden`; the worker reports it as the ``forbidden`` category.
"""

from __future__ import annotations

import ast
import builtins
import copy
import importlib
import math
import operator
from collections.abc import Callable
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType
from typing import TYPE_CHECKING, Any

from RestrictedPython import compile_restricted, safe_builtins
from RestrictedPython.Guards import guarded_iter_unpack_sequence, guarded_unpack_sequence
from RestrictedPython.transformer import INSPECT_ATTRIBUTES, RestrictingNodeTransformer

ALLOWED_MODULES: tuple[str, ...] = (
    "math",
    "datetime",
    "re",
    "json",
    "numpy",
    "pandas",
    "gspread",
    "gspread_dataframe",
    "requests",
)
"""Top-level modules agent code may import (with their submodules), when they are installed."""

DENIED_MODULES: tuple[str, ...] = (
    "pandas.core",
    "pandas.io",
    "pandas.api.interchange",
    "numpy.lib",
    "numpy.core",
    "pandas.api.extensions",
    "pandas.plotting",
    "pandas.compat",
    "pandas.core.config_init",
    "numpy.lib.stride_tricks",
    "numpy.ctypeslib",
    "numpy.lib.format",
    "numpy.lib.npyio",
    "pandas.io.formats.style",
    "pandas.io.formats.style_render",
    "pandas.compat.pickle_compat",
    "numpy.f2py",
    "numpy.distutils",
    "numpy.testing",
    "pandas.io.clipboard",
    "pandas.io.pickle",
    "pandas.testing",
    "pandas.util",
    "requests.utils",
    "requests.adapters",
    "gspread.auth",
    "numpy.ma.mrecords",
    "requests.help",
)
"""Submodules of whitelisted packages that reach the system (ctypes, compilers, files) or report
the host (``requests.help``: see :mod:`.host_facts`)."""

TEST_MODULE_PARTS: frozenset[str] = frozenset({"tests", "test", "testing", "conftest"})
"""Names of a whitelisted package's test suites (and any module named ``test_*``): refused,
since their helpers import or run whatever they are given (pandas' ``import_optional_dependency``
through ``pandas.tests``, ``numpy.testing.runstring``)."""

DENIED_ATTRIBUTES: frozenset[str] = frozenset(
    {
        # evaluators of strings and templates
        "eval", "query", "style", "env", "template_html", "template_html_table",
        "template_html_style", "template_latex", "template_string", "loader",
        "from_custom_template",
        # deserializers that run code, and pickle writers
        "load", "read_pickle", "to_pickle", "read_array", "dump",
        # files and the system
        "read_csv", "read_table", "read_fwf", "read_json", "read_html", "read_xml",
        "read_excel", "read_parquet", "read_feather", "read_orc", "read_sas", "read_spss",
        "read_stata", "read_sql", "read_sql_query", "read_sql_table", "read_hdf", "read_clipboard",
        "to_clipboard", "fromfile", "tofile", "loadtxt", "genfromtxt", "fromregex", "memmap",
        "open_memmap", "save", "savez", "savez_compressed", "savetxt", "get_handle",
        "ctypes", "ctypeslib", "load_library", "system", "popen", "urlopen", "TextFileReader",
        "StataReader", "ExcelFile", "ExcelWriter", "HDFStore",
        # memory reached through made-up strides
        "as_strided", "stride_tricks",
        # settings shared by every later program of a process
        "register_dataframe_accessor", "register_series_accessor", "register_index_accessor",
        "register_extension_dtype", "set_option", "reset_option", "option_context", "seterr",
        "seterrcall", "set_printoptions", "printoptions", "setbufsize", "set_string_function",
        # writers of files in formats that never return text, readers behind other names
        "to_stata", "to_parquet", "to_feather", "to_orc", "to_hdf", "to_sql", "to_excel",
        "to_gbq", "show_versions", "JsonReader", "TextParser", "PythonParser", "CParserWrapper",
        # credentials from files and browser flows (gspread, google-auth)
        "service_account", "service_account_from_dict", "oauth", "oauth_from_dict",
        "local_server_flow", "console_flow", "run_local_server", "run_console",
        "InstalledAppFlow", "from_client_secrets_file", "from_client_config",
        "from_service_account_file", "from_service_account_info", "from_authorized_user_file",
        "load_credentials", "store_credentials", "AuthorizedSession", "authorize",
        # transport adapters: the connections below sessions (and an oracle of host paths)
        "HTTPAdapter", "BaseAdapter", "adapters", "get_adapter", "mount", "cert_verify",
        "init_poolmanager", "proxy_manager_for", "get_connection",
        "get_connection_with_tls_context", "poolmanager",
        # class internals
        "mro",
        # importers of any module by name, readers of files, raw memory
        "import_optional_dependency", "import_module", "runstring", "openfile", "ScalarType",
        "sctypeDict", "plot", "boxplot", "hist",
        # reporters of the host (its CPU, kernel, libraries' paths)
        "show_runtime", "show_config", "uname", "gethostname", "getfqdn",
    }
)  # fmt: skip

DENIED_OBJECT_MODULES: frozenset[str] = frozenset(
    {
        "os", "posix", "nt", "sys", "io", "_io", "pathlib", "subprocess", "socket", "_socket",
        "shutil", "tempfile", "importlib", "ctypes", "_ctypes", "threading", "_thread",
        "concurrent", "multiprocessing", "_multiprocessing", "signal", "_signal", "mmap",
        "resource", "gc", "inspect", "types", "code", "codeop", "pickle", "_pickle", "copyreg",
        "marshal", "shelve", "dbm", "sqlite3", "_sqlite3", "zipfile", "tarfile", "gzip", "bz2",
        "lzma", "glob", "linecache", "tokenize", "runpy", "pkgutil", "zipimport", "site",
        "sysconfig", "platform", "webbrowser", "pty", "tty", "fcntl", "termios", "select",
        "selectors", "ssl", "_ssl", "smtplib", "ftplib", "http", "urllib", "urllib3", "xmlrpc",
        "logging", "atexit", "faulthandler", "tracemalloc", "pdb", "bdb", "trace", "cProfile",
        "profile", "asyncio", "posixpath", "genericpath", "fileinput", "filecmp", "codecs",
        "_codecs", "builtins", "weakref", "_weakref", "functools", "operator", "_operator",
        "pyseccomp", "RestrictedPython", "toolgym",
    }
)  # fmt: skip
"""Modules whose functions, classes and objects agent code may not hold, wherever it finds them
(``gspread.auth.Path``, a file object a library returns): the system, files, processes, code.
``builtins`` functions the sandbox gives out itself (``len``, ``print``) are not affected."""
"""Attribute names refused on every object: evaluators of strings and templates, deserializers
that can run code, readers and writers of files, the system."""


class Forbidden(Exception):
    """Agent code tried something the sandbox does not allow."""


class OutputLimit(Exception):
    """Agent code printed more than its budget."""


def _allowed_module(name: str) -> bool:
    parts = name.split(".")
    if parts[0] not in ALLOWED_MODULES or any(p.startswith("_") for p in parts):
        return False
    if any(p in TEST_MODULE_PARTS or p.startswith(("test_", "conftest")) for p in parts[1:]):
        return False  # test suites: helpers that import or run anything, for their tests
    return not any(name == d or name.startswith(d + ".") for d in DENIED_MODULES)


class ModuleProxy:
    """A whitelisted module as agent code sees it: its public attributes, guarded."""

    __slots__ = ("_module",)

    def __init__(self, module: ModuleType) -> None:
        object.__setattr__(self, "_module", module)

    def __getattr__(self, name: str) -> Any:
        check_name(name)  # "from pandas import eval" comes here, not through _getattr_
        value = guard_value(getattr(object.__getattribute__(self, "_module"), name))
        return _dispatch_checked(value, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise Forbidden("modules cannot be changed")

    def __repr__(self) -> str:
        return f"<module {object.__getattribute__(self, '_module').__name__!r}>"

    def __dir__(self) -> list[str]:
        module = object.__getattribute__(self, "_module")
        return [n for n in dir(module) if not n.startswith("_")]


def _exposed(value: Any) -> bool:
    """Whether a class (or an object's class) says programs may use it: ``_sandbox_exposed``.

    A family's own classes that programs are given (a library's class with a tweak) set it.
    """
    if getattr(value, "__dict__", {}).get("_sandbox_exposed") is True and isinstance(
        value, FunctionType
    ):
        return True
    if isinstance(value, MethodType):  # a bound method: its object says
        value = value.__self__
    owner = value if isinstance(value, type) else type(value)
    return any(klass.__dict__.get("_sandbox_exposed") is True for klass in owner.__mro__)


def _home(value: Any) -> str:
    """The module a function or class comes from, else that of the object's type."""
    if isinstance(value, type | FunctionType | BuiltinFunctionType | MethodType):
        home = getattr(value, "__module__", None)
    else:
        home = getattr(type(value), "__module__", None)
    return str(home or "")


_DANGEROUS: tuple[Any, ...] = (
    type, super, open, eval, exec, compile, __import__, globals, locals, vars, getattr, setattr,
    delattr, input, breakpoint, memoryview, object, classmethod, staticmethod, property,
)  # fmt: skip
_DANGEROUS_IDS = frozenset(id(v) for v in _DANGEROUS)


def denied_object(value: Any) -> str | None:
    """Why agent code may not hold ``value`` (see :data:`DENIED_OBJECT_MODULES`), or ``None``."""
    if id(value) in _DANGEROUS_IDS:
        return f"{value.__name__!r} is not available in the sandbox"
    if type(value) is ModuleProxy:
        return None
    module = _home(value)
    home = module.split(".")[0]
    if home not in DENIED_OBJECT_MODULES or home == "builtins" or _exposed(value):
        return None
    routine = isinstance(value, type | FunctionType | BuiltinFunctionType | MethodType)
    name = value.__qualname__ if routine else type(value).__qualname__
    kind = "functions and classes" if routine else "objects"
    return f"{module} {kind} ({name}) are not available in the sandbox"


def guard_value(value: Any) -> Any:
    """``value`` as agent code may hold it.

    A module becomes a proxy, or is refused; functions, classes and objects of the system's
    modules are refused (:func:`denied_object`).
    """
    if isinstance(value, ModuleType):
        if not _allowed_module(value.__name__):
            raise Forbidden(f"the module {value.__name__!r} is not available in the sandbox")
        return ModuleProxy(value)
    problem = denied_object(value)
    if problem is not None:
        raise Forbidden(problem)
    return value


def guarded_iter(value: Any) -> Any:
    """``iter`` for agent loops: no iterating a file or another system object."""
    problem = denied_object(value)
    if problem is not None:
        raise Forbidden(problem)
    return iter(value)


_MISSING = object()


def check_name(name: object) -> str:
    """``name`` if agent code may read an attribute of that name, else :class:`Forbidden`."""
    if type(name) is not str:  # a str subclass could compare equal to anything
        raise Forbidden(f"an attribute name is a plain string; got {type(name).__name__}")
    if name.startswith("_") or name in INSPECT_ATTRIBUTES or name in DENIED_ATTRIBUTES:
        raise Forbidden(f"the attribute {name!r} is not available in the sandbox")
    return name


def guarded_getattr(obj: Any, name: Any, default: Any = _MISSING) -> Any:
    """``getattr`` as agent code may use it (see the module docstring)."""
    check_name(name)
    problem = denied_object(obj)
    if problem is not None:
        raise Forbidden(problem)
    text_type = obj if isinstance(obj, type) else type(obj)
    if name in ("format", "format_map") and issubclass(text_type, str | bytes):
        raise Forbidden("str.format is not available in the sandbox; use f-strings or +")
    try:
        value = getattr(obj, name)
    except AttributeError:
        if default is _MISSING:
            raise
        return default
    return _dispatch_checked(guard_value(value), name, unbound=isinstance(obj, type))


def _dispatch_checked(value: Any, name: str, unbound: bool = False) -> Any:
    """``value``, wrapped when it is a function the sandbox checks the arguments of.

    A function that looks functions up by name checks the names it is given; a writer that
    returns text without a target refuses a target.
    """
    if callable(value) and not isinstance(value, type):
        if name in NAME_DISPATCHERS:
            return _names_checked(value, name)
        if name in TEXT_WRITERS:
            return _text_only(value, name, 1 if unbound else 0)
    return value


TEXT_WRITERS: frozenset[str] = frozenset(
    {"to_csv", "to_json", "to_html", "to_latex", "to_xml", "to_markdown", "to_string"}
)
"""pandas writers that return their text when given no file: given through the sandbox, they
refuse a path or a buffer (the first argument, or ``path_or_buf``, ``buf``, ``path``)."""

_TARGETS = ("path_or_buf", "buf", "path", "path_or_buffer", "excel_writer")


def _text_only(method: Any, name: str, target: int = 0) -> Callable[..., Any]:
    """``method``, refusing a target: a target keyword, or its positional argument ``target``.

    That is 1 when the method is reached through its class (``DataFrame.to_csv(frame, path)``).
    """

    def refusal(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str | None:
        if (len(args) > target and args[target] is not None) or any(
            kwargs.get(key) is not None for key in _TARGETS
        ):
            return (
                f"{name}() cannot write to a file or a buffer in the sandbox; call it without "
                "one to get the text"
            )
        return None

    return _checked(method, refusal)


def _checked(
    method: Any, refusal: Callable[[tuple[Any, ...], dict[str, Any]], str | None]
) -> Callable[..., Any]:
    """``method`` for agent code: a call ``refusal`` finds a reason against raises it."""

    def call(*args: Any, **kwargs: Any) -> Any:
        reason = refusal(args, kwargs)
        if reason is not None:
            raise Forbidden(reason)
        return method(*args, **kwargs)

    call._sandbox_exposed = True  # type: ignore[attr-defined]
    return call


NAME_DISPATCHERS: frozenset[str] = frozenset(
    {"agg", "aggregate", "apply", "transform", "map", "applymap", "pipe", "pivot_table",
     "resample", "rolling", "expanding", "ewm", "reduce", "accumulate", "crosstab",
     "pivot", "groupby", "cumulative", "describe", "melt", "assign", "where", "mask"}
)  # fmt: skip
"""Methods (of pandas and numpy objects) that look up a function by the name they are given;
given through the sandbox, they refuse names starting with ``_`` (``agg('__class__')``)."""


def _private_names(value: Any, depth: int = 0) -> bool:
    if isinstance(value, str):  # a writer by name would escape its wrapper (apply("to_csv"))
        return value.startswith("_") or value in DENIED_ATTRIBUTES or value in TEXT_WRITERS
    if depth < 3 and isinstance(value, list | tuple | set | frozenset):
        return any(_private_names(v, depth + 1) for v in value)
    if depth < 3 and isinstance(value, dict):
        return any(_private_names(v, depth + 1) for v in value.values())
    return False


def _names_checked(method: Any, name: str) -> Callable[..., Any]:
    def refusal(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str | None:
        if _private_names(args) or _private_names(kwargs):
            return (
                f"{name}() cannot be given names starting with '_' or the names the sandbox "
                "refuses (eval, query, style, ...)"
            )
        return None

    return _checked(method, refusal)


def guarded_import(
    name: str,
    globals: Any = None,
    locals: Any = None,
    fromlist: tuple[str, ...] | None = (),
    level: int = 0,
) -> ModuleProxy:
    """``import`` from :data:`ALLOWED_MODULES`; the result is a proxy."""
    if level != 0:
        raise Forbidden("relative imports are not available in the sandbox")
    if not isinstance(name, str) or not _allowed_module(name):
        allowed = ", ".join(ALLOWED_MODULES)
        raise Forbidden(f"import of {name!r} is not allowed; importable: {allowed}")
    module = importlib.import_module(name)
    if not _allowed_module(module.__name__):  # an alias such as requests.packages.urllib3
        raise Forbidden(f"import of {name!r} is not allowed (it is {module.__name__!r})")
    if not fromlist:  # "import a.b" binds "a"
        return ModuleProxy(importlib.import_module(name.split(".")[0]))
    for item in fromlist:
        check_name(item)
        if not hasattr(module, item):
            candidate = f"{name}.{item}"
            if _allowed_module(candidate):
                importlib.import_module(candidate)  # "from a import b" where b is a submodule
    return ModuleProxy(module)


_UNWRITABLE = (ModuleType, ModuleProxy, type, FunctionType, BuiltinFunctionType, MethodType)


def write_guard(obj: Any) -> Any:
    """Attribute and item writes go to data objects only (not to system or toolgym objects)."""
    if isinstance(obj, _UNWRITABLE) or denied_object(obj) is not None:
        raise Forbidden(f"{type(obj).__name__} objects cannot be changed in the sandbox")
    return obj


_INPLACE: dict[str, Callable[[Any, Any], Any]] = {
    "+=": operator.iadd,
    "-=": operator.isub,
    "*=": operator.imul,
    "/=": operator.itruediv,
    "//=": operator.ifloordiv,
    "%=": operator.imod,
    "**=": operator.ipow,
    "<<=": operator.ilshift,
    ">>=": operator.irshift,
    "&=": operator.iand,
    "|=": operator.ior,
    "^=": operator.ixor,
    "@=": operator.imatmul,
}


def inplace(op: str, target: Any, value: Any) -> Any:
    """``target op= value`` (RestrictedPython routes augmented assignments here)."""
    return _INPLACE[op](target, value)


if TYPE_CHECKING:
    from typing import Protocol

    class PrinterClass(Protocol):
        """The class :func:`make_printer` gives: RestrictedPython's ``_print_``.

        Calling it (``_print_(_getattr_)``) makes a collector for one scope; ``parts`` is the
        output that every collector made from the class writes to.
        """

        parts: list[str]

        def __call__(self, _getattr_: Any = None) -> Any:
            """A collector for one scope (RestrictedPython calls ``_print_(_getattr_)``)."""


def make_printer(budget: int) -> PrinterClass:
    """A ``print`` collector class that raises :class:`OutputLimit` past ``budget`` characters."""
    parts: list[str] = []
    size = [0]

    class Printer:
        """One per scope (RestrictedPython makes one in each function); all share one output."""

        def __init__(self, _getattr_: Any = None) -> None:
            self.parts = parts

        def write(self, text: str) -> None:
            size[0] += len(text)
            if size[0] > budget:
                raise OutputLimit(f"the program printed more than {budget:,} characters")
            parts.append(text)

        def __call__(self) -> str:
            return "".join(self.parts)

        def _call_print(self, *objects: Any, **kwargs: Any) -> None:
            kwargs.pop("file", None)
            sep, end = kwargs.pop("sep", " "), kwargs.pop("end", "\n")
            self.write(str(sep).join(map(str, objects)) + str(end))

    Printer.parts = parts
    return Printer


_SAFE_EXTRA: dict[str, Any] = {
    name: getattr(builtins, name)
    for name in (
        "all", "any", "dict", "enumerate", "filter", "frozenset", "list", "map", "max", "min",
        "reversed", "set", "sorted", "sum", "tuple", "zip", "iter", "next",
    )
}  # fmt: skip


def _refused(name: str) -> Callable[..., Any]:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise Forbidden(f"{name}() is not available in the sandbox")

    return refuse


def restricted_globals(printer: PrinterClass, names: dict[str, Any]) -> dict[str, Any]:
    """The globals agent code runs with: safe builtins, the guards, and ``names``."""
    allowed_builtins = {
        **safe_builtins,
        **_SAFE_EXTRA,
        "getattr": guarded_getattr,
        "hasattr": lambda obj, name: guarded_getattr(obj, name, _MISSING) is not _MISSING,
        "__import__": guarded_import,
        "math": ModuleProxy(math),
    }
    for name in ("setattr", "delattr", "id", "hash"):
        allowed_builtins.pop(name, None)
    for name in ("open", "input", "breakpoint", "globals", "locals", "vars", "dir", "help"):
        allowed_builtins[name] = _refused(name)
    return {
        "__builtins__": allowed_builtins,
        "__name__": "agent",
        "__metaclass__": type,
        "_getattr_": guarded_getattr,
        "_getitem_": operator.getitem,
        "_getiter_": guarded_iter,
        "_iter_unpack_sequence_": guarded_iter_unpack_sequence,
        "_unpack_sequence_": guarded_unpack_sequence,
        "_write_": write_guard,
        "_inplacevar_": inplace,
        "_result_": guard_result,
        "_apply_": guarded_apply,
        "_print_": printer,
        **names,
    }


class _AugmentedItems(ast.NodeTransformer):
    """``a[k] += v`` and ``a.b += v`` rewritten as ``a[k] = a[k] + v``.

    RestrictedPython refuses augmented assignment to items and attributes; rewritten, it goes
    through the read and write guards. The target's parts are evaluated twice.
    """

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.target, ast.Subscript | ast.Attribute):
            return node
        load = copy.deepcopy(node.target)
        load.ctx = ast.Load()
        value = ast.BinOp(left=load, op=node.op, right=node.value)
        return ast.copy_location(ast.Assign(targets=[node.target], value=value), node)


_PLAIN_RESULTS = frozenset({int, float, str, bool, type(None), list, tuple, dict, bytes, complex})


def guard_result(value: Any) -> Any:
    """A call's result as agent code may hold it (:func:`guard_value`; plain values pass fast).

    So a library function that hands back a module or a system object (an importer given a
    name, a reader that opens a file) is refused as if the program had reached it by name.
    """
    if type(value) in _PLAIN_RESULTS:
        return value
    return guard_value(value)


def guarded_apply(function: Any, *args: Any, **kwargs: Any) -> Any:
    """``f(*args, **kwargs)`` (RestrictedPython routes calls with ``*`` or ``**`` here)."""
    return function(*args, **kwargs)


class _GuardedCalls(RestrictingNodeTransformer):
    """RestrictedPython's rules, and every call's result through :func:`guard_result`."""

    def visit_Call(self, node: ast.Call) -> Any:
        visited = super().visit_Call(node)
        name = ast.copy_location(ast.Name("_result_", ast.Load()), node)
        # RestrictedPython declares visit_Call with its visitors' general return type (any node,
        # nodes or None), but it returns the call node it was given, possibly rewritten.
        guarded = ast.Call(func=name, args=[visited], keywords=[])  # type: ignore[list-item]
        return ast.copy_location(guarded, node)


def compile_program(code: str) -> Any:
    """Compile agent code under RestrictedPython's rules.

    Raises:
        SyntaxError: the code is not Python, or it uses a construct the rules refuse (the
            message lists every refusal).
    """
    tree = _AugmentedItems().visit(ast.parse(code, filename="<agent>", mode="exec"))
    ast.fix_missing_locations(tree)
    return compile_restricted(tree, filename="<agent>", mode="exec", policy=_GuardedCalls)
