"""The RapidAPI family: function names and schemas, actions, status codes, scoring and tasks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

from toolgym.envs.protocol import task_env
from toolgym.families.rapid_api.actions import parse_actions
from toolgym.families.rapid_api.checker import mentions, unobserved_ids
from toolgym.families.rapid_api.functions import FINISH_TOOL, api_tools
from toolgym.families.rapid_api.status import OBSERVATION_CHARS
from toolgym.families.rapid_api.tasks.suite import SUITE
from toolgym.simulators.tool_library.model import ApiDoc, ParamDoc, ToolDoc, ToolLibrary
from toolgym.tools.errors import ToolCallError
from toolgym.tools.faults import FaultPlan

ENV_ID = "toolbench/RapidAPI-v1"


def _library() -> ToolLibrary:
    long = "x" * 70
    return ToolLibrary(
        [
            ToolDoc(
                "Kick.com API | Kick API",
                "kick_com_api_kick_api",
                "Streams.",
                "Video/Images",
                (
                    ApiDoc(
                        "/channels/{id}",
                        description="Get a channel by id.",
                        required=(ParamDoc("id", "STRING", "Channel id.", "abc"),),
                        optional=(ParamDoc("limit", "NUMBER", "How many.", "5"),),
                    ),
                    ApiDoc(
                        "Only Optional",
                        optional=(ParamDoc("mode", "ENUM", "A mode.", "a", enum=("a", "b")),),
                    ),
                    ApiDoc(f"{long} one"),
                    ApiDoc(f"{long} two"),
                ),
            )
        ]
    )


def test_function_names_follow_toolbench_and_stay_unique() -> None:
    tools = {t.api_name: t for t in api_tools(_library())}
    assert tools["/channels/{id}"].name == "channels_id_for_kick_com_api_kick_api"
    # id is renamed as ToolBench renames it, and maps back to the API's name
    assert tools["/channels/{id}"].param_names == {"is_id": "id", "limit": "limit"}
    long_names = [t.name for name, t in tools.items() if name.startswith("x")]
    assert all(len(n) <= 64 for n in long_names) and len(set(long_names)) == 2
    assert all(n.startswith("x" * 40) for n in long_names)  # the beginning is kept


def test_strict_and_upstream_schemas() -> None:
    strict = {t.api_name: t.openai_schema()["function"] for t in api_tools(_library())}
    channel = strict["/channels/{id}"]["parameters"]
    assert channel["required"] == ["is_id"]
    assert channel["properties"]["limit"] == {
        "type": "number",
        "description": "How many. Example: 5.",
        "default": "5",
    }
    assert channel["additionalProperties"] is False
    only = strict["Only Optional"]["parameters"]
    assert only["required"] == [] and only["properties"]["mode"]["enum"] == ["a", "b"]
    assert strict["/channels/{id}"]["description"] == (
        'This is the subfunction for tool "kick_com_api_kick_api", you can use this tool.'
        'The description of this function is: "Get a channel by id."'
    )
    upstream = {
        t.api_name: t.openai_schema()["function"] for t in api_tools(_library(), "upstream")
    }
    params = upstream["/channels/{id}"]["parameters"]
    assert params["properties"]["limit"] == {
        "type": "integer",
        "description": "How many.",
        "example_value": "5",
    }
    assert params["required"] == ["is_id"] and params["optional"] == ["limit"]
    assert upstream["Only Optional"]["parameters"]["properties"]["mode"]["type"] == "string"
    finish = FINISH_TOOL.openai_schema()["function"]["parameters"]
    assert finish["properties"]["return_type"]["enum"] == ["give_answer", "give_up_and_restart"]
    assert finish["required"] == ["return_type"]


def test_hiding_examples_drops_those_shown_and_makes_one_function_per_set_hidden() -> None:
    tools = {t.api_name: t for t in api_tools(_library())}
    channel = tools["/channels/{id}"]
    assert channel.example_keys == ("abc", "5")
    assert channel.without_examples({"xyz"}) is channel and channel.without_examples(()) is channel
    hidden = channel.without_examples({"5", "other"})
    assert [d.default for d in hidden.docs] == ["abc", None]
    assert "Example: 5" not in hidden.toolbench_doc() and "Example: abc" in hidden.toolbench_doc()
    assert channel.without_examples(["5"]) is hidden  # the same function for the same set
    both = channel.without_examples(frozenset({"abc", "5"}))
    assert both is not hidden and [d.default for d in both.docs] == [None, None]
    assert [d.default for d in channel.docs] == ["abc", "5"]  # the function itself keeps them
    assert tools["Only Optional"].without_examples({"a"}).docs[0].default is None


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "f", "arguments": {"q": 1}}',
        '{"name": "f", "arguments": "{\\"q\\": 1}"}',
        '{"type": "function", "function": {"name": "f", "arguments": {"q": 1}}}',
        '{"role": "assistant", "function_call": {"name": "f", "arguments": "{\\"q\\": 1}"}}',
        '{"role": "assistant", "tool_calls": [{"type": "function", '
        '"function": {"name": "f", "arguments": "{\\"q\\": 1}"}}]}',
        'Thought: look it up\nAction: f\nAction Input: {"q": 1}\nObservation: made up',
        'f\nAction Input: {"q": 1}',
    ],
)
def test_every_call_shape_reads_the_same(text: str) -> None:
    calls = parse_actions(text)
    assert [(c.name, c.arguments) for c in calls] == [("f", {"q": 1})]


@pytest.mark.parametrize("text", ["", "hello", "Action: f\nAction Input: not json", "[]", "3"])
def test_bad_actions_are_agent_errors(text: str) -> None:
    with pytest.raises(ToolCallError):
        parse_actions(text)


def _episode(task_id: str = "G1-000", env_id: str = ENV_ID, **kwargs):
    env = gym.make(env_id, **kwargs)
    obs, info = env.reset(options={"task_id": task_id})
    return env, task_env(env), obs, info


def _first_api(base) -> str:
    return json.loads(base.oracle_actions()[0])["name"]


def test_status_codes_and_observations() -> None:
    env, base, _, info = _episode()
    assert {t["function"]["name"] for t in info["tools"]} == set(base.task.tools)
    obs, _, _, _, info = env.step('{"name": "no_such_function", "arguments": {}}')
    assert obs == '{"error": "No such function name: no_such_function", "response": ""}'
    assert info["code"] == 1 and info["error"]["category"] == "wrong_api"
    name = _first_api(base)
    obs, _, _, _, info = env.step(json.dumps({"name": name, "arguments": {"bogus": 1}}))
    assert info["code"] == 12 and info["error"]["category"] == "wrong_arguments"
    assert f"{name}() got an unexpected keyword argument 'bogus'" in obs
    obs, _, done, _, info = env.step('{"name": "Finish", "arguments": {"return_type": "maybe"}}')
    assert info["code"] == 2 and not done
    obs, reward, done, _, info = env.step(
        '{"name": "Finish", "arguments": {"return_type": "give_answer", "final_answer": "x"}}'
    )
    assert obs == '{"response": "successfully giving the final answer."}'
    assert done and reward == 0.0 and info["metrics"]["precheck"] is True
    assert info["error"]["category"] == "goal_not_met"


def test_observations_are_cut_at_1024_characters() -> None:
    env, base, _, _ = _episode(observation_chars=OBSERVATION_CHARS)
    for task_id in base.task_ids:
        env.reset(options={"task_id": task_id})
        obs = env.step(base.oracle_actions()[0])[0]
        if len(obs) > OBSERVATION_CHARS:
            assert len(obs) == OBSERVATION_CHARS + 3 and obs.endswith("...")
            return
    pytest.fail("no test task's first call answers more than 1,024 characters")


def test_an_unsolvable_task_passes_by_trying_and_giving_up() -> None:
    env, base, _, _ = _episode("G2-u00")
    down = base.task.meta["down_function"]
    steps = base.oracle_actions()
    assert json.loads(steps[-1])["arguments"]["return_type"] == "give_up_and_restart"
    for action in steps[:-1]:
        obs, _, _, _, info = env.step(action)
    assert info["code"] == 6 and obs == '{"error": "API not working error...", "response": ""}'
    assert json.loads(steps[-2])["name"] == down
    obs, reward, done, _, info = env.step(steps[-1])
    assert info["code"] == 4 and done and reward == 1.0
    assert info["metrics"]["precheck"] is False  # a give-up is "Unsolved" before any judge
    # giving up without trying the API that is down does not pass
    env.reset(options={"task_id": "G2-u00"})
    assert env.step(steps[-1])[1] == 0.0


def _nested(task) -> bool:
    """Whether a later call of the task's gold takes an id (from an earlier response)."""
    calls = json.loads(task.gold[0])
    return any(k.endswith("_id") for c in calls[1:] for k in c.get("arguments", {}))


