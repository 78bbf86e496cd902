"""ToolBench and StableToolBench loaders: tool folders, query files, response caches, repairs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolgym.families.rapid_api.world import loaders
from toolgym.families.rapid_api.world.loaders import (
    REPAIR_KINDS,
    find_api,
    load_minimal_queries,
    load_query_file,
    load_response_cache,
    load_toolbench_tools,
    write_toolbench_tools,
)
from toolgym.families.rapid_api.world.toolbench_files import STANDARD_PARAM_TYPES, trim_bulky
from toolgym.simulators.tool_library.canonical import canonical_key
from toolgym.simulators.tool_library.model import (
    ApiDoc,
    ParamDoc,
    RepairReport,
    ToolDoc,
    ToolLibrary,
)

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples"
STABLE_G1 = (
    SAMPLES / "stabletoolbench/solvable_queries_example/test_instruction/G1_instruction.json"
)
TOOLBENCH_G1 = SAMPLES / "toolbench/data_example/instruction/G1_query.json"


def sample(path: Path) -> Path:
    if not path.is_file():
        pytest.skip(f"the original-format sample {path} is absent")
    return path


def kinds(report: RepairReport) -> dict[str, int]:
    counts = report.counts()
    assert set(counts) <= set(REPAIR_KINDS), set(counts) - set(REPAIR_KINDS)
    return counts


def details(report: RepairReport, kind: str) -> list[str]:
    return [f"{r.source}: {r.detail}" for r in report.repairs if r.kind == kind]


def param(name: str, type_: str = "STRING", default: Any = "") -> dict[str, Any]:
    return {"name": name, "type": type_, "description": "", "default": default}


def api(name: str, required: Any = (), optional: Any = (), **extra: Any) -> dict[str, Any]:
    entry = {"name": name, "url": "", "description": "d", "method": "GET"}
    lists = [list(x) if isinstance(x, tuple) else x for x in (required, optional)]
    entry.update(required_parameters=lists[0], optional_parameters=lists[1])
    entry.update(extra)
    return entry


def tool(name: str, *apis: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"tool_name": name, "tool_description": "t", "api_list": list(apis), **extra}


def put(root: Path, relative: str, content: Any) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    data = content if isinstance(content, bytes) else json.dumps(content).encode()
    path.write_bytes(data)
    return path


# --------------------------------------------------------------------------------------------
# Samples.


def test_stabletoolbench_g1_instruction_sample() -> None:
    raw = json.loads(sample(STABLE_G1).read_text(encoding="utf-8"))
    queries, library = load_query_file(STABLE_G1)
    assert [q.query_id for q in queries] == [588, 608, 1073]
    entries = [e for record in raw for e in record["api_list"]]
    assert len(library) == len({e["tool_name"] for e in entries}) == 3
    assert library.num_apis == len({(e["tool_name"], e["api_name"]) for e in entries}) == 23
    assert [len(q.api_list) for q in queries] == [len(r["api_list"]) for r in raw]
    assert all(q.categories == ["Data"] and q.meta == {} for q in queries)
    kick = library.tool("kick_com_api_kick_api")
    assert kick.name == "Kick.com API | Kick API" and kick.category == "Data"
    assert queries[1].relevant_apis == [
        ("kick_com_api_kick_api", "Get Channel Clips"),
        ("kick_com_api_kick_api", "Get Channel Details"),
    ]
    assert queries[0].relevant_apis[0] == ("theclique", "Transfermarkt search")
    assert queries[0].api_list[0] == ("theclique", "Songkick concert")
    concert = library.tool("TheClique").api("Songkick concert")
    assert concert is not None and concert.template == entries[0]["template_response"]
    assert concert.required[0] == ParamDoc(
        "id_conc", "string", "", "40698227-lumineers-at-aware-super-theatre"
    )
    # the one template stored as a JSON string is cut short in the file: reported, no template
    overview = library.tool("theclique").api("Get Artist Overview")
    assert overview is not None and overview.template is None
    assert details(library.report, "bad_template")[0].find("Get Artist Overview") > 0
    odd = [
        p
        for e in entries
        for p in e["required_parameters"] + e["optional_parameters"]
        if p["type"] not in STANDARD_PARAM_TYPES
    ]
    assert kinds(library.report) == {"bad_template": 1, "odd_parameter_type": len(odd)}


def test_toolbench_g1_query_sample() -> None:
    queries, library = load_query_file(sample(TOOLBENCH_G1))
    assert [q.query_id for q in queries] == [1, 2, 3]
    squake = library.tool("SQUAKE")
    assert (squake.standard_name, squake.category, squake.description) == (
        "squake",
        "Logistics",
        "",
    )
    assert [a.name for a in squake.apis] == ["Checkhealth", "Projects"]
    assert squake.apis[0].description == " " and squake.apis[0].method == "GET"
    assert queries[0].relevant_apis == [("squake", "Checkhealth"), ("squake", "Projects")]
    assert queries[0].query.startswith("I'm working on a logistics project")
    assert len(library.report) == 0


def test_minimal_queries_resolve_against_a_library(tmp_path: Path) -> None:
    raw = json.loads(sample(TOOLBENCH_G1).read_text(encoding="utf-8"))
    _, library = load_query_file(TOOLBENCH_G1)
    minimal = [
        {
            "query": r["query"],
            "query_id": r["query_id"],
            "api_list": [
                {k: e[k] for k in ("category_name", "tool_name", "api_name")} for e in r["api_list"]
            ],
        }
        for r in raw
    ]
    minimal[0]["api_list"].append({"category_name": "X", "tool_name": "SQUAKE", "api_name": "Nope"})
    minimal[1]["api_list"][0]["api_name"] = "checkhealth"  # a function-name form resolves too
    minimal[2]["relevant APIs"] = [["SQUAKE", "Projects"], ["Missing", "Thing"]]
    path = put(tmp_path, "G1_min.json", minimal)
    report = RepairReport()
    queries = load_minimal_queries(path, library, report=report)
    assert [q.api_list for q in queries] == [
        [("squake", "Checkhealth"), ("squake", "Projects")]
    ] * 3
    assert queries[2].relevant_apis == [("squake", "Projects")]
    assert queries[0].categories == ["Logistics"]
    assert kinds(report) == {"unresolved_api": 1, "unresolved_relevant_api": 1}


# --------------------------------------------------------------------------------------------
# Tool folders.


def quirky_folder(root: Path) -> None:
    put(root, "Data/plain.json", tool("Plain", api("a", [param("q")])))
    put(root, "Data/plain/api.py", b"def a(): pass\n")
    put(root, "Data/notes.txt", b"ignored")
    put(root, "Data/bom.json", b"\xef\xbb\xbf" + json.dumps(tool("Bom")).encode())
    put(root, "Data/crlf.json", json.dumps(tool("Crlf"), indent=1).replace("\n", "\r\n").encode())
    put(
        root,
        "Data/latin.json",
        json.dumps(tool("Caf\udce9"), ensure_ascii=False).encode("utf-8", "surrogateescape"),
    )
    put(root, "Data/broken.json", b'{"tool_name": "Broken", "api_list": [')
    put(root, "Data/listed.json", [1, 2])
    put(root, "Data/no_apis.json", {"tool_name": "No APIs", "tool_description": None})
    put(
        root,
        "Data/untitled.json",
        {"title": "Untitled Tool", "api_list": [], "tool_description": 5},
    )
    odd_params = [
        "",
        7,
        {"type": "STRING"},
        {"name": "no_type", "description": None},
        param("lower", "string"),
        param("day", "DATE (YYYY-MM-DD)"),
        param("hue", "color"),
        param("n", "NUMBER", 3),
        param("flag", "BOOLEAN", True),
        param("ratio", "NUMBER", 0.5),
        param("ids", "ARRAY", [1, 2]),
        param("obj", "OBJECT", {"a": 1}),
        param("nothing", "STRING", None),
        param("lower", "STRING"),
        {**param("e", "ENUM"), "enum": "a|b"},
    ]
    template = json.dumps({"x": "int"})
    apis = [
        api("params", odd_params, [param("lower"), param("opt", "INTEGER", "1"), param("opt")]),
        api("nulls", None, [""], description=None, template_response=None),
        api("nulls", [param("second")]),
        {"name": "no method", "required_parameters": [], "optional_parameters": []},
        api("lower method", method="get ", description=12),
        {"name": "no lists", "method": "GET"},
        api("bad list", {"name": "x"}, template_response=template),
        api("bad template", template_response="{not json"),
        api("scalar template", template_response=3),
        "not an api",
        {"description": "nameless"},
    ]
    put(root, "Data/quirks.json", tool("Quirks", *apis))
    put(root, "News_Media/plain.json", tool("Plain", api("b")))
    put(root, "News_Media/named.json", {**tool("Named", api("c")), "category_name": "News/Media"})


def test_every_quirk_of_a_tools_folder_loads_and_is_reported(tmp_path: Path) -> None:
    quirky_folder(tmp_path)
    library = load_toolbench_tools(tmp_path)
    names = [t.standard_name for t in library]
    assert names[:3] == ["bom", "crlf", "latin"] and "broken" not in names and "listed" not in names
    assert names[-2:][0] == "named" and names[-1].startswith("plain_") and len(names[-1]) == 12
    assert library.tool(names[-1]).category == "News_Media"  # the folder name when no better
    assert library.tool("named").category == "News/Media"
    assert library.tool("latin").name == "Caf\ufffd"
    assert library.tool("no_apis").apis == () and library.tool("no_apis").description == ""
    untitled = library.tool("untitled")
    assert (untitled.name, untitled.description) == ("Untitled Tool", "5")
    quirks = library.tool("quirks")
    assert [a.name for a in quirks.apis] == [
        "params", "nulls", "no method", "lower method", "no lists", "bad list",
        "bad template", "scalar template",
    ]  # fmt: skip
    params = quirks.api("params")
    assert params is not None
    by_name = {p.name: p for p in params.params}
    assert [p.name for p in params.required] == [
        "no_type", "lower", "day", "hue", "n", "flag", "ratio", "ids", "obj", "nothing", "e",
    ]  # fmt: skip
    assert [p.name for p in params.optional] == ["opt"]
    assert (by_name["no_type"].type, by_name["no_type"].description) == ("STRING", "")
    assert (by_name["lower"].type, by_name["lower"].kind) == ("string", "string")
    assert (by_name["day"].kind, by_name["hue"].kind, by_name["opt"].kind) == (
        "date",
        "string",
        "integer",
    )
    assert [by_name[k].default for k in ("n", "flag", "ratio", "ids", "obj", "nothing")] == [
        3, True, 0.5, [1, 2], {"a": 1}, None,
    ]  # fmt: skip
    assert by_name["e"].enum is None and by_name["opt"].default == "1"
    nulls = quirks.api("nulls")
    assert nulls is not None and (nulls.params, nulls.description, nulls.template) == ((), "", None)
    method = quirks.api("lower method")
    assert method is not None and (method.method, method.description) == ("GET", "12")
    assert quirks.api("no method").method == "GET"  # type: ignore[union-attr]
    assert quirks.api("bad list").template == {"x": "int"}  # type: ignore[union-attr]
    assert quirks.api("bad template").template is None  # type: ignore[union-attr]
    assert kinds(library.report) == {
        "bad_api": 1,
        "bad_description": 2,
        "bad_encoding": 1,
        "bad_enum": 1,
        "bad_json": 1,
        "bad_parameter": 1,
        "bad_parameters": 1,
        "bad_template": 2,
        "bom": 1,
        "crlf": 1,
        "duplicate_api": 1,
        "duplicate_parameter": 2,
        "duplicate_tool": 1,
        "empty_parameter": 2,
        "missing_api_list": 1,
        "missing_api_name": 1,
        "missing_method": 1,
        "missing_parameter_name": 1,
        "missing_parameter_type": 1,
        "missing_parameters": 2,
        "missing_tool_name": 1,
        "not_a_tool": 1,
        "null_description": 3,
        "null_parameters": 1,
        "odd_method": 1,
        "odd_parameter_type": 2,
        "required_and_optional": 1,
        "template_as_string": 1,
        "unknown_parameter_type": 1,
    }
    assert "'opt'" in details(library.report, "duplicate_parameter")[1]


def test_unreadable_files_are_skipped_and_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    put(tmp_path, "Data/fine.json", tool("Fine"))
    put(tmp_path, "Data/locked.json", tool("Locked"))
    real_open = open

    def guarded(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path).endswith("locked.json"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(loaders, "open", guarded, raising=False)
    library = load_toolbench_tools(tmp_path)
    assert [t.standard_name for t in library] == ["fine"]
    assert kinds(library.report) == {"unreadable_file": 1}


def test_loader_arguments_are_checked(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="expected a ToolBench tools folder"):
        load_toolbench_tools(tmp_path / "missing")
    with pytest.raises(ValueError, match="positive max_file_bytes, got 0"):
        load_toolbench_tools(tmp_path, max_file_bytes=0)


def bulky_tool() -> dict[str, Any]:
    huge = {"rows": [{"text": 'quote " and } ] { [', "n": i} for i in range(3000)]}
    first = api("a", [param("q")], test_endpoint=huge, schema=huge, code="x" * 5000)
    first["template_response"] = {"code": "str", "schema": {"test_endpoint": "int"}}
    second = api("b", convert_code="y" * 5000, test_endpoint='plain \\" text', statuscode=200)
    return tool("Bulky", first, second, host="bulky.example.com")


def test_large_files_are_read_without_their_bulky_fields(tmp_path: Path) -> None:
    path = put(tmp_path, "Data/bulky.json", json.dumps(bulky_tool(), indent=2).encode())
    put(tmp_path, "Data/small.json", tool("Small", api("s")))
    whole = load_toolbench_tools(tmp_path)
    assert len(whole.report) == 0
    capped = load_toolbench_tools(tmp_path, max_file_bytes=20_000)
    assert path.stat().st_size > 200_000
    assert capped.tools == whole.tools  # nothing a tool keeps is lost
    assert capped.tool("bulky").apis[0].template == {
        "code": "str",
        "schema": {"test_endpoint": "int"},
    }
    assert kinds(capped.report) == {"large_file_trimmed": 1}
    tiny = load_toolbench_tools(tmp_path, max_file_bytes=300)
    assert [t.standard_name for t in tiny] == ["small"]
    assert kinds(tiny.report) == {"file_too_large": 1}
    put(tmp_path, "Data/cut.json", json.dumps(bulky_tool()).encode()[:-5000])
    cut = load_toolbench_tools(tmp_path, max_file_bytes=20_000)
    assert kinds(cut.report) == {"bad_json": 1, "large_file_trimmed": 1}


def test_trim_bulky_keeps_valid_json() -> None:
    doc = {"api_list": [{"name": "a", "schema": {"x": ["]"]}, "code": "c", "url": "u"}]}
    trimmed = trim_bulky(json.dumps(doc).encode(), 10_000)
    assert trimmed is not None
    assert json.loads(trimmed) == {
        "api_list": [{"name": "a", "schema": None, "code": None, "url": "u"}]
    }
    assert trim_bulky(json.dumps(doc).encode(), 10) is None


def sample_library() -> ToolLibrary:
    params = (
        ParamDoc("q", "STRING", "Query é", "birthday"),
        ParamDoc("n", "NUMBER", "", 3),
        ParamDoc("on", "BOOLEAN", "", True),
        ParamDoc("when", "DATE (YYYY-MM-DD)", "", None),
    )
    tools = [
        ToolDoc(
            "Kick.com API | Kick API",
            "kick_com_api_kick_api",
            "Kick 直播",
            "Data",
            (
                ApiDoc("Get Channel Clips", "GET", "https://x/clips", "Clips", params[:2]),
                ApiDoc(
                    "id", "POST", "", "", (), params[2:], {"a": [{"b": "int", "_list_length": 2}]}
                ),
            ),
            collections=("Streaming",),
            host="kick.example.com",
        ),
        ToolDoc(
            "News API",
            "news_api",
            "",
            "News/Media",
            (ApiDoc("top", optional=(ParamDoc("kind", "ENUM", "", "a", ("a", "b")),)),),
        ),
        ToolDoc("Empty", "empty", "no APIs", "Artificial Intelligence/Machine Learning", ()),
    ]
    return ToolLibrary(tools)


def test_write_then_load_round_trips(tmp_path: Path) -> None:
    library = sample_library()
    written = write_toolbench_tools(library, tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in written] == [
        "Data/kick_com_api_kick_api.json",
        "News_Media/news_api.json",
        "Artificial_Intelligence_Machine_Learning/empty.json",
    ]
    text = written[0].read_text(encoding="utf-8")
    assert "直播" in text and '\n  "tool_name"' in text
    loaded = load_toolbench_tools(tmp_path)
    assert {t.standard_name: t for t in loaded} == {t.standard_name: t for t in library}
    order = sorted(library, key=lambda t: (t.category_dir, t.standard_name))
    assert loaded.tools == tuple(order)
    assert len(loaded.report) == 0
    again = tmp_path / "again"
    write_toolbench_tools(loaded, again)
    assert load_toolbench_tools(again).tools == loaded.tools


def test_write_refuses_names_that_are_not_file_names(tmp_path: Path) -> None:
    bad = ToolDoc("Bad", "a/b", "", "Data", ())
    with pytest.raises(ValueError, match=r"standardized name usable as a file name .* got 'a/b'"):
        write_toolbench_tools([bad], tmp_path)


# --------------------------------------------------------------------------------------------
# Query files.


def entry(tool_name: str, api_name: str, **extra: Any) -> dict[str, Any]:
    return {
        "category_name": "Data",
        "tool_name": tool_name,
        "api_name": api_name,
        "api_description": "",
        "required_parameters": [param("q")],
        "optional_parameters": [],
        "method": "GET",
        **extra,
    }


def test_query_file_quirks_and_forms(tmp_path: Path) -> None:
    records = {
        "7": {
            "query": "first",
            "api_list": [
                entry("My Tool", "a", template_response='{"x": "str"}', tool_description="T"),
                entry("My Tool", "b"),
                entry("My Tool", "b"),
                "junk",
                entry("", "c"),
            ],
            "relevant APIs": [["My Tool", "a"], ["My Tool", "z"], ["only one"]],
            "extra_key": 1,
        },
        "8": {
            "query_id": 8,
            "query": None,
            "api_list": [
                entry("My Tool", "a", method="POST"),
                {**entry("my tool", "c"), "category_name": "Other"},
            ],
            "relevant APIs": "nope",
        },
        "9": ["not", "a", "query"],
    }
    path = put(tmp_path, "by_id.json", records)
    queries, library = load_query_file(path)
    assert [q.query_id for q in queries] == [7, 8]
    assert queries[0].meta == {"extra_key": 1} and queries[1].query == ""
    assert queries[0].api_list == [("my_tool", "a"), ("my_tool", "b")]
    assert queries[0].relevant_apis == [("my_tool", "a"), ("my_tool", "z")]
    my_tool = library.tool("my_tool")
    assert (my_tool.name, my_tool.description, my_tool.category) == ("My Tool", "T", "Data")
    assert [a.name for a in my_tool.apis] == ["a", "b", "c"]
    assert my_tool.apis[0].method == "GET" and my_tool.apis[0].template == {"x": "str"}
    assert kinds(library.report) == {
        "bad_api": 1,
        "bad_query": 1,
        "bad_relevant_api": 2,
        "conflicting_api": 1,
        "conflicting_tool": 1,
        "duplicate_offer": 1,
        "missing_query": 1,
        "missing_query_id": 1,
        "missing_tool_name": 1,
        "relevant_api_not_offered": 1,
        "template_as_string": 1,
    }
    lines = [json.dumps(r) for r in records.values() if isinstance(r, dict)]
    jsonl = put(tmp_path, "q.jsonl", "\n".join([lines[0], "{oops", "", lines[1]]).encode())
    report = RepairReport()
    again, _ = load_query_file(jsonl, report=report)
    assert [q.query_id for q in again] == [0, 8] and report.counts()["bad_line"] == 1
    single = put(tmp_path, "one.json", {"query": "x", "query_id": 3, "api_list": []})
    assert load_query_file(single)[0][0].query_id == 3
    with pytest.raises(ValueError, match="expected a JSON list of queries"):
        load_query_file(put(tmp_path, "bad.json", b"not json at all"))
    with pytest.raises(ValueError, match="got a JSON int"):
        load_query_file(put(tmp_path, "int.json", b"3"))


# --------------------------------------------------------------------------------------------
# Response caches.


def cache_library() -> ToolLibrary:
    number = (ParamDoc("q", "NUMBER"),)
    units = (ParamDoc("units", "STRING", "", "metric"),)
    apis = (ApiDoc("Get by id", required=number), ApiDoc("id", optional=units))
    return ToolLibrary([ToolDoc("Weather API", "weather_api", "", "Data", apis)])


def test_response_cache_is_rekeyed_canonically(tmp_path: Path) -> None:
    library = cache_library()
    folder = tmp_path / "Data" / "weather_api_for_Data"
    ok = {"error": "", "response": "one"}
    put(folder, "get_by_id.json", {
        "{'q': 1}": {"error": "", "response": "int"},
        "{'q': '1'}": ok,
        "{'q': 1.0}": ok,
        "{'q': 2}": ok,
        "not a literal(": ok,
        "[1, 2]": ok,
        "{'q': '" + "x" * 100_001 + "'}": ok,
        "{'q': 3}": "not a reply",
    })  # fmt: skip
    put(folder, "is_id.json", {"{}": ok, "{'units': 'metric'}": ok})
    put(folder, "gone.json", {"{}": ok})
    put(tmp_path, "Data/other_for_Data/x.json", {"{'a': 1}": ok})
    put(tmp_path, "Data/odd/x.json", {"{'a': 1}": ok})
    put(tmp_path, "Data/bad_for_Data/list.json", [1])
    report = RepairReport()
    cache = load_response_cache(tmp_path, library, report=report)
    by_id = library.tool("weather_api").api("Get by id")
    ident = library.tool("weather_api").api("id")
    # "{'q': '1'}" sorts first of the three keys that become {"q": 1}
    assert cache[canonical_key("weather_api", "Get by id", {"q": 1}, by_id)] == ok
    assert cache[canonical_key("weather_api", "Get by id", {"q": "2"}, by_id)] == ok
    assert cache[canonical_key("weather_api", "id", {}, ident)] == ok
    assert canonical_key("weather_api", "id", {}, ident).endswith('{"units":"metric"}]')
    assert cache[canonical_key("weather_api", "gone", {})] == ok
    assert cache[canonical_key("other", "x", {"a": 1})] == ok
    assert cache[canonical_key("odd", "x", {"a": 1})] == ok
    assert len(cache) == 6
    assert kinds(report) == {
        "bad_cache_file": 1,
        "bad_cache_key": 2,
        "bad_cache_reply": 1,
        "cache_collapsed": 2,
        "cache_conflict": 1,
        "cache_key_too_long": 1,
        "odd_cache_folder": 1,
        "unknown_cache_api": 1,
        "unknown_cache_tool": 3,
    }
    raw = load_response_cache(tmp_path)
    # without documents "1" stays a string; 1.0 is 1 and sorts before it
    assert raw[canonical_key("weather_api", "get_by_id", {"q": 1})] == ok
    assert raw[canonical_key("weather_api", "get_by_id", {"q": "1"})] == ok
    with pytest.raises(FileNotFoundError, match="expected a response cache folder"):
        load_response_cache(tmp_path / "missing")


def test_find_api_by_display_or_function_name() -> None:
    weather = cache_library().tool("weather_api")
    assert find_api(weather, "Get by id") is weather.apis[0]
    assert find_api(weather, "get_by_id") is weather.apis[0]
    assert find_api(weather, "is_id") is weather.apis[1]
    assert find_api(weather, "id") is weather.apis[1]
    assert find_api(weather, "nothing") is None
