"""The generated tool library: fixed by seed, ToolBench-shaped, chainable, with valid collections."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

from toolgym.simulators.tool_library.domains import (
    CATEGORIES,
    CATEGORY_NAMES,
    THEMES,
    check_grammars,
    get_category,
)
from toolgym.simulators.tool_library.domains.wording import API_VERBS
from toolgym.simulators.tool_library.generator import HOST_DOMAIN, generate_library
from toolgym.simulators.tool_library.model import ToolDoc, ToolLibrary
from toolgym.simulators.tool_library.naming import standardize

TOOLBENCH_APIS = 16464
LEAVES = {"str", "int", "float", "bool"}
ID_KEY = re.compile(r"^[a-z][a-z0-9_]*_id$")


@pytest.fixture(scope="module")
def library() -> ToolLibrary:
    return generate_library()


@pytest.fixture(scope="module")
def big_library() -> ToolLibrary:
    return generate_library(0, TOOLBENCH_APIS)


def _digest(lib: ToolLibrary) -> str:
    text = json.dumps([t.to_json() for t in lib], sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _listed_ids(template: Any, inside_list: bool = False) -> set[str]:
    """The ``*_id`` keys of the entities a template lists (inside a list element)."""
    found: set[str] = set()
    if isinstance(template, dict):
        for key, value in template.items():
            if inside_list and ID_KEY.match(key):
                found.add(key)
            found |= _listed_ids(value, inside_list)
    elif isinstance(template, list):
        for item in template:
            found |= _listed_ids(item, True)
    return found


def _check_template(template: Any, where: str) -> None:
    if isinstance(template, dict):
        assert template, f"{where}: empty object"
        for key, value in template.items():
            if key == "_list_length":
                assert type(value) is int and 1 <= value <= 5, f"{where}: _list_length {value!r}"
            else:
                _check_template(value, f"{where}.{key}")
    elif isinstance(template, list):
        assert len(template) == 1 and isinstance(template[0], dict), f"{where}: list {template!r}"
        assert "_list_length" in template[0], f"{where}: list element without _list_length"
        _check_template(template[0], f"{where}[]")
    else:
        assert template in LEAVES, f"{where}: leaf {template!r}"


def test_grammars_are_complete() -> None:
    assert check_grammars() == []
    assert tuple(c.name for c in CATEGORIES) == CATEGORY_NAMES
    assert len(set(CATEGORY_NAMES)) == 49
    for cat in CATEGORIES:
        assert 2 <= len(cat.resources) <= 5, cat.name
        assert len(cat.operations) >= 2, cat.name
        for res in cat.resources:
            assert 4 <= len(res.fields) <= 10, res.singular
            assert res.id_name == res.singular.replace(" ", "_") + "_id"
            assert all(f.name == f.name.lower() and " " not in f.name for f in res.fields)
    assert 35 <= len(THEMES) <= 50
    assert all(2 <= len(t.categories) <= 4 for t in THEMES)
    with pytest.raises(KeyError, match="expected one of the 49 category names"):
        get_category("Nope")


def test_same_seed_same_library_other_seed_differs() -> None:
    first = [t.to_json() for t in generate_library(7, 600)]
    generate_library.cache_clear()
    again = [t.to_json() for t in generate_library(7, 600)]
    assert first == again
    assert first != [t.to_json() for t in generate_library(8, 600)]


def test_identical_across_processes() -> None:
    code = (
        "import hashlib, json\n"
        "from toolgym.simulators.tool_library.generator import generate_library\n"
        "lib = generate_library(3, 300)\n"
        "text = json.dumps([t.to_json() for t in lib], sort_keys=True, ensure_ascii=True)\n"
        "print(hashlib.sha256(text.encode('utf-8')).hexdigest())\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == _digest(generate_library(3, 300))


def test_default_size_meets_the_minimums(library: ToolLibrary) -> None:
    assert set(library.categories) == set(CATEGORY_NAMES)
    assert len(library) >= 1000
    assert library.num_apis == 4000
    assert all(len(tools) >= 5 for tools in library.categories.values())
    assert all(2 <= len(t.apis) <= 8 for t in library)
    assert 3.5 <= library.num_apis / len(library) <= 4.5


def test_toolbench_size_has_unique_names(big_library: ToolLibrary) -> None:
    assert big_library.num_apis == TOOLBENCH_APIS
    names = [t.standard_name for t in big_library]
    assert len(names) == len(set(names))
    assert all(t.standard_name == standardize(t.name) for t in big_library)
    for tool in big_library:
        api_names = [a.name for a in tool.apis]
        assert len(api_names) == len(set(api_names)), tool.name
        assert len({standardize(n) for n in api_names}) == len(api_names), tool.name


def test_every_tool_can_chain_an_id(big_library: ToolLibrary) -> None:
    for tool in big_library:
        pairs = [
            (lister.name, user.name)
            for lister in tool.apis
            for user in tool.apis
            if user is not lister and _listed_ids(lister.template) & {p.name for p in user.required}
        ]
        assert pairs, f"{tool.name}: no API requires an id another API lists"


def test_every_required_id_is_listed_by_the_tool(big_library: ToolLibrary) -> None:
    for tool in big_library:
        listed = set().union(*(_listed_ids(a.template) for a in tool.apis))
        for api in tool.apis:
            for p in api.required:
                if p.name.endswith("_id"):
                    assert p.name in listed, f"{tool.name}/{api.name}: {p.name} is never listed"


def test_api_descriptions_start_with_a_verb(big_library: ToolLibrary) -> None:
    for tool in big_library:
        for api in tool.apis:
            first = re.split(r"(?<=\.)\s", api.description, maxsplit=1)[0]
            assert first.endswith("."), f"{tool.name}/{api.name}: {api.description!r}"
            verb = first.split()[0]
            assert verb[0].isupper() and verb in API_VERBS, f"{tool.name}: {first!r}"


def test_templates_have_allowed_leaves(big_library: ToolLibrary) -> None:
    for tool in big_library:
        for api in tool.apis:
            assert isinstance(api.template, dict)
            _check_template(api.template, f"{tool.name}/{api.name}")


def test_apis_taking_an_id_return_it(library: ToolLibrary) -> None:
    for tool in library:
        for api in tool.apis:
            data = api.template.get("data")
            body = data if isinstance(data, dict) else api.template
            for p in api.required:
                if p.name.endswith("_id"):
                    assert p.name in body, f"{tool.name}/{api.name}: {p.name} not returned"


def test_parameters(big_library: ToolLibrary) -> None:
    types: Counter[str] = Counter()
    for tool in big_library:
        for api in tool.apis:
            names = [p.name for p in api.params]
            assert len(names) == len(set(names)), f"{tool.name}/{api.name}: {names}"
            for p in api.params:
                types[p.type] += 1
                assert p.description, f"{tool.name}/{api.name}: {p.name} has no description"
                assert p.default not in (None, ""), f"{tool.name}/{api.name}: {p.name}"
                if p.type == "ENUM":
                    assert p.enum and p.default in p.enum
            assert "{" not in api.url and api.url.startswith(f"https://{tool.host}/")
            assert api.method in ("GET", "POST")
    assert types["STRING"] > types["NUMBER"] > types["ENUM"] > 0
    assert types["string"] > 0 and types["BOOLEAN"] > 0 and types["DATE (YYYY-MM-DD)"] > 0


def test_tools_share_parameter_names_within_a_category(library: ToolLibrary) -> None:
    for category, tools in library.categories.items():
        uses = Counter(
            name
            for tool in tools
            for name in {p.name for a in tool.apis for p in a.params}
            if name not in ("limit", "page", "sort", "lang")
        )
        assert uses.most_common(1)[0][1] >= 2, category


def test_tool_documents(library: ToolLibrary) -> None:
    for tool in library:
        assert tool.host == f"{tool.standard_name.replace('_', '-')}.{HOST_DOMAIN}"
        sentences = re.findall(r"[^.!?]+[.!?]", tool.description)
        assert 1 <= len(sentences) <= 4, tool.description
        assert tool.description.endswith(".")
    text = json.dumps([t.to_json() for t in library])
    assert "rapidapi" not in text.lower() and "rapid_api" not in text.lower()


def test_toolbench_json_round_trips(library: ToolLibrary) -> None:
    docs = [t.to_json() for t in library]
    loaded = json.loads(json.dumps(docs))
    assert loaded == docs
    first = loaded[0]
    assert set(first) >= {"tool_name", "tool_description", "api_list", "category_name"}
    assert all("template_response" in api for api in first["api_list"])


def _collection_themes(lib: ToolLibrary) -> dict[str, tuple[str, ...]]:
    found = {}
    for name in lib.collections:
        theme = max((t for t in THEMES if name.startswith(t.name)), key=lambda t: len(t.name))
        found[name] = theme.categories
    return found


@pytest.mark.parametrize("size", [4000, TOOLBENCH_APIS])
def test_collections(size: int) -> None:
    lib = generate_library(0, size)
    if size == 4000:
        assert 60 <= len(lib.collections) <= 150
    else:
        assert len(lib.collections) > 150
    themes = _collection_themes(lib)
    for name, tools in lib.collections.items():
        categories = {t.category for t in tools}
        assert 3 <= len(tools) <= 12, name
        assert len(categories) >= 2, name
        assert categories <= set(themes[name]), name
    assert all(len(t.collections) <= 2 for t in lib)
    assert all(len(set(t.collections)) == len(t.collections) for t in lib)


def test_small_sizes_and_errors() -> None:
    for size in (2, 5, 9, 31):
        lib = generate_library(1, size)
        assert lib.num_apis == size
        assert all(len(t.apis) >= 2 for t in lib)
    with pytest.raises(ValueError, match="at least 2, got 1"):
        generate_library(0, 1)


def test_example_tool_shape(library: ToolLibrary) -> None:
    tool: ToolDoc = library.tools[0]
    doc = tool.to_json()
    assert doc["standardized_name"] == tool.standard_name
    assert library.tool(tool.name) is tool