def test_a_made_up_id_fails_even_with_the_right_answer() -> None:
    env, base, _, _ = _episode()
    nested = next(t for t in base.task_ids if _nested(base.get_task(t)))
    env.reset(options={"task_id": nested})
    steps = base.oracle_actions()
    call = json.loads(steps[1])
    key = next(k for k in call["arguments"] if k.endswith("_id"))
    value = call["arguments"][key]
    call["arguments"][key] = "zz_000000" if isinstance(value, str) else value + 1
    for action in [steps[0], json.dumps(call), *steps[2:]]:
        *_, reward, done, _, info = env.step(action)
    assert done and reward == 0.0 and info["error"]["category"] == "goal_not_met"
    assert unobserved_ids("", [{"arguments": {"hotel_id": "h1"}, "code": 0}]) == ["hotel_id=h1"]
    seen = [{"arguments": {}, "code": 0, "response": {"hotel_id": "h1"}}]
    assert unobserved_ids("", [*seen, {"arguments": {"hotel_id": "h1"}, "code": 0}]) == []
    assert mentions("It costs 1,299.50 USD", "1299.5") and not mentions("Room 12", "1")


def test_retrieval_unlocks_functions_of_the_whole_library() -> None:
    env, base, _, _ = _episode()
    obs, *_, info = env.step(
        '{"name": "retrieve_apis", "arguments": {"query": "current weather in a city", "top_k": 3}}'
    )
    found = [f["name"] for f in json.loads(obs)["response"]]
    assert len(found) == 3 and info["code"] == 0
    assert any("weather" in name for name in found)
    fresh = next(n for n in found if n not in base.task.tools)
    obs, *_, info = env.step(json.dumps({"name": fresh, "arguments": {"city": "Lisbon"}}))
    assert info["code"] in (0, 12) and "No such function" not in obs


