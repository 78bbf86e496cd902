"""The household-action language: one ``Agent.<Action>(object[, object])`` call per line.

A program is the benchmark's: one call per line, arguments as bare class names
(``Agent.Put(cup, table)``). Each line is cleaned as the original grounding cleans it (quotes and
semicolons removed, a leading ``3.`` numbering dropped), and the program ends at a line starting
with ``Task:``. In ``program`` mode the lines run in order and the first that cannot run stops the
simulation; the program's text is kept in the attempt as written, since the text metrics score
all of it.
Since the whole program is known, each class it names is first bound to the instance that suits
it (the chair at the desk when it also names the computer), as a VirtualHome script's instance
ids would. In
``call`` mode each step is one line (or one JSON call ``{"name": "WalkTo", "arguments":
{"object": "kitchen"}}``), a step that cannot run changes nothing, and ``finish`` ends the
episode.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from toolgym.families.virtual_home.backend import VirtualHomeBackend
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.backend_language import BackendLanguage
from toolgym.tools.budgets import DEFAULT_BUDGETS, RESOURCE_LIMIT, Budgets
from toolgym.tools.errors import NON_EXECUTABLE, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.grammar import ActionGrammar, lines, literal, one_of, rule_name
from toolgym.tools.json_calls import ToolCall, looks_like_json_call, parse_json_call
from toolgym.tools.language import AgentHints, Execution, register_language
from toolgym.tools.tool import Tool, ToolSet

MAX_LINES = 200
"""The most lines a program may have."""

_NUMBERING = re.compile(r"^\d+\. *")


def clean_line(line: str) -> str:
    """A line as the original grounding reads it: quotes and ``;`` removed, numbering dropped.

    >>> clean_line(' 2. Agent.WalkTo("kitchen");')
    'Agent.WalkTo(kitchen)'
    """
    text = line.strip()
    for char in "\"';":
        text = text.replace(char, "")
    return _NUMBERING.sub("", text).strip()


def program_lines(text: str) -> list[str]:
    """The cleaned lines of a program, as the original grounding reads them.

    Lines are split on ``\\n``; blank lines are skipped; reading stops at the first line starting
    with ``Task:``. A line that cleans to nothing (``3.``) is kept as ``""``: it is not an action.

    >>> program_lines("Agent.Find(cup)\\n\\n1.\\nAgent.Grab(cup)\\nTask: next\\nAgent.Sleep()")
    ['Agent.Find(cup)', '', 'Agent.Grab(cup)']
    """
    lines = []
    for raw in text.split("\n"):
        stripped = raw.strip()
        if stripped.startswith("Task:"):
            break
        if stripped:
            lines.append(clean_line(stripped))
    return lines


def _shown(line: str, limit: int = 120) -> str:
    return line if len(line) <= limit else line[: limit - 3] + "..."


_OBJECT_NAME = re.compile(r"[\w .'-]{1,80}")
"""What a rendered object argument may be: one name, no delimiters of the action syntax."""


class AgentActionLanguage(BackendLanguage[VirtualHomeBackend]):
    """``Agent.<Action>(...)`` lines on a household backend (see the module docstring).

    Args:
        tools: the 40 action tools.
        budgets: the action's limits (its length; the number of lines is :data:`MAX_LINES`).
    """

    backend_type = VirtualHomeBackend

    refusal_info: ClassVar[Mapping[str, Any]] = {"lines": 0}

    name = "agent_actions"
    step_description = "one Agent.<Action>(...) line"
    demo_label = "Actions:"
    finish_word = "finish"

    def __init__(self, tools: ToolSet, budgets: Budgets = DEFAULT_BUDGETS) -> None:
        self.tools = tools
        super().__init__(budgets)

    def _lines(self, text: str) -> list[str]:
        if len(text) > self.budgets.max_action_chars:
            raise ToolCallError(
                RESOURCE_LIMIT,
                f"the program has {len(text)} characters; at most {self.budgets.max_action_chars}",
            )
        lines = program_lines(text)
        if not lines:
            raise ToolCallError(
                NON_EXECUTABLE, "expected Agent.<Action>(...) lines; got no line of text"
            )
        if len(lines) > MAX_LINES:
            raise ToolCallError(
                RESOURCE_LIMIT, f"the program has {len(lines)} lines; at most {MAX_LINES}"
            )
        return lines

    def grammar(self, tools: ToolSet, mode: str, backend: Backend) -> ActionGrammar:
        """``Agent.<Action>(object[, object])`` lines with the allowed objects.

        Program mode: at most :data:`MAX_LINES` lines; call mode: one line, or ``finish``.
        """
        objects: dict[tuple[str, ...], str] = {}
        rules, alternatives = [], []
        for tool in tools:
            values = []
            for param in tool.params:
                enum = tuple(str(v) for v in param.enum or ())
                if enum and enum not in objects:
                    objects[enum] = rule_name("objects", str(len(objects)))
                    rules.append(f"{objects[enum]} ::= {one_of([literal(v) for v in enum])}")
                values.append(objects[enum] if enum else "[a-z_]{1,40}")
            alternatives.append(
                " ".join([literal(f"{tool.qualname}("), ' ", " '.join(values), '")"'])
            )
        line = one_of(alternatives)
        if mode == "program":
            return ActionGrammar(lines(line, max_lines=MAX_LINES), rules="\n".join(rules))
        return ActionGrammar(one_of([line, '"finish"']), rules="\n".join(rules))

    def run_program(self, text: str, backend: Backend) -> Execution:
        """Run the lines in order until one cannot run; keep them all; the episode ends."""
        home = self.on(backend)
        error: ToolCallError | None = None
        home.write(text)
        try:
            lines = self._lines(text)
        except ToolCallError as e:
            return Execution(e.observation(), e, True, home.attempt(e))
        home.bind(lines)
        for k, line in enumerate(lines, 1):
            if error is None:
                kept = len(home.lines)
                try:
                    home.act(line)
                except ToolCallError as e:
                    error = ToolCallError(e.category, f"{_shown(line)}: {e.message}", k)
                    if len(home.lines) == kept:  # a fault stopped it before it ran
                        home.keep(line)
            else:
                home.keep(line)
        ran = home.executed
        head = f"Ran {ran} of {len(lines)} lines."
        if error is not None:
            head = f"{error.observation()}\n{head}"
        return Execution(
            f"{head}\n{home.describe()}", error, True, home.attempt(error), {"lines": len(lines)}
        )

    def run_call(self, text: str, backend: Backend) -> Execution:
        """Run one line or JSON call; a line that cannot run changes nothing."""
        home = self.on(backend)
        try:
            if looks_like_json_call(text):
                call = parse_json_call(text, self.budgets)
                line = raw = home.line_of(call.name, call.arguments)
            else:
                lines = self._lines(text)
                if len(lines) != 1:
                    raise ToolCallError(
                        NON_EXECUTABLE, f"call mode takes one line per step; got {len(lines)}"
                    )
                line, raw = lines[0], text
            message = home.act(line, raw)
        except ToolCallError as e:
            return Execution(e.observation(), e)
        return Execution(f"{message} {home.describe()}")

    def finish(self, backend: Backend) -> Execution:
        """End the episode on the agent's word; what was done is scored."""
        home = self.on(backend)
        return Execution("Finished.", finished=True, attempt=home.attempt(None))

    def run_gold(self, gold: str, backend: Backend) -> Attempt:
        """Run a gold program; the first line that cannot run raises."""
        home = self.on(backend)
        lines = self._lines(gold)
        home.bind(lines)
        for k, line in enumerate(lines, 1):
            try:
                home.act(line)
            except ToolCallError as e:
                raise ToolCallError(e.category, f"{_shown(line)}: {e.message}", k) from None
        return home.attempt(None)

    def gold_steps(self, gold: str) -> list[str]:
        """One line per step, then ``finish``."""
        return [*program_lines(gold), "finish"]

    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """``Agent.Put(cup, table)``.

        Raises:
            ToolCallError: ``wrong_arguments`` for a value that is not one object name (a
                comma, a parenthesis or a newline would write more than one call).
        """
        values = [str(arguments[p.name]) for p in tool.params if p.name in arguments]
        for value in values:
            if not _OBJECT_NAME.fullmatch(value):
                raise ToolCallError(
                    WRONG_ARGUMENTS, f"an object is named by one word; got {value!r:.80}"
                )
        return f"{tool.qualname}({', '.join(values)})"

    def tool_calls(self, action: str, tools: ToolSet) -> list[ToolCall] | None:
        """Each ``Agent.Put(cup, table)`` line as a call, its objects by parameter.

        >>> from toolgym.tools.tool import Param
        >>> put = Tool("Put", "", (Param("object", "string", ""), Param("target", "string", "")), owner="Agent")
        >>> AgentActionLanguage(ToolSet([put])).tool_calls("Agent.Put(cup, table)", ToolSet([put]))
        [ToolCall(name='Put', arguments={'object': 'cup', 'target': 'table'})]
        """
        calls = []
        for line in action.split("\n"):
            match = re.fullmatch(r"\s*Agent\.(\w+)\(([^()]*)\)\s*", line)
            tool = None if match is None else tools.get(match.group(1))
            if match is None or tool is None:
                return None
            values = [a.strip() for a in match.group(2).split(",") if a.strip()]
            if len(values) > len(tool.params):
                return None
            arguments = {p.name: v for p, v in zip(tool.params, values, strict=False)}
            calls.append(ToolCall(tool.name, arguments))
        return calls or None

    @classmethod
    def signature(cls, action: str) -> frozenset[str]:
        """The actions a program uses and the objects it names.

        >>> sorted(AgentActionLanguage.signature("Agent.Put(cup, table)"))
        ['Put', 'cup', 'table']
        """
        names: set[str] = set()
        for match in re.finditer(r"Agent\.(\w+)\(([^()]*)\)", action):
            names.add(match.group(1))
            names.update(a.strip() for a in match.group(2).split(",") if a.strip())
        return frozenset(names)

    @classmethod
    def extract(cls, generation: str, hints: AgentHints, extraction: str = "strict") -> str:
        """The program in a generation.

        Strict: the text up to the first ``Task:`` line (the original's rule); lenient: only the
        lines that hold an ``Agent.`` call, from ``Agent.`` on.
        """
        lines = []
        for raw in generation.splitlines():
            if raw.strip().startswith("Task:"):
                break
            if extraction != "lenient" or "Agent." in raw:
                lines.append(raw[raw.find("Agent.") :].strip() if extraction == "lenient" else raw)
        return "\n".join(lines).strip()


register_language(
    AgentActionLanguage.name, "toolgym.families.virtual_home.language:AgentActionLanguage"
)
