"""Packages whose contents load on first use.

Importing such a package, or a light module beside its heavy ones, costs nothing. A family's package keeps its docstring in ``__init__.py`` and its code in a submodule; the
package answers for the submodule's names::

    __getattr__, __dir__ = lazy_package(__name__, "suite")

``from package import NAME`` and ``load_ref("package:NAME")`` then import the submodule the first
time a name is asked for, and ``import package.light_module`` never does.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any


def lazy_package(
    package: str, submodule: str
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` that answer from ``package.submodule``."""
    target = f"{package}.{submodule}"

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):  # the import system's own questions
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        if importlib.util.find_spec(f"{package}.{name}") is not None:
            # ``from package import submodule`` asks here first: the submodule, not the heavy
            # module (which may be importing that submodule right now)
            return importlib.import_module(f"{package}.{name}")
        module = importlib.import_module(target)
        try:
            return getattr(module, name)
        except AttributeError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None

    def __dir__() -> list[str]:
        return sorted(set(dir(importlib.import_module(target))))

    return __getattr__, __dir__