def test_faults_answer_with_toolbench_codes() -> None:
    env, base, _, _ = _episode()
    plan = FaultPlan(1.0, ("timeout", "rate_limit", "server_error"), seed=3)
    base.set_faults(plan)
    codes = set()
    for _ in range(12):
        env.reset(options={"task_id": "G1-000"})
        *_, info = env.step(base.oracle_actions()[0])
        codes.add(info["code"])
        assert info["error"]["category"] == "service_error"
    assert codes <= {5, 9, 12} and len(codes) >= 2


def test_splits_have_the_groups_and_variants() -> None:
    tasks = list(SUITE.load("test").values())
    for group in ("G1", "G2", "G3"):
        solvable = [t for t in tasks if t.meta["group"] == group and t.meta["solvable"]]
        unsolvable = [t for t in tasks if t.meta["group"] == group and not t.meta["solvable"]]
        assert len(solvable) >= 200 and len(unsolvable) >= 20
        nested = [t for t in solvable if _nested(t)]
        assert len(nested) >= 40, group
        tools = {tool for t in solvable for tool, _ in t.meta["relevant"]}
        if group == "G1":
            assert all(len({x for x, _ in t.meta["relevant"]}) == 1 for t in solvable)
        else:
            assert all(len({x for x, _ in t.meta["relevant"]}) >= 2 for t in solvable)
        assert len(tools) > 100
    assert SUITE.train_task(5, 0) == SUITE.train_task(5, 0)


