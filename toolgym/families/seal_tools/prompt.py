"""The benchmark's prompt: the instruction, the output format, the offered tools and the query.

A single user turn, as Seal-Tools fine-tunes and evaluates with it: choose the APIs the task
needs and answer with the list of calls, in the exact output format; responses may feed later
calls' parameters; then ``Input:``, the offered tools as ``api_list = [...]`` (their
``tool.jsonl`` records) and ``task_instruction = "<query>"``.
"""

from __future__ import annotations

from collections.abc import Iterable

from toolgym.families.seal_tools.convert import seal_record
from toolgym.families.seal_tools.world import SealTool

OUTPUT_FORMAT = (
    '[{"api": "", "parameters": {"": ""}, "responses": ["API_call_0", "API_call_1"]}, ...]'
)
"""The output format line of the prompt, exactly."""

INSTRUCTION = (
    "You are given a list of APIs and a task. Pick the APIs the task needs from the list and "
    "answer with the list of API calls that carry it out, in the order they run. Answer in "
    "this format only:\n"
    f"{OUTPUT_FORMAT}\n"
    'Each call names its API in "api", gives its arguments in "parameters", and lists in '
    '"responses" one placeholder per response field of that API, numbered across the whole '
    "answer in call order (API_call_0, API_call_1, ...); how many responses a call has "
    "depends on its API in the api_list. A placeholder can be passed as the value of a "
    "parameter of a later call, to use that response."
)
"""What the prompt asks, before the input."""


def opening_prompt(tools: Iterable[SealTool], query: str) -> str:
    """The whole prompt for ``query`` with ``tools`` offered (in that order)."""
    api_list = ", ".join(seal_record(t) for t in tools)
    return f'{INSTRUCTION}\nInput:\napi_list = [{api_list}]\ntask_instruction = "{query}"'
