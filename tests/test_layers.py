"""Layers you can see: the core never imports a family, and the core imports only downward."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from toolgym.envs import FAMILY_SPECS, builtin_families
from toolgym.envs.spec import load_ref

PACKAGE = Path(__file__).resolve().parents[1] / "toolgym"

LAYERS = (
    "_version",
    "lazy",
    "errors",
    "simulators",
    "tools",
    "benchmarks",
    "envs",
    "conversation",
    "wrappers",
    "agents",
    "evaluation",
    "integrations",
    "training",
    "cli",
)
"""The core, bottom to top: a core module may import its own layer and the layers below it."""

FAMILIES = "toolgym.families"
"""The families: each may import the core and itself; the core never imports one."""


def layer_of(module: str) -> int:
    """The layer index of a core ``toolgym.*`` module name."""
    parts = module.split(".")
    if parts == ["toolgym"]:
        return len(LAYERS)  # the package itself registers the envs: above everything
    return LAYERS.index(parts[1])


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def family_of_module(module: str) -> str | None:
    """``toolgym.families.<name>`` for a module of a family, else ``None``."""
    parts = module.split(".")
    if parts[:2] != ["toolgym", "families"]:
        return None
    return ".".join(parts[:3])


def imported_modules(tree: ast.AST, current: str) -> list[tuple[int, str]]:
    """(line, module) of every toolgym import, lazy ones inside functions included."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("toolgym")]
        elif isinstance(node, ast.ImportFrom) and node.module:
            module = node.module
            if node.level:  # relative imports resolve against the current package
                base = current.split(".")[: -node.level]
                module = ".".join([*base, module])
            if module.startswith("toolgym"):
                out.append((node.lineno, module))
    return out


SOURCES = sorted(PACKAGE.rglob("*.py"))
CORE = [p for p in SOURCES if family_of_module(module_name(p)) is None]


def _family_strings(path: Path) -> list[tuple[int, str]]:
    """String literals that name a family module (``"toolgym.families.x.spec:SPEC"``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docs
        and node.value.startswith(FAMILIES + ".")
    ]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_core_never_imports_a_family(path: Path) -> None:
    """The one rule: outside ``toolgym/families/``, nothing imports a family or names its modules.

    A family reaches the core only through its line in :data:`toolgym.envs.FAMILY_SPECS` (or an
    entry point); a family imports the core and itself, never another family.
    """
    name = module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    mine = family_of_module(name)
    wrong = [
        f"line {line}: {module}"
        for line, module in imported_modules(tree, name)
        if family_of_module(module) not in (None, mine) or (mine is None and module == FAMILIES)
    ]
    if mine is None and name != "toolgym.envs":  # the one table of families is the exception
        wrong += [f"line {line}: {text!r}" for line, text in _family_strings(path)]
    owner = mine or "the core"
    assert not wrong, f"{name} ({owner}) reaches into a family: {wrong}"


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_imports_only_go_downward(path: Path) -> None:
    name = module_name(path)
    if name == "toolgym":
        return
    mine = layer_of(name)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    upward = [
        f"line {line}: {module} ({LAYERS[layer_of(module)] if module != 'toolgym' else 'toolgym'})"
        for line, module in imported_modules(tree, name)
        if family_of_module(module) is None and module != FAMILIES and layer_of(module) > mine
    ]
    assert not upward, f"{name} ({LAYERS[mine]}) imports upward: {upward}"


def test_every_package_directory_is_a_package() -> None:
    """A directory of modules without ``__init__.py`` would be left out of the built wheel."""
    for directory in {p.parent for p in SOURCES}:
        assert (directory / "__init__.py").exists(), directory


def test_every_module_is_in_a_layer_or_a_family() -> None:
    for path in CORE:
        name = module_name(path)
        if name not in ("toolgym", FAMILIES):
            layer_of(name)  # raises ValueError for a module outside the layers


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def code_words(path: Path, strings: bool = True) -> list[tuple[int, str]]:
    """Identifiers, import paths and (with ``strings``) string literals of a module.

    Docstrings and comments are documentation, not code, and are left out.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    words = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            words.append((node.lineno, node.attr))
        elif (
            strings
            and isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docs
        ):
            words.append((node.lineno, node.value))
        elif isinstance(node, ast.ImportFrom) and node.module:
            words.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            words += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            words.append((node.lineno, node.name))
    return words


def _own(path: Path, name: str) -> bool:
    return path.relative_to(PACKAGE).as_posix().startswith(f"families/{name}/")


@pytest.mark.parametrize("spec", builtin_families(), ids=lambda s: s.name)
def test_a_family_is_named_only_in_its_own_modules_and_its_entry(spec) -> None:
    names = {n.lower().replace(" ", "") for n in (spec.name, spec.env_name, spec.title)}
    # aliases are command-line words ("sheets"): ordinary words in other families' data (bed
    # sheets), so they are looked for in identifiers and import paths only
    aliases = {n.lower().replace(" ", "") for n in spec.aliases} - names
    entry = next(ref for ref in FAMILY_SPECS if load_ref(ref) is spec)  # its one line
    # the package that declares it (a family's conversation env lives in the family's package)
    package = entry.split(":")[0].split(".")[2]
    entries = {ref for ref in FAMILY_SPECS if ref.startswith(f"toolgym.families.{package}.")}
    found = []
    for path in SOURCES:
        if _own(path, package):
            continue
        identifiers = set(code_words(path, strings=False))
        for line, word in code_words(path):
            text = word.lower().replace(" ", "")
            needles = names | aliases if (line, word) in identifiers else names
            if word not in entries and any(n in text for n in needles):
                found.append(f"{path.relative_to(PACKAGE)}:{line}: {word[:60]!r}")
    assert not found, "\n".join(found)