def test_a_larger_library_keeps_the_stored_tasks() -> None:
    env, base, _, _ = _episode(num_apis=8000)
    assert base.toolkit.library.num_apis >= 8000
    for action in base.oracle_actions():
        *_, reward, done, _, _ = env.step(action)
    assert done and reward == 1.0


SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples"
QUERY_FILES = (
    "stabletoolbench/solvable_queries_example/test_instruction/G1_instruction.json",
    "toolbench/data_example/instruction/G1_query.json",
)


@pytest.mark.parametrize("name", QUERY_FILES)
def test_query_files_are_libraries_and_tasks(name: str) -> None:
    path = SAMPLES / name
    if not path.exists():
        pytest.skip(f"the original-format samples are not here ({path})")
    env = gym.make(ENV_ID, library=str(path), task_file=str(path))
    base = task_env(env)
    assert len(base.task_ids) == 3 and not base.task_issues
    for task_id in base.task_ids:
        env.reset(options={"task_id": task_id})
        for action in base.oracle_actions():
            *_, reward, done, _, info = env.step(action)
        assert done and reward == 1.0, info
        # the offered functions are the query's api_list, plus the retriever and Finish
        assert len(base.tools) >= 3 and "Finish" in base.tools


def test_dense_and_merged_retrieval_rank_alike_ties_included() -> None:
    """A long query is scored densely and a short one by merging: the rankings are the same."""
    import numpy as np

    from toolgym.simulators.tool_library.retriever import ApiRetriever

    rng = np.random.default_rng(3)
    vocabulary = ["hotel", "city", "weather", "flight", "music", "album", "price", "stock"]
    documents = [" ".join(rng.choice(vocabulary, size=int(rng.integers(1, 6)))) for _ in range(300)]
    documents += documents[:40]  # exact duplicates: tied scores, the earlier must win
    retriever = ApiRetriever(documents)
    for _ in range(200):
        words = retriever.tokenize(" ".join(rng.choice(vocabulary, size=int(rng.integers(1, 5)))))
        hits = [retriever._index[w] for w in dict.fromkeys(words) if w in retriever._index]
        for k in (1, 3, 10, 400):
            assert retriever.rank(words, k) == ApiRetriever._merge(hits, k)


def _query_api(name: str, required: list[dict[str, Any]], template: Any = None) -> dict[str, Any]:
    entry = {
        "category_name": "Travel",
        "tool_name": "Hotels Hub",
        "api_name": name,
        "api_description": f"{name}.",
        "required_parameters": required,
        "optional_parameters": [],
        "method": "GET",
    }
    if template is not None:
        entry["template_response"] = template
    return entry


def _param(name: str, kind: str, default: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "description": "", "default": default}


