"""The paper's prompt format, its system prompt, demonstrations, and the ReAct format.

Single-step prompt (the original template)::

    {api_docs}\\n{examples}\\nTask: {query}\\nAction:\\n

where ``api_docs`` is ``"I have the following set of API:\\n\\n"`` followed by each retrieved doc
and a newline, then the 13-dash separator, and ``examples`` is the same with
``"I have the following set of examples:\\n\\n"``; an empty list gives an empty block. Docs and
demos end with a newline, so consecutive items are separated by one blank line.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolgym.benchmarks.tasks import Task
from toolgym.tools.language import AgentHints, language_class

API_HEADER = "I have the following set of API:\n\n"
EXAMPLE_HEADER = "I have the following set of examples:\n\n"
SEPARATOR = "-------------"

SYSTEM_PROMPT = (
    "You are an assistant that operates software tools by writing actions. Reply with the action "
    "only, written exactly like the actions in the examples and using only the documented API: no "
    "explanation, no Markdown, no text before or after it."
)
"""The system prompt that regulates generation to code only (the paper's first technique)."""

REACT_STOPS: tuple[str, ...] = ("\nObservation:", "Observation:")


def block(header: str, items: Sequence[str]) -> str:
    """A docs or examples block: header, each item plus a newline, the separator."""
    if not items:
        return ""
    return header + "".join(f"{item}\n" for item in items) + SEPARATOR


def paper_prompt(query: str, docs: Sequence[str], demos: Sequence[str]) -> str:
    """The single-step prompt of the paper.

    >>> paper_prompt(" weather? ", [], [])
    '\\n\\nTask: weather?\\nAction:\\n'
    """
    return f"{block(API_HEADER, docs)}\n{block(EXAMPLE_HEADER, demos)}\nTask: {query.strip()}\nAction:\n"


def render_demo(task: Task, label: str = "Action:") -> str:
    """A demonstration as the original example files write it (newline-terminated).

    Args:
        task: the demonstration.
        label: the line before its action (the env's ``hints.demo_label``: ``Actions:`` for API
            programs, as in the Home Search and Booking demos).
    """
    return f"Task: {task.instruction}\n{label}\n{task.gold[0].strip()}\n"


def react_prompt(
    query: str,
    docs: Sequence[str],
    demos: Sequence[str],
    history: Sequence[tuple[str, str, str | None]],
    hints: AgentHints,
) -> str:
    """A ReAct prompt: the paper's blocks, the task, and thought/action/observation turns."""
    done = hints.finish_action or "the action that submits the answer"
    one = hints.step_description
    lines = [
        block(API_HEADER, docs),
        block(EXAMPLE_HEADER, demos),
        f"Task: {query.strip()}",
        f"Solve the task step by step. At each step write a thought, then {one} after 'Action:'; "
        f"you will then see its result after 'Observation:'. The last action is {done}.",
    ]
    for thought, action, observation in history:
        lines.append(f"Thought: {thought}".rstrip())
        lines.append(f"Action: {action}")
        if observation is not None:
            lines.append(f"Observation: {_clip(observation)}")
    lines.append("Thought:")
    return "\n".join(line for line in lines if line != "")


def _clip(text: str, limit: int = 1500) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + " ...[truncated]"


def call_signature(action: str, action_language: str = "api_program") -> frozenset[str]:
    """The names an action uses, by the rules of its action language (for oracle shots).

    >>> sorted(call_signature('API.set_location("A")\\nAPI.search()'))
    ['search', 'set_location']
    >>> sorted(call_signature("curl -X GET 'https://h/data/2.5/weather?q=a&units=metric'", "curl"))
    ['/data/2.5/weather', 'q', 'units']
    """
    return language_class(action_language).signature(action)
