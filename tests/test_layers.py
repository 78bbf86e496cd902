"""Layers you can see: which layer may import which, and where a family's name may appear."""

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
    "families",
    "wrappers",
    "agents",
    "evaluation",
    "training",
    "cli",
)
"""Bottom to top: a module may import its own layer and the layers below it."""


def layer_of(module: str) -> int:
    """The layer index of a ``toolgym.*`` module name."""
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


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_only_go_downward(path: Path) -> None:
    name = module_name(path)
    if name == "toolgym":
        return
    mine = layer_of(name)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    upward = [
        f"line {line}: {module} ({LAYERS[layer_of(module)] if module != 'toolgym' else 'toolgym'})"
        for line, module in imported_modules(tree, name)
        if layer_of(module) > mine
    ]
    assert not upward, f"{name} ({LAYERS[mine]}) imports upward: {upward}"


def test_every_package_directory_is_a_package() -> None:
    """A directory of modules without ``__init__.py`` would be left out of the built wheel."""
    for directory in {p.parent for p in SOURCES}:
        assert (directory / "__init__.py").exists(), directory


def test_every_module_is_in_a_layer() -> None:
    for path in SOURCES:
        name = module_name(path)
        if name != "toolgym":
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
    rel = path.relative_to(PACKAGE).as_posix()
    return any(
        rel == f"{layer}/{name}.py" or rel.startswith(f"{layer}/{name}/")
        for layer in ("simulators", "tools", "benchmarks", "envs", "families")
    )


@pytest.mark.parametrize("spec", builtin_families(), ids=lambda s: s.name)
def test_a_family_is_named_only_in_its_own_modules_and_its_entry(spec) -> None:
    names = {n.lower().replace(" ", "") for n in (spec.name, spec.env_name, spec.title)}
    # aliases are command-line words ("sheets"): ordinary words in other families' data (bed
    # sheets), so they are looked for in identifiers and import paths only
    aliases = {n.lower().replace(" ", "") for n in spec.aliases} - names
    entry = next(ref for ref in FAMILY_SPECS if load_ref(ref) is spec)  # its one line
    found = []
    for path in SOURCES:
        if _own(path, spec.name):
            continue
        identifiers = set(code_words(path, strings=False))
        for line, word in code_words(path):
            text = word.lower().replace(" ", "")
            needles = names | aliases if (line, word) in identifiers else names
            if word != entry and any(n in text for n in needles):
                found.append(f"{path.relative_to(PACKAGE)}:{line}: {word[:60]!r}")
    assert not found, "\n".join(found)