def test_query_file_ids_flow_from_listings_to_later_calls(tmp_path: Path) -> None:
    """Documented ids are records the tool's listings return, so golds passing them can play."""
    search = _query_api(
        "Search Hotels", [_param("query", "STRING", "paris")], {"results": [{"id": "int"}]}
    )
    details = _query_api("Hotel Details", [_param("id", "NUMBER", 9945302)], {"name": "str"})
    reviews = _query_api(
        "Reviews", [_param("hotel_id", "STRING", "h-77"), _param("verbose", "BOOLEAN", "1")]
    )
    queries = [
        # the details call is listed first: the gold calls the search before it
        {
            "query": "Find hotels in Paris and give me the first one's details.",
            "query_id": 1,
            "api_list": [search, details],
            "relevant APIs": [["Hotels Hub", "Hotel Details"], ["Hotels Hub", "Search Hotels"]],
        },
        # only the reviews are relevant: the offered search is called first to find the id
        {
            "query": "Show me reviews, verbose.",
            "query_id": 2,
            "api_list": [reviews, search],
            "relevant APIs": [["Hotels Hub", "Reviews"]],
        },
        # the id is in the query: no listing needed
        {
            "query": "Details of hotel 9945302, please.",
            "query_id": 3,
            "api_list": [details],
            "relevant APIs": [["Hotels Hub", "Hotel Details"]],
        },
        # nothing offered lists hotels: the documented id is the only one to pass
        {
            "query": "Show me the details of a hotel.",
            "query_id": 4,
            "api_list": [details],
            "relevant APIs": [["Hotels Hub", "Hotel Details"]],
        },
    ]
    path = tmp_path / "G3_query.json"
    path.write_text(json.dumps(queries, indent=4))
    env = gym.make(ENV_ID, library=str(path), task_file=str(path))
    base = task_env(env)
    assert not base.task_issues
    golds = {}
    for task_id in base.task_ids:
        env.reset(options={"task_id": task_id})
        names = []
        for action in base.oracle_actions():
            names.append(json.loads(action)["name"])
            obs, reward, done, _, info = env.step(action)
            if names[-1] == "search_hotels_for_hotels_hub":
                # the listing answers with the documented records, in their typed id fields
                results = json.loads(obs)["response"]["results"]
                assert results[0]["id"] == 9945302 and results[0]["hotel_id"] == "h-77"
        assert done and reward == 1.0, info
        golds[task_id] = names
    assert golds[1] == ["search_hotels_for_hotels_hub", "hotel_details_for_hotels_hub", "Finish"]
    assert golds[2] == ["search_hotels_for_hotels_hub", "reviews_for_hotels_hub", "Finish"]
    assert golds[3] == golds[4] == ["hotel_details_for_hotels_hub", "Finish"]
    assert base.get_task(4).meta["documented_ids"] == ["9945302"]
    # an agent that makes an id up still fails the id check
    env.reset(options={"task_id": 2})
    made_up = {"hotel_id": "h-1", "verbose": True}
    env.step(json.dumps({"name": "search_hotels_for_hotels_hub", "arguments": {"query": "x"}}))
    env.step(json.dumps({"name": "reviews_for_hotels_hub", "arguments": made_up}))
    *_, reward, done, _, info = env.step(
        json.dumps(
            {"name": "Finish", "arguments": {"return_type": "give_answer", "final_answer": "x"}}
        )
    )
    assert done and reward == 0.0
    assert "ids no earlier response returned" in info["error"]["message"]


def test_query_file_golds_replace_documented_examples_the_api_refuses(tmp_path: Path) -> None:
    """A DATE documented as "not a date" or a NUMBER as "abc" gets a value the API takes."""
    details = _query_api("Hotel Details", [_param("id", "NUMBER", 5)], {"name": "str"})
    dated = _query_api("Bookings", [_param("when", "DATE", "not a date")])
    counted = _query_api("Count", [_param("n", "NUMBER", "abc"), _param("q", "STRING", "x")])
    search = _query_api("Search Hotels", [_param("query", "STRING", "rome")])
    queries = [
        {
            "query": "q1",
            "query_id": 7,
            "api_list": [dated, counted],
            "relevant APIs": [["Hotels Hub", "Bookings"], ["Hotels Hub", "Count"]],
        },
        {
            "query": "q2",
            "query_id": 8,
            "api_list": [search, details],
            "relevant APIs": [["Hotels Hub", "Hotel Details"]],
        },
    ]
    path = tmp_path / "G2_query.json"
    path.write_text(json.dumps(queries))
    env = gym.make(ENV_ID, library=str(path), task_file=str(path))
    base = task_env(env)
    assert not base.task_issues
    arguments = [c["arguments"] for c in json.loads(base.get_task(7).gold[0])[:2]]
    assert arguments[0]["when"] != "not a date" and isinstance(arguments[1]["n"], int | float)
    assert arguments[1]["q"] == "x"  # a documented example the API takes is kept
    for task_id in (7, 8):
        env.reset(options={"task_id": task_id})
        for action in base.oracle_actions():
            *_, reward, done, _, _ = env.step(action)
        assert done and reward == 1.0


