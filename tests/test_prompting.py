import pytest

from toolgym.agents.backends.base import apply_stops, merge_stops
from toolgym.agents.defaults import prompt_defaults
from toolgym.agents.extraction import extract_action, extract_react
from toolgym.agents.prompting import call_signature, paper_prompt, react_prompt, render_demo
from toolgym.benchmarks.tasks import Task
from toolgym.tools.language import language_class

DOC_A = "# Doc A\ncurl -X GET 'https://h/a'\n"
DOC_B = "# Doc B\ncurl -X GET 'https://h/b'\n"
DEMO = "Task: get a\nAction:\ncurl -X GET 'https://h/a'\n"


def test_paper_prompt_format() -> None:
    expected = (
        "I have the following set of API:\n\n"
        "# Doc A\ncurl -X GET 'https://h/a'\n\n"
        "# Doc B\ncurl -X GET 'https://h/b'\n\n"
        "-------------\n"
        "I have the following set of examples:\n\n"
        "Task: get a\nAction:\ncurl -X GET 'https://h/a'\n\n"
        "-------------\n"
        "Task: get b please\nAction:\n"
    )
    assert paper_prompt("  get b please \n", [DOC_A, DOC_B], [DEMO]) == expected
    assert paper_prompt("q", [], []) == "\n\nTask: q\nAction:\n"
    assert paper_prompt("q", [DOC_A], []).endswith("-------------\n\nTask: q\nAction:\n")


def test_demos_keep_their_own_label() -> None:
    task = Task("d", "Rent in Austin", ('API.set_location("Austin")\nAPI.search()',))
    label = language_class("api_program").default_hints().demo_label
    assert render_demo(task, label) == (
        'Task: Rent in Austin\nActions:\nAPI.set_location("Austin")\nAPI.search()\n'
    )
    assert render_demo(task).startswith("Task: Rent in Austin\nAction:\n")


def test_stops_are_deterministic_and_exact() -> None:
    assert merge_stops(("------", "Task:"), ["X", "Task:"], None) == ["------", "Task:", "X"]
    assert apply_stops("curl x\n-------------\nTask: y", ["------", "Task:"]) == ("curl x\n", True)
    assert apply_stops("no stop here", ["------"]) == ("no stop here", False)


def test_extraction_per_action_language() -> None:
    gen = "Sure!\n  curl -X GET 'https://h/a'\ncurl -X GET 'https://h/b'"
    assert extract_action(gen, "curl") == "curl -X GET 'https://h/a'"
    assert extract_action("no command", "curl") == "no command"
    program = "Here you go:\n```python\nAPI.search()\n```"
    assert extract_action(program, "api_program") == program.strip()
    assert extract_action(program, "api_program", "lenient") == "API.search()"
    with pytest.raises(ValueError):
        extract_action("x", "curl", "loose")


def test_react_format_and_parsing() -> None:
    hints = language_class("curl").default_hints()
    text = react_prompt("find it", [DOC_A], [], [("look", "curl a", "HTTP 200")], hints)
    assert text.endswith("Thought: look\nAction: curl a\nObservation: HTTP 200\nThought:")
    assert "The last action is finish" in text
    assert extract_react("I will call it.\nAction: curl -X GET 'https://h/a'") == (
        "I will call it.",
        "curl -X GET 'https://h/a'",
    )
    assert extract_react("API.search()") == ("", "API.search()")


def test_family_defaults_follow_the_original() -> None:
    assert prompt_defaults("trip_booking").max_new_tokens == 300
    assert prompt_defaults("cat_api").top_k_api == 3
    assert prompt_defaults("home_search").top_k_api == 15


def test_call_signature() -> None:
    assert call_signature('x = Loc("A")\nAPI.set_origin(x)') == frozenset({"Loc", "set_origin"})