@pytest.mark.parametrize(
    "id_param",
    [
        _param("id", "NUMBER", ""),  # undocumented: a drawn whole number
        _param("id", "STRING", ""),  # undocumented, and the listing's ids are ints
        _param("id", "NUMBER", "abc"),  # an example the API refuses
        _param("id", "STRING", "²"),  # digits that int() refuses
    ],
)
def test_query_file_ids_flow_whatever_the_docs_say(tmp_path: Path, id_param: dict) -> None:
    search = _query_api(
        "Search Hotels", [_param("query", "STRING", "paris")], {"results": [{"id": "int"}]}
    )
    details = _query_api("Hotel Details", [id_param], {"name": "str"})
    query = {
        "query": "Find hotels in Paris and the details of one.",
        "query_id": 1,
        "api_list": [search, details],
        "relevant APIs": [["Hotels Hub", "Search Hotels"], ["Hotels Hub", "Hotel Details"]],
    }
    path = tmp_path / "G1_query.json"
    path.write_text(json.dumps([query]))
    env = gym.make(ENV_ID, library=str(path), task_file=str(path))
    base = task_env(env)
    assert not base.task_issues, base.task_issues
    env.reset(options={"task_id": 1})
    for action in base.oracle_actions():
        obs, reward, done, _, info = env.step(action)
        assert "error" not in obs[:12] or '"error": ""' in obs, obs
    assert done and reward == 1.0, info


def test_numbers_past_any_api_are_wrong_arguments(tmp_path: Path) -> None:
    """A 6,000-digit number (past what Python prints) is refused as a wrong argument, not a crash."""
    search = _query_api("Search Hotels", [_param("stars", "NUMBER", 4)], {"results": [{"id": 1}]})
    query = {"query": "q", "query_id": 1, "api_list": [search],
             "relevant APIs": [["Hotels Hub", "Search Hotels"]]}  # fmt: skip
    path = tmp_path / "G1_query.json"
    path.write_text(json.dumps([query]))
    env = gym.make(ENV_ID, library=str(path), task_file=str(path), action_mode="call")
    env.reset(options={"task_id": 1})
    name = "search_hotels_for_hotels_hub"
    for value in ("9" * 6000, "9" * 301):
        *_, info = env.step(json.dumps({"name": name, "arguments": {"stars": value}}))
        assert info["error"]["category"] == "wrong_arguments", info["error"]
    huge = "9" * 4000  # a JSON number, not a string
    *_, info = env.step(f'{{"name": "{name}", "arguments": {{"stars": {huge}}}}}')
    assert info["error"]["category"] == "wrong_arguments", info["error"]


@pytest.mark.parametrize(
    ("env_id", "above_one"), [(ENV_ID, False), ("toolbench/RapidAPI-v0", True)]
)
def test_a_repeated_call_does_not_count_twice_from_v1(env_id: str, above_one: bool) -> None:
    """v1 matches each gold call at most once; v0 keeps Seal-Tools' first-match rule."""
    env, base, _, _ = _episode(env_id=env_id)
    *calls, finish = base.oracle_actions()
    for action in [*calls, *calls, finish]:  # every call of the gold made twice
        *_, done, _, info = env.step(action)
    assert done
    metrics = info["metrics"]
    if above_one:  # recall 2, precision 1: an F1 of 4/3
        assert metrics["tool_f1"] == pytest.approx(4 / 3), metrics
    else:  # every gold call found once, half the calls made extra: precision 1/2, recall 1
        assert metrics["tool_f1"] == pytest.approx(2 / 3) and metrics["param_f1"] <= 1, metrics
